"""The server's own view of documents: open ones as line lists, closed ones read from disk once.

pygls re-splits a document's whole text on every access; scoring needs the changed lines only,
so every content change is turned here into "replace lines [start, end) with these lines".
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

    def apply(self, change: types.TextDocumentContentChangeEvent, columns: Columns) -> LineEdit:
        """Apply one content change to the lines and say which lines it replaced."""
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

    def forget(self, uri: str) -> None:
        """The file changed on disk: read it again next time."""
        self._disk.pop(uri, None)
