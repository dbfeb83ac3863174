"""Formatted documents in the server (DESIGN §7): a review's documents read by their formats'
readers, the hypothesis's records paired with the references' (by id, position or time), and
each side's :class:`~.layout.RecordLayout`. The corpus scores one text per paired record and
never learns the format; an edit re-reads the documents and hands the corpus only the texts
that changed, so only those segments are scored again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pygls.uris import to_fs_path

from ..core.text import common_ends
from ..formats import Fields, FormatError, Reading, format_of, read, reader
from ..formats.pairing import pair_readings
from ..formats.segments import line_starts
from .documents import split_breaks
from .layout import RecordLayout
from .pairing import Pairing, ReadOptions

UNREADABLE_RECORD = "format.unreadable-record"
NO_REFERENCES = "format.no-references"
# what each of formats.pairing's problems is called in a diagnostic's code
PAIRING_CODES = {
    "missing": "pairing.missing-record",
    "extra": "pairing.extra-record",
    "duplicate": "pairing.duplicate-id",
    "unpaired": "pairing.unpaired-record",
}


def format_name(options: ReadOptions, uri: str) -> str:
    """The format a document is read as: the pairing's, else its extension's."""
    return options.format or format_of(to_fs_path(uri) or uri)


def is_formatted(pairing: Pairing) -> bool:
    """Whether a pairing's documents are read by format readers (else as plain lines)."""
    # (a document checked alone, for fluency, is read as lines whatever its format)
    return pairing.held or bool(pairing.references) and any(
        format_name(pairing.read, uri) != "text" for uri in (pairing.hypothesis, *pairing.references)
    )


@dataclass(frozen=True)
class RecordProblem:
    """A record that could not be read or found no partner: a diagnostic on its line."""

    uri: str
    line: int  # 0-based
    code: str
    message: str


@dataclass
class Sides:
    """A pairing's documents read: per side (hypothesis first) its document and one text per
    paired record, with where those sit, and the records' problems."""

    uris: list[str]
    texts: list[list[str]]
    layouts: list[RecordLayout]
    problems: list[RecordProblem]
    rules: str | None = None  # the scoring rules the formats imply (sclite's for TRN/STM/CTM)

    @property
    def references(self) -> tuple[str, ...]:
        """The document of each reference side: a document holding two reference fields is two."""
        return tuple(self.uris[1:])


@dataclass
class _Document:
    uri: str
    text: str
    fields: Fields
    reading: Reading
    lines: list[str]
    starts: list[int]
    escape: Callable[[str], str]


Readings = dict[str, _Document]  # the documents last read, by URI: one whose text is the same is not read again


def _read(uri: str, text: str, options: ReadOptions, fields: Fields, readings: Readings) -> _Document:
    done = readings.get(uri)
    if done is not None and done.text == text and done.fields == fields:
        return done
    name = format_name(options, uri)
    try:
        reading = read(text, name, fields)
    except FormatError as exc:
        raise FormatError(f"{to_fs_path(uri) or uri}: {exc}") from None
    done = readings[uri] = _Document(uri, text, fields, reading, split_breaks(text)[0], line_starts(text), reader(name).escape)
    return done


def read_sides(pairing: Pairing, texts: dict[str, str], readings: Readings) -> Sides:
    """The pairing's documents (their texts by URI) read and paired; FormatError if one cannot
    be read at all. ``readings`` keeps what was read for the next call (an edit to one document
    leaves the others' readings as they are)."""
    opts = pairing.read
    hyp = _read(pairing.hypothesis, texts[pairing.hypothesis], opts, Fields(opts.hypothesis_field, opts.reference_fields, None, opts.id_field), readings)
    # a reference document is read for its reference fields alone
    ref_fields = Fields(None, opts.reference_fields, None, opts.id_field, references_only=True)
    # a document of two reference streams is named twice
    references = [] if pairing.held else [_read(uri, texts[uri], opts, ref_fields, readings) for uri in dict.fromkeys(pairing.references)]
    try:
        paired, owners = pair_readings(hyp.reading, [d.reading for d in references], None if pairing.held else opts.pair_by)
    except ValueError as exc:
        raise FormatError(f"{to_fs_path(pairing.hypothesis) or pairing.hypothesis}: {exc}") from None
    problems = [
        RecordProblem(d.uri, e.line - 1, UNREADABLE_RECORD, e.message) for d in (hyp, *references) for e in d.reading.errors
    ]
    side_docs = [hyp, *(references[k] if k >= 0 else hyp for k in owners)]
    problems += [RecordProblem(side_docs[p.side].uri, p.line - 1, PAIRING_CODES[p.kind], p.message()) for p in paired.problems]
    columns = [paired.hypothesis, *paired.references]
    return Sides(
        [d.uri for d in side_docs],
        [[e.segment.text for e in column] for column in columns],
        [RecordLayout(d.lines, d.starts, column, d.escape) for d, column in zip(side_docs, columns)],
        sorted(problems, key=lambda p: (p.uri, p.line)),
        next((d.reading.rules for d in (hyp, *references) if d.reading.rules), None),
    )


def update(corpus, sides: Sides) -> None:
    """Hand the corpus the texts that changed, side by side (its other segments keep their scores)."""
    for side, new in enumerate(sides.texts):
        old = corpus.texts_of(side)
        prefix, suffix = common_ends(old, new)
        if prefix + suffix < max(len(old), len(new)):
            corpus.replace_lines(side, prefix, len(old) - suffix, new[prefix : len(new) - suffix])
