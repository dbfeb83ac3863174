"""ScoreLens's Python API: score lists of strings as sacreBLEU, rouge-score and jiwer do, segment
by segment or as additive statistics, compare systems, measure how far annotators agree, and edit
a corpus live.

Its functions take the command line's options by the same names, and their results'
``to_dict()`` is the command line's JSON.
"""

from .agreement import Agreement, Disagreement, agree
from .compare import compare
from .corpus import Corpus
from .options import DEFAULT_METRICS, OptionError
from .results import Bleu, Cer, Chrf, Perplexity, Rouge, Scores, SegmentScores, Ter, Wer
from .scoring import score, sentence_scores
from .statistics import Statistics, statistics

__all__ = [
    "DEFAULT_METRICS",
    "Agreement",
    "Bleu",
    "Cer",
    "Chrf",
    "Corpus",
    "Disagreement",
    "OptionError",
    "Perplexity",
    "Rouge",
    "Scores",
    "SegmentScores",
    "Statistics",
    "Ter",
    "Wer",
    "agree",
    "compare",
    "score",
    "sentence_scores",
    "statistics",
    "qa",
]


def __getattr__(name: str):
    # the QA checks (and translate-toolkit) load on first use: the command line imports this package
    if name == "qa":
        from .qa_checks import qa

        return qa
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
