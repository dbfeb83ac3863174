"""Fluency (core/fluency.py) against the kenlm package's own score, perplexity and full_scores."""

from __future__ import annotations

import math
import random
import struct
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arpa import estimate, require_kenlm
from scorelens.core import ScoringConfig
from scorelens.core.corpus import Corpus
from scorelens.core.findings import Finding
from scorelens.core.fluency import OOV, UNLIKELY, Fluency, FluencyConfig, score_segment
from scorelens.core.tokenizers import bleu_tokenizer

kenlm = require_kenlm()

ROOT = Path(__file__).resolve().parents[2]

TOY_CORPUS = [
    "the cat sat on the mat",
    "the dog sat on the log",
    "a cat and a dog sat together",
    "the cat saw the dog",
    "on the mat the cat slept",
    "the dog slept on the log",
    "a bird sang on the log",
    "the café was open , the dog said \"yes\"",
]


@pytest.fixture(scope="module")
def toy_model(tmp_path_factory):
    """A trigram model with backoffs estimated from TOY_CORPUS."""
    path = tmp_path_factory.mktemp("lm") / "toy.arpa"
    path.write_text(estimate(TOY_CORPUS, order=3), encoding="utf-8")
    return kenlm.Model(str(path))


@pytest.fixture(scope="module")
def ted_model(tmp_path_factory, shared):
    """A trigram model of the first 1,500 lines of the TED reference; the rest are held out."""
    lines = shared("compare-mt", "ted.ref.eng").read_text(encoding="utf-8").split("\n")
    path = tmp_path_factory.mktemp("lm") / "ted.arpa"
    path.write_text(estimate(lines[:1500], order=3), encoding="utf-8")
    return kenlm.Model(str(path)), [line for line in lines[1500:] if line]


def float32_sum(values) -> float:
    """Sequential float32 addition, as kenlm's ``cdef float total``."""
    total = 0.0
    for v in values:
        total = struct.unpack("f", struct.pack("f", total + v))[0]
    return total


def check_against_kenlm(model, f: Fluency, texts: list[str], tokenizer=None) -> None:
    tokenize = (tokenizer or bleu_tokenizer("none")).tokens
    for i, text in enumerate(texts):
        sentence = " ".join(tokenize(text))
        s = f[i]
        assert s.log10_prob == model.score(sentence, bos=True, eos=True)
        assert s.perplexity == model.perplexity(sentence)
        assert s.token_scores == tuple(model.full_scores(sentence))
        assert s.words == len(sentence.split())
    sentences = [" ".join(tokenize(t)) for t in texts]
    score = f.score()
    log10_prob = math.fsum(model.score(s) for s in sentences)
    tokens = sum(len(s.split()) + 1 for s in sentences)
    assert score.log10_prob == log10_prob
    assert score.tokens == tokens
    assert score.oov == sum(oov for s in sentences for _, _, oov in model.full_scores(s))
    assert score.perplexity == (10.0 ** (-log10_prob / tokens) if texts else None)


def test_toy_model_matches_kenlm(toy_model):
    texts = [*TOY_CORPUS, "the zebra sat on the mat", "", "   ", "mat the on sat cat the", "dog dog dog dog"]
    check_against_kenlm(toy_model, Fluency.of(toy_model, segments=texts), texts)


def test_kenlm_sums_in_float32(toy_model):
    """Why the core calls Model.score: summing full_scores in doubles is another number."""
    differ = 0
    for text in TOY_CORPUS:
        probs = [p for p, _, _ in toy_model.full_scores(text)]
        assert toy_model.score(text) == float32_sum(probs)
        differ += math.fsum(probs) != toy_model.score(text)
    assert differ  # the trap is real on this corpus


@pytest.mark.shared
def test_held_out_ted_lines_match_kenlm(ted_model):
    model, lines = ted_model
    f = Fluency.of(model, segments=lines)
    check_against_kenlm(model, f, lines)
    assert f.score().oov > 0  # held-out text has unknown words


@pytest.mark.shared
def test_tokenizer_13a_matches_kenlm_on_detokenized_text(ted_model, shared):
    model, _ = ted_model
    lines = shared("compare-mt", "ted.sys1.detok.eng").read_text(encoding="utf-8").split("\n")[:500]
    f = Fluency.of(model, FluencyConfig(tokenize="13a"), lines)
    check_against_kenlm(model, f, lines, bleu_tokenizer("13a"))
    # 13a splits punctuation off, as the tokenized training text has it: fewer unknown words
    assert f.score().oov < Fluency.of(model, segments=lines).score().oov


WORDS = ["the", "cat", "dog", "sat", "on", "mat", "log", "café", "zebra", "😀", "日本", "a", ",", "\"yes\""]
line_text = st.lists(
    st.one_of(st.sampled_from(WORDS), st.text(min_size=1, max_size=6)), max_size=12
).flatmap(lambda words: st.sampled_from([" ", "  ", "\t", "\u00a0"]).map(lambda sep: sep.join(words)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(line_text, max_size=8), tokenize=st.sampled_from(["none", "13a", "intl", "char"]))
def test_random_text_matches_kenlm(toy_model, texts, tokenize):
    config = FluencyConfig(tokenize=tokenize)
    check_against_kenlm(toy_model, Fluency.of(toy_model, config, texts), texts, config.tokenizer)


def test_token_spans_point_into_the_segment(toy_model):
    text = "the  zebra sat, on the café-mat 😀"
    for tokenize in ("none", "13a"):
        f = Fluency.of(toy_model, FluencyConfig(tokenize=tokenize), [text])
        tokens = f.tokens(0)
        assert [t.token for t in tokens] == list(f[0].tokens)
        for t in tokens:
            assert text[t.start : t.end] == t.token
    oov = [t.token for t in Fluency.of(toy_model, FluencyConfig(tokenize="13a"), [text]).tokens(0) if t.oov]
    assert oov == ["zebra", "café-mat", "😀"]


def test_least_likely_words_first(toy_model):
    f = Fluency.of(toy_model, segments=["the cat sat on the zebra"])
    least = f.least_likely(0, 2)
    assert least[0].token == "zebra" and least[0].oov
    assert least[0].log10_prob <= least[1].log10_prob
    assert all(least[1].log10_prob <= t.log10_prob for t in f.tokens(0) if t.token != "zebra")


def test_edits_rescore_only_changed_texts(toy_model):
    calls = []

    class Counting:
        order = toy_model.order

        def score(self, sentence, bos=True, eos=True):
            calls.append(sentence)
            return toy_model.score(sentence, bos, eos)

        def full_scores(self, sentence, bos=True, eos=True):
            return toy_model.full_scores(sentence, bos, eos)

    texts = list(TOY_CORPUS)
    f = Fluency.of(Counting(), segments=texts)
    assert len(calls) == len(set(TOY_CORPUS))
    calls.clear()
    texts[3] = "the cat saw the zebra"
    f.update(texts)
    assert calls == ["the cat saw the zebra"]
    calls.clear()
    f.update([texts[1], texts[0], *texts[2:]])  # moved lines are cached texts
    assert calls == []


def test_random_edit_sequences_equal_fresh_scoring(toy_model):
    rng = random.Random(15)
    pool = [*TOY_CORPUS, "", "zebra zebra", "the cat sat on the log", "a dog and a bird"]
    texts = rng.choices(pool, k=20)
    f = Fluency.of(toy_model, FluencyConfig(outlier_z=1.5), texts)
    for _ in range(200):
        start = rng.randrange(len(texts) + 1)
        end = rng.randrange(start, min(len(texts), start + 3) + 1)
        new = rng.choices(pool, k=rng.randrange(4))
        if rng.random() < 0.5:
            f.replace(start, end, new)
        else:
            f.update(texts[:start] + new + texts[end:])
        texts[start:end] = new
        fresh = Fluency.of(toy_model, FluencyConfig(outlier_z=1.5), texts)
        assert f.score() == fresh.score()
        assert [s.text for s in (f[i] for i in range(len(f)))] == texts
        assert f.all_findings() == fresh.all_findings()
        o, expected = f.outliers(), fresh.outliers()
        assert (o.median, o.scale) == (expected.median, expected.scale)
        assert np.array_equal(o.z_scores, expected.z_scores, equal_nan=True)
        assert f.perplexities().tolist() == [toy_model.perplexity(t) for t in texts]
        assert np.array_equal(f.flagged(), fresh.flagged())


@pytest.fixture(scope="module")
def sample():
    model = kenlm.Model(str(ROOT / "samples" / "lm" / "asr.arpa"))
    lines = (ROOT / "samples" / "lm" / "call.hyp.txt").read_text(encoding="utf-8").split("\n")[:-1]
    return Fluency.of(model, segments=lines), lines, model


def test_sample_planted_lines_are_unlikely(sample):
    f, lines, _ = sample
    planted = [9, 15, 21]  # 1-based lines of word salad in samples/lm/call.hyp.txt
    assert [i + 1 for i in f.outliers().segments] == planted
    unlikely = [x for x in f.all_findings() if x.code == UNLIKELY]
    assert unlikely == [Finding(UNLIKELY, n - 1, 0, 0, len(lines[n - 1]), lines[n - 1]) for n in planted]


def test_sample_oov_findings(sample):
    f, lines, model = sample
    oov = [x for x in f.all_findings() if x.code == OOV]
    assert len(oov) == f.score().oov > 0
    for x in oov:
        assert lines[x.segment][x.start : x.end] == x.text
        assert x.text not in model


def test_unlikely_span_is_the_non_blank_part(toy_model):
    texts = ["the cat sat on the mat"] * 5 + ["  dog mat the on a  "]
    f = Fluency.of(toy_model, segments=texts)
    (unlikely,) = [x for x in f.findings(5) if x.code == UNLIKELY]
    assert (unlikely.start, unlikely.end, unlikely.text) == (2, 18, "dog mat the on a")
    assert f.findings(0) == []


def test_score_segment_with_an_empty_text(toy_model):
    s = score_segment(toy_model, bleu_tokenizer("none"), "")
    assert s.words == 0 and s.token_scores == tuple(toy_model.full_scores(""))
    assert s.perplexity == toy_model.perplexity("")


def test_empty_document_has_no_perplexity(toy_model):
    score = Fluency.of(toy_model).score()
    assert score.perplexity is None and score.tokens == 0 and score.segments == 0


@pytest.mark.parametrize("bad", [{"tokenize": "spaces"}, {"outlier_z": 0}, {"outlier_z": float("nan")}, {"outlier_z": float("inf")}])
def test_config_refuses_bad_values(bad):
    with pytest.raises(ValueError):
        FluencyConfig(**bad)


def test_lone_surrogates_are_scored_as_replacement_characters(toy_model):
    f = Fluency.of(toy_model, segments=["the cat \ud83d sat", "the cat \ufffd sat"])
    assert f[0].log10_prob == f[1].log10_prob
    (oov,) = [t for t in f.tokens(0) if t.oov]
    assert (oov.start, oov.end, oov.token) == (8, 9, "\ud83d")


def test_a_corpus_without_references_when_no_corpus_metric_is_on():
    # a document checked for fluency alone: the server's corpus of it has no references
    texts = ["the cat sat on the mat", "", "zebra the on"]
    corpus = Corpus("\n".join(texts) + "\n", [], ScoringConfig(metrics=()))
    assert (len(corpus), corpus.references) == (3, 0)
    assert list(corpus.texts_of(0)) == texts
    assert [corpus.findings(i) for i in range(3)] == [[], [], []]
    corpus.replace_lines(0, 1, 2, ["a dog ran"])
    assert corpus.edited(0, "lm") == (0, 0) and corpus.take_edited(0, "lm") == (0, 0) and corpus.edited(0, "lm") is None
    corpus.replace_lines(0, 1, 2, ["a bird sang"])
    assert corpus.text(0, 1) == "a bird sang" and corpus.edited(0, "lm") == (1, 1)
    # each follower has its own: one that has taken nothing finds everything edited
    assert corpus.edited(0, "qa") == (0, 0)
    corpus.take_edited(0, "qa")
    corpus.replace_lines(0, 0, 1, ["the cat sat"])
    assert corpus.edited(0, "qa") == (0, 2) and corpus.edited(0, "lm") == (0, 1)
    assert corpus.findings(1) == []
    with pytest.raises(ValueError):
        Corpus("a\n", [], ScoringConfig(metrics=("bleu",)))
