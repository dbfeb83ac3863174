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

import html
import re
from typing import Iterator

import srt
import webvtt

from .segments import (
    CharMap, Fields, FormatError, Reading, Record, RecordError, Segment, TextBuilder, line_starts,
)

# a tag is "<" and a letter or "/" in SRT, where a lone "<" may be text; in WebVTT "<" always
# opens one (a text "<" is written "&lt;"), timestamps ("<00:00:01.000>") included
_SRT_MARKUP = re.compile(r"</?[A-Za-z][^<>]*>|\{\\[^{}]*\}")
_VTT_MARKUP = re.compile(r"<[^>]*>|\{\\[^{}]*\}|&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")

# what WebVTT may have before the first cue and between cues that is not one
_VTT_NOT_CUES = re.compile(r"(?:NOTE|STYLE|REGION)(?:[ \t]|$)")
_VTT_HEADER = re.compile(r"\ufeff?WEBVTT(?:[ \t]|$)")


def escape(text: str) -> str:
    """Cue text is written as it is."""
    return text


def read(text: str, fields: Fields, name: str) -> Reading:
    blocks = _blocks(text)
    if name == "vtt":
        header = next(blocks, None)
        if header is None or header[0][1] != 0 or not _VTT_HEADER.match(text, 0, header[0][2]):
            raise FormatError('not a WebVTT document: it does not start with "WEBVTT"')
    reading = Reading()
    cue = _srt_cue if name == "srt" else _vtt_cue
    position = 0
    for block in blocks:
        lines = [text[a:b] for _, a, b in block]
        if name == "vtt" and _VTT_NOT_CUES.match(lines[0]):
            continue
        position += 1
        timing = next((k for k, line in enumerate(lines[:2]) if "-->" in line), 0)
        try:
            id, start, end = cue(lines, timing)
        except ValueError as error:
            reading.errors.append(RecordError(block[timing][0] + 1, str(error)))
            continue
        reading.records.append(
            Record(block[0][0] + 1, _cue_text(text, block[timing:], name), id=id or str(position), start=start, end=end)
        )
    return reading


def _srt_cue(lines: list[str], timing: int) -> tuple[str | None, float, float]:
    try:
        cues = list(srt.parse("\n".join(lines) + "\n"))
    except srt.SRTParseError:
        cues = []
    # srt reads what follows the end time as player data, so a bad end time such as
    # "00:00:0X,000" would pass as "00:00:0" and "X,000": such data must follow a space
    if len(cues) != 1 or cues[0].proprietary and not lines[timing].endswith(" " + cues[0].proprietary):
        raise ValueError("not an SRT cue: expected a number, then HH:MM:SS,mmm --> HH:MM:SS,mmm, then the text")
    cue = cues[0]
    id = str(cue.index) if cue.index is not None else None
    return id, cue.start.total_seconds(), cue.end.total_seconds()


def _vtt_cue(lines: list[str], timing: int) -> tuple[str | None, float, float]:
    captions = webvtt.from_string("WEBVTT\n\n" + "\n".join(lines)).captions  # not strict: a bad cue is left out
    if len(captions) != 1:
        raise ValueError("not a WebVTT cue: expected [HH:]MM:SS.mmm --> [HH:]MM:SS.mmm, then the text")
    caption = captions[0]
    start, end = caption.start_time.in_milliseconds(), caption.end_time.in_milliseconds()
    return caption.identifier or None, start / 1000, end / 1000


def _cue_text(doc: str, lines: list[tuple[int, int, int]], name: str) -> Segment:
    """The text lines after the timing line (``lines[0]``) joined by spaces, each space mapped
    to the line break it stands for; a cue without text is an empty text after its timings."""
    markup = _SRT_MARKUP if name == "srt" else _VTT_MARKUP
    builder = TextBuilder()
    previous: int | None = None  # where the last line with text ends
    for _, start, end in lines[1:]:
        pieces = list(_line_pieces(doc, start, end, markup))
        if not pieces:
            continue
        if previous is not None:
            builder.add(" ", previous, start)
        for piece in pieces:
            builder.add(*piece)
        previous = end
    text = builder.segment()
    after = lines[0][2]
    return text if text.text else Segment("", CharMap(0, ((0, after, after),)))


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


def _blocks(doc: str) -> Iterator[list[tuple[int, int, int]]]:
    """Runs of lines that are not blank, each line as (0-based line, start, end without its
    line break)."""
    starts = line_starts(doc)
    block: list[tuple[int, int, int]] = []
    for k, a in enumerate(starts):
        b = starts[k + 1] if k + 1 < len(starts) else len(doc)
        while b > a and doc[b - 1] in "\r\n":
            b -= 1
        if doc[a:b].strip():
            block.append((k, a, b))
        elif block:
            yield block
            block = []
    if block:
        yield block
