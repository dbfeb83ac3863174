"""Scoring through a pool map gives exactly what in-process scoring gives.

``Corpus.refresh(pool_map=...)`` hands large runs of segments to a ``map``-like callable as
chunks of texts. Corpus scores, totals, every segment's statistics, scores and findings must
equal those of a corpus scored in-process, exactly: the same records, summed in the same order.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest
from hypothesis import given
from hypothesis import strategies as st
from peers import config, document, file_lines, read
from test_incremental import METRICS, assert_same, small_pool_chunks
from texts import examples, line_corpus

from scorelens.core import Corpus
from scorelens.core import corpus as corpus_module


def assert_identical(pooled: Corpus, fresh: Corpus) -> None:
    """``assert_same`` allows 1e-9 on floats (running sums); here nothing may differ at all."""
    assert pooled.scores() == fresh.scores()
    assert pooled.totals() == fresh.totals()
    for i in range(len(fresh)):
        assert pooled.statistics(i) == fresh.statistics(i), i
        assert pooled.segment_scores(i) == fresh.segment_scores(i), i
        assert pooled.findings(i) == fresh.findings(i), i


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_process_pool_equals_in_process(shared, monkeypatch, start_method):
    """Real worker processes, several chunks each; references of other lengths than the hypothesis.
    Spawned workers (macOS's and Windows's way) have their own hash seed: nothing may depend on it."""
    if start_method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {start_method} start method here")
    hyp = file_lines(read(shared("compare-mt", "ted.sys1.detok.eng")))[:1500]
    refs = [
        file_lines(read(shared("compare-mt", "ted.ref.detok.eng")))[:1500],
        file_lines(read(shared("compare-mt", "ted.sys2.detok.eng")))[:1400],
    ]
    cfg = config(METRICS)
    monkeypatch.setattr(corpus_module, "POOL_MINIMUM", 1)
    monkeypatch.setattr(corpus_module, "POOL_CHUNK", 200)
    pooled = Corpus(document(hyp), [document(r) for r in refs], cfg)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context(start_method)) as pool:
        assert pooled.refresh(pool_map=pool.map)
    assert_identical(pooled, Corpus(document(hyp), [document(r) for r in refs], cfg))
    # an edit after the pooled cold start re-scores from analyses made on demand
    pooled.replace_lines(0, 700, 701, ["And that is what I want to tell you ."])
    pooled.replace_lines(2, 10, 10, ["an inserted line shifts every later pairing"])
    hyp[700] = "And that is what I want to tell you ."
    refs[1].insert(10, "an inserted line shifts every later pairing")
    assert_same(pooled, Corpus(document(hyp), [document(r) for r in refs], cfg))


@pytest.mark.parametrize("segmentation", ["line", "paragraph", "document"])
@examples(100)
@given(
    data=line_corpus(max_lines=9),
    cut=st.integers(0, 3),
    metrics=st.sets(st.sampled_from(METRICS), min_size=1),
    tokenize=st.sampled_from(["13a", "char", "none", "intl"]),
)
def test_plain_map_equals_in_process(segmentation, data, cut, metrics, tokenize):
    """The built-in ``map`` as the pool map, chunks of two segments, any texts and configuration."""
    hyps, refs = data
    refs[-1] = refs[-1][: len(refs[-1]) - cut]  # a reference that runs out early
    texts = [document(hyps), *(document(r) for r in refs)]
    cfg = config(metrics, segmentation=segmentation, tokenize=tokenize)
    with small_pool_chunks():
        pooled = Corpus(texts[0], texts[1:], cfg)
        assert pooled.refresh(pool_map=map)
    assert_identical(pooled, Corpus(texts[0], texts[1:], cfg))


def test_pool_only_for_large_runs(monkeypatch):
    """Below ``POOL_MINIMUM`` segments the pool map is never called; above, a call per chunk."""
    monkeypatch.setattr(corpus_module, "POOL_MINIMUM", 10)
    monkeypatch.setattr(corpus_module, "POOL_CHUNK", 4)
    chunks = []

    def counting_map(function, iterable):
        for chunk in iterable:
            chunks.append(len(chunk[0]))
            yield function(chunk)

    cfg = config(["bleu", "wer"])
    small = Corpus(document(["the cat sat"] * 9), [document(["the cat sat on the mat"] * 9)], cfg)
    small.refresh(pool_map=counting_map)
    assert chunks == []
    large = Corpus(document(["the cat sat"] * 10), [document(["the cat sat on the mat"] * 10)], cfg)
    large.refresh(pool_map=counting_map)
    assert chunks == [4, 4, 2]
    # a one-line edit is re-scored in-process
    large.replace_lines(0, 3, 4, ["the dog sat"])
    large.refresh(pool_map=counting_map)
    assert chunks == [4, 4, 2]
    assert_identical(large, Corpus(document(["the cat sat"] * 3 + ["the dog sat"] + ["the cat sat"] * 6), [document(["the cat sat on the mat"] * 10)], cfg))
