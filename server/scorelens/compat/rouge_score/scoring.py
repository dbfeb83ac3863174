"""rouge-score 0.1.2's ``scoring`` shapes: the ``Score`` triple and the scorer's base class."""

from __future__ import annotations

import abc
from typing import NamedTuple


class Score(NamedTuple):
    """Precision, recall and F-measure (0-1) of one ROUGE type for one target/prediction pair."""

    precision: float
    recall: float
    fmeasure: float


class BaseScorer(abc.ABC):
    """A scorer: ``score(target, prediction)`` gives a ``Score`` per score type."""

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> dict[str, Score]: ...


class BootstrapAggregator:
    """rouge-score's bootstrap aggregation of per-pair scores (random resampling into low, mid
    and high percentiles): ScoreLens has none; its corpus figure is the plain mean of the pairs'
    scores (``scorelens.score(..., metrics=["rougeL"])``)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise NotImplementedError(
            "rouge-score's BootstrapAggregator is not in ScoreLens: its corpus ROUGE is the mean of the "
            "per-pair scores (scorelens.score(hypotheses, references, metrics=['rougeL']))"
        )
