"""What a format reader yields: records with ids, their texts, and where each character of a
text sits in the document.

A reader turns a document's text into :class:`Record` objects. A record holds the text the file
is read for (a JSONL field, a subtitle cue, an XLIFF target, an utterance), the references and
the source the same record carries where the format has them, an id where it has one, and
times where it has them. Every text is a :class:`Segment`: the text scored, and a
:class:`CharMap` from its characters to the document's, so that a finding on the text lands on
the document's own characters through JSON escapes, CSV quoting, XML entities and subtitle
markup alike. Nothing here knows a format; nothing downstream needs to.
"""

from __future__ import annotations

import bisect
import gc
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterable, Iterator, NamedTuple, Sequence


@dataclass(frozen=True)
class CharMap:
    """Where the characters of a text sit in a document (offsets in code points).

    ``pieces`` are ``(text_start, doc_start, doc_end)``, in text order; a piece runs to the next
    piece's ``text_start`` (the last to ``length``). A piece as long in the text as in the
    document maps character to character; any other (an escape ``\\u00e9`` or ``&amp;`` read as
    one character, ``\\r\\n`` read as one space) maps each of its characters to the whole range.
    Text between pieces' document ranges (markup, quotes, a timestamp) belongs to no character.
    """

    length: int
    pieces: tuple[tuple[int, int, int], ...]

    @classmethod
    def literal(cls, doc_start: int, length: int) -> CharMap:
        """A text that is the document's characters from ``doc_start`` on, as they are."""
        return cls(length, ((0, doc_start, doc_start + length),) if length else ())

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The document range ``[a, b)`` of text range ``[start, end)``; an empty text range
        is the empty document range where its character would be."""
        if not self.pieces:
            return (0, 0)
        if end <= start:
            a = self._start(start) if start < self.length else self._end(self.length - 1)
            return (a, a)
        return (self._start(start), self._end(end - 1))

    def runs(self, start: int, end: int) -> list[tuple[int, int]]:
        """The document ranges of text range ``[start, end)``, one per stretch of the document
        that no text-less characters (markup, the quotes between a PO string's lines) break:
        what an edit of those characters replaces without touching what is between them."""
        if end <= start or not self.pieces:
            return [self.span(start, end)]
        out: list[tuple[int, int]] = []
        k = self._piece(start)
        while k < len(self.pieces) and self.pieces[k][0] < end:
            lo, hi = max(start, self.pieces[k][0]), min(end, self.pieces[k][0] + self._piece_length(k))
            a, b = self.span(lo, hi)
            if out and out[-1][1] == a:
                out[-1] = (out[-1][0], b)
            else:
                out.append((a, b))
            k += 1
        return out

    def offset(self, i: int) -> int:
        """The document offset of the text's character ``i`` (or just past the last one)."""
        return self._start(i) if i < self.length else self.span(i, i)[0]

    def _piece(self, i: int) -> int:
        return max(bisect.bisect_right(self.pieces, (i, float("inf"), 0)) - 1, 0)

    def _piece_length(self, k: int) -> int:
        nxt = self.pieces[k + 1][0] if k + 1 < len(self.pieces) else self.length
        return nxt - self.pieces[k][0]

    def _start(self, i: int) -> int:
        k = self._piece(i)
        t, a, b = self.pieces[k]
        return a + (i - t) if b - a == self._piece_length(k) else a

    def _end(self, i: int) -> int:
        k = self._piece(i)
        t, a, b = self.pieces[k]
        return a + (i - t) + 1 if b - a == self._piece_length(k) else b


class TextBuilder:
    """A text and its :class:`CharMap`, built piece by piece as a reader decodes a document."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._pieces: list[tuple[int, int, int]] = []
        self._length = 0

    def literal(self, text: str, doc_start: int) -> None:
        """Characters that are the document's own, from ``doc_start`` on."""
        self.add(text, doc_start, doc_start + len(text))

    def add(self, text: str, doc_start: int, doc_end: int) -> None:
        """``text`` read from the document range ``[doc_start, doc_end)``."""
        if not text:
            return
        last = self._pieces[-1] if self._pieces else None
        literal = doc_end - doc_start == len(text)
        if (
            last is not None
            and literal
            and last[2] == doc_start
            and last[2] - last[1] == self._length - last[0]
        ):
            self._pieces[-1] = (last[0], last[1], doc_end)  # continues a literal piece
        else:
            self._pieces.append((self._length, doc_start, doc_end))
        self._parts.append(text)
        self._length += len(text)

    @property
    def length(self) -> int:
        """The text's length so far: where the next character (or an inline code) sits."""
        return self._length

    def segment(self) -> Segment:
        return Segment("".join(self._parts), CharMap(self._length, tuple(self._pieces)))


class Segment:
    """A text to score and where its characters are in the document.

    A text that is the document's own characters (a plain line, a JSON string without an
    escape, a CSV field without quotes) keeps only where it starts (``map`` None, ``start``),
    and builds its :class:`CharMap` when one is first asked for: scoring never asks, only
    positions do (findings, the editor), and at 100,000 records two maps a record were a
    tenth of a JSONL file's ``score``. Not assigned to once built.
    """

    __slots__ = ("_map", "_start", "text")

    def __init__(self, text: str, map: CharMap | None, start: int = 0) -> None:
        self.text = text
        self._map = map
        self._start = start

    @classmethod
    def literal(cls, text: str, doc_start: int) -> Segment:
        return cls(text, None, doc_start)

    @property
    def map(self) -> CharMap:
        if self._map is None:
            self._map = CharMap.literal(self._start, len(self.text))
        return self._map

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Segment):
            return NotImplemented
        return self.text == other.text and self.map == other.map

    def __hash__(self) -> int:
        return hash((self.text, self.map))

    def __repr__(self) -> str:
        return f"Segment(text={self.text!r}, map={self.map!r})"


class InlineCode(NamedTuple):
    """A code of the original document that a text holds as markup, not as text (an XLIFF
    ``<g>``, ``<x/>``, ``<bpt>``…): a translation must keep its source's. A plain tuple, so
    the QA checks take it without knowing this module."""

    kind: str  # "start", "end" (of a paired code), or "standalone"
    id: str  # the code's id in its unit (an end's is its start's, where the format links them so)
    name: str  # the element, for messages ("g", "bpt", "ph")
    offset: int  # where it sits in the text (code points)


# Records and entries are made by the hundred thousand: not frozen, as a frozen dataclass's
# __init__ sets each field through object.__setattr__ (2.5 times the time); hashable as before
# (unsafe_hash), and never assigned to (dataclasses.replace makes a new one).
@dataclass(slots=True, unsafe_hash=True)
class Record:
    """One item of a document: a JSONL line, a table row, a cue, a unit, an utterance."""

    line: int  # 1-based line of the document where the record starts (for messages)
    text: Segment | None  # what the file is read for: its hypothesis field, a cue, a target
    id: str | None = None
    references: tuple[Segment, ...] = ()  # references the same record holds (JSONL/TSV/CSV fields)
    source: Segment | None = None  # the source text, where the format has one
    start: float | None = None  # times in seconds (subtitles, STM/CTM)
    end: float | None = None
    # the inline codes its source holds, and its text (XLIFF), in text order
    codes: tuple[tuple[InlineCode, ...], tuple[InlineCode, ...]] = ((), ())


@dataclass(frozen=True)
class RecordError:
    """A record that could not be read; the rest of the document still is."""

    line: int  # 1-based
    message: str

    def format(self, path: str) -> str:
        return f"{path}:{self.line}: error: {self.message}"


@dataclass
class Reading:
    """A document read: its records in document order, and the records that could not be read."""

    records: list[Record] = field(default_factory=list)
    errors: list[RecordError] = field(default_factory=list)
    # the scoring rules the format implies (``"sclite"`` for TRN/STM/CTM), or None
    rules: str | None = None
    # the records are timed words that a reference's segments take by time (a CTM), not segments
    words: bool = False
    # the fields or columns the reader took, defaults resolved (JSONL/TSV/CSV), or None
    fields: Fields | None = None
    # (source, target) languages the document declares (XLIFF, PO, TMX), as written; None for
    # a side it does not name, or names differently in different places
    languages: tuple[str | None, str | None] = (None, None)


def references_of(records: list[Record], target: str, languages: tuple[str | None, str | None] = (None, None)) -> Reading:
    """A reference file's records: a unit without a ``target`` (text None) is a
    :class:`RecordError`, left out. An untranslated unit is no reference, and read as an empty
    one it would count every word of the hypothesis as an error."""
    reading = Reading(languages=languages)
    for record in records:
        if record.text is None:
            what = f"unit {record.id!r}" if record.id is not None else "a unit"
            reading.errors.append(RecordError(record.line, f"{what} has no {target}: untranslated, no reference; left out"))
        else:
            reading.records.append(record)
    return reading


@dataclass(frozen=True)
class Fields:
    """Which fields or columns a reader takes, for formats that have them (JSONL, TSV, CSV);
    None means the format's defaults."""

    text: str | None = None  # the field the file is read for (the hypothesis's, or a reference's)
    references: tuple[str, ...] = ()
    source: str | None = None
    id: str | None = None
    # a reference file is read for its reference fields alone: no text field is looked for
    references_only: bool = False
    # a source file: its text is its source field (source, src, input), else its text field
    sources_only: bool = False


class FormatError(ValueError):
    """A document that cannot be read at all (no record can be): its message says why, and
    ``line`` and ``column`` (1-based, in characters) where, when its parser stopped at one place."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.line, self.column = line, column


def line_starts(text: str) -> list[int]:
    """Offsets where each line of ``text`` starts, breaking at ``\\n``, ``\\r\\n`` and ``\\r``
    as LSP does (so ``bisect`` turns an offset into a line)."""
    starts = [0]
    i, n = 0, len(text)
    while True:
        j = text.find("\n", i)
        r = text.find("\r", i, j if j >= 0 else n)
        if r >= 0:
            i = r + 2 if text.startswith("\r\n", r) else r + 1
        elif j >= 0:
            i = j + 1
        else:
            return starts
        starts.append(i)


def joined(parts: Iterable[Segment], separator: str = " ") -> Segment:
    """Segments joined into one text (a cue's lines, an utterance's words); each separator maps
    to the document text between its neighbours."""
    builder = TextBuilder()
    previous: Segment | None = None
    for part in parts:
        if previous is not None and separator:
            gap_start = previous.map.span(0, previous.map.length)[1] if previous.map.length else 0
            gap_end = part.map.offset(0) if part.map.length else gap_start
            builder.add(separator, gap_start, max(gap_end, gap_start))
        for t, a, b in _pieces_of(part):
            builder.add(part.text[t[0] : t[1]], a, b)
        previous = part
    return builder.segment()


def _pieces_of(segment: Segment) -> Sequence[tuple[tuple[int, int], int, int]]:
    pieces = segment.map.pieces
    out = []
    for k, (t, a, b) in enumerate(pieces):
        end = pieces[k + 1][0] if k + 1 < len(pieces) else segment.map.length
        out.append(((t, end), a, b))
    return out


@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused while records or entries are built: several small
    objects per record and none of them in a cycle, yet each thousand of them sets off a
    collection that walks them all again; paused, a 100,000-line file reads in half the time
    and pairs in a fifth. Whoever paused it first resumes it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
