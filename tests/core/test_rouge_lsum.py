"""ROUGE-Lsum's summary-level LCS against rouge-score 0.1.2, exactly.

The union of LCS places it takes depends on which LCS each sentence pair yields (rouge-score's
table and backtrack); ScoreLens skips the pairs that cannot add a place, so these tests draw
sentences from small vocabularies, where ties and repeated tokens abound.
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st
from peers import assert_rouge, config, scorer
from rouge_score import rouge_scorer
from texts import examples, randomly_edited

from scorelens.core import Corpus, rouge


def sentences(vocabulary: int, max_sentences: int, max_words: int):
    token = st.integers(0, vocabulary - 1).map(lambda k: f"w{k}")
    return st.lists(st.lists(token, max_size=max_words), max_size=max_sentences)


@examples(300)
@given(hyp=sentences(6, 8, 12), ref=sentences(6, 8, 12))
def test_summary_level_lcs_equals_rouge_score(hyp, ref):
    hyp = [s for s in hyp if s]
    ref = [s for s in ref if s]
    theirs = rouge_scorer._summary_level_lcs(ref, hyp)
    assert rouge.summary_scores(hyp, ref) == (theirs.precision, theirs.recall, theirs.fmeasure)


@examples(300)
@given(data=st.data(), vocabulary=st.integers(1, 12))
def test_union_is_rouge_scores(data, vocabulary):
    """The places themselves, not only their count, are rouge-score's."""
    hyp = data.draw(sentences(vocabulary, 10, 15).map(lambda s: [x for x in s if x]))
    ref = data.draw(st.lists(st.integers(0, vocabulary - 1).map(lambda k: f"w{k}"), min_size=1, max_size=15))
    containing: dict[str, list[int]] = {}
    for k, sentence in enumerate(hyp):
        for token in set(sentence):
            containing.setdefault(token, []).append(k)
    expected = rouge_scorer._find_union([rouge_scorer.lcs_ind(ref, c) for c in hyp])
    assert rouge._union_lcs(ref, hyp, containing) == expected


@examples(60)
@given(hyp=st.lists(st.text("ab c\n.", max_size=40), min_size=1, max_size=6), ref=st.lists(st.text("ab c\n.", max_size=40), min_size=1, max_size=6))
def test_documents_through_the_corpus(hyp, ref):
    """Whole texts, one segment each, scored as rouge-score's ``score`` of the same texts."""
    hyp_text, ref_text = "\n".join(hyp), "\n".join(ref)
    s = Corpus(hyp_text + "\n", [ref_text + "\n"], config({"rougeLsum"}, segmentation="document")).scores()
    assert_rouge(s.rouge_lsum, scorer(("rougeLsum",)).score(ref_text, hyp_text)["rougeLsum"], tol=1e-12)


def zipf_document(rng: random.Random, lines: int, words: int) -> tuple[str, str]:
    """(hypothesis, reference): ``lines`` sentences of ``words`` Zipf-distributed words, and the
    same with a fifth of the words edited."""
    vocabulary = [f"w{k}" for k in range(2000)]
    weights = [1 / (k + 1) for k in range(len(vocabulary))]
    ref = [rng.choices(vocabulary, weights, k=words) for _ in range(lines)]
    hyp = [randomly_edited(rng, r, 0.2, vocabulary) for r in ref]
    return "\n".join(map(" ".join, hyp)), "\n".join(map(" ".join, ref))


def test_moderately_large_document():
    """200 lines of 15 words: rouge-score's 40,000 sentence pairs (a few seconds), ScoreLens's few."""
    hyp, ref = zipf_document(random.Random(7), 200, 15)
    theirs = scorer(("rougeLsum",)).score(ref, hyp)["rougeLsum"]
    s = Corpus(hyp + "\n", [ref + "\n"], config({"rougeLsum"}, segmentation="document")).scores()
    assert_rouge(s.rouge_lsum, theirs, tol=1e-12)
