"""Where each segment of one side of a review sits in its document.

The features place findings through a side's layout, never through the corpus's lines: for a
plain-text side the corpus's segments are the document's lines (or paragraphs), and the layout
asks the corpus; for a formatted side (JSONL, subtitles, ...) the corpus holds one text per
paired record, and the layout maps them back to the document's characters.
"""

from __future__ import annotations

from typing import Hashable


class TextLayout:
    """A plain-text side: the corpus's own lines and segments."""

    def __init__(self, corpus, side: int) -> None:
        self.corpus = corpus
        self.side = side

    @property
    def lines(self) -> list[str]:
        """The document's lines."""
        return self.corpus.lines(self.side)

    def first_line(self, segment: int) -> int:
        return self.corpus.first_line(self.side, segment)

    def first_lines(self) -> list[int]:
        return self.corpus.first_lines(self.side)

    def segment_at(self, line: int) -> int | None:
        return self.corpus.segment_at(self.side, line)

    def segments_on(self, first: int, last: int) -> range:
        return self.corpus.segments_on(self.side, first, last)

    def line_count(self, segment: int) -> int:
        return self.corpus.line_count(self.side, segment)

    def position(self, segment: int, offset: int) -> tuple[int, int]:
        """(line, column in code points) of an offset into the segment's text."""
        return self.corpus.position(self.side, segment, offset)

    def shape(self, segment: int) -> Hashable:
        """What a finding's place depends on besides the segment's texts and first line: nothing
        here, as columns count from the segment's own line start."""
        return None
