"""Lines and segments as LSP and sacreBLEU see them.

LSP breaks lines only at ``\\n``, ``\\r\\n`` and ``\\r``; ``str.splitlines`` also breaks at
``\\f``, ``\\v``, ``\\x1c-\\x1e``, ``\\x85``, U+2028 and U+2029, so it is never used here.
"""

from __future__ import annotations

import re
from typing import Sequence

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The document's lines as an LSP client numbers them (a trailing break leaves an empty last line)."""
    if "\r" not in text:
        return text.split("\n")
    return _LINE_BREAK.split(text)


def sacrebleu_lines(text: str, universal_newlines: bool = False) -> list[str]:
    """The lines sacreBLEU's command line scores, then an empty last line (as :func:`split_lines`
    gives for a text that ends with a break, so :func:`segment_count` counts exactly these).

    sacreBLEU opens files with ``newline="\\n"``: only ``\\n`` ends a line, a bare ``\\r`` stays text.
    It reads standard input with universal newlines (``\\r\\n``, ``\\r``, ``\\n``). Either way it
    right-strips every line (``str.rstrip``: all trailing whitespace, a ``\\r`` before the ``\\n`` too).
    """
    parts = split_lines(text) if universal_newlines else text.split("\n")
    if parts[-1] == "":
        parts.pop()  # reading a file yields no line after its last break
    return [p.rstrip() for p in parts] + [""]


def common_ends(old: Sequence[str], new: Sequence[str]) -> tuple[int, int]:
    """How many leading and trailing items two sequences share, not overlapping: what an edit
    left alone, so only the items between need scoring again."""
    limit = min(len(old), len(new))
    prefix = 0
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    return prefix, suffix


def segment_count(lines: list[str]) -> int:
    """Segments in a line-segmented document: every line but an empty last one.

    A file that ends with a newline has one more LSP line than sacreBLEU's line count.
    """
    if lines and lines[-1] == "":
        return len(lines) - 1
    return len(lines)


def paragraphs(lines: list[str], count: int) -> list[tuple[int, int]]:
    """``[first, end)`` line ranges of the blank-line separated paragraphs among ``lines[:count]``."""
    spans: list[tuple[int, int]] = []
    start = None
    for i in range(count):
        if lines[i].strip():
            if start is None:
                start = i
        elif start is not None:
            spans.append((start, i))
            start = None
    if start is not None:
        spans.append((start, count))
    return spans


def segment_spans(lines: list[str], segmentation: str) -> list[tuple[int, int]]:
    """``[first, end)`` line ranges of a document's segments: each line, each paragraph, or all of it."""
    count = segment_count(lines)
    if segmentation == "line":
        return [(i, i + 1) for i in range(count)]
    if segmentation == "paragraph":
        return paragraphs(lines, count)
    return [(0, count)] if count else []
