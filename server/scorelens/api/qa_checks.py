"""Checks of a translation against its source, with no reference needed (DESIGN §9): numbers,
placeholders, tags, URLs, untranslated segments, end punctuation, doubled words, inconsistent
translations, length ratios and glossary terms, as :mod:`scorelens.core.qa` finds them.

``scorelens.qa(hypotheses, sources)`` checks lists of strings; the command line's
``check --source`` checks files through it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..core.qa import CHECKS, QAConfig, QADocument, QAFinding
from ..core.qa.glossary import Glossary
from ..formats import escaper
from ..formats.pairing import Entry, Problem, entries, pair, source_stream
from ..glossary_file import read_glossary
from ..pairing_rules import split_languages
from .documents import Document, Layout
from .options import OptionError

def enabled_checks(checks: Iterable[str] | None = None, skip: Iterable[str] = ()) -> frozenset[str]:
    """The checks to run: ``checks`` (default: all) without ``skip``; an unknown name is an
    :class:`OptionError` that lists the known ones."""
    chosen = list(CHECKS) if checks is None else [c.strip() for c in ([checks] if isinstance(checks, str) else checks)]
    skipped = [c.strip() for c in ([skip] if isinstance(skip, str) else skip)]
    for option, names in (("checks", chosen), ("skip", skipped)):
        unknown = [n for n in names if n not in CHECKS]
        if unknown:
            raise OptionError(option, f"unknown check {unknown[0]!r}; choose from {', '.join(CHECKS)}")
    return frozenset(chosen) - frozenset(skipped)


def qa_config(
    language: str | tuple[str | None, str | None] | None = None,
    glossary: Glossary | None = None,
    checks: Iterable[str] | None = None,
    skip: Iterable[str] = (),
) -> QAConfig:
    """``language``: sacreBLEU's ``-l`` (``"en-de"``), or ``(source, target)`` already chosen
    (:func:`~scorelens.pairing_rules.qa_languages`)."""
    source_language, target_language = language if isinstance(language, tuple) else split_languages(language)
    return QAConfig(source_language, target_language, enabled_checks(checks, skip), glossary)


@dataclass
class QAReport:
    """Every finding of a document, segment by segment."""

    document: QADocument

    @property
    def findings(self) -> list[QAFinding]:
        """Segment by segment, each segment's in text order."""
        return [f for i in self.document.flagged() for f in sorted(self.document.findings(i), key=lambda f: (f.start, f.end, f.code))]

    def counts(self) -> dict[str, int]:
        """Findings per code, in :data:`CHECKS` order."""
        found = [f.code for f in self.findings]
        return {f"qa.{name}": found.count(f"qa.{name}") for name in CHECKS if f"qa.{name}" in found}

    def errors(self) -> int:
        """How many findings are of a check whose severity is ``error`` (what ``--max-qa`` counts)."""
        return sum(severity(f) == "error" for f in self.findings)

    def to_dict(self) -> dict[str, Any]:
        return {"findings": [finding_dict(f) for f in self.findings], "counts": self.counts(), "errors": self.errors()}


def severity(finding: QAFinding) -> str:
    return CHECKS[finding.code.removeprefix("qa.")]


def finding_dict(f: QAFinding) -> dict[str, Any]:
    d: dict[str, Any] = {"segment": f.segment, "code": f.code, "severity": severity(f), "start": f.start, "end": f.end, "text": f.text, "message": f.message}
    if f.source_start is not None:
        d["source_start"], d["source_end"] = f.source_start, f.source_end
    if f.other_segment is not None:
        d["other_segment"] = f.other_segment
    if f.fix is not None:
        d["fix"] = {"title": f.fix.title, "start": f.fix.start, "end": f.fix.end, "text": f.fix.text}
    if f.note:
        d["note"] = f.note
    return d


def check_segments(sources: Sequence[str], hypotheses: Sequence[str], config: QAConfig, codes: Sequence | None = None) -> QAReport:
    """``codes``: each hypothesis's record's inline codes, its source's and its own (XLIFF)."""
    if len(sources) != len(hypotheses):
        raise ValueError(f"{len(hypotheses)} hypotheses and {len(sources)} sources: each hypothesis needs its source")
    document = QADocument(config)
    document.replace(0, 0, sources, hypotheses, codes)
    return QAReport(document)


def qa(
    hypotheses: Sequence[str],
    sources: Sequence[str],
    *,
    language: str | None = None,
    glossary: str | os.PathLike | Glossary | None = None,
    checks: Iterable[str] | None = None,
    skip: Iterable[str] = (),
) -> QAReport:
    """Check each hypothesis against its source. ``language`` is sacreBLEU's ``-l`` (``"en-de"``;
    number and punctuation conventions follow it), ``glossary`` a file's path or a
    :class:`Glossary`, ``checks``/``skip`` name checks of :data:`CHECKS`."""
    if isinstance(glossary, (str, os.PathLike)):
        read = read_glossary(glossary, split_languages(language))
        if read.errors:
            raise ValueError("; ".join(read.errors))
        glossary = read.glossary
    return check_segments(sources, hypotheses, qa_config(language, glossary, checks, skip))


@dataclass
class DocumentQA:
    """A hypothesis document checked against its sources: the report, each checked segment's
    entries (where it sits), and the records that found no source."""

    report: QAReport
    hypothesis: Document
    source: Document  # the hypothesis's own document when its records hold their sources
    hypotheses: list[Entry]
    sources: list[Entry]
    problems: list[Problem]

    def layout(self, side: str) -> Layout:
        """Where each checked segment's ``"hypothesis"`` or ``"source"`` text sits in its document."""
        return Layout(self.hypothesis, self.hypotheses) if side == "hypothesis" else Layout(self.source, self.sources)

    def position(self, side: str, segment: int, offset: int) -> tuple[int, int]:
        """(line, column), 0-based, of an offset into a checked segment's ``"hypothesis"`` or ``"source"`` text."""
        return self.layout(side).position(segment, offset)

    def span(self, segment: int, start: int, end: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """(line, column) of both ends of ``[start, end)`` of a checked segment's hypothesis text."""
        return self.layout("hypothesis").span(segment, start, end)

    def written(self, segment: int, start: int, end: int, text: str) -> str | None:
        """``text`` as the hypothesis's document writes it in place of ``[start, end)`` of a
        checked segment's text (escaped by its format), as the editor's quick fix writes it; None
        where markup lies between those characters (an edit would take it along) or the
        document cannot hold the text there."""
        entry = self.hypotheses[segment]
        if not entry.segment.map.pieces or len(entry.segment.map.runs(start, end)) != 1:
            return None
        try:
            return escaper(self.hypothesis.format)(text, entry.segment)
        except ValueError:
            return None


def holds_sources(document: Document) -> bool:
    return any(r.source is not None for r in document.reading.records)


def check_documents(hypothesis: Document, source: Document | None, config: QAConfig, by: str | None = None) -> DocumentQA:
    """Check a hypothesis document against a source document (paired by id where both have ids,
    else by position, or ``by``) or, with none, against the sources its records hold."""
    hyps = entries(hypothesis.reading.records)
    if source is None:
        pairing = pair(hyps, [source_stream(hypothesis.reading)], "position")
        source = hypothesis
    else:
        pairing = pair(hyps, [source_stream(source.reading)], by)
    srcs = pairing.references[0]
    report = check_segments([e.segment.text for e in srcs], [e.segment.text for e in pairing.hypothesis], config, [e.codes for e in pairing.hypothesis])
    return DocumentQA(report, hypothesis, source, pairing.hypothesis, srcs, pairing.problems)
