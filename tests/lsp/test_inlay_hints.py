"""Whole-document inlay hints, as Neovim 0.11 asks after every change: answered from per-segment
pieces, in slices (a hover behind one is answered first), and stopped when superseded or cancelled;
a request that would wait for too many pieces to be built gets those there are, and a refresh."""

from __future__ import annotations

import asyncio

import pytest
from lsp_support import open_doc, scores
from lsprotocol import types
from test_server import units, write_pair

LINES = 4000


def _pair(client) -> tuple[str, list[str]]:
    hyp = [f"😀 line {i} the red car" if i % 2 else f"line {i} a cat sat" for i in range(LINES)]
    ref = [f"😀 line {i} the blue car" if i % 2 else f"line {i} a cat sat down" for i in range(LINES)]
    uri, _ = write_pair(client, "big", "\n".join(hyp) + "\n", "\n".join(ref) + "\n")
    return uri, hyp


def _whole(uri: str, lines: int = LINES) -> types.InlayHintParams:
    return types.InlayHintParams(types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0), types.Position(lines, 0)))


async def _every_hint(client, uri: str, count: int = 2 * LINES, lines: int = LINES) -> list[types.InlayHint]:
    """The whole document's ``count`` hints, asked for as Neovim does (up to the start of the line
    after its ``lines``): an answer that left some out (the server builds them meanwhile, in the
    background) is followed by a refresh, and asked for again."""
    while True:
        refreshes = len(client.refreshes)
        hints = await client.text_document_inlay_hint_async(_whole(uri, lines))
        if len(hints) == count:
            return hints
        while len(client.refreshes) == refreshes:
            await asyncio.sleep(0.05)


async def test_whole_document_hints_after_an_edit(client):
    uri, hyp = _pair(client)
    await scores(client, uri)
    hints = await _every_hint(client, uri)  # one finding and one line score per line
    odd = [h for h in hints if h.position.line == 3]
    assert [h.label for h in odd][0] == "→blue"
    assert odd[0].position.character == units(client, "😀 line 3 the red")
    assert odd[1].label.startswith("BLEU ") and odd[1].position.character == units(client, hyp[3])
    # a line inserted at the top of both moves every hint one line down, from the cached pieces
    ref_uri = open_doc(client, client.workspace / "t" / "big.ref.txt")
    for doc in (ref_uri, uri):
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=2, uri=doc),
                [types.TextDocumentContentChangePartial(range=types.Range(types.Position(0, 0), types.Position(0, 0)), text="\n")],
            )
        )
    await scores(client, uri, version=2)
    moved = await _every_hint(client, uri, 2 * LINES + 1, LINES + 1)  # and the empty line's scores
    line_3 = [h for h in moved if h.position.line == 4]
    assert [h.label for h in line_3][0] == "→blue"
    resolved = await client.inlay_hint_resolve_async(line_3[0])
    assert "segment 5" in resolved.tooltip.value  # the segment it is on now (shown 1-based)


async def test_hover_behind_a_whole_document_request_is_answered_first(client):
    uri, _ = _pair(client)
    await scores(client, uri)
    order = []
    hints = asyncio.ensure_future(client.text_document_inlay_hint_async(_whole(uri)))
    hints.add_done_callback(lambda _: order.append("hints"))
    await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(5, 0)))
    order.append("hover")
    await hints
    assert order == ["hover", "hints"]


def _rewrite(client, uri: str, version: int, lines: list[str]) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [types.TextDocumentContentChangeWholeDocument(text="\n".join(lines) + "\n")],
        )
    )


async def test_cancelled_and_superseded_requests_stop_early(client):
    # Each request below waits for the debounced re-score of an edit of every line, so the
    # cancellation and the newer request reach the server before it could have answered, on
    # however fast a machine.
    client.set_configuration({"scorelens": {"debounceMs": 300}})
    uri, hyp = _pair(client)
    await scores(client, uri)
    _rewrite(client, uri, 2, [f"x {line}" for line in hyp])
    future = asyncio.wrap_future(client.protocol.send_request("textDocument/inlayHint", _whole(uri), msg_id="hints-to-cancel"))
    client.protocol.notify("$/cancelRequest", types.CancelParams(id="hints-to-cancel"))
    with pytest.raises(Exception, match="cancel"):
        await future
    _rewrite(client, uri, 3, hyp)
    first = asyncio.ensure_future(client.text_document_inlay_hint_async(_whole(uri)))
    second = asyncio.ensure_future(client.text_document_inlay_hint_async(_whole(uri)))
    assert await first is None  # superseded by the second, for the same document
    if len(await second) < 2 * LINES:  # some not built yet: the rest come with a refresh
        await _every_hint(client, uri)


HUGE = 30_000  # lines: their segments' alignments take seconds on any machine


async def _huge_pair(client, name: str) -> str:
    """A scored pair of HUGE lines, each with one substitution; the server builds the hints of
    its segments in the background after its first diagnostics."""
    hyp = "".join(f"line {i} the red car\n" for i in range(HUGE))
    ref = "".join(f"line {i} the blue car\n" for i in range(HUGE))
    uri, _ = write_pair(client, name, hyp, ref)
    await scores(client, uri)
    return uri


async def test_a_request_that_would_wait_for_the_pieces_gets_those_built_then_a_refresh(client):
    # a request for the whole document answers after building for BUILD_SECONDS
    uri = await _huge_pair(client, "huge")
    refreshes = len(client.refreshes)
    part = await client.text_document_inlay_hint_async(_whole(uri, HUGE))
    assert len(part) < 2 * HUGE
    while len(client.refreshes) == refreshes:
        await asyncio.sleep(0.05)
    every = await client.text_document_inlay_hint_async(_whole(uri, HUGE))
    assert len(every) == 2 * HUGE  # "→blue" and the line's scores
    place = lambda h: (h.position.line, h.position.character, h.label)
    assert set(map(place, part)) <= set(map(place, every))


async def test_a_request_for_a_screen_of_lines_is_answered_whole_however_long_it_builds(client):
    # VS Code asks for the lines it shows. Cut short, the rest of them would come with the refresh
    # after the whole document's background build: on 100,000 lines, 47 s after the jump there.
    uri = await _huge_pair(client, "screen")
    # WHOLE_ANSWER_LINES, to the end of the last one as VS Code asks (a range ends before its end)
    middle = types.Range(types.Position(20_000, 0), types.Position(21_000, len("line 21000 the red car")))
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(types.TextDocumentIdentifier(uri), middle))
    assert len(hints) == 2 * 1001  # "→blue" and the line's scores on each line, the last one's too
