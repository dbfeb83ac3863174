"""``impl:rouge`` against the PyPI ``rouge`` package 1.0.1 itself."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

rouge = pytest.importorskip("rouge", reason="the PyPI rouge package (test extra) is not installed")
Rouge = rouge.Rouge

from scorelens.core import rouge_pypi
from scorelens.core.rouge_pypi import METRICS, RougePypiConfig

PIECES = ["a", "b", "c", "the", "cat", "Cat", ".", ". ", " . ", "..", " ", "  ", "\n", "\t", "\u00a0", "\x1c", "a.b"]
texts = st.lists(st.sampled_from(PIECES), max_size=14).map(lambda parts: " ".join(parts) if len(parts) % 2 else "".join(parts))
TYPES = list(METRICS)


def oracle_pair(hyp, ref):
    try:
        return Rouge(metrics=TYPES).get_scores(hyp, ref)[0]
    except ValueError as e:
        return e


def same(got, expected):
    return got == (expected["p"], expected["r"], expected["f"])


@settings(max_examples=400, deadline=None)
@given(texts, texts)
def test_pairs(hyp, ref):
    config = RougePypiConfig(metrics=TYPES, ignore_empty=False)
    expected = oracle_pair(hyp, ref)
    got = rouge_pypi.pair_scores(hyp, ref, config)
    if isinstance(expected, Exception):
        assert isinstance(got, str) and str(expected) in got
        return
    assert not isinstance(got, str), got
    for m in TYPES:
        assert same(got.scores[m], expected[m]), (m, got.scores[m], expected[m])
    raw = Rouge(metrics=TYPES, raw_results=True).get_scores(hyp, ref)[0]
    assert {m: (r["hyp"], r["ref"], r["overlap"]) for m, r in raw.items()} == got.raw


long_texts = st.lists(st.sampled_from(["a", "b", "c", "d", "."]), min_size=1, max_size=60).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(long_texts, long_texts)
def test_long_pairs(hyp, ref):
    """Longer sentences of few words: many LCS ties, so the backtrack's choice matters."""
    test_pairs.hypothesis.inner_test(hyp, ref)


words = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=40)


@settings(max_examples=300, deadline=None)
@given(words, words)
def test_lcs_tokens(ref, hyp):
    """The bit-parallel table's backtrack finds the package's own LCS: its words, and an LCS's length."""
    from rapidfuzz.distance import LCSseq

    found = rouge_pypi.lcs_tokens(ref, hyp)
    assert set(found) == rouge.rouge_score._recon_lcs(ref, hyp)._ngrams
    assert len(found) == LCSseq.similarity(ref, hyp)


def oracle_average(hyps, refs, ignore_empty):
    """The package's average over the pairs it does not raise on (it raises on the whole call otherwise)."""
    keep = [i for i, (h, r) in enumerate(zip(hyps, refs)) if not (ignore_empty and (not h or not r)) and not isinstance(oracle_pair(h, r), Exception)]
    try:
        return Rouge(metrics=TYPES).get_scores(hyps, refs, avg=True, ignore_empty=ignore_empty), keep
    except (ValueError, ZeroDivisionError):  # a raising pair, or no pair at all
        pass
    if not keep:
        return None, keep
    avg = Rouge(metrics=TYPES).get_scores([hyps[i] for i in keep], [refs[i] for i in keep], avg=True, ignore_empty=ignore_empty)
    return avg, keep


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(texts, texts), max_size=6), st.booleans())
def test_average(pairs, ignore_empty):
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    config = RougePypiConfig(metrics=TYPES, ignore_empty=ignore_empty)
    avg, per_pair, skipped = rouge_pypi.get_scores(hyps, refs, config)
    expected, keep = oracle_average(hyps, refs, ignore_empty)
    assert [i for i, p in enumerate(per_pair) if p is not None] == keep
    assert sorted(s.index for s in skipped) == sorted(set(range(len(pairs))) - set(keep))
    if expected is None:
        assert avg is None
        return
    for m in TYPES:
        assert same(avg[m], expected[m]), m


def test_skip_reasons():
    config = RougePypiConfig()
    _, _, skipped = rouge_pypi.get_scores(["", "...", "a . b", " "], ["x", "y", "", "z"], config)
    assert [(s.index, s.reason) for s in skipped] == [
        (0, "empty text (ignore_empty)"),
        (1, "rouge raises ValueError: Hypothesis is empty."),
        (2, "empty text (ignore_empty)"),
    ]
    # whitespace-only is not empty to the package: it is one empty word, and matches another
    assert rouge_pypi.pair_scores(" ", "x. ", config).scores["rouge-1"][0] == 1.0


def test_spans():
    hyp = "The cat sat. on the\tmat."
    assert rouge_pypi.unmatched_spans(hyp, "the cat . a mat") == [(0, 3), (8, 11), (13, 15)]
    # its backtrack prefers the hypothesis side on ties: the LCS of "a b" with "b a" is "b"
    assert rouge_pypi.unmatched_spans("b a", "a b", "rouge-l") == [(2, 3)]


@pytest.mark.shared
def test_cnndm(shared):
    """SimCLS CNN/DM summaries (3,000 pairs; sentences end in " . "), the package's default call."""
    hyps = shared("cnndm", "cnndm.simcls.txt").read_text(encoding="utf-8").splitlines()
    refs = shared("cnndm", "cnndm.ref.txt").read_text(encoding="utf-8").splitlines()
    assert len(hyps) == len(refs) == 3000
    hyps, refs = hyps[:1000], refs[:1000]  # the package is slow: its LCS table is a dict
    config = RougePypiConfig()
    avg, per_pair, skipped = rouge_pypi.get_scores(hyps, refs, config)
    assert not skipped
    expected = Rouge().get_scores(hyps, refs, avg=True, ignore_empty=True)
    for m in config.metrics:
        assert same(avg[m], expected[m]), (m, avg[m], expected[m])
    pairs = Rouge().get_scores(hyps[:200], refs[:200])
    for got, want in zip(per_pair, pairs):
        for m in config.metrics:
            assert same(got.scores[m], want[m])
