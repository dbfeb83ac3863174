"""Plain text: one segment per line, per paragraph, or the whole document.

The command line keeps its own faster path for plain files; this reader is here so that every
format, plain text too, yields the same :class:`Record` objects. A segment's line is one of
sacreBLEU's (as the core scores them): it ends at ``\\n`` or ``\\r\\n``, and a bare ``\\r`` is
text in it. Every reader's ``Record.line`` is the line an editor shows: :func:`lines` breaks
as LSP does (at a bare ``\\r`` too; never ``str.splitlines``, which also breaks at ``\\f``,
U+2028 and others), and is shared with the JSONL and delimited readers.
"""

from __future__ import annotations

import re

from .segments import Fields, Reading, Record, Segment, TextBuilder, paused_gc

SEGMENTATIONS = ("line", "paragraph", "document")

_BREAK = re.compile(r"\r\n?|\n")


def lines(text: str) -> list[tuple[int, int, int]]:
    """Every line as ``(start, end, next_start)``: its text is ``text[start:end]``, its line
    break ``text[end:next_start]`` (empty for the last line). A text that ends with a break
    has an empty last line, as in an editor."""
    out: list[tuple[int, int, int]] = []
    start = 0
    if "\r" not in text:  # the common case: one str.find per line, no regex
        find = text.find
        while (end := find("\n", start)) >= 0:
            out.append((start, end, end + 1))
            start = end + 1
    else:
        for m in _BREAK.finditer(text):
            out.append((start, m.start(), m.end()))
            start = m.end()
    out.append((start, len(text), len(text)))
    return out


def scored_lines(text: str) -> list[tuple[int, int, int, int]]:
    """sacreBLEU's lines, a bare ``\\r`` kept in them, as ``(start, end, next_start, line)``:
    :func:`lines`' spans joined where a bare ``\\r`` breaks them, ``line`` the LSP line each
    starts on."""
    spans = lines(text)
    if "\r" not in text:
        return [(a, b, c, k) for k, (a, b, c) in enumerate(spans)]
    out: list[tuple[int, int, int, int]] = []
    first = None  # (start, LSP line) of the line being joined
    for k, (a, b, c) in enumerate(spans):
        if first is None:
            first = (a, k)
        if c - b != 1 or text[b] != "\r":
            out.append((first[0], b, c, first[1]))
            first = None
    return out


def scored_texts(text: str) -> list[str]:
    """The texts of :func:`scored_lines`, made with one split."""
    *ended, last = text.split("\n")
    return [line.removesuffix("\r") for line in ended] + [last]  # a "\r\n" ends a line too


def segment_lines(spans: list[tuple[int, ...]]) -> int:
    """How many lines are segments: all but an empty last one (a final line break ends the
    last line, it does not start a segment), as the scoring core counts them."""
    if spans and spans[-1][0] == spans[-1][1]:
        return len(spans) - 1
    return len(spans)


def read(text: str, fields: Fields = Fields(), name: str = "text", *, segmentation: str = "line") -> Reading:
    """Records of plain text: each line (``segmentation="line"``), each blank-line separated
    paragraph, or the whole document. A paragraph's or document's text is its lines joined by
    ``\\n`` (as the core joins them), whatever breaks the document has; each ``\\n`` maps to the
    document's own break (``\\r\\n`` included). ``fields`` does not apply to plain text."""
    if segmentation not in SEGMENTATIONS:
        raise ValueError(f"unknown segmentation {segmentation!r}; choose from {', '.join(SEGMENTATIONS)}")
    with paused_gc():
        return _read(text, segmentation)


def _read(text: str, segmentation: str) -> Reading:
    spans = scored_lines(text)
    count = segment_lines(spans)
    reading = Reading()
    if segmentation == "line":
        reading.records = [Record(line + 1, Segment.literal(text[a:b], a)) for a, b, _, line in spans[:count]]
        return reading
    if segmentation == "paragraph":
        groups = paragraphs(text, spans, count)
    else:
        groups = [(0, count)] if count else []
    reading.records = [Record(spans[first][3] + 1, _joined(text, spans[first:end])) for first, end in groups]
    return reading


def paragraphs(text: str, spans: list[tuple[int, ...]], count: int) -> list[tuple[int, int]]:
    """``[first, end)`` line ranges of the paragraphs among the first ``count`` lines: runs of
    lines that are not blank (a line of only whitespace is blank, as ``str.strip`` sees it, as
    the core's paragraphs are)."""
    groups: list[tuple[int, int]] = []
    first = None
    for i in range(count):
        a, b = spans[i][:2]
        if text[a:b].strip():
            if first is None:
                first = i
        elif first is not None:
            groups.append((first, i))
            first = None
    if first is not None:
        groups.append((first, count))
    return groups


def _joined(text: str, spans: list[tuple[int, int, int, int]]) -> Segment:
    builder = TextBuilder()
    for k, (a, b, c, _) in enumerate(spans):
        builder.literal(text[a:b], a)
        if k + 1 < len(spans):
            builder.add("\n", b, c)  # one "\n" in the text for the document's break, whatever it is
    return builder.segment()


def escape(text: str) -> str:
    """A replacement is written into plain text as it is (a line break in it would split the
    segment: that is the caller's choice to make)."""
    return text
