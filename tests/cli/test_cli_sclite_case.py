"""``--sclite-case``: sclite's ``-e utf-8 TABLE`` case folding through the command line, equal to
sclite's own totals on SCTK's Turkish, Ukrainian and Vietnamese tests, and named in the signature."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

SCTK = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "sctk-sclite"
needs_sctk = pytest.mark.skipif(not SCTK.is_dir(), reason="../shared/data/sctk-sclite not present (a fresh clone without the shared corpora)")


def _sum_row(raw: Path) -> tuple[int, ...]:
    """sclite's Sum row: sentences, words, then correct, substitutions, deletions, insertions."""
    m = re.search(r"\|\s*Sum\s*\|\s*(\d+)\s+(\d+)\s*\|\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", raw.read_text(encoding="utf-8"))
    return tuple(map(int, m.groups()))


def _table(test: str) -> str:
    """The case table sclite ran ``test`` with, from the commands that made the expected outputs."""
    command = re.search(rf"TEST={test}\n(.*?)(?:TEST=|$)", (SCTK / "expected" / "COMMANDS.txt").read_text(encoding="utf-8"), re.S).group(1)
    return re.search(r"-e utf-8 (\w+)", command).group(1)


@needs_sctk
@pytest.mark.parametrize("test, ref, hyp", [
    ("test15_c", "test.turkish.ref", "test.turkish.hyp"),
    ("test15_d", "test.ukranian.ref", "test.ukranian.hyp"),
    ("test17", "test.vietnamese.ref.trn", "test.vietnamese.hyp.trn"),
])
def test_sclite_s_own_totals_with_its_case_table(run, test, ref, hyp):
    table = _table(test)
    result = run("score", SCTK / "inputs" / hyp, "-r", SCTK / "inputs" / ref, "--input-format", "trn", "-m", "wer", "--sclite-case", table, "--json")
    assert result.code == 0, result.err
    wer = json.loads(result.out)["wer"]
    sentences, words, *counts = _sum_row(SCTK / "expected" / f"{test}.raw")
    assert (wer["hits"], wer["substitutions"], wer["deletions"], wer["insertions"]) == tuple(counts)
    assert wer["hits"] + wer["substitutions"] + wer["deletions"] == words
    assert f"rules:sclite|case:{table}|" in wer["signature"]


def test_the_table_decides_what_matches(run, tmp_path):
    (tmp_path / "light.ref.trn").write_text("IŞIK YANDI (u1)\n", encoding="utf-8")
    (tmp_path / "light.hyp.trn").write_text("ışık yandı (u1)\n", encoding="utf-8")

    def wer(*options) -> dict:
        result = run("score", tmp_path / "light.hyp.trn", "-m", "wer", "--json", *options)
        assert result.code == 0, result.err
        return json.loads(result.out)["wer"]

    ascii_ = wer()  # sclite's default folds A-Z only: I, Ş are not ı, ş
    assert (ascii_["hits"], ascii_["substitutions"]) == (0, 2) and "case:" not in ascii_["signature"]
    turkish = wer("--sclite-case", "babel_turkish")
    assert (turkish["hits"], turkish["substitutions"]) == (2, 0)
    # plain text is scored by jiwer's rules, which keep case: the table is sclite's alone
    (tmp_path / "light.hyp.txt").write_text("ışık yandı\n", encoding="utf-8")
    (tmp_path / "light.ref.txt").write_text("IŞIK YANDI\n", encoding="utf-8")
    plain = json.loads(run("score", tmp_path / "light.hyp.txt", "-r", tmp_path / "light.ref.txt", "-m", "wer", "--json", "--sclite-case", "babel_turkish").out)["wer"]
    assert plain["substitutions"] == 2 and "case:" not in plain["signature"]
    bad = run("score", tmp_path / "light.hyp.trn", "--sclite-case", "klingon")
    assert bad.code == 2 and "babel_turkish" in bad.err
