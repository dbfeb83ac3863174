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
from ..textfile import DEFAULT_MAX_BYTES, MissingFile, UnreadableText, read_text, too_large
from .positions import Columns

LIMIT = "scorelens.maxFileBytes"


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
            text = doc.text
            # a code point is at most 4 bytes in UTF-8: encode only when that could pass the limit
            if len(text) * 4 > max_bytes and len(text.encode("utf-8", "surrogatepass")) > max_bytes:
                raise too_large(path, max_bytes, LIMIT)
            return text
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
