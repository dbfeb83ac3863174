"""The report's and the API's rows' sentence scores computed a column at a time equal, float for
float, those of one segment's statistics (which equal sacreBLEU's and jiwer's): BLEU under every
smoothing and order, chrF and chrF++ with and without eps smoothing, TER over several references,
WER; on statistics with empty sides, no matches and partial matches."""

from __future__ import annotations

import random

import numpy as np
import pytest

from scorelens.core import bleu, chrf, ter, wer

ROWS = 3000


def _bleu_rows(rng: random.Random, order: int) -> list[tuple[int, ...]]:
    rows = []
    for _ in range(ROWS):
        hyp_len = rng.choice([0, 1, 2, 3, 5, rng.randint(0, 40)])
        ref_len = rng.choice([0, 1, hyp_len, hyp_len + 1, max(hyp_len - 1, 0), rng.randint(0, 40)])
        totals = [max(hyp_len - n, 0) for n in range(order)]
        correct = [rng.randint(0, t) if rng.random() < 0.7 else 0 for t in totals]
        rows.append((hyp_len, ref_len, *correct, *totals))
    return rows


@pytest.mark.parametrize("order", [1, 2, 4, 6])
@pytest.mark.parametrize("method, value", [("exp", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 0.5), ("none", None)])
def test_sentence_bleu_of_many(order, method, value):
    rows = _bleu_rows(random.Random(order), order)
    config = bleu.BleuConfig(smooth_method=method, smooth_value=value, max_ngram_order=order)
    got = bleu.sentence_scores(np.array(rows, np.int64), config).tolist()
    one_by_one = [bleu.score(r, config, effective_order=True) for r in rows]
    assert got == [s.score for s in one_by_one]
    assert 0 < sum(v == 0 for v in got) < ROWS  # both kinds of segment were there
    # a row's whole figures: precisions, brevity penalty, lengths, counts (their types too)
    figures = bleu.sentence_figures(rows, config)
    assert figures == one_by_one
    assert [list(map(type, f.precisions + f.counts + f.totals)) for f in figures] == [list(map(type, s.precisions + s.counts + s.totals)) for s in one_by_one]


@pytest.mark.parametrize("config", [chrf.ChrfConfig(), chrf.ChrfConfig(word_order=2), chrf.ChrfConfig(word_order=2, beta=1, eps_smoothing=True), chrf.ChrfConfig(char_order=3, beta=0)])
def test_sentence_chrf_of_many(config):
    rng = random.Random(config.order)
    rows = []
    for _ in range(ROWS):
        row = []
        for _ in range(config.order):
            n_hyp, n_ref = rng.choice([0, 1, 5, rng.randint(0, 50)]), rng.choice([0, 1, 5, rng.randint(0, 50)])
            row += [n_hyp, n_ref, rng.randint(0, min(n_hyp, n_ref))]
        rows.append(tuple(row))
    got = chrf.f_scores(np.array(rows, np.int64), config).tolist()
    assert got == [chrf.f_score(r, config) for r in rows]
    assert chrf.scores_of(rows, config) == [chrf.score(r, config) for r in rows]


@pytest.mark.parametrize("nrefs", [1, 3])
def test_sentence_ter_and_wer_of_many(nrefs):
    rng = random.Random(nrefs)
    rows = [(rng.choice([0, rng.randint(0, 30)]), rng.choice([0, rng.randint(0, 90)]), rng.randint(0, 5)) for _ in range(ROWS)]
    assert ter.scores_of(np.array(rows, np.int64), nrefs).tolist() == [ter.score(r, nrefs).score for r in rows]
    counts = [tuple(rng.choice([0, rng.randint(0, 30)]) for _ in range(4)) for _ in range(ROWS)]
    assert wer.wers_of(np.array(counts, np.int64)).tolist() == [wer.rates(wer.ErrorCounts(*c)).wer for c in counts]
