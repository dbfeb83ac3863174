"""scorelens.compat.rouge_score against rouge-score 0.1.2 on random texts: the same ``Score``
triples for every type, with and without stemming, one target or several."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.stem import porter
from rouge_score import rouge_scorer, scoring, tokenize
from same import assert_same
from texts import examples, line_pair

from scorelens.compat.rouge_score import rouge_scorer as compat_scorer
from scorelens.compat.rouge_score import scoring as compat_scoring
from scorelens.compat.rouge_score import tokenize as compat_tokenize
from scorelens.compat.rouge_score import tokenizers as compat_tokenizers

TYPES = ["rouge1", "rouge2", "rouge3", "rouge9", "rougeL", "rougeLsum"]


@st.composite
def multiline(draw):
    """A hypothesis and references of one to three lines each (rougeLsum's sentences)."""
    pairs = draw(st.lists(line_pair(nrefs=2), min_size=1, max_size=3))
    return "\n".join(h for h, _ in pairs), ["\n".join(refs[k] for _, refs in pairs) for k in range(2)]


@pytest.mark.parametrize("stem", [False, True])
@examples(60)
@given(pair=multiline())
def test_score_and_score_multi(stem, pair):
    prediction, targets = pair
    ours, theirs = compat_scorer.RougeScorer(TYPES, use_stemmer=stem), rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    assert_same(ours.score(targets[0], prediction), theirs.score(targets[0], prediction))
    assert_same(ours.score_multi(targets, prediction), theirs.score_multi(targets, prediction))


@examples(30)
@given(pair=line_pair())
def test_tokenizers(pair):
    text = pair[0]
    assert compat_tokenize.tokenize(text, None) == tokenize.tokenize(text, None)
    assert compat_tokenize.tokenize(text, porter.PorterStemmer()) == tokenize.tokenize(text, porter.PorterStemmer())
    assert compat_tokenizers.DefaultTokenizer(True).tokenize(text) == tokenize.tokenize(text, porter.PorterStemmer())


def test_a_tokenizer_of_ones_own():
    class Characters(compat_tokenizers.Tokenizer):
        def tokenize(self, text):
            return [c for c in text if not c.isspace()]

    target, prediction = "the cat sat", "a cat sits"
    ours = compat_scorer.RougeScorer(TYPES, tokenizer=Characters()).score(target, prediction)
    theirs = rouge_scorer.RougeScorer(TYPES, tokenizer=Characters()).score(target, prediction)
    assert_same(ours, theirs)


def test_score_is_a_triple():
    s = compat_scoring.Score(precision=1, recall=0.5, fmeasure=2 / 3)
    assert s == scoring.Score(precision=1, recall=0.5, fmeasure=2 / 3)
    assert s._fields == scoring.Score._fields


@pytest.mark.parametrize("rouge_type", ["rougen", "rouge0", "rouge10", "rougeX"])
def test_invalid_types_raise_when_scoring(rouge_type):
    scorer = compat_scorer.RougeScorer([rouge_type])
    with pytest.raises(ValueError):
        scorer.score("testing one two", "testing")


def test_bootstrap_aggregator_is_not_there():
    with pytest.raises(NotImplementedError, match="mean"):
        compat_scoring.BootstrapAggregator()


@pytest.mark.parametrize("stem", [False, True])
def test_bytes_are_utf8_text_as_rouge_score_takes_them(stem):
    # TensorFlow datasets give summaries as bytes; rouge-score reads them with six.ensure_str
    target, prediction = "Größe: the cats were running.\nA second line".encode(), b"The cat runs.\nsecond LINE"
    ours, theirs = compat_scorer.RougeScorer(TYPES, use_stemmer=stem), rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    assert_same(ours.score(target, prediction), theirs.score(target, prediction))
    assert_same(ours.score_multi([target, b"cats"], prediction), theirs.score_multi([target, b"cats"], prediction))
    assert compat_tokenize.tokenize(target, None) == tokenize.tokenize(target, None)


def test_score_multi_of_no_target_is_a_value_error_as_rouge_scores():
    with pytest.raises(ValueError):
        rouge_scorer.RougeScorer(TYPES).score_multi([], "a cat")
    with pytest.raises(ValueError, match="at least one target"):
        compat_scorer.RougeScorer(TYPES).score_multi([], "a cat")
