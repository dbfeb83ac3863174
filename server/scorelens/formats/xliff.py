"""XLIFF 1.2 and 2.x: a record per translation unit (1.2's ``<trans-unit>``) or per segment of a
2.x ``<unit>``, its target the text read, its source the record's source.

The version is the root element's: its namespace (``urn:oasis:names:tc:xliff:document:1.2`` or
``…:2.0``, which 2.1 and 2.2 keep), else its ``version`` attribute (un-namespaced 1.x files).
Only the ``<source>`` and ``<target>`` right under a unit (1.2) or a segment (2.x) are read, not
those of ``<alt-trans>``, ``<seg-source>`` or ``<ignorable>``. Inline elements are not text, but
``<g>``, ``<pc>`` and ``<mrk>`` hold text; the content of 1.2's ``<ph>``, ``<bpt>``, ``<ept>``
and ``<it>`` is native code and skipped (2.x's placeholders are empty; ``<cp/>`` is skipped too).
The inline codes (:data:`CODES`) of each source and target are kept on the record, with where
they sit in its text, for the QA checks to compare.

The languages declared are the reading's: 1.2's ``source-language`` and ``target-language`` on
``<file>`` (where every ``<file>`` names the same), 2.x's ``srcLang`` and ``trgLang`` on the root.

A unit without a ``<target>`` is a record whose text is None (untranslated: the caller reports
it), but in a reference file (``Fields.references_only``) a :class:`RecordError`, the unit left
out (:func:`.segments.references_of`). An empty ``<target/>`` is an empty text placed where the element
ends.
"""

from __future__ import annotations

from . import xmltext
from .segments import Fields, FormatError, InlineCode, Reading, Record, Segment, references_of
from .xmltext import Collector, local, namespace, one_language

escape = xmltext.escape

XLIFF_1 = "urn:oasis:names:tc:xliff:document:1.2"
XLIFF_2 = "urn:oasis:names:tc:xliff:document:2.0"

# the inline codes of each version (<mrk>, <sm/>/<em/> and <cp/> mark or stand for text: not codes)
CODES = {
    1: {"g": "paired", "x": "standalone", "bx": "start", "ex": "end", "ph": "standalone", "bpt": "start", "ept": "end", "it": "standalone"},
    2: {"pc": "paired", "ph": "standalone", "sc": "start", "ec": "end"},
}


def read(text: str, fields: Fields, name: str) -> Reading:
    reader = _Xliff()
    xmltext.parse(text, reader)
    if reader.version is None:
        raise FormatError("not an XLIFF document: no <xliff> root element")
    files = reader.files
    languages = reader.languages if reader.version == 2 else (one_language(f[0] for f in files), one_language(f[1] for f in files))
    if fields.references_only:
        return references_of(reader.records, "<target>", languages)
    return Reading(reader.records, languages=languages)


class _Unit:
    def __init__(self, id: str | None, line: int) -> None:
        self.id = id
        self.line = line
        # (segment id, source, target, their inline codes) in document order; one for a 1.2 unit
        self.segments: list[tuple[str | None, Segment | None, Segment | None, tuple[tuple[InlineCode, ...], tuple[InlineCode, ...]]]] = []


class _Xliff:
    def __init__(self) -> None:
        self.version: int | None = None
        self.namespace = ""  # the root's
        self.unit_tag = self.holder = ""  # a unit's element, and the one its source/target are in
        self.records: list[Record] = []
        self.languages: tuple[str | None, str | None] = (None, None)  # 2.x's, on the root
        self.files: list[tuple[str | None, str | None]] = []  # 1.2's, on each <file>
        self.path: list[str] = []  # the open elements (local names in the XLIFF namespace)
        self.unit: _Unit | None = None
        self.segment_id: str | None = None
        self.found: dict[str, Segment] = {}  # the source and target of the segment being read
        self.codes: dict[str, tuple[InlineCode, ...]] = {}  # and their inline codes
        self.field = ""  # "source" or "target", while one is collected
        self.collector: Collector | None = None

    def start(self, name: str, attrs: dict[str, str], line: int) -> Collector | None:
        parent = self.path[-1] if self.path else None
        if parent is None:
            self.version, self.namespace = _version(name, attrs), namespace(name)
            self.unit_tag, self.holder = ("trans-unit", "trans-unit") if self.version == 1 else ("unit", "segment")
            self.languages = (attrs.get("srcLang") or None, attrs.get("trgLang") or None)
        tag = local(name) if namespace(name) == self.namespace else name  # another vocabulary's: no match
        self.path.append(tag)
        if tag == "file" and parent == "xliff" and self.version == 1:
            self.files.append((attrs.get("source-language"), attrs.get("target-language")))
        elif tag == self.unit_tag:
            self.unit = _Unit(attrs.get("id"), line)
            self.segment_id, self.found, self.codes = None, {}, {}
        elif tag == "segment" and parent == "unit" and self.version == 2:
            self.segment_id, self.found, self.codes = attrs.get("id"), {}, {}
        elif tag in ("source", "target") and parent == self.holder:
            self.field, self.collector = tag, Collector(CODES[self.version])
            return self.collector
        return None

    def end(self, name: str) -> None:
        tag = self.path.pop()
        if self.collector is not None:
            self.found[self.field] = self.collector.segment()
            self.codes[self.field] = tuple(self.collector.codes)
            self.collector = None
        if self.unit is None:
            return
        if tag == self.holder:
            codes = (self.codes.get("source", ()), self.codes.get("target", ()))
            self.unit.segments.append((self.segment_id, self.found.get("source"), self.found.get("target"), codes))
        if tag == self.unit_tag:
            self.records.extend(_records(self.unit))
            self.unit = None


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
    for k, (segment_id, source, target, codes) in enumerate(unit.segments, 1):
        id = f"{unit.id}/{segment_id or k}" if several else unit.id
        records.append(Record(unit.line, target, id=id, source=source, codes=codes))
    return records
