"""ROUGE-W, ROUGE-S and ROUGE-SU over rouge-score's tokens (``impl:rouge-score``): an extension, for
rouge-score has no such measures (no oracle computes this combination).

The tokens are rouge-score's (its tokenizer, its Porter stemmer with ``--stem``); the formulas are
ROUGE-1.5.5.pl's (:mod:`.rouge155`), with the same weight (``--rouge-w-weight``) and skip distance
(``--rouge-skip-gap``, negative: unlimited), quirks included, so that where the two tokenizers
agree (lowercase ASCII words) a segment's figures are the script's, unrounded:

- a segment is one sequence of tokens, as rouge-score's ROUGE-L reads it (no sentence split);
- ROUGE-W: the hit is the script's weighted LCS (runs of consecutive reference positions on its
  LCS path, each run of k scoring k^w); R = (hit / (m^w)^w)^(1/w) (the script's recall denominator
  applies the weight twice), P = (hit / n^w)^(1/w) for a reference of m tokens and a hypothesis of n;
- ROUGE-S: skip-bigrams, pairs of tokens at most ``skip`` tokens apart (i < j <= i + skip + 1),
  counted as multisets; ROUGE-SU adds the unigram of every token but the last (the script's loop
  omits it); R = hits / the reference's count, P = hits / the hypothesis's;
- F = PR / (αP + (1 − α)R) with α = 0.5; an empty side scores 0 (where rouge-score scores 0).

Several references: the best F, the first on ties, as rouge-score's ``score_multi``; the corpus
figure is the mean over segments, as for rouge-score's other measures.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import count

from .rouge import best
from .rouge155 import Summary, clipped_hits, lcs_hits, skip_bigrams

__all__ = ["WsuConfig", "segment_scores", "segment_scores_many"]

Triple = tuple[float, float, float]  # (precision, recall, F)
ALPHA = 0.5


@dataclass(frozen=True)
class WsuConfig:
    keys: tuple[str, ...]  # the enabled "rougeW", "rougeS", "rougeSU", in that order
    w: float = 1.2
    skip: int = 4


def _triple(precision: float, recall: float) -> Triple:
    denominator = (1 - ALPHA) * precision + ALPHA * recall  # the script's order
    return precision, recall, (precision * recall / denominator) if denominator > 0 else 0.0


def _weighted(hyp: Sequence[str], ref: Sequence[str], w: float) -> Triple:
    if not hyp or not ref:
        return 0.0, 0.0, 0.0
    hit, base = lcs_hits(Summary([list(ref)]), Summary([list(hyp)]), w)
    return _triple((hit / len(hyp) ** w) ** (1 / w), (hit / base**w) ** (1 / w))


def _skips(hyp: Sequence[str], ref: Sequence[str], skip: int, unigrams: bool) -> Triple:
    peer, model = skip_bigrams(hyp, skip, unigrams), skip_bigrams(ref, skip, unigrams)
    peer_n, model_n = sum(peer.values()), sum(model.values())
    if not peer_n or not model_n:
        return 0.0, 0.0, 0.0
    hits = clipped_hits(model, peer)
    return _triple(hits / peer_n, hits / model_n)


def _pair(hyp: Sequence[str], ref: Sequence[str], key: str, config: WsuConfig) -> Triple:
    if key == "rougeW":
        return _weighted(hyp, ref, config.w)
    return _skips(hyp, ref, config.skip, key == "rougeSU")


def segment_scores(hyp: Sequence[str], refs: Sequence[Sequence[str]], config: WsuConfig) -> tuple[float, ...]:
    """(P, R, F) of each enabled key, flat, against its best reference (by F, the first on ties)."""
    flat: list[float] = []
    for key in config.keys:
        per_ref = [_pair(hyp, ref, key, config) for ref in refs]
        flat += per_ref[best(per_ref)] if per_ref else (0.0, 0.0, 0.0)
    return tuple(flat)


def segment_scores_many(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]], config: WsuConfig) -> list[tuple[float, ...]]:
    """:func:`segment_scores` of many segments, the pairs' LCS tables and skip-bigram counts made
    together (:mod:`.rouge155_kernel`)."""
    import numpy as np

    number = defaultdict(count().__next__).__getitem__
    hyp_ids = [list(map(number, h)) for h in hyps]
    owner = [i for i, rs in enumerate(refs) for _ in rs]
    pairs = [(hyp_ids[i], list(map(number, r))) for i, rs in enumerate(refs) for r in rs]
    per_key = []
    skips = None
    for key in config.keys:
        if key == "rougeW":
            per_key.append(_weighted_many(pairs, config.w))
        else:
            skips = skips or _skips_many(hyp_ids, [ref for _, ref in pairs], np.array(owner, np.int64), config.skip)
            per_key.append(skips[key == "rougeSU"])
    bounds = np.cumsum([0] + [len(rs) for rs in refs]).tolist()
    found = []
    for i in range(len(hyps)):
        flat: list[float] = []
        for triples in per_key:
            per_ref = triples[bounds[i] : bounds[i + 1]]
            flat += per_ref[best(per_ref)] if per_ref else (0.0, 0.0, 0.0)
        found.append(tuple(flat))
    return found


def _weighted_many(pairs: list[tuple[list[int], list[int]]], w: float) -> list[Triple]:
    import numpy as np

    from . import rouge155_kernel as kernel

    live = [k for k, (hyp, ref) in enumerate(pairs) if hyp and ref]
    triples = [(0.0, 0.0, 0.0)] * len(pairs)
    if live:
        powers = np.array([k**w for k in range(2 + max(max(len(h), len(r)) for h, r in pairs))])
        marks = kernel.lcs_marks([pairs[k][1] for k in live], [pairs[k][0] for k in live], powers)
        for k, hit in zip(live, kernel.run_hits(marks, powers)):
            hyp, ref = pairs[k]
            base = len(ref) ** w  # as lcs_hits sums it (one sentence)
            triples[k] = _triple((hit / len(hyp) ** w) ** (1 / w), (hit / base**w) ** (1 / w))
    return triples


def _skips_many(hyps: list[list[int]], refs: list[list[int]], owner, skip: int) -> tuple[list[Triple], list[Triple]]:
    """Each pair's ROUGE-S and ROUGE-SU triples."""
    import numpy as np

    from . import rouge155_kernel as kernel

    vocabulary = 1 + max((max(t, default=0) for t in (*hyps, *refs)), default=0)
    hits, unigram_hits = kernel.skip_hits(hyps, refs, owner, skip, vocabulary)
    hyp_n, hyp_u = kernel.gram_counts(np.fromiter(map(len, hyps), np.int64, len(hyps))[owner], skip)
    ref_n, ref_u = kernel.gram_counts(np.fromiter(map(len, refs), np.int64, len(refs)), skip)
    found = []
    for shared, of_hyp, of_ref in ((hits, hyp_n, ref_n), (hits + unigram_hits, hyp_n + hyp_u, ref_n + ref_u)):
        triples = zip(shared.tolist(), of_hyp.tolist(), of_ref.tolist())
        found.append([_triple(h / p, h / m) if p and m else (0.0, 0.0, 0.0) for h, p, m in triples])
    return found[0], found[1]
