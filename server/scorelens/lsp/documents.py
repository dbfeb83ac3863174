"""The server's own view of documents: open ones as line lists, closed ones read from disk once.

pygls re-splits a document's whole text on every access; scoring needs the changed lines only,
so every content change is turned here into "replace lines [start, end) with these lines".

A document has two kinds of lines. LSP's end at ``\n``, ``\r\n`` and a lone ``\r``: positions
count them. sacreBLEU's command line ends a line at ``\n`` only and right-strips it: those are
the lines scored (:func:`segment_lines`), so a document scores in the editor as ``scorelens
score`` scores its file. They differ only where a lone ``\r`` joins LSP lines into one scored line
(and in the trailing blanks stripped); :class:`~.layout.LineMap` places the scored lines' text
among LSP's.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from lsprotocol import types
from pygls.uris import to_fs_path

from ..core.text import common_ends
from ..textfile import DEFAULT_MAX_BYTES, MissingFile, UnreadableText, read_text, too_large
from .positions import Columns

LIMIT = "scorelens.maxFileBytes"


@dataclass
class LineEdit:
    start: int
    end: int
    lines: list[str]


_BREAK = re.compile(r"(\r\n|\r|\n)")
LF, CRLF, CR = range(3)
_CODES = {"\n": LF, "\r\n": CRLF, "\r": CR}
_BREAKS = ("\n", "\r\n", "\r")


def split_breaks(text: str) -> tuple[list[str], bytearray]:
    """The text's LSP lines and the line break after each but the last (``LF``, ``CRLF``, ``CR``)."""
    if "\r" not in text:
        lines = text.split("\n")
        return lines, bytearray(len(lines) - 1)
    parts = _BREAK.split(text)
    return parts[0::2], bytearray(map(_CODES.__getitem__, parts[1::2]))


def segment_lines(lines: list[str], breaks: bytearray) -> list[str]:
    """The lines sacreBLEU's command line reads of a text given as its LSP lines and the breaks
    between them: LSP lines joined by a lone ``\r`` are one, and each is right-stripped (a
    ``\r\n``'s ``\r`` with the rest), as :func:`~scorelens.core.text.sacrebleu_lines` reads a file."""
    if CR not in breaks:
        return [line.rstrip() for line in lines]
    found, group = [], [lines[0]]
    for line, kind in zip(lines[1:], breaks):
        if kind == CR:
            group.append(line)
        else:
            found.append("\r".join(group).rstrip())
            group = [line]
    found.append("\r".join(group).rstrip())
    return found


@dataclass
class ReadDocument:
    """A closed document's text as read, as an open one's lines and breaks."""

    lines: list[str]
    breaks: bytearray
    changes: int = 0  # (never changed: a change on disk reads it again)

    @classmethod
    def of(cls, text: str) -> ReadDocument:
        return cls(*split_breaks(text))


@dataclass
class OpenDocument:
    """An open document as lines and the breaks between them.

    The breaks are kept because a lone ``\\r`` and a ``\\n`` that an edit brings together are one
    line break (a character removed between them, or a ``\\r`` or ``\\n`` typed next to the other,
    joins two lines): the edited lines are split again with the breaks around them, as the
    client splits its text.
    """

    uri: str
    version: int
    language_id: str
    lines: list[str]
    breaks: bytearray
    chars: int = 0  # in the lines, without their breaks: kept up to date by each change
    # UTF-8 bytes of the lines, once larger_than needs them: kept up to date by each change, so a
    # keystroke in a large document does not encode all of it again
    utf8: int | None = None
    changes: int = 0  # content changes applied (what a LineMap's cache is of)

    @classmethod
    def of(cls, uri: str, version: int, language_id: str, text: str) -> OpenDocument:
        lines, breaks = split_breaks(text)
        return cls(uri, version, language_id, lines, breaks, sum(map(len, lines)))

    def larger_than(self, max_bytes: int) -> bool:
        """Whether the text is over ``max_bytes`` in UTF-8: a code point is at most 4 bytes and a
        break 2, so its bytes are counted only when it could be (then kept up to date: ``utf8``)."""
        if (self.chars + 2 * len(self.lines)) * 4 <= max_bytes:
            return False
        if self.utf8 is None:
            self.utf8 = _utf8(self.lines)
        return self.utf8 + len(self.breaks) > max_bytes  # (the text joins the lines with "\n")

    def _replace(self, start: int, end: int, lines: list[str]) -> None:
        self.chars += sum(map(len, lines)) - sum(map(len, self.lines[start:end]))
        if self.utf8 is not None:
            self.utf8 += _utf8(lines) - _utf8(self.lines[start:end])
        self.lines[start:end] = lines

    def apply_lines(self, change: types.TextDocumentContentChangeEvent, columns: Columns) -> tuple[LineEdit, LineEdit]:
        """:meth:`apply`, and which of sacreBLEU's lines (:func:`segment_lines`) the change replaced."""
        if isinstance(change, types.TextDocumentContentChangeWholeDocument) or change.range is None:
            # the breaks may change where the lines do not ("a\rb" sent again as "a\nb")
            before = segment_lines(self.lines, self.breaks)
            edit = self.apply(change, columns)
            return edit, _difference(before, segment_lines(self.lines, self.breaks))
        count = self.segment_line_count()
        edit = self.apply(change, columns)
        return edit, self._segment_edit(edit, count)

    def segment_line_count(self) -> int:
        # (finding a byte is memchr's; counting them takes 30 µs on 100,000 lines: only where there are)
        return len(self.lines) - (self.breaks.count(CR) if CR in self.breaks else 0)

    def _segment_edit(self, edit: LineEdit, count_before: int) -> LineEdit:
        """The change of sacreBLEU's lines an :meth:`apply` of a range made: the edited LSP lines
        widened to whole scored lines (breaks before the edit and after it are as they were)."""
        lines, breaks = self.lines, self.breaks
        first, last = edit.start, edit.start + len(edit.lines) - 1
        while first > 0 and breaks[first - 1] == CR:
            first -= 1
        while last < len(lines) - 1 and breaks[last] == CR:
            last += 1
        start = first - breaks.count(CR, 0, first) if CR in breaks else first
        new = segment_lines(lines[first : last + 1], breaks[first:last])
        replaced = len(new) - (self.segment_line_count() - count_before)
        return LineEdit(start, start + replaced, new)

    def apply(self, change: types.TextDocumentContentChangeEvent, columns: Columns) -> LineEdit:
        """Apply one content change to the lines and say which lines it replaced."""
        self.changes += 1
        if isinstance(change, types.TextDocumentContentChangeWholeDocument) or change.range is None:
            lines, self.breaks = split_breaks(change.text)
            edit = _difference(self.lines, lines)
            self._replace(edit.start, edit.end, edit.lines)
            return edit
        start, end = change.range.start, change.range.end
        last = len(self.lines) - 1
        first, stop = min(start.line, last), min(end.line, last)
        first_line, last_line = self.lines[first], self.lines[stop]
        head = first_line[: columns.from_client(first_line, start.character)] if start.line <= last else first_line
        tail = last_line[columns.from_client(last_line, end.character) :] if end.line <= last else ""
        text = head + change.text + tail
        if stop < last:
            text += _BREAKS[self.breaks[stop]]  # (so what follows the text is as it was)
        # a "\n" at the start that meets the previous line's lone "\r": one break
        if first > 0 and self.breaks[first - 1] == CR and text[:1] == "\n":
            first -= 1
            text = self.lines[first] + "\r" + text
        lines, breaks = split_breaks(text)
        if stop < last:
            lines.pop()  # the text ended with a break: the piece after it is the next line's
            self.breaks[first : stop + 1] = breaks
        else:
            self.breaks[first:stop] = breaks
        self._replace(first, stop + 1, lines)
        return LineEdit(first, stop + 1, lines)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def _utf8(lines: list[str]) -> int:
    """UTF-8 bytes of the lines, without breaks (a lone surrogate as WTF-8 writes it)."""
    return len("\n".join(lines).encode("utf-8", "surrogatepass")) - max(len(lines) - 1, 0)


def _difference(old: list[str], new: list[str]) -> LineEdit:
    """The lines between the common leading and trailing ones: clients that send the whole text
    on every change (Vim ALE, TextDocumentSyncKind.Full) re-score only the segments they changed."""
    prefix, suffix = common_ends(old, new)
    return LineEdit(prefix, len(old) - suffix, new[prefix : len(new) - suffix])


@dataclass
class _Cached:
    stamp: tuple[int, int, int]
    text: str | None
    problem: UnreadableText | None


@dataclass
class Documents:
    open: dict[str, OpenDocument] = field(default_factory=dict)
    _disk: dict[str, _Cached] = field(default_factory=dict)

    def text(self, uri: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
        """An open document's live text, else the file's text; raises UnreadableText.

        The caller decides first whether the file may be read at all (the workspace check)."""
        doc = self.open.get(uri)
        path = to_fs_path(uri) or uri
        if doc is not None:
            if doc.larger_than(max_bytes):
                raise too_large(path, max_bytes, LIMIT)
            return doc.text
        try:
            st = os.stat(path)
        except OSError:
            self._disk.pop(uri, None)
            raise MissingFile(f"{path}: no such file") from None
        stamp = (st.st_mtime_ns, st.st_size, max_bytes)
        cached = self._disk.get(uri)
        if cached is None or cached.stamp != stamp:
            try:
                cached = _Cached(stamp, read_text(path, max_bytes, LIMIT), None)
            except UnreadableText as exc:
                cached = _Cached(stamp, None, exc)
            self._disk[uri] = cached
        if cached.problem is not None:
            raise cached.problem
        return cached.text

    def read(self, uri: str, max_bytes: int = DEFAULT_MAX_BYTES) -> OpenDocument | ReadDocument:
        """The document's lines and breaks: an open one's live, else the file's as read (see :meth:`text`)."""
        doc = self.open.get(uri)
        if doc is not None:
            if doc.larger_than(max_bytes):
                raise too_large(to_fs_path(uri) or uri, max_bytes, LIMIT)
            return doc
        return ReadDocument.of(self.text(uri, max_bytes))

    def forget(self, uri: str) -> None:
        """The file changed on disk: read it again next time."""
        self._disk.pop(uri, None)
