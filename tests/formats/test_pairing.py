"""Pairing records by id, position and time: what pairs, and what is named as a problem."""

from __future__ import annotations

from scorelens.formats.pairing import Entry, pair, pair_readings
from scorelens.formats.segments import Reading, Record, RecordError, Segment


def entry(text: str, line: int, id_: str | None = None, start: float | None = None, end: float | None = None) -> Entry:
    return Entry(Segment.literal(text, 0), line, id_, start, end)


def texts(entries):
    return [e.segment.text for e in entries]


def test_ids_pair_whatever_the_order():
    hyp = [entry("a", 1, "x"), entry("b", 2, "y"), entry("c", 3, "z")]
    ref = [entry("C", 1, "z"), entry("A", 2, "x"), entry("B", 3, "y")]
    p = pair(hyp, [ref])
    assert p.by == "id"
    assert texts(p.hypothesis) == ["a", "b", "c"] and texts(p.references[0]) == ["A", "B", "C"]
    assert p.problems == []


def test_missing_extra_and_duplicate_ids_are_named_and_the_rest_pairs():
    hyp = [entry("a", 1, "x"), entry("b", 2, "y"), entry("b2", 3, "y"), entry("c", 4, "w")]
    ref = [entry("A", 1, "x"), entry("B", 2, "y"), entry("Z", 3, "z"), entry("Z2", 4, "z")]
    p = pair(hyp, [ref])
    assert texts(p.hypothesis) == ["a", "b"] and texts(p.references[0]) == ["A", "B"]
    found = {(q.kind, q.side, q.line, q.id) for q in p.problems}
    assert found == {("duplicate", 0, 3, "y"), ("missing", 0, 4, "w"), ("duplicate", 1, 4, "z"), ("extra", 1, 3, "z")}
    assert all(q.message() for q in p.problems)


def test_ids_given_again_in_a_document_of_its_own_references_are_told_and_all_records_pair():
    records = [Record(k, Segment.literal(t, 0), i, (Segment.literal(t, 0),))
               for k, (t, i) in enumerate([("a", "x"), ("b", None), ("c", "x"), ("d", "y"), ("e", "x")], 1)]
    p, owners = pair_readings(Reading(records), [])
    assert texts(p.hypothesis) == ["a", "b", "c", "d", "e"] and owners == [-1] and p.problems == []
    assert [(q.kind, q.line, q.id) for q in p.repeated] == [("duplicate", 3, "x"), ("duplicate", 5, "x")]


def test_a_record_missing_from_every_reference_stream_is_one_problem():
    hyp = [entry("a", 1, "x"), entry("b", 2, "y")]
    p = pair(hyp, [[entry("A", 1, "x")], [entry("A2", 1, "x")]])
    assert [(q.kind, q.line, q.id) for q in p.problems] == [("missing", 2, "y")]


def test_a_side_without_ids_pairs_by_position():
    hyp = [entry("a", 1, "x"), entry("b", 2, "y"), entry("c", 3, "z")]
    ref = [entry("A", 1), entry("B", 2)]
    p = pair(hyp, [ref])
    assert p.by == "position"
    assert texts(p.references[0]) == ["A", "B"]
    assert [(q.kind, q.side, q.line) for q in p.problems] == [("unpaired", 0, 3)]


def test_several_reference_streams_keep_only_rows_all_of_them_have():
    hyp = [entry("a", 1, "1"), entry("b", 2, "2")]
    p = pair(hyp, [[entry("A", 1, "1"), entry("B", 2, "2")], [entry("B'", 1, "2")]])
    assert texts(p.hypothesis) == ["b"] and [texts(s) for s in p.references] == [["B"], ["B'"]]
    assert [(q.kind, q.id) for q in p.problems] == [("missing", "1")]


def test_time_pairs_each_reference_with_the_hypothesis_it_overlaps_most():
    hyp = [entry("one two", 1, "1", 0.0, 2.0), entry("three", 4, "2", 2.0, 4.0), entry("silence", 7, "3", 10.0, 11.0)]
    ref = [
        entry("one", 1, "1", 0.0, 1.0),
        entry("two", 4, "2", 1.0, 2.2),  # 1.0 with the first, 0.2 with the second
        entry("three", 7, "3", 2.5, 3.5),
        entry("lost", 10, "4", 20.0, 21.0),
    ]
    p = pair(hyp, [ref], "time")
    assert texts(p.references[0]) == ["one two", "three", ""]
    joined = p.references[0][0].segment
    assert joined.map.span(4, 7) == (0, 3)  # "two" maps to its own characters
    assert [(q.kind, q.side, q.line) for q in p.problems] == [("untimed", 1, 10)]
    assert p.problems[0].message(hypothesis="h.srt") == "id '4' overlaps no record of h.srt in time"


def test_a_record_not_read_keeps_its_place_by_position():
    """The k-th record of one document pairs with the k-th of the other, read or not: a broken
    record leaves its partner without one (named), and shifts no partner after it."""
    hyp = Reading([Record(n, Segment.literal(t, 0)) for n, t in ((1, "one"), (2, "two"), (3, "three"), (4, "four"))])
    ref = Reading([Record(n, Segment.literal(t, 0)) for n, t in ((1, "ONE"), (3, "THREE"), (4, "FOUR"), (5, "FIVE"))], [RecordError(2, "invalid JSON")])
    p, owners = pair_readings(hyp, [ref])
    assert owners == [0] and p.by == "position"
    assert texts(p.hypothesis) == ["one", "three", "four"] and texts(p.references[0]) == ["ONE", "THREE", "FOUR"]
    assert [(q.kind, q.side, q.line) for q in p.problems] == [("unpaired", 0, 2), ("unpaired", 1, 5)]
    # broken on the hypothesis's side: its partner is named, and left out
    p, _ = pair_readings(Reading(ref.records[:3], [RecordError(2, "invalid JSON")]), [Reading(hyp.records[:4])])
    assert texts(p.hypothesis) == ["ONE", "THREE", "FOUR"] and texts(p.references[0]) == ["one", "three", "four"]
    assert [(q.kind, q.side, q.line) for q in p.problems] == [("unpaired", 1, 2)]
    # by id, a record not read has no place to keep
    with_ids = Reading([Record(1, Segment.literal("a", 0), "a"), Record(3, Segment.literal("c", 0), "c")], [RecordError(2, "invalid JSON")])
    p, _ = pair_readings(with_ids, [Reading([Record(1, Segment.literal("A", 0), "a"), Record(2, Segment.literal("C", 0), "c")])])
    assert p.by == "id" and texts(p.references[0]) == ["A", "C"] and p.problems == []


def test_an_id_is_named_as_score_sl_rows_write_it():
    # a PO id is msgctxt, \x04, msgid; a quote or a backslash in it is as the file has it
    hyp = [entry("a", 1, "menu\x04Don't save"), entry("b", 5, "a\\b")]
    p = pair(hyp, [[entry("A", 1, "x")]])
    messages = sorted(q.message() for q in p.problems if q.side == 0)
    assert messages == ["id 'a\\b' has no reference", "id 'menu\\x04Don't save' has no reference"]
