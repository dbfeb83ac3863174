"""``scorelens sacrebleu``: output compared with the real ``sacrebleu`` command's, byte for byte
apart from the signatures' version."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli_support import run_subprocess

SACREBLEU = Path(sys.executable).with_name("sacrebleu")
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"
# the version in every signature form: text, --short, and JSON keys
_VERSION = re.compile(r'(version:|v:)[^|"\s]+|"(version|v)": "[^"]*"')


def _unversioned(text: str) -> str:
    return _VERSION.sub(lambda m: m.group(1) + "X" if m.group(1) else f'"{m.group(2)}": "X"', text)


def real_sacrebleu(*argv, stdin: bytes | None = None, seed: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_COLOR="1")
    env.pop("SACREBLEU_FORMAT", None)
    env.pop("SACREBLEU_SEED", None)
    if seed is not None:
        env["SACREBLEU_SEED"] = seed
    return subprocess.run([str(SACREBLEU), *map(str, argv)], input=stdin, capture_output=True, env=env, timeout=600)


def assert_same_output(*argv, stdin: bytes | None = None, seed: str | None = None, signed: bool = True) -> str:
    """``signed``: the output has signatures (a several systems' JSON has none)."""
    theirs = real_sacrebleu(*argv, stdin=stdin, seed=seed)
    assert theirs.returncode == 0, theirs.stderr
    ours = run_subprocess("sacrebleu", *argv, stdin=stdin, env={"SACREBLEU_SEED": seed})
    assert ours.code == 0, ours.err
    assert _unversioned(ours.out) == _unversioned(theirs.stdout.decode("utf-8"))
    if signed and "-b" not in argv:
        assert "scorelens-" in ours.out  # the version names ScoreLens
    return ours.out


def _slice(src: Path, dst: Path, n: int) -> Path:
    """The first n lines of a shared file, bytes as they are (a BOM, CRs stay)."""
    with open(src, "rb") as f:
        dst.write_bytes(b"".join(line for _, line in zip(range(n), f)))
    return dst


@pytest.fixture(scope="module")
def ted(tmp_path_factory):
    """A 200-line slice of compare-mt's TED pair (TER in sacreBLEU takes seconds per 100 lines)."""
    base = SHARED / "compare-mt"
    if not base.exists():
        pytest.skip(f"shared test data not found at {base} (expected ../shared/data next to the repository)")
    tmp = tmp_path_factory.mktemp("ted")
    return {
        name: _slice(base / f"ted.{name}.detok.eng", tmp / f"ted.{name}", 200) for name in ("ref", "sys1", "sys2")
    } | {"full_ref": base / "ted.ref.detok.eng", "full_sys1": base / "ted.sys1.detok.eng"}


ARGUMENT_SETS = [
    [],
    ["-m", "bleu", "ter"],
    ["-m", "ter", "-f", "text"],
    ["-m", "bleu", "ter", "-f", "text", "--short"],
    ["-m", "ter", "-b", "-w", "4"],
    ["-m", "bleu", "ter", "-b"],
    ["-m", "bleu", "-tok", "char", "-lc", "-s", "floor", "-sv", "0.2", "-f", "text"],
    ["-m", "bleu", "-tok", "intl", "-s", "add-k", "-w", "3"],
    ["-m", "bleu", "-tok", "none", "-s", "none", "-f", "text", "-q"],
    ["-m", "ter", "--ter-normalized", "--ter-case-sensitive"],
    ["-m", "ter", "--ter-no-punct", "--ter-asian-support", "-f", "text"],
    ["-m", "ter", "-sl", "--ter-normalized"],
    ["-m", "bleu", "-sl", "-w", "2"],
    ["-m", "bleu", "-sl", "--short", "-b"],
    ["-m", "bleu", "chrf", "ter"],
    ["-m", "bleu", "chrf", "ter", "-f", "text", "--short"],
    ["-m", "chrf", "--chrf-word-order", "2", "-f", "text"],
    ["-m", "chrf", "--chrf-whitespace", "--chrf-lowercase", "--chrf-eps-smoothing", "-cc", "4", "--chrf-beta", "1"],
    ["-m", "chrf", "-cw", "2", "-sl", "-w", "3"],
]


@pytest.mark.parametrize("argv", ARGUMENT_SETS, ids=lambda a: " ".join(a) or "defaults")
def test_same_output_as_sacrebleu(ted, argv):
    assert_same_output(ted["ref"], "-i", ted["sys1"], *argv)


def test_two_references(ted):
    assert_same_output(ted["ref"], ted["sys2"], "-i", ted["sys1"], "-m", "bleu", "chrf", "ter", "-f", "text")


def test_full_file_bleu(ted):
    assert_same_output(ted["full_ref"], "-i", ted["full_sys1"], "-f", "text")


def test_hypothesis_on_standard_input(ted):
    assert_same_output(ted["ref"], "-m", "bleu", "ter", stdin=ted["sys1"].read_bytes())


def test_tab_separated_references(ted, tmp_path):
    refs = [ted["ref"].read_text(encoding="utf-8").split("\n"), ted["sys2"].read_text(encoding="utf-8").split("\n")]
    joined = tmp_path / "refs.tsv"
    joined.write_text("\n".join(f"{a}\t{b}" for a, b in zip(*refs) if a or b) + "\n", encoding="utf-8")
    assert_same_output(joined, "-nr", "2", "-i", ted["sys1"], "-m", "bleu", "ter")


def test_byte_order_mark_and_carriage_returns_stay_text(tmp_path):
    """sacreBLEU opens files with newline='\\n': a leading U+FEFF is part of the first token and a
    bare CR is no line break."""
    hyp, ref = tmp_path / "hyp", tmp_path / "ref"
    hyp.write_bytes("\ufeffDer Hund sitzt.\nzwei\rDrei vier\nfünf sechs  \n".encode())
    ref.write_bytes("Der Hund sitzt.\nzwei Drei vier\nfünf sechs\n".encode())
    assert_same_output(ref, "-i", hyp, "-m", "bleu", "chrf", "ter", "-f", "text")


# several systems: the table (text: tabulate's fancy_grid, multi-line cells; latex: booktabs),
# with sacreBLEU's paired tests or without; the baseline given again is skipped under a test
SYSTEMS_ARGUMENTS = [
    ["-m", "bleu", "chrf", "ter", "--paired-bs", "--paired-bs-n", "200", "-f", "text"],
    ["-m", "ter", "bleu", "--paired-bs", "-pbsn", "100", "-f", "latex", "-w", "2", "--short"],
    ["-m", "bleu", "chrf", "--paired-ar", "--paired-ar-n", "300", "-f", "text", "--short", "-j", "2"],
    ["-m", "chrf", "ter", "--paired-ar", "-parn", "200", "-f", "latex"],
    ["-m", "bleu", "--paired-bs", "--paired-bs-n", "0", "-f", "text", "-q"],
    ["-m", "bleu", "--paired-bs", "--paired-bs-n", "100"],
    ["-m", "bleu", "chrf", "ter", "-f", "text"],
    ["-m", "bleu", "ter", "-f", "latex", "--short", "-w", "3"],
    ["-m", "bleu", "chrf"],
]


@pytest.mark.parametrize("argv", SYSTEMS_ARGUMENTS, ids=lambda a: " ".join(a))
def test_several_systems_as_sacrebleu(ted, argv):
    third = ted["sys1"] if "--paired-bs" in argv else ted["ref"]
    out = assert_same_output(ted["ref"], "-i", ted["sys1"], ted["sys2"], third, *argv, signed="-f" in argv)
    if "-f" in argv and "--paired-bs" in argv:
        assert "(p = " in out and "Baseline: " in out


def test_paired_test_seed_and_standard_input(ted):
    """Standard input's tab-separated systems (named "Baseline", "System 1"), another seed."""
    rows = zip(*(p.read_text(encoding="utf-8").splitlines() for p in (ted["sys1"], ted["sys2"])))
    stdin = "".join(f"{a}\t{b}\n" for a, b in rows).encode()
    assert_same_output(ted["ref"], "-m", "bleu", "ter", "--paired-bs", "-pbsn", "100", "-f", "text", stdin=stdin, seed="7")


def test_paired_json(ted):
    """BLEU's JSON is sacreBLEU's; its chrF and TER means are NumPy float32s, which sacreBLEU 2.6.0
    fails to write as JSON (a TypeError): ScoreLens writes the same numbers as floats."""
    assert_same_output(ted["ref"], "-i", ted["sys1"], ted["sys2"], "-m", "bleu", "--paired-ar", "-parn", "200", signed=False)
    theirs = real_sacrebleu(ted["ref"], "-i", ted["sys1"], ted["sys2"], "-m", "ter", "--paired-bs", "-pbsn", "100", "-q")
    assert theirs.returncode != 0 and b"float32 is not JSON serializable" in theirs.stderr
    ours = run_subprocess("sacrebleu", ted["ref"], "-i", ted["sys1"], ted["sys2"], "-m", "ter", "--paired-bs", "-pbsn", "100")
    rows = json.loads(ours.out)
    assert [r["system"] for r in rows] == [f"Baseline: {ted['sys1']}", str(ted["sys2"])]
    assert list(rows[1]["TER"]) == ["score", "p_value", "mean", "ci"] and rows[0]["TER"]["p_value"] is None


@pytest.mark.parametrize(
    "argv, says",
    [
        (["-t", "wmt17", "-l", "en-de"], "test sets"),
        (["REF", "-i", "HYP", "-tok", "spm"], "sentencepiece"),
        (["REF", "-i", "HYP", "--paired-bs"], "Paired tests require multiple input systems"),
        (["REF", "-i", "HYP", "HYP2", "-sl"], "Only one system"),
        (["REF", "-i", "HYP", "HYP2", "HYP"], "already used to name a system"),
        (["REF", "-i", "HYP", "-m", "bleu", "ter", "-sl"], "Only one metric"),
        (["REF", "-i", "SHORT"], "different lengths"),
    ],
)
def test_what_it_does_not_do_is_one_clear_line(tmp_path, argv, says):
    for name, text in (("REF", "a b\nc d\n"), ("HYP", "a b\nc\n"), ("HYP2", "a\nc d\n"), ("SHORT", "a b\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = run_subprocess("sacrebleu", *argv, cwd=tmp_path)
    assert result.code == 1
    assert result.out == ""
    assert len(result.err.strip().splitlines()) == 1 and says in result.err


def test_listed_in_help():
    result = run_subprocess("--help")
    assert "sacrebleu" in result.out
    result = run_subprocess("sacrebleu", "--help")
    assert result.code == 0 and "--ter-normalized" in result.out
