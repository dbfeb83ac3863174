"""The event loop's longest block when an edit makes the server read a formatted pair again
(issue #36): Enter in the middle of a 100,000-record JSONL pair, a keystroke in a 20,000-cue SRT
pair, a keystroke in a 10,000-unit XLIFF pair. In one process, the server driven directly (no
client): the edit's didChange, then its re-score to the end, with a ticker measuring the gaps
between the loop's turns.

    PYTHONPATH=server python bench/formatted_reread.py
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from lsprotocol import types

from scorelens.lsp import handlers
from scorelens.lsp.documents import OpenDocument
from scorelens.lsp.pairing import Pairing
from scorelens.lsp.reviews import Review
from scorelens.lsp.server import SWITCH_INTERVAL_S, ScoreLensServer
from scorelens.lsp.settings import Settings, scoring_config

WORDS = "the a cat dog sat ran on under mat rug today yesterday".split()


def _sentence(k: int, variant: int) -> str:
    return " ".join(WORDS[(k * 7 + i * 3 + variant * (i % 2)) % len(WORDS)] for i in range(9)) + f" {k}"


def jsonl(n: int, side: str) -> str:
    field = "prediction" if side == "hyp" else "reference"
    return "".join(json.dumps({"id": f"r{k}", field: _sentence(k, side == "hyp")}) + "\n" for k in range(n))


def _stamp(ms: int) -> str:
    return f"{ms // 3_600_000:02}:{ms // 60_000 % 60:02}:{ms // 1000 % 60:02},{ms % 1000:03}"


def srt(n: int, side: str) -> str:
    return "".join(f"{k + 1}\n{_stamp(k * 3000)} --> {_stamp(k * 3000 + 2500)}\n{_sentence(k, side == 'hyp')}\n\n" for k in range(n))


def xliff(n: int, side: str) -> str:
    units = "".join(
        f'      <trans-unit id="u{k}">\n        <source>src {k}</source>\n        <target>{_sentence(k, side == "hyp")}</target>\n      </trans-unit>\n'
        for k in range(n)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
        '  <file source-language="de" target-language="en" datatype="plaintext" original="x.txt">\n    <body>\n'
        + units
        + "    </body>\n  </file>\n</xliff>\n"
    )


class Sink:
    def write(self, data) -> None:
        pass

    def close(self) -> None:
        pass


async def scored(hypothesis: Path, pairing: Pairing, settings: Settings) -> tuple[ScoreLensServer, Review]:
    """A server (no client) with ``hypothesis`` open and reviewed, its first scoring done, and
    what it builds ahead after."""
    ls = ScoreLensServer()
    ls.protocol.set_writer(Sink())
    ls.protocol.client_capabilities = types.ClientCapabilities()
    ls.hint_whole_documents = ls.reports_wanted = False  # (set by register, initialize)
    uri = hypothesis.as_uri()
    ls.documents.open[uri] = OpenDocument.of(uri, 1, "plaintext", hypothesis.read_text(encoding="utf-8"))
    review = Review(uri, pairing, settings, replace(scoring_config(settings), segmentation="line"), None)
    ls.reviews[uri] = review
    ls.load(review)
    assert review.corpus is not None, review.problems
    ls.scheduler.schedule(review, delay=0)
    await review.task
    for task in (review.hints_task, review.table_task):
        if task is not None:
            await asyncio.wait({task})
    return ls, review


async def case(name: str, make, n: int, ext: str, edit) -> None:
    folder = Path(tempfile.mkdtemp())
    hyp, ref = folder / f"big.hyp.{ext}", folder / f"big.ref.{ext}"
    hyp.write_text(make(n, "hyp"), encoding="utf-8")
    ref.write_text(make(n, "ref"), encoding="utf-8")
    uri = hyp.as_uri()
    ls, review = await scored(hyp, Pairing(uri, (ref.as_uri(),), "bench"), Settings(debounce_ms=0))
    longest = 0.0
    ticking = True

    async def ticker() -> None:
        nonlocal longest
        last = time.perf_counter()
        while ticking:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            longest = max(longest, now - last)
            last = now

    tick = asyncio.ensure_future(ticker())
    await asyncio.sleep(0.05)
    longest = 0.0
    line, column, text = edit(ls.documents.open[uri].lines)
    began = time.perf_counter()
    handlers.did_change(
        ls,
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=2, uri=uri),
            [types.TextDocumentContentChangePartial(types.Range(types.Position(line, column), types.Position(line, column)), text)],
        ),
    )
    in_change = time.perf_counter() - began
    while review.task is not None and not review.task.done():
        await asyncio.sleep(0.01)
    total = time.perf_counter() - began
    ticking = False
    await tick
    print(f"{name:32} didChange {in_change * 1000:7.0f} ms   edit to scores {total * 1000:7.0f} ms   longest loop block {longest * 1000:7.0f} ms")


async def main() -> None:
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    middle = lambda n: lambda lines: (n, len(lines[n]), "\n")  # noqa: E731
    await case("Enter, 100,000-record JSONL", jsonl, 100_000, "jsonl", middle(50_000))
    await case("Enter in a record, JSONL", jsonl, 100_000, "jsonl", lambda lines: (50_000, 20, "\n"))
    await case("keystroke, 20,000-cue SRT", srt, 20_000, "srt", lambda lines: (40_002, 4, "x"))
    await case("keystroke, 10,000-unit XLIFF", xliff, 10_000, "xlf", lambda lines: (4 + 4 * 5_000 + 2, 16, "x"))


if __name__ == "__main__":
    asyncio.run(main())
