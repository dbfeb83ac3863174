"""Outliers by the modified z-score (Iglewicz and Hoaglin): values far from the rest of a document.

Over the values x left in (NaN: a segment left out): ``z = 0.6745 * (x - median) / MAD`` with MAD
the median absolute deviation from the median. When more than half the values are one value MAD
is 0: then ``z = (x - median) / (1.2533 * MeanAD)``, MeanAD the mean absolute deviation from the
median; when that is 0 too (every value alike) there are no outliers.

:func:`find_outliers` works on a whole array at once (vectorised); :class:`RunningSample` keeps
the values sorted through edits and gives the same median and scale, to the last bit, in
O(log n) per question (a keystroke cannot wait for an O(n) median of a 100,000-line document).
"""

from __future__ import annotations

import bisect
import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Sequence

if TYPE_CHECKING:  # NumPy is imported where it is used: score, check and serve start without it
    import numpy as np

_ONE_BY_ONE = 64  # changes above this many re-sort the sample
# 0.6745 makes the median absolute deviation comparable to a standard deviation, 1.2533 the mean one
MAD_SCALE = 0.6745
MEAN_AD_SCALE = 1.2533


@dataclass(frozen=True, slots=True, eq=False)
class Outliers:
    """The z-scores of a document's values and which of them stand out. One-sided (the default):
    only high scores count (a segment much *more* likely than the rest is not a problem);
    two-sided: far on either side (a translation much shorter or much longer than its peers)."""

    median: float
    scale: float  # z = (x - median) / scale; 0 when nothing can stand out
    threshold: float
    z_scores: np.ndarray  # per value; NaN for one left out
    two_sided: bool = False

    @property
    def mask(self) -> np.ndarray:
        """Per value, whether it is an outlier (NaN, a value left out, compares False)."""
        import numpy as np
        return (np.abs(self.z_scores) if self.two_sided else self.z_scores) > self.threshold

    @property
    def segments(self) -> list[int]:
        import numpy as np
        return np.flatnonzero(self.mask).tolist()


def scale(mad: float, mean_ad: Callable[[], float]) -> float:
    """What a deviation from the median is divided by; ``mean_ad`` is asked only when MAD is 0."""
    return mad / MAD_SCALE if mad else MEAN_AD_SCALE * mean_ad()


def find_outliers(values: Sequence[float] | np.ndarray, threshold: float, two_sided: bool = False) -> Outliers:
    """The :class:`Outliers` of ``values`` (NaN: a segment left out)."""
    import numpy as np
    # NumPy's median is statistics.median's (the middle value, or the two middle ones' sum / 2)
    # and the arithmetic is the same IEEE operations: the same numbers, a hundred times sooner
    all_values = np.asarray(values, dtype=float)
    kept = all_values[~np.isnan(all_values)]
    if not len(kept):
        return Outliers(0.0, 0.0, threshold, np.full(len(all_values), np.nan), two_sided)
    median = float(np.median(kept))
    deviations = np.abs(kept - median)
    s = scale(float(np.median(deviations)), lambda: math.fsum(deviations.tolist()) / len(kept))
    z = (all_values - median) / s if s else np.where(np.isnan(all_values), np.nan, 0.0)
    return Outliers(median, s, threshold, z, two_sided)


class RunningSample:
    """Values kept sorted through additions and removals, with :func:`find_outliers`'s median and
    scale of them (equal to its numbers for the same values)."""

    def __init__(self) -> None:
        self._sorted: list[float] = []
        self._stats: tuple[float, float] | None = None

    def __len__(self) -> int:
        return len(self._sorted)

    def add(self, value: float) -> None:
        bisect.insort(self._sorted, value)
        self._stats = None

    def remove(self, value: float) -> None:
        values = self._sorted
        del values[bisect.bisect_left(values, value)]
        self._stats = None

    def replace(self, removed: Sequence[float], added: Sequence[float]) -> None:
        """Values ``removed`` (each one there) give way to ``added``: one by one for a few (each
        O(n) at worst, a memmove), by one sort for many."""
        if len(removed) + len(added) <= _ONE_BY_ONE:
            for value in removed:
                self.remove(value)
            for value in added:
                self.add(value)
            return
        if removed:
            gone = Counter(removed)
            kept = []
            for value in self._sorted:
                if gone[value]:
                    gone[value] -= 1
                else:
                    kept.append(value)
            self._sorted = kept
        self._sorted.extend(added)
        self._sorted.sort()
        self._stats = None

    def median_and_scale(self) -> tuple[float, float]:
        """``(median, scale)``; ``(0.0, 0.0)`` for no values."""
        if self._stats is None:
            self._stats = self._compute()
        return self._stats

    def _compute(self) -> tuple[float, float]:
        a = self._sorted
        n = len(a)
        if not n:
            return 0.0, 0.0
        median = _middle(n, lambda i: a[i])
        # the absolute deviations are two sorted runs: leftwards from the median and rightwards
        p = bisect.bisect_left(a, median)

        def left(j: int) -> float:
            return median - a[p - 1 - j]  # |x - median| for x < median (IEEE rounding is symmetric)

        def right(j: int) -> float:
            return a[p + j] - median

        mad = _middle(n, lambda k: _kth_of_two(left, p, right, n - p, k))
        return median, scale(mad, lambda: math.fsum(abs(x - median) for x in a) / n)


def _middle(n: int, kth: Callable[[int], float]) -> float:
    """The median of n sorted values, ``kth(i)`` the i-th (NumPy's: the mean of the middle two)."""
    if n % 2:
        return kth(n // 2)
    return (kth(n // 2 - 1) + kth(n // 2)) / 2


def _kth_of_two(left: Callable[[int], float], n_left: int, right: Callable[[int], float], n_right: int, k: int) -> float:
    """The k-th smallest (from 0) of two sorted runs, in O(log n): how many of the k + 1 smallest
    come from ``left`` is found by bisection."""
    lo, hi = max(0, k + 1 - n_right), min(k + 1, n_left)
    while lo < hi:  # the least i with left[i] >= right[k - i] (i taken from left)
        i = (lo + hi) // 2
        if left(i) < right(k - i):
            lo = i + 1
        else:
            hi = i
    i = lo  # i from left, k + 1 - i from right
    candidates = []
    if i > 0:
        candidates.append(left(i - 1))
    if k + 1 - i > 0:
        candidates.append(right(k - i))
    return max(candidates)
