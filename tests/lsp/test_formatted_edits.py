"""Typing in formatted documents, end to end (UTF-16 and UTF-8 clients): an edit within a
record's line of a JSONL or TRN document is read from that line alone, any other edit from the
whole document. Either way every word error is on the characters ``check`` names in the edited
text, the records after the edit's included, and the document's problems are those a fresh
open of the same text shows."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from lsp_support import diagnostics, open_doc, scores
from test_server import change, units

# findings placed on the hypothesis's own words (deletions sit in the reference)
ON_HYPOTHESIS = ("wer.substitution", "wer.insertion")


class Typed:
    """A sample document open in the client, and its text as the client has it after edits."""

    def __init__(self, client, name: str, language: str) -> None:
        self.client = client
        self.name = name
        self.folder = client.workspace / "formats"
        self.lines = (self.folder / name).read_text(encoding="utf-8").split("\n")
        self.uri = open_doc(client, self.folder / name, language)
        self.version = 1

    def edit(self, line: int, start: int, end: int, text: str, end_line: int | None = None) -> None:
        """Replace code points ``[start, end)`` of a line (to ``end`` of ``end_line``) with ``text``."""
        end_line = line if end_line is None else end_line
        first, last = self.lines[line], self.lines[end_line]
        self.version += 1
        change(self.client, self.uri, self.version, (line, units(self.client, first[:start])), (end_line, units(self.client, last[:end])), text)
        self.lines[line : end_line + 1] = (first[:start] + text + last[end:]).split("\n")

    def at(self, line: int, marker: str) -> int:
        return self.lines[line].index(marker)

    def text(self) -> str:
        return "\n".join(self.lines)

    async def seen(self) -> tuple[set, list]:
        """The word errors the server shows for the last edit, and all of its diagnostics."""
        await scores(self.client, self.uri, version=self.version, until=lambda p: p["scores"] is not None)
        diags = await diagnostics(self.client, self.uri)
        words = {(d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character) for d in diags if d.code in ON_HYPOTHESIS}
        return words, diags

    def checked(self, tmp_path) -> set:
        """The word errors ``scorelens check`` names in the edited text, in the client's units."""
        folder = tmp_path / "checked"
        shutil.copytree(self.folder, folder, dirs_exist_ok=True)
        (folder / self.name).write_text(self.text(), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "scorelens", "check", self.name, "--format", "json", "--max-findings", "100000"],
            cwd=folder, capture_output=True, text=True, timeout=60,
        )
        assert done.returncode in (0, 2) and done.stdout, done.stderr  # 2: a record could not be read

        def at(line: int, column: int) -> tuple[int, int]:
            return line - 1, units(self.client, self.lines[line - 1][: column - 1])

        return {
            (f["code"], *at(f["line"], f["column"]), *at(f["end_line"], f["end_column"]))
            for f in json.loads(done.stdout)["findings"]
            if f["path"] == self.name and f["code"] in ON_HYPOTHESIS
        }

    async def fresh(self) -> list:
        """The diagnostics of the edited text opened afresh (a copy in another folder of the
        workspace: a reference outside it is not read)."""
        folder = self.client.workspace / "fresh"
        shutil.copytree(self.folder, folder, dirs_exist_ok=True)
        (folder / self.name).write_text(self.text(), encoding="utf-8")
        uri = open_doc(self.client, folder / self.name, self.name.rsplit(".", 1)[1])
        await scores(self.client, uri, until=lambda p: p["scores"] is not None)
        return await diagnostics(self.client, uri)


def _places(diags) -> list:
    return sorted((d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character) for d in diags)


async def test_typing_in_a_jsonl_field_keeps_later_records_findings_on_their_words(client, tmp_path):
    doc = Typed(client, "eval.jsonl", "jsonl")
    await doc.seen()
    # record 2's prediction lengthened, then shortened below its first length
    at = doc.at(1, "should cost")
    doc.edit(1, at, at, "really ")
    words, _ = await doc.seen()
    assert words == doc.checked(tmp_path)
    at = doc.at(1, "really should cost around ")
    doc.edit(1, at, at + len("really should cost around "), "")
    words, _ = await doc.seen()
    expected = doc.checked(tmp_path)
    assert words == expected
    assert any(line > 1 for _, line, *_ in expected), "no later record has a word error to place"


@pytest.mark.parametrize("what", ["an id changed", "a line's JSON broken", "a record added"])
async def test_a_jsonl_edit_that_changes_more_than_a_text(client, tmp_path, what):
    doc = Typed(client, "eval.jsonl", "jsonl")
    await doc.seen()
    at = doc.at(1, "should cost")
    doc.edit(1, at, at, "really ")  # read alone first
    await doc.seen()
    if what == "an id changed":
        at = doc.at(2, "news-03")
        doc.edit(2, at, at + len("news-03"), "news-three")
    elif what == "a line's JSON broken":
        doc.edit(2, len(doc.lines[2]) - 1, len(doc.lines[2]), "")
    else:
        doc.edit(2, 0, 0, json.dumps({"id": "new", "prediction": "a new record here", "reference": "the new record"}) + "\n")
    words, diags = await doc.seen()
    assert words == doc.checked(tmp_path)
    assert _places(diags) == _places(await doc.fresh())
    if what == "a line's JSON broken":
        assert [d for d in diags if d.code == "format.unreadable-record" and d.range.start.line == 2]


async def test_typing_in_a_trn_transcript_keeps_later_utterances_findings_on_their_words(client, tmp_path):
    doc = Typed(client, "call.hyp.trn", "trn")
    await doc.seen()
    at = doc.at(3, "can i")
    doc.edit(3, at, at, "so sorry that ")
    words, _ = await doc.seen()
    assert words == doc.checked(tmp_path)
    at = doc.at(3, "so sorry that can i have")
    doc.edit(3, at, at + len("so sorry that can i have"), "have")
    words, _ = await doc.seen()
    expected = doc.checked(tmp_path)
    assert words == expected
    assert any(line > 3 for _, line, *_ in expected), "no later utterance has a word error to place"


@pytest.mark.parametrize("what", ["an id changed", "an id unreadable", "a record added"])
async def test_a_trn_edit_that_changes_more_than_a_transcript(client, tmp_path, what):
    doc = Typed(client, "call.hyp.trn", "trn")
    await doc.seen()
    at = doc.at(3, "can i")
    doc.edit(3, at, at, "so ")  # read alone first
    await doc.seen()
    if what == "an id changed":
        at = doc.at(4, "call_A_005")
        doc.edit(4, at, at + len("call_A_005"), "call_A_009")
    elif what == "an id unreadable":
        at = doc.at(4, "(call_A_005)")
        doc.edit(4, at, at + 1, "")
    else:
        doc.edit(4, 0, 0, "a new utterance (call_C_010)\n")
    # (check refuses documents whose ids do not pair: compared with the same text opened afresh)
    words, diags = await doc.seen()
    fresh = await doc.fresh()
    assert _places(diags) == _places(fresh)
    assert [d for d in diags if d.code.startswith(("pairing.", "format.")) and d.range.start.line == 4]
    assert words, "the other utterances are still scored"


def _enter(doc: Typed, line: int, marker: str) -> None:
    at = doc.at(line, marker)
    doc.edit(line, at, at, "\n")


def _join(doc: Typed, line: int) -> None:
    doc.edit(line, len(doc.lines[line]), 0, " ", end_line=line + 1)


def _paste(doc: Typed, line: int, marker: str, text: str) -> None:
    at = doc.at(line, marker)
    doc.edit(line, at, at, text)


# Edits that change a document's line count (and any edit of CSV, subtitles, XLIFF) are read by
# the re-score, whole, in a thread (#36): an Enter, a join of two lines, a paste of several lines
LINE_COUNT_EDITS = {
    "eval.jsonl": [
        lambda doc: _enter(doc, 1, "{"),  # a blank line before a record
        lambda doc: _enter(doc, 3, "turning point"),  # a record broken in two
        lambda doc: _join(doc, 3),  # and mended
        lambda doc: _paste(doc, 0, "{", '{"id": "p1", "prediction": "a pasted line", "reference": "the pasted line"}\n{"id": "p2", "prediction": "and one more", "reference": "and one more"}\n'),
    ],
    "news.csv": [
        lambda doc: _enter(doc, 2, "news-02"),
        lambda doc: _join(doc, 3),
        lambda doc: _paste(doc, 1, "news-01", "p1,Quelle,a pasted row,the pasted row\np2,Quelle,\"two\nlines\",two lines\n"),
    ],
    "call.hyp.srt": [
        lambda doc: _enter(doc, 2, "north field"),
        lambda doc: _join(doc, 2),
        lambda doc: _join(doc, 2),
        lambda doc: _paste(doc, 7, "calling", "i am\nvery much\n"),
    ],
    "news.hyp.xlf": [
        lambda doc: _enter(doc, 6, "has approved"),
        lambda doc: _join(doc, 5),
        lambda doc: _paste(doc, 10, "should cost", "really\nand truly "),
    ],
}


@pytest.mark.parametrize("name", LINE_COUNT_EDITS)
async def test_enter_joins_and_pastes_score_as_a_fresh_open_and_check(client, tmp_path, name):
    doc = Typed(client, name, name.rsplit(".", 1)[1])
    await doc.seen()
    for k, edit in enumerate(LINE_COUNT_EDITS[name]):
        edit(doc)
        words, diags = await doc.seen()
        assert words == doc.checked(tmp_path / str(k)), (name, k, doc.text())
        assert _places(diags) == _places(await doc.fresh()), (name, k)
