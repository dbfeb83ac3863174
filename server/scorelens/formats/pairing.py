"""Pairing a hypothesis's records with each reference's: by id where both sides have ids, by
position where either has none, or by time (subtitles); what cannot be paired is a problem
named by id and line, and the rest is still paired.

Pure: readings in, entries and problems out.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Sequence

from .segments import InlineCode, Reading, Record, Segment, joined

PAIR_BY = ("id", "position", "time")


@dataclass(slots=True, unsafe_hash=True)  # not frozen, as a Record is not: see there
class Entry:
    """One text of one side: the segment, and the record it came from."""

    segment: Segment
    line: int  # 1-based line of its record
    id: str | None = None
    start: float | None = None
    end: float | None = None
    source: Segment | None = None  # the source its record holds (a hypothesis's XLIFF unit, JSONL field)
    # the inline codes its record's source and text hold (a hypothesis's XLIFF unit): Record.codes
    codes: tuple[tuple[InlineCode, ...], tuple[InlineCode, ...]] = ((), ())


def shown_id(id: str) -> str:
    """An id as messages and ``score -sl`` rows write it: each control character (a tab, PO's
    ``\\x04`` between msgctxt and msgid) escaped, the rest as it is, so it is seen and stays on one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in id)


@dataclass(frozen=True)
class Problem:
    """A record that found no partner, or an id given twice."""

    kind: str  # "missing" (no reference has the hypothesis's id), "extra", "duplicate", "unpaired", "unplaced" (CTM words), "untimed"
    side: int  # 0: the hypothesis, k: reference k
    line: int
    id: str | None = None

    def message(self, partner: str = "reference", hypothesis: str = "the hypothesis") -> str:
        what = f"id '{shown_id(self.id)}'" if self.id is not None else "a record"
        return {
            "missing": f"{what} has no {partner}",
            "extra": f"{what} is not in {hypothesis}",
            "duplicate": f"{what} is given again",
            "unpaired": f"{what} has no partner at this position",
            "unplaced": f"{what}: no segment of the {partner} has its file and channel; its words are in none",
            "untimed": f"{what} overlaps no record of {hypothesis} in time",
        }[self.kind]


@dataclass
class Pairing:
    """Rows of texts to score: the hypothesis's entries, and for each reference the entry
    paired with each of them (every row has all of its references)."""

    hypothesis: list[Entry] = field(default_factory=list)
    references: list[list[Entry]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    by: str = "position"
    # ids given again in a document whose records hold their own references: every record is
    # still paired (with itself) and scored, but a record given twice most likely counts twice
    repeated: list[Problem] = field(default_factory=list)


_EMPTY = Segment.literal("", 0)


def entries(records: Sequence[Record], reference: int | None = None) -> list[Entry]:
    """A stream of entries: each record's text (``reference`` None) or its reference number
    ``reference``; a record without that text gives an empty one (an untranslated unit)."""
    out = []
    for r in records:
        if reference is None:
            segment, source, codes = r.text, r.source, r.codes
        else:
            segment, source, codes = (r.references[reference] if reference < len(r.references) else None), None, ((), ())
        out.append(Entry(segment if segment is not None else _EMPTY, r.line, r.id, r.start, r.end, source, codes))
    return out


def source_stream(reading: Reading) -> list[Entry]:
    """The sources a document gives: those its records hold (XLIFF, PO, TMX units; a JSONL, TSV or
    CSV source field), or else its texts (a source file of any format)."""
    if any(r.source is not None for r in reading.records):
        return [Entry(r.source if r.source is not None else _EMPTY, r.line, r.id, r.start, r.end) for r in reading.records]
    return entries(reading.records)


def reference_streams(reading: Reading) -> list[list[Entry]]:
    """The reference streams a document gives: the references its records hold (JSONL/TSV/CSV
    fields), or else its texts (a reference file of any format)."""
    count = max((len(r.references) for r in reading.records), default=0)
    if count:
        return [entries(reading.records, k) for k in range(count)]
    return [entries(reading.records)]


def pair_readings(hypothesis: Reading, references: Sequence[Reading], by: str | None = None) -> tuple[Pairing, list[int]]:
    """A hypothesis document's records paired with its references' (or, with none, with the
    references its own records hold), and which reading each reference stream came from (an
    index into ``references``; -1 for the hypothesis's own). A document of timed words (a CTM)
    gives each segment of its one reference the words that segment takes by time."""
    if hypothesis.words:
        if len(references) != 1 or not any(r.start is not None for r in references[0].records):
            raise ValueError("timed words (a CTM) are scored against one reference of timed segments (an STM)")
        from .sclite import assign_words, unplaced  # sclite's own rule for placing words in segments

        segments = references[0]
        # a segment the rules ignore (sclite's ignore_time_segment_in_scoring) is not scored
        kept = [(placed, r) for placed, r in zip(assign_words(segments, hypothesis), segments.records) if placed is not None]
        # each text at the CTM line its words start on: the hypothesis's rows point into the CTM
        words = [Entry(s, line, r.id, r.start, r.end) for (s, line), r in kept]
        paired = pair(words, [entries([r for _, r in kept])], "position")
        paired.problems += [Problem("unplaced", 0, r.line, r.id) for r in unplaced(segments, hypothesis)]
        return paired, [0]
    if not references:
        held = max((len(r.references) for r in hypothesis.records), default=0)
        # each record pairs with itself
        own = pair(entries(hypothesis.records), [entries(hypothesis.records, k) for k in range(held)], "position")
        _unique([e for e in own.hypothesis if e.id is not None], 0, own.repeated)
        return own, [-1] * held
    streams: list[list[Entry | None]] = []
    owners: list[int] = []
    for k, reading in enumerate(references):
        got = [_placed(reading, stream) for stream in reference_streams(reading)]
        streams += got
        owners += [k] * len(got)
    return pair(_placed(hypothesis, entries(hypothesis.records)), streams, by), owners


def _placed(reading: Reading, stream: list[Entry]) -> list[Entry | None]:
    """A stream's entries with None in the place of each record that could not be read: by
    position, the k-th record of one document pairs with the k-th of the other, read or not,
    so that a broken record does not shift every partner after it."""
    if not reading.errors:
        return stream
    broken = sorted(e.line for e in reading.errors)
    placed: list[Entry | None] = []
    k = 0
    for e in stream:
        while k < len(broken) and broken[k] < e.line:
            placed.append(None)
            k += 1
        placed.append(e)
    return placed + [None] * (len(broken) - k)


def pair(hypothesis: Sequence[Entry | None], references: Sequence[Sequence[Entry | None]], by: str | None = None) -> Pairing:
    """Pair the hypothesis's entries with every reference stream; ``by`` None chooses ids when
    every entry on both sides has one, else positions. None stands for a record that could not
    be read: it holds its place for pairing by position, and pairs with nothing."""
    if by is None:
        with_ids = all(e.id is not None for stream in (hypothesis, *references) for e in stream if e is not None)
        by = "id" if with_ids else "position"
    if by not in PAIR_BY:
        raise ValueError(f"unknown pairing {by!r}; choose from {', '.join(PAIR_BY)}")
    problems: list[Problem] = []
    if by != "position":  # an id or a time places an entry; an unread record has neither
        hypothesis = [e for e in hypothesis if e is not None]
        references = [[e for e in stream if e is not None] for stream in references]
    if by == "id":
        hypothesis = _unique(hypothesis, 0, problems)
    columns = [_paired(hypothesis, stream, side, by, problems) for side, stream in enumerate(references, 1)]
    # the rows every reference has a partner for (all of them, at 100,000 rows, is the usual)
    unpaired = {k for c in columns for k, e in enumerate(c) if e is None} | {k for k, e in enumerate(hypothesis) if e is None}
    keep = [k for k in range(len(hypothesis)) if k not in unpaired] if unpaired else None
    return Pairing(
        [hypothesis[k] for k in keep] if keep is not None else list(hypothesis),
        [[c[k] for k in keep] if keep is not None else c for c in columns],  # type: ignore[misc]
        # a hypothesis record missing from several reference streams is one problem
        sorted(dict.fromkeys(problems), key=lambda p: (p.side, p.line)),
        by,
    )


def partners(hypothesis: list[Entry], stream: list[Entry], by: str | None = None) -> list[Entry | None]:
    """Each hypothesis entry's partner in ``stream`` (None where it has none), paired as
    :func:`pair` pairs them; what found no partner is left to the caller."""
    paired = pair(hypothesis, [stream], by)
    found = {id(h): e for h, e in zip(paired.hypothesis, paired.references[0])}
    return [found.get(id(h)) for h in hypothesis]


def _unique(stream: list[Entry], side: int, problems: list[Problem]) -> list[Entry]:
    seen: set[str | None] = set()
    kept = []
    for e in stream:
        if e.id in seen:
            problems.append(Problem("duplicate", side, e.line, e.id))
        else:
            seen.add(e.id)
            kept.append(e)
    return kept


def _paired(hypothesis: Sequence[Entry | None], stream: Sequence[Entry | None], side: int, by: str, problems: list[Problem]) -> list[Entry | None]:
    if by == "id":
        by_id = {e.id: e for e in _unique(stream, side, problems)}
        column = [by_id.pop(h.id, None) for h in hypothesis]
        problems.extend(Problem("missing", 0, h.line, h.id) for h, r in zip(hypothesis, column) if r is None)
        problems.extend(Problem("extra", side, e.line, e.id) for e in by_id.values())
        return column
    if by == "time":
        return _by_time(hypothesis, stream, side, problems)
    column: list[Entry | None] = list(stream[: len(hypothesis)]) + [None] * (len(hypothesis) - len(stream))
    # what is read on one side only: beyond the other side's end, or across from a record not read
    problems.extend(Problem("unpaired", 0, h.line, h.id) for h, r in zip(hypothesis, column) if h is not None and r is None)
    problems.extend(Problem("unpaired", side, r.line, r.id) for h, r in zip(hypothesis, column) if h is None and r is not None)
    problems.extend(Problem("unpaired", side, e.line, e.id) for e in stream[len(hypothesis) :] if e is not None)
    return column


def _by_time(hypothesis: list[Entry], stream: list[Entry], side: int, problems: list[Problem]) -> list[Entry | None]:
    """Each reference entry goes to the hypothesis entry it overlaps longest in time (the
    earlier on a tie); those a hypothesis entry receives are joined in time order. A reference
    that overlaps none is a problem; a hypothesis that receives none pairs with an empty text."""
    order = sorted(range(len(hypothesis)), key=lambda k: _start(hypothesis[k]))
    starts = [_start(hypothesis[k]) for k in order]
    # no hypothesis entry starting before (reference start - longest) can overlap it
    longest = max((_end(h) - _start(h) for h in hypothesis), default=0.0)
    received: list[list[Entry]] = [[] for _ in hypothesis]
    for e in sorted(stream, key=_start):
        lo, hi = _start(e), _end(e)
        best, best_overlap = None, 0.0
        for i in range(bisect.bisect_left(starts, hi) - 1, -1, -1):
            if starts[i] + longest < lo:
                break
            h = hypothesis[order[i]]
            overlap = min(hi, _end(h)) - max(lo, _start(h))
            if overlap > best_overlap or (overlap == best_overlap and best is not None and order[i] < best):
                best, best_overlap = order[i], overlap
        if best is None:
            problems.append(Problem("untimed", side, e.line, e.id))
        else:
            received[best].append(e)
    column: list[Entry | None] = []
    for h, got in zip(hypothesis, received):
        if not got:
            column.append(Entry(_EMPTY, h.line, h.id, h.start, h.end))
        elif len(got) == 1:
            column.append(got[0])
        else:
            column.append(Entry(joined(e.segment for e in got), got[0].line, got[0].id, got[0].start, got[-1].end))
    return column


def _start(e: Entry) -> float:
    return e.start if e.start is not None else 0.0


def _end(e: Entry) -> float:
    return e.end if e.end is not None else _start(e)
