"""TSV and CSV: a header row, then one record per row, texts in named or numbered columns.

Both are read by the stdlib ``csv`` module with its default (``excel``) dialect, the delimiter a
comma for CSV and a tab for TSV; a CSV whose header has semicolons and no comma is read with
semicolons, as spreadsheets write CSV where the comma is the decimal mark. So a TSV's quotes are
read as csv reads them: a field that starts with ``"`` is quoted (``""`` inside is one quote,
line breaks inside stay in the field), as spreadsheets and pandas write TSV. A TSV written
without any quoting whose text starts with a quote (``"Yes," she said.``) is read the csv way
too, quotes taken off: such a file should be read as plain text columns instead. Where such a
quote made csv read on over whole rows to the next quote, the record is a :class:`RecordError`
naming them (:func:`_holds_rows`).

``csv`` says what the values are, not where they are. So each record's raw text (the lines
csv consumed for it) is split again here, only to find where each field and each doubled
quote is, and the values found are checked equal to csv's; where they are not (a dialect
corner not followed here), each value maps to its whole field, or to the whole record.

Columns are named by their header (exactly, else ignoring case and surrounding spaces) or by
number from 1 (``"2"``); the defaults are those of JSONL, looked up in the header.

A field may be as long as the document (csv's own limit, 128 KiB, is raised for the read), and
a quote that is never closed, which makes csv read the rest of the document into its field, is
a :class:`RecordError` on the line where it opens; a row that lacks a column and runs over lines
(a stray quote closed its field lines later) says which lines csv read into it.
"""

from __future__ import annotations

import bisect
import csv
import re
import threading
from contextlib import contextmanager
from typing import Iterator

from .jsonl import ID_FIELDS, ONE_SIDE_FIELD, REFERENCE_FIELDS, SOURCE_FIELDS, naming_text, text_defaults
from .plain import lines
from .segments import (
    CharMap,
    Fields,
    FormatError,
    Reading,
    Record,
    RecordError,
    Segment,
    paused_gc,
)

# a quoted field: its content (``""`` for a quote, line breaks allowed), and its closing quote,
# absent when the document ends inside the quotes
_QUOTED = re.compile(r'"([^"]*(?:""[^"]*)*)("?)')


def read(text: str, fields: Fields = Fields(), name: str = "csv", *, header: bool = True) -> Reading:
    """The records of a CSV (``name="csv"``) or TSV (``name="tsv"``) document. Without a
    ``header``, columns are named by number only and the text is column 1 by default."""
    with paused_gc(), _field_limit(len(text)):
        return _read(text, fields, "\t" if name == "tsv" else _csv_delimiter(text, header), header)


def _csv_delimiter(text: str, header: bool) -> str:
    if not header:
        return ","
    return csv_delimiter(next((text[a:b] for a, b, _ in lines(text) if b > a), ""))


def csv_delimiter(header: str) -> str:
    """``;`` for a CSV whose header row holds semicolons and no comma, else ``,``."""
    return ";" if ";" in header and "," not in header else ","


_LIMIT = threading.Lock()


@contextmanager
def _field_limit(size: int) -> Iterator[None]:
    """csv's field size limit raised to ``size`` while a document is read: no field is longer
    than the document, whose size its reader has already bounded (textfile's byte limit). The
    limit is the process's (csv has no other), so it is put back after, and the lock keeps two
    readers in threads from putting back each other's."""
    with _LIMIT:
        before = csv.field_size_limit()
        csv.field_size_limit(max(before, size))
        try:
            yield
        finally:
            csv.field_size_limit(before)


def escape(text: str, quoted: bool = True, delimiter: str = ",") -> str:
    """``text`` as it is written inside a field: in a quoted field (``quoted``, the default)
    each ``"`` doubled; in an unquoted field as it is, which cannot hold the delimiter or a
    line break (ValueError: the field would need quoting as a whole). Written at the start of
    an unquoted field, a leading ``"`` would make csv read the field as quoted: the caller
    that knows where the text goes checks that."""
    if quoted:
        return text.replace('"', '""')
    if delimiter in text or "\n" in text or "\r" in text:
        raise ValueError("the field must be quoted to hold this text")
    return text


class _Bare(Segment):
    """An unquoted field's value: a replacement goes into it unquoted (see :func:`escape_into`),
    where it cannot hold its document's ``delimiter``."""

    __slots__ = ()
    delimiter = ","


class _BareInSemicolons(_Bare):
    __slots__ = ()
    delimiter = ";"


class _BareInTabs(_Bare):
    __slots__ = ()
    delimiter = "\t"


_BARE = {c.delimiter: c for c in (_Bare, _BareInSemicolons, _BareInTabs)}


def escape_into(text: str, segment: Segment) -> str:
    """``text`` as it is written into ``segment``'s field: doubling its quotes in a quoted field,
    as it is in an unquoted one. ValueError where the unquoted field cannot hold it, and for a
    leading ``"``, which at the field's start would make csv read the field as quoted."""
    if not isinstance(segment, _Bare):
        return escape(text)
    if text.startswith('"'):
        raise ValueError("the field must be quoted to hold this text")
    return escape(text, False, segment.delimiter)


def _read(text: str, fields: Fields, delimiter: str, header: bool) -> Reading:
    reading = Reading()
    spans = lines(text)
    if spans and spans[-1][0] == len(text):
        spans.pop()  # csv reads no line after the last break
    skip = 1 if text.startswith("\ufeff") else 0  # a byte order mark is not part of the header
    rows = csv.reader(
        (text[a + (skip if k == 0 else 0) : c] for k, (a, _, c) in enumerate(spans)), delimiter=delimiter
    )
    columns: dict[str, int] | None = None  # field -> 0-based column index
    width = 0  # the header's columns
    chosen: Fields | None = None
    while True:
        first = rows.line_num  # lines csv has read before this record
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as e:
            reading.errors.append(RecordError(first + 1, f"unreadable row: {e}"))
            continue
        if not row:
            continue  # a blank line
        if columns is None and header:
            chosen, columns = _choose(fields, row, first + 1)
            width = len(row)
            continue
        if columns is None:
            chosen, columns = _choose_numbers(fields, first + 1)
        start = spans[first][0] + (skip if first == 0 else 0)
        last = spans[rows.line_num - 1]  # the record's last line: (start, end, end of its break)
        if rows.line_num == len(spans) and (opened := _unclosed(text, start, delimiter)) is not None:
            line = bisect.bisect_right(spans, opened, first, rows.line_num, key=lambda s: s[0])  # 1-based
            if line < rows.line_num:  # the lines after it went into its field
                reading.errors.append(RecordError(
                    line, f"a quoted field opens here and is never closed: csv read the rest of the file "
                    f"({_lines(line + 1, rows.line_num)}) into it, so neither this record nor those lines are read"
                ))
                continue
        if delimiter == "\t" and rows.line_num > first + 1 and _holds_rows(row, width or len(row)):
            reading.errors.append(RecordError(
                first + 1, f"a quoted field runs over lines {first + 1}-{rows.line_num} and holds tabs, as rows do: "
                f"a quote at the start of a text opened it, so csv read {_lines(first + 2, rows.line_num)} into this "
                "record and neither it nor those lines are read (a text that starts with a quote is written in quotes, its own doubled)"
            ))
            continue
        try:
            reading.records.append(_record(text, start, last, delimiter, row, first + 1, columns, chosen))
        except _Short as e:
            message = str(e)
            if rows.line_num > first + 1:  # only a quoted field runs over a line break: a stray quote closed it late
                message += (
                    f"; a quoted field runs over lines {first + 1}-{rows.line_num}, so csv read "
                    f"{_lines(first + 2, rows.line_num)} as part of this record"
                )
            reading.errors.append(RecordError(first + 1, message))
    reading.fields = chosen
    return reading


def _holds_rows(row: list[str], width: int) -> bool:
    """Whether a TSV record's field took in whole rows: a line of it after a break with a tab
    between every column, as a row has. A text's own quote at the start of its field opens
    such a field (csv then reads on to the next quote); a text that holds line breaks and
    as many tabs on one of its lines is read so too, a corner taken for the common mistake."""
    return any(line.count("\t") >= width - 1 for v in row if "\n" in v for line in v.split("\n")[1:])


def _lines(first: int, last: int) -> str:
    return f"line {first}" if first == last else f"lines {first}-{last}"


class _Short(Exception):
    """A row without a column the reader takes."""


def _choose(fields: Fields, header: list[str], number: int) -> tuple[Fields, dict[str, int]]:
    """The columns named, defaults filled in from the header, and their indexes."""

    def find(name: str) -> int | None:
        if name in header:
            return header.index(name)
        folded = [h.strip().casefold() for h in header]
        if name.strip().casefold() in folded:
            return folded.index(name.strip().casefold())
        if name.isdigit() and 1 <= int(name) <= len(header):
            return int(name) - 1
        return None

    def named(name: str) -> int:
        index = find(name)
        if index is None:
            have = ", ".join(map(repr, header))
            raise FormatError(f"line {number}: no column {name!r} in the header (the columns are: {have})")
        return index

    def default(names: tuple[str, ...], taken: set[int]) -> str | None:
        """The header's own name of the first default it has (``Output`` for ``output``)."""
        index = next((i for n in names if (i := find(n)) is not None and i not in taken), None)
        return None if index is None else header[index]

    text = None if fields.references_only else fields.text
    if text is None and not fields.references_only:
        has_references = any(find(n) is not None for n in REFERENCE_FIELDS)
        looked_for = text_defaults(fields, has_references)
        text = default(looked_for, set())
        if text is None:
            have = ", ".join(map(repr, header))
            raise FormatError(
                f"line {number}: no text column: none of {', '.join(looked_for)} "
                f"in the header (the columns are: {have}); {naming_text(fields)}"
            )
    taken = {named(text)} if text is not None else set()
    references = fields.references
    if not references:
        looked_for = (*REFERENCE_FIELDS, ONE_SIDE_FIELD) if fields.references_only else REFERENCE_FIELDS
        ref = default(looked_for, taken)
        references = (ref,) if ref else ()
        if not ref and fields.references_only:
            have = ", ".join(map(repr, header))
            raise FormatError(
                f"line {number}: no reference column: none of {', '.join(looked_for)} "
                f"in the header (the columns are: {have}); name it with --ref-field (reference_fields in a [[pair]] of scorelens.toml)"
            )
    source = fields.source if fields.source is not None else default(SOURCE_FIELDS, taken)
    id_ = fields.id if fields.id is not None else default(ID_FIELDS, taken)
    chosen = Fields(text=text, references=tuple(references), source=source, id=id_, references_only=fields.references_only)
    names = [n for n in (text, *references, source, id_) if n is not None]
    return chosen, {n: named(n) for n in names}


def _choose_numbers(fields: Fields, number: int) -> tuple[Fields, dict[str, int]]:
    """Without a header: columns by number only, the text column 1 by default."""
    if fields.references_only:  # a reference file: its column 1 unless others are named
        chosen = Fields(None, fields.references or ("1",), fields.source, fields.id, references_only=True)
    else:
        chosen = Fields(fields.text or "1", fields.references, fields.source, fields.id)
    names = [n for n in (chosen.text, *chosen.references, chosen.source, chosen.id) if n is not None]
    for n in names:
        if not (n.isdigit() and int(n) >= 1):
            raise FormatError(f"line {number}: without a header, columns are numbers from 1, not {n!r}")
    return chosen, {n: int(n) - 1 for n in names}


def _record(
    text: str,
    start: int,
    last: tuple[int, int, int],
    delimiter: str,
    row: list[str],
    number: int,
    columns: dict[str, int],
    fields: Fields,
) -> Record:
    need = max(columns.values()) + 1
    if len(row) < need:
        missing = next(n for n, i in columns.items() if i >= len(row))
        raise _Short(f"{len(row)} column{'s' * (len(row) != 1)}, no column {missing!r} (column {columns[missing] + 1})")
    segments = _fields(text, start, last, delimiter, row)
    return Record(
        line=number,
        text=None if fields.text is None else segments[columns[fields.text]],
        id=None if fields.id is None else row[columns[fields.id]],
        references=tuple([segments[columns[n]] for n in fields.references]),
        source=None if fields.source is None else segments[columns[fields.source]],
    )


def _fields(text: str, start: int, last: tuple[int, int, int], delimiter: str, row: list[str]) -> list[Segment]:
    """csv's values for the record from ``start`` to the end of its ``last`` line, each with
    its map into the field. The last line break ends the record, unless the document ends
    inside a quoted field: then csv keeps that break in the field."""
    end = last[1]
    raw = text[start:end]
    if '"' not in raw and (values := raw.split(delimiter)) == row:  # no quoting: each field as it is
        out = []
        bare = _BARE[delimiter]
        for value in values:
            out.append(bare.literal(value, start))
            start += len(value) + 1
        return out
    found = _split(text, start, end, delimiter)
    if [s.text for s, _, _ in found] != row and last[2] == len(text) > end:
        end = last[2]
        found = _split(text, start, end, delimiter)
    if [s.text for s, _, _ in found] == row:
        return [s for s, _, _ in found]
    if len(found) == len(row):  # the fields are where they were found; their characters not
        return [_whole(value, a, b) for value, (_, a, b) in zip(row, found)]
    return [_whole(value, start, end) for value in row]


def _whole(value: str, a: int, b: int) -> Segment:
    return Segment(value, CharMap(len(value), ((0, a, b),) if value else ()))


def _split(text: str, pos: int, end: int, delimiter: str) -> list[tuple[Segment, int, int]]:
    """The fields of one record at ``text[pos:end]`` as csv's excel dialect reads them (not
    strict): each value, and the range of its field (quotes included)."""
    out = []
    while True:
        field_start = pos
        if pos < end and text[pos] == '"':
            m = _QUOTED.match(text, pos, end)
            content_start, content_end = m.span(1)
            pos = m.end()
            after = _find(text, delimiter, pos, end)  # csv keeps what follows the closing quote
            segment = _quoted(text, content_start, content_end, pos, after)
            pos = after
        else:
            pos = _find(text, delimiter, pos, end)
            segment = _BARE[delimiter].literal(text[field_start:pos], field_start)
        out.append((segment, field_start, pos))
        if pos >= end:
            return out
        pos += 1  # past the delimiter


def _unclosed(text: str, pos: int, delimiter: str) -> int | None:
    """Where a quoted field opens that the document ends inside, in its last record (from
    ``pos``); None when each of that record's quoted fields is closed."""
    end = len(text)
    while True:
        if text.startswith('"', pos):
            m = _QUOTED.match(text, pos, end)
            if not m.group(2):
                return pos
            pos = m.end()
        pos = _find(text, delimiter, pos, end) + 1
        if pos > end:
            return None


def _find(text: str, delimiter: str, pos: int, end: int) -> int:
    k = text.find(delimiter, pos, end)
    return end if k < 0 else k


def _quoted(text: str, content_start: int, content_end: int, tail_start: int, tail_end: int) -> Segment:
    """A quoted field's value: its content with each ``""`` read as one ``"`` mapped to both
    raw quotes, then what csv keeps after the closing quote, as it is."""
    pieces = []
    parts = []
    t = 0
    i = content_start
    while (j := text.find('""', i, content_end)) >= 0:
        if j > i:
            pieces.append((t, i, j))
            parts.append(text[i:j])
            t += j - i
        pieces.append((t, j, j + 2))
        parts.append('"')
        t += 1
        i = j + 2
    for a, b in ((i, content_end), (tail_start, tail_end)):
        if b > a:
            pieces.append((t, a, b))
            parts.append(text[a:b])
            t += b - a
    return Segment("".join(parts), CharMap(t, tuple(pieces)))
