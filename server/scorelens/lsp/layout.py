"""Where each segment of one side of a review sits in its document.

The features place findings through a side's layout, never through the corpus's lines: for a
plain-text side the corpus's segments are the document's lines (or paragraphs), and the layout
asks the corpus; for a formatted side (JSONL, subtitles, ...) the corpus holds one text per
paired record, and the layout maps them back to the document's characters.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Hashable

from ..formats import Segment


CR = 2  # a lone "\r" among a document's breaks (see .documents)


class LineMap:
    """Where the lines a plain-text side scores (sacreBLEU's, the corpus's) sit among its
    document's LSP lines: one each, but where a lone ``\r`` ends an LSP line inside a scored one.
    ``source`` has the document's ``lines``, ``breaks`` and ``changes`` (:mod:`.documents`)."""

    def __init__(self, source) -> None:
        self.source = source
        self._crs: tuple[int, list[int]] = (-1, [])

    @property
    def lines(self) -> list[str]:
        """The document's LSP lines."""
        return self.source.lines

    def _joins(self) -> list[int]:
        """The LSP lines followed by a lone ``\r``, in order (made again after a change)."""
        source = self.source
        if self._crs[0] != source.changes:
            breaks, found, at = source.breaks, [], source.breaks.find(CR)
            while at >= 0:
                found.append(at)
                at = breaks.find(CR, at + 1)
            self._crs = (source.changes, found)
        return self._crs[1]

    def scored_line(self, line: int) -> int:
        """The scored line an LSP line is part of."""
        joins = self._joins()
        return line - bisect.bisect_left(joins, line) if joins else line

    def first(self, scored: int) -> int:
        """The LSP line a scored line starts on (past the end: the document's line count)."""
        joins = self._joins()
        if not joins:
            return scored
        lo, hi = scored, scored + len(joins)  # the first LSP line whose scored line is ``scored``
        while lo < hi:
            mid = (lo + hi) // 2
            if mid - bisect.bisect_left(joins, mid) < scored:
                lo = mid + 1
            else:
                hi = mid
        return min(lo, len(self.lines))

    def place(self, scored: int, column: int) -> tuple[int, int]:
        """(LSP line, column) of a column of a scored line: its text is its LSP lines joined by
        ``\r`` (right-stripped)."""
        line = self.first(scored)
        if self.aligned():
            return line, column
        lines, breaks = self.lines, self.source.breaks
        while line < len(lines) - 1 and column > len(lines[line]) and breaks[line] == CR:
            column -= len(lines[line]) + 1
            line += 1
        return line, column

    def aligned(self) -> bool:
        """Whether each scored line is one LSP line (no lone ``\r``): the common case, at no cost."""
        return not self._joins()


class _Aligned:
    """The :class:`LineMap` of a corpus built from lines alone (no document): they are its lines."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def scored_line(self, line: int) -> int:
        return line

    def first(self, scored: int) -> int:
        return scored

    def place(self, scored: int, column: int) -> tuple[int, int]:
        return scored, column

    def aligned(self) -> bool:
        return True


class TextLayout:
    """A plain-text side: the corpus's own lines and segments, placed among the document's LSP
    lines by its :class:`LineMap` (without one, the corpus's lines are the document's)."""

    def __init__(self, corpus, side: int, lines: LineMap | None = None) -> None:
        self.corpus = corpus
        self.side = side
        self.map = lines if lines is not None else _Aligned(corpus.lines(side))

    @property
    def lines(self) -> list[str]:
        """The document's LSP lines."""
        return self.map.lines

    def first_line(self, segment: int) -> int:
        return self.map.first(self.corpus.first_line(self.side, segment))

    def first_lines(self) -> list[int]:
        firsts = self.corpus.first_lines(self.side)
        return firsts if self.map.aligned() else [self.map.first(k) for k in firsts]

    def segment_at(self, line: int) -> int | None:
        return self.corpus.segment_at(self.side, self.map.scored_line(line))

    def segments_on(self, first: int, last: int) -> range:
        return self.corpus.segments_on(self.side, self.map.scored_line(first), self.map.scored_line(last))

    def line_count(self, segment: int) -> int:
        first = self.corpus.first_line(self.side, segment)
        return self.map.first(first + self.corpus.line_count(self.side, segment)) - self.map.first(first)

    def position(self, segment: int, offset: int) -> tuple[int, int]:
        """(line, column in code points) of an offset into the segment's text."""
        return self.map.place(*self.corpus.position(self.side, segment, offset))

    def written_text(self, segment: int) -> str:
        """A line's text as the document has it, a bare ``\r`` in it: the corpus's is
        right-stripped (sacreBLEU's line), and the QA checks read trailing whitespace too."""
        first = self.first_line(segment)
        return "\r".join(self.lines[first : first + self.line_count(segment)])

    def span(self, segment: int, start: int, end: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """The (line, column) of both ends of ``[start, end)`` of the segment's text."""
        return self.position(segment, start), self.position(segment, end)

    def shape(self, segment: int) -> Hashable:
        """What a finding's place depends on besides the segment's texts and first line: nothing
        here, as columns count from the segment's own line start (a lone ``\r`` in the text
        starts an LSP line there)."""
        return None

    def id(self, segment: int) -> str | None:
        return None

    def editable(self, segment: int) -> bool:
        return True

    def runs(self, segment: int, start: int, end: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        """The document ranges of ``[start, end)`` of the segment's text, split where characters
        that are no text's lie between (none in plain text)."""
        return [self.span(segment, start, end)]

    def escape(self, segment: int, text: str) -> str:
        """A text as it is written into the segment: as it is."""
        return text

    def sources(self) -> list[str] | None:
        """The sources the segments' records hold: none in plain text (a source is a document)."""
        return None


class RecordLayout:
    """A formatted side: one segment per paired record (:class:`~scorelens.formats.pairing.Entry`),
    each text's characters mapped to the document's by its reader, through escapes and markup."""

    def __init__(self, lines: list[str], starts: list[int], entries: list, escape: Callable[[str, Segment], str]) -> None:
        self.lines = lines  # the document's lines, and the offset where each starts
        self._starts = starts
        self._entries = entries
        self._escape = escape
        self._edited_sources: set[int] = set()  # see take_edited_sources
        self._spans = [self._lines_of(e) for e in entries]
        self._at: dict[int, int] = {}  # line -> the segment on it (the first, for a line of two)
        for segment, (first, last) in enumerate(self._spans):
            for line in range(first, last + 1):
                self._at.setdefault(line, segment)

    def _line(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset) - 1

    def _lines_of(self, entry) -> tuple[int, int]:
        first = entry.line - 1
        m = entry.segment.map
        if not m.pieces:
            return first, first
        a, b = m.span(0, m.length)
        return min(first, self._line(a)), max(first, self._line(max(b - 1, a)))

    def first_line(self, segment: int) -> int:
        return self._spans[segment][0] if segment < len(self._spans) else len(self.lines)

    def first_lines(self) -> list[int]:
        return [first for first, _ in self._spans]

    def segment_at(self, line: int) -> int | None:
        return self._at.get(line)

    def segments_on(self, first: int, last: int) -> range:
        found = [s for line in range(max(first, 0), min(last, len(self.lines) - 1) + 1) if (s := self._at.get(line)) is not None]
        if found:
            return range(min(found), max(found) + 1)
        before = sum(1 for f, _ in self._spans if f < first)  # where segments on these lines would be
        return range(before, before)

    def line_count(self, segment: int) -> int:
        first, last = self._spans[segment] if segment < len(self._spans) else (0, 0)
        return last - first + 1

    def _place(self, offset: int) -> tuple[int, int]:
        line = self._line(offset)
        return line, offset - self._starts[line]

    def position(self, segment: int, offset: int) -> tuple[int, int]:
        """(line, column in code points) of an offset into the segment's text; an empty text has
        no characters to map: it is at its record's line start."""
        m = self._entries[segment].segment.map if segment < len(self._entries) else None
        if m is None or not m.pieces:
            return (self.first_line(segment), 0)
        return self._at_offset(segment, m.offset(offset))

    def span(self, segment: int, start: int, end: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """The document range of ``[start, end)`` of the segment's text: it ends after the last
        character, not before markup between it and the next."""
        m = self._entries[segment].segment.map if segment < len(self._entries) else None
        if m is None or not m.pieces:
            return self.position(segment, start), self.position(segment, end)
        a, b = m.span(start, end)
        return self._at_offset(segment, a), self._at_offset(segment, b)

    def runs(self, segment: int, start: int, end: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        """The document ranges of ``[start, end)`` of the segment's text, split where markup lies
        between its characters (an edit of each range leaves the markup as it is)."""
        m = self._entries[segment].segment.map if segment < len(self._entries) else None
        if m is None or not m.pieces:
            return [self.span(segment, start, end)]
        return [(self._at_offset(segment, a), self._at_offset(segment, b)) for a, b in m.runs(start, end)]

    def _at_offset(self, segment: int, offset: int) -> tuple[int, int]:
        """(line, column) of a document offset the segment's map gives."""
        return self._place(offset)

    def escape(self, segment: int, text: str) -> str:
        """A text as it is written into the segment, by its format (ValueError where it cannot be)."""
        return self._escape(text, self._entries[segment].segment)

    def shape(self, segment: int) -> Hashable:
        """The record's lines: a finding's columns count from the line start, past whatever the
        record has before its text (an id, other fields)."""
        first, last = self._spans[segment] if segment < len(self._spans) else (0, -1)
        return tuple(self.lines[first : last + 1])

    def id(self, segment: int) -> str | None:
        return self._entries[segment].id if segment < len(self._entries) else None

    def editable(self, segment: int) -> bool:
        """An empty text maps to no characters of the document, so nothing can be written into it."""
        return segment < len(self._entries) and bool(self._entries[segment].segment.map.pieces)

    @property
    def entries(self) -> list:
        return self._entries

    def sources(self) -> list[str] | None:
        """The source each segment's record holds ("" where it has none); None if no record has one."""
        if not any(e.source is not None for e in self._entries):
            return None
        return [e.source.text if e.source is not None else "" for e in self._entries]

    def take_edited_sources(self) -> set[int]:
        """The segments whose record's source text changed since the last call (the QA checks
        re-check those without reading every record's source)."""
        edited, self._edited_sources = self._edited_sources, set()
        return edited

    def source_position(self, segment: int, offset: int) -> tuple[int, int]:
        """(line, column) of an offset into the source the segment's record holds."""
        m = self._entries[segment].source.map
        if not m.pieces:
            return self.first_line(segment), 0
        return self._at_offset(segment, m.offset(offset))


class LineRecordLayout(RecordLayout):
    """A formatted side whose records are one line each, every character of a record's texts on
    its own line (JSONL, TRN, STM, paired by id or position).

    ``starts`` holds, per line, where that line started in the text its record was read from:
    an edit within lines re-reads only the edited lines (see :func:`.formatted.reread_lines`),
    each from a small text of its own, and the records of every other line keep their maps,
    whose offsets are into the text they were read from. A column is an offset less its line's
    start there, so no record after an edit has to be read or moved again.
    """

    def _lines_of(self, entry) -> tuple[int, int]:
        return entry.line - 1, entry.line - 1

    def _at_offset(self, segment: int, offset: int) -> tuple[int, int]:
        # the record's one line, its column counted from where that line started when read
        line = self._spans[segment][0]
        return line, offset - self._starts[line]

    def entry(self, segment: int):
        return self._entries[segment]

    def replace(self, segment: int, entry) -> None:
        """The segment's record was read again, on the same line (its text or map changed)."""
        old = self._entries[segment]
        assert entry.line == old.line
        if (entry.source.text if entry.source is not None else None) != (old.source.text if old.source is not None else None):
            self._edited_sources.add(segment)
        self._entries[segment] = entry

