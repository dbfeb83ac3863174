"""ROUGE-1.5.5's per-summary figures of many summaries at once: :func:`summary_scores_many` is
:func:`.rouge155.summary_scores` of each, with the LCS tables and skip-bigram counts of all the
pairs made together (:mod:`.rouge155_kernel`) on numbered tokens.

A pair of one sentence a side (a segment that is a line) goes through the kernel, where the
script's clipping of LCS hits by unigram counts never bites; a summary of several sentences, or a
reference without tokens under ROUGE-W (where the script dies), goes through the script's own
steps (:func:`.rouge155.lcs_hits`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from itertools import count

import numpy as np

from . import rouge155_kernel as kernel
from .rouge155 import Figures, Rouge155Config, Summary, _counted, _ngrams, _r5, counted_figures, lcs_figures, lcs_hits, preprocess

__all__ = ["summary_scores_many"]


def summary_scores_many(
    peers: Sequence[str], models: Sequence[Sequence[str]], config: Rouge155Config, stems: dict[str, str] | None = None
) -> list[dict[str, Figures]]:
    """Each summary's :func:`.rouge155.summary_scores` (``models[i]``: summary i's references)."""
    stems = {} if stems is None else stems
    peer_summaries = [preprocess(p, config, stems) for p in peers]
    model_summaries = [[preprocess(m, config, stems) for m in ms] for ms in models]
    number = defaultdict(count().__next__).__getitem__
    peer_tokens = [list(map(number, p.tokens)) for p in peer_summaries]
    model_tokens = [[list(map(number, m.tokens)) for m in ms] for ms in model_summaries]
    # the pairs, flat: summary ``owner[k]`` against its reference ``flat_models[k]``
    owner = [i for i, ms in enumerate(models) for _ in ms]
    flat_models = [m for ms in model_summaries for m in ms]
    flat_tokens = [t for ts in model_tokens for t in ts]
    bounds = np.cumsum([0] + [len(ms) for ms in models]).tolist()
    of = lambda values, i: values[bounds[i] : bounds[i + 1]]  # summary i's pairs
    scores: list[dict[str, Figures]] = [{} for _ in peers]
    for n in range(1, config.n_max + 1):
        for i, (p, ms) in enumerate(zip(peer_tokens, model_tokens)):
            scores[i][f"ROUGE-{n}"] = _counted(_ngrams(p, n), [_ngrams(m, n) for m in ms], config)
    # one reference each: the scoring formula (-f A or B) has nothing to choose or add up
    single = len(owner) == len(peers)
    for name, on, weight in (("ROUGE-L", config.rouge_l, None), (f"ROUGE-W-{config.w}", config.w is not None, float(config.w or 1))):
        if on:
            hits = _lcs_hits(flat_models, flat_tokens, [peer_summaries[i] for i in owner], [peer_tokens[i] for i in owner], weight)
            if single:
                f = (lambda x: x) if weight is None else (lambda x: x**weight)
                found = _figures_many([h for h, _ in hits], [f(b) for _, b in hits], [f(len(p)) for p in peer_tokens], config.alpha, weight)
                for figures, s in zip(found, scores):
                    s[name] = figures
            else:
                for i, p in enumerate(peer_tokens):
                    scores[i][name] = lcs_figures(of(hits, i), len(p), config, weight)
    if config.skip is not None:
        _skip_figures(scores, peer_tokens, flat_tokens, np.array(owner, np.int64), of, config, single)
    return scores


def _lcs_hits(models: list[Summary], model_tokens: list[list[int]], peers: list[Summary], peer_tokens: list[list[int]], weight: float | None) -> list[tuple[float, float]]:
    """:func:`.rouge155.lcs_hits` of each pair (reference, summary)."""
    simple = [k for k, (m, p, t) in enumerate(zip(models, peers, model_tokens)) if len(m.sentences) == 1 and len(p.sentences) == 1 and t]
    hits: list = [None] * len(models)
    if simple:
        longest = max(max(map(len, model_tokens)), max(map(len, peer_tokens)))
        # k ** w as the script's path computes it (Python's float power)
        powers = None if weight is None else np.array([k**weight for k in range(longest + 2)])
        marks = kernel.lcs_marks([model_tokens[k] for k in simple], [peer_tokens[k] for k in simple], powers)
        found = [int(row.sum()) for row in marks] if powers is None else kernel.run_hits(marks, powers)
        for k, h in zip(simple, found):
            m = len(model_tokens[k])
            hits[k] = (h, m if weight is None else m**weight)
    for k, h in enumerate(hits):
        if h is None:
            hits[k] = lcs_hits(models[k], peers[k], weight)
    return hits


def _skip_figures(scores, peer_tokens: list[list[int]], model_tokens: list[list[int]], owner: np.ndarray, of, config: Rouge155Config, single: bool) -> None:
    """ROUGE-S and -SU of each summary, into ``scores``."""
    d = str(config.skip) if config.skip >= 0 else "*"
    vocabulary = 1 + max((max(t, default=0) for t in (*peer_tokens, *model_tokens)), default=0)
    hits, unigram_hits = kernel.skip_hits(peer_tokens, model_tokens, owner, config.skip, vocabulary)
    peer_n, peer_u = kernel.gram_counts(np.fromiter(map(len, peer_tokens), np.int64, len(peer_tokens)), config.skip)
    model_n, model_u = kernel.gram_counts(np.fromiter(map(len, model_tokens), np.int64, len(model_tokens)), config.skip)
    if config.su != "u":
        _put(scores, f"ROUGE-S{d}", hits, model_n, peer_n, of, config, single)
    if config.su:
        _put(scores, f"ROUGE-SU{d}", hits + unigram_hits, model_n + model_u, peer_n + peer_u, of, config, single)


def _put(scores, name: str, hits: np.ndarray, model_n: np.ndarray, peer_n: np.ndarray, of, config: Rouge155Config, single: bool) -> None:
    if single:
        for figures, found in zip(_figures_many(hits, model_n, peer_n, config.alpha), scores):
            found[name] = figures
        return
    hits, model_n, peer_n = hits.tolist(), model_n.tolist(), peer_n.tolist()
    for i, found in enumerate(scores):
        found[name] = counted_figures(zip(of(hits, i), of(model_n, i)), peer_n[i], config)


def _figures_many(hit, model_count, peer_count, alpha: float, weight: float | None = None) -> list[Figures]:
    """:func:`.rouge155._figures` of many summaries (``weight``: ROUGE-W's, whose ratios are
    raised to 1 / weight by Python's power, as the script's path does)."""
    hit = np.asarray(hit, np.float64)

    def rounded(count) -> np.ndarray:
        count = np.asarray(count, np.float64)
        ratio = hit / np.where(count != 0, count, 1.0)
        if weight is not None:
            ratio = np.array([x ** (1 / weight) for x in ratio.tolist()])
        return np.where(count != 0, _r5_many(ratio), 0.0)

    recall, precision = rounded(model_count), rounded(peer_count)
    denominator = (1 - alpha) * precision + alpha * recall
    f = np.where(denominator > 0, _r5_many(precision * recall / np.where(denominator > 0, denominator, 1.0)), 0.0)
    return list(zip(recall.tolist(), precision.tolist(), f.tolist()))


def _r5_many(x: np.ndarray) -> np.ndarray:
    """:func:`.rouge155._r5` of each: the nearest 5-decimal figure, read back. ``x * 1e5`` is off
    by less than 1e-10 (for figures up to 10; they are at most 1), so it rounds as the exact value
    does, save near a half-way point, where the script's ``%7.5f`` is asked."""
    scaled = x * 1e5
    near = np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6
    found = np.rint(scaled) / 1e5  # the double nearest k / 10^5, as reading "0.xxxxx" gives
    if near.any():
        found[near] = [_r5(v) for v in x[near].tolist()]
    return found
