"""scorelens.compat.jiwer against jiwer 4.0.0 on random texts: the same measures (their types
too), the same output objects, alignments included."""

from __future__ import annotations

import jiwer
import pytest
from hypothesis import given
from hypothesis import strategies as st
from same import assert_same
from texts import examples, line, line_corpus

from scorelens.compat import jiwer as compat

MEASURES = ["wer", "mer", "wil", "wip", "cer"]
# a sentence or a list of them, as jiwer takes either
sentences = st.one_of(line(), line_corpus(max_lines=5, nrefs=1).map(lambda c: c[0]))


def pair_of(corpus):
    hyps, (refs,) = corpus
    return refs, hyps


@examples(60)
@given(corpus=line_corpus(max_lines=6, nrefs=1))
def test_measures(corpus):
    """Of the sentences together, and of each pair alone (a call a pair, as loops call them)."""
    refs, hyps = pair_of(corpus)
    for name in MEASURES:
        for args in [(refs, hyps), *zip(refs, hyps)]:
            ours, theirs = getattr(compat, name)(*args), getattr(jiwer, name)(*args)
            assert type(ours) is type(theirs)
            assert_same(ours, theirs)


@examples(60)
@given(corpus=line_corpus(max_lines=6, nrefs=1))
def test_process_words_and_characters(corpus):
    refs, hyps = pair_of(corpus)
    assert_same(compat.process_words(refs, hyps), jiwer.process_words(refs, hyps))
    assert_same(compat.process_characters(refs, hyps), jiwer.process_characters(refs, hyps))


@examples(40)
@given(reference=sentences, hypothesis=sentences)
def test_contiguous_transforms(reference, hypothesis):
    """Sentences joined into one: the counts of either side's sentences may differ."""
    for kind, process in (("wer", "process_words"), ("cer", "process_characters")):
        ours_t, theirs_t = getattr(compat, f"{kind}_contiguous"), getattr(jiwer, f"{kind}_contiguous")
        assert_same(getattr(compat, process)(reference, hypothesis, ours_t, ours_t), getattr(jiwer, process)(reference, hypothesis, theirs_t, theirs_t))
        assert_same(getattr(compat, kind)(reference, hypothesis, ours_t, ours_t), getattr(jiwer, kind)(reference, hypothesis, theirs_t, theirs_t))


@examples(30)
@given(corpus=line_corpus(max_lines=4, nrefs=1))
def test_any_callable_transform(corpus):
    """A transform of the caller's own (here jiwer's lowercasing pipeline) is applied as jiwer applies it."""
    refs, hyps = pair_of(corpus)
    transform = jiwer.Compose([jiwer.ToLowerCase(), jiwer.RemoveMultipleSpaces(), jiwer.Strip(), jiwer.ReduceToListOfListOfWords()])
    assert_same(compat.process_words(refs, hyps, transform, transform), jiwer.process_words(refs, hyps, transform, transform))
    assert_same(compat.wer(refs, hyps, transform, transform), jiwer.wer(refs, hyps, transform, transform))


def test_errors_as_jiwer():
    for module in (compat, jiwer):
        with pytest.raises(ValueError):
            module.wer(["a", "b"], ["a"])
        with pytest.raises(ValueError):
            module.process_words(["a", "b"], ["a"])
        with pytest.raises(ValueError):
            module.process_words("a", "b", lambda s: "not a list of lists")
        with pytest.raises(ValueError):
            module.AlignmentChunk("swap", 0, 1, 0, 1)
        with pytest.raises(ValueError):
            module.AlignmentChunk("equal", 2, 1, 0, 1)
    assert compat.AlignmentChunk("replace", 0, 1, 0, 1).type == "substitute"


def test_a_bad_sentence_is_named_by_its_index_not_the_whole_corpus():
    refs = [f"sentence number {i}" for i in range(10_000)]
    hyps = [*refs[:-1], None]
    for measure in (compat.wer, compat.cer):
        with pytest.raises(ValueError, match=r"^the hypothesis should be a string or a list of strings: item 9999 is NoneType$"):
            measure(refs, hyps)
    with pytest.raises(ValueError, match=r"^the reference should be a string or a list of strings, not tuple$"):
        compat.wer(tuple(refs), refs)


@examples(40)
@given(corpus=line_corpus(max_lines=4, nrefs=1), width=st.sampled_from([None, 12, 30, 80]), top_k=st.sampled_from([None, 1, 2]))
def test_printed_reports(corpus, width, top_k):
    refs, hyps = pair_of(corpus)
    for process in ("process_words", "process_characters"):
        ours, theirs = getattr(compat, process)(refs, hyps), getattr(jiwer, process)(refs, hyps)
        for measures in (False, True):
            for skip in (False, True):
                assert compat.visualize_alignment(ours, measures, skip, width) == jiwer.visualize_alignment(theirs, measures, skip, width)
        assert compat.visualize_error_counts(ours, top_k=top_k) == jiwer.visualize_error_counts(theirs, top_k=top_k)
        assert_same(compat.collect_error_counts(ours), jiwer.collect_error_counts(theirs))


TRANSFORMS = [
    ("ToLowerCase", ()), ("ToUpperCase", ()), ("Strip", ()), ("RemoveMultipleSpaces", ()), ("RemovePunctuation", ()),
    ("RemoveWhiteSpace", ()), ("RemoveWhiteSpace", (True,)), ("RemoveEmptyStrings", ()), ("RemoveKaldiNonWords", ()),
    ("ExpandCommonEnglishContractions", ()), ("ReduceToSingleSentence", ()), ("ReduceToSingleSentence", ("_",)),
    ("ReduceToListOfListOfWords", ()), ("ReduceToListOfListOfChars", ()), ("RemoveSpecificWords", (["the", "a"],)),
    ("SubstituteWords", ({"cat": "dog", "it's": "it is"},)), ("SubstituteRegexes", ({r"\d+": "N", "(a)t": r"\1"},)),
]


@examples(40)
@given(sentences=sentences)
def test_transforms(sentences):
    for name, args in TRANSFORMS:
        assert getattr(compat, name)(*args)(sentences) == getattr(jiwer, name)(*args)(sentences), name
    for name in ("wer_default", "wer_contiguous", "wer_standardize", "wer_standardize_contiguous", "cer_default", "cer_contiguous"):
        assert getattr(compat, name)(sentences) == getattr(jiwer, name)(sentences), name
