"""ScoreLens's Python API: score lists of strings as sacreBLEU, rouge-score and jiwer do, segment
by segment or as additive statistics, compare systems, measure how far annotators agree, and edit
a corpus live.

Its functions take the command line's options by the same names, and their results'
``to_dict()`` is the command line's JSON.
"""

from typing import TYPE_CHECKING, Any

# Modules of this package as well as its functions: imported here, so that the names are the
# functions whichever of the package's modules is imported first.
from .compare import compare
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

if TYPE_CHECKING:
    from .agreement import Agreement, Disagreement, agree
    from .corpus import Corpus
    from .options import DEFAULT_METRICS, OptionError
    from .qa_checks import qa
    from .results import Bleu, Cer, Chrf, Perplexity, Rouge, Scores, SegmentScores, Ter, Wer
    from .scoring import score, sentence_scores

# The rest loads on first use: each command of the command line imports only the modules it needs
# (and the QA checks load translate-toolkit).
_LAZY = {
    **dict.fromkeys(("Agreement", "Disagreement", "agree"), "agreement"),
    "Corpus": "corpus",
    **dict.fromkeys(("DEFAULT_METRICS", "OptionError"), "options"),
    "qa": "qa_checks",
    **dict.fromkeys(("Bleu", "Cer", "Chrf", "Perplexity", "Rouge", "Scores", "SegmentScores", "Ter", "Wer"), "results"),
    **dict.fromkeys(("score", "sentence_scores"), "scoring"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
