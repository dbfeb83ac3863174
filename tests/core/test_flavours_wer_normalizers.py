"""WER after Whisper's normalisers against ``jiwer`` fed ``whisper-normalizer``'s output, as leaderboards do."""

from __future__ import annotations

import math

import jiwer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scorelens.core import wer, wer_normalizers
from scorelens.core.wer_normalizers import NORMALIZERS
from whisper_normalizer.basic import BasicTextNormalizer
from whisper_normalizer.english import EnglishTextNormalizer

ORACLE = {"whisper-english": EnglishTextNormalizer(), "whisper-basic": BasicTextNormalizer()}

TRICKY = [
    # numbers and currencies
    ("I paid $20 million in the 1990s.", "i paid twenty million dollars in the nineteen nineties"),
    ("It's 3.5%, £10.50 and one oh one", "its three point five percent ten pounds fifty and 101"),
    ("Twenty five point five percent", "25.5 %"),
    ("the 21st of March, 2,345 people", "the twenty first of march two thousand three hundred forty five people"),
    ("€5 ¢99 $1.2B", "five euros 99 cents one point two billion dollars"),
    # contractions, titles
    ("We're here, won't we? Let's go y'all", "we are here will not we let us go you all"),
    ("Mr. Smith and Dr Jones gonna wanna", "mister smith and doctor jones going to want to"),
    # British spellings
    ("The colour of the organisation's centre", "the color of the organization's center"),
    # fillers and brackets
    ("uh so um hmm [laughter] (inaudible) we mhm grew", "so we grew"),
    ("<unk> [crosstalk] okay", "okay"),
    # diacritics, symbols, whitespace
    ("Café naïve – résumé… “quoted”", "cafe naive resume quoted"),
    ("line one\nline\ttwo  three", "line one line two three"),
    # empty after normalisation
    ("uh", "um"),
    ("", "something"),
    ("[noise]", ""),
    ("   ", "   "),
]


def oracle_counts(ref, hyp, name):
    n = ORACLE[name]
    out = jiwer.process_words(n(ref), n(hyp))
    return out.hits, out.substitutions, out.deletions, out.insertions


@pytest.mark.parametrize("name", NORMALIZERS)
@pytest.mark.parametrize("ref, hyp", TRICKY)
def test_tricky_segments(name, ref, hyp):
    assert wer_normalizers.normalize(ref, name) == ORACLE[name](ref)
    got = wer_normalizers.counts(ref, hyp, name)
    assert (got.hits, got.substitutions, got.deletions, got.insertions) == oracle_counts(ref, hyp, name)


@pytest.mark.parametrize("name", NORMALIZERS)
def test_corpus_is_summed_counts(name):
    """jiwer.wer of the normalised lists equals the rates of the summed per-segment counts."""
    refs, hyps = [r for r, _ in TRICKY], [h for _, h in TRICKY]
    n = ORACLE[name]
    expected = jiwer.wer([n(r) for r in refs], [n(h) for h in hyps])
    total = sum((wer_normalizers.counts(r, h, name) for r, h in zip(refs, hyps)), wer.ErrorCounts())
    assert wer.rates(total).wer == expected
    # and with the hypotheses as references (the empty ones change sides)
    expected = jiwer.wer([n(h) for h in hyps], [n(r) for r in refs])
    total = sum((wer_normalizers.counts(h, r, name) for r, h in zip(refs, hyps)), wer.ErrorCounts())
    assert wer.rates(total).wer == expected


PIECES = ["uh", "Twenty", "five", "$20", "million", "[laughter]", "(um)", "we're", "colour", "3.5%", "Mr.", "one", "oh", "ok,", "\n", "café", "—", "'s"]
texts = st.lists(st.sampled_from(PIECES), max_size=12).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(texts, texts, st.sampled_from(NORMALIZERS))
def test_random(ref, hyp, name):
    got = wer_normalizers.counts(ref, hyp, name)
    assert (got.hits, got.substitutions, got.deletions, got.insertions) == oracle_counts(ref, hyp, name)
    spans = wer_normalizers.word_spans(hyp, name)
    assert len(spans) == len(wer_normalizers.words(hyp, name))
    assert all(0 <= a <= b <= len(hyp) for a, b in spans)


def test_spans():
    text = "Uh, I paid $20 million. We're colour-ful, one oh one"
    found = [(w, text[a:b]) for w, (a, b) in zip(wer_normalizers.words(text, "whisper-english"), wer_normalizers.word_spans(text, "whisper-english"))]
    assert found == [
        ("i", "I"),
        ("paid", "paid"),
        ("$20000000", "$20 million."),
        ("we", "We're"),
        ("are", "We're"),
        ("color", "colour-ful,"),
        ("ful", "colour-ful,"),
        ("101", "one oh one"),
    ]
    ref, hyp = "the colour is twenty five", "The color was 25"
    assert wer_normalizers.error_spans(ref, hyp, "whisper-english") == [("substitute", (10, 13), (11, 13))]
    assert wer_normalizers.error_spans("a b", "a", "whisper-basic") == [("delete", None, (2, 3))]


def test_signature():
    assert wer_normalizers.signature("whisper-english").startswith("nrefs:1|unit:word|transform:whisper-english|")


CALLS = ["4320211", "4330115", "4341191", "4344338", "4344866"]


@pytest.mark.shared
@pytest.mark.parametrize("name", NORMALIZERS)
def test_earnings21(shared, name):
    """Five earnings calls, each reference and system transcript one document (their turns differ)."""
    n = ORACLE[name]
    for system in ("amazon", "google"):
        refs = [shared("earnings21", "reference", f"{c}.txt").read_text(encoding="utf-8") for c in CALLS]
        hyps = [shared("earnings21", system, f"{c}.txt").read_text(encoding="utf-8") for c in CALLS]
        total = wer.ErrorCounts()
        for ref, hyp in zip(refs, hyps):
            got = wer_normalizers.counts(ref, hyp, name)
            assert (got.hits, got.substitutions, got.deletions, got.insertions) == oracle_counts(ref, hyp, name)
            total += got
        expected = jiwer.wer([n(r) for r in refs], [n(h) for h in hyps])
        assert math.isclose(wer.rates(total).wer, expected, rel_tol=0, abs_tol=0)
