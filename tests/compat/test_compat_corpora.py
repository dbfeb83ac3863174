"""The compat modules against the peers on the real corpora of ../shared/data (skipped where it is
absent): TED talks (sk->en, ->ja), Kyoto (ja-mecab), headlines and CNN/DM summaries, Earnings-21
calls. The same score objects, numbers to 1e-9."""

from __future__ import annotations

import jiwer
import pytest
import sacrebleu
from rouge_score import rouge_scorer
from same import assert_same

from scorelens.compat import jiwer as compat_jiwer
from scorelens.compat import sacrebleu as compat_sacrebleu
from scorelens.compat.rouge_score import rouge_scorer as compat_scorer

pytestmark = pytest.mark.shared

EARNINGS_CALLS = ["4320211", "4330115", "4341191", "4344338", "4344866"]


def lines(path) -> list[str]:
    with open(path, encoding="utf-8", newline="\n") as f:
        return [line.rstrip("\n") for line in f]


@pytest.fixture(scope="module")
def ted(shared):
    folder = shared("compare-mt")
    return {name: lines(folder / f"ted.{name}.detok.eng") for name in ("ref", "sys1", "sys2")}


@pytest.mark.parametrize(
    "options", [{}, {"tokenize": "intl"}, {"lowercase": True, "smooth_method": "floor"}, {"max_ngram_order": 6, "effective_order": True}]
)
def test_ted_bleu(ted, options):
    refs = [ted["ref"], ted["sys2"]]  # the other system as a second reference
    for streams in ([ted["ref"]], refs):
        ours = compat_sacrebleu.BLEU(**options).corpus_score(ted["sys1"], streams)
        assert_same(ours, sacrebleu.BLEU(**options).corpus_score(ted["sys1"], streams))


@pytest.mark.parametrize("options", [{}, {"word_order": 2}, {"eps_smoothing": True, "lowercase": True}])
def test_ted_chrf(ted, options):
    for streams in ([ted["ref"]], [ted["ref"], ted["sys2"]]):
        ours = compat_sacrebleu.CHRF(**options).corpus_score(ted["sys1"], streams)
        assert_same(ours, sacrebleu.CHRF(**options).corpus_score(ted["sys1"], streams))


@pytest.mark.parametrize("options", [{}, {"normalized": True, "case_sensitive": True}])
def test_ted_ter(ted, options):
    n = 400  # sacreBLEU's TER takes about a second per 100 lines here
    hyps, refs = ted["sys1"][:n], [ted["ref"][:n], ted["sys2"][:n]]
    ours = compat_sacrebleu.TER(**options).corpus_score(hyps, refs)
    assert_same(ours, sacrebleu.TER(**options).corpus_score(hyps, refs))


def test_ted_sentences(ted):
    for hyp, ref, other in list(zip(ted["sys1"], ted["ref"], ted["sys2"]))[:200]:
        assert_same(compat_sacrebleu.sentence_bleu(hyp, [ref, other]), sacrebleu.sentence_bleu(hyp, [ref, other]))
        assert_same(compat_sacrebleu.sentence_chrf(hyp, [ref]), sacrebleu.sentence_chrf(hyp, [ref]))


def test_japanese_bleu(shared):
    """ja-mecab on Kyoto (published: 14.48) and TED ->ja, as sacreBLEU picks it for trg_lang="ja"."""
    kyoto = shared("en-ja-kyoto")
    hyps, refs = lines(kyoto / "kyoto-test.hyp.ja"), [lines(kyoto / "kyoto-test.ref.ja")]
    ours = compat_sacrebleu.BLEU(trg_lang="ja").corpus_score(hyps, refs)
    assert_same(ours, sacrebleu.BLEU(trg_lang="ja").corpus_score(hyps, refs))
    assert f"{ours.score:.2f}" == "14.48"
    ted = shared("compare-mt")
    hyps, refs = lines(ted / "multited.sys1.jpn"), [lines(ted / "multited.ref.jpn")]
    for options in ({"trg_lang": "ja"}, {"tokenize": "char"}):
        assert_same(compat_sacrebleu.BLEU(**options).corpus_score(hyps, refs), sacrebleu.BLEU(**options).corpus_score(hyps, refs))


@pytest.mark.parametrize("corpus, pairs", [(("compare-mt", "sum.sys1.eng", "sum.ref.eng"), 2000), (("cnndm", "cnndm.simcls.txt", "cnndm.ref.txt"), 300)])
def test_summaries_rouge(shared, corpus, pairs):
    folder, hyp_file, ref_file = corpus
    hyps, refs = lines(shared(folder, hyp_file))[:pairs], lines(shared(folder, ref_file))[:pairs]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    for stem in (False, True):
        ours, theirs = compat_scorer.RougeScorer(types, use_stemmer=stem), rouge_scorer.RougeScorer(types, use_stemmer=stem)
        for hyp, ref in zip(hyps, refs):
            # CNN/DM marks sentences with " . ": as lines they are rougeLsum's sentences
            hyp, ref = hyp.replace(" . ", " .\n"), ref.replace(" . ", " .\n")
            assert_same(ours.score(ref, hyp), theirs.score(ref, hyp))


@pytest.mark.parametrize("system", ["amazon", "google"])
def test_earnings_calls_wer(shared, system):
    """Whole calls (thousands of words) as documents, and their speaker turns as sentences."""
    for call in EARNINGS_CALLS:
        ref = shared("earnings21", "reference", f"{call}.norm.txt").read_text(encoding="utf-8")
        hyp = shared("earnings21", system, f"{call}.norm.txt").read_text(encoding="utf-8")
        assert_same(compat_jiwer.process_words(ref, hyp), jiwer.process_words(ref, hyp))
        for name in ("wer", "mer", "wil", "wip", "cer"):
            assert_same(getattr(compat_jiwer, name)(ref, hyp), getattr(jiwer, name)(ref, hyp))
    turns_ref = lines(shared("earnings21", "reference", f"{EARNINGS_CALLS[0]}.txt"))
    turns_hyp = lines(shared("earnings21", system, f"{EARNINGS_CALLS[0]}.txt"))
    contiguous = (compat_jiwer.wer_contiguous, compat_jiwer.wer_contiguous)
    assert_same(
        compat_jiwer.process_words(turns_ref, turns_hyp, *contiguous),
        jiwer.process_words(turns_ref, turns_hyp, jiwer.wer_contiguous, jiwer.wer_contiguous),
    )


def test_ted_as_asr(ted):
    """Each line a sentence: corpus WER and CER over 2,445 pairs, and their alignments."""
    assert_same(compat_jiwer.process_words(ted["ref"], ted["sys1"]), jiwer.process_words(ted["ref"], ted["sys1"]))
    for name in ("wer", "mer", "wil", "wip", "cer"):
        assert_same(getattr(compat_jiwer, name)(ted["ref"], ted["sys1"]), getattr(jiwer, name)(ted["ref"], ted["sys1"]))
