"""The server's own view of documents: open ones as line lists, closed ones read from disk once.

pygls re-splits a document's whole text on every access; scoring needs the changed lines only,
so every content change is turned here into "replace lines [start, end) with these lines".
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from lsprotocol import types
from pygls.uris import to_fs_path

from ..core import split_lines
from ..textfile import UnreadableText, read_text
from .positions import Columns


@dataclass
class LineEdit:
    start: int
    end: int
    lines: list[str]


@dataclass
class OpenDocument:
    uri: str
    version: int
    language_id: str
    lines: list[str]

    def apply(self, change: types.TextDocumentContentChangeEvent, columns: Columns) -> LineEdit:
        """Apply one content change to the lines and say which lines it replaced."""
        if isinstance(change, types.TextDocumentContentChangeWholeDocument) or change.range is None:
            edit = LineEdit(0, len(self.lines), split_lines(change.text))
        else:
            start, end = change.range.start, change.range.end
            last = len(self.lines) - 1
            first_line = self.lines[min(start.line, last)]
            last_line = self.lines[min(end.line, last)]
            head = first_line[: columns.from_client(first_line, start.character)] if start.line <= last else first_line
            tail = last_line[columns.from_client(last_line, end.character) :] if end.line <= last else ""
            edit = LineEdit(min(start.line, last), min(end.line, last) + 1, split_lines(head + change.text + tail))
        self.lines[edit.start : edit.end] = edit.lines
        return edit

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass
class _Cached:
    stamp: tuple[int, int]
    text: str | None
    problem: str | None


@dataclass
class Documents:
    open: dict[str, OpenDocument] = field(default_factory=dict)
    _disk: dict[str, _Cached] = field(default_factory=dict)

    def text(self, uri: str) -> str:
        """An open document's live text, else the file's text; raises UnreadableText."""
        doc = self.open.get(uri)
        if doc is not None:
            return doc.text
        path = to_fs_path(uri) or uri
        try:
            st = os.stat(path)
        except OSError:
            self._disk.pop(uri, None)
            raise UnreadableText(f"{path}: no such file") from None
        stamp = (st.st_mtime_ns, st.st_size)
        cached = self._disk.get(uri)
        if cached is None or cached.stamp != stamp:
            try:
                cached = _Cached(stamp, read_text(path), None)
            except UnreadableText as exc:
                cached = _Cached(stamp, None, str(exc))
            self._disk[uri] = cached
        if cached.problem is not None:
            raise UnreadableText(cached.problem)
        return cached.text

    def forget(self, uri: str) -> None:
        """The file changed on disk: read it again next time."""
        self._disk.pop(uri, None)
