"""What the QA checks share: items found on both sides with their spans, paired across the two
sides; a place to insert what the hypothesis lacks; quoting and language names for messages."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Hashable, Sequence

from .model import PREFIX, Fix, QAFinding


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
    left = list(target)
    missing = []
    for s in source:
        k = next((i for i, t in enumerate(left) if t.key == s.key), None)
        if k is None:
            missing.append(s)
        else:
            del left[k]
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


def insertion_point(source: str, source_offset: int, target: str) -> int:
    """Where something at ``source_offset`` of the source belongs in the target: at the same
    proportion of its length, moved to the nearest word start (or the end). A target without
    spaces (Japanese, Chinese) is taken at that character."""
    if not target:
        return 0
    p = round(len(target) * source_offset / max(len(source), 1))
    if " " not in target.strip():
        return min(p, len(target))
    starts = [i for i in range(len(target) + 1) if (i == len(target) or not target[i].isspace()) and (i == 0 or target[i - 1].isspace())]
    stripped_end = len(target.rstrip())
    starts.append(stripped_end)
    return min(starts, key=lambda i: (abs(i - p), i))


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
