"""JSON Lines: one JSON object per line, texts in named fields.

``json`` decodes every key and value; nothing is decoded by hand. What json does not tell is
where a value's characters are in the line, so :func:`_object` reads each line's members with
json's own object parser and a value scanner that notes where each value starts and ends;
:func:`_locate` finds a value deeper down (a dotted path, a list of references) by walking
only the objects and arrays on its way, every key and value there read by json's scanners too.
:func:`_segment` then maps each decoded character to its raw characters: a literal without a
backslash is one piece (one ``str.find`` tells), an escape (``\\n``, ``\\u00e9``, a surrogate
pair ``\\ud83d\\ude00``) is one character mapped to all of its raw characters.

Fields are named as in the file or by a dotted path (``meta.output``, ``refs.0``: a number
indexes a list); a name that is a key of the record as it is wins over a path. The names a
reader takes by default are resolved on the first object read and kept for the whole file
(``Reading.fields``), so every record is read the same way.
"""

from __future__ import annotations

import json
import re
import sys
from json.decoder import JSONObject, scanstring

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

# the first of these a record has is the field read, when none is named
TEXT_FIELDS = ("prediction", "hypothesis", "hyp", "output", "translation", "mt", "candidate", "system")
REFERENCE_FIELDS = ("reference", "references", "ref", "target", "gold", "label")
SOURCE_FIELDS = ("source", "src", "input")
ID_FIELDS = ("id", "uid", "key")
# the last default of a file holding one side only (hypotheses, references or sources), as
# `{"id": …, "text": …}` datasets have it; in a record that also holds references, "text" may be
# the source, so a hypothesis is not taken from it there
ONE_SIDE_FIELD = "text"

_SCAN = json.JSONDecoder().scan_once  # one JSON value from an offset: (value, end), json's C scanner
_WS = re.compile(r"[ \t\n\r]*")  # JSON's whitespace, no other
# an escape in a string literal json has read: a surrogate pair (one character, as json decodes
# it), any other \\uXXXX, or a backslash and one character (\\" \\\\ \\/ \\b \\f \\n \\r \\t)
_ESCAPE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\.")

Path = tuple  # keys (str) and list indexes (int) from the record down to a value


class _Bad(Exception):
    """What is wrong with one record; it becomes that record's RecordError."""


def read(text: str, fields: Fields = Fields(), name: str = "jsonl") -> Reading:
    """The records of a JSONL document: one per object line, blank lines skipped, a line that
    is not an object with the fields taken one :class:`RecordError`. ``Reading.fields`` says
    which fields were taken. FormatError when no text field is named and the first object has
    none of :data:`TEXT_FIELDS`."""
    with paused_gc():
        return _read(text, fields)


def _read(text: str, fields: Fields) -> Reading:
    reading = Reading()
    chosen: Fields | None = None
    memo: dict[str, str] = {}  # keys json's object parser has read, one str each, as json.loads shares them
    for number, (start, end, _) in enumerate(lines(text), 1):
        if number == 1 and text.startswith("\ufeff"):
            start += 1  # a byte order mark is not JSON; json.loads would refuse the line for it
        line = text[start:end]
        try:
            parsed = _object(line, memo)
        except RecursionError:
            reading.errors.append(RecordError(number, "invalid JSON: nested too deeply"))
            continue
        except (json.JSONDecodeError, _Bad) as e:
            message = f"invalid JSON: {e.msg} (column {e.colno})" if isinstance(e, json.JSONDecodeError) else str(e)
            reading.errors.append(RecordError(number, message))
            continue
        except ValueError as e:
            # the one other error json raises: an integer longer than int() converts (a guard
            # against quadratic time), in any member of the line, read or not
            if "integer string conversion" not in str(e):
                raise
            limit = sys.get_int_max_str_digits()
            reading.errors.append(RecordError(number, f"a number of more than {limit:,} digits, more than Python reads"))
            continue
        if parsed is None:
            continue  # a blank line
        record, where = parsed
        if chosen is None:
            chosen = _choose(fields, record, number)
        try:
            reading.records.append(
                _plain_record(line, start, number, record, where, chosen)
                or _record(line, start, number, record, where, chosen)
            )
        except _Bad as e:
            reading.errors.append(RecordError(number, str(e)))
    reading.fields = chosen
    return reading


def _object(line: str, memo: dict[str, str]) -> tuple[dict, dict[str, tuple[int, int]]] | None:
    """A line's object and where each of its members' values is in the line (``(start, end)``,
    a string's quotes included); None for a blank line.

    json's own object parser (``json.decoder.JSONObject``, the one its pure-Python scanner
    uses) reads the members, with a ``scan_once`` that is json's C scanner noting where each
    value starts and ends: one pass, every key and value decoded by json (a line as
    ``json.dumps`` writes it goes the quicker way of :func:`_compact_object`). Anything else
    (not an object, invalid JSON) is left to ``json.loads``, whose error is the one reported.
    """
    if line.startswith('{"'):
        try:
            compact = _compact_object(line)
        except (json.JSONDecodeError, StopIteration):
            compact = None  # read again below, for json's own message
        if compact is not None:
            return compact
    start = 0 if line.startswith("{") else _WS.match(line).end()
    if line.startswith("{", start):
        spans: list[tuple[int, int]] = []
        note = spans.append

        def scan(s: str, i: int) -> tuple[object, int]:
            value, j = _SCAN(s, i)
            note((i, j))
            return value, j

        pairs, end = JSONObject((line, start + 1), True, scan, None, list, memo)
        if end == len(line) or _WS.match(line, end).end() == len(line):
            return dict(pairs), {k: span for (k, _), span in zip(pairs, spans)}  # a later duplicate wins
    elif start == len(line):
        return None
    value = json.loads(line)  # raises json's own error for what is not JSON
    raise _Bad(f"not a JSON object but {_kind(value)}")


def _compact_object(line: str) -> tuple[dict, dict[str, tuple[int, int]]] | None:
    """What :func:`_object` says of a line as ``json.dumps`` writes one (no space but after
    ``:`` and ``,``, if there), in half the time: the same two json scanners, for every key
    and value, without a call between them. None for any other line."""
    record: dict = {}
    where: dict[str, tuple[int, int]] = {}
    pos, last = 2, len(line) - 1
    while True:
        key, pos = scanstring(line, pos)
        if line.startswith(": ", pos):
            pos += 2
        elif line.startswith(":", pos):
            pos += 1
        else:
            return None
        record[key], end = _SCAN(line, pos)
        where[key] = (pos, end)  # a later duplicate wins, as it does in json.loads
        if line.startswith(', "', end):
            pos = end + 3
        elif line.startswith(',"', end):
            pos = end + 2
        elif end == last and line[end] == "}":
            return record, where
        else:
            return None


def escape(text: str) -> str:
    """``text`` as it is written between a JSON string's quotes: ``json.dumps`` without the
    quotes, non-ASCII characters as they are (``ensure_ascii=False``) but a lone surrogate,
    which no UTF-8 file can hold, as ``\\udXXX``."""
    out = json.dumps(text, ensure_ascii=False)[1:-1]
    return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", out)


def _choose(fields: Fields, record: dict, number: int) -> Fields:
    """The fields named, defaults filled in from the first object of the file."""
    text = fields.text
    if fields.references_only:
        text = None
    elif text is None:
        looked_for = text_defaults(fields, has_references=any(f in record for f in REFERENCE_FIELDS))
        text = next((f for f in looked_for if f in record), None)
        if text is None:
            found = ", ".join(map(repr, record)) or "none"
            raise FormatError(
                f"line {number}: no text field: none of {', '.join(looked_for)} "
                f"(the fields are: {found}); {naming_text(fields)}"
            )

    def default(names: tuple[str, ...]) -> str | None:
        return next((f for f in names if f in record and f != text), None)

    references = fields.references
    if not references:
        looked_for = (*REFERENCE_FIELDS, ONE_SIDE_FIELD) if fields.references_only else REFERENCE_FIELDS
        ref = default(looked_for)
        references = (ref,) if ref else ()
        if not ref and fields.references_only:
            found = ", ".join(map(repr, record)) or "none"
            raise FormatError(
                f"line {number}: no reference field: none of {', '.join(looked_for)} "
                f"(the fields are: {found}); name it with --ref-field (reference_fields in a [[pair]] of scorelens.toml)"
            )
    source = fields.source if fields.source is not None else default(SOURCE_FIELDS)
    id_ = fields.id if fields.id is not None else default(ID_FIELDS)
    return Fields(text=text, references=tuple(references), source=source, id=id_, references_only=fields.references_only)


def naming_text(fields: Fields) -> str:
    """How to name the field (or column) of the text when none of the defaults is there."""
    if fields.sources_only:
        return "name it with --source-field"
    return "name it with --hyp-field (hypothesis_field in a [[pair]] of scorelens.toml)"


def text_defaults(fields: Fields, has_references: bool) -> tuple[str, ...]:
    """The fields (or columns) a record's text is read from when none is named, the first one
    present taken: a source file's source fields first; ``text`` last where the file holds one side."""
    if fields.sources_only:
        return (*SOURCE_FIELDS, *TEXT_FIELDS, ONE_SIDE_FIELD)
    return TEXT_FIELDS if has_references else (*TEXT_FIELDS, ONE_SIDE_FIELD)


def _plain_record(
    line: str, base: int, number: int, record: dict, where: dict[str, tuple[int, int]], fields: Fields
) -> Record | None:
    """The record of the common line: every field taken a member of the record, each a string
    (the id a string or an integer). None for any other, which :func:`_record` reads (or
    explains). Half the work of :func:`_record` per record: it matters at 100,000 lines."""
    get = record.get
    text = get(fields.text)
    if type(text) is not str:
        return None
    references = []
    for name in fields.references:
        value = get(name)
        if type(value) is not str:
            return None
        references.append(_segment(line, base, where[name], value))
    source = None
    if fields.source is not None:
        value = get(fields.source)
        if type(value) is not str:
            return None
        source = _segment(line, base, where[fields.source], value)
    id_ = None
    if fields.id is not None:
        id_ = get(fields.id)
        if type(id_) is int:
            a, b = where[fields.id]
            id_ = line[a:b]  # as the file writes it
        elif type(id_) is not str:
            return None
    return Record(number, _segment(line, base, where[fields.text], text), id_, tuple(references), source)


def _record(
    line: str, base: int, number: int, record: dict, where: dict[str, tuple[int, int]], fields: Fields
) -> Record:
    """One line's record; raises :class:`_Bad` on a missing field or one of the wrong type.
    ``where`` has the spans of the record's members; a value deeper down (a dotted path, a
    list of references) is found by :func:`_locate`."""
    text_path, text = _field(record, fields.text) if fields.text is not None else (None, None)
    if text_path is not None and not isinstance(text, str):
        raise _Bad(f"field {fields.text!r} is {_kind(text)}, not a string")
    references: list[tuple[Path, str]] = []  # (path of the string, the string)
    for name in fields.references:
        path, value = _field(record, name)
        if isinstance(value, str):
            references.append((path, value))
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            references.extend((path + (i,), v) for i, v in enumerate(value))
        else:
            raise _Bad(f"field {name!r} is {_kind(value)}, not a string or a list of strings")
    paths = [*([text_path] if text_path is not None else []), *(p for p, _ in references)]
    source_path = source = None
    if fields.source is not None:
        source_path, source = _field(record, fields.source)
        if not isinstance(source, str):
            raise _Bad(f"field {fields.source!r} is {_kind(source)}, not a string")
        paths.append(source_path)
    id_path = id_ = None
    if fields.id is not None:
        id_path, id_ = _field(record, fields.id)
        if isinstance(id_, bool) or not isinstance(id_, (str, int, float)):
            raise _Bad(f"field {fields.id!r} is {_kind(id_)}, not a string or a number")
        paths.append(id_path)
    # the spans of the values taken: a member's from ``where``, a deeper one's found here
    spans = {p: where[p[0]] for p in paths if len(p) == 1}
    if len(spans) < len(paths):
        spans.update(_locate(line, where, {p for p in paths if len(p) > 1}))
    if id_path is not None and not isinstance(id_, str):
        a, b = spans[id_path]
        id_ = line[a:b]  # a number as the file writes it: 3 -> "3", 1e3 -> "1e3"
    return Record(
        number,
        None if text_path is None else _segment(line, base, spans[text_path], text),
        id_,
        tuple([_segment(line, base, spans[p], v) for p, v in references]),
        None if source_path is None else _segment(line, base, spans[source_path], source),
    )


def _field(record: dict, name: str) -> tuple[Path, object]:
    """The path to a field and its value: a key as it is, else a dotted path."""
    if name in record:
        return (name,), record[name]
    path: list[str | int] = []
    value: object = record
    for part in name.split("."):
        if isinstance(value, dict) and part in value:
            path.append(part)
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            path.append(int(part))
            value = value[int(part)]
        else:
            raise _Bad(f"no field {name!r}")
    return tuple(path), value


def _locate(line: str, where: dict[str, tuple[int, int]], wanted: set[Path]) -> dict[Path, tuple[int, int]]:
    """Where the values at ``wanted`` paths (below the record's members) are in the line.

    From each member on the way, only the objects and arrays that lead to a wanted value are
    entered; every other value is stepped over by json's scanner, every key read by json's
    ``scanstring``: what is walked here is the punctuation between them, nothing more.
    """
    enter = {p[:k] for p in wanted for k in range(1, len(p))}
    found: dict[Path, tuple[int, int]] = {}

    def value(pos: int, path: Path) -> int:
        if path in enter:
            c = line[pos]
            if c == "{":
                return members(pos, path)
            if c == "[":
                return items(pos, path)
        end = _SCAN(line, pos)[1]
        if path in wanted:
            found[path] = (pos, end)  # a later duplicate key wins, as it does in json.loads
        return end

    def members(pos: int, path: Path) -> int:
        pos = _WS.match(line, pos + 1).end()
        if line[pos] == "}":
            return pos + 1
        while True:
            key, pos = scanstring(line, pos + 1)
            pos = _WS.match(line, _WS.match(line, pos).end() + 1).end()  # past the ":"
            pos = _WS.match(line, value(pos, path + (key,))).end()
            if line[pos] == "}":
                return pos + 1
            pos = _WS.match(line, pos + 1).end()  # past the ","

    def items(pos: int, path: Path) -> int:
        pos = _WS.match(line, pos + 1).end()
        if line[pos] == "]":
            return pos + 1
        index = 0
        while True:
            pos = _WS.match(line, value(pos, path + (index,))).end()
            if line[pos] == "]":
                return pos + 1
            pos = _WS.match(line, pos + 1).end()  # past the ","
            index += 1

    for key in {p[0] for p in wanted}:
        value(where[key][0], (key,))
    return found


def _segment(line: str, base: int, span: tuple[int, int], text: str) -> Segment:
    """A string json decoded and its map into its raw literal ``line[span]`` (quotes
    included); ``base`` is the line's offset in the document."""
    start, end = span[0] + 1, span[1] - 1  # inside the quotes
    if line.find("\\", start, end) < 0:  # no escape: the characters as they are, its map built when asked for
        return Segment(text, None, base + start)
    whole = ((0, base + start, base + end),)
    pieces: list[tuple[int, int, int]] = []
    add = pieces.append
    t = 0  # characters of the text mapped so far
    i = start
    for m in _ESCAPE.finditer(line, start, end):
        j, k = m.span()
        if j > i:
            add((t, base + i, base + j))
            t += j - i
        add((t, base + j, base + k))  # an escape is one character
        t += 1
        i = k
    if i < end:
        pieces.append((t, base + i, base + end))
        t += end - i
    if t != len(text):  # never expected; then the whole literal stands for every character
        return Segment(text, CharMap(len(text), whole))
    return Segment(text, CharMap(len(text), tuple(pieces)))


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"
