"""NIST sclite's formats: TRN transcripts, STM references, CTM time-marked hypotheses.

TRN: ``transcript (utterance-id)`` a line; the id is between the line's last ``(`` and last
``)``, as sclite finds it. STM: ``file channel speaker begin end [<label>] transcript`` a
segment. CTM: ``file channel begin duration word [confidence]`` a word. Lines starting
``;;`` (TRN, STM) or ``;`` (CTM, as sclite reads it) are comments; blank lines are skipped.

Texts keep sclite's notation as written (``{ a / b / @ }``, ``(uh)``, ``word;tag``): the
scorer (:mod:`scorelens.core.wer_sclite`) reads it. A CTM alternation keeps one record per
line: ``<ALT_BEGIN>``, ``<ALT>`` and ``<ALT_END>`` are records whose texts are ``{``, ``/``
and ``}`` mapped onto the marker, so the words of a block joined by spaces are the notation
``{ a b / c }``; :func:`assign_words` does that join and writes an empty alternative as
``@``, as sclite reads it.

:func:`assign_words` gives each STM segment its CTM words the way sclite's
``segment_hyp_for_utt`` does (SCTK stm2ctm.c): per file and channel, in file order, a
segment takes the next words while a word's midpoint (an alternation's largest) lies before
the segment's end; words before the first segment go to it, words between two segments to
the later one, and the channel's last segment takes every word left. A segment whose text
holds ``IGNORE_TIME_SEGMENT_IN_SCORING`` takes its words and scores nothing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from itertools import islice

from .segments import (
    CharMap,
    Fields,
    Reading,
    Record,
    RecordError,
    Segment,
    TextBuilder,
    line_starts,
)

RULES = "sclite"
_SPACE = " \t\n\r\f\v"
_IGNORE = ("ignore_time_segment_in_scoring", "ignoretimesegmentinscoring")
_MARKERS = {"<alt_begin>": "{", "<alt>": "/", "<alt_end>": "}"}


@dataclass(slots=True, unsafe_hash=True)  # as a Record
class StmRecord(Record):
    """An STM segment: a :class:`Record` (id ``file-channel-begin``, times, the transcript)
    with the fields sclite groups and reports by."""

    file: str = ""
    channel: str = ""
    speaker: str = ""
    label: str | None = None  # the ``<o,f0,male>`` set, as written

    @property
    def ignored(self) -> bool:
        """Whether sclite leaves this segment (and the words it takes) out of scoring."""
        text = self.text.text.lower() if self.text is not None else ""
        return any(mark in text for mark in _IGNORE)


@dataclass(slots=True, unsafe_hash=True)  # as a Record
class CtmRecord(Record):
    """A CTM line: a word (id ``file-channel``, start, end = start + duration) or an
    alternation marker (``marker`` set, text ``{``, ``/`` or ``}``, no times)."""

    file: str = ""
    channel: str = ""
    confidence: float | None = None
    marker: str | None = None  # "begin", "alt" or "end" for <ALT_BEGIN>, <ALT>, <ALT_END>


def escape(text: str) -> str:
    """A replacement as these formats can hold it: one line (line breaks become spaces)."""
    return " ".join(text.splitlines())


class _Words(Segment):
    """A CTM's words in an STM segment (:func:`assign_words`): each word is a line of the CTM."""

    __slots__ = ()


def escape_into(text: str, segment: Segment) -> str:
    """A replacement as these formats can hold it (:func:`escape`). A CTM's word field holds one
    word: no text (a deletion) or words with spaces (an insertion, a whole segment), or a word
    into a segment that has none, would leave a line without its word, with its confidence
    misread or glued to another's (ValueError): adding or removing a word is adding or removing
    a timed line."""
    if isinstance(segment, _Words) and not (segment.text and _FIELD.fullmatch(text)):
        raise ValueError("a CTM line holds one word")
    return escape(text)


def read(text: str, fields: Fields = Fields(), name: str = "trn") -> Reading:
    reader = {"trn": _trn_line, "stm": _stm_line, "ctm": _ctm_line}.get(name)
    if reader is None:
        raise ValueError(f"sclite reads trn, stm and ctm, not {name!r}")
    comment = ";" if name == "ctm" else ";;"
    reading = Reading(rules=RULES, words=name == "ctm")
    starts = line_starts(text)
    for number, start in enumerate(starts, 1):
        end = starts[number] if number < len(starts) else len(text)
        line = text[start:end].rstrip("\r\n")
        body = line.lstrip(_SPACE)
        if not body or body.startswith(comment) or (name != "ctm" and body.startswith("**")):
            continue
        try:
            reading.records.append(reader(line, start, number))
        except _Bad as bad:
            reading.errors.append(RecordError(number, str(bad)))
    return reading


class _Bad(ValueError):
    pass


_FIELD = re.compile(r"[^ \t\n\r\f\v]+")  # C isspace: sclite splits at these only


def _fields(line: str, count: int) -> list[tuple[int, int]]:
    """The first ``count`` whitespace-separated fields of ``line`` as ``(start, end)``."""
    return [m.span() for m in islice(_FIELD.finditer(line), count)]


def _time(token: str, what: str) -> float:
    try:
        time = float(token[2:] if token.startswith("&&") else token)  # "&&": sclite's bad time mark
    except ValueError:
        raise _Bad(f"{what} {token!r} is not a number") from None
    if not math.isfinite(time):  # float() reads "nan" and "inf", which place a word nowhere
        raise _Bad(f"{what} {token!r} is not a finite number")
    return time


def _trimmed(line: str, a: int, b: int, offset: int) -> Segment:
    """``line[a:b]`` without surrounding whitespace, mapped to the document."""
    while a < b and line[a] in _SPACE:
        a += 1
    while b > a and line[b - 1] in _SPACE:
        b -= 1
    return Segment.literal(line[a:b], offset + a)


def _trn_line(line: str, offset: int, number: int) -> Record:
    left, right = line.rfind("("), line.rfind(")")
    if left < 0 or right < left:
        raise _Bad("no utterance id: a TRN line ends with '(id)'")
    # sclite matches utterance ids case-insensitively and prints them lowercased
    return Record(number, _trimmed(line, 0, left, offset), id=line[left + 1 : right].strip().lower())


def _stm_line(line: str, offset: int, number: int) -> StmRecord:
    tokens = _fields(line, 7)
    if len(tokens) < 5:
        raise _Bad("an STM line is 'file channel speaker begin end [<label>] transcript'")
    file, channel, speaker, begin, end = (line[a:b] for a, b in tokens[:5])
    start, stop = _time(begin, "begin time"), _time(end, "end time")
    label = None
    rest = tokens[5:]
    if rest and line[rest[0][0]] == "<":  # sclite: a token starting '<' right after the times
        label = line[rest[0][0] : rest[0][1]]
        rest = rest[1:]
    text = _trimmed(line, rest[0][0], len(line), offset) if rest else Segment.literal("", offset + len(line))
    return StmRecord(
        number, text, id=f"{file}-{channel}-{begin}", start=start, end=stop,
        file=file, channel=channel, speaker=speaker, label=label,
    )


def _ctm_line(line: str, offset: int, number: int) -> CtmRecord:
    tokens = _fields(line, 6)
    if len(tokens) < 5:
        raise _Bad("a CTM line is 'file channel begin duration word [confidence]'")
    file, channel, begin, duration, word = (line[a:b] for a, b in tokens[:5])
    a, b = tokens[4]
    ident = f"{file}-{channel}"
    marker = _MARKERS.get(word.lower())
    if marker is not None:  # its times are '*': none
        kind = {"{": "begin", "/": "alt", "}": "end"}[marker]
        text = Segment(marker, _whole(offset + a, offset + b))
        return CtmRecord(number, text, id=ident, file=file, channel=channel, marker=kind)
    start, length = _time(begin, "begin time"), _time(duration, "duration")
    confidence = None
    if len(tokens) > 5:
        conf = line[tokens[5][0] : tokens[5][1]]
        if conf.upper() != "NA":
            confidence = _time(conf, "confidence")
    return CtmRecord(
        number, Segment.literal(word, offset + a), id=ident, start=start, end=start + length,
        file=file, channel=channel, confidence=confidence,
    )


def _whole(doc_start: int, doc_end: int):
    """The map of a one-character text that stands for the document range (a marker)."""
    builder = TextBuilder()
    builder.add("x", doc_start, doc_end)
    return builder.segment().map


def _key(record: StmRecord | CtmRecord) -> tuple[str, str]:
    # sclite lowercases whole lines unless case-sensitive: "2347 A" in a CTM is "2347 a" in an STM
    return (record.file.lower(), record.channel.lower())


def _units(words: list[CtmRecord]) -> list[tuple[float, list[CtmRecord]]]:
    """A channel's CTM records as sclite walks them: a word, or a whole alternation block,
    with the midpoint it is placed by (a block's largest word midpoint, 0 with none)."""
    units: list[tuple[float, list[CtmRecord]]] = []
    i, n = 0, len(words)
    while i < n:
        w = words[i]
        if w.marker is None:
            units.append((w.start + (w.end - w.start) / 2.0, [w]))
            i += 1
            continue
        j = i
        while j < n and words[j].marker != "end":
            j += 1
        block = words[i : j + 1]
        mids = [x.start + (x.end - x.start) / 2.0 for x in block if x.marker is None]
        units.append((max(mids, default=0.0), block))
        i = j + 1
    return units


def _hyp_text(block: list[CtmRecord]) -> list[Segment]:
    """The segments of a run of CTM records, an empty alternative written ``@`` (mapped onto
    the marker after it), as sclite reads an empty one."""
    out: list[Segment] = []
    previous: CtmRecord | None = None
    for record in block:
        if record.marker in ("alt", "end") and previous is not None and previous.marker in ("begin", "alt"):
            out.append(Segment("@", record.text.map))
        out.append(record.text)
        previous = record
    return out


def assign_words(stm: Reading, ctm: Reading) -> list[tuple[Segment, int] | None]:
    """Each STM record's hypothesis text: its CTM words joined by spaces (alternations in
    ``{ a / b }`` notation), mapped to the CTM document, and the CTM line it starts on (a
    segment without words: the line of the word before it); None for a segment sclite ignores
    (``IGNORE_TIME_SEGMENT_IN_SCORING``). Words on a file and channel no STM segment has are
    in no text (sclite refuses such a pair of files). Linear in the number of records."""
    channels: dict[tuple[str, str], list[CtmRecord]] = {}
    for record in ctm.records:
        if isinstance(record, CtmRecord):
            channels.setdefault(_key(record), []).append(record)
    segments: dict[tuple[str, str], list[int]] = {}
    for k, record in enumerate(stm.records):
        if isinstance(record, StmRecord):
            segments.setdefault(_key(record), []).append(k)
    out: list[tuple[Segment, int] | None] = [None] * len(stm.records)
    for key, indices in segments.items():
        units = _units(channels.get(key, []))
        u = 0
        after = None  # where the last word taken ends
        after_line = None  # and its CTM line
        for position, k in enumerate(indices):
            record = stm.records[k]
            first = u
            taken: list[Segment] = []
            last = position == len(indices) - 1
            while u < len(units) and (last or units[u][0] < record.end):
                taken += _hyp_text(units[u][1])
                u += 1
            if taken:
                after, after_line = taken[-1].map.pieces[0][2], units[u - 1][1][-1].line
            elif after is None and u < len(units):
                # before the channel's first word
                after, after_line = units[u][1][0].text.map.pieces[0][1], units[u][1][0].line
            line = units[first][1][0].line if taken else after_line
            # a channel without a word: no line of the CTM is the segment's; its STM line stands
            out[k] = None if record.ignored else (_joined(taken, after), line if line is not None else record.line)
    return out


def unplaced(stm: Reading, ctm: Reading) -> list[CtmRecord]:
    """The first word of each file and channel of the CTM that no STM segment has: its words are
    in no segment's text (:func:`assign_words`), a pair of files sclite refuses."""
    covered = {_key(r) for r in stm.records if isinstance(r, StmRecord)}
    first: dict[tuple[str, str], CtmRecord] = {}
    for r in ctm.records:
        if isinstance(r, CtmRecord) and r.marker is None and _key(r) not in covered:
            first.setdefault(_key(r), r)
    return list(first.values())


def _joined(parts: list[Segment], empty_at: int | None) -> Segment:
    """:func:`joined` of CTM words (one piece each), without its general piece walk: this is
    most of the time :func:`assign_words` takes. No words are an empty text at ``empty_at``,
    between the words around (else at its STM record's line, in no word's)."""
    if not parts:
        return _Words("", CharMap(0, ((0, empty_at, empty_at),) if empty_at is not None else ()))
    builder = TextBuilder()
    previous = -1
    for part in parts:
        _, a, b = part.map.pieces[0]
        if previous >= 0:
            builder.add(" ", previous, max(a, previous))  # the gap between two words
        builder.add(part.text, a, b)
        previous = b
    joined = builder.segment()
    return _Words(joined.text, joined.map)
