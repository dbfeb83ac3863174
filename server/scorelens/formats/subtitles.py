"""SRT and WebVTT: a record per cue, its text lines joined by one space, times in seconds.

The document is cut into blocks at blank lines, and each block is read by the format's library
(``srt``, ``webvtt-py``), which checks its index, timings and settings; a block it refuses is a
:class:`RecordError` on its timing line and the other cues are still read. The libraries give no
offsets, so the text lines are taken from the block itself: those after the timing line. Markup
is no part of the text (``<i>``, ``<font …>``, WebVTT's ``<c.x>``, ``<v Name>`` and
``<00:00:01.000>``, ASS overrides such as ``{\\an8}``); WebVTT's character references (``&amp;``,
``&lt;``, ``&nbsp;``, ``&lrm;``…) are their characters, each read as one piece.

The id is the SRT cue number or the WebVTT cue identifier, else the cue's position (1-based).
"""

from __future__ import annotations

import bisect
import html
import re
from typing import Iterator

import srt
import webvtt
from webvtt import vtt

from .segments import (
    CharMap,
    Fields,
    FormatError,
    Reading,
    Record,
    RecordError,
    Segment,
    TextBuilder,
    line_starts,
)

# a tag is "<" and a letter or "/" in SRT, where a lone "<" may be text; in WebVTT "<" always
# opens one (a text "<" is written "&lt;"), timestamps ("<00:00:01.000>") included
_SRT_MARKUP = re.compile(r"</?[A-Za-z][^<>]*>|\{\\[^{}]*\}")
_VTT_MARKUP = re.compile(r"<[^>]*>|\{\\[^{}]*\}|&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")

# what WebVTT may have before the first cue and between cues that is not one
_VTT_NOT_CUES = re.compile(r"(?:NOTE|STYLE|REGION)(?:[ \t]|$)")
_VTT_HEADER = re.compile(r"\ufeff?WEBVTT(?:[ \t]|$)")
_TIME_LIKE = re.compile(r"[ \t]*[0-9]+:[0-9]")


def escape(text: str) -> str:
    """SRT cue text is written as it is (SRT has no escapes)."""
    return text


def escape_vtt(text: str) -> str:
    """WebVTT cue text cannot hold a bare ``&`` or ``<`` (they begin escapes and tags); ``>`` is
    escaped too, as the WebVTT specification writes it."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class _VttText(Segment):
    """A WebVTT cue's text: a replacement goes into it escaped (see :func:`escape_into`)."""

    __slots__ = ()


def escape_into(text: str, segment: Segment) -> str:
    """``text`` as it is written into a cue's text (WebVTT's escaped): a cue without text is a
    place at the end of its timing line (see :func:`_cue_text`), so there the text goes on a
    line of its own, not onto the timings."""
    written = escape_vtt(text) if isinstance(segment, _VttText) else escape(text)
    return "\n" + written if written and not segment.text else written


def read(text: str, fields: Fields, name: str) -> Reading:
    blocks = _blocks(text)
    if name == "vtt":
        header = next(blocks, None)
        if header is None or header[1][0][0] != 0 or not _VTT_HEADER.match(text, 0, header[1][0][1]):
            raise FormatError('not a WebVTT document: it does not start with "WEBVTT"')
    reading = Reading()
    cue, markup, kind = (_srt_cue, _SRT_MARKUP, Segment) if name == "srt" else (_vtt_cue, _VTT_MARKUP, _VttText)
    position = 0
    for line, spans in blocks:
        lines = [text[a:b] for a, b in spans]
        if name == "vtt" and _VTT_NOT_CUES.match(lines[0]):
            continue
        position += 1
        # after a number or identifier; a second line that starts as a time is the timing line
        # too when its arrow is broken ("->"), so that the error names the line to mend
        timing = 1 if len(lines) > 1 and "-->" not in lines[0] and ("-->" in lines[1] or _TIME_LIKE.match(lines[1])) else 0
        try:
            id, start, end = cue(lines, timing)
        except ValueError as error:
            reading.errors.append(RecordError(line + timing, str(error)))
            continue
        segment = _cue_text(text, spans[timing], spans[timing + 1 :], lines[timing + 1 :], markup, kind)
        reading.records.append(Record(line, segment, id=id or str(position), start=start, end=end))
    return reading


def _srt_cue(lines: list[str], timing: int) -> tuple[str | None, float, float]:
    try:
        cues = list(srt.parse("\n".join(lines) + "\n"))
    except srt.SRTParseError:
        cues = []
    except (OverflowError, ValueError):
        # srt takes numbers of any length: a time past timedelta's range (999,999,999 days), or
        # an index or time of more digits than int() converts
        raise ValueError("not an SRT cue: its number or a time is too large to read") from None
    # srt reads what follows the end time as player data, so a bad end time such as
    # "00:00:0X,000" would pass as "00:00:0" and "X,000": such data must follow a space
    if len(cues) != 1 or cues[0].proprietary and not lines[timing].endswith(" " + cues[0].proprietary):
        raise ValueError("not an SRT cue: expected a number, then HH:MM:SS,mmm --> HH:MM:SS,mmm, then the text")
    cue = cues[0]
    id = str(cue.index) if cue.index is not None else None
    return id, cue.start.total_seconds(), cue.end.total_seconds()


def _vtt_cue(lines: list[str], timing: int) -> tuple[str | None, float, float]:
    caption = vtt.parse_item(lines, seen_cue=True)  # not strict: a bad cue is None
    if not isinstance(caption, webvtt.Caption):
        raise ValueError("not a WebVTT cue: expected [HH:]MM:SS.mmm --> [HH:]MM:SS.mmm, then the text")
    start, end = caption.start_time.in_milliseconds(), caption.end_time.in_milliseconds()
    return caption.identifier or None, start / 1000, end / 1000


def _cue_text(doc: str, timing: tuple[int, int], spans: list[tuple[int, int]], lines: list[str],
              markup: re.Pattern[str], kind: type[Segment]) -> Segment:
    """The text lines after the timing line joined by spaces, each space mapped to the line
    break it stands for; a cue without text is an empty text after its timings."""
    builder = TextBuilder()
    previous: int | None = None  # where the last line with text ends
    for (start, end), line in zip(spans, lines):
        if "<" in line or "{" in line or "&" in line:
            pieces = list(_line_pieces(doc, start, end, markup))
        else:
            pieces = [(line, start, end)]
        if not pieces:
            continue
        if previous is not None:
            builder.add(" ", previous, start)
        for piece in pieces:
            builder.add(*piece)
        previous = end
    text = builder.segment()
    return kind(text.text, text.map) if text.text else kind("", CharMap(0, ((0, timing[1], timing[1]),)))


def _line_pieces(doc: str, start: int, end: int, markup: re.Pattern[str]) -> Iterator[tuple[str, int, int]]:
    """A line's text as (text, document start, end), less its markup, with WebVTT's
    references decoded (each one piece)."""
    at = start
    for m in markup.finditer(doc, start, end):
        if m.start() > at:
            yield doc[at : m.start()], at, m.start()
        if m.group().startswith("&"):
            yield html.unescape(m.group()), m.start(), m.end()
        at = m.end()
    if end > at:
        yield doc[at:end], at, end


# a run of lines that are not blank; a line within it
_BLOCK = re.compile(r"[^\r\n]*\S[^\r\n]*(?:(?:\r\n|\r|\n)[^\r\n]*\S[^\r\n]*)*")
_LINE = re.compile(r"[^\r\n]+")


def _blocks(doc: str) -> Iterator[tuple[int, list[tuple[int, int]]]]:
    """Each block of lines that are not blank: its first line (1-based) and each line's
    (start, end) without its line break."""
    starts = line_starts(doc)
    for block in _BLOCK.finditer(doc):
        line = bisect.bisect_right(starts, block.start())
        yield line, [m.span() for m in _LINE.finditer(doc, block.start(), block.end())]
