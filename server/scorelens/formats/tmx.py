"""TMX: a record per translation unit ``<tu>``, its target ``<tuv>``'s ``<seg>`` the text read,
its source ``<tuv>``'s the record's source.

The source language is ``fields.source`` if given, else the unit's ``srclang``, else the
header's; for ``*all*`` or none, the unit's first ``<tuv>`` is the source. The target is the
``<tuv>`` of ``fields.text`` if given, else the first ``<tuv>`` in another language. Languages
match without case, and a code matches its regional variants (``en`` matches ``en-US``). The id
is the ``tuid``, else the source text. Inline ``<bpt>``, ``<ept>``, ``<ph>``, ``<it>`` and
``<ut>`` hold native code, skipped; ``<hi>`` holds text.

A unit without a target ``<tuv>`` is a record whose text is None (the caller reports it).
"""

from __future__ import annotations

from . import xmltext
from .segments import Fields, FormatError, Reading, Record, Segment
from .xmltext import XML_LANG, Collector, local, matches_language

escape = xmltext.escape


def read(text: str, fields: Fields, name: str) -> Reading:
    reader = _Tmx(fields)
    xmltext.parse(text, reader)
    return Reading(reader.records)


class _Tmx:
    def __init__(self, fields: Fields) -> None:
        self.fields = fields
        self.records: list[Record] = []
        self.path: list[str] = []  # local names of the open elements
        self.srclang: str | None = None  # the header's
        self.unit: tuple[str | None, str | None, int] | None = None  # tuid, srclang, line
        self.variants: list[tuple[str, Segment]] = []  # the unit's (language, text)
        self.lang = ""  # the open <tuv>'s language
        self.collector: Collector | None = None

    def start(self, name: str, attrs: dict[str, str], line: int) -> Collector | None:
        tag = local(name)
        parent = self.path[-1] if self.path else None
        self.path.append(tag)
        if parent is None and tag != "tmx":
            raise FormatError(f"not a TMX document: the root element is <{tag}>, not <tmx>")
        if tag == "header":
            self.srclang = attrs.get("srclang")
        elif tag == "tu":
            self.unit = (attrs.get("tuid"), attrs.get("srclang"), line)
            self.variants = []
        elif tag == "tuv":
            self.lang = attrs.get(XML_LANG) or attrs.get("lang", "")  # TMX 1.1 said "lang"
        elif tag == "seg" and parent == "tuv":
            self.collector = Collector()
            return self.collector
        return None

    def end(self, name: str) -> None:
        tag = self.path.pop()
        if self.collector is not None:
            self.variants.append((self.lang, self.collector.segment()))
            self.collector = None
        if tag == "tu" and self.unit is not None:
            self.records.append(self._record(*self.unit))
            self.unit = None

    def _record(self, tuid: str | None, srclang: str | None, line: int) -> Record:
        wanted = self.fields.source or srclang or self.srclang
        if wanted in (None, "*all*"):
            source = self.variants[0] if self.variants else None
        else:
            source = next((v for v in self.variants if matches_language(v[0], wanted)), None)
        chosen = self.fields.text
        target = next((v for v in self.variants if v is not source and (not chosen or matches_language(v[0], chosen))), None)
        text = source[1] if source else None
        id = tuid if tuid is not None else (text.text if text else None)
        return Record(line, target[1] if target else None, id=id, source=text)
