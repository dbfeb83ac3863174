"""BLEU as NLTK 3.x's ``nltk.translate.bleu_score`` computes it (``impl:nltk``).

Segment statistics are ``(hyp_len, ref_len, correct_1..N, total_1..N)`` as in :mod:`.bleu`, N =
``len(weights)``, with NLTK's two differences: ``ref_len`` is the closest reference length (ties
to the shorter, as sacreBLEU) and every total is at least 1 (``modified_precision`` divides by
``max(1, count)``, so a hypothesis shorter than n still adds 1 to the denominator of order n).
Corpus BLEU (``corpus_bleu``) is :func:`corpus_score` of their element-wise sum; sentence BLEU
(``sentence_bleu``) is the same of one segment's.

NLTK hands its smoothing function the *last* segment's references and hypothesis: method5 and
method7 use that segment's 5-gram precision, method6 its hypothesis length. :func:`last_segment`
keeps exactly those numbers, so the corpus figure still needs only sums and one extra tuple.

Precisions are exact rationals (NLTK's ``Fraction``); each smoothing method below repeats NLTK's
arithmetic in its order, Fraction or float step by step, so the floats come out the same.
Scores are × 100, like every BLEU ScoreLens prints.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from .. import __version__
from .bleu import statistics as _sacrebleu_statistics
from .bleu import statistics_of as _sacrebleu_statistics_of
from .bleu import unmatched
from .tokenizers import Tokenizer, bleu_tokenizer, locate

if TYPE_CHECKING:
    import numpy as np

    from .ngram_counts import Side

__all__ = [
    "DEFAULT_WEIGHTS",
    "NltkBleuConfig",
    "NltkBleuScore",
    "SmoothingError",
    "corpus_score",
    "last_segment",
    "sentence_score",
    "signature",
    "statistics",
    "statistics_of",
    "unmatched",
]

DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
# ``SmoothingFunction().method0`` .. ``method7``
SMOOTHING_METHODS = tuple(range(8))
# method5 always looks one order past 4, whatever the weights: ``modified_precision(..., 5)``
METHOD5_ORDER = 5


class Whitespace:
    """``text.split()``: what NLTK users most often feed ``corpus_bleu``. Each word is a token, so
    an analyser can take a text's tokens word by word (``words`` and ``word_tokens``)."""

    name = "whitespace"
    words = staticmethod(str.split)

    @staticmethod
    def word_tokens(word: str) -> list[str]:
        return [word]

    def tokens(self, text: str) -> list[str]:
        return text.split()

    spans = staticmethod(locate)


@dataclass(frozen=True)
class NltkBleuConfig:
    weights: tuple[float, ...] = DEFAULT_WEIGHTS
    smoothing: int = 0  # SmoothingFunction().method<smoothing>
    auto_reweigh: bool = False
    tokenize: str = "whitespace"  # or any sacreBLEU tokenizer name
    lowercase: bool = False  # NLTK itself is case-sensitive
    # SmoothingFunction(epsilon, alpha, k)
    epsilon: float = 0.1
    alpha: float = 5
    k: float = 5

    def __post_init__(self) -> None:
        object.__setattr__(self, "weights", tuple(self.weights))
        if not self.weights:
            raise ValueError("weights must not be empty")
        if self.smoothing not in SMOOTHING_METHODS:
            raise ValueError(f"unknown NLTK smoothing method{self.smoothing}; one of 0..7")
        if self.smoothing == 6 and len(self.weights) < 3:
            raise ValueError("NLTK's method6 needs at least three weights (it reads the 3-gram precision)")

    @property
    def order(self) -> int:
        return len(self.weights)

    @property
    def tokenizer(self) -> Tokenizer:
        return Whitespace() if self.tokenize == "whitespace" else bleu_tokenizer(self.tokenize)


@dataclass(frozen=True, slots=True)
class NltkBleuScore:
    score: float  # × 100
    precisions: list[float]  # the smoothed p_n, × 100
    bp: float
    sys_len: int
    ref_len: int
    counts: list[int]
    totals: list[int]
    notes: tuple[str, ...] = ()  # what NLTK says through warnings.warn


class SmoothingError(ValueError):
    """NLTK fails here (method6 without a 3-gram match asserts)."""


def statistics(hyp: Sequence[Hashable], refs: Sequence[Sequence[Hashable]], order: int = 4) -> tuple[int, ...]:
    """``(hyp_len, ref_len, correct_1..N, total_1..N)`` of one segment, NLTK's way.

    Clipped matches are sacreBLEU's (both clip by the maximum count over the references); the
    totals differ only in NLTK's floor of 1.
    """
    if not refs:
        raise ValueError("NLTK BLEU needs at least one reference per segment")
    stats = _sacrebleu_statistics(hyp, refs, order)
    return (*stats[: 2 + order], *[max(1, t) for t in stats[2 + order :]])


def last_segment(hyp: Sequence[Hashable], refs: Sequence[Sequence[Hashable]]) -> tuple[int, int, int]:
    """What NLTK's smoothing reads from the corpus's last segment: ``(hyp_len, correct_5,
    total_5)`` (its hypothesis length for method6, its 5-gram precision for methods 5 and 7)."""
    stats = statistics(hyp, refs, METHOD5_ORDER)
    return stats[0], stats[1 + METHOD5_ORDER], stats[1 + 2 * METHOD5_ORDER]


def statistics_of(hyp: Side, refs: Sequence[Side], order: int = 4, last: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
    """:func:`statistics` of many segments at once (``refs``: every segment's k-th reference, for
    each k), a row each, their n-grams matched in numpy as sacreBLEU's are (the same clipping
    and closest reference length); with ``last``, each segment's :func:`last_segment` figures
    too (a row each), from the same matching run one order further when ``order`` is below 5."""
    import numpy as np

    if not refs:
        raise ValueError("NLTK BLEU needs at least one reference per segment")
    top = max(order, METHOD5_ORDER) if last else order
    stats = _sacrebleu_statistics_of(hyp, refs, top)
    np.maximum(stats[:, 2 + top :], 1, out=stats[:, 2 + top :])
    found = stats[:, [0, 1, *range(2, 2 + order), *range(2 + top, 2 + top + order)]]
    if not last:
        return found, None
    return found, stats[:, [0, 1 + METHOD5_ORDER, 1 + top + METHOD5_ORDER]]


def brevity_penalty(ref_len: int, hyp_len: int) -> float:
    if hyp_len > ref_len:
        return 1
    if hyp_len == 0:
        return 0
    return math.exp(1 - ref_len / hyp_len)


def _zero_warning(n: int) -> str:
    # method0's warning, word for word
    return (
        f"The hypothesis contains 0 counts of {n}-gram overlaps.\n"
        "Therefore the BLEU score evaluates to 0, independently of\n"
        "how many N-gram overlaps of lower order it contains.\n"
        "Consider using lower n-gram order or use SmoothingFunction()"
    )


def _smooth(
    method: int,
    correct: list[int],
    total: list[int],
    hyp_lengths: int,
    last: tuple[int, int, int] | None,
    config: NltkBleuConfig,
    notes: list[str],
) -> list:
    """NLTK's ``SmoothingFunction().method<method>`` applied to p_n = correct/total.

    ``correct``/``total`` are NLTK's unnormalised Fraction's numerator and denominator: methods
    1, 3 and 4 divide by the raw summed total, method6 adds the raw summed count.
    """
    p_n: list = [Fraction(c, t) for c, t in zip(correct, total)]
    if method == 0:
        for i, c in enumerate(correct):
            if c == 0:
                notes.append(_zero_warning(i + 1))
                p_n[i] = sys.float_info.min
        return p_n
    if method == 1:
        return [(c + config.epsilon) / t if c == 0 else p for p, c, t in zip(p_n, correct, total)]
    if method == 2:
        return [p if i == 0 else Fraction(c + 1, t + 1) for i, (p, c, t) in enumerate(zip(p_n, correct, total))]
    if method == 3:
        incvnt = 1
        for i, (c, t) in enumerate(zip(correct, total)):
            if c == 0:
                p_n[i] = 1 / (2**incvnt * t)
                incvnt += 1
        return p_n
    if method in (4, 7):
        incvnt = 1
        for i, (c, t) in enumerate(zip(correct, total)):
            if c == 0 and hyp_lengths > 1:
                numerator = 1 / (2**incvnt * config.k / math.log(hyp_lengths))
                p_n[i] = numerator / t
                incvnt += 1
        if method == 4:
            return p_n
    if last is None:
        raise ValueError(f"NLTK's method{method} needs the last segment's figures (last_segment)")
    last_len, last_correct5, last_total5 = last
    if method in (5, 7):
        # the average of orders n-1, n and n+1 as NLTK takes it: n-1 already averaged, n+1 not,
        # and past the last order the last segment's 5-gram precision, whatever the order
        following = p_n[1:] + [Fraction(last_correct5, last_total5)]
        previous = p_n[0] + 1
        for i, p in enumerate(p_n):
            previous = p_n[i] = (previous + p + following[i]) / 3
        return p_n
    # method 6: interpolation, NLTK's assert as an error
    if not p_n[2]:
        raise SmoothingError("NLTK's method6 requires a non-zero 3-gram precision (it asserts)")
    for i in range(2, len(p_n)):
        pi0 = 0 if p_n[i - 2] == 0 else p_n[i - 1] ** 2 / p_n[i - 2]
        ngrams_in_last = max(last_len - i, 0)
        p_n[i] = (correct[i] + config.alpha * pi0) / (ngrams_in_last + config.alpha)
    return p_n


def corpus_score(stats: Sequence[int], config: NltkBleuConfig = NltkBleuConfig(), last: tuple[int, int, int] | None = None) -> NltkBleuScore:
    """``corpus_bleu`` × 100 from summed :func:`statistics` (and, for methods 5-7, the
    :func:`last_segment` figures of the corpus's last segment).

    An empty corpus (every total 0) scores 0 with a note; NLTK raises ZeroDivisionError there.
    """
    order = config.order
    hyp_len, ref_len = int(stats[0]), int(stats[1])
    correct = [int(c) for c in stats[2 : 2 + order]]
    total = [int(t) for t in stats[2 + order : 2 + 2 * order]]
    bp = brevity_penalty(ref_len, hyp_len)
    if not all(total):
        return NltkBleuScore(0.0, [0.0] * order, bp, hyp_len, ref_len, correct, total, ("no segments",))
    if correct[0] == 0:  # NLTK returns 0 before smoothing
        return NltkBleuScore(0.0, [0.0] * order, bp, hyp_len, ref_len, correct, total)
    notes: list[str] = []
    p_n = _smooth(config.smoothing, correct, total, hyp_len, last, config, notes)
    weights = config.weights
    if config.auto_reweigh and hyp_len < 4 and weights == DEFAULT_WEIGHTS:
        weights = (1 / hyp_len,) * hyp_len
    value = bp * math.exp(math.fsum(w * math.log(p) for w, p in zip(weights, p_n) if p > 0))
    return NltkBleuScore(100 * value, [100 * float(p) for p in p_n], bp, hyp_len, ref_len, correct, total, tuple(notes))


def sentence_score(hyp: Sequence[Hashable], refs: Sequence[Sequence[Hashable]], config: NltkBleuConfig = NltkBleuConfig()) -> NltkBleuScore:
    """``sentence_bleu`` × 100 of token sequences: ``corpus_score`` of one segment."""
    last = last_segment(hyp, refs) if config.smoothing >= 5 else None
    return corpus_score(statistics(hyp, refs, config.order), config, last)


def signature(config: NltkBleuConfig, nrefs: int | None) -> str:
    """``nrefs:1|impl:nltk|weights:0.25,0.25,0.25,0.25|smooth:method1|reweigh:no|...``."""
    smooth = f"method{config.smoothing}"
    parameter = {1: ("epsilon", config.epsilon, 0.1), 4: ("k", config.k, 5), 6: ("alpha", config.alpha, 5), 7: ("k", config.k, 5)}.get(config.smoothing)
    if parameter and parameter[1] != parameter[2]:
        smooth += f"[{parameter[0]}={parameter[1]:g}]"
    return "|".join(
        [
            f"nrefs:{'var' if nrefs is None else nrefs}",
            "impl:nltk",
            f"weights:{','.join(f'{w:g}' for w in config.weights)}",
            f"smooth:{smooth}",
            f"reweigh:{'yes' if config.auto_reweigh else 'no'}",
            f"case:{'lc' if config.lowercase else 'mixed'}",
            f"tok:{config.tokenizer.name}",
            f"version:scorelens-{__version__}",
        ]
    )
