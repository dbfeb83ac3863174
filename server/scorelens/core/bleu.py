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
class BleuTokens:
    """One side's segment, tokenized, with its n-gram counts per order (index 0 = unigrams)."""

    tokens: list[str]
    ngrams: list[Counter]


@dataclass(frozen=True, slots=True)
class BleuScore:
    score: float
    precisions: list[float]
    bp: float
    sys_len: int
    ref_len: int
    counts: list[int]
    totals: list[int]


def analyse(text: str, config: BleuConfig) -> BleuTokens:
    if config.lowercase:
        text = text.lower()
    tokens = config.tokenizer.tokens(text)
    ngrams = [Counter(tokens)]
    for n in range(2, config.max_ngram_order + 1):
        ngrams.append(Counter(zip(*[tokens[i:] for i in range(n)])))
    return BleuTokens(tokens, ngrams)


def reference_ngrams(references: Sequence[BleuTokens]) -> list[Counter]:
    """Per order, each n-gram's maximum count over the references (the clipping ceiling)."""
    if len(references) == 1:
        return references[0].ngrams
    merged = [Counter(c) for c in references[0].ngrams]
    for ref in references[1:]:
        for into, counts in zip(merged, ref.ngrams):
            for gram, count in counts.items():
                if count > into[gram]:
                    into[gram] = count
    return merged


def closest_ref_len(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """The reference length closest to the hypothesis length; ties go to the shorter."""
    return min(ref_lens, key=lambda r: (abs(hyp_len - r), r))


def statistics(hyp: BleuTokens, references: Sequence[BleuTokens]) -> list[int]:
    """The segment's sufficient statistics ``[hyp_len, ref_len, correct_1..N, total_1..N]``."""
    hyp_len = len(hyp.tokens)
    ref_len = closest_ref_len(hyp_len, [len(r.tokens) for r in references]) if references else 0
    ceilings = reference_ngrams(references) if references else [Counter()] * len(hyp.ngrams)
    correct = []
    for hyp_counts, ref_counts in zip(hyp.ngrams, ceilings):
        common = hyp_counts.keys() & ref_counts.keys()
        correct.append(sum([min(hyp_counts[g], ref_counts[g]) for g in common]))
    totals = [max(hyp_len - n, 0) for n in range(len(hyp.ngrams))]
    return [hyp_len, ref_len, *correct, *totals]


def unmatched(hyp: BleuTokens, references: Sequence[BleuTokens]) -> list[list[int]]:
    """Per order, the start indices of hypothesis n-grams left unmatched after clipping.

    Clipping says how many occurrences of an n-gram match, not which; the leftmost ones are
    taken as matched.
    """
    ceilings = reference_ngrams(references) if references else [Counter()] * len(hyp.ngrams)
    tokens = hyp.tokens
    result = []
    for n, ref_counts in enumerate(ceilings, start=1):
        used: Counter = Counter()
        misses = []
        for i in range(len(tokens) - n + 1):
            gram = tokens[i] if n == 1 else tuple(tokens[i : i + n])
            if used[gram] < ref_counts.get(gram, 0):
                used[gram] += 1
            else:
                misses.append(i)
        result.append(misses)
    return result


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
