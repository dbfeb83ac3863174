"""Formatted documents in the server (DESIGN §7): a review's documents read by their formats'
readers, the hypothesis's records paired with the references' (by id, position or time), and
each side's :class:`~.layout.RecordLayout`. The corpus scores one text per paired record and
never learns the format; an edit re-reads the documents and hands the corpus only the texts
that changed, so only those segments are scored again.

A document of one-line records (JSONL, TRN, STM) paired by id or position is read again only
where it was edited, when the edit keeps its line count (typing within lines):
:func:`reread_lines`. Reading a 100,000-record JSONL whole takes seconds, too long for a
keystroke on the event loop: any other edit's whole read (:func:`read_sides`) is done by the
re-score in a thread, and put in place with :func:`update`.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Callable
from itertools import accumulate
from dataclasses import dataclass

from pygls.uris import to_fs_path

from ..core.text import common_ends
from ..formats import Fields, FormatError, Reading, escaper, format_of, read
from ..formats.pairing import Entry, pair_readings
from ..formats.segments import Record, RecordError, Segment, line_starts
from .documents import LineEdit, split_breaks
from .layout import LineRecordLayout, RecordLayout
from .pairing import Pairing, ReadOptions

UNREADABLE_RECORD = "format.unreadable-record"
NO_REFERENCES = "format.no-references"
# what each of formats.pairing's problems is called in a diagnostic's code
PAIRING_CODES = {
    "missing": "pairing.missing-record",
    "extra": "pairing.extra-record",
    "duplicate": "pairing.duplicate-id",
    "unpaired": "pairing.unpaired-record",
    "unplaced": "pairing.unpaired-record",
    "untimed": "pairing.unpaired-record",
}
# formats whose every record is one line, read from that line alone (a CTM's words are placed
# in their STM's segments by time: a CTM is not one of them)
LINE_FORMATS = ("jsonl", "trn", "stm")


def format_name(options: ReadOptions, uri: str) -> str:
    """The format a document is read as: the pairing's, else its extension's."""
    return options.format or format_of(to_fs_path(uri) or uri)


def is_formatted(pairing: Pairing) -> bool:
    """Whether a pairing's documents are read by format readers (else as plain lines)."""
    # (a document checked alone, for fluency, is read as lines whatever its format)
    return pairing.held or bool(pairing.references) and any(
        format_name(pairing.read, uri) != "text" for uri in (pairing.hypothesis, *pairing.references)
    )


class UnreadableDocument(FormatError):
    """A document of the pairing that its reader cannot read: the message names it, ``uri`` is
    it, and the reader's line and column stay (where a diagnostic on it goes)."""

    def __init__(self, uri: str, error: FormatError) -> None:
        super().__init__(f"{to_fs_path(uri) or uri}: {error}", error.line, error.column)
        self.uri = uri


@dataclass(frozen=True)
class RecordProblem:
    """A record that could not be read or found no partner: a diagnostic on its line."""

    uri: str
    line: int  # 0-based
    code: str
    message: str


@dataclass
class Sides:
    """A pairing's documents read: per side (hypothesis first) its document and one text per
    paired record, with where those sit, and the records' problems."""

    uris: list[str]
    texts: list[list[str]]
    layouts: list[RecordLayout]
    problems: list[RecordProblem]
    rules: str | None = None  # the scoring rules the formats imply (sclite's for TRN/STM/CTM)
    # every document is of LINE_FORMATS and each row's entries are records' own texts (paired by
    # id or position): its layouts are LineRecordLayouts, and reread_lines can update it
    by_line: bool = False
    languages: tuple[str | None, str | None] = (None, None)  # those the hypothesis's document declares

    @property
    def references(self) -> tuple[str, ...]:
        """The document of each reference side: a document holding two reference fields is two."""
        return tuple(self.uris[1:])


@dataclass
class _Document:
    uri: str
    text: str | None  # None once reread_lines changed it: the next full read reads it again
    fields: Fields
    reading: Reading
    lines: list[str]
    # where each line starts; for a document read again by reread_lines, where each line started
    # in the text its record was read from (see LineRecordLayout)
    starts: list[int]
    escape: Callable[[str], str]
    name: str  # the format


Readings = dict[str, _Document]  # the documents last read, by URI: one whose text is the same is not read again


def _read(uri: str, text: str, options: ReadOptions, fields: Fields, readings: Readings) -> _Document:
    done = readings.get(uri)
    if done is not None and done.text == text and done.fields == fields:
        return done
    name = format_name(options, uri)
    try:
        reading = read(text, name, fields)
    except FormatError as exc:
        raise UnreadableDocument(uri, exc) from None
    done = readings[uri] = _Document(uri, text, fields, reading, split_breaks(text)[0], line_starts(text), escaper(name), name)
    return done


def read_sides(pairing: Pairing, texts: dict[str, str], readings: Readings) -> Sides:
    """The pairing's documents (their texts by URI) read and paired; FormatError if one cannot
    be read at all. ``readings`` keeps what was read for the next call (an edit to one document
    leaves the others' readings as they are)."""
    opts = pairing.read
    # reference_fields are the references' own where they are documents of their own
    hyp_fields = Fields(opts.hypothesis_field, opts.reference_fields if pairing.held else (), None, opts.id_field)
    hyp = _read(pairing.hypothesis, texts[pairing.hypothesis], opts, hyp_fields, readings)
    # a reference document is read for its reference fields alone
    ref_fields = Fields(None, opts.reference_fields, None, opts.id_field, references_only=True)
    # a document of two reference streams is named twice
    references = [] if pairing.held else [_read(uri, texts[uri], opts, ref_fields, readings) for uri in dict.fromkeys(pairing.references)]
    try:
        paired, owners = pair_readings(hyp.reading, [d.reading for d in references], None if pairing.held else opts.pair_by)
    except ValueError as exc:
        raise FormatError(f"{to_fs_path(pairing.hypothesis) or pairing.hypothesis}: {exc}") from None
    problems = [
        RecordProblem(d.uri, e.line - 1, UNREADABLE_RECORD, e.message) for d in (hyp, *references) for e in d.reading.errors
    ]
    side_docs = [hyp, *(references[k] if k >= 0 else hyp for k in owners)]
    problems += [
        RecordProblem(side_docs[p.side].uri, p.line - 1, PAIRING_CODES[p.kind], p.message())
        for p in (*paired.problems, *paired.repeated)
    ]
    columns = [paired.hypothesis, *paired.references]
    by_line = paired.by != "time" and all(d.name in LINE_FORMATS and not d.reading.words for d in (hyp, *references))
    layout = LineRecordLayout if by_line else RecordLayout
    return Sides(
        [d.uri for d in side_docs],
        [[e.segment.text for e in column] for column in columns],
        [layout(d.lines, d.starts, column, d.escape) for d, column in zip(side_docs, columns)],
        sorted(problems, key=lambda p: (p.uri, p.line)),
        next((d.reading.rules for d in (hyp, *references) if d.reading.rules), None),
        by_line,
        hyp.reading.languages,
    )


def update(corpus, sides: Sides) -> None:
    """Hand the corpus the texts that changed, side by side (its other segments keep their scores)."""
    for side, new in enumerate(sides.texts):
        old = corpus.texts_of(side)
        prefix, suffix = common_ends(old, new)
        if prefix + suffix < max(len(old), len(new)):
            corpus.replace_lines(side, prefix, len(old) - suffix, new[prefix : len(new) - suffix])


@dataclass
class Edited:
    """A document's lines edited since it was last read: ``[start, end)`` of its lines as they
    are now, and how many lines the edits added (negative: removed)."""

    start: int
    end: int
    added: int


def note_edit(edited: dict[str, Edited], uri: str, edit: LineEdit) -> None:
    """Add an edit (the document's lines ``[edit.start, edit.end)`` replaced by ``edit.lines``)
    to what was edited in it since it was last read."""
    a, b, count = edit.start, edit.end, len(edit.lines)
    added = count - (b - a)
    was = edited.get(uri)
    if was is None:
        edited[uri] = Edited(a, a + count, added)
        return
    # the end of the lines edited before, where this edit leaves it
    end = was.end if was.end <= a else was.end + added if was.end >= b else a + count
    edited[uri] = Edited(min(was.start, a), max(end, a + count), was.added + added)


@dataclass
class _Reread:
    """A document's edited lines read again, not yet put in place."""

    doc: _Document
    start: int  # the lines [start, end) of the document
    end: int
    lines: list[str]
    starts: list[int]  # where each of those lines starts in the text they were read from
    records: tuple[int, int]  # the document's records on those lines: records[i:j]
    new: list[Record]
    errors: tuple[int, int]  # and its errors: errors[p:q]
    new_errors: list[RecordError]


_TEXTS = ("text", "references", "source")


def _shape(record: Record) -> tuple:
    """All of a record but its texts (its line, id, times, an STM's speaker ...), and which
    texts it has: what the pairing and the report read of it."""
    return (
        type(record), record.text is None, len(record.references), record.source is None,
        *(getattr(record, f.name) for f in dataclasses.fields(record) if f.name not in _TEXTS),
    )


def _line(item: Record | RecordError) -> int:
    return item.line


def _reread(doc: _Document | None, edited: Edited, lines: list[str]) -> _Reread | None:
    """The edited lines of a document of one-line records read again, with the fields the first
    read resolved; None if the edit may have changed more than those lines' records' texts."""
    if doc is None or doc.name not in LINE_FORMATS or edited.added or len(lines) != len(doc.lines):
        return None
    records, errors = doc.reading.records, doc.reading.errors
    # the first record chose the fields every record is read with, by default; lines before it
    # are not records; a byte order mark is skipped only at the document's start
    if not records or edited.start < records[0].line:
        return None
    new_lines = lines[edited.start : edited.end]
    if new_lines and new_lines[0].startswith("\ufeff"):
        return None
    try:
        # (a record is its line's alone: read apart, it is read as the whole document reads it)
        small = read("\n".join(new_lines), doc.name, doc.reading.fields or doc.fields)
    except FormatError:
        return None
    shift = edited.start
    i, j = (bisect.bisect_left(records, line + 1, key=_line) for line in (edited.start, edited.end))
    p, q = (bisect.bisect_left(errors, line + 1, key=_line) for line in (edited.start, edited.end))
    new = [dataclasses.replace(r, line=r.line + shift) for r in small.records]
    new_errors = [RecordError(e.line + shift, e.message) for e in small.errors]
    # The same records on the same lines (their ids, times, which fields they have), and the
    # same lines unreadable: the pairing is as it was. A field the first read did not find
    # (no id, say) is looked for again in the lines read apart: found, it changes the shape.
    if [_shape(r) for r in new] != [_shape(r) for r in records[i:j]]:
        return None
    if [e.line for e in new_errors] != [e.line for e in errors[p:q]]:
        return None
    starts = list(accumulate((len(line) + 1 for line in new_lines[:-1]), initial=0)) if new_lines else []
    return _Reread(doc, edited.start, edited.end, new_lines, starts, (i, j), new, (p, q), new_errors)


def _same_field(segment: Segment, old: Record, new: Record) -> Segment | None:
    """The text of ``new`` that is the same field as ``segment`` of ``old``: an entry's text is
    its record's own. None for a text that is not the record's."""
    if segment is old.text:
        return new.text
    for k, reference in enumerate(old.references):
        if segment is reference:
            return new.references[k]
    # a field the record does not have is an empty text that maps nowhere, and stays so
    return segment if not segment.text and not segment.map.pieces else None


def reread_lines(sides: Sides, readings: Readings, edited: dict[str, Edited], lines_of: dict[str, list[str]], corpus) -> bool:
    """Read again only the edited lines of the documents (``lines_of``: their lines now), when
    ``sides`` are of one-line records and the edits kept each document's line count and the
    records on those lines their ids, times and fields: then the pairing's rows are as they
    were. The records' new texts and maps replace the old in the readings and the layouts, the
    texts that changed go to the corpus, and the unreadable lines' messages are the new ones.
    False, with nothing changed, for any other edit: the documents are to be read whole
    (:func:`read_sides`)."""
    if not sides.by_line:
        return False
    rereads = []
    for uri, lines in edited.items():
        reread = _reread(readings.get(uri), lines, lines_of[uri])
        if reread is None:
            return False
        rereads.append(reread)
    replaced: list[tuple[int, int, Entry]] = []  # side, row, its entry read again
    for reread in rereads:
        i, j = reread.records
        for side, uri in enumerate(sides.uris):
            if uri != reread.doc.uri:
                continue
            layout = sides.layouts[side]
            for old, new in zip(reread.doc.reading.records[i:j], reread.new):
                row = layout.segment_at(old.line - 1)
                if row is None:
                    continue  # a record left out of the pairing (no partner, an id given twice)
                entry = layout.entry(row)
                segment = _same_field(entry.segment, old, new)
                if segment is None:
                    return False
                # the hypothesis's entries carry their records' sources (the QA checks read them)
                source = new.source if side == 0 else entry.source
                if segment is not entry.segment or source != entry.source:
                    replaced.append((side, row, dataclasses.replace(entry, segment=segment, source=source)))
    # in place: the layouts share their documents' lines and starts
    messages: dict[tuple[str, int], str] = {}
    for reread in rereads:
        doc = reread.doc
        doc.text = None
        doc.lines[reread.start : reread.end] = reread.lines
        doc.starts[reread.start : reread.end] = reread.starts
        doc.reading.records[slice(*reread.records)] = reread.new
        doc.reading.errors[slice(*reread.errors)] = reread.new_errors
        messages.update(((doc.uri, e.line - 1), e.message) for e in reread.new_errors)
    for side, row, entry in replaced:
        sides.layouts[side].replace(row, entry)
        text = entry.segment.text
        if corpus.texts_of(side)[row] != text:
            sides.texts[side][row] = text
            corpus.replace_lines(side, row, row + 1, [text])
    if messages:
        sides.problems = [
            dataclasses.replace(p, message=messages[p.uri, p.line]) if p.code == UNREADABLE_RECORD and (p.uri, p.line) in messages else p
            for p in sides.problems
        ]
    return True
