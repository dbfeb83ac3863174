"""Agreement between annotators of the same segments: each metric's figure per directed pair of
annotators, and the segments they disagree on most (:class:`Cells`); WER and CER from one
alignment per segment and pair of annotators, read both ways (:class:`EditDistances`).

jiwer's errors (S + D + I) between two texts are the Levenshtein distance of their words (or
characters): its edit operations are a shortest edit script, and a shortest script read the
other way (deletions as insertions) is one for the other direction. Only the reference's length,
the rate's denominator, depends on which text is the reference. So each unordered pair is aligned
once and gives both directions' rates, from the same integers jiwer sums, divided as it divides
them. The counts themselves are not read both ways: rapidfuzz breaks ties between equally short
scripts differently in each direction, so hits and substitutions may differ; their sum may not.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations, zip_longest
from typing import Sequence

import numpy as np
from rapidfuzz.distance import Levenshtein

from .config import HUNDREDS, SYMMETRIC, ScoringConfig
from .segment import Analyser

METRICS = ("wer", "cer")


@dataclass(frozen=True)
class EditDistances:
    """Per annotator, each segment's length in words (characters); per pair ``i < j``, each
    segment's Levenshtein distance."""

    lengths: list[np.ndarray]
    distances: dict[tuple[int, int], np.ndarray]

    @classmethod
    def of(cls, config: ScoringConfig, metric: str, annotators: Sequence[Sequence[str]]) -> EditDistances:
        """``metric`` (``wer`` or ``cer``, under jiwer's rules) of every pair of annotators, whose
        segments' texts are ``annotators[k]`` (all as long)."""
        if metric not in METRICS or config.wer_rules != "jiwer":
            raise ValueError(f"one alignment serves both directions for jiwer's {' and '.join(METRICS)} only")
        # one analyser: equal words get equal numbers in every annotator's texts
        analyser = Analyser(replace(config, metrics=frozenset({metric})))
        units = [analyser.units(texts) for texts in annotators]
        lengths = [np.fromiter(map(len, u), np.int64, len(u)) for u in units]
        distances = {
            (i, j): np.fromiter(map(Levenshtein.distance, units[i], units[j]), np.int64, len(units[i]))
            for i, j in combinations(range(len(units)), 2)
        }
        return cls(lengths, distances)

    def errors(self, reference: int, hypothesis: int) -> np.ndarray:
        return self.distances[min(reference, hypothesis), max(reference, hypothesis)]

    def rate(self, reference: int, hypothesis: int) -> float:
        """The corpus rate of annotator ``hypothesis`` against annotator ``reference``, as
        :func:`.wer.rates` gives it from the summed counts (no reference words: the errors, which
        are then insertions, as jiwer counts them)."""
        errors = int(self.errors(reference, hypothesis).sum())
        length = int(self.lengths[reference].sum())
        return errors / length if length else float(errors)

    def segment_rates(self, reference: int, hypothesis: int) -> np.ndarray:
        """Each segment's own rate, by the same rule."""
        errors = self.errors(reference, hypothesis)
        length = self.lengths[reference]
        return np.where(length == 0, errors, errors / np.where(length == 0, 1, length)).astype(np.float64)


def distance(metric: str, scores: np.ndarray) -> np.ndarray:
    """Sentence-level figures as distances: 0 for equal texts, more the more they differ (WER, CER
    and TER as they are, 100 minus sentence BLEU or chrF, 1 minus ROUGE's F-measure)."""
    from .significance import METRICS as TESTED

    if TESTED[metric].higher_is_better:
        return (100.0 if metric in HUNDREDS else 1.0) - scores
    return scores


def equal_texts(a: Sequence[str], b: Sequence[str]) -> np.ndarray:
    """Per segment, whether two annotators wrote the same (past the end of the shorter, empty)."""
    return np.fromiter((x == y for x, y in zip_longest(a, b, fillvalue="")), bool, max(len(a), len(b)))


class Cells:
    """The figures found so far: each metric's cell per directed pair (annotator ``j`` against
    annotator ``i`` as the reference), and each directed pair's sentence-level distances on the
    ranking metric."""

    def __init__(self, ranking: str) -> None:
        self.ranking = ranking
        self.cells: dict[tuple[str, int, int], float] = {}
        self.distances: dict[tuple[int, int], np.ndarray] = {}

    def put(self, metric: str, i: int, j: int, cell: float, segment_scores: np.ndarray | None = None, same: np.ndarray | None = None) -> None:
        """Annotator j's figure against annotator i, and its segments' own when they rank the
        segments, ``same`` those where the two wrote the same (:func:`equal_texts`): no
        disagreement there, whatever the figure (sentence BLEU and chrF of two empty texts are 0);
        a symmetric metric's goes both ways."""
        pairs = [(i, j), (j, i)] if metric in SYMMETRIC else [(i, j)]
        for a, b in pairs:
            self.cells[metric, a, b] = cell
            if segment_scores is not None:
                found = distance(metric, segment_scores)
                self.distances[a, b] = found if same is None else np.where(same, 0.0, found)

    def matrix(self, metric: str, annotators: int) -> list[list[float | None]]:
        """Row i, column j: annotator j against annotator i (None on the diagonal)."""
        return [[self.cells.get((metric, i, j)) for j in range(annotators)] for i in range(annotators)]

    def ranked(self, top: int) -> list[tuple[int, float]]:
        """(segment, disagreement) of the ``top`` segments the annotators disagree on most, the most
        first: the mean distance over every directed pair put; none where it is 0; ties in the
        segments' order."""
        if not self.distances:
            return []
        # files that do not line up (the editor's, mid-edit): a pair of shorter ones has fewer
        # segments, and past both its ends both texts are empty, so equal
        n = max(map(len, self.distances.values()))
        mean = np.mean([np.pad(d, (0, n - len(d))) for d in self.distances.values()], axis=0)
        order = np.argsort(-mean, kind="stable")[:top]
        return [(int(k), float(mean[k])) for k in order if mean[k] > 0]
