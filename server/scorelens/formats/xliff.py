"""XLIFF 1.2 and 2.x: a record per translation unit (1.2's ``<trans-unit>``) or per segment of a
2.x ``<unit>``, its target the text read, its source the record's source.

The version is the root element's: its namespace (``urn:oasis:names:tc:xliff:document:1.2`` or
``…:2.0``, which 2.1 and 2.2 keep), else its ``version`` attribute (un-namespaced 1.x files).
Only the ``<source>`` and ``<target>`` right under a unit (1.2) or a segment (2.x) are read, not
those of ``<alt-trans>``, ``<seg-source>`` or ``<ignorable>``. Inline elements are not text, but
``<g>``, ``<pc>`` and ``<mrk>`` hold text; the content of 1.2's ``<ph>``, ``<bpt>``, ``<ept>``
and ``<it>`` is native code and skipped (2.x's placeholders are empty; ``<cp/>`` is skipped too).

A unit without a ``<target>`` is a record whose text is None (untranslated: the caller reports
it); an empty ``<target/>`` is an empty text placed where the element is.
"""

from __future__ import annotations

from . import xmltext
from .segments import Fields, FormatError, Reading, Record, Segment
from .xmltext import Collector, local, namespace

escape = xmltext.escape

XLIFF_1 = "urn:oasis:names:tc:xliff:document:1.2"
XLIFF_2 = "urn:oasis:names:tc:xliff:document:2.0"


def read(text: str, fields: Fields, name: str) -> Reading:
    reader = _Xliff()
    xmltext.parse(text, reader)
    if reader.version is None:
        raise FormatError("not an XLIFF document: no <xliff> root element")
    return Reading(reader.records)


class _Unit:
    def __init__(self, id: str | None, line: int) -> None:
        self.id = id
        self.line = line
        # (segment id, source, target) in document order; one for a 1.2 unit
        self.segments: list[tuple[str | None, Segment | None, Segment | None]] = []


class _Xliff:
    def __init__(self) -> None:
        self.version: int | None = None
        self.records: list[Record] = []
        self.path: list[str] = []  # local names of the open elements
        self.unit: _Unit | None = None
        self.segment: dict[str, Segment | str | None] = {}  # the segment being read: id, source, target
        self.field: str | None = None  # "source" or "target", while one is read
        self.collector: Collector | None = None

    def start(self, name: str, attrs: dict[str, str], line: int) -> None:
        if self.collector is not None:
            self.collector.start(name)
            return
        tag = local(name)
        parent = self.path[-1] if self.path else None
        self.path.append(tag)
        if parent is None:
            self.version = _version(name, attrs)
        elif tag == ("trans-unit" if self.version == 1 else "unit"):
            self.unit = _Unit(attrs.get("id"), line)
            if self.version == 1:
                self.segment = {"id": None}
        elif self.version == 2 and tag == "segment" and parent == "unit":
            self.segment = {"id": attrs.get("id")}
        elif tag in ("source", "target") and parent == ("trans-unit" if self.version == 1 else "segment"):
            self.field, self.collector = tag, Collector()

    def end(self, name: str, at: int) -> None:
        if self.collector is not None:
            if not self.collector.close(at):
                return
            self.segment[self.field] = self.collector.segment()
            self.field = self.collector = None
        tag = self.path.pop()
        if self.unit is None:
            return
        if tag == "segment" and self.version == 2 or tag == "trans-unit":
            s = self.segment
            self.unit.segments.append((s.get("id"), s.get("source"), s.get("target")))
        if tag in ("trans-unit", "unit"):
            self.records.extend(_records(self.unit))
            self.unit = None

    def text(self, text: str, start: int, end: int) -> None:
        if self.collector is not None:
            self.collector.text(text, start, end)


def _version(root: str, attrs: dict[str, str]) -> int:
    if local(root) != "xliff":
        raise FormatError(f"not an XLIFF document: the root element is <{local(root)}>, not <xliff>")
    uri = namespace(root)
    if uri == XLIFF_1:
        return 1
    if uri == XLIFF_2:
        return 2
    version = attrs.get("version", "")
    if uri == "" and version[:2] in ("1.", "2."):
        return int(version[0])
    raise FormatError(f"not a known XLIFF version: namespace {uri!r}, version {version!r}")


def _records(unit: _Unit) -> list[Record]:
    """A 1.2 unit, or a 2.x unit of one segment, is one record with the unit's id; the segments
    of a 2.x unit of several are ``unit/segment`` (the segment's id, else its position)."""
    several = len(unit.segments) > 1
    records = []
    for k, (segment_id, source, target) in enumerate(unit.segments, 1):
        id = f"{unit.id}/{segment_id or k}" if several else unit.id
        records.append(Record(unit.line, target, id=id, source=source))
    return records
