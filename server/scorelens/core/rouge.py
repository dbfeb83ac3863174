"""ROUGE-N, ROUGE-L and ROUGE-Lsum as rouge-score 0.1.2 computes them, per hypothesis/reference pair.

rouge-score has no corpus statistic (its bootstrap aggregate is random); the corpus value is
the plain mean of per-pair figures. With several references, each type takes the reference
with the best F (the first on ties), as ``score_multi``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import count
from typing import TYPE_CHECKING, Sequence

from rapidfuzz.distance import LCSseq

from .. import __version__
from .tokenizers import ROUGE_TOKENIZERS, Tokenizer, rouge_tokenizer

if TYPE_CHECKING:
    import numpy as np

    from .ngram_counts import Side

# rouge-score's n-gram types: ``rouge1`` .. ``rouge9``
ROUGE_N = tuple(f"rouge{n}" for n in range(1, 10))


@dataclass(frozen=True)
class RougeConfig:
    tokenizer_name: str = "rouge-score"
    stem: bool = False

    def __post_init__(self) -> None:
        if self.tokenizer_name not in ROUGE_TOKENIZERS:
            raise ValueError(f"unknown ROUGE tokenizer {self.tokenizer_name!r}; one of {', '.join(ROUGE_TOKENIZERS)}")

    @property
    def tokenizer(self) -> Tokenizer:
        return rouge_tokenizer(self.tokenizer_name, self.stem)


@dataclass(frozen=True, slots=True)
class RougeScore:
    precision: float
    recall: float
    fmeasure: float


ZERO = RougeScore(0.0, 0.0, 0.0)


def fmeasure(precision: float, recall: float) -> float:
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


def _from_hits(hits: int, hyp_len: int, ref_len: int) -> tuple[float, float, float]:
    precision = hits / hyp_len
    recall = hits / ref_len
    return precision, recall, fmeasure(precision, recall)


def lcs_scores(hyp: Sequence[str], ref: Sequence[str]) -> tuple[float, float, float]:
    """ROUGE-L (precision, recall, F) as a plain tuple: scoring builds hundreds of thousands."""
    if not hyp or not ref:
        return 0.0, 0.0, 0.0
    return _from_hits(LCSseq.similarity(hyp, ref), len(hyp), len(ref))


def ngram_scores(hyp: Sequence[int], ref: Sequence[int], n: int) -> tuple[float, float, float]:
    """ROUGE-N (precision, recall, F) of numbered tokens (equal tokens equal numbers).

    The matched n-grams are the size of the multiset intersection: a set intersection when the
    hypothesis repeats no n-gram, else the longest common subsequence of the two sorted n-gram
    lists (done in C by rapidfuzz). Empty sides count as one n-gram in the denominators, as
    rouge-score's ``max(count, 1)``.
    """
    hyp_count = max(len(hyp) - n + 1, 0)
    ref_count = max(len(ref) - n + 1, 0)
    hits = 0
    if hyp_count and ref_count:
        grams = [side if n == 1 else list(zip(*[side[i:] for i in range(n)])) for side in (hyp, ref)]
        unique = set(grams[0])
        if len(unique) == hyp_count:
            hits = len(unique.intersection(grams[1]))
        else:
            # n-grams numbered: rapidfuzz compares ints by value but other objects by their hash
            number = defaultdict(count().__next__).__getitem__
            hits = LCSseq.similarity(*[sorted(map(number, side)) for side in grams])
    return _from_ngram_hits(hits, hyp_count, ref_count)


def _from_ngram_hits(hits: int, hyp_count: int, ref_count: int) -> tuple[float, float, float]:
    precision = hits / max(hyp_count, 1)
    recall = hits / max(ref_count, 1)
    return precision, recall, fmeasure(precision, recall)


def ngram_scores_many(hyps: Sequence[Sequence[int]], refs: Sequence[Sequence[Sequence[int]]], orders: Sequence[int]) -> list[tuple[float, ...]]:
    """:func:`ngram_scores_of` of numbered tokens (``refs[k]``: every segment's k-th reference)."""
    if not hyps:
        return []
    from .ngram_counts import Side  # numpy is loaded only when ROUGE-N is on

    return list(map(tuple, ngram_scores_of([Side.of_numbers(hyps), *(Side.of_numbers(column) for column in refs)], orders).tolist()))


def ngram_scores_of(sides: Sequence[Side], orders: Sequence[int]) -> np.ndarray:
    """Per segment, the (P, R, F) of each ROUGE-n in ``orders`` against its best reference, one
    row: :func:`ngram_scores` and :func:`best` of many segments at once (``sides``: the
    hypotheses', then each reference's), their n-grams matched in numpy by :mod:`.ngram_counts`."""
    import numpy as np

    from .ngram_counts import matches

    found = matches(sides, orders)
    columns = []
    for n in orders:
        hyp_count = np.maximum(sides[0].lengths - n + 1, 0)
        per_ref = [_figures(hits, hyp_count, np.maximum(ref.lengths - n + 1, 0)) for hits, ref in zip(found[n], sides[1:])]
        columns.append(_best_of(per_ref)[0].T)
    return np.hstack(columns)


def lcs_scores_many(hyps: Sequence[Sequence[int]], refs: Sequence[Sequence[Sequence[int]]]) -> tuple[np.ndarray, np.ndarray]:
    """Per segment, ROUGE-L's (P, R, F) against its best reference (one row each) and which
    reference that is: :func:`lcs_scores` and :func:`best` of many segments at once (``refs[k]``:
    every segment's k-th reference), one rapidfuzz call a pair, the figures in numpy."""
    import numpy as np

    hyp_len = np.fromiter(map(len, hyps), np.int64, len(hyps))
    per_ref = []
    for column in refs:
        hits = np.fromiter(map(LCSseq.similarity, hyps, column), np.int64, len(hyps))
        # an empty side has no hits: its figures are 0, as lcs_scores gives
        per_ref.append(_figures(hits, hyp_len, np.fromiter(map(len, column), np.int64, len(hyps))))
    figures, top = _best_of(per_ref)
    return figures.T, top


def _figures(hits: np.ndarray, hyp_count: np.ndarray, ref_count: np.ndarray) -> np.ndarray:
    """:func:`_from_ngram_hits` of many segments: their precisions, recalls and F in three rows.
    numpy's float64 division, product and sum are Python's, operation for operation, so the
    figures are the same floats."""
    import numpy as np

    precision = hits / np.maximum(hyp_count, 1)
    recall = hits / np.maximum(ref_count, 1)
    total = precision + recall
    f = np.where(total > 0, 2 * precision * recall / np.where(total > 0, total, 1), 0.0)
    return np.stack((precision, recall, f))


def _best_of(per_ref: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The :func:`_figures` of each segment's best reference, and its index: the first with the
    best F, as :func:`best`."""
    import numpy as np

    top = np.argmax(np.stack([figures[2] for figures in per_ref]), axis=0)
    return (np.choose(top, per_ref) if len(per_ref) > 1 else per_ref[0]), top


def rouge_l(hyp: Sequence[str], ref: Sequence[str]) -> RougeScore:
    return RougeScore(*lcs_scores(hyp, ref))


def outside_lcs(hyp: Sequence[str], ref: Sequence[str]) -> tuple[list[int], list[int]]:
    """Indices of hypothesis and of reference tokens that one longest common subsequence leaves out."""
    hyp_out, ref_out = [], []
    for op in LCSseq.editops(hyp, ref):
        if op.tag == "delete":
            hyp_out.append(op.src_pos)
        else:
            ref_out.append(op.dest_pos)
    return hyp_out, ref_out


def _lcs_indices(ref: Sequence[str], can: Sequence[str]) -> list[int]:
    """Reference indices of rouge-score's LCS: its table and its backtrack's tie-breaking.

    Summary-level LCS takes a union of these, so which LCS is found changes the score.
    """
    rows, cols = len(ref), len(can)
    table = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(1, rows + 1):
        above, row, r = table[i - 1], table[i], ref[i - 1]
        for j in range(1, cols + 1):
            if r == can[j - 1]:
                row[j] = above[j - 1] + 1
            else:
                row[j] = above[j] if above[j] >= row[j - 1] else row[j - 1]
    indices = []
    i, j = rows, cols
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            indices.append(i - 1)
            i -= 1
            j -= 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
    indices.reverse()
    return indices


def _union_lcs(ref: Sequence[str], sentences: Sequence[Sequence[str]], containing: dict[str, list[int]]) -> list[int]:
    """The reference indices in rouge-score's LCS of ``ref`` with any of the ``sentences``
    (``containing``: token: the sentences having it), in order, as its ``_union_lcs``.

    A sentence's LCS holds only places whose token the sentence has, and a union is the same in
    any order: each place not yet in it, rarest token first, takes the sentences having its
    token until one's LCS covers it, and no sentence left could add a place. A 2,000-line
    document of 15-word sentences needs ~4 LCS a reference sentence instead of 2,000.
    """
    union: set[int] = set()
    tried: set[int] = set()
    for i in sorted((i for i, token in enumerate(ref) if token in containing), key=lambda i: len(containing[ref[i]])):
        for k in containing[ref[i]]:
            if i in union:
                break
            if k not in tried:
                tried.add(k)
                union.update(_lcs_indices(ref, sentences[k]))
    return sorted(union)


def summary_scores(hyp_sentences: Sequence[Sequence[str]], ref_sentences: Sequence[Sequence[str]]) -> tuple[float, float, float]:
    """Summary-level LCS over newline-separated sentences (pass the non-empty lines only)."""
    if not hyp_sentences or not ref_sentences:
        return 0.0, 0.0, 0.0
    hyp_len = sum(map(len, hyp_sentences))
    ref_len = sum(map(len, ref_sentences))
    if not hyp_len or not ref_len:
        return 0.0, 0.0, 0.0
    hyp_left = Counter()
    ref_left = Counter()
    for s in hyp_sentences:
        hyp_left.update(s)
    for s in ref_sentences:
        ref_left.update(s)
    sentences = list(dict.fromkeys(map(tuple, hyp_sentences)))  # a repeated sentence has the same LCS
    containing = defaultdict(list)
    for k, sentence in enumerate(sentences):
        for token in set(sentence):
            containing[token].append(k)
    hits = 0
    for ref in ref_sentences:
        for token in (ref[i] for i in _union_lcs(ref, sentences, containing)):
            # a token counts once however many sentence pairs share it, as ROUGE-1.5.5
            if hyp_left[token] > 0 and ref_left[token] > 0:
                hits += 1
                hyp_left[token] -= 1
                ref_left[token] -= 1
    return _from_hits(hits, hyp_len, ref_len)


def rouge_lsum(hyp_sentences: Sequence[Sequence[str]], ref_sentences: Sequence[Sequence[str]]) -> RougeScore:
    return RougeScore(*summary_scores(hyp_sentences, ref_sentences))


def best(scores: Sequence[tuple[float, float, float]]) -> int:
    """Index of the reference whose scores ``score_multi`` keeps (best F, the first on ties)."""
    top = 0
    for i, s in enumerate(scores):
        if s[2] > scores[top][2]:
            top = i
    return top


def signature(config: RougeConfig, nrefs: int | None) -> str:
    return "|".join(
        [
            f"nrefs:{'var' if nrefs is None else nrefs}",
            f"tok:{config.tokenizer_name}",
            f"stem:{'yes' if config.stem else 'no'}",
            "agg:mean",
            f"version:scorelens-{__version__}",
        ]
    )
