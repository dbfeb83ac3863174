"""BLEU as sacreBLEU 2.x computes it: sufficient statistics per segment, a formula over their sum.

Segment statistics are ``[hyp_len, ref_len, correct_1..N, total_1..N]``; corpus BLEU is
:func:`score` of their element-wise sum, sentence BLEU is :func:`score` of one segment's with
effective order on.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import chain, count
from typing import TYPE_CHECKING, Hashable, Sequence

from rapidfuzz.distance import LCSseq

from .. import __version__
from .tokenizers import Tokenizer, bleu_tokenizer

if TYPE_CHECKING:
    import numpy as np

    from .ngram_counts import Side

SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}


@dataclass(frozen=True)
class BleuConfig:
    tokenize: str = "13a"
    smooth_method: str = "exp"
    smooth_value: float | None = None
    lowercase: bool = False
    max_ngram_order: int = 4

    def __post_init__(self) -> None:
        if self.smooth_method not in SMOOTH_DEFAULTS:
            raise ValueError(f"unknown smoothing {self.smooth_method!r}; one of {', '.join(SMOOTH_DEFAULTS)}")
        if not 1 <= self.max_ngram_order <= 9:
            raise ValueError(f"max n-gram order must be between 1 and 9, not {self.max_ngram_order}")

    @property
    def tokenizer(self) -> Tokenizer:
        return bleu_tokenizer(self.tokenize)


@dataclass(frozen=True, slots=True)
class BleuScore:
    score: float
    precisions: list[float]
    bp: float
    sys_len: int
    ref_len: int
    counts: list[int]
    totals: list[int]


def closest_ref_len(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """The reference length closest to the hypothesis length; ties go to the shorter."""
    return min(ref_lens, key=lambda r: (abs(hyp_len - r), r))


def _ngrams(tokens: Sequence, n: int) -> Sequence:
    """The n-grams of order ``n`` (1 = the tokens themselves), in order."""
    if n == 1:
        return tokens
    return list(zip(*[tokens[i:] for i in range(n)]))


# Above this many DP cells (hypothesis n-grams × reference n-grams), a multiset intersection is
# counted with hash tables as sacreBLEU does (linear); below it, the bit-parallel LCS over sorted
# lists in C is faster (measured: they cross near 1,000 × 1,000).
LCS_CELLS = 1_000_000


def matches(hyp: Sequence[int], refs: Sequence[Sequence[int]], order: int) -> list[int]:
    """Per order, the hypothesis n-grams matched after clipping by the references' maximum counts.

    Tokens are non-negative ints below 2**60 (rapidfuzz compares those by value). When the
    hypothesis repeats no n-gram of an order, every common n-gram counts once: a set
    intersection. Otherwise the count is the size of a multiset intersection: for short
    segments the longest common subsequence of the two sorted lists (done in C by rapidfuzz),
    n-grams numbered first, for long ones counted; with several references the ceiling keeps
    each n-gram's maximum count. An order without a match ends the search: no longer n-gram can
    match then.
    """
    correct = [0] * order
    hyp_columns: list[Sequence[int]] = []
    ref_columns: list[list[Sequence[int]]] = [[] for _ in refs]
    for n in range(order):
        hyp_columns.append(hyp[n:])
        for columns, ref in zip(ref_columns, refs):
            columns.append(ref[n:])
        unique = set(zip(*hyp_columns)) if n else ()  # unigrams nearly always repeat: no check
        if n and len(unique) == len(hyp) - n:
            found = len(unique.intersection(chain.from_iterable(zip(*columns) for columns in ref_columns)))
        elif (len(hyp) - n) * max(len(r) - n for r in refs) > LCS_CELLS:
            if n:
                found = _clipped(list(zip(*hyp_columns)), [list(zip(*columns)) for columns in ref_columns])
            else:
                found = _clipped(hyp, refs)
        else:
            if n:
                number = defaultdict(count().__next__).__getitem__
                grams = list(map(number, zip(*hyp_columns)))
                ref_grams = [list(map(number, zip(*columns))) for columns in ref_columns]
            else:
                grams, ref_grams = hyp, refs
            ceiling = sorted(ref_grams[0]) if len(ref_grams) == 1 else _max_union(ref_grams)
            found = LCSseq.similarity(sorted(grams), ceiling)
        if not found:
            break
        correct[n] = found
    return correct


def _clipped(grams: Sequence[Hashable], ref_grams: Sequence[Sequence[Hashable]]) -> int:
    """Hypothesis n-grams matched after clipping, counted as sacreBLEU counts them."""
    ceiling = Counter(ref_grams[0])
    for r in ref_grams[1:]:
        ceiling |= Counter(r)
    return sum([min(c, ceiling[g]) for g, c in Counter(grams).items()])


def _max_union(lists: Sequence[Sequence[int]]) -> list[int]:
    """Sorted multiset whose count of each element is its maximum count in ``lists``."""
    top: Counter = Counter()
    for x in lists:
        top |= Counter(x)
    return sorted(top.elements())


def numbered_statistics(hyp: Sequence[int], refs: Sequence[Sequence[int]], order: int = 4) -> tuple[int, ...]:
    """The segment's sufficient statistics ``(hyp_len, ref_len, correct_1..N, total_1..N)``,
    its tokens numbered (non-negative ints below 2**60, equal tokens equal numbers).

    A tuple: a corpus keeps one per segment, and tuples of numbers drop out of the garbage
    collector's tracking, lists never do.
    """
    hyp_len = len(hyp)
    ref_len = len(refs[0]) if len(refs) == 1 else closest_ref_len(hyp_len, [len(r) for r in refs]) if refs else 0
    correct = matches(hyp, refs, order) if refs else [0] * order
    return (hyp_len, ref_len, *correct, *[max(hyp_len - n, 0) for n in range(order)])


def statistics_of(hyp: Side, refs: Sequence[Side], order: int = 4) -> np.ndarray:
    """:func:`numbered_statistics` of many segments at once (``refs``: every segment's k-th
    reference, for each k), a row each, their n-grams matched in numpy by :mod:`.ngram_counts`."""
    import numpy as np

    from .ngram_counts import clipped

    hyp_len = hyp.lengths
    ref_len = refs[0].lengths
    for other in refs[1:]:  # closest_ref_len: the closest, the shorter on ties
        lengths = other.lengths
        nearer = np.abs(hyp_len - lengths) - np.abs(hyp_len - ref_len)
        ref_len = np.where((nearer < 0) | ((nearer == 0) & (lengths < ref_len)), lengths, ref_len)
    correct = clipped([hyp, *refs], range(1, order + 1))
    totals = [np.maximum(hyp_len - n, 0) for n in range(order)]
    return np.stack([hyp_len, ref_len, *correct.values(), *totals], axis=1)


def statistics(hyp: Sequence[Hashable], refs: Sequence[Sequence[Hashable]], order: int = 4) -> list[int]:
    """The segment's sufficient statistics ``[hyp_len, ref_len, correct_1..N, total_1..N]``
    for any tokens (strings, say): they are numbered first."""
    number = defaultdict(count().__next__).__getitem__
    return list(numbered_statistics(tuple(map(number, hyp)), [tuple(map(number, r)) for r in refs], order))


def unmatched(hyp: Sequence[Hashable], refs: Sequence[Sequence[Hashable]], n: int = 1) -> list[int]:
    """Start indices of the hypothesis n-grams of order ``n`` left unmatched after clipping.

    Clipping says how many occurrences of an n-gram match, not which; the leftmost ones are
    taken as matched.
    """
    ceiling: Counter = Counter()
    for r in refs:
        ceiling |= Counter(_ngrams(r, n))
    used: Counter = Counter()
    misses = []
    for i, gram in enumerate(_ngrams(hyp, n)):
        if used[gram] < ceiling[gram]:
            used[gram] += 1
        else:
            misses.append(i)
    return misses


def _log(p: float) -> float:
    return math.log(p) if p else -9999999999


def score(stats: Sequence[float], config: BleuConfig, effective_order: bool = False) -> BleuScore:
    """BLEU from (summed) sufficient statistics, exactly as sacreBLEU's ``compute_bleu``."""
    order = config.max_ngram_order
    sys_len, ref_len = int(stats[0]), int(stats[1])
    correct = list(stats[2 : 2 + order])
    total = list(stats[2 + order : 2 + 2 * order])
    method = config.smooth_method
    smooth_value = config.smooth_value if config.smooth_value is not None else SMOOTH_DEFAULTS[method]

    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    precisions = [0.0] * order
    if not any(correct):
        return BleuScore(0.0, precisions, bp, sys_len, ref_len, correct, total)

    smooth_mteval = 1.0
    eff_order = order
    for n in range(order):
        if method == "add-k" and n > 0:
            correct[n] += smooth_value
            total[n] += smooth_value
        if total[n] == 0:
            break
        if effective_order:
            eff_order = n + 1
        if correct[n] == 0:
            if method == "exp":
                smooth_mteval *= 2
                precisions[n] = 100.0 / (smooth_mteval * total[n])
            elif method == "floor":
                precisions[n] = 100.0 * smooth_value / total[n]
        else:
            precisions[n] = 100.0 * correct[n] / total[n]
    value = bp * math.exp(sum([_log(p) for p in precisions[:eff_order]]) / eff_order)
    return BleuScore(value, precisions, bp, sys_len, ref_len, correct, total)


def sentence_scores(stats: np.ndarray, config: BleuConfig) -> np.ndarray:
    """:func:`score` with effective order of each row of ``stats`` (a segment's statistics), the
    same floats: NumPy does the arithmetic, operation for operation, and ``math`` the logarithms
    and exponentials (NumPy's may differ from the C library's in the last bit)."""
    return _sentence_figures(stats, config)[0]


def sentence_figures(rows: Sequence[Sequence[int]], config: BleuConfig) -> list[BleuScore]:
    """:func:`score` with effective order of each row (a segment's statistics), the same figures,
    a column at a time as :func:`sentence_scores`. Under add-k, whose smoothing turns the counts
    into what sacreBLEU's sum of an int and the value makes of them, one row at a time."""
    if config.smooth_method == "add-k" or not rows:
        return [score(row, config, effective_order=True) for row in rows]
    import numpy as np

    values, precisions, bp = _sentence_figures(np.array(rows, np.int64), config)
    order = config.max_ngram_order
    return [
        BleuScore(value, p, b, int(row[0]), int(row[1]), list(row[2 : 2 + order]), list(row[2 + order : 2 + 2 * order]))
        for value, p, b, row in zip(values.tolist(), precisions.tolist(), bp.tolist(), rows)
    ]


def _sentence_figures(stats: np.ndarray, config: BleuConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row's score, precisions (a row each) and brevity penalty, as :func:`score` has them."""
    import numpy as np

    order = config.max_ngram_order
    method = config.smooth_method
    smooth_value = config.smooth_value if config.smooth_value is not None else SMOOTH_DEFAULTS[method]
    sys_len, ref_len = stats[:, 0], stats[:, 1]
    correct, total = stats[:, 2 : 2 + order], stats[:, 2 + order : 2 + 2 * order]
    scored = correct.any(axis=1)  # (before add-k's smoothing) the others score 0
    if method == "add-k":  # orders 2 and up
        correct = np.concatenate([correct[:, :1], correct[:, 1:] + smooth_value], axis=1)
        total = np.concatenate([total[:, :1], total[:, 1:] + smooth_value], axis=1)
    # the orders up to the first without n-grams: effective order is how many
    reached = np.logical_and.accumulate(total != 0, axis=1)
    eff_order = reached.sum(axis=1)
    eff_order[eff_order == 0] = order  # (no unigram: not scored)
    with np.errstate(divide="ignore", invalid="ignore"):
        precisions = 100.0 * correct / total
        unmatched = correct == 0
        if method == "exp":  # 2 ** (the orders without a match so far)
            smooth = 2.0 ** np.cumsum(unmatched & reached, axis=1)
            precisions = np.where(unmatched, 100.0 / (smooth * total), precisions)
        elif method == "floor":
            precisions = np.where(unmatched, 100.0 * smooth_value / total, precisions)
        else:
            precisions = np.where(unmatched, 0.0, precisions)
    used = reached & scored[:, None]
    logs = np.full(precisions.shape, -9999999999.0)  # _log's value of 0
    logged = used & (precisions != 0)
    logs[logged] = _each(math.log, precisions[logged])
    total_log = logs[:, 0]
    for n in range(1, order):  # summed in order, as sum() does
        total_log = np.where(n < eff_order, total_log + logs[:, n], total_log)
    bp = np.ones(len(stats))
    short = sys_len < ref_len
    bp[short & (sys_len <= 0)] = 0.0
    cut = short & (sys_len > 0)
    bp[cut] = _each(math.exp, 1 - ref_len[cut] / sys_len[cut])
    values = np.zeros(len(stats))
    values[scored] = bp[scored] * _each(math.exp, total_log[scored] / eff_order[scored])
    return values, np.where(used, precisions, 0.0), bp


def _each(function, values: np.ndarray) -> np.ndarray:
    """``function`` of each value, a float each."""
    import numpy as np

    return np.fromiter(map(function, values.tolist()), float, len(values))


def signature(config: BleuConfig, nrefs: int | None, effective_order: bool = False) -> str:
    """sacreBLEU's signature string, with ScoreLens's version; ``nrefs=None`` means it varies."""
    smooth = config.smooth_method
    if SMOOTH_DEFAULTS[smooth] is not None:
        value = config.smooth_value if config.smooth_value is not None else SMOOTH_DEFAULTS[smooth]
        smooth += f"[{value:.2f}]"
    return "|".join(
        [
            f"nrefs:{'var' if nrefs is None else nrefs}",
            f"case:{'lc' if config.lowercase else 'mixed'}",
            f"eff:{'yes' if effective_order else 'no'}",
            f"tok:{config.tokenizer.name}",
            f"smooth:{smooth}",
            f"version:scorelens-{__version__}",
        ]
    )
