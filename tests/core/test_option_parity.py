"""Every option of the contract against the peers on real text: BLEU tokenizers, smoothing,
lowercase, maximum order, several references; ROUGE with several references and stemming."""

from __future__ import annotations

import pytest
from peers import _bleu, assert_bleu, assert_parity, chrf_metric, config, corpus, corpus_bleu, file_lines, read

from scorelens.core import BleuConfig, Corpus
from scorelens.core import bleu as core_bleu

TOKENIZERS = ["13a", "intl", "zh", "char", "none", "ja-mecab"]
SMOOTHING = [("exp", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 2), ("none", None)]


@pytest.fixture(scope="module")
def ted(shared):
    lines = {name: file_lines(read(shared("compare-mt", f"ted.{name}.detok.eng"))) for name in ("ref", "sys1", "sys2")}
    assert len(lines["ref"]) == 2445
    return lines


@pytest.fixture(scope="module")
def kyoto(shared):
    return file_lines(read(shared("en-ja-kyoto", "kyoto-test.hyp.ja"))), file_lines(read(shared("en-ja-kyoto", "kyoto-test.ref.ja")))


@pytest.mark.parametrize("tokenize", TOKENIZERS)
def test_tokenizers_english(ted, tokenize):
    """Whole corpus for the totals, the first 400 lines segment by segment as well."""
    assert_parity(ted["sys1"], [ted["ref"]], {"bleu"}, segments=False, tokenize=tokenize)
    assert_parity(ted["sys1"][:400], [ted["ref"][:400]], {"bleu"}, tokenize=tokenize)


@pytest.mark.parametrize("tokenize", TOKENIZERS)
def test_tokenizers_japanese(kyoto, tokenize):
    hyps, refs = kyoto
    assert_parity(hyps, [refs], {"bleu"}, tokenize=tokenize)


@pytest.mark.parametrize("smooth_method, smooth_value", SMOOTHING)
@pytest.mark.parametrize("lowercase", [False, True])
def test_smoothing_and_case(ted, smooth_method, smooth_value, lowercase):
    """Smoothing changes only the formula: 600 lines, corpus and every segment."""
    options = dict(smooth_method=smooth_method, smooth_value=smooth_value, lowercase=lowercase)
    assert_parity(ted["sys2"][:600], [ted["ref"][:600]], {"bleu"}, **options)


@pytest.mark.parametrize("order", [1, 2, 3, 5, 6, 9])
def test_max_ngram_order(ted, order):
    assert_parity(ted["sys1"][:600], [ted["ref"][:600]], {"bleu"}, max_ngram_order=order)


def test_several_references(ted):
    """Two and three reference streams: closest reference length, clipping by the maximum count."""
    two = [ted["ref"], ted["sys2"]]
    assert_parity(ted["sys1"], two, {"bleu", "rougeL", "rougeLsum"}, segments=False)
    three = [ted["ref"][:500], ted["sys2"][:500], [" ".join(line.split()[::2]) for line in ted["ref"][:500]]]
    assert_parity(ted["sys1"][:500], three, {"bleu", "rougeL", "rougeLsum"})


def test_kyoto_chrf(kyoto):
    """Japanese: chrF and chrF++ over characters without spaces between words."""
    hyps, refs = kyoto
    assert_parity(hyps, [refs], {"chrf"})
    assert_parity(hyps, [refs], {"chrf"}, chrf={"word_order": 2})


def test_several_references_chrf(ted):
    """sacreBLEU's choice among references: the best sentence chrF, the first on ties (the third
    stream repeats the first)."""
    three = [ted["ref"][:800], ted["sys2"][:800], ted["ref"][:800]]
    assert_parity(ted["sys1"][:800], three, {"chrf"})
    assert_parity(ted["sys1"][:800], three, {"chrf"}, chrf={"word_order": 2, "eps_smoothing": True})


@pytest.mark.parametrize(
    "options",
    [{}, {"word_order": 2}, {"lowercase": True, "whitespace": True, "eps_smoothing": True, "char_order": 4, "beta": 1}],
)
def test_chrf_signature_is_sacrebleus_with_our_version(options):
    c = Corpus("a b\n", ["a b\n", "a b c\n"], config({"chrf"}, chrf=options))
    ours = c.scores().signatures["chrf"]
    metric = chrf_metric(options)
    metric.corpus_score(["a b"], [["a b"], ["a b c"]])
    theirs = metric.get_signature().format()
    assert ours.rsplit("|version:", 1)[0] == theirs.rsplit("|version:", 1)[0]
    assert ours.rsplit("|version:", 1)[1].startswith("scorelens-")


def test_several_references_headlines(shared):
    hyps = file_lines(read(shared("compare-mt", "sum.sys1.eng")))
    refs = [file_lines(read(shared("compare-mt", name))) for name in ("sum.ref.eng", "sum.sys2.eng")]
    assert_parity(hyps, refs, {"rougeL", "rougeLsum", "rouge1", "rouge2", "rouge4"})
    assert_parity(hyps, refs, {"rougeL", "rougeLsum", "rouge1", "rouge2"}, stem=True)


def test_closest_length_ties_go_to_the_shorter():
    # hypothesis of 3 tokens; references of 2 and 4 tokens are equally close
    for refs in (["a b", "a b c d"], ["a b c d", "a b"]):
        c = Corpus("a b c\n", [r + "\n" for r in refs], config({"bleu"}))
        stats = c.totals().bleu
        assert stats[:2] == [3, 2]
        assert_bleu(c.scores().bleu, corpus_bleu(["a b c"], [[r] for r in refs]))


def test_clipping_takes_the_maximum_over_references():
    c = Corpus("the the the the\n", ["the cat\n", "the the mat\n"], config({"bleu"}))
    assert c.totals().bleu[2] == 2
    assert_bleu(c.scores().bleu, corpus_bleu(["the the the the"], [["the cat"], ["the the mat"]]))


@pytest.mark.parametrize(
    "options",
    [{}, {"smooth_method": "floor"}, {"smooth_method": "add-k", "smooth_value": 2}, {"lowercase": True, "tokenize": "intl"}],
)
def test_signature_is_sacrebleus_with_our_version(options):
    c = Corpus("a b\n", ["a b\n", "a b c\n"], config({"bleu"}, **options))
    ours = c.scores().signatures["bleu"]
    metric = _bleu(**options)
    metric.corpus_score(["a b"], [["a b"], ["a b c"]])
    theirs = metric.get_signature().format()
    assert ours.rsplit("|version:", 1)[0] == theirs.rsplit("|version:", 1)[0]
    assert ours.rsplit("|version:", 1)[1].startswith("scorelens-")


def test_sentence_signature_says_effective_order():
    assert "|eff:yes|" in core_bleu.signature(BleuConfig(), 1, effective_order=True)


def test_empty_corpus():
    c = corpus([], [[]], config({"bleu", "rougeL", "rougeLsum", "wer", "cer", "chrf", "rouge1"}))
    s = c.scores()
    assert s.segments == 0
    assert s.bleu.score == 0.0
    assert s.chrf.score == 0.0 and s.rouge_n["rouge1"].fmeasure == 0.0
    assert (s.rouge_l.fmeasure, s.rouge_lsum.fmeasure) == (0.0, 0.0)
    assert s.wer.ref_len == 0 and s.cer.hyp_len == 0
