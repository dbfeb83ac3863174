"""What every reader's test asserts of a segment: each character of its text maps to the
document characters that write it (and the helpers the three test modules share)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import strategies as st

from scorelens.formats import Segment

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"

# texts with what formats must escape or quote: quotes, backslashes, delimiters, line breaks,
# control characters, non-ASCII and astral characters (emoji), besides any other character
SPECIAL = list('"\\/,\t\n\r\x00\x01\x08\x0c\x1f\x7f \u00e9\u00fc\u2028\u3042\U0001f600\U00010348\ufeff')
texts = st.text(alphabet=st.one_of(st.sampled_from(SPECIAL), st.characters()), max_size=30)


def shared(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared test data not found at {path} (expected ../shared/data next to the repository)")
    return path


def assert_json_map(doc: str, segment: Segment) -> None:
    """Each character of a JSON string's text maps to the raw characters that write it."""
    for i, c in enumerate(segment.text):
        a, b = segment.map.span(i, i + 1)
        assert json.loads('"' + doc[a:b] + '"') == c, (i, c, doc[a:b])
    if segment.text:
        a, b = segment.map.span(0, len(segment.text))
        assert json.loads('"' + doc[a:b] + '"') == segment.text


def assert_csv_map(doc: str, segment: Segment) -> None:
    """Each character of a CSV field's text is the document's own, or a doubled quote."""
    for i, c in enumerate(segment.text):
        a, b = segment.map.span(i, i + 1)
        assert doc[a:b] == c or (c == '"' and doc[a:b] == '""'), (i, c, doc[a:b])


def assert_literal_map(doc: str, segment: Segment) -> None:
    for i, c in enumerate(segment.text):
        a, b = segment.map.span(i, i + 1)
        assert doc[a:b] == c, (i, c, doc[a:b])
