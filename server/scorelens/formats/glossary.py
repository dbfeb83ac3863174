"""Glossary files: a termbase's text in, its entries (source term, target term, note, "do not
translate") out, with the line of each; entries that cannot be read are errors naming their
line, and the rest is kept.

**TSV** (``.tsv``, ``.tab``, ``.txt``): one entry a line, ``source term<TAB>target term[<TAB>note]``.
Blank lines and lines starting with ``#`` are skipped; a first row ``source<TAB>target[<TAB>note]``
(or ``source term``, ``src``, ``term`` / ``target term``, ``tgt``, ``translation``) is a header.
An entry whose target term is its source term, written again, is "do not translate": the term
must stand in the translation as it is (``ScoreLens<TAB>ScoreLens``).

**CSV** (``.csv``): the same rows, comma-separated and quoted as spreadsheets write them.

**TBX** (``.tbx``; TBX-Basic, TBX 2008 and TBX v3 core): each ``termEntry`` / ``conceptEntry``
holds a ``langSet`` / ``langSec`` per language (``xml:lang``), each holding terms (``tig``,
``ntig`` or ``termSec``, with a ``term``). The source language is the one asked for, else the
document's (``xml:lang`` of its root), else the first one met; the target language the one
asked for, else the one other language of the file. Each source term is an entry; its target is
the target language's first term, a ``preferredTerm-admn-sts`` one before others, never a
deprecated, superseded, forbidden or obsolete one (``termNote type="administrativeStatus"``). A
term with ``termNote type="translationNote"`` ``no`` (as Weblate writes untranslatable terms) is
"do not translate". The entry's note: its ``descrip`` / ``note`` texts (a definition, a usage note).
Parsed with defusedxml: entity declarations and external references are refused.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import PurePath

from . import xmltext
from .segments import FormatError, RecordError
from .xmltext import XML_LANG, Collector, local, matches_language

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SOURCE_HEADERS = {"source", "source term", "src", "term"}
_TARGET_HEADERS = {"target", "target term", "tgt", "translation"}
_NOT_A_TARGET = ("deprecated", "superseded", "forbidden", "obsolete")
EXTENSIONS = {".tsv": "tsv", ".tab": "tsv", ".txt": "tsv", ".csv": "csv", ".tbx": "tbx"}


@dataclass(frozen=True, slots=True)
class GlossaryEntry:
    line: int  # 1-based, where the entry starts
    source: str
    target: str  # the source term itself for "do not translate"
    note: str = ""
    do_not_translate: bool = False


@dataclass
class GlossaryReading:
    entries: list[GlossaryEntry] = field(default_factory=list)
    errors: list[RecordError] = field(default_factory=list)
    # the languages of the entries, where the file says them (a TBX's)
    source_language: str | None = None
    target_language: str | None = None


def format_of(path: str) -> str:
    """``tsv``, ``csv`` or ``tbx``, from a file name (TSV unless it says CSV or TBX)."""
    return EXTENSIONS.get(PurePath(path).suffix.lower(), "tsv")


def read(text: str, format: str = "tsv", source_language: str | None = None, target_language: str | None = None) -> GlossaryReading:
    """A glossary file's entries; a whole file that cannot be read is a :class:`FormatError`."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if format == "tbx":
        return read_tbx(text, source_language, target_language)
    if format == "tsv":
        return read_tsv(text)
    if format == "csv":
        return read_csv(text)
    raise FormatError(f"unknown glossary format {format!r}: tsv, csv or tbx")


def read_tsv(text: str) -> GlossaryReading:
    rows = [(number, line.split("\t")) for number, line in enumerate(_LINE_BREAK.split(text), 1)]
    return _read_rows(GlossaryReading(), rows, "<TAB>", "no tab")


def read_csv(text: str) -> GlossaryReading:
    reading, rows = GlossaryReading(), []
    reader = csv.reader(io.StringIO(text, newline=""))
    number = 1  # where the next row starts
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:  # a cell over the csv module's size limit
            reading.errors.append(RecordError(number, str(exc)))
        else:
            if any("\n" in c or "\r" in c for c in cells):  # no term spans lines: a quote left open swallowed them
                reading.errors.append(RecordError(number, "a cell runs over several lines: is a quote not closed?"))
            else:
                rows.append((number, cells))
        number = reader.line_num + 1
    return _read_rows(reading, rows, ",", "one column")


def _read_rows(reading: GlossaryReading, rows: list[tuple[int, list[str]]], separator: str, one_cell: str) -> GlossaryReading:
    first = True
    for number, cells in rows:
        if not "".join(cells).strip() or cells[0].lstrip().startswith("#"):
            continue
        cells = [c.strip() for c in cells]
        if first and cells[0].casefold() in _SOURCE_HEADERS and len(cells) > 1 and cells[1].casefold() in _TARGET_HEADERS:
            first = False
            continue
        first = False
        if len(cells) < 2:
            reading.errors.append(RecordError(number, f"expected source term{separator}target term[{separator}note], found {one_cell}"))
        elif len(cells) > 3:
            reading.errors.append(RecordError(number, f"expected at most 3 columns (source term, target term, note), found {len(cells)}"))
        elif not cells[0]:
            reading.errors.append(RecordError(number, "no source term"))
        elif not cells[1]:
            reading.errors.append(RecordError(number, "no target term (for a term not to be translated, write it again as its target)"))
        else:
            note = cells[2] if len(cells) == 3 else ""
            reading.entries.append(GlossaryEntry(number, cells[0], cells[1], note, cells[0] == cells[1]))
    reading.errors.sort(key=lambda e: e.line)
    return reading


@dataclass
class _Term:
    text: str
    line: int
    status: str = ""  # administrativeStatus
    untranslatable: bool = False


@dataclass
class _Concept:
    line: int
    terms: dict[str, list[_Term]] = field(default_factory=dict)  # language -> terms
    notes: list[str] = field(default_factory=list)


class _Tbx:
    """The concepts of a TBX document, as its elements come."""

    def __init__(self) -> None:
        self.root_language: str | None = None
        self.languages: list[str] = []  # in the order first met
        self.concepts: list[_Concept] = []
        self.errors: list[RecordError] = []
        self.concept: _Concept | None = None
        self.language: str | None = None
        self.term: _Term | None = None
        self.collected: tuple[str, dict[str, str], int, Collector] | None = None
        self.depth = 0

    def start(self, name: str, attrs: dict[str, str], line: int) -> Collector | None:
        tag = local(name)
        self.depth += 1
        if self.depth == 1:
            if tag not in ("martif", "tbx"):
                raise FormatError(f"not a TBX document: the root element is <{tag}>, not <tbx> or <martif>")
            self.root_language = attrs.get(XML_LANG)
        elif tag in ("termEntry", "conceptEntry"):
            self.concept = _Concept(line)
        elif tag in ("langSet", "langSec") and self.concept is not None:
            self.language = attrs.get(XML_LANG)
            if not self.language:
                self.errors.append(RecordError(line, f"<{tag}> without xml:lang: its terms are left out"))
            elif self.language not in self.languages:
                self.languages.append(self.language)
        elif tag in ("tig", "ntig", "termSec", "termGrp"):
            if self.term is None or tag != "termGrp":
                self.term = _Term("", line)
        elif tag in ("term", "termNote", "descrip", "note") and self.concept is not None:
            collector = Collector()
            self.collected = (tag, attrs, line, collector)
            return collector
        return None

    def end(self, name: str) -> None:
        tag = local(name)
        self.depth -= 1
        if self.collected is not None and self.collected[0] == tag:
            self._collected(*self.collected)
            self.collected = None
        elif tag in ("tig", "ntig", "termSec"):
            self._add_term()
        elif tag in ("langSet", "langSec"):
            self.language = None
        elif tag in ("termEntry", "conceptEntry") and self.concept is not None:
            self.concepts.append(self.concept)
            self.concept = None

    def _collected(self, tag: str, attrs: dict[str, str], line: int, collector: Collector) -> None:
        text = " ".join(collector.segment().text.split())
        kind = attrs.get("type", "")
        if tag == "term":
            if self.term is None:  # a term straight in its language (TBX-Min style)
                self.term = _Term("", line)
                self.term.text = text
                self._add_term()
            else:
                self.term.text = text
        elif tag == "termNote" and self.term is not None:
            if kind == "administrativeStatus":
                self.term.status = text
            elif kind == "translationNote" and text.casefold() == "no":
                self.term.untranslatable = True
        elif tag in ("descrip", "note") and text and self.concept is not None:
            self.concept.notes.append(text)

    def _add_term(self) -> None:
        term, self.term = self.term, None
        if term is None or self.concept is None or not self.language:
            return
        if not term.text:
            self.errors.append(RecordError(term.line, "an empty term"))
            return
        self.concept.terms.setdefault(self.language, []).append(term)


def read_tbx(text: str, source_language: str | None = None, target_language: str | None = None) -> GlossaryReading:
    tbx = _Tbx()
    xmltext.parse(text, tbx)
    source = source_language or tbx.root_language or (tbx.languages[0] if tbx.languages else None)
    if source is None:
        return GlossaryReading(errors=tbx.errors)
    target = target_language
    if target is None:
        others = [lang for lang in tbx.languages if not matches_language(lang, source)]
        if len(others) != 1:
            found = ", ".join(tbx.languages) or "none"
            raise FormatError(f"which language is the target? the termbase's languages: {found}")
        target = others[0]
    reading = GlossaryReading(errors=tbx.errors, source_language=source, target_language=target)
    for concept in tbx.concepts:
        sources = [t for lang, terms in concept.terms.items() if matches_language(lang, source) for t in terms]
        if not sources:
            continue  # a concept of other languages
        targets = [t for lang, terms in concept.terms.items() if matches_language(lang, target) for t in terms if not _barred(t)]
        targets.sort(key=lambda t: "preferred" not in t.status.casefold())
        note = "; ".join(concept.notes)
        untranslatable = any(t.untranslatable for t in sources + targets)
        if not targets and not untranslatable:
            reading.errors.append(RecordError(concept.line, f"no {target} term for {', '.join(repr(t.text) for t in sources)}"))
            continue
        for term in sources:
            if untranslatable:
                reading.entries.append(GlossaryEntry(term.line, term.text, term.text, note, True))
            else:
                reading.entries.append(GlossaryEntry(term.line, term.text, targets[0].text, note))
    reading.errors.sort(key=lambda e: e.line)
    return reading


def _barred(term: _Term) -> bool:
    return any(word in term.status.casefold() for word in _NOT_A_TARGET)
