"""Evaluation data in the formats it comes in: a document read by its format's reader, its
records paired with the references' (by id, position or time), and where each scored segment
sits in its document, so that a finding or a row names the file's own line and column."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Sequence

from ..formats import Fields, Reading, format_of, read
from ..formats.pairing import Entry, Pairing, entries, pair, pair_readings
from ..formats.segments import line_starts, paused_gc
from .evaluation import Evaluation, evaluate


@dataclass
class Document:
    """A file's text read through a format's reader."""

    path: str
    text: str
    format: str
    reading: Reading

    @cached_property
    def line_starts(self) -> list[int]:
        return line_starts(self.text)

    def position(self, offset: int) -> tuple[int, int]:
        """(line, column), 0-based in code points, of an offset into the document."""
        line = bisect.bisect_right(self.line_starts, offset) - 1
        return line, offset - self.line_starts[line]


def read_document(path: str, text: str, format: str | None = None, fields: Fields = Fields()) -> Document:
    """``text`` (the file at ``path``) read as ``format``, or as its extension says."""
    name = format or format_of(path)
    return Document(path, text, name, read(text, name, fields))


@dataclass
class Layout:
    """Where each segment of one side sits in its document."""

    document: Document
    entries: list[Entry]

    def first_line(self, segment: int) -> int:
        """The 0-based line of the segment's record."""
        return self.entries[segment].line - 1 if segment < len(self.entries) else 0

    def position(self, segment: int, offset: int) -> tuple[int, int]:
        """(line, column) of an offset into the segment's text; an empty text is at its record."""
        entry = self.entries[segment]
        if not entry.segment.map.pieces:
            return entry.line - 1, 0
        return self.document.position(entry.segment.map.offset(offset))

    def span(self, segment: int, start: int, end: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """(line, column) of both ends of ``[start, end)`` of the segment's text: it ends after its
        last character, not after markup between it and the next (``</i>``, ``</g>``)."""
        entry = self.entries[segment]
        if not entry.segment.map.pieces:
            return (entry.line - 1, 0), (entry.line - 1, 0)
        a, b = entry.segment.map.span(start, end)
        return self.document.position(a), self.document.position(b)

    def id(self, segment: int) -> str | None:
        return self.entries[segment].id


@dataclass
class FormattedEvaluation(Evaluation):
    """An evaluation of formatted documents: each side's layout, and the pairing's problems."""

    layouts: list[Layout] = field(default_factory=list)
    pairing: Pairing = field(default_factory=Pairing)

    def first_line(self, segment: int) -> int:
        return self.layouts[0].first_line(segment)

    def position(self, side: int, segment: int, offset: int) -> tuple[int, int]:
        return self.layouts[side].position(segment, offset)

    def span(self, side: int, segment: int, start: int, end: int) -> tuple[tuple[int, int], tuple[int, int]]:
        return self.layouts[side].span(segment, start, end)

    def mismatches(self) -> list[tuple[int, int, int]]:
        return []  # paired by the pairing, whose problems say what found no partner

    def head(self, segment: int) -> dict[str, Any]:
        row = super().head(segment)
        id_ = self.layouts[0].id(segment)
        return {"segment": row.pop("segment"), **({"id": id_} if id_ is not None else {}), **row}


def paired(hypothesis: Document, references: Sequence[Document], by: str | None = None) -> tuple[Pairing, list[Document]]:
    """The pairing of a hypothesis with its references (the references the hypothesis's own
    records hold when none is given), and the document of each reference stream."""
    pairing, owners = pair_readings(hypothesis.reading, [d.reading for d in references], by)
    return pairing, [references[k] if k >= 0 else hypothesis for k in owners]


def with_rules(options: dict[str, Any], documents: Sequence[Document]) -> dict[str, Any]:
    """sclite's files are scored by sclite's rules, unless others are asked for."""
    if options.get("wer_rules") is None and any(d.reading.rules == "sclite" for d in documents):
        return {**options, "wer_rules": "sclite"}
    return options


def evaluate_documents(
    hypothesis: Document,
    references: Sequence[Document],
    metrics: Sequence[str],
    options: dict[str, Any],
    jobs: int = 1,
    by: str | None = None,
    in_reference_order: bool = False,
) -> FormattedEvaluation:
    """Score formatted documents: the hypothesis's records paired with the references' (or the
    references its records hold), each pair a segment, in the hypothesis's order or (systems
    compared segment by segment must line up) the first reference's."""
    with paused_gc():
        pairing, documents = paired(hypothesis, references, by)
    if in_reference_order and pairing.references:
        order = sorted(range(len(pairing.hypothesis)), key=lambda k: pairing.references[0][k].line)
        pairing.hypothesis = [pairing.hypothesis[k] for k in order]
        pairing.references = [[stream[k] for k in order] for stream in pairing.references]
    options = with_rules(options, (hypothesis, *documents))
    texts = [e.segment.text for e in pairing.hypothesis]
    # a trailing empty line ends the segment lists, as the core's line lists end
    ev = evaluate(texts + [""], [[e.segment.text for e in stream] + [""] for stream in pairing.references], metrics, options, jobs)
    layouts = [Layout(hypothesis, pairing.hypothesis), *(Layout(d, s) for d, s in zip(documents, pairing.references))]
    return FormattedEvaluation(ev.corpus, ev.jobs, ev.perplexity, layouts, pairing)


def pair_annotators(documents: Sequence[Document], by: str | None = None) -> Pairing:
    """Annotators' documents of the same items: the first one's records paired with every other
    one's (by id where every record has one, else by position), as a hypothesis's with its
    references'. A record without a partner in every document is a problem, and left out."""
    for d in documents:
        if d.reading.words:
            raise ValueError(f"{d.path}: timed words (a CTM) are placed in a reference's segments; annotators' files have segments")
    streams = [entries(d.reading.records) for d in documents]
    return pair(streams[0], streams[1:], by)
