"""The core's lower-level functions and its line rules, checked directly."""

from __future__ import annotations

import pytest
from nltk.stem import porter
from hypothesis import example, given
from hypothesis import strategies as st
from peers import TOL, config, corpus_bleu, process_words, scorer
from rouge_score import tokenize as rouge_tokenize
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from texts import examples, line, line_corpus, line_pair

from scorelens.core import BleuConfig, Corpus, ScoringConfig, split_lines
from scorelens.core import bleu, rouge, segment, tokenizers, wer
from scorelens.core.segment import Analyser
from scorelens.core.tokenizers import bleu_tokenizer, jiwer_words


def test_lsp_lines():
    """LSP breaks lines at \\n, \\r\\n and \\r only; a final empty line is not a segment."""
    text = "a\r\nb\rc\nd\x0ce\x85f\u2028g\u2029h\x0bi\x1cj\n"
    assert split_lines(text) == ["a", "b", "c", "d\x0ce\x85f\u2028g\u2029h\x0bi\x1cj", ""]
    c = Corpus(text, [text], ScoringConfig(metrics=frozenset({"wer"})))
    assert c.segment_counts() == [4, 4]
    assert Corpus("x", ["x\n"]).segment_counts() == [1, 1]
    assert Corpus("", [""]).segment_counts() == [0, 0]
    assert Corpus("\n", ["\n\n"]).segment_counts() == [1, 2]


def test_byte_order_mark_is_text():
    """A BOM is a character of the first line (LSP does not strip it); 13a keeps it in the token."""
    c = Corpus("\ufeffthe cat\n", ["the cat\n"], ScoringConfig(metrics=frozenset({"bleu", "wer"})))
    theirs = corpus_bleu(["\ufeffthe cat"], [["the cat"]])
    assert abs(c.scores().bleu.score - theirs.score) <= TOL
    assert c.totals().wer.substitutions == 1


def test_paragraph_positions():
    text = "first para\nstill first\n\n\nsecond\n"
    c = Corpus(text, [text], ScoringConfig(metrics=frozenset({"wer"}), segmentation="paragraph"))
    assert c.segment_counts() == [2, 2]
    assert c.text(0, 0) == "first para\nstill first"
    assert [c.first_line(0, i) for i in range(2)] == [0, 4]
    assert [c.segment_at(0, ln) for ln in range(6)] == [0, 0, None, None, 1, None]
    assert c.position(0, 0, len("first para\nstill")) == (1, 5)
    # the segments with a line in first..last: blank lines between paragraphs belong to none
    assert [list(c.segments_on(0, a, b)) for a, b in [(0, 0), (1, 2), (2, 3), (2, 4), (0, 9), (5, 9)]] == [
        [0], [0], [], [1], [0, 1], []
    ]


@pytest.mark.parametrize(("segmentation", "hyp", "ref", "expected"), [
    ("line", "a\nb\n", "a\nb\nc\nd\n", [0, 1, 2, 3]),
    ("paragraph", "a\nmore\n\nb\n", "a\n\nb\n\nc\n\nd\n", [0, 3, 5, 5]),
])
def test_first_lines_are_each_segments_first_line(segmentation, hyp, ref, expected):
    """Segments the hypothesis lacks start past its end, as first_line says."""
    c = Corpus(hyp, [ref], ScoringConfig(metrics=frozenset({"wer"}), segmentation=segmentation))
    for side in (0, 1):
        assert c.first_lines(side) == [c.first_line(side, i) for i in range(len(c))]
    assert c.first_lines(0) == expected


def test_segments_on_lines():
    c = Corpus("a\nb\nc\n", ["a\nb\nx\n"], ScoringConfig(metrics=frozenset({"wer"})))
    assert [list(c.segments_on(0, a, b)) for a, b in [(0, 0), (1, 2), (2, 9), (3, 9)]] == [[0], [1, 2], [2], []]


@examples(200)
@given(pair=line_pair(nrefs=2), order=st.sampled_from([1, 2, 4, 6]))
@pytest.mark.parametrize("lcs_cells", [bleu.LCS_CELLS, 0], ids=["sorted-lcs", "counted"])
def test_bleu_statistics_of_strings(pair, order, lcs_cells):
    """bleu.statistics takes any tokens; the figures are sacreBLEU's for whitespace tokens,
    matched by either way of intersecting multisets (long segments are counted)."""
    hyp, refs = pair
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bleu, "LCS_CELLS", lcs_cells)
        stats = bleu.statistics(hyp.split(), [r.split() for r in refs], order)
    theirs = corpus_bleu([hyp], [[r] for r in refs], tokenize="none", max_ngram_order=order)
    assert stats[:2] == [theirs.sys_len, theirs.ref_len]
    assert stats[2 : 2 + order] == list(theirs.counts)
    assert stats[2 + order :] == list(theirs.totals)
    ours = bleu.score(stats, BleuConfig(tokenize="none", max_ngram_order=order))
    assert abs(ours.score - theirs.score) <= TOL


def test_repeated_ngrams_are_clipped():
    # "a a a a" against "a a b": 2 unigrams, 1 bigram can match
    assert bleu.statistics("a a a a".split(), ["a a b".split()]) == [4, 3, 2, 1, 0, 0, 4, 3, 2, 1]
    # against two references, each n-gram's ceiling is its larger count
    assert bleu.statistics("a a a a".split(), ["a a b".split(), "a a a".split()])[2:6] == [3, 2, 1, 0]


@examples(200)
@given(hyp=line(), ref=line(), stem=st.booleans())
def test_rouge_functions(hyp, ref, stem):
    stemmer = porter.PorterStemmer() if stem else None
    h, r = rouge_tokenize.tokenize(hyp, stemmer), rouge_tokenize.tokenize(ref, stemmer)
    theirs = scorer(("rougeL", "rougeLsum"), stem).score(ref, hyp)
    got = rouge.rouge_l(h, r)
    assert abs(got.fmeasure - theirs["rougeL"].fmeasure) <= TOL
    assert abs(got.precision - theirs["rougeL"].precision) <= TOL
    sentences = rouge.rouge_lsum([h] if hyp else [], [r] if ref else [])
    assert abs(sentences.fmeasure - theirs["rougeLsum"].fmeasure) <= TOL


def records_from_analyses(analyse: Analyser, columns: list[list[str]]):
    return analyse.statistics_many(list(map(analyse, columns[0])), list(zip(*[map(analyse, c) for c in columns[1:]])))


@examples(300)
@given(
    data=line_corpus(max_lines=9),
    metrics=st.sets(st.sampled_from(["bleu", "chrf", "wer", "cer", "rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum"]), min_size=1),
    tokenize=st.sampled_from(["13a", "13a", "intl", "char", "none"]),
    lowercase=st.booleans(),
    wer_transform=st.sampled_from(["default", "lowercase", "wer_contiguous", "cer_contiguous"]),
    rouge_tokenizer=st.sampled_from(["rouge-score", "unicode"]),
    stem=st.booleans(),
    chrf=st.sampled_from([{}, {"word_order": 2}, {"word_order": 2, "lowercase": True, "whitespace": True}]),
)
@example(
    data=(["İstanbul \u212a naïve ΣΑΣ", "", "x\x00y cats"], [["istanbul k naive", "a", "x y cat"]]),
    metrics={"rouge1", "rougeL"}, tokenize="13a", lowercase=False, wer_transform="default", rouge_tokenizer="rouge-score", stem=True, chrf={},
)
@example(  # paragraphs: texts with line breaks, which 13a joins (and "-\n" glues)
    data=(["a well-\nknown cat\nsat", "the &amp; cat", "x\ty  z"], [["a well-known cat sat", "the & cat\n", "x y z"], ["a\nb", "", "x\ty z"]]),
    metrics={"bleu", "chrf", "wer", "cer", "rougeL", "rougeLsum"}, tokenize="13a", lowercase=True, wer_transform="lowercase", rouge_tokenizer="rouge-score", stem=False,
    chrf={"word_order": 2},
)
@example(  # ROUGE-Lsum: sentences on one side or both, empty lines, a reference of newlines, two references
    data=(["a b\nc d", "x y z", "\n", "p q\n\nr", "m n"], [["a b x\ny", "x z y", "", "p\nq r", "m n"], ["c d\na b", "x\ny z", "\n\n", "r", "n\nm"]]),
    metrics={"rougeL", "rougeLsum", "rouge1"}, tokenize="13a", lowercase=False, wer_transform="default", rouge_tokenizer="rouge-score", stem=False, chrf={},
)
def test_from_texts_equals_from_analyses(data, metrics, tokenize, lowercase, wer_transform, rouge_tokenizer, stem, chrf):
    """BLEU, chrF, WER, CER and ROUGE are scored straight from texts (a batch's words looked up at
    once, texts whose words are not their tokens taken apart): the same records as from each
    text's analysis in a batch, and as a segment scored alone (an edit, or one of a few
    segments: chrF's best reference chosen alone)."""
    hyps, refs = data
    cfg = config(metrics, wer_transform=wer_transform, rouge_tokenizer=rouge_tokenizer, stem=stem, tokenize=tokenize, lowercase=lowercase, chrf=chrf)
    analyse = Analyser(cfg)
    assert analyse.from_texts
    records = analyse.records([hyps, *refs])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(segment, "FEW_SEGMENTS", 1)  # the batch path, however few the segments
        assert records == records_from_analyses(analyse, [hyps, *refs])
    assert records == [analyse.statistics(analyse(h), [analyse(r[i]) for r in refs]) for i, h in enumerate(hyps)]


def test_rouge_from_texts_leaves_out_tokens_stemming_drops(monkeypatch):
    """rouge-score drops a token its stemmer leaves empty; so do both paths."""
    monkeypatch.setattr(tokenizers, "_stem", lambda token: "" if token == "cats" else token)
    analyse = Analyser(config({"rouge1", "rouge2", "rougeL"}, stem=True))
    columns = [["the cats sat", "cats", "dogs cats dogs"], ["the cat sat cats", "a cats b", "dogs dogs"]]
    got = analyse.records(columns)
    assert got == records_from_analyses(analyse, columns)
    assert got[2].rouge_n[2] == 1.0  # "dogs dogs" both sides: ROUGE-1 F


@examples(200)
@given(hyp=line(), ref=line())
def test_wer_counts(hyp, ref):
    theirs = process_words(ref, hyp)
    got = wer.counts(jiwer_words().tokens(ref), jiwer_words().tokens(hyp))
    assert (got.hits, got.substitutions, got.deletions, got.insertions) == (
        theirs.hits,
        theirs.substitutions,
        theirs.deletions,
        theirs.insertions,
    )


@examples(300)
@given(ref=st.text(alphabet="ab\x00c", max_size=40), hyp=st.text(alphabet="abc\x00d", max_size=40))
@example(ref="x" * 70 + "ab", hyp="b" + "x" * 69)  # past 64 characters: rapidfuzz's blocks
def test_tally_counts_jiwers_alignment(ref, hyp):
    """Counted from the operations applied to placeholders, strings (NULs among their
    characters too), lists and tuples of numbers: each count is jiwer's opcodes'."""
    opcodes = wer.alignment(ref, hyp)
    width = {tag: sum(max(i2 - i1, j2 - j1) for t, i1, i2, j1, j2 in opcodes if t == tag) for tag in ("equal", "replace", "delete", "insert")}
    expected = (width["equal"], width["replace"], width["delete"], width["insert"])
    assert wer.tally(ref, hyp) == expected
    assert wer.tally(list(ref), list(hyp)) == expected
    assert wer.tally(tuple(map(ord, ref)), tuple(map(ord, hyp))) == expected


@pytest.mark.parametrize(
    "text, tokens",
    [
        ("Hello, world.", ["Hello", ",", "world", "."]),
        ("3.5 and 1,000 and 2-3 and -5 and 10.", ["3.5", "and", "1,000", "and", "2", "-", "3", "and", "-5", "and", "10", "."]),
        ("wait... what?!", ["wait", ".", ".", ".", "what", "?", "!"]),
        ("a.,b 5.,6 ,.x", ["a", ".", ",", "b", "5", ".", ",", "6", ",", ".", "x"]),
        ("&quot;hi&quot; &amp;amp; a<skipped>b", ['"', "hi", '"', "&", "amp", ";", "ab"]),
        ("don't well-known e-mail", ["don't", "well-known", "e-mail"]),
        ("東京は\u3000晴れ。", ["東京は", "晴れ。"]),
    ],
)
def test_13a_tokens(text, tokens):
    assert Tokenizer13a()(text.rstrip()).split() == tokens  # what sacreBLEU gives
    assert bleu_tokenizer("13a").tokens(text) == tokens


@pytest.mark.parametrize("tokenize", ["13a", "intl", "zh", "char", "none"])
def test_lone_surrogates_scored_as_the_peers(tokenize):
    """JSON can carry a lone surrogate ("\\ud800"): every tokenizer takes it as the peers do."""
    from peers import assert_parity

    hyps = ["a \ud800 b c d", "\udfff x\ud800y z", "\ud83d\ude00 ok \ud800 fine"]
    refs = [["a \ud800 b d c", "\udfff x\ud800y", "\ud83d\ude00 ok fine"]]
    assert_parity(hyps, refs, {"bleu"}, tokenize=tokenize)
    assert_parity(hyps, refs, {"rougeL", "rougeLsum", "wer", "cer"})


def test_long_segment_scored_apart_equals_scored_in_place():
    """A long segment named by long_pending, scored by score_apart and put back, gives the
    corpus the statistics and findings it would have computed itself."""
    from scorelens.core.corpus import LONG_SEGMENT_CHARS, score_apart

    words = [f"w{i % 997}" for i in range(LONG_SEGMENT_CHARS // 3)]
    hyp = "short line\n" + " ".join(words) + "\nlast one\n"
    ref = "short lime\n" + " ".join(reversed(words)) + "\nlast one\n"
    config = ScoringConfig(metrics=frozenset({"bleu", "rougeL", "wer"}))
    apart, in_place = Corpus(hyp, [ref], config), Corpus(hyp, [ref], config)
    assert apart.long_pending() == [1]
    texts = apart.texts(1)
    apart.put(texts, score_apart(config, texts))
    assert apart.long_pending() == []
    assert apart.scores() == in_place.scores()
    assert [apart.statistics(i) for i in range(3)] == [in_place.statistics(i) for i in range(3)]
    assert apart.findings(1) == in_place.findings(1)
    # a line inserted above: the same texts are segment 2 now, their findings renumbered
    apart.replace_lines(0, 0, 0, ["new"])
    apart.replace_lines(1, 0, 0, ["new"])
    assert apart.long_pending() == []
    assert [f.segment for f in apart.findings(2)] == [2] * len(apart.findings(2))


def test_scores_without_a_segment_are_the_scores_of_the_others():
    """What a segment contributes to the corpus score is measured against the others alone."""
    hyp = ["the cat sat on the mat", "a dog barked loudly", "hello world", "same words here"]
    ref = ["the cat sat on a mat", "the dog barked", "hello there world", "same words here"]
    config = ScoringConfig(metrics=frozenset({"bleu", "chrf", "rougeL", "rouge2", "wer", "ter"}))
    corpus = Corpus("\n".join(hyp) + "\n", ["\n".join(ref) + "\n"], config)
    for i in range(len(hyp)):
        others = Corpus("\n".join(hyp[:i] + hyp[i + 1 :]) + "\n", ["\n".join(ref[:i] + ref[i + 1 :]) + "\n"], config)
        mine, theirs = corpus.scores_without(i), others.scores()
        assert mine.segments == theirs.segments == len(hyp) - 1
        assert abs(mine.bleu.score - theirs.bleu.score) <= TOL
        assert abs(mine.chrf.score - theirs.chrf.score) <= TOL
        assert abs(mine.ter.score - theirs.ter.score) <= TOL
        assert abs(mine.rouge_l.fmeasure - theirs.rouge_l.fmeasure) <= TOL
        assert abs(mine.rouge_n["rouge2"].fmeasure - theirs.rouge_n["rouge2"].fmeasure) <= TOL
        assert mine.wer == theirs.wer
    assert corpus.scores_without(3).bleu.score != corpus.scores().bleu.score


def test_token_sequences_for_rapidfuzz_keep_which_tokens_are_equal():
    """ROUGE-L and WER from texts hand rapidfuzz each segment's tokens as a string, one code
    point a token (its number: surrogates and NUL too), or as a list when a number is past the
    last code point."""
    import numpy as np

    from scorelens.core.ngram_counts import Side
    from scorelens.core.segment import _sequences

    small = Side(np.array([5, 0xD800, 0, 5, 0x10FFFF]), np.array([4, 0, 1]))
    assert [list(map(ord, s)) for s in _sequences(small)] == [[5, 0xD800, 0, 5], [], [0x10FFFF]]
    large = Side(np.array([5, 0x110000, 5, 7]), np.array([3, 0, 1]))
    assert _sequences(large) == [[5, 0x110000, 5], [], [7]]
