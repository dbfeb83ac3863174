"""Hostile records: each a RecordError naming its line, never a traceback, and the rest of the
file still read (JSONL's endless integers, SRT's endless hours, PO's broken plurals and unclosed
strings, CSV's huge fields and unclosed quotes, reference units without a translation)."""

from __future__ import annotations

import csv
import sys

import pytest

from scorelens.cli import main
from scorelens.formats import Fields, read

REFERENCE = Fields(references_only=True)


# -- JSONL ------------------------------------------------------------------------------------


@pytest.mark.parametrize("indent", ["", " "])  # json.dumps's layout, and the slower path for any other
def test_jsonl_an_integer_past_pythons_digits_is_one_record_error(indent):
    digits = sys.get_int_max_str_digits() + 1
    doc = (
        f'{indent}{{"id": "s1", "prediction": "a", "reference": "a", "n": {"1" * digits}}}\n'
        '{"id": "s2", "prediction": "b", "reference": "b"}\n'
    )
    reading = read(doc, "jsonl")
    assert [r.id for r in reading.records] == ["s2"]
    assert [e.line for e in reading.errors] == [1]
    assert f"{digits - 1:,} digits" in reading.errors[0].message


def test_jsonl_cli_scores_the_other_records(tmp_path, capsys):
    path = tmp_path / "j9.jsonl"
    path.write_text(
        '{"id":"s1","prediction":"a","reference":"a","n":' + "1" * 5000 + "}\n"
        '{"id":"s2","prediction":"b c","reference":"b c"}\n'
    )
    assert main(["score", str(path), "-m", "wer"]) == 2  # the rest scored, but not all of the file read
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert f"{path}:1: error: a number of more than" in captured.err
    assert "segments: 1" in captured.out


# -- SRT and WebVTT ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "timing",
    [
        "99999999999:00:04,000 --> 99999999999:00:06,000",  # past timedelta's range
        "00:00:04," + "9" * 30 + " --> 00:00:06,000",
        "1" * 5000 + ":00:04,000 --> 00:00:06,000",  # past int()'s digits
    ],
)
def test_srt_a_time_too_large_is_one_record_error(timing):
    doc = f"1\n00:00:01,000 --> 00:00:02,000\nhello\n\n2\n{timing}\nbad\n\n3\n00:00:07,000 --> 00:00:08,000\nworld\n"
    reading = read(doc, "srt")
    assert [r.text.text for r in reading.records] == ["hello", "world"]
    assert [(e.line, e.message) for e in reading.errors] == [(6, "not an SRT cue: its number or a time is too large to read")]


def test_srt_an_index_past_ints_digits_is_one_record_error():
    doc = "1" * 5000 + "\n00:00:01,000 --> 00:00:02,000\nbad\n\n2\n00:00:03,000 --> 00:00:04,000\nok\n"
    reading = read(doc, "srt")
    assert [r.text.text for r in reading.records] == ["ok"]
    assert [(e.line, e.message) for e in reading.errors] == [(2, "not an SRT cue: its number or a time is too large to read")]


def test_webvtt_a_time_too_large_is_one_record_error():
    doc = "WEBVTT\n\n00:01.000 --> 00:02.000\nhello\n\n99999999999:00:04.000 --> 99999999999:00:06.000\nbad\n\n00:07.000 --> 00:08.000\nworld\n"
    reading = read(doc, "vtt")
    assert [r.text.text for r in reading.records] == ["hello", "world"]
    assert [e.line for e in reading.errors] == [6]


# -- PO ---------------------------------------------------------------------------------------

HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


def test_po_a_plural_entry_without_msgstr_0_is_one_record_error():
    doc = HEADER + 'msgid "file"\nmsgid_plural "files"\nmsgstr[1] "Dateien"\n\nmsgid "a"\nmsgstr "b"\n'
    reading = read(doc, "po")
    assert [(r.id, r.text.text) for r in reading.records] == [("a", "b")]
    assert [e.line for e in reading.errors] == [5]
    assert "without msgstr[0]" in reading.errors[0].message


@pytest.mark.parametrize(
    "entry, line",
    [
        ('msgid "x"\nmsgstr "y\n', 2),  # polib reads an empty msgstr
        ('msgid "x\nmsgstr "y"\n', 1),  # polib drops the entry without a word
        ('msgid "x"\nmsgstr "y"\n"more\n', 3),  # polib drops the last character
        ('msgid "x"\nmsgstr "y\\"\n', 2),  # the last quote escaped
    ],
)
def test_po_an_unterminated_string_is_named_on_its_line(entry, line):
    doc = HEADER + entry + '\nmsgid "a"\nmsgstr "b"\n'
    reading = read(doc, "po")
    assert [(r.id, r.text.text) for r in reading.records] == [("a", "b")]
    assert [(e.line, e.message) for e in reading.errors] == [
        (4 + line, "unterminated string: no closing quote on this line; its entry is not read")
    ]


def test_po_an_untranslated_reference_entry_is_left_out():
    doc = HEADER + 'msgid "x"\nmsgstr ""\n\nmsgid "a"\nmsgstr "b"\n'
    assert [(r.id, r.text) for r in read(doc, "po").records][0] == ("x", None)  # a hypothesis: untranslated
    reading = read(doc, "po", REFERENCE)
    assert [r.id for r in reading.records] == ["a"]
    assert [e.line for e in reading.errors] == [5]
    assert "untranslated" in reading.errors[0].message


# -- CSV and TSV ------------------------------------------------------------------------------


def test_csv_a_field_over_csvs_own_limit_is_read_and_the_limit_put_back():
    before = csv.field_size_limit()
    long = "x" * (before + 1)
    reading = read(f"id,prediction,reference\n1,{long},a\n2,b,\"{long}\"\n", "csv")
    assert reading.errors == []
    assert [(r.text.text, r.references[0].text) for r in reading.records] == [(long, "a"), ("b", long)]
    assert csv.field_size_limit() == before


@pytest.mark.parametrize("name, delimiter", [("csv", ","), ("tsv", "\t")])
def test_an_unclosed_quote_is_named_where_it_opens(name, delimiter):
    rows = [["id", "prediction", "reference"], ["1", "a", "a"], ["2", '"unterminated', "x"], ["3", "b", "b"], ["4", "c", "c"]]
    doc = "".join(delimiter.join(row) + "\n" for row in rows)
    reading = read(doc, name)
    assert [r.id for r in reading.records] == ["1"]
    assert [e.line for e in reading.errors] == [3]
    assert "never closed" in reading.errors[0].message and "lines 4-5" in reading.errors[0].message


def test_an_unclosed_quote_after_a_closed_multiline_field_is_named_on_its_own_line():
    doc = 'id,prediction,reference\n1,"two\nlines","open\n2,b,b\n'
    reading = read(doc, "csv")
    assert reading.records == []
    assert [e.line for e in reading.errors] == [3]
    assert "(line 4)" in reading.errors[0].message


def test_a_row_a_stray_quote_ran_over_lines_says_which_lines_it_took_in():
    # the quote opened on line 2 is closed on line 3: csv reads both lines as one row, short of a column
    doc = 'id,prediction,reference\n1,"the cat,the cat\n2,a dog"\n3,fine,fine\n'
    reading = read(doc, "csv")
    assert [r.id for r in reading.records] == ["3"]
    assert [(e.line, e.message) for e in reading.errors] == [
        (2, "2 columns, no column 'reference' (column 3); a quoted field runs over lines 2-3, "
            "so csv read line 3 as part of this record")
    ]


def test_an_unclosed_quote_on_the_last_line_is_still_read_as_csv_reads_it():
    reading = read('hyp,ref\nh,"open\n', "csv")
    assert reading.errors == [] and [r.references[0].text for r in reading.records] == ["open\n"]


# -- XLIFF ------------------------------------------------------------------------------------

XLIFF = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
 <file source-language="en" target-language="de" datatype="plaintext" original="a">
  <body>
   <trans-unit id="1"><source>a cat</source><target>eine Katze</target></trans-unit>
   <trans-unit id="2"><source>a dog</source></trans-unit>
   <trans-unit id="3"><source>a bird</source><target/></trans-unit>
  </body>
 </file>
</xliff>
"""


def test_xliff_a_reference_unit_without_a_target_is_left_out_with_an_error():
    hypothesis = read(XLIFF, "xliff")
    assert [(r.id, r.text is None) for r in hypothesis.records] == [("1", False), ("2", True), ("3", False)]
    assert hypothesis.errors == []
    reference = read(XLIFF, "xliff", REFERENCE)
    assert [(r.id, r.text.text) for r in reference.records] == [("1", "eine Katze"), ("3", "")]
    assert [(e.line, e.message) for e in reference.errors] == [(6, "unit '2' has no <target>: untranslated, no reference; left out")]


def test_xliff_cli_a_reference_without_a_target_is_no_empty_reference(tmp_path, capsys):
    hyp, ref = tmp_path / "x.hyp.xlf", tmp_path / "x.ref.xlf"
    hyp.write_text(XLIFF.replace('<source>a dog</source>', '<source>a dog</source><target>ein Hund</target>'))
    ref.write_text(XLIFF)
    assert main(["check", str(hyp), "-r", str(ref), "-m", "wer"]) == 2
    err = capsys.readouterr().err
    assert f"{ref}:6: error: unit '2' has no <target>" in err
    assert f"{hyp}:6: warning: id '2' has no reference; left out" in err
