"""The incremental document model against a reference model: edits applied to a plain string,
then split the LSP way (at ``\\n``, ``\\r\\n`` and ``\\r`` only), and sacreBLEU's way (at
``\\n`` only, right-stripped) for the lines scored; its size in UTF-8 kept up to date by each edit."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from scorelens.lsp.documents import OpenDocument, segment_lines
from scorelens.lsp.layout import LineMap
from scorelens.lsp.positions import Columns

# line breaks of every kind, a surrogate pair, U+2028 and U+0085 (not LSP line breaks), a lone surrogate
ALPHABET = ["a", "b", " ", "\r", "\n", "\r\n", "😀", "\u2028", "\x85", "\ud800"]
TEXT = st.lists(st.sampled_from(ALPHABET), max_size=12).map("".join)
ENCODINGS = [types.PositionEncodingKind.Utf16, types.PositionEncodingKind.Utf8]


def lsp_lines(text: str) -> list[str]:
    return re.split(r"\r\n|\r|\n", text)


def units(ch: str, encoding: str) -> int:
    if encoding == types.PositionEncodingKind.Utf8:
        return len(ch.encode("utf-8", "surrogatepass"))
    return len(ch.encode("utf-16-le", "surrogatepass")) // 2


def offset(text: str, line: int, character: int, encoding: str) -> int:
    """The string offset of a position; a line past the end is the end of the text, a column past
    the line's end its end, a column inside a character the offset after it (LSP's rules)."""
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    if line >= len(starts):
        return len(text)
    content = lsp_lines(text)[line]
    seen = 0
    for column, ch in enumerate(content):
        if seen >= character:
            return starts[line] + column
        seen += units(ch, encoding)
    return starts[line] + len(content)


@st.composite
def edits(draw):
    """A change: a range by position (possibly past the end, or inside a character) and new text."""
    a = (draw(st.integers(0, 6)), draw(st.integers(0, 8)))
    b = (draw(st.integers(0, 6)), draw(st.integers(0, 8)))
    start, end = sorted([a, b])
    return start, end, draw(TEXT)


@pytest.mark.parametrize("encoding", ENCODINGS)
@settings(max_examples=800, deadline=None)
@given(text=TEXT, changes=st.lists(edits(), min_size=1, max_size=8))
def test_incremental_lines_equal_the_reference_model(encoding, text, changes):
    columns = Columns(encoding)
    doc = OpenDocument.of("file:///t", 1, "plaintext", text)
    doc.larger_than(0)  # its size counted from now on
    for (sl, sc), (el, ec), new in changes:
        a, b = offset(text, sl, sc, encoding), offset(text, el, ec, encoding)
        text = text[:a] + new + text[b:]
        before = list(doc.lines)
        change = types.TextDocumentContentChangePartial(range=types.Range(types.Position(sl, sc), types.Position(el, ec)), text=new)
        edit = doc.apply(change, columns)
        assert doc.lines == lsp_lines(text)
        assert len(doc.breaks) == len(doc.lines) - 1
        # the edit says truly which lines it replaced
        assert before[: edit.start] + edit.lines + before[edit.end :] == doc.lines
        # its size kept up to date by the edits, not counted again
        size = len(doc.text.encode("utf-8", "surrogatepass"))
        assert doc.larger_than(size - 1) and not doc.larger_than(size)


@pytest.mark.parametrize(
    "text, start, end, new, lines",
    [
        ("g\r h", (1, 0), (1, 0), "\n", ["g", " h"]),  # a "\n" typed after a lone "\r": one CRLF
        ("g\rX\n h", (1, 0), (1, 1), "", ["g", " h"]),  # what stood between "\r" and "\n" removed
        ("g\n h", (0, 1), (0, 1), "\r", ["g", " h"]),  # a "\r" typed before a "\n"
        ("g\r\n h", (0, 1), (1, 0), "\r", ["g", " h"]),  # a CRLF replaced by a lone "\r"
        ("g\r\n h", (0, 1), (1, 0), "\r\r", ["g", "", " h"]),
    ],
)
def test_line_breaks_joined_and_parted(text, start, end, new, lines):
    doc = OpenDocument.of("file:///t", 1, "plaintext", text)
    doc.apply(types.TextDocumentContentChangePartial(range=types.Range(types.Position(*start), types.Position(*end)), text=new), Columns(None))
    assert doc.lines == lines


def sacrebleu_lines(text: str) -> list[str]:
    """The lines ``scorelens score`` (as sacreBLEU's command line) scores of a file: only ``\\n``
    ends one, each is right-stripped (here without the empty last one a final break leaves out)."""
    return [line.rstrip() for line in text.split("\n")]


@pytest.mark.parametrize("encoding", ENCODINGS)
@settings(max_examples=800, deadline=None)
@given(text=TEXT, changes=st.lists(st.one_of(edits(), TEXT), min_size=1, max_size=8))
def test_scored_lines_kept_by_the_edits_and_placed_on_lsp_lines(encoding, text, changes):
    """The lines a document is scored as, kept up to date by each change's edit of them (ranges
    and whole texts, as Vim ALE sends), equal sacreBLEU's of the text; each scored line's text
    placed by the LineMap lands on the LSP line and column where that character is."""
    columns = Columns(encoding)
    doc = OpenDocument.of("file:///t", 1, "plaintext", text)
    scored = segment_lines(doc.lines, doc.breaks)
    assert scored == sacrebleu_lines(text)
    places = LineMap(doc)
    for change in changes:
        if isinstance(change, str):
            text = change
            event = types.TextDocumentContentChangeWholeDocument(text=change)
        else:
            (sl, sc), (el, ec), new = change
            a, b = offset(text, sl, sc, encoding), offset(text, el, ec, encoding)
            text = text[:a] + new + text[b:]
            event = types.TextDocumentContentChangePartial(range=types.Range(types.Position(sl, sc), types.Position(el, ec)), text=new)
        _, edit = doc.apply_lines(event, columns)
        scored[edit.start : edit.end] = edit.lines
        assert scored == sacrebleu_lines(text)
        starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
        line_of = {start: k for k, start in enumerate(starts)}
        at = 0
        for k, line in enumerate(scored):
            for column, ch in enumerate(line):
                lsp_line = max(j for j, s in enumerate(starts) if s <= at + column)
                assert places.place(k, column) == (lsp_line, at + column - starts[lsp_line])
                assert places.scored_line(lsp_line) == k
            assert places.first(k) == line_of[at]
            at = text.index("\n", at) + 1 if k < len(scored) - 1 else len(text)
        assert places.first(len(scored)) == len(doc.lines)
