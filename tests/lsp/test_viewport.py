"""Diagnostics where the user is: the maxProblems budget is spent around the lines the client
shows (``scorelens/visibleRanges``), then around the last edits, then from the top; the "not
shown" note sits where the user looks."""

from __future__ import annotations

import asyncio

from lsp_support import diagnostics, scores
from lsprotocol import types
from test_server import change, write_pair

LINES = 400
VISIBLE_RANGES = "scorelens/visibleRanges"


def pair(client, name: str = "vp") -> str:
    """Every line of the hypothesis has findings: its first word is not the reference's."""
    hyp = "".join(f"w{i} a b c\n" for i in range(LINES))
    ref = "".join(f"v{i} a b c\n" for i in range(LINES))
    return write_pair(client, name, hyp, ref)[0]


def show(client, uri: str, *ranges: tuple[int, int]) -> None:
    params = {"uri": uri, "ranges": [{"start": {"line": a, "character": 0}, "end": {"line": b, "character": 0}} for a, b in ranges]}
    client.protocol.notify(VISIBLE_RANGES, params)


async def settled_diagnostics(client, uri: str, until, timeout: float = 20) -> list[types.Diagnostic]:
    """The document's diagnostics once ``until(diags)`` holds (pushed or pulled again)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        diags = await diagnostics(client, uri)
        if until(diags):
            return diags
        if loop.time() > deadline:
            lines = sorted({d.range.start.line for d in diags})
            raise TimeoutError(f"diagnostics never matched; on lines {lines[:20]}…{lines[-5:]}")
        await asyncio.sleep(0.05)


def lines_of(diags) -> set[int]:
    return {d.range.start.line for d in diags if d.code != "scorelens.truncated"}


def note(diags) -> types.Diagnostic:
    [found] = [d for d in diags if d.code == "scorelens.truncated"]
    return found


async def test_budget_goes_to_the_visible_lines_then_the_last_edit_then_the_top(client):
    # Each line has 3 findings: 149 diagnostics and the note are about 50 lines' worth.
    client.set_configuration({"scorelens": {"debounceMs": 0, "maxProblems": 150}})
    uri = pair(client)
    await scores(client, uri)
    # Nothing shown, nothing edited: from the top, the note on line 1.
    diags = await diagnostics(client, uri)
    assert len(diags) == 150 and min(lines_of(diags)) == 0 and max(lines_of(diags)) < 60
    assert note(diags).range.start.line == 0

    # An edit far down: the budget goes around it, and the note next to it: on the nearest line
    # that shows no diagnostics of its own, never on the edited line.
    change(client, uri, 2, (300, 0), (300, 2), "x300")
    await scores(client, uri, version=2)
    diags = await settled_diagnostics(client, uri, lambda d: 300 in lines_of(d))
    assert len(diags) == 150
    assert lines_of(diags) >= set(range(280, 321)), "20 lines either side"
    assert note(diags).range.start.line == next_free(300, lines_of(diags)) == 321

    # The client shows lines 150-159: they come first, and the note is in them.
    show(client, uri, (150, 159))
    diags = await settled_diagnostics(client, uri, lambda d: 150 in lines_of(d))
    assert len(diags) == 150
    shown = lines_of(diags)
    window = set(range(139, 170))  # from line 154 out: the visible lines and as many either side
    assert shown >= window, "the visible lines and as many either side"
    assert shown - window <= set(range(280, 321)), "then around the last edit"
    assert shown >= set(range(291, 310)), "nearest to the edit first"
    n = note(diags)
    assert n.range.start.line == 150
    assert "not shown (scorelens.maxProblems = 150)" in n.message
    assert "raise scorelens.maxProblems" in n.message and "report" in n.message

    # The editor no longer shows the document: around the last edit again.
    show(client, uri)
    diags = await settled_diagnostics(client, uri, lambda d: 150 not in lines_of(d))
    assert note(diags).range.start.line == 321


async def test_the_note_is_not_put_on_a_line_just_fixed(client):
    # A client that reports no visible lines (eglot): after a fix, the line it cleared stays clear.
    client.set_configuration({"scorelens": {"debounceMs": 0, "maxProblems": 150}})
    uri = pair(client, "fixed")
    await scores(client, uri)
    change(client, uri, 2, (300, 0), (300, 4), "v300")  # as a quick fix makes the line the reference's
    await scores(client, uri, version=2)
    diags = await settled_diagnostics(client, uri, lambda d: 301 in lines_of(d) and 299 in lines_of(d))
    assert 300 not in lines_of(diags)
    line = note(diags).range.start.line
    assert line != 300 and line not in lines_of(diags)
    assert line == next_free(300, lines_of(diags) | {300})


def next_free(edited: int, busy: set[int]) -> int:
    """The nearest line to ``edited`` not in ``busy``, the one below first on a tie."""
    for d in range(1, LINES):
        for line in (edited + d, edited - d):
            if 0 <= line < LINES and line not in busy:
                return line
    raise AssertionError("no free line")


async def test_every_visible_range_first_then_from_the_top(client):
    client.set_configuration({"scorelens": {"debounceMs": 0, "maxProblems": 150}})
    uri = pair(client, "two")
    await scores(client, uri)
    # Two split editors on the same document, nothing edited.
    show(client, uri, (100, 104), (380, 384))
    diags = await settled_diagnostics(client, uri, lambda d: {100, 380} <= lines_of(d))
    windows = set(range(95, 110)) | set(range(375, 390))
    shown = lines_of(diags)
    assert shown >= windows
    assert shown - windows == set(range(len(shown - windows))), "the rest from the top"
    assert note(diags).range.start.line == 100


async def test_malformed_visible_ranges_are_dropped_and_the_server_keeps_serving(client):
    uri = pair(client, "bad")
    await scores(client, uri)
    client.protocol.notify(VISIBLE_RANGES, {"uri": uri, "ranges": "all"})
    client.protocol.notify(VISIBLE_RANGES, {"ranges": []})
    client.protocol.notify(VISIBLE_RANGES, [1, 2])
    # thousands of ranges over the whole document: only the first few are kept
    show(client, uri, *[(0, 2**31 - 1)] * 50_000)
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0)))
    assert hover is not None and "segment 1" in hover.contents.value


async def test_a_budget_short_of_the_screen_goes_to_its_middle(client):
    client.set_configuration({"scorelens": {"debounceMs": 0, "maxProblems": 31}})
    uri = pair(client, "short")
    await scores(client, uri)
    show(client, uri, (200, 239))  # 40 lines shown, 10 lines' worth of budget
    diags = await settled_diagnostics(client, uri, lambda d: 219 in lines_of(d))
    assert lines_of(diags) == set(range(215, 225))
    # nearest the middle first: VS Code draws squiggles for the first 500 of a file only
    order = [d.range.start.line for d in diags if d.code != "scorelens.truncated"]
    assert order[:9] == [219] * 3 + [220] * 3 + [218] * 3 and order[-3:] == [224] * 3
    assert note(diags).range.start.line == 200
