"""Whole-document changes (Vim ALE, TextDocumentSyncKind.Full clients) become the smallest line
edit: common leading and trailing lines are kept, so only the changed segments re-score
(test_edit_replay.py replays such changes through the server)."""

from __future__ import annotations

from hypothesis import given, settings
from lsprotocol import types
from test_documents import TEXT, lsp_lines

from scorelens.lsp.documents import LineEdit, OpenDocument
from scorelens.lsp.positions import Columns


def _whole(text: str) -> types.TextDocumentContentChangeWholeDocument:
    return types.TextDocumentContentChangeWholeDocument(text=text)


def _doc(text: str) -> OpenDocument:
    return OpenDocument.of("file:///d.hyp.txt", 1, "plaintext", text)


def test_one_changed_line_is_one_line_edit():
    doc = _doc("a\nb\nc\nd\n")
    assert doc.apply(_whole("a\nB\nc\nd\n"), Columns(None)) == LineEdit(1, 2, ["B"])
    assert doc.text == "a\nB\nc\nd\n"


def test_inserted_and_deleted_lines():
    doc = _doc("a\nb\nc\n")
    assert doc.apply(_whole("a\nb\nx\ny\nc\n"), Columns(None)) == LineEdit(2, 2, ["x", "y"])
    assert doc.apply(_whole("a\nc\n"), Columns(None)) == LineEdit(1, 4, [])
    assert doc.text == "a\nc\n"


def test_repeated_lines_are_not_counted_twice():
    # prefix and suffix may not overlap: "a a" -> "a a a" inserts one line, not minus one
    doc = _doc("a\na")
    edit = doc.apply(_whole("a\na\na"), Columns(None))
    assert (edit.end - edit.start, len(edit.lines)) == (0, 1)
    assert doc.text == "a\na\na"


def test_unchanged_and_emptied_texts():
    doc = _doc("a\nb")
    assert doc.apply(_whole("a\nb"), Columns(None)) == LineEdit(2, 2, [])
    assert doc.apply(_whole(""), Columns(None)) == LineEdit(0, 2, [""])
    assert doc.text == ""


@given(TEXT, TEXT)
@settings(max_examples=300, deadline=None)
def test_the_edit_turns_the_old_lines_into_the_new(old, new):
    doc = _doc(old)
    before = list(doc.lines)
    edit = doc.apply(_whole(new), Columns(None))
    before[edit.start : edit.end] = edit.lines
    assert before == doc.lines == lsp_lines(new)
