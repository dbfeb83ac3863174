"""The plain-text reader: sacreBLEU's lines (a bare "\\r" is text in one), each numbered by the
line an editor shows it on; paragraphs and the whole document as the core joins them, every
character the document's own (a joining "\\n" its own line break)."""

from __future__ import annotations

import pytest
from formats_support import assert_literal_map, texts
from hypothesis import given, settings

from scorelens.core.text import sacrebleu_lines, segment_spans
from scorelens.formats import format_of, read
from scorelens.formats import plain


def test_lines_are_sacrebleus_numbered_as_lsp_numbers_them():
    doc = "a\r\nb\rc\n\x0cd\u2028e\n"
    reading = read(doc, "text")
    assert [(r.line, r.id, r.text.text) for r in reading.records] == [
        (1, None, "a"),
        (2, None, "b\rc"),
        (4, None, "\x0cd\u2028e"),
    ]
    for record in reading.records:
        assert_literal_map(doc, record.text)
    assert reading.errors == [] and format_of("x.txt") == "text"


def test_an_empty_last_line_is_no_segment_but_an_empty_line_inside_is():
    assert [r.text.text for r in read("a\n\nb", "text").records] == ["a", "", "b"]
    assert [r.text.text for r in read("a\n\n", "text").records] == ["a", ""]
    assert read("", "text").records == []


def test_paragraphs_join_their_lines_with_newlines():
    doc = "one\r\ntwo\r\n  \r\nthree\n\n\nfour\rfive\n"
    reading = plain.read(doc, segmentation="paragraph")
    assert [(r.line, r.text.text) for r in reading.records] == [(1, "one\ntwo"), (4, "three"), (7, "four\rfive")]
    first = reading.records[0].text
    a, b = first.map.span(3, 4)
    assert doc[a:b] == "\r\n"
    assert first.map.span(0, len(first.text)) == (0, 8)


def test_document_segmentation():
    doc = "a\n\nb\r\n"
    (record,) = plain.read(doc, segmentation="document").records
    assert record.text.text == "a\n\nb"
    assert plain.read("", segmentation="document").records == []
    with pytest.raises(ValueError, match="unknown segmentation"):
        plain.read(doc, segmentation="sentence")


@given(texts)
@settings(max_examples=300, deadline=None)
def test_segments_are_the_cores(doc):
    """The core's segments of a file, but not right-stripped: its QA checks trailing whitespace."""
    *ended, last = doc.split("\n")
    lines = [line.removesuffix("\r") for line in ended] + [last]  # a "\r\n" ends a line
    for segmentation in ("line", "paragraph", "document"):
        expected = ["\n".join(lines[a:b]) for a, b in segment_spans(lines, segmentation)]
        records = plain.read(doc, segmentation=segmentation).records
        assert [r.text.text for r in records] == expected
        if segmentation == "line":
            assert [r.text.text.rstrip() for r in records] == sacrebleu_lines(doc)[: len(records)]
        for record in records:
            for i, c in enumerate(record.text.text):
                a, b = record.text.map.span(i, i + 1)
                assert doc[a:b] == c or (c == "\n" and doc[a:b] == "\r\n")


def test_escape_is_the_text():
    assert plain.escape('a "b" \\ c') == 'a "b" \\ c'
