"""``impl:nltk`` BLEU against NLTK's ``corpus_bleu`` / ``sentence_bleu`` themselves."""

from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu
import scorelens
from scorelens.core import bleu_nltk
from scorelens.core.bleu_nltk import NltkBleuConfig, SmoothingError
from scorelens.core.ngram_counts import Side

WEIGHTS = [
    (0.25, 0.25, 0.25, 0.25),  # BLEU-4, NLTK's default
    (1.0,),  # BLEU-1
    (0.5, 0.5),  # BLEU-2
    (1 / 3, 1 / 3, 1 / 3),
    (0.1, 0.2, 0.3, 0.4),
    (0.2, 0.2, 0.2, 0.2, 0.2),  # past method5's fixed 5th order
    (0.4, 0.0, 0.6),
]

tokens = st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), max_size=12)
segment = st.tuples(tokens, st.lists(tokens, min_size=1, max_size=3))


def nltk_corpus(refs, hyps, weights, method, auto_reweigh):
    """NLTK's value and its warnings' messages, or the exception it raises."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = corpus_bleu(refs, hyps, weights, getattr(SmoothingFunction(), f"method{method}"), auto_reweigh)
        except (AssertionError, ZeroDivisionError) as e:
            return e, []
    return value, [str(w.message).strip() for w in caught]


def ours(segments, config):
    stats = [bleu_nltk.statistics(h, r, config.order) for h, r in segments]
    summed = [sum(column) for column in zip(*stats)]
    last = bleu_nltk.last_segment(*segments[-1])
    return bleu_nltk.corpus_score(summed, config, last)


def check(segments, weights, method, auto_reweigh):
    config = NltkBleuConfig(weights=weights, smoothing=method, auto_reweigh=auto_reweigh)
    expected, messages = nltk_corpus([r for _, r in segments], [h for h, _ in segments], weights, method, auto_reweigh)
    if isinstance(expected, Exception):
        with pytest.raises(SmoothingError):
            ours(segments, config)
        return
    got = ours(segments, config)
    assert math.isclose(got.score / 100, expected, rel_tol=1e-12, abs_tol=0), (got, expected)
    assert list(got.notes) == messages


@settings(max_examples=300, deadline=None)
@given(
    st.lists(segment, min_size=1, max_size=5),
    st.sampled_from(WEIGHTS),
    st.integers(0, 7),
    st.booleans(),
)
def test_corpus_bleu(segments, weights, method, auto_reweigh):
    if method == 6 and len(weights) < 3:
        weights = WEIGHTS[0]
    check(segments, weights, method, auto_reweigh)


@settings(max_examples=200, deadline=None)
@given(segment, st.sampled_from(WEIGHTS), st.integers(0, 7), st.booleans())
def test_sentence_bleu(seg, weights, method, auto_reweigh):
    if method == 6 and len(weights) < 3:
        weights = WEIGHTS[0]
    hyp, refs = seg
    config = NltkBleuConfig(weights=weights, smoothing=method, auto_reweigh=auto_reweigh)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected = sentence_bleu(refs, hyp, weights, getattr(SmoothingFunction(), f"method{method}"), auto_reweigh)
        except AssertionError:
            with pytest.raises(SmoothingError):
                bleu_nltk.sentence_score(hyp, refs, config)
            return
    got = bleu_nltk.sentence_score(hyp, refs, config)
    assert math.isclose(got.score / 100, expected, rel_tol=1e-12, abs_tol=0), (got, expected)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 3).flatmap(lambda k: st.lists(st.tuples(tokens, st.lists(tokens, min_size=k, max_size=k)), min_size=1, max_size=8)), st.integers(1, 6), st.booleans())
def test_statistics_of_many_segments(segments, order, last):
    """The batch's rows (numpy's matching) are each segment's own statistics and last-segment figures."""
    number = {t: i for i, t in enumerate("abcde")}.__getitem__
    hyp = Side.of_numbers([list(map(number, h)) for h, _ in segments])
    refs = [Side.of_numbers([list(map(number, r[k])) for _, r in segments]) for k in range(len(segments[0][1]))]
    stats, lasts = bleu_nltk.statistics_of(hyp, refs, order, last)
    assert [tuple(row) for row in stats.tolist()] == [bleu_nltk.statistics(h, r, order) for h, r in segments]
    if last:
        assert [tuple(row) for row in lasts.tolist()] == [bleu_nltk.last_segment(h, r) for h, r in segments]
    else:
        assert lasts is None


@pytest.mark.parametrize("method", range(8))
def test_fixed_cases(method):
    cat = ["the", "cat", "sat", "on", "the", "mat"]
    cases = [
        [(cat, [cat])],  # identical: 5 and 7 go above 1
        [([], [cat])],  # empty hypothesis
        [([], [cat]), (cat[:3], [cat, ["a", "cat", "sat", "on", "a", "mat"]])],
        [(["the", "the", "the", "the"], [cat, ["there", "is", "a", "cat", "on", "the", "mat"]])],
        [(cat[:2], [cat[:1], cat[:3]])],  # closest-length tie: the shorter
        [(cat, [cat]), (["on", "the", "mat"], [["on", "the", "mat"]])],  # last segment short: method5/6
    ]
    for segments in cases:
        check(segments, WEIGHTS[0], method, False)
        check(segments, WEIGHTS[0], method, True)


def test_quirks_kept():
    cat = ["the", "cat", "sat", "on", "the", "mat"]
    for method in (5, 7):
        assert bleu_nltk.sentence_score(cat, [cat], NltkBleuConfig(smoothing=method)).score > 100
    zero4 = bleu_nltk.sentence_score(["the", "mat", "sat", "on", "the", "cat"], [cat])
    assert 0 < zero4.score < 1e-50 and "4-gram" in zero4.notes[-1]
    assert bleu_nltk.corpus_score([0] * 10).notes == ("no segments",)


def test_signature():
    config = NltkBleuConfig(smoothing=1)
    assert bleu_nltk.signature(config, 1).startswith("nrefs:1|impl:nltk|weights:0.25,0.25,0.25,0.25|smooth:method1|reweigh:no|case:mixed|tok:whitespace|version:")
    assert "smooth:method4[k=3]" in bleu_nltk.signature(NltkBleuConfig(smoothing=4, k=3), None)


def test_unmatched_spans():
    config = NltkBleuConfig()
    text = "the  dog sat"
    tokens = config.tokenizer.tokens(text)
    spans = config.tokenizer.spans(text, tokens)
    assert [spans[i] for i in bleu_nltk.unmatched(tokens, [["the", "cat", "sat"]])] == [(5, 8)]


@pytest.mark.shared
@pytest.mark.parametrize("method", range(8))
def test_real_corpus(shared, method):
    """compare-mt's TED outputs (2,445 tokenised lines, two systems as two references for the second)."""
    ref = [line.split() for line in shared("compare-mt", "ted.ref.eng").read_text(encoding="utf-8").splitlines()]
    sys1 = [line.split() for line in shared("compare-mt", "ted.sys1.eng").read_text(encoding="utf-8").splitlines()]
    sys2 = [line.split() for line in shared("compare-mt", "ted.sys2.eng").read_text(encoding="utf-8").splitlines()]
    check(list(zip(sys1, [[r] for r in ref])), WEIGHTS[0], method, False)
    check(list(zip(sys1, [[r, s] for r, s in zip(ref, sys2)])), (0.5, 0.5, 0.0), method, False)
    # sentence level: every line of the first 200
    for h, r in zip(sys1[:200], ref[:200]):
        check([(h, [r])], WEIGHTS[0], method, False)


@pytest.mark.shared
@pytest.mark.parametrize("method", range(8))
def test_real_corpus_scored_from_texts(shared, method):
    """``scorelens.score`` of compare-mt's TED texts (a text at a time turned into token arrays,
    matched in numpy) against ``corpus_bleu``, with one reference and with two."""
    read = lambda name: shared("compare-mt", name).read_text(encoding="utf-8").splitlines()
    ref, sys1, sys2 = read("ted.ref.eng"), read("ted.sys1.eng"), read("ted.sys2.eng")
    smoothing = getattr(SmoothingFunction(), f"method{method}")
    for references in ([ref], [ref, sys2]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = corpus_bleu([[r.split() for r in rs] for rs in zip(*references)], [h.split() for h in sys1], smoothing_function=smoothing)
        got = scorelens.score(sys1, references, "bleu", bleu_impl="nltk", nltk_smoothing=method)
        assert math.isclose(got.bleu.score / 100, expected, rel_tol=1e-12, abs_tol=0), (got.bleu.score, expected)


@pytest.mark.parametrize("lowercase", [False, True])
def test_texts_spaced_any_way_scored_from_texts(lowercase):
    """NLTK's tokens are ``text.split()``'s whatever the spacing (tabs, runs of spaces, Unicode
    spaces, ends), lowercased word by word: ``scorelens.score`` of such texts, in batches of
    token arrays, against ``corpus_bleu`` of ``split()``."""
    hyps = ["the  cat\tsat on the mat", " ΟΔΟΣ\u3000the cat ", "a\xa0b c\x1cd &amp; <skipped>", "", "the cat sat"] * 3
    refs = ["The cat sat on the  mat", "οδος the cat", "a b c\x1cd & x", "the cat", "the\u2003cat sat"] * 3
    case = (lambda text: text.lower()) if lowercase else (lambda text: text)
    expected = corpus_bleu([[case(r).split()] for r in refs], [case(h).split() for h in hyps], smoothing_function=SmoothingFunction().method1)
    got = scorelens.score(hyps, refs, "bleu", bleu_impl="nltk", nltk_smoothing=1, lowercase=lowercase)
    assert math.isclose(got.bleu.score / 100, expected, rel_tol=1e-12, abs_tol=0), (got.bleu.score, expected)
