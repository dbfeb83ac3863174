"""Inlay-hint pieces built in the server's process (no client): what the background build and a
request that builds leave to the garbage collector, and what a request past its build time does
for the pieces it leaves out. Neither shows in an answer, only in pauses of the event loop on big
documents."""

from __future__ import annotations

import asyncio
import gc
from types import SimpleNamespace

from scorelens.core import Corpus
from scorelens.lsp import fluency, inlay_hints
from scorelens.lsp.pairing import Pairing
from scorelens.lsp.positions import Columns
from scorelens.lsp.reviews import Review
from scorelens.lsp.settings import parse, scoring_config

SEGMENTS = 2000
URI = "file:///w/p.hyp.txt"


def _review() -> tuple[SimpleNamespace, Review]:
    settings, _ = parse({})
    hyp = "".join(f"line {i} the red car sat\n" for i in range(SEGMENTS))
    ref = "".join(f"line {i} the blue car sat down\n" for i in range(SEGMENTS))
    review = Review(URI, Pairing(URI, ("file:///w/p.ref.txt",), "test"), settings, scoring_config(settings), None)
    review.corpus = Corpus(hyp, [ref], review.config)
    review.corpus.refresh()
    ls = SimpleNamespace(
        reviews={URI: review},
        columns=Columns(None),
        hint_documents=inlay_hints._Documents(),
        hint_requests={},
        client_supports=lambda *path: False,
        scheduler=SimpleNamespace(next_slice=lambda: asyncio.sleep(0)),
    )
    return ls, review


def test_the_background_build_leaves_its_pieces_out_of_the_collectors_generations():
    # Full collections walk every object in the generations: the build's pieces and analyses
    # (millions on 100,000 lines) made each take 0.1-0.7 s, holding the event loop.
    ls, review = _review()
    gc.collect()
    before = len(gc.get_objects())
    try:
        asyncio.run(inlay_hints._prepare(ls, review))
        assert len(review.hints) == SEGMENTS
        gc.collect()
        assert len(gc.get_objects()) - before < SEGMENTS // 4  # (what the last slice made)
    finally:
        gc.unfreeze()


def test_a_request_that_builds_leaves_its_pieces_out_of_the_collectors_generations():
    # Before the background build gets there (or for a client that never declared inlay hints),
    # a request builds the pieces itself: left in the generations, 17,000 analyses of a 10,000-line
    # pair made an automatic full collection take 30 ms in the middle of its answer.
    ls, review = _review()
    ticket = ls.hint_requests[URI] = object()
    gc.collect()
    before = len(gc.get_objects())
    try:
        pieces, left_out = asyncio.run(inlay_hints._collect(ls, review, (0, 0), (SEGMENTS, 0), ticket, None))
        assert len(review.hints) == SEGMENTS and pieces and not left_out
        gc.collect()
        assert len(gc.get_objects()) - before < SEGMENTS // 4  # (what the last slice made)
    finally:
        gc.unfreeze()


def test_a_request_past_its_build_time_does_nothing_for_the_pieces_it_leaves_out(monkeypatch):
    # On a cold 100,000-line document that was ~0.5 s more before the first answer, shared with
    # the background build's slices: seconds on a loaded machine.
    ls, review = _review()
    labels = []
    label = fluency.label
    monkeypatch.setattr(fluency, "label", lambda *args: labels.append(args[2]) or label(*args))
    ticket = ls.hint_requests[URI] = object()
    pieces, left_out = asyncio.run(inlay_hints._collect(ls, review, (0, 0), (SEGMENTS, 0), ticket, build_until=0.0))
    assert left_out and len(review.hints) < SEGMENTS
    assert sorted(labels) == sorted(review.hints)  # only the pieces built in the first slice


def test_pieces_are_built_ahead_only_for_a_client_that_has_asked_for_a_whole_document():
    # VS Code asks for the lines it shows, and has them built then: built ahead after each cold
    # re-score (an Enter re-pairs half the document), they took seconds of a core the editor needed.
    ls, review = _review()

    async def nothing(*args, **kwargs):
        return None

    ls.protocol = SimpleNamespace(writer=SimpleNamespace(drained=nothing))
    ls.scheduler.settled = nothing
    ls.hint_whole_documents = False

    async def ask(lines: int) -> None:
        ticket = ls.hint_requests[URI] = object()
        await inlay_hints._answer(ls, URI, (0, 0), (lines, 0), ticket)
        inlay_hints.prepare_soon(ls, review)  # as after a cold re-score
        if review.hints_task is not None:
            await review.hints_task

    try:
        asyncio.run(ask(50))  # a screen of lines: those built, no more
        assert review.hints_task is None and len(review.hints) < 100
        asyncio.run(ask(inlay_hints.WHOLE_ANSWER_LINES + 1))
        assert ls.hint_whole_documents and len(review.hints) == SEGMENTS
    finally:
        gc.unfreeze()
