"""BLEU as sacreBLEU 2.x computes it: sufficient statistics per segment, a formula over their sum.

Segment statistics are ``[hyp_len, ref_len, correct_1..N, total_1..N]``; corpus BLEU is
:func:`score` of their element-wise sum, sentence BLEU is :func:`score` of one segment's with
effective order on.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from .. import __version__
from .tokenizers import Tokenizer, bleu_tokenizer

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


def _ngrams(tokens: Sequence[str], n: int) -> Sequence:
    """The n-grams of order ``n`` (1 = the tokens themselves), in order."""
    if n == 1:
        return tokens
    return list(zip(*[tokens[i:] for i in range(n)]))


def matches(hyp: Sequence[str], refs: Sequence[Sequence[str]], order: int) -> list[int]:
    """Per order, the hypothesis n-grams matched after clipping by the references' maximum counts.

    Works on sets: when a side has no repeated n-gram of an order, every common n-gram counts
    once; only repeated ones on both sides are counted one by one. An order without a match
    ends the search, as no longer n-gram can match then.
    """
    correct = [0] * order
    for n in range(1, order + 1):
        grams = _ngrams(hyp, n)
        unique = set(grams)
        ref_grams = [_ngrams(r, n) for r in refs]
        if len(ref_grams) == 1:
            in_ref = set(ref_grams[0])
            common = unique & in_ref
            once = len(unique) == len(grams) or len(in_ref) == len(ref_grams[0])
        else:
            common = unique & set().union(*ref_grams)
            once = len(unique) == len(grams)
        if not common:
            break
        if once:
            correct[n - 1] = len(common)
        else:
            correct[n - 1] = sum(min(grams.count(g), max(r.count(g) for r in ref_grams)) for g in common)
    return correct


def statistics(hyp: Sequence[str], refs: Sequence[Sequence[str]], order: int = 4) -> list[int]:
    """The segment's sufficient statistics ``[hyp_len, ref_len, correct_1..N, total_1..N]``."""
    hyp_len = len(hyp)
    ref_len = closest_ref_len(hyp_len, [len(r) for r in refs]) if refs else 0
    correct = matches(hyp, refs, order) if refs else [0] * order
    return [hyp_len, ref_len, *correct, *[max(hyp_len - n, 0) for n in range(order)]]


def unmatched(hyp: Sequence[str], refs: Sequence[Sequence[str]], n: int = 1) -> list[int]:
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
