"""What every format test checks of a segment: each character of its text maps to the
document's own character, or to the escape, reference or line break it was decoded from, and
no character maps into markup."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Callable

import polib
import pytest

from scorelens.formats import Segment

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"


def xml_decode(raw: str) -> str:
    """An XML reference, or a line break expat reads as ``\\n``."""
    return "\n" if raw in ("\r\n", "\r") else html.unescape(raw) if raw.startswith("&") and raw.endswith(";") else raw


def cue_decode(raw: str) -> str:
    """A WebVTT reference, or the line break a cue's joining space stands for."""
    return " " if raw in ("\n", "\r\n", "\r") else html.unescape(raw)


def po_decode(raw: str) -> str:
    return polib.unescape(raw)


def check_map(doc: str, segment: Segment, decode: Callable[[str], str]) -> None:
    """Each character of the text is the document slice its map gives, or decodes from it."""
    assert segment.map.length == len(segment.text)
    for i, ch in enumerate(segment.text):
        a, b = segment.map.span(i, i + 1)
        raw = doc[a:b]
        assert raw == ch or decode(raw) == ch, (i, ch, raw, a, b)


def covered(segment: Segment) -> set[int]:
    """The document offsets some character of the text maps to."""
    out: set[int] = set()
    for i in range(len(segment.text)):
        out.update(range(*segment.map.span(i, i + 1)))
    return out


def shared_path(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared test data not found at {path} (expected ../shared/data next to the repository)")
    return path


def real_lines(n: int = 200) -> tuple[list[str], list[str]]:
    """The first ``n`` lines of a real MT system output and its reference (compare-mt's TED
    Slovak->English, detokenized: see its PROVENANCE.md)."""
    hyp = shared_path("compare-mt", "ted.sys1.detok.eng").read_text(encoding="utf-8").splitlines()[:n]
    ref = shared_path("compare-mt", "ted.ref.detok.eng").read_text(encoding="utf-8").splitlines()[:n]
    return hyp, ref
