"""ScoreLens: BLEU, chrF, TER, ROUGE and WER equal to sacreBLEU, rouge-score and jiwer, live in
an editor, in a command line and from Python.

    >>> import scorelens
    >>> s = scorelens.score(["the cat sat on the mat"], ["the cat is on the mat"], metrics=["bleu", "wer"])
    >>> round(s.bleu.score, 2), s.wer.substitutions
    (37.99, 1)

The API (:mod:`scorelens.api`) is loaded on first use, so the command line starts without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "Agreement",
    "Corpus",
    "OptionError",
    "Scores",
    "SegmentScores",
    "Statistics",
    "agree",
    "compare",
    "score",
    "sentence_scores",
    "statistics",
    "qa",
]

if TYPE_CHECKING:
    from .api import (
        Agreement,
        Corpus,
        OptionError,
        Scores,
        SegmentScores,
        Statistics,
        agree,
        compare,
        qa,
        score,
        sentence_scores,
        statistics,
    )


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'scorelens' has no attribute {name!r}")

