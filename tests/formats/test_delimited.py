"""The TSV/CSV reader: csv's values, each character mapped to the document's own (a quote in a
quoted field to its doubled pair), records spanning lines, columns by name or number."""

from __future__ import annotations

import csv
import io
import re

import pytest
from formats_support import assert_csv_map, shared, texts
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorelens.formats import Fields, FormatError, RecordError, escaper, format_of, read
from scorelens.formats import delimited
from scorelens.formats.delimited import escape


def written(rows, delimiter=",", lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL):
    buf = io.StringIO()
    csv.writer(buf, delimiter=delimiter, lineterminator=lineterminator, quoting=quoting).writerows(rows)
    return buf.getvalue()


def breaks(text):
    return len(re.findall(r"\r\n|\r|\n", text))


def check_maps(doc, reading):
    for record in reading.records:
        for segment in (record.text, *record.references, record.source):
            if segment is not None:
                assert_csv_map(doc, segment)


def test_quoted_newlines_and_line_numbers():
    doc = written(
        [
            ["id", "hypothesis", "reference"],
            ["a", 'He said "hi",\nthen left', "one"],
            ["b", "plain", "two\r\nlines"],
            ["c", "x", "y"],
        ]
    )
    reading = read(doc, "csv")
    assert reading.errors == []
    assert reading.fields == Fields(text="hypothesis", references=("reference",), id="id")
    assert [(r.line, r.id, r.text.text) for r in reading.records] == [
        (2, "a", 'He said "hi",\nthen left'),
        (4, "b", "plain"),
        (6, "c", "x"),
    ]
    check_maps(doc, reading)
    text = reading.records[0].text
    i = text.text.index('"')
    a, b = text.map.span(i, i + 1)
    assert doc[a:b] == '""'


def test_short_rows_and_blank_lines():
    doc = "hyp,ref,src\nh1,r1,s1\n\nh2,r2\nh3\nh4,r4,s4,extra\n"
    reading = read(doc, "csv")
    assert [(r.line, r.text.text, r.source.text) for r in reading.records] == [(2, "h1", "s1"), (6, "h4", "s4")]
    assert reading.errors == [
        RecordError(4, "2 columns, no column 'src' (column 3)"),
        RecordError(5, "1 column, no column 'ref' (column 2)"),
    ]
    check_maps(doc, reading)


def test_columns_by_number_and_by_name_ignoring_case():
    doc = "ID\tOutput\tGold Reference\n1\tthe cat\tthe cat sat\n"
    reading = read(doc, "tsv", Fields(text="2", references=(" gold reference",), id="id"))
    record = reading.records[0]
    assert (record.id, record.text.text, record.references[0].text) == ("1", "the cat", "the cat sat")
    assert read(doc, "tsv").fields == Fields(text="Output", id="ID")
    check_maps(doc, reading)


def test_no_such_column_and_no_text_column():
    with pytest.raises(FormatError, match=r"no column 'nope' in the header \(the columns are: 'a', 'b'\)"):
        read("a,b\n1,2\n", "csv", Fields(text="nope"))
    with pytest.raises(FormatError, match=r"no text column: none of prediction,.*'a', 'b'"):
        read("a,b\n1,2\n", "csv")


def test_a_file_of_one_side_may_call_its_column_text():
    assert read("id\tText\na\th\n", "tsv").records[0].text.text == "h"
    references = read("id,text\na,r\n", "csv", Fields(references_only=True))
    assert references.records[0].references[0].text == "r"
    with pytest.raises(FormatError, match="no text column"):  # beside a reference, "text" may be the source
        read("text,reference\ns,r\n", "csv")


def test_a_tsv_texts_own_quote_that_takes_in_rows_is_named_not_read_as_one_text():
    doc = 'id\thyp\tref\n1\t"Hi, she said\tHi she said\n2\tb\tb\n3\tc"\tc\n4\td\td\n'
    reading = read(doc, "tsv")
    assert [r.id for r in reading.records] == ["4"]
    [error] = reading.errors
    assert error.line == 2 and "runs over lines 2-4 and holds tabs, as rows do" in error.message and "lines 3-4" in error.message
    # a quoted text over lines is one text, with tabs too where no line of it has a row's; so is a CSV's
    assert read('id\thyp\tref\n1\t"a\nb\tc"\tr\n', "tsv").records[0].text.text == "a\nb\tc"
    assert read('id,hyp\n1,"a\tb\nc"\n', "csv").records[0].text.text == "a\tb\nc"


def test_without_a_header():
    reading = delimited.read("x,y\n'a',b\n", Fields(references=("2",)), "csv", header=False)
    assert [(r.line, r.text.text, r.references[0].text) for r in reading.records] == [(1, "x", "y"), (2, "'a'", "b")]
    with pytest.raises(FormatError, match="columns are numbers"):
        delimited.read("x\n", Fields(text="hyp"), "csv", header=False)


def test_tsv_quotes_as_csv_reads_them():
    # a quoted TSV field (as pandas writes it) and csv's lenient corners: a quote inside an
    # unquoted field is literal, text after a closing quote is kept
    doc = 'hyp\tref\n"a\tb ""c"""\tx"y\n"q"tail\t"open\n'
    reading = read(doc, "tsv")
    assert [(r.text.text, r.references[0].text) for r in reading.records] == [
        ('a\tb "c"', 'x"y'),
        ("qtail", "open\n"),
    ]
    check_maps(doc, reading)


def test_bom_and_extensions():
    doc = "\ufeffhypothesis,reference\nh,r\n"
    reading = read(doc, "csv")
    assert reading.fields.text == "hypothesis" and reading.records[0].text.text == "h"
    check_maps(doc, reading)
    assert (format_of("a.tsv"), format_of("a.CSV")) == ("tsv", "csv")


def test_a_csv_of_semicolons_as_spreadsheets_write_where_the_comma_is_a_decimal_mark():
    doc = '\ufeffid;hypothesis;reference\n1;1,5 kg;1,5 kg\n2;"a; ""b""";a b\n'
    reading = read(doc, "csv")
    assert reading.errors == [] and reading.fields.text == "hypothesis"
    assert [(r.id, r.text.text, r.references[0].text) for r in reading.records] == [("1", "1,5 kg", "1,5 kg"), ("2", 'a; "b"', "a b")]
    check_maps(doc, reading)
    bare = reading.records[0].text
    assert escaper("csv")("2,5 kg", bare) == "2,5 kg"  # a comma stays inside a field of semicolons
    with pytest.raises(ValueError):
        escaper("csv")("a; b", bare)
    # a header with a comma is read with commas, whatever its texts hold
    assert read("hypothesis,reference\na;b,c\n", "csv").records[0].text.text == "a;b"


@given(st.data())
@settings(max_examples=150, deadline=None)
def test_random_texts_round_trip_and_map(data):
    delimiter = data.draw(st.sampled_from([",", "\t", ";"]))
    terminator = data.draw(st.sampled_from(["\r\n", "\n"]))
    # csv quotes a field for the line terminator's characters only: a "\r" with "\n" lines would
    # go unquoted (and end the row), so those are written with every field quoted
    quoting = csv.QUOTE_MINIMAL if terminator == "\r\n" else csv.QUOTE_ALL
    rows = data.draw(st.lists(st.tuples(texts, texts, texts), max_size=6))
    # csv cannot tell a row of one empty field from a blank line: give every row an id
    body = [[str(i), h, r, s] for i, (h, r, s) in enumerate(rows)]
    # a TSV text with a line of a row's tabs after a break is read as rows a quote took in
    assume(delimiter != "\t" or not any(line.count("\t") >= 3 for row in body for v in row for line in v.split("\n")[1:]))
    doc = written([["id", "hypothesis", "reference", "source"], *body], delimiter, terminator, quoting)
    reading = read(doc, "tsv" if delimiter == "\t" else "csv")
    assert reading.errors == []
    assert [(r.id, r.text.text, r.references[0].text, r.source.text) for r in reading.records] == [
        tuple(row) for row in body
    ]
    check_maps(doc, reading)
    # each record starts on the line after the breaks (as LSP counts them) of the rows before it
    line = 1 + breaks(written([["id", "hypothesis", "reference", "source"]], delimiter, terminator))
    starts = []
    for row in body:
        starts.append(line)
        line += breaks(written([row], delimiter, terminator, quoting))
    assert [r.line for r in reading.records] == starts


def test_record_lines_count_the_breaks_inside_quotes():
    doc = 'hyp\n"a\nb\r\nc"\nd\n"e\rf"\ng\nh\ri\n'
    reading = read(doc, "csv")
    assert [(r.line, r.text.text) for r in reading.records] == [
        (2, "a\nb\r\nc"), (5, "d"), (6, "e\rf"), (8, "g"), (9, "h"), (10, "i")
    ]
    check_maps(doc, reading)


def test_values_csv_reads_otherwise_map_to_their_whole_field():
    # where the fields found here are not csv's values, each value maps to its whole field
    doc = 'a,"b""c",d'
    segments = delimited._fields(doc, 0, (0, len(doc), len(doc)), ",", ["A", "B", "D"])
    assert [s.text for s in segments] == ["A", "B", "D"]
    assert [s.map.span(0, 1) for s in segments] == [(0, 1), (2, 8), (9, 10)]
    segments = delimited._fields(doc, 0, (0, len(doc), len(doc)), ",", ["whole"])
    assert segments[0].map.span(0, 1) == (0, len(doc))


@given(texts)
@settings(max_examples=200, deadline=None)
def test_escape_in_a_quoted_field(text):
    doc = 'hyp\n"' + escape(text) + '"\n'
    assert read(doc, "csv").records[0].text.text == text


def test_escape_in_an_unquoted_field():
    assert escape('say "x"', quoted=False) == 'say "x"'
    assert escape("a\tb", quoted=False) == "a\tb"
    with pytest.raises(ValueError):
        escape("a,b", quoted=False)
    with pytest.raises(ValueError):
        escape("a\tb", quoted=False, delimiter="\t")


def test_a_replacement_is_written_as_its_field_is_quoted_or_not():
    write = escaper("csv")
    bare, quoted = (r.text for r in read('hyp\nsay x\n"say x"\n', "csv").records)
    assert write('"x"', quoted) == '""x""'
    assert write('x "y"', bare) == 'x "y"'
    for text in ("5,000", '"x"'):  # a comma splits the field; a leading quote may open it
        with pytest.raises(ValueError):
            write(text, bare)
    assert escaper("tsv")("5,000", read("hyp\nsay x\n", "tsv").records[0].text) == "5,000"


def test_compare_mt_lines_round_trip(tmp_path):
    hyps = shared("compare-mt", "ted.sys2.detok.eng").read_text(encoding="utf-8").split("\n")[:-1]
    refs = shared("compare-mt", "ted.ref.detok.eng").read_text(encoding="utf-8").split("\n")[:-1]
    for name, delimiter in (("csv", ","), ("tsv", "\t")):
        path = tmp_path / f"ted.{name}"
        with path.open("w", encoding="utf-8", newline="") as f:
            csv.writer(f, delimiter=delimiter).writerows([["hypothesis", "reference"], *zip(hyps, refs)])
        doc = path.read_text(encoding="utf-8")
        reading = read(doc, name)
        assert reading.errors == []
        assert [r.text.text for r in reading.records] == hyps
        assert [r.references[0].text for r in reading.records] == refs
        check_maps(doc, reading)
