"""SRT and WebVTT: cues as records, markup out of the text, maps onto the document's characters."""

from __future__ import annotations

import datetime
import html
import re

import pytest
import srt
import webvtt
from hypothesis import given, settings
from hypothesis import strategies as st
from mapcheck import check_map, covered, cue_decode, real_lines

from scorelens.formats import Fields, FormatError, read, reader

SRT_DOC = (
    "1\r\n"
    "00:00:01,000 --> 00:00:02,500\r\n"
    "<i>Hello</i> world\r\n"
    "{\\an8}second <font color=\"red\">line</font>\r\n"
    "\r\n"
    "2\r\n"
    "00:00:03,000 --> 00:00:0X,000\r\n"
    "bad end time\r\n"
    "\r\n"
    "3\r\n"
    "00:00:05,000 --> 00:00:06,000\r\n"
    "a < b & c\r\n"
)


def test_srt_cues_ids_times_and_maps():
    reading = read(SRT_DOC, "srt")
    first, third = reading.records
    assert (first.id, first.line, first.start, first.end) == ("1", 1, 1.0, 2.5)
    assert first.text.text == "Hello world second line"
    check_map(SRT_DOC, first.text, cue_decode)
    # the joining space is the line break, not the {\an8} after it
    space = first.text.text.index(" second")
    assert SRT_DOC[slice(*first.text.map.span(space, space + 1))] == "\r\n"
    assert (third.id, third.line, third.start, third.end) == ("3", 10, 5.0, 6.0)
    assert third.text.text == "a < b & c"  # no markup or references in SRT
    check_map(SRT_DOC, third.text, cue_decode)


def test_srt_markup_belongs_to_no_character():
    segment = read(SRT_DOC, "srt").records[0].text
    markup = set()
    for m in re.finditer(r"<[^>]*>|\{[^}]*\}", SRT_DOC):
        markup.update(range(*m.span()))
    assert markup and not covered(segment) & markup


def test_srt_bad_timestamp_is_a_record_error_on_its_line():
    reading = read(SRT_DOC, "srt")
    assert [e.line for e in reading.errors] == [7]
    assert "HH:MM:SS,mmm" in reading.errors[0].message
    assert [r.id for r in reading.records] == ["1", "3"]


def test_a_broken_arrow_is_an_error_on_the_timing_line_not_the_cue_s_number():
    srt_doc = "1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:03,000 -> 00:00:04,000\nbroken\n"
    vtt_doc = "WEBVTT\n\nc1\n00:00:01.000 --> 00:00:02.000\nok\n\nc2\n00:03.000 - 00:04.000\nbroken\n\n00:05.000 -> 00:06.000\nno id\n"
    assert [e.line for e in read(srt_doc, "srt").errors] == [6]
    reading = read(vtt_doc, "vtt")
    assert [e.line for e in reading.errors] == [8, 11] and [r.id for r in reading.records] == ["c1"]


def test_srt_garbage_block_and_cue_without_number():
    doc = "00:00:01,000 --> 00:00:02,000\nno number\n\njust text\n\n00:00:03,000 --> 00:00:04,000\nlast\n"
    reading = read(doc, "srt")
    assert [(r.id, r.text.text) for r in reading.records] == [("1", "no number"), ("3", "last")]
    assert [e.line for e in reading.errors] == [4]


def test_srt_cue_without_text_is_an_empty_text_after_its_timings():
    doc = "1\n00:00:01,000 --> 00:00:02,000\n\n2\n00:00:03,000 --> 00:00:04,000\n<i></i>\n"
    first, second = read(doc, "srt").records
    assert first.text.text == second.text.text == ""
    assert first.text.map.span(0, 0) == (len("1\n00:00:01,000 --> 00:00:02,000"),) * 2


VTT_DOC = (
    "WEBVTT - a title\n"
    "Kind: captions\n"
    "\n"
    "NOTE a comment\n"
    "over two lines\n"
    "\n"
    "STYLE\n"
    "::cue { color: red }\n"
    "\n"
    "REGION\n"
    "id:left width:40%\n"
    "\n"
    "intro\n"
    "00:01.000 --> 00:02.000 line:0 align:start\n"
    "<v Bob>Tom &amp; <c.loud>Jerry</c>&nbsp;<00:00:01.500>go &lt;3\n"
    "&lrm;second line\n"
    "\n"
    "00:00:03.000 --> 00:00:0x.000\n"
    "bad\n"
    "\n"
    "00:00:04.000 --> 00:00:05.250\n"
    "last\n"
)


def test_vtt_cues_ids_times_references_and_maps():
    reading = read(VTT_DOC, "vtt")
    first, last = reading.records
    assert (first.id, first.line, first.start, first.end) == ("intro", 13, 1.0, 2.0)
    assert first.text.text == "Tom & Jerry\xa0go <3 \u200esecond line"
    check_map(VTT_DOC, first.text, cue_decode)
    amp = first.text.text.index("&")
    assert VTT_DOC[slice(*first.text.map.span(amp, amp + 1))] == "&amp;"
    markup = set()
    for m in re.finditer(r"<[^>]*>", VTT_DOC):
        markup.update(range(*m.span()))
    assert not covered(first.text) & markup
    # no identifier: the cue's position among the cues
    assert (last.id, last.line, last.start, last.end, last.text.text) == ("3", 21, 4.0, 5.25, "last")


def test_vtt_bad_timestamp_is_a_record_error_on_its_line():
    reading = read(VTT_DOC, "vtt")
    assert [(e.line, "MM:SS.mmm" in e.message) for e in reading.errors] == [(18, True)]


@pytest.mark.parametrize("doc", ["", "1\n00:00:01.000 --> 00:00:02.000\nx\n", "WEBVTTX\n\n", "\nWEBVTT\n"])
def test_vtt_needs_its_header(doc):
    with pytest.raises(FormatError, match="WEBVTT"):
        read(doc, "vtt")


def test_vtt_header_with_bom_and_nothing_else():
    assert read("\ufeffWEBVTT\n", "vtt").records == []


def test_escape_writes_cue_text_as_it_is():
    assert reader("srt").escape("a & <b>") == "a & <b>"


# lines of cue text: not blank, no "-->", no line break; markup-like text left out for SRT
_LINE = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")) | st.sampled_from("&<>\"'é😀ß中"),
    min_size=1,
    max_size=25,
).filter(lambda s: s.strip() and "-->" not in s)
_SRT_LINE = _LINE.filter(lambda s: not re.search(r"</?[A-Za-z][^<>]*>|\{\\[^{}]*\}", s))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(_SRT_LINE, min_size=1, max_size=3), min_size=1, max_size=5))
def test_srt_random_texts_written_by_srt_compose_read_back(cues):
    subs = [
        srt.Subtitle(k + 1, datetime.timedelta(seconds=2 * k), datetime.timedelta(seconds=2 * k + 1), "\n".join(lines))
        for k, lines in enumerate(cues)
    ]
    doc = srt.compose(subs)
    reading = read(doc, "srt")
    assert not reading.errors
    assert [r.text.text for r in reading.records] == [" ".join(lines) for lines in cues]
    assert [(r.id, r.start, r.end) for r in reading.records] == [(str(k + 1), 2.0 * k, 2.0 * k + 1) for k in range(len(cues))]
    for r in reading.records:
        check_map(doc, r.text, cue_decode)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(_LINE, min_size=1, max_size=3), min_size=1, max_size=5))
def test_vtt_random_texts_written_by_webvtt_read_back(cues):
    captions = [
        webvtt.Caption(f"00:00:{2 * k:02d}.000", f"00:00:{2 * k + 1:02d}.500",
                       [html.escape(line, quote=False) for line in lines], identifier=f"c{k}")
        for k, lines in enumerate(cues)
    ]
    doc = webvtt.WebVTT(captions=captions).content
    reading = read(doc, "vtt")
    assert not reading.errors
    assert [r.text.text for r in reading.records] == [" ".join(lines) for lines in cues]
    assert [(r.id, r.start, r.end) for r in reading.records] == [(f"c{k}", 2.0 * k, 2.0 * k + 1.5) for k in range(len(cues))]
    for r in reading.records:
        check_map(doc, r.text, cue_decode)


def _srt_of(lines: list[str]) -> str:
    return srt.compose(
        srt.Subtitle(k + 1, datetime.timedelta(seconds=k), datetime.timedelta(seconds=k + 0.5), line)
        for k, line in enumerate(lines)
    )


def test_10000_cues_are_read():
    doc = _srt_of([f"<i>Line</i> number {k} with café" for k in range(10_000)])
    assert len(read(doc, "srt").records) == 10_000


def test_10000_webvtt_cues_are_read():
    captions = [webvtt.Caption(f"00:{k // 60 % 60:02d}:{k % 60:02d}.000", f"00:{k // 60 % 60:02d}:{k % 60:02d}.500",
                               f"<v Ann>Line &amp; {k}\nwith café") for k in range(10_000)]
    doc = webvtt.WebVTT(captions=captions).content
    assert len(read(doc, "vtt").records) == 10_000


@pytest.mark.shared
def test_real_system_output_as_srt_reads_back():
    hyp, _ = real_lines()
    lines = [line for line in hyp if line.strip()]
    doc = _srt_of(lines)
    reading = read(doc, "srt", Fields())
    assert not reading.errors
    assert [r.text.text for r in reading.records] == lines
    for r in reading.records:
        check_map(doc, r.text, cue_decode)


def test_runs_split_a_text_range_where_markup_lies_between():
    doc = "1\n00:00:01,000 --> 00:00:02,000\n<i>the dog</i> sat\non mat\n"
    [record] = read(doc, "srt").records
    text, m = record.text.text, record.text.map
    assert text == "the dog sat on mat"
    assert [doc[a:b] for a, b in m.runs(0, len(text))] == ["the dog", " sat\non mat"]
    assert [doc[a:b] for a, b in m.runs(4, 8)] == ["dog", " "]  # a word and the space after its tag
    assert m.runs(8, 11) == [m.span(8, 11)] and m.runs(3, 3) == [m.span(3, 3)]
