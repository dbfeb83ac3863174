"""ROUGE-1.5.5.pl's printed average (:func:`.rouge155.average`) kept exactly, a summary at a time.

The script's average is the mean of its resamples' means, so it is linear in the summaries'
figures: ``sum_i c_i v_i / (n B)``, where ``c_i`` is how often summary ``i`` is drawn over the
``B`` resamples (a matter of ``n`` alone). Each figure is printed with 5 decimals, so it is an
integer ``V_i = 10^5 v_i``, and ``sum_i c_i V_i`` an exact integer: a changed summary moves it by
``c_i (V_new - V_old)``. The printed figure is that exact value rounded as the script rounds, save
where it lies so near a half-way point that the script's own float sums could round the other
way: there the script's computation is repeated, in its order (:func:`scripted`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np

__all__ = ["Average", "averaged", "draw_counts", "scripted"]

_A, _C, _MASK = 0x5DEECE66D, 0xB, (1 << 48) - 1
# Columns of draws made at a time (1,000 resamples: 1 MB a block, which stays in the caches)
_BLOCK = 128


@lru_cache(maxsize=4)
def _steps(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(A_i, C_i)`` for i = 1..n: drand48's state after i draws is ``A_i x_0 + C_i`` mod 2**48."""
    a, c = np.empty(n, np.uint64), np.empty(n, np.uint64)
    x_a, x_c = 1, 0
    for i in range(n):
        x_a, x_c = (x_a * _A) & _MASK, (x_c * _A + _C) & _MASK
        a[i], c[i] = x_a, x_c
    return a, c


def _picks(n: int, rows: slice, columns: slice, steps: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The script's ``int(rand(n))`` draws of resamples ``rows`` (``srand(k)`` for resample k: Perl's
    drand48 seeded ``(k << 16) + 0x330E``), draws ``columns`` of each; uint64 products wrap mod
    2**64, a multiple of 2**48."""
    seeds = (np.arange(rows.start, rows.stop, dtype=np.uint64) << np.uint64(16)) + np.uint64(0x330E)
    x = np.multiply(seeds[:, None], steps[0][None, columns])
    x += steps[1][None, columns]
    x &= np.uint64(_MASK)
    # rand(n) is n * drand48(); int() truncates. (x * 2**-48) * n and x * (n * 2**-48) round the
    # same product once (scaling by a power of 2 is exact)
    drawn = x.astype(np.float64)
    drawn *= float(n) * 2.0**-48
    return drawn.astype(np.int64)


@lru_cache(maxsize=4)
def _order(n: int) -> np.ndarray:
    """Segment indices in the order the script draws from: ``"<eval id>.A"`` keys sorted as
    strings, eval ids 1..n."""
    return np.array(sorted(range(n), key=lambda i: f"{i + 1}.A"), np.int64)


@lru_cache(maxsize=4)
def draw_counts(n: int, resamples: int) -> np.ndarray:
    """How often each segment (in segment order) is drawn over all the resamples."""
    steps = _steps(n)
    counts = np.zeros(n, np.int64)
    for start in range(0, n, _BLOCK):
        picks = _picks(n, slice(0, resamples), slice(start, min(n, start + _BLOCK)), steps)
        counts += np.bincount(picks.ravel(), minlength=n)
    by_segment = np.empty(n, np.int64)
    by_segment[_order(n)] = counts
    return by_segment


def scripted(values: np.ndarray, resamples: int) -> float:
    """One figure's average as the script computes it, from the segments' figures (in segment
    order): each resample's sum in draw order over n, then the sorted means summed, over B."""
    n = len(values)
    ordered = values[_order(n)]
    steps = _steps(n)
    means = np.empty(resamples)
    rows = max(1, (1 << 20) // n)  # resamples at a time: a few MB of draws
    for start in range(0, resamples, rows):
        stop = min(resamples, start + rows)
        picks = _picks(n, slice(start, stop), slice(0, n), steps)
        # cumsum adds in order, as the script's loop does (a plain sum would pair them up)
        means[start:stop] = np.cumsum(ordered[picks], axis=1)[:, -1] / n
    return float(np.cumsum(np.sort(means))[-1]) / resamples


def _r5(x: float) -> float:
    return float(format(x, "7.5f"))


class Average:
    """Each segment's figures (``width`` of them, as printed: 5 decimals) and the script's average
    of them, the weighted sums kept as exact integers."""

    def __init__(self, width: int, resamples: int) -> None:
        self.resamples = resamples
        self.units = np.zeros((0, width), np.int64)  # per segment, figures x 10^5
        self.counts = np.zeros(0, np.int64)
        self.weighted = np.zeros(width, np.int64)  # sum_i c_i V_i (at most 10^5 n B: no overflow)
        self.largest = 0  # at least the largest V_i (a bound of the script's rounding errors)

    def __len__(self) -> int:
        return len(self.units)

    def resize(self, n: int) -> None:
        """``n`` segments: those past it dropped, new ones zero until :meth:`put`; a new ``n``
        draws every segment a new number of times."""
        if n == len(self.units):
            return
        units = np.zeros((n, self.units.shape[1]), np.int64)
        kept = min(n, len(self.units))
        units[:kept] = self.units[:kept]
        self.units = units
        self.counts = draw_counts(n, self.resamples) if n else np.zeros(0, np.int64)
        self.weighted = self.counts @ self.units

    def put(self, i: int, figures: Sequence[float]) -> None:
        new = _units(figures)
        self.weighted += int(self.counts[i]) * (new - self.units[i])
        self.units[i] = new
        self.largest = max(self.largest, int(new.max(initial=0)))

    def put_all(self, figures: Iterable[Sequence[float]]) -> None:
        """Every segment's figures, in order (as many as there are segments)."""
        self.units = _units(np.array(list(figures), np.float64).reshape(len(self.units), -1))
        self.weighted = self.counts @ self.units
        self.largest = int(self.units.max(initial=0))

    def figures(self) -> list[float]:
        """The script's printed average of each figure (empty without segments)."""
        n = len(self.units)
        if not n:
            return []
        total = n * self.resamples
        # the script's float sums are off the exact value by less than about (n + B) ulps of the
        # largest figure; nearer than 8 times that to a half-way point, its own order decides
        slack = (n + self.resamples + 2) * 2.0**-50 * max(self.largest, 1) * 2 * total
        found = []
        for k, weighted in enumerate(self.weighted.tolist()):
            whole, rest = divmod(weighted, total)
            if abs(2 * rest - total) <= slack:
                found.append(_r5(scripted(self.units[:, k] / 1e5, self.resamples)))
            else:
                found.append((whole + (2 * rest > total)) / 1e5)
        return found


def _units(figures) -> np.ndarray:
    """Figures printed with 5 decimals as integers; ``V / 1e5`` is the float the script read back
    (both are the double nearest V / 10^5)."""
    units = np.rint(np.asarray(figures, np.float64) * 1e5).astype(np.int64)
    if not np.array_equal(units / 1e5, np.asarray(figures, np.float64)):
        raise ValueError("figures with more than 5 decimals")
    return units


def averaged(per_segment: Sequence[Sequence[float]], resamples: int) -> list[float]:
    """The script's average of each figure over segments given in segment order."""
    average = Average(len(per_segment[0]) if per_segment else 0, resamples)
    average.resize(len(per_segment))
    average.put_all(per_segment)
    return average.figures()
