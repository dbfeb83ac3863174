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
