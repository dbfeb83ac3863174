"""ROUGE as the PyPI ``rouge`` package 1.0.1 computes it (``impl:rouge``; ``from rouge import Rouge``).

Its text handling is all there is: a text is split on ``"."`` into sentences (empty pieces
dropped, a whitespace-only piece kept as the empty sentence) and each sentence on whitespace;
nothing is lowercased, stripped of punctuation or stemmed. With its default ``exclusive=True``
every count is of a *set*: ROUGE-N counts distinct n-grams of the whole summary (n-grams run
across sentence ends), ROUGE-L counts distinct words, and its hits are the distinct words of
the union, over every reference sentence and hypothesis sentence, of one particular LCS each
(the one its backtrack finds). F = 2PR / (P + R + 1e-8).

Per pair, the sufficient statistics are ``(hyp_count, ref_count, overlap)`` per type (its
``raw_results``); the corpus figure of ``get_scores(avg=True)`` is the plain mean of the
per-pair P, R and F, summed in order. A pair whose hypothesis or reference has no sentence
(empty, or only dots) makes the package raise ``ValueError``; ``ignore_empty=True`` drops the
pairs with an empty string first. Either way such pairs are reported here as skipped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat

from .. import __version__

__all__ = [
    "METRICS",
    "PairScores",
    "RougePypiConfig",
    "Skipped",
    "average",
    "figures",
    "get_scores",
    "lcs_tokens",
    "pair_scores",
    "pair_statistics",
    "sentences",
    "signature",
    "unmatched_spans",
    "words",
]

METRICS = ("rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-5", "rouge-l")
DEFAULT_METRICS = ("rouge-1", "rouge-2", "rouge-l")

Figures = tuple[float, float, float]  # (precision, recall, F), the package's "p", "r", "f"
Raw = tuple[int, int, int]  # (hyp_count, ref_count, overlap), its raw_results


@dataclass(frozen=True)
class RougePypiConfig:
    metrics: tuple[str, ...] = DEFAULT_METRICS
    ignore_empty: bool = True  # get_scores(..., ignore_empty=...): only the skip's reason differs

    def __post_init__(self) -> None:
        object.__setattr__(self, "metrics", tuple(m.lower() for m in self.metrics))
        for m in self.metrics:
            if m not in METRICS:
                raise ValueError(f"unknown metric {m!r}; one of {', '.join(METRICS)}")


@dataclass(frozen=True, slots=True)
class Skipped:
    """A pair the package cannot score: ``get_scores`` drops it (``ignore_empty``) or raises."""

    index: int
    reason: str


@dataclass(frozen=True, slots=True)
class PairScores:
    raw: dict[str, Raw]
    scores: dict[str, Figures]


def sentences(text: str) -> list[str]:
    """The package's sentences: ``"."``-split, empty pieces dropped, whitespace collapsed."""
    return [" ".join(piece.split()) for piece in text.split(".") if len(piece) > 0]


def words(sents: Sequence[str]) -> list[str]:
    """Its words: every sentence split on ``" "``, so an empty sentence is the empty word."""
    return [w for s in sents for w in s.split(" ")]


def _ngram_set(tokens: Sequence[str], n: int) -> set[tuple[str, ...]]:
    return set(zip(*[tokens[i:] for i in range(n)]))


def lcs_tokens(ref: Sequence[str], hyp: Sequence[str]) -> list[str]:
    """The tokens of the package's ``_recon_lcs(ref, hyp)``: its table, and its backtrack that
    goes up only when the cell above is strictly larger. Which LCS is found changes the
    union, hence the score. Iterative: the package's recursion fails past ~1,000 steps.

    The table is kept as one int a row (Hyyrö's bit-parallel LCS: bit j-1 is 0 where the row
    grows by one at column j), made with a few int operations a row instead of a step a cell;
    the backtrack reads only whether a row grows at a column."""
    cols = len(hyp)
    full = (1 << cols) - 1
    where: dict[str, int] = {}
    for j, word in enumerate(hyp):
        where[word] = where.get(word, 0) | 1 << j
    # (a carry past column ``cols`` changes no bit under it: no mask needed)
    v = full
    rows = [full, *[v := (v + (u := v & matched)) | (v - u) for matched in map(where.get, ref, repeat(0))]]
    found = []
    i, j = len(ref), cols
    while i > 0 and j > 0:
        word = ref[i - 1]
        if word == hyp[j - 1]:
            found.append(word)
            i -= 1
            j -= 1
        # table[i-1][j] > table[i][j-1]: without a match, table[i][j] is the larger of the two,
        # so this holds exactly when row i grows at column j (its bit j-1 is 0)
        elif not rows[i] >> (j - 1) & 1:
            i -= 1
        else:
            # left, column by column, to the next one where the row grows or the words match
            j = ((~rows[i] | where.get(word, 0)) & ((1 << (j - 1)) - 1)).bit_length()
    found.reverse()
    return found


def _lcs_union(hyp_sents: Sequence[str], ref_sents: Sequence[str]) -> set[str]:
    """The distinct words of every reference sentence's LCS with every hypothesis sentence."""
    union: set[str] = set()
    hyp_words = [s.split(" ") for s in hyp_sents]
    hyp_sets = [set(w) for w in hyp_words]
    for ref_s in ref_sents:
        ref_words = ref_s.split(" ")
        ref_set = set(ref_words)
        for h, h_set in zip(hyp_words, hyp_sets):
            # an LCS holds only words both sides have: when those are all in already, it adds none
            if not (ref_set & h_set) - union:
                continue
            union.update(lcs_tokens(ref_words, h))
    return union


def pair_statistics(hyp: str, ref: str, metrics: Sequence[str] = DEFAULT_METRICS) -> dict[str, Raw] | str:
    """Per type, ``(hyp_count, ref_count, overlap)`` of one pair, or why the package raises."""
    hyp_sents, ref_sents = sentences(hyp), sentences(ref)
    if not hyp_sents:
        return "Hypothesis is empty."
    if not ref_sents:
        return "Reference is empty."
    hyp_words, ref_words = words(hyp_sents), words(ref_sents)
    raw: dict[str, Raw] = {}
    for m in metrics:
        if m == "rouge-l":
            union = _lcs_union(hyp_sents, ref_sents)
            raw[m] = (len(set(hyp_words)), len(set(ref_words)), len(union))
        else:
            n = int(m[-1])
            hyp_grams, ref_grams = _ngram_set(hyp_words, n), _ngram_set(ref_words, n)
            raw[m] = (len(hyp_grams), len(ref_grams), len(hyp_grams & ref_grams))
    return raw


def figures(raw: Raw) -> Figures:
    """(P, R, F) from raw counts, as ``f_r_p_rouge_n`` (and rouge-l, whose counts are never 0)."""
    hyp_count, ref_count, overlap = raw
    precision = overlap / hyp_count if hyp_count else 0.0
    recall = overlap / ref_count if ref_count else 0.0
    return precision, recall, 2.0 * ((precision * recall) / (precision + recall + 1e-8))


def pair_scores(hyp: str, ref: str, config: RougePypiConfig = RougePypiConfig()) -> PairScores | str:
    """One pair's raw counts and (P, R, F) per type, or the reason it is skipped."""
    if config.ignore_empty and (not hyp or not ref):
        return "empty text (ignore_empty)"
    raw = pair_statistics(hyp, ref, config.metrics)
    if isinstance(raw, str):
        return f"rouge raises ValueError: {raw}"
    return PairScores(raw, {m: figures(r) for m, r in raw.items()})


def average(pairs: Sequence[PairScores], metrics: Sequence[str] = DEFAULT_METRICS) -> dict[str, Figures] | None:
    """``get_scores(avg=True)`` of the scored pairs: per type, P, R and F summed in order and
    divided by the count (None without pairs, where the package raises)."""
    if not pairs:
        return None
    result = {}
    for m in metrics:
        p = r = f = 0
        for pair in pairs:
            pp, pr, pf = pair.scores[m]
            p, r, f = p + pp, r + pr, f + pf
        result[m] = (p / len(pairs), r / len(pairs), f / len(pairs))
    return result


def get_scores(hyps: Sequence[str], refs: Sequence[str], config: RougePypiConfig = RougePypiConfig()) -> tuple[dict[str, Figures] | None, list[PairScores | None], list[Skipped]]:
    """The average, each pair's scores (None where skipped) and the skipped pairs."""
    if len(hyps) != len(refs):
        raise ValueError(f"{len(hyps)} hypotheses but {len(refs)} references")
    per_pair: list[PairScores | None] = []
    skipped = []
    for i, (hyp, ref) in enumerate(zip(hyps, refs)):
        scores = pair_scores(hyp, ref, config)
        if isinstance(scores, str):
            skipped.append(Skipped(i, scores))
            per_pair.append(None)
        else:
            per_pair.append(scores)
    return average([p for p in per_pair if p is not None], config.metrics), per_pair, skipped


_WORD = re.compile(r"[^.\s]+")


def unmatched_spans(hyp: str, ref: str, metric: str = "rouge-1") -> list[tuple[int, int]]:
    """``[start, end)`` of the hypothesis words that count for nothing: for ``rouge-1`` words
    absent from the reference, for ``rouge-l`` words outside the LCS union. The package's
    words are the runs of characters that are neither ``"."`` nor whitespace (its empty word
    has no place in the text)."""
    ref_sents = sentences(ref)
    if metric == "rouge-l":
        hits = _lcs_union(sentences(hyp), ref_sents) if ref_sents and sentences(hyp) else set()
    elif metric == "rouge-1":
        hits = set(words(ref_sents))
    else:
        raise ValueError(f"spans only for rouge-1 and rouge-l, not {metric!r}")
    return [m.span() for m in _WORD.finditer(hyp) if m.group() not in hits]


def signature(config: RougePypiConfig, nrefs: int | None = 1) -> str:
    return "|".join(
        [
            f"nrefs:{'var' if nrefs is None else nrefs}",
            "impl:rouge",
            "tok:dot-space",
            "exclusive:yes",
            f"empty:{'skip' if config.ignore_empty else 'raise'}",
            "agg:mean",
            f"version:scorelens-{__version__}",
        ]
    )
