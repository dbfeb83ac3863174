"""TMX: a record per translation unit ``<tu>``, its target ``<tuv>``'s ``<seg>`` the text read,
its source ``<tuv>``'s the record's source.

The source language is ``fields.source`` if given, else the unit's ``srclang``, else the
header's; for ``*all*`` or none, the unit's first ``<tuv>`` is the source. The target is the
``<tuv>`` in the language chosen (``fields.text``; in a reference file, its one reference field),
else the one ``<tuv>`` in another language. Languages match without case, and a code matches its
regional variants (``en`` matches ``en-US``). The id is the ``tuid``, else the source text.
Inline ``<bpt>``, ``<ept>``, ``<ph>``, ``<it>`` and ``<ut>`` hold native code, skipped; ``<hi>``
holds text. Those elements are the segment's inline codes (:data:`CODES`), kept on the record. The languages declared are those of the source and target ``<tuv>`` s read, where
every unit's are the same.

A multilingual memory is refused (:class:`FormatError`) rather than read in whichever language
comes first: a unit with targets in several languages and none chosen (or several matching the
choice, ``de`` for ``de-DE`` and ``de-AT``), and a choice no unit has, which would score every
unit as untranslated. A source file (``Fields.sources_only``) is read for its sources: no target
is chosen.

A unit without a target ``<tuv>`` is a record whose text is None (the caller reports it), but in
a reference file a :class:`~.segments.RecordError`, the unit left out, as XLIFF's.
"""

from __future__ import annotations

from . import xmltext
from .segments import Fields, FormatError, InlineCode, Reading, Record, Segment, references_of
from .xmltext import XML_LANG, Collector, local, matches_language, one_language

escape = xmltext.escape

# the inline codes: <bpt> and <ept> pair by their i, the others have an x (or nothing) to tell
# them apart; an <it> is the one half of a pair whose other half is in another segment
CODES = {"bpt": "start", "ept": "end", "ph": "standalone", "it": "standalone", "ut": "standalone", "hi": "paired"}


def read(text: str, fields: Fields, name: str) -> Reading:
    chosen = _chosen(fields)
    reader = _Tmx(fields, chosen)
    xmltext.parse(text, reader)
    if not fields.sources_only:  # a source file's targets are not read
        _require_one_target(reader, chosen, fields)
    languages = (one_language(reader.source_languages), one_language(reader.target_languages))
    if fields.references_only:
        return references_of(reader.records, f"target <tuv>{f' in {chosen!r}' if chosen else ''}", languages)
    return Reading(reader.records, languages=languages)


def _option(fields: Fields) -> str:
    """How the user chooses a target language, on the command line and in the editor."""
    if fields.references_only:
        return "--ref-field LANG (reference_fields in a [[pair]] of scorelens.toml)"
    return "--hyp-field LANG (hypothesis_field in a [[pair]] of scorelens.toml)"


def _chosen(fields: Fields) -> str | None:
    """The target language named: a reference file is read for its reference fields, so there
    the language is the one reference field named."""
    if not fields.references_only:
        return fields.text
    if len(fields.references) > 1:
        named = ", ".join(fields.references)
        raise FormatError(f"a TMX reference is read in one target language, not {named}: name one with {_option(fields)}")
    return fields.references[0] if fields.references else None


def _require_one_target(reader: _Tmx, chosen: str | None, fields: Fields) -> None:
    """FormatError where a target would be a guess (see the module's docstring)."""
    offered = ", ".join(reader.offered.values()) or "none"
    if reader.several is not None:
        line, languages = reader.several
        found = f"{chosen!r} matches {', '.join(languages)} in a unit" if chosen else f"units hold several besides their source: {offered}"
        raise FormatError(f"line {line}: which target language? {found}; name one with {_option(fields)}")
    if chosen and reader.records and all(r.text is None for r in reader.records):
        raise FormatError(f"no unit has a target in {chosen!r} (their other languages: {offered}); name one with {_option(fields)}")


class _Tmx:
    def __init__(self, fields: Fields, chosen: str | None) -> None:
        self.fields = fields
        self.chosen = chosen  # the target language named, or None
        self.offered: dict[str, str] = {}  # the units' languages other than their source's: folded -> as first written
        self.several: tuple[int, list[str]] | None = None  # the first unit whose target is not one language: its line, those
        self.records: list[Record] = []
        self.source_languages: list[str] = []  # each unit's source <tuv>'s, and its target's, where it has one
        self.target_languages: list[str] = []
        self.path: list[str] = []  # local names of the open elements
        self.srclang: str | None = None  # the header's
        self.unit: tuple[str | None, str | None, int] | None = None  # tuid, srclang, line
        self.variants: list[tuple[str, Segment, tuple[InlineCode, ...]]] = []  # the unit's (language, text, codes)
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
            self.collector = Collector(CODES, ("i", "x"))
            return self.collector
        return None

    def end(self, name: str) -> None:
        tag = self.path.pop()
        if self.collector is not None:
            self.variants.append((self.lang, self.collector.segment(), tuple(self.collector.codes)))
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
        others = [v for v in self.variants if v is not source]
        for lang, *_ in others:
            self.offered.setdefault(lang.lower(), lang)
        targets = [v for v in others if not self.chosen or matches_language(v[0], self.chosen)]
        languages: dict[str, str] = {}
        for lang, *_ in targets:
            languages.setdefault(lang.lower(), lang)
        if len(languages) > 1 and self.several is None:
            self.several = (line, list(languages.values()))
        target = targets[0] if targets else None
        if source:
            self.source_languages.append(source[0])
        if target:
            self.target_languages.append(target[0])
        text = source[1] if source else None
        id = tuid if tuid is not None else (text.text if text else None)
        codes = (source[2] if source else (), target[2] if target else ())
        return Record(line, target[1] if target else None, id=id, source=text, codes=codes)
