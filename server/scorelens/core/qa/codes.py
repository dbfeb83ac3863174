"""Inline codes: the tags of the original document that a translation file holds as markup (an
XLIFF ``<g>``, ``<x/>``, ``<bpt>``…, a TMX ``<bpt>``, ``<ph>``…), which the texts checked leave out. Each of the source's
must be in the target, and the target may have no other: a code is its kind (a paired code's
start or end, or a standalone one) and its id, and the two sides' are compared as multisets.

A code is a plain tuple ``(kind, id, name, offset)``: the element's name for messages, and where it
sits in its text. An extra code is a point where it sits in the target; a missing one, a point
where the target has the source code before it (else where its place in the source falls), as
the markup maps to no character a span could cover.
"""

from __future__ import annotations

from typing import Sequence

from .model import PREFIX, QAFinding
from .spans import insertion_point

Code = tuple[str, str, str, int]  # kind, id, name, offset


def _shown(code: Code) -> str:
    kind, id, name, _ = code
    return f"</{name}> (id {id})" if kind == "end" and name in ("g", "pc") else f"<{name}> (id {id})"


def check_codes(source: str, target: str, source_codes: Sequence[Code], target_codes: Sequence[Code]) -> list[QAFinding]:
    """The target's missing and extra codes; none for an empty target (untranslated says so)."""
    if not target.strip():
        return []
    unpaired: dict[tuple[str, str], list[Code]] = {}  # the target's codes by kind and id, in order
    for code in target_codes:
        unpaired.setdefault(code[:2], []).append(code)
    found = []
    last = None  # where the target has the latest source code it has
    for code in source_codes:
        partners = unpaired.get(code[:2])
        if partners:
            last = partners.pop(0)[3]
            continue
        point = last if last is not None else insertion_point(source, code[3], target)
        found.append(QAFinding(PREFIX + "inline-code", 0, point, point, "", f"the source's inline code {_shown(code)} is missing", code[3], code[3]))
    for code in (c for rest in unpaired.values() for c in rest):
        found.append(QAFinding(PREFIX + "inline-code", 0, code[3], code[3], "", f"inline code {_shown(code)} is not in the source"))
    return sorted(found, key=lambda f: (f.start, f.end))
