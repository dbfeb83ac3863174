"""Every format of samples/formats in the server: the words the command line's ``check`` names
inside the file's fields, cues, targets and utterances are the ranges of the server's diagnostics,
in the client's position units (UTF-16 for VS Code, UTF-8 for Neovim)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from lsp_support import diagnostics, open_doc, scores
from test_server import units

from scorelens.core.text import split_lines

HYPOTHESES = [
    "eval.jsonl",
    "news.hyp.jsonl",
    "news.tsv",
    "news.csv",
    "news.hyp.xlf",
    "news.hyp.po",
    "news.hyp.tmx",
    "call.hyp.srt",
    "call.hyp.vtt",
    "call.hyp.trn",
    "call.hyp.ctm",
]
# findings placed on the hypothesis's own words (deletions sit in the reference)
ON_HYPOTHESIS = ("wer.substitution", "wer.insertion")


def check(path) -> list[dict]:
    done = subprocess.run(
        [sys.executable, "-m", "scorelens", "check", path.name, "--format", "json", "--max-findings", "100000"],
        cwd=path.parent, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["findings"]


@pytest.mark.parametrize("name", HYPOTHESES)
async def test_the_server_marks_what_check_finds(client, name):
    path = client.workspace / "formats" / name
    lines = split_lines(path.read_text(encoding="utf-8"))

    def at(line: int, column: int) -> tuple[int, int]:
        return line - 1, units(client, lines[line - 1][: column - 1])

    expected = {
        (f["code"], *at(f["line"], f["column"]), *at(f["end_line"], f["end_column"]))
        for f in check(path)
        if f["path"] == name and f["code"] in ON_HYPOTHESIS
    }
    assert expected, "the sample has no word errors to place"
    uri = open_doc(client, path, path.suffix.lstrip("."))
    await scores(client, uri, until=lambda p: p["scores"] is not None)
    seen = {
        (d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)
        for d in await diagnostics(client, uri)
        if d.code in ON_HYPOTHESIS
    }
    assert seen == expected
