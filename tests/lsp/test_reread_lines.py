"""Typing within the lines of a formatted document of one-line records (JSONL, TRN) reads only
the edited lines again; any other edit reads the documents whole. Either way the review is as
a whole read of the edited text makes it: the corpus's texts, every character's place, the
ids, the lines and the records' problems."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path

import pytest
from lsprotocol import types
from scorelens.lsp import formatted, handlers
from scorelens.lsp.documents import LineEdit, OpenDocument
from scorelens.lsp.formatted import Edited, note_edit, read_sides
from scorelens.lsp.pairing import HELD, Pairing
from scorelens.lsp.reviews import Review
from scorelens.lsp.server import ScoreLensServer
from scorelens.lsp.settings import Settings, scoring_config

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "formats"
RECORDS = [
    {"id": "a", "prediction": "the cat sat on the mat", "reference": "the cat sat on the mat"},
    {"id": "b", "note": "😀 é", "prediction": "a dog barked at the postman", "reference": "the dog barked at the mailman"},
    {"id": "c", "prediction": "caf\u00e9 \"noir\" is good", "reference": "café noir is very good"},
    {"id": "d", "prediction": "one two three", "reference": "one two four"},
]


def _jsonl(records=RECORDS) -> str:
    return "\n".join(json.dumps(r, ensure_ascii=k % 2 == 0) for k, r in enumerate(records)) + "\n"


@pytest.fixture
async def ls(monkeypatch):
    server = ScoreLensServer()
    server.protocol.set_writer(type("Sink", (), {"write": lambda self, data: None, "close": lambda self: None})())
    server.reads = []  # the lines each reading of a formatted text was given

    def counted(text, name, fields):
        server.reads.append(text.count("\n") + 1)
        return read(text, name, fields)

    read = formatted.read
    monkeypatch.setattr(formatted, "read", counted)
    yield server
    _settle()


def _settle() -> None:
    # the re-scores an edit schedules are not what is tested here
    for task in asyncio.all_tasks():
        if task is not asyncio.current_task():
            task.cancel()


def _open(ls, uri: str, text: str, pairing: Pairing) -> Review:
    ls.documents.open[uri] = OpenDocument.of(uri, 1, "plaintext", text)
    review = Review(pairing.hypothesis, pairing, Settings(), replace(scoring_config(Settings()), segmentation="line"), None)
    ls.reviews[review.uri] = review
    ls.load(review)
    assert review.corpus is not None, review.problems
    ls.reads.clear()
    return review


def _held(ls, text: str = None) -> tuple[Review, str]:
    uri = "file:///w/eval.jsonl"
    return _open(ls, uri, _jsonl() if text is None else text, Pairing(uri, (uri,), HELD, held=True)), uri


async def _edit(ls, uri: str, *changes: tuple[int, int, int, int, str]) -> None:
    """One didChange of ``(line, column, end line, end column, text)`` changes (UTF-16 columns),
    and the reading of the documents whole it may leave to the re-score."""
    _change(ls, uri, *changes)
    for review in list(ls.reviews.values()):
        await ls.read_again(review)
    _settle()


def _change(ls, uri: str, *changes: tuple[int, int, int, int, str]) -> None:
    doc = ls.documents.open[uri]
    handlers.did_change(
        ls,
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=doc.version + 1, uri=uri),
            [
                types.TextDocumentContentChangePartial(types.Range(types.Position(a, b), types.Position(c, d)), text)
                for a, b, c, d, text in changes
            ],
        ),
    )


def _at(ls, uri: str, line: int, marker: str, skip: int = 0) -> tuple[int, int]:
    """(line, UTF-16 column) just before ``marker`` on a line, ``skip`` characters on."""
    text = ls.documents.open[uri].lines[line]
    column = text.index(marker) + skip
    return line, len(text[:column].encode("utf-16-le")) // 2


def _as_read_whole(ls, review: Review) -> None:
    """The review is what reading its documents whole gives."""
    uris = dict.fromkeys((review.uri, *review.pairing.references))
    reads = list(ls.reads)
    whole = read_sides(review.pairing, {uri: ls.documents.text(uri) for uri in uris}, {})
    ls.reads[:] = reads  # (not the review's)
    assert whole.by_line
    assert [list(review.corpus.texts_of(side)) for side in range(len(whole.texts))] == whole.texts
    assert review.record_problems == whole.problems
    for side, expected in enumerate(whole.layouts):
        layout = review.layout(side)
        assert layout.lines == expected.lines
        assert layout.first_lines() == expected.first_lines()
        assert [layout.segment_at(line) for line in range(len(expected.lines))] == [expected.segment_at(line) for line in range(len(expected.lines))]
        for segment, text in enumerate(whole.texts[side]):
            assert (layout.id(segment), layout.shape(segment), layout.editable(segment)) == (expected.id(segment), expected.shape(segment), expected.editable(segment))
            assert [layout.position(segment, k) for k in range(len(text) + 1)] == [expected.position(segment, k) for k in range(len(text) + 1)]
            assert [layout.span(segment, k, k + 2) for k in range(len(text))] == [expected.span(segment, k, k + 2) for k in range(len(text))]


async def test_typing_in_a_field_reads_that_line_alone(ls):
    review, uri = _held(ls)
    corpus = review.corpus
    # lengthen record b's prediction, before a non-BMP character's line and after it
    line, col = _at(ls, uri, 1, "a dog")
    await _edit(ls, uri, (line, col, line, col, "so "))
    assert ls.reads == [1]
    assert review.corpus is corpus and corpus.texts_of(0)[1] == "so a dog barked at the postman"
    _as_read_whole(ls, review)
    # shorten it, then type an escape and a quote, JSON-escaped as a user would type them
    line, col = _at(ls, uri, 1, "so a dog barked at")
    await _edit(ls, uri, (line, col, line, col + len("so a dog "), ""))
    line, col = _at(ls, uri, 1, "barked")
    await _edit(ls, uri, (line, col, line, col, 'caf\\u00e9 \\"x\\" '))
    assert ls.reads == [1, 1, 1]
    assert corpus.texts_of(0)[1] == 'café "x" barked at the postman'
    _as_read_whole(ls, review)
    # two changes in one notification, on two lines: the lines between are read too
    c_line, c_col = _at(ls, uri, 2, "is good")
    d_line, d_col = _at(ls, uri, 3, "three")
    await _edit(ls, uri, (d_line, d_col, d_line, d_col + 5, "four"), (c_line, c_col, c_line, c_col + 2, "is very"))
    assert ls.reads == [1, 1, 1, 2]
    assert list(corpus.texts_of(0)[2:]) == ['café "noir" is very good', "one two four"]
    _as_read_whole(ls, review)
    # an edit outside the texts (another field) moves their characters, not their texts
    line, col = _at(ls, uri, 1, "😀")
    await _edit(ls, uri, (line, col, line, col + 2, "xyz"))
    assert ls.reads == [1, 1, 1, 2, 1]
    _as_read_whole(ls, review)


async def test_an_unreadable_line_that_stays_unreadable_is_read_alone(ls):
    review, uri = _held(ls, _jsonl() + '{"id": "e", "prediction": "oops\n' + json.dumps(RECORDS[0] | {"id": "f"}) + "\n")
    [problem] = review.record_problems
    line, col = _at(ls, uri, 4, '"prediction"')
    await _edit(ls, uri, (line, col, line, col, '"x": 1, '))
    assert ls.reads == [1]
    [after] = review.record_problems
    assert after.line == 4 and after.message != problem.message  # json's column moved
    _as_read_whole(ls, review)


@pytest.mark.parametrize(
    "what, change",
    [
        ("an id changed", lambda ls, uri: (*_at(ls, uri, 2, '"c"', 1), *_at(ls, uri, 2, '"c"', 2), "z")),
        ("a line's JSON broken", lambda ls, uri: (*_at(ls, uri, 2, "}"), *_at(ls, uri, 2, "}", 1), "")),
        ("a field taken gone", lambda ls, uri: (*_at(ls, uri, 2, '"reference"', 1), *_at(ls, uri, 2, '"reference"', 2), "R")),
        ("a record blanked", lambda ls, uri: (2, 0, 3, 0, "\n")),
        ("a record added", lambda ls, uri: (2, 0, 2, 0, json.dumps(RECORDS[0] | {"id": "new"}) + "\n")),
        ("a line joined", lambda ls, uri: (2, len(ls.documents.open[uri].lines[2]), 3, 0, "")),
        ("the first record's line", lambda ls, uri: (*_at(ls, uri, 0, "cat"), *_at(ls, uri, 0, "cat", 3), "dog")),
        ("a field the first record lacks", lambda ls, uri: (*_at(ls, uri, 2, '"id"'), *_at(ls, uri, 2, '"id"'), '"source": "s", ')),
    ],
)
async def test_an_edit_that_changes_more_than_texts_reads_the_document_whole(ls, what, change):
    review, uri = _held(ls)
    await _edit(ls, uri, change(ls, uri))
    assert ls.reads and ls.reads[-1] == len(ls.documents.open[uri].lines), what
    _as_read_whole(ls, review)


async def test_fixing_a_broken_line_reads_the_document_whole(ls):
    review, uri = _held(ls, _jsonl() + '{"id": "e", "prediction": "oops", "reference": "oops"\n')
    line = len(ls.documents.open[uri].lines) - 2
    await _edit(ls, uri, (line, len(ls.documents.open[uri].lines[line]), line, len(ls.documents.open[uri].lines[line]), "}"))
    assert ls.reads[-1] == len(ls.documents.open[uri].lines)
    assert not review.record_problems and len(review.corpus.texts_of(0)) == 5
    _as_read_whole(ls, review)


async def test_an_open_reference_is_read_again_where_it_is_typed_in(ls, tmp_path):
    hyp, ref = (tmp_path / "news.hyp.jsonl").as_uri(), (tmp_path / "news.ref.jsonl").as_uri()
    ref_text = "\n".join(json.dumps({"id": r["id"], "reference": r["reference"]}) for r in reversed(RECORDS)) + "\n"
    ls.documents.open[ref] = OpenDocument.of(ref, 1, "jsonl", ref_text)
    hyp_text = "\n".join(json.dumps({"id": r["id"], "prediction": r["prediction"]}) for r in RECORDS) + "\n"
    review = _open(ls, hyp, hyp_text, Pairing(hyp, (ref,), "test"))
    # record "b" is the reference file's third line, paired with the hypothesis's second
    line, col = _at(ls, ref, 2, "mailman")
    await _edit(ls, ref, (line, col, line, col + 4, "post"))
    assert ls.reads == [1]
    assert review.corpus.texts_of(1)[1] == "the dog barked at the postman"
    _as_read_whole(ls, review)
    line, col = _at(ls, hyp, 3, "three")
    await _edit(ls, hyp, (line, col, line, col + 5, "four"))
    assert ls.reads == [1, 1]
    _as_read_whole(ls, review)


async def test_a_closed_reference_changed_on_disk_is_read_again(ls, tmp_path):
    hyp_path, ref_path = tmp_path / "call.hyp.trn", tmp_path / "call.ref.trn"
    ref_path.write_text((SAMPLES / "call.ref.trn").read_text(encoding="utf-8"), encoding="utf-8")
    hyp, ref = hyp_path.as_uri(), ref_path.as_uri()
    review = _open(ls, hyp, (SAMPLES / "call.hyp.trn").read_text(encoding="utf-8"), Pairing(hyp, (ref,), "test"))
    line, col = _at(ls, hyp, 3, "can i")
    await _edit(ls, hyp, (line, col, line, col, "so "))
    assert ls.reads == [1]
    _as_read_whole(ls, review)
    ref_path.write_text(ref_path.read_text(encoding="utf-8").replace("mister", "mr") + "\n", encoding="utf-8")
    line, col = _at(ls, hyp, 3, "so ")
    await _edit(ls, hyp, (line, col, line, col + 3, ""))
    assert ls.reads[1:] == [9, 10]  # both read whole
    _as_read_whole(ls, review)


@pytest.mark.parametrize(
    "what, change, alone",
    [
        ("typed in a transcript", lambda ls, uri: (*_at(ls, uri, 4, "four"), *_at(ls, uri, 4, "four", 4), "for"), True),
        ("an id changed", lambda ls, uri: (*_at(ls, uri, 4, "_005"), *_at(ls, uri, 4, "_005", 4), "_009"), False),
        ("an id's case changed", lambda ls, uri: (*_at(ls, uri, 4, "call_A"), *_at(ls, uri, 4, "call_A", 6), "CALL_A"), True),
        ("an id unreadable", lambda ls, uri: (*_at(ls, uri, 4, "("), *_at(ls, uri, 4, "(", 1), ""), False),
    ],
)
async def test_trn(ls, tmp_path, what, change, alone):
    ref = tmp_path / "call.ref.trn"
    ref.write_text((SAMPLES / "call.ref.trn").read_text(encoding="utf-8"), encoding="utf-8")
    hyp = (tmp_path / "call.hyp.trn").as_uri()
    review = _open(ls, hyp, (SAMPLES / "call.hyp.trn").read_text(encoding="utf-8"), Pairing(hyp, (ref.as_uri(),), "test"))
    await _edit(ls, hyp, change(ls, hyp))
    assert (ls.reads == [1]) == alone, what
    assert alone or ls.reads[-1] == len(ls.documents.open[hyp].lines)
    _as_read_whole(ls, review)


def test_only_one_line_records_paired_by_id_or_position_are_read_by_line():
    def by_line(hyp: str, ref: str) -> bool:
        h, r = (SAMPLES / hyp).as_uri(), (SAMPLES / ref).as_uri()
        texts = {u: (SAMPLES / n).read_text(encoding="utf-8") for u, n in ((h, hyp), (r, ref))}
        return read_sides(Pairing(h, (r,), "test"), texts, {}).by_line

    assert by_line("call.hyp.trn", "call.ref.trn")
    assert by_line("news.hyp.jsonl", "news.ref.jsonl")
    assert not by_line("call.hyp.ctm", "call.ref.stm")  # words placed by time
    assert not by_line("call.hyp.srt", "call.ref.srt")


@pytest.mark.parametrize(
    "edits, expected",
    [
        ([LineEdit(3, 4, ["x"])], Edited(3, 4, 0)),
        ([LineEdit(3, 4, ["x"]), LineEdit(7, 8, ["y"])], Edited(3, 8, 0)),
        ([LineEdit(7, 8, ["y"]), LineEdit(3, 4, ["x"])], Edited(3, 8, 0)),
        # a line split, then a later line joined to the next: as many lines as before
        ([LineEdit(3, 4, ["a", "b"]), LineEdit(9, 11, ["c"])], Edited(3, 10, 0)),
        ([LineEdit(3, 4, ["a", "b"])], Edited(3, 5, 1)),
        # an edit inside lines edited before, removing some of them
        ([LineEdit(3, 8, ["a"] * 5), LineEdit(4, 6, ["b"])], Edited(3, 7, -1)),
    ],
)
def test_the_edited_lines_are_those_any_edit_touched(edits, expected):
    edited: dict = {}
    for edit in edits:
        note_edit(edited, "u", edit)
    assert edited["u"] == expected


async def test_an_edit_while_the_documents_are_read_whole_has_them_read_again(ls):
    review, uri = _held(ls)
    _change(ls, uri, (2, 0, 2, 0, "\n"))  # a line more: read whole, by the re-score
    assert not ls.reads and review.unread_edits == 1
    reading = asyncio.ensure_future(ls.read_again(review))
    await asyncio.sleep(0)  # the thread reads the text with the blank line
    assert review.reading is not None
    _change(ls, uri, (*_at(ls, uri, 1, "postman"), *_at(ls, uri, 1, "postman", 7), "mailman"))
    await reading
    _settle()
    # the first reading was stale when it came back: not put in place, the documents read again
    assert ls.reads == [6, 6] and review.unread_edits == 0 and review.reading is None
    assert review.corpus.texts_of(0)[1] == "a dog barked at the mailman"
    _as_read_whole(ls, review)
