"""JSON Lines: one JSON object per line, texts in named fields.

``json`` decodes every value. What it cannot tell is where a value's characters are in the
line, so :func:`_locate` walks the line's objects and arrays (with ``json``'s own C scanners
for every key and value, so nothing is decoded by hand) only far enough to find the string
literals of the fields taken, and :func:`_segment` maps each decoded character to its raw
characters: a literal without a backslash is one piece, found with ``str.find``; an escape
(``\\n``, ``\\u00e9``, a surrogate pair ``\\ud83d\\ude00``) is one character mapped to all of
its raw characters.

Fields are named as in the file or by a dotted path (``meta.output``, ``refs.0``: a number
indexes a list); a name that is a key of the record as it is wins over a path. The names a
reader takes by default are resolved on the first object read and kept for the whole file
(``Reading.fields``), so every record is read the same way.
"""

from __future__ import annotations

import json
import re
from json.decoder import JSONObject, scanstring

from .plain import lines, paused_gc
from .segments import CharMap, Fields, FormatError, Reading, Record, RecordError, Segment

# the first of these a record has is the field read, when none is named
TEXT_FIELDS = ("prediction", "hypothesis", "hyp", "output", "translation", "mt", "candidate", "system")
REFERENCE_FIELDS = ("reference", "references", "ref", "target", "gold", "label")
SOURCE_FIELDS = ("source", "src", "input")
ID_FIELDS = ("id", "uid", "key")

_SCAN = json.JSONDecoder().scan_once  # one JSON value from an offset: (value, end), json's C scanner
_MEMO: dict[str, str] = {}  # keys read so far, shared as json shares them within a document
_WS = re.compile(r"[ \t\n\r]*")  # JSON's whitespace, no other
# an escape in a string literal json has read: a surrogate pair (one character, as json decodes
# it), any other \\uXXXX, or a backslash and one character (\\" \\\\ \\/ \\b \\f \\n \\r \\t)
_ESCAPE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\.")

Path = tuple  # keys (str) and list indexes (int) from the record down to a value


class _Bad(Exception):
    """What is wrong with one record; it becomes that record's RecordError."""


def read(text: str, fields: Fields = Fields(), name: str = "jsonl") -> Reading:
    with paused_gc():
        return _read(text, fields)


def _read(text: str, fields: Fields) -> Reading:
    reading = Reading()
    chosen: Fields | None = None
    for number, (start, end, _) in enumerate(lines(text), 1):
        if number == 1 and text.startswith("\ufeff"):
            start += 1  # a byte order mark is not JSON; json.loads would refuse the line for it
        line = text[start:end]
        try:
            parsed = _object(line)
        except (json.JSONDecodeError, _Bad) as e:
            message = f"invalid JSON: {e.msg} (column {e.colno})" if isinstance(e, json.JSONDecodeError) else str(e)
            reading.errors.append(RecordError(number, message))
            continue
        if parsed is None:
            continue  # a blank line
        record, where = parsed
        if chosen is None:
            chosen = _choose(fields, record, number)
        try:
            reading.records.append(_record(line, start, number, record, where, chosen))
        except _Bad as e:
            reading.errors.append(RecordError(number, str(e)))
    reading.fields = chosen
    return reading


def _object(line: str) -> tuple[dict, dict[str, tuple[int, int]]] | None:
    """A line's object and where each of its members' values is in the line (``(start, end)``,
    a string's quotes included); None for a blank line.

    json's own object parser (``json.decoder.JSONObject``, the one its pure-Python scanner
    uses) reads the members, with a ``scan_once`` that is json's C scanner noting where each
    value starts and ends: one pass, every key and value decoded by json. Anything else (not
    an object, invalid JSON) is left to ``json.loads``, whose error is the one reported.
    """
    start = _WS.match(line).end()
    if line.startswith("{", start):
        spans: list[tuple[int, int]] = []

        def scan(s: str, i: int) -> tuple[object, int]:
            value, j = _SCAN(s, i)
            spans.append((i, j))
            return value, j

        pairs, end = JSONObject((line, start + 1), True, scan, None, list, _MEMO)
        if _WS.match(line, end).end() == len(line):
            return dict(pairs), dict(zip([k for k, _ in pairs], spans))  # a later duplicate wins
    elif start == len(line):
        return None
    value = json.loads(line)  # raises json's own error for what is not JSON
    raise _Bad(f"not a JSON object but {_kind(value)}")


def escape(text: str) -> str:
    """``text`` as it is written between a JSON string's quotes: ``json.dumps`` without the
    quotes, non-ASCII characters as they are (``ensure_ascii=False``) but a lone surrogate,
    which no UTF-8 file can hold, as ``\\udXXX``."""
    out = json.dumps(text, ensure_ascii=False)[1:-1]
    return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", out)


def _choose(fields: Fields, record: dict, number: int) -> Fields:
    """The fields named, defaults filled in from the first object of the file."""
    text = fields.text
    if text is None:
        text = next((f for f in TEXT_FIELDS if f in record), None)
        if text is None:
            found = ", ".join(map(repr, record)) or "none"
            raise FormatError(
                f"line {number}: no text field: none of {', '.join(TEXT_FIELDS)} "
                f"(the fields are: {found}); name the field to read"
            )

    def default(names: tuple[str, ...]) -> str | None:
        return next((f for f in names if f in record and f != text), None)

    references = fields.references
    if not references:
        ref = default(REFERENCE_FIELDS)
        references = (ref,) if ref else ()
    source = fields.source if fields.source is not None else default(SOURCE_FIELDS)
    id_ = fields.id if fields.id is not None else default(ID_FIELDS)
    return Fields(text=text, references=tuple(references), source=source, id=id_)


def _record(
    line: str, base: int, number: int, record: dict, where: dict[str, tuple[int, int]], fields: Fields
) -> Record:
    """One line's record; raises :class:`_Bad` on a missing field or one of the wrong type.
    ``where`` has the spans of the record's members; a value deeper down (a dotted path, a
    list of references) is found by :func:`_locate`."""
    text_path, text = _field(record, fields.text)
    if not isinstance(text, str):
        raise _Bad(f"field {fields.text!r} is {_kind(text)}, not a string")
    paths = [text_path]
    references: list[tuple[Path, str]] = []  # (path of the string, the string)
    for name in fields.references:
        path, value = _field(record, name)
        if isinstance(value, str):
            references.append((path, value))
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            references.extend((path + (i,), v) for i, v in enumerate(value))
        else:
            raise _Bad(f"field {name!r} is {_kind(value)}, not a string or a list of strings")
    paths.extend(p for p, _ in references)
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
    deep = {p for p in paths if len(p) > 1}
    spans = _locate(line, where, deep) if deep else {}

    def segment(path: Path, value: str) -> Segment:
        return _segment(line, base, where[path[0]] if len(path) == 1 else spans[path], value)

    if id_path is not None and not isinstance(id_, str):
        a, b = where[id_path[0]] if len(id_path) == 1 else spans[id_path]
        id_ = line[a:b]  # a number as the file writes it: 3 -> "3", 1e3 -> "1e3"
    return Record(
        line=number,
        text=segment(text_path, text),
        id=id_,
        references=tuple(segment(p, v) for p, v in references),
        source=None if source_path is None else segment(source_path, source),
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
    whole = ((0, base + start, base + end),) if text else ()
    if line.find("\\", start, end) < 0:  # no escape: the characters as they are, one piece
        return Segment(text, CharMap(len(text), whole))
    pieces = []
    t = 0  # characters of the text mapped so far
    i = start
    for m in _ESCAPE.finditer(line, start, end):
        j = m.start()
        if j > i:
            pieces.append((t, base + i, base + j))
            t += j - i
        pieces.append((t, base + j, base + m.end()))  # an escape is one character
        t += 1
        i = m.end()
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
