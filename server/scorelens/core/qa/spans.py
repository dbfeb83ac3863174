"""What the QA checks share: items found on both sides with their spans, paired across the two
sides; a place to insert what the hypothesis lacks; quoting and language names for messages."""

from __future__ import annotations

import bisect
import json
import re
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Hashable, Sequence

from .model import PREFIX, Fix, QAFinding

# a character that is not whitespace, after whitespace or at the start (re's \s is str.isspace())
_WORD_START = re.compile(r"(?<!\S)\S")


@dataclass(frozen=True, slots=True)
class Item:
    """A number, placeholder, tag or URL found in a segment's text."""

    start: int
    end: int
    text: str
    key: Hashable  # what must be equal on both sides (a tag less its translatable attributes…)


def quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def primary(language: str | None) -> str | None:
    """``"de-CH"`` -> ``"de"``."""
    return language.replace("_", "-").split("-")[0].lower() if language else None


def region_tag(language: str | None) -> str | None:
    """``"de_CH"`` -> ``"de-ch"``."""
    return language.replace("_", "-").lower() if language else None


@lru_cache(maxsize=64)
def language_name(language: str | None) -> str:
    """A language's English name for messages (translate-toolkit's table), or its code."""
    from translate.lang import data
    found = data.get_language(primary(language) or "")
    return found[0] if found else (language or "the target language")


def pair(
    source: Sequence[Item], target: Sequence[Item], same: Callable[[Item, Item], bool] | None = None
) -> tuple[list[Item], list[Item]]:
    """The source items the target lacks and the target items the source lacks, as multisets:
    equal keys pair first, in order; then ``same`` (a looser equality) pairs what is left."""
    by_key: dict[Hashable, deque[int]] = {}
    for i, t in enumerate(target):
        by_key.setdefault(t.key, deque()).append(i)
    missing, taken = [], set()
    for s in source:
        if by_key.get(s.key):
            taken.add(by_key[s.key].popleft())
        else:
            missing.append(s)
    left = [t for i, t in enumerate(target) if i not in taken]
    if same is not None and missing and left:
        still = []
        for s in missing:
            k = next((i for i, t in enumerate(left) if same(s, t)), None)
            if k is None:
                still.append(s)
            else:
                del left[k]
        missing = still
    return missing, left


class Skipped:
    """Spans (placeholders', tags', URLs') that other checks leave alone, asked in O(log n)
    whether a span overlaps one: a long segment has thousands of each."""

    def __init__(self, spans: Sequence[tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        for a, b in sorted(spans):
            if merged and a <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        self._starts, self._ends = [a for a, _ in merged], [b for _, b in merged]

    def __bool__(self) -> bool:
        return bool(self._starts)

    def overlaps(self, start: int, end: int) -> bool:
        k = bisect.bisect_right(self._ends, start)  # the first span ending after start
        return k < len(self._starts) and self._starts[k] < end


def insertion_point(source: str, source_offset: int, target: str) -> int:
    """Where something at ``source_offset`` of the source belongs in the target: at the same
    proportion of its length, moved to the nearest word start (or the end). A target without
    spaces (Japanese, Chinese) is taken at that character."""
    if not target:
        return 0
    p = round(len(target) * source_offset / max(len(source), 1))
    if " " not in target.strip():
        return min(p, len(target))
    places = _word_starts(target)
    k = bisect.bisect_left(places, p)
    return min(places[max(k - 1, 0) : k + 1], key=lambda i: (abs(i - p), i))


@lru_cache(maxsize=4)
def _word_starts(target: str) -> list[int]:
    """Where a word starts (a character that is no space after a space, or the text's start),
    the end of the text without trailing spaces, and the end if a space precedes it; ascending.
    Made once per text: a segment may need many places, and a long one has a million characters."""
    places = [m.start() for m in _WORD_START.finditer(target)]
    places.append(len(target.rstrip()))
    if not target or target[-1].isspace():
        places.append(len(target))
    return sorted(set(places))


def insertion(target: str, at: int, text: str) -> str:
    """``text`` as inserted at ``at``: with a space on the side that touches a word."""
    if " " not in target.strip() and target.strip():
        return text
    before = at > 0 and not target[at - 1].isspace()
    after = at < len(target) and not target[at].isspace()
    return (" " if before else "") + text + (" " if after else "")


def mismatch_findings(
    check: str,
    source: str,
    target: str,
    missing: Sequence[Item],
    extra: Sequence[Item],
    what: str,
    replacement: Callable[[Item, Item], str | None] = lambda s, t: s.text,
) -> list[QAFinding]:
    """The findings of a check whose items must be the same on both sides (``what``: "number",
    "placeholder"…): each extra target item, and a point for each missing source item. When as
    many are extra as missing, they pair in order, and each extra one's fix puts its source item
    in its place (``replacement`` gives the text, or None where it is not clear)."""
    code = PREFIX + check
    found = []
    if len(missing) == len(extra):
        for s, t in zip(missing, extra):
            text = replacement(s, t)
            fix = Fix(f"Use the source's {what} {quote(text)}", t.start, t.end, text) if text is not None else None
            found.append(QAFinding(code, 0, t.start, t.end, t.text, f"{what} {quote(t.text)} is not the source's {quote(s.text)}", s.start, s.end, fix=fix))
        return found
    for t in extra:
        found.append(QAFinding(code, 0, t.start, t.end, t.text, f"{what} {quote(t.text)} is not in the source"))
    for s in missing:
        at = insertion_point(source, s.start, target)
        found.append(QAFinding(code, 0, at, at, "", f"the source's {what} {quote(s.text)} is missing", s.start, s.end))
    return sorted(found, key=lambda f: (f.start, f.end))
