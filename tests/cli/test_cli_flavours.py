"""The metric flavours through a whole scoring run: the API (``scorelens.score``,
``sentence_scores``, ``Corpus``) and the command line (``score --json``, ``-sl``, ``check``)
against each flavour's oracle package."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import scorelens
from scorelens.api import Corpus, OptionError

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"


def shared(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared test data not found at {path} (expected ../shared/data next to the repository)")
    return path


def write(tmp_path: Path, name: str, lines: list[str]) -> str:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def cli_json(run, *argv) -> dict:
    result = run("score", *argv, "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)


def cli_rows(run, *argv) -> list[dict]:
    result = run("score", *argv, "-sl", "--json")
    assert result.code == 0, result.err
    return [json.loads(line) for line in result.out.splitlines()]


# -- WER after Whisper's normalisers -----------------------------------------------------------

jiwer = pytest.importorskip("jiwer")
whisper_english = pytest.importorskip("whisper_normalizer.english")
whisper_basic = pytest.importorskip("whisper_normalizer.basic")
NORMALISERS = {"whisper-english": whisper_english.EnglishTextNormalizer(), "whisper-basic": whisper_basic.BasicTextNormalizer()}

ASR_REFS = [
    "I paid $20 million in the 1990s.",
    "Mr. Smith and Dr Jones gonna wanna",
    "The colour of the organisation's centre",
    "uh so um hmm [laughter] (inaudible) we mhm grew",
    "Café naïve – résumé… “quoted”",
    "It's 3.5%, £10.50 and one oh one",
    "uh",
    "the 21st of March, 2,345 people",
]
ASR_HYPS = [
    "i paid twenty million dollars in the nineties",
    "mister smith and jones going to want to",
    "the color of the organization centre",
    "so we grew up",
    "cafe naive resume quote",
    "its three point five percent ten pounds fifty and 101",
    "um okay",
    "the twenty first of march two thousand three hundred forty five people",
]


@pytest.mark.parametrize("name", list(NORMALISERS))
def test_whisper_wer_equals_jiwer_of_normalised_texts(run, tmp_path, name):
    normalise = NORMALISERS[name]
    refs, hyps = [normalise(r) for r in ASR_REFS], [normalise(h) for h in ASR_HYPS]
    expected = jiwer.process_words(refs, hyps)
    got = scorelens.score(ASR_HYPS, ASR_REFS, "wer,cer", wer_transform=name)
    assert (got.wer.hits, got.wer.substitutions, got.wer.deletions, got.wer.insertions) == (
        expected.hits,
        expected.substitutions,
        expected.deletions,
        expected.insertions,
    )
    assert got.wer.wer == pytest.approx(jiwer.wer(refs, hyps), abs=1e-12)
    assert got.cer.cer == pytest.approx(jiwer.cer(refs, hyps), abs=1e-12)
    assert got.wer.signature.split("|")[2] == f"transform:{name}"
    # the command line prints the same object; its rows are each pair's own counts
    hyp, ref = write(tmp_path, "hyp.txt", ASR_HYPS), write(tmp_path, "ref.txt", ASR_REFS)
    assert cli_json(run, hyp, "-r", ref, "-m", "wer,cer", "--wer-transform", name) == got.to_dict()
    rows = cli_rows(run, hyp, "-r", ref, "-m", "wer", "--wer-transform", name)
    assert rows == [s.to_dict() for s in scorelens.sentence_scores(ASR_HYPS, ASR_REFS, "wer", wer_transform=name)]
    for row, r, h in zip(rows, refs, hyps):
        out = jiwer.process_words(r, h)
        assert (row["wer"]["hits"], row["wer"]["substitutions"], row["wer"]["deletions"], row["wer"]["insertions"]) == (
            out.hits,
            out.substitutions,
            out.deletions,
            out.insertions,
        )


def test_whisper_findings_on_the_original_words(run, tmp_path):
    corpus = Corpus(["i paid twenty dollars in the nineties"], ["I paid $20 million in the 1990s."], "wer", wer_transform="whisper-english")
    found = {(f.code, f.text, f.other_text) for f in corpus.findings(0)}
    assert found == {("wer.substitution", "twenty dollars", "$20 million"), ("wer.substitution", "nineties", "1990s.")}
    hyp, ref = write(tmp_path, "hyp.txt", ["mister smith went"]), write(tmp_path, "ref.txt", ["Mr. Smith left"])
    result = run("check", hyp, "-r", ref, "-m", "wer", "--wer-transform", "whisper-english")
    assert ':1:14: wer.substitution "went" should be "left"' in result.out, result.out


def test_whisper_edit_rescoring_equals_a_fresh_run():
    corpus = Corpus(ASR_HYPS, ASR_REFS, "wer,cer", wer_transform="whisper-english")
    corpus.scores()
    corpus.edit(1, "mister smith and doctor jones going to want to")
    hyps = list(ASR_HYPS)
    hyps[1] = "mister smith and doctor jones going to want to"
    assert corpus.scores() == scorelens.score(hyps, ASR_REFS, "wer,cer", wer_transform="whisper-english")


def test_whisper_option_errors():
    with pytest.raises(OptionError) as e:
        scorelens.score(["a"], ["a"], "wer", wer_transform="whisper")
    assert e.value.option == "wer_transform"
    with pytest.raises(OptionError) as e:
        scorelens.score(["a"], ["a"], "wer", wer_transform="whisper-basic", wer_rules="sclite")
    assert "whisper-basic" in str(e.value)


@pytest.mark.shared
def test_whisper_english_on_earnings_calls():
    """Two long-form earnings calls, each a document: jiwer.wer of the normalised transcripts."""
    normalise = NORMALISERS["whisper-english"]
    for call in ("4320211", "4330115"):
        ref = shared("earnings21", "reference", f"{call}.txt").read_text(encoding="utf-8").splitlines()
        hyp = shared("earnings21", "google", f"{call}.txt").read_text(encoding="utf-8").splitlines()
        got = scorelens.score(hyp, ref, "wer", wer_transform="whisper-english", segmentation="document")
        assert math.isclose(got.wer.wer, jiwer.wer(normalise("\n".join(ref)), normalise("\n".join(hyp))), abs_tol=1e-12)


# -- NLTK's BLEU -------------------------------------------------------------------------------

bleu_score = pytest.importorskip("nltk.translate.bleu_score")

MT_HYPS = [
    "the cat sat on the mat today",
    "a dog runs",
    "Hello world , it is me",
    "completely different words here",
    "the cat sat on the mat",
]
MT_REFS = [
    ["the cat sat on a mat", "there is a cat on the mat"],
    ["the dog ran away", "a dog is running"],
    ["hello world , it was me again", "Hello world it is I"],
    ["nothing in common at all", "still nothing"],
    ["the cat sat on the mat", "the cat sat on the mat"],
]


def nltk_figures(hyps, refs, method, weights=(0.25, 0.25, 0.25, 0.25), reweigh=False, tokens=str.split):
    """corpus_bleu and each sentence_bleu × 100, NLTK's warnings silenced."""
    import warnings

    smoothing = getattr(bleu_score.SmoothingFunction(), f"method{method}")
    refs_tokens = [[tokens(r) for r in rs] for rs in refs]
    hyps_tokens = [tokens(h) for h in hyps]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        corpus = 100 * bleu_score.corpus_bleu(refs_tokens, hyps_tokens, weights, smoothing, reweigh)
        sentences = [100 * bleu_score.sentence_bleu(r, h, weights, smoothing, reweigh) for r, h in zip(refs_tokens, hyps_tokens)]
    return corpus, sentences


@pytest.mark.parametrize("method", range(8))
def test_nltk_bleu_corpus_and_sentences(run, tmp_path, method):
    # method6 needs a 3-gram match in every sentence, as NLTK asserts
    hyps, refs = (MT_HYPS[:1] + MT_HYPS[4:], MT_REFS[:1] + MT_REFS[4:]) if method == 6 else (MT_HYPS, MT_REFS)
    streams = [list(r) for r in zip(*refs)]
    corpus, sentences = nltk_figures(hyps, refs, method)
    got = scorelens.score(hyps, streams, "bleu", bleu_impl="nltk", nltk_smoothing=method)
    assert got.bleu.score == pytest.approx(corpus, abs=1e-9)
    assert [s.bleu.score for s in scorelens.sentence_scores(hyps, streams, "bleu", bleu_impl="nltk", nltk_smoothing=method)] == pytest.approx(sentences, abs=1e-9)
    assert got.bleu.signature.startswith(f"nrefs:2|impl:nltk|weights:0.25,0.25,0.25,0.25|smooth:method{method}|")
    paths = [write(tmp_path, "hyp.txt", hyps)] + [arg for k, s in enumerate(streams) for arg in ("-r", write(tmp_path, f"ref{k}.txt", s))]
    options = ["-m", "bleu", "--bleu-impl", "nltk", "--nltk-smoothing", str(method)]
    assert cli_json(run, *paths, *options) == got.to_dict()
    assert [row["bleu"]["score"] for row in cli_rows(run, *paths, *options)] == pytest.approx(sentences, abs=1e-9)


def test_nltk_bleu_weights_reweigh_tokenizer_and_notes(run, tmp_path):
    corpus, _ = nltk_figures(MT_HYPS, MT_REFS, 1, weights=(0.5, 0.5))
    streams = [list(r) for r in zip(*MT_REFS)]
    assert scorelens.score(MT_HYPS, streams, "bleu", bleu_impl="nltk", nltk_smoothing=1, bleu_weights=[0.5, 0.5]).bleu.score == pytest.approx(corpus, abs=1e-9)
    short, _ = nltk_figures(["a cat"], [["a cat sat"]], 0, reweigh=True)
    assert scorelens.score(["a cat"], ["a cat sat"], "bleu", bleu_impl="nltk", nltk_auto_reweigh=True).bleu.score == pytest.approx(short, abs=1e-9)
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    lowered, _ = nltk_figures(MT_HYPS, MT_REFS, 2, tokens=lambda t: Tokenizer13a()(t.lower()).split())
    got = scorelens.score(MT_HYPS, streams, "bleu", bleu_impl="nltk", nltk_smoothing=2, tokenize="13a", lowercase=True)
    assert got.bleu.score == pytest.approx(lowered, abs=1e-9)
    assert "|case:lc|tok:13a|" in got.bleu.signature
    # method0 on a corpus without a 4-gram match: NLTK's tiny score, its warning as a note; the impl in the text output
    hyp, ref = write(tmp_path, "hyp.txt", ["a dog runs"]), write(tmp_path, "ref.txt", ["a dog is running"])
    result = run("score", hyp, "-r", ref, "-m", "bleu", "--bleu-impl", "nltk")
    assert result.code == 0, result.err
    assert "note: NLTK's BLEU: The hypothesis contains 0 counts of 3-gram overlaps." in result.out
    assert "nrefs:1|impl:nltk|" in result.out
    findings = run("check", hyp, "-r", ref, "-m", "bleu", "--bleu-impl", "nltk")
    assert ':1:7: bleu.unmatched not in any reference: "runs"' in findings.out, findings.out


def test_nltk_bleu_edits_equal_a_fresh_run():
    streams = [list(r) for r in zip(*MT_REFS)]
    corpus = Corpus(MT_HYPS, streams, "bleu", bleu_impl="nltk", nltk_smoothing=7)
    corpus.scores()
    corpus.edit(4, "the cat is on the mat")  # the last segment: methods 5-7 read it
    hyps = MT_HYPS[:4] + ["the cat is on the mat"]
    assert corpus.scores() == scorelens.score(hyps, streams, "bleu", bleu_impl="nltk", nltk_smoothing=7)
    assert corpus.scores().bleu.score == pytest.approx(nltk_figures(hyps, MT_REFS, 7)[0], abs=1e-9)


@pytest.mark.parametrize(
    "options, option",
    [
        ({"bleu_impl": "nltk2"}, "bleu_impl"),
        ({"bleu_impl": "nltk", "nltk_smoothing": 9}, "nltk_smoothing"),
        ({"bleu_impl": "nltk", "bleu_weights": ["x"]}, "bleu_weights"),
        ({"bleu_impl": "nltk", "bleu_weights": [0.5, 0.5], "nltk_smoothing": 6}, "nltk_smoothing"),
        ({"bleu_impl": "nltk", "smooth_method": "floor"}, "smooth_method"),
        ({"nltk_smoothing": 1}, "nltk_smoothing"),
    ],
)
def test_nltk_bleu_option_errors(options, option):
    with pytest.raises(OptionError) as e:
        scorelens.score(["a b"], ["a b"], "bleu", **options)
    assert e.value.option == option


def test_nltk_bleu_refused_where_sums_do_not_tell(run, tmp_path):
    with pytest.raises(OptionError):
        scorelens.statistics(MT_HYPS, [r[0] for r in MT_REFS], "bleu", bleu_impl="nltk", nltk_smoothing=5)
    with pytest.raises(OptionError):
        scorelens.compare(MT_HYPS, [MT_HYPS], [r[0] for r in MT_REFS], "bleu", bleu_impl="nltk")
    hyp, ref = write(tmp_path, "hyp.txt", ["a dog runs"]), write(tmp_path, "ref.txt", ["a cat walks"])
    result = run("score", hyp, "-r", ref, "-m", "bleu", "--bleu-impl", "nltk", "--nltk-smoothing", "6")
    assert result.code != 0 and "method6 requires a non-zero 3-gram precision" in result.err
    assert "--bleu-impl" in run("score", "--help").out


@pytest.mark.shared
@pytest.mark.parametrize("method", [1, 7])
def test_nltk_bleu_on_ted_talks(method):
    """compare-mt's TED system output (tokenized) against its reference: corpus_bleu × 100."""
    hyps = shared("compare-mt", "ted.sys1.eng").read_text(encoding="utf-8").splitlines()
    refs = shared("compare-mt", "ted.ref.eng").read_text(encoding="utf-8").splitlines()
    corpus, sentences = nltk_figures(hyps, [[r] for r in refs], method)
    assert scorelens.score(hyps, refs, "bleu", bleu_impl="nltk", nltk_smoothing=method).bleu.score == pytest.approx(corpus, abs=1e-9)
    got = [s.bleu.score for s in scorelens.sentence_scores(hyps, refs, "bleu", bleu_impl="nltk", nltk_smoothing=method)]
    assert got == pytest.approx(sentences, abs=1e-9)
