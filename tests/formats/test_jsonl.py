"""The JSONL reader: fields by name, default or dotted path; every character of every text maps
to the raw characters of its JSON string literal, through every escape json writes."""

from __future__ import annotations

import json

import pytest
from formats_support import assert_json_map, shared, texts
from hypothesis import given, settings
from hypothesis import strategies as st

from scorelens.formats import Fields, FormatError, RecordError, format_of, read
from scorelens.formats.jsonl import escape


def segments(record):
    return [s for s in (record.text, *record.references, record.source) if s is not None]


def test_defaults_ids_and_maps():
    doc = (
        '{"id": 3, "prediction": "caf\\u00e9 \\ud83d\\ude00 \\"x\\"\\n", "reference": "r", "src": "s"}\n'
        '{"id": "b", "prediction": "plain", "reference": "r2", "src": "s2"}\n'
    )
    reading = read(doc, "jsonl")
    assert reading.errors == []
    assert reading.fields == Fields(text="prediction", references=("reference",), source="src", id="id")
    first, second = reading.records
    assert (first.line, first.id, first.text.text) == (1, "3", 'café 😀 "x"\n')
    assert (second.line, second.id, second.text.text, second.source.text) == (2, "b", "plain", "s2")
    for record in reading.records:
        for segment in segments(record):
            assert_json_map(doc, segment)
    # the emoji is one character written as twelve
    i = first.text.text.index("😀")
    a, b = first.text.map.span(i, i + 1)
    assert doc[a:b] == "\\ud83d\\ude00"


def test_a_literal_without_escapes_is_one_piece():
    doc = '{"hypothesis": "a plain text", "ref": "x"}\n'
    record = read(doc, "jsonl").records[0]
    assert len(record.text.map.pieces) == 1
    a, b = record.text.map.span(0, len(record.text.text))
    assert doc[a:b] == "a plain text"


def test_errors_leave_the_other_records():
    doc = "\n".join(
        [
            '{"prediction": "one"}',
            '{"prediction": "two", }',  # invalid
            "",  # blank: skipped
            "[1, 2]",  # not an object
            '{"prediction": 5}',  # wrong type
            '{"other": "x"}',  # missing
            '{"prediction": "six"} trailing',
            '{"prediction": "seven"}',
        ]
    )
    reading = read(doc, "jsonl")
    assert [r.text.text for r in reading.records] == ["one", "seven"]
    assert [r.line for r in reading.records] == [1, 8]
    errors = {e.line: e.message for e in reading.errors}
    assert set(errors) == {2, 4, 5, 6, 7}
    assert errors[2].startswith("invalid JSON: Expecting property name") and "column 23" in errors[2]
    assert errors[4] == "not a JSON object but an array"
    assert errors[5] == "field 'prediction' is a number, not a string"
    assert errors[6] == "no field 'prediction'"
    assert errors[7].startswith("invalid JSON: Extra data")
    assert reading.errors[0].format("h.jsonl").startswith("h.jsonl:2: error: invalid JSON")


def test_no_text_field_names_the_fields_found():
    with pytest.raises(FormatError, match=r"none of prediction, .*'text', 'gold'"):
        read('{"text": "a", "gold": "b"}\n', "jsonl")
    reading = read('{"text": "a", "gold": "b"}\n', "jsonl", Fields(text="text"))
    assert reading.fields == Fields(text="text", references=("gold",))
    assert reading.records[0].references[0].text == "b"


def test_a_file_of_one_side_may_call_its_text_text():
    hypotheses = read('{"id": "a", "text": "h"}\n', "jsonl")
    assert hypotheses.fields == Fields(text="text", id="id") and hypotheses.records[0].text.text == "h"
    references = read('{"id": "a", "text": "r"}\n', "jsonl", Fields(references_only=True))
    assert references.fields.references == ("text",) and references.records[0].references[0].text == "r"
    sources = read('{"id": "a", "text": "s"}\n', "jsonl", Fields(sources_only=True))
    assert sources.records[0].text.text == "s"
    # the named defaults come first
    assert read('{"text": "t", "mt": "h"}\n', "jsonl").fields.text == "mt"
    with pytest.raises(FormatError, match=r"none of reference, .*, label, text \(the fields are: 'id', 'ref_text'\); name it with --ref-field"):
        read('{"id": "a", "ref_text": "r"}\n', "jsonl", Fields(references_only=True))
    # each error says how to name the field
    with pytest.raises(FormatError, match=r"\(the fields are: 'out'\); name it with --hyp-field \(hypothesis_field in a \[\[pair\]\]"):
        read('{"out": "h"}\n', "jsonl")
    with pytest.raises(FormatError, match=r"name it with --source-field$"):
        read('{"out": "h"}\n', "jsonl", Fields(sources_only=True))


def test_list_references_dotted_paths_and_indexes():
    doc = (
        '{"meta": {"uid": 7, "out": {"text": "h\\u00e9"}}, "refs": ["r1", "r\\t2", "r3"],'
        ' "pair": ["src text", "other"]}\n'
        '{"meta": {"uid": 8, "out": {"text": "h2"}}, "refs": [], "pair": ["s2", "o"]}\n'
    )
    fields = Fields(text="meta.out.text", references=("refs",), source="pair.0", id="meta.uid")
    reading = read(doc, "jsonl", fields)
    assert reading.errors == []
    first, second = reading.records
    assert first.text.text == "hé" and first.id == "7" and first.source.text == "src text"
    assert [r.text for r in first.references] == ["r1", "r\t2", "r3"]
    assert second.references == () and second.id == "8"
    for record in reading.records:
        for segment in segments(record):
            assert_json_map(doc, segment)


def test_a_key_with_a_dot_wins_over_a_path():
    reading = read('{"a.b": "key", "a": {"b": "path"}}\n', "jsonl", Fields(text="a.b"))
    assert reading.records[0].text.text == "key"


def test_wrong_reference_and_id_types():
    doc = '{"prediction": "a", "reference": ["x", 1]}\n{"prediction": "b", "reference": "y", "id": [1]}\n'
    reading = read(doc, "jsonl", Fields(references=("reference.0",), id="id"))
    assert [(e.line, e.message) for e in reading.errors] == [
        (1, "no field 'id'"),
        (2, "no field 'reference.0'"),
    ]
    reading = read(doc.split("\n", 1)[1], "jsonl", Fields(id="id"))
    assert reading.errors == [RecordError(1, "field 'id' is an array, not a string or a number")]
    reading = read(doc, "jsonl")
    assert reading.errors[0].message == "field 'reference' is an array, not a string or a list of strings"
    assert [r.references[0].text for r in reading.records] == ["y"]


def test_duplicate_keys_take_the_last_as_json_does():
    doc = '{"prediction": "first", "prediction": "last"}\n'
    record = read(doc, "jsonl").records[0]
    assert record.text.text == "last"
    assert_json_map(doc, record.text)


def test_nested_values_beside_the_fields_and_whitespace():
    doc = '  { "x" : {"prediction": "no"} ,"prediction" :\t"yes\\/" , "l": [{"a": "]"}] }  \r\n'
    record = read(doc, "jsonl").records[0]
    assert record.text.text == "yes/"
    assert_json_map(doc, record.text)


def test_crlf_bom_and_line_numbers():
    doc = '\ufeff{"hyp": "a"}\r\n\r\n{"hyp": "b\\r"}\r{"hyp": "c"}'
    reading = read(doc, "jsonl")
    assert [(r.line, r.text.text) for r in reading.records] == [(1, "a"), (3, "b\r"), (4, "c")]
    for record in reading.records:
        assert_json_map(doc, record.text)


def test_extensions():
    assert format_of("x.jsonl") == format_of("x.NDJSON") == "jsonl"


@given(st.data())
@settings(max_examples=150, deadline=None)
def test_random_texts_round_trip_and_map(data):
    ensure_ascii = data.draw(st.booleans())
    separators = data.draw(st.sampled_from([None, (",", ":"), (" , ", " : ")]))
    break_ = data.draw(st.sampled_from(["\n", "\r\n"]))
    items = data.draw(
        st.lists(st.tuples(texts, st.lists(texts, max_size=3), texts, st.integers(-5, 10**12)), max_size=5)
    )
    lines = []
    for hyp, refs, src, id_ in items:
        record = {"id": id_, "meta": {"n": [1, "]}"]}, "hypothesis": hyp, "references": refs, "source": src}
        lines.append(json.dumps(record, ensure_ascii=ensure_ascii, separators=separators))
    doc = break_.join(lines) + break_
    reading = read(doc, "jsonl")
    assert reading.errors == []
    assert [(r.text.text, [s.text for s in r.references], r.source.text, r.id) for r in reading.records] == [
        (hyp, refs, src, str(id_)) for hyp, refs, src, id_ in items
    ]
    for record in reading.records:
        for segment in segments(record):
            assert_json_map(doc, segment)


@given(texts)
@settings(max_examples=200, deadline=None)
def test_escape_writes_what_json_reads(text):
    written = escape(text)
    assert json.loads('"' + written + '"') == text
    assert "\n" not in written and '"' not in written.replace('\\"', "")
    written.encode("utf-8")  # no lone surrogate left raw


def test_compare_mt_lines_round_trip(tmp_path):
    hyps = shared("compare-mt", "multited.sys1.jpn").read_text(encoding="utf-8").split("\n")[:-1]
    refs = shared("compare-mt", "multited.ref.jpn").read_text(encoding="utf-8").split("\n")[:-1]
    for ensure_ascii in (True, False):
        path = tmp_path / f"ted-{ensure_ascii}.jsonl"
        with path.open("w", encoding="utf-8", newline="") as f:
            for i, (h, r) in enumerate(zip(hyps, refs)):
                f.write(json.dumps({"id": i, "hypothesis": h, "reference": r}, ensure_ascii=ensure_ascii) + "\n")
        doc = path.read_text(encoding="utf-8")
        reading = read(doc, "jsonl")
        assert reading.errors == []
        assert [r.text.text for r in reading.records] == hyps
        assert [r.references[0].text for r in reading.records] == refs
        for record in reading.records[:200]:
            assert_json_map(doc, record.text)


def test_lone_surrogates_and_short_escapes():
    # a high surrogate not followed by a low one stays one character, as json decodes it
    doc = '{"hyp": "\\ud83d\\u0041 \\udc00\\ud800 \\b\\f\\/ \\uD83D\\uDE00"}\n'
    record = read(doc, "jsonl").records[0]
    assert record.text.text == "\ud83dA \udc00\ud800 \b\f/ \U0001f600"
    assert_json_map(doc, record.text)
    assert len(record.text.map.pieces) == len(record.text.text)  # every character its own piece here


@pytest.mark.parametrize(
    "line",
    [
        '{"prediction":"a\\"b","n":[1,{"x":"}"}],"prediction":"last"}',  # compact, duplicate key
        '{"prediction": "a\\"b", "n": [1, {"x": "}"}], "prediction": "last"}',  # as json.dumps writes
        '{ "prediction" : "a\\"b" ,"n":[1,{"x":"}"}], "prediction":"last" }',  # any other spacing
    ],
)
def test_every_spacing_reads_alike(line):
    record = read(line + "\n", "jsonl").records[0]
    assert record.text.text == "last"
    assert_json_map(line, record.text)
    a, b = record.text.map.span(0, 4)
    assert line[a - 1 : b + 1] == '"last"' and line.rindex('"last"') == a - 1


@pytest.mark.parametrize("line", ['{"prediction":"a",}', '{"prediction":"a"}}', '{"prediction" "a"}', '{"prediction":}'])
def test_invalid_compact_lines_get_jsons_message(line):
    (error,) = read(line, "jsonl").errors
    with pytest.raises(json.JSONDecodeError) as e:
        json.loads(line)
    assert error.message == f"invalid JSON: {e.value.msg} (column {e.value.colno})"
