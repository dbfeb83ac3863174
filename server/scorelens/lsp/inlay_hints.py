"""Inlay hints for the requested lines: per-line scores, missing words, reference words.

A segment's hints are built once, as the encoded JSON of the answer's entries, and cached by the
segment's texts (all they are made from), as its diagnostics are; when lines above it come or go,
only the line numbers in that text are moved. A request — Neovim asks for the whole document after
every change — joins cached text a slice of segments at a time, yielding in between, and stops
early when a newer request for the same document supersedes it (or ``$/cancelRequest`` cancels it).
The answer is written as that JSON text. After a cold re-score all pieces are built ahead, in the
background, for a client that asks for whole documents. A request for more than
:data:`WHOLE_ANSWER_LINES` lines that would have to build more than :data:`BUILD_SECONDS` of pieces
itself (the whole of a 100,000-line document right after it opened: over ten seconds of alignments)
is answered with the pieces there are, if the client can be asked to refresh its hints: the rest
are built in the background, and a ``workspace/inlayHint/refresh`` follows once they are. Tooltips
are filled in on ``inlayHint/resolve`` only, as they need the segment's full scores.
"""

from __future__ import annotations

import asyncio
import gc
import json
import re
import time

from lsprotocol import types

from ..core import findings as codes
from . import fluency
from .describe import segment_figures, short
from .hover import described
from .reviews import SLICE_SECONDS, Review
from .writer import RawResult

# How long one request builds missing pieces before it answers with those there are (see above):
# so that a first answer comes within the 100 ms a whole-document answer on 10,000 lines should
# take (0.25 s answered in 265-274 ms; 0.5 s in 0.5-0.8 s on 2 cores at a load average of 3-5).
BUILD_SECONDS = 0.06
# A request for at most this many lines (what an editor shows, however tall its window: VS Code
# asks for the visible lines) is answered whole, whatever it takes to build: cut short, its missing
# hints would come only after the whole document's background build (47 s on 100,000 lines).
WHOLE_ANSWER_LINES = 1000


def _json(label: str, padding_left: bool, padding_right: bool) -> str:
    """A hint's JSON between its position and its data, without braces (and without what is
    false: a whole-document answer carries tens of thousands of hints)."""
    hint = {"label": label, "paddingLeft": padding_left or None, "paddingRight": padding_right or None}
    return json.dumps({k: v for k, v in hint.items() if v is not None}, ensure_ascii=False, separators=(",", ":"))[1:-1]


# Where each hint's entry begins in a segment's answer text, and its line and character (the
# pattern cannot occur inside a label: a JSON string's quotes are escaped).
_ENTRY = re.compile(rb'\{"position":\{"line":(\d+),"character":(\d+)')


def _hints(ls, review: Review, segment: int, ppl: str) -> list[tuple[int, int, str]]:
    """(line relative to the segment's first, client column, label and paddings as JSON) of each
    of a segment's hints; ``ppl`` is its perplexity's label (empty without one)."""
    corpus = review.corpus
    show = review.settings.inlay_hints
    text = corpus.text(0, segment)
    layout = review.layout(0)
    lines = layout.lines
    first = layout.first_line(segment)
    hints = []

    def at(offset: int) -> tuple[int, int]:
        line, col = layout.position(segment, offset)
        return line - first, ls.columns.to_client(lines[line] if line < len(lines) else "", col)

    if show.missing_words or show.substitutions:
        for f in corpus.findings(segment):
            if f.code == codes.DELETION and show.missing_words:
                hints.append((*at(f.other_start), _json(f"+{f.text}", f.other_start > 0, f.other_start == 0)))
            elif f.code == codes.SUBSTITUTION and show.substitutions:
                hints.append((*at(f.end), _json(f"→{f.other_text}", True, False)))
    if show.line_scores and layout.position(segment, len(text))[0] < len(lines):
        scores = " · ".join(filter(None, (short(segment_figures(corpus, segment)), ppl)))
        if scores:
            hints.append((*at(len(text)), _json(scores, True, False)))
    return hints


def _segment_text(ls, review: Review, segment: int, first: int, document: int, build: bool = True) -> bytes | None:
    """All of a segment's hints as answer JSON (their entries joined by commas; empty if none),
    cached by the segment's texts and perplexity, all they are made from; None if not cached and
    not to ``build``. When lines above it come or go, only the line numbers in it are moved. One
    encoded text per segment: the hints as objects as well held 200 MB more for a whole
    100,000-line document."""
    corpus = review.corpus
    ppl = fluency.label(review, 0, segment)  # once the model answered
    key = (*(corpus.text(side, segment) for side in range(corpus.references + 1)), ppl, review.layout(0).shape(segment))
    cached = review.hints.get(segment)
    if cached is not None and cached[0] == key:
        if cached[1] == first:
            return cached[2]
        delta = first - cached[1]
        text = _ENTRY.sub(lambda m: b'{"position":{"line":%d,"character":%s' % (int(m[1]) + delta, m[2]), cached[2])
    elif not build:
        return None
    else:
        text = ",".join(
            f'{{"position":{{"line":{first + dl},"character":{column}}},{rest},"data":[{document},{segment}]}}'
            for dl, column, rest in _hints(ls, review, segment, ppl)
        ).encode()
    review.hints[segment] = (key, first, text)
    return text


def _entries(text: bytes, start: tuple[int, int], end: tuple[int, int]) -> list[bytes]:
    """The entries of a segment's answer text whose hint is in the range from ``start`` to
    ``end`` (line, character). A hint sits between characters, as a cursor does: one at the
    range's end is in it (the line-end scores of the last line VS Code shows), one past it is not
    (on the next line, after its first character, of a range that ends at that line's start)."""
    found = list(_ENTRY.finditer(text))
    stops = [m.start() - 1 for m in found[1:]] + [len(text)]  # (before the comma)
    return [text[m.start() : stop] for m, stop in zip(found, stops) if start <= (int(m[1]), int(m[2])) <= end]


class _Documents:
    """Small numbers for hypothesis URIs in each hint's ``data``: a whole-document answer
    carries tens of thousands of hints, and a URI in each would double its size."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        self._uris: list[str] = []

    def id_of(self, uri: str) -> int:
        if uri not in self._ids:
            self._ids[uri] = len(self._uris)
            self._uris.append(uri)
        return self._ids[uri]

    def uri_of(self, number) -> str | None:
        return self._uris[number] if isinstance(number, int) and 0 <= number < len(self._uris) else None


def prepare_soon(ls, review: Review) -> None:
    """After a cold re-score, build every segment's hints in the background, in slices, so the
    next whole-document request is answered from them: for clients that have asked for a whole
    document. One that asks for the lines it shows (VS Code) has them built when it asks; built
    ahead, they took seconds of a core after each Enter in a 100,000-line file, while the editor
    needed it."""
    if not ls.hint_whole_documents:
        return
    _build(ls, review)


def _build(ls, review: Review) -> None:
    if review.hints_task is not None:
        review.hints_task.cancel()
    review.hints_task = asyncio.ensure_future(_prepare(ls, review))


async def _prepare(ls, review: Review) -> None:
    corpus = review.corpus
    document = ls.hint_documents.id_of(review.uri)
    deadline = time.perf_counter() + SLICE_SECONDS
    layout = review.layout(0)
    for segment in range(len(corpus)):
        _segment_text(ls, review, segment, layout.first_line(segment), document)
        if time.perf_counter() > deadline:
            # What a slice made (the pieces, the segments' analyses) lives as long as the
            # document and holds no cycles: frozen, out of the collector's generations, or its
            # full collections walk millions of them, longer as the build goes on (on 100,000
            # lines ten of them, up to 0.2-0.7 s each, held the loop).
            gc.freeze()
            await ls.scheduler.next_slice()
            if ls.reviews.get(review.uri) is not review or review.corpus is not corpus or corpus.dirty:
                return  # changed meanwhile: what is left is built when asked for
            deadline = time.perf_counter() + SLICE_SECONDS
    if review.hints_partial:  # a request was answered with part of them: the client asks again
        review.hints_partial = False
        ls.workspace_inlay_hint_refresh(None)


async def _collect(
    ls, review: Review, start: tuple[int, int], end: tuple[int, int], ticket: object, build_until: float | None
) -> tuple[list[bytes], bool] | None:
    """The hints' JSON from ``start`` to ``end`` (line, character), encoded, and whether pieces were left out: those
    not built yet once ``build_until`` (a ``time.perf_counter()``) has passed. None if superseded
    or edited meanwhile."""
    corpus = review.corpus
    versions = dict(review.versions)
    pieces: list[bytes] = []
    left_out = False
    document = ls.hint_documents.id_of(review.uri)
    segments = len(corpus)
    layout = review.layout(0)
    segment = layout.segment_at(start[0])
    if segment is None:  # past the end, or a blank line between paragraphs
        segment = next((k for k in range(segments) if layout.first_line(k) >= start[0]), segments)
    deadline = time.perf_counter() + SLICE_SECONDS
    build = True
    while segment < segments:
        if not build and segment not in review.hints:
            # past its build time, on to the next piece built: looking at each left out (nearly
            # all of a cold 100,000-line document) took the loop ~0.3 s before the first answer
            left_out = True
            segment = next((k for k in range(segment, segments) if k in review.hints), segments)
            continue
        first = layout.first_line(segment)
        if first > end[0]:
            break
        text = _segment_text(ls, review, segment, first, document, build)
        left_out |= text is None
        if text and start <= (first, 0) and first + layout.line_count(segment) <= end[0]:  # its lines wholly inside
            pieces.append(text)
        elif text:
            pieces.extend(_entries(text, start, end))
        segment += 1
        if time.perf_counter() > deadline:
            gc.freeze()  # what the slice built lives as long as the document (see _prepare)
            await ls.scheduler.next_slice()
            superseded = ls.hint_requests.get(review.uri) is not ticket
            if superseded or review.corpus is not corpus or corpus.dirty or review.versions != versions:
                return None
            deadline = time.perf_counter() + SLICE_SECONDS
            build = build_until is None or time.perf_counter() < build_until
    return pieces, left_out


async def _answer(ls, uri: str, start: tuple[int, int], end: tuple[int, int], ticket: object) -> RawResult | None:
    # While the client is still reading earlier answers (a whole document's are 55 MB), wait
    # rather than queue another: a newer request meanwhile is answered instead of this one.
    await ls.protocol.writer.drained()
    if ls.hint_requests.get(uri) is not ticket:
        return None
    while True:
        review = ls.reviews.get(uri)
        if review is None or review.corpus is None:
            return RawResult([])
        # ContentModified if the review is replaced meanwhile; once a burst of typing, as the diagnostics
        await ls.scheduler.settled(review, pause=True)
        if review.corpus is None:
            continue
        whole = end[0] - start[0] > WHOLE_ANSWER_LINES
        ls.hint_whole_documents |= whole
        partial = whole and ls.client_supports("workspace", "inlay_hint", "refresh_support")
        collected = await _collect(ls, review, start, end, ticket, time.perf_counter() + BUILD_SECONDS if partial else None)
        if ls.hint_requests.get(uri) is not ticket:
            return None  # a newer request for this document is answered instead
        if collected is not None:
            pieces, left_out = collected
            if left_out:
                review.hints_partial = True
                if review.hints_task is None or review.hints_task.done():
                    _build(ls, review)
            return RawResult(pieces)
        # edited meanwhile: again, from the new text


def register(server) -> None:
    server.hint_documents = _Documents()
    server.hint_requests = {}
    server.hint_whole_documents = False  # whether the client has asked for more than a screen of lines

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=True))
    async def inlay_hints(ls, params: types.InlayHintParams):
        uri = params.text_document.uri
        ticket = ls.hint_requests[uri] = object()
        try:
            start, end = params.range.start, params.range.end
            return await _answer(ls, uri, (start.line, start.character), (end.line, end.character), ticket)
        finally:
            if ls.hint_requests.get(uri) is ticket:
                del ls.hint_requests[uri]

    @server.feature(types.INLAY_HINT_RESOLVE)
    def resolve(ls, hint: types.InlayHint) -> types.InlayHint:
        data = hint.data if isinstance(hint.data, list) and len(hint.data) == 2 else [None, None]
        review = ls.reviews.get(ls.hint_documents.uri_of(data[0]))
        segment = data[1]
        if review is not None and review.corpus is not None and isinstance(segment, int) and 0 <= segment < len(review.corpus):
            hint.tooltip = described(ls, review, segment)
        return hint
