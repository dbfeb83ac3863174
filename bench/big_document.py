"""Benchmark: a 1,000,000-line pair of short lines opened in the real language server over stdio.

Measures the server's peak memory (VmHWM) after ``didOpen``, the time to the first
``publishDiagnostics``, the time until ``scorelens/report`` is answered as the VS Code extension
asks for it (the summary first, then the worst 100 rows), and the longest wait of a hover sent
every 0.5 s meanwhile (the loop must keep answering). The client declares that it shows reports,
as the extension does. Not a test: run ``.venv/bin/python bench/big_document.py [--sizes 1000000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from asyncio.subprocess import PIPE
from pathlib import Path

from server import Wire, peak_memory_mb

WORDS = [f"w{i}" for i in range(2000)]
SUMMARY_ONLY = {"offset": 0, "limit": 0, "sort": "line", "descending": False, "filters": []}
WORST_PAGE = {"offset": 0, "limit": 100, "sort": "bleu", "descending": False, "filters": []}


def short_lines(lines: int, seed: int = 1) -> tuple[str, str]:
    """A hypothesis and a reference of ``lines`` lines of 2-5 words, one word in four changed."""
    rng = random.Random(seed)
    hyps, refs = [], []
    for _ in range(lines):
        ref = rng.choices(WORDS, k=rng.randint(2, 5))
        refs.append(" ".join(ref))
        hyps.append(" ".join(rng.choice(WORDS) if rng.random() < 0.25 else w for w in ref))
    return "\n".join(hyps) + "\n", "\n".join(refs) + "\n"


async def drive(folder: Path, lines: int, timeout: float) -> dict:
    hyp, ref = short_lines(lines)
    hyp_path, ref_path = folder / f"s{lines}.hyp.txt", folder / f"s{lines}.ref.txt"
    hyp_path.write_text(hyp)
    ref_path.write_text(ref)
    uri = hyp_path.as_uri()
    diagnosed = asyncio.Event()

    def on_notification(method: str, params: dict, arrived: float) -> None:
        if method == "textDocument/publishDiagnostics" and params.get("uri") == uri:
            diagnosed.set()

    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "scorelens", "serve", stdin=PIPE, stdout=PIPE, limit=2**26)
    wire = Wire(process, on_notification)
    await wire.request(
        "initialize",
        {
            "processId": None,
            "capabilities": {"workspace": {"configuration": True}, "experimental": {"scorelens": {"report": True}}},
            "workspaceFolders": [{"uri": folder.as_uri(), "name": "bench"}],
        },
    )
    wire.notify("initialized", {})
    base = peak_memory_mb(process.pid)
    start = time.perf_counter()
    wire.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": hyp}})
    del hyp, ref
    hovers: list[float] = []

    async def hover_every_half_second() -> None:
        rng = random.Random(3)
        while True:
            await asyncio.sleep(0.5)
            sent = time.perf_counter()
            await wire.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": rng.randrange(lines), "character": 1}})
            hovers.append(time.perf_counter() - sent)

    hovering = asyncio.ensure_future(hover_every_half_second())
    figures = {"lines": lines, "idle MB": base}
    try:
        await asyncio.wait_for(diagnosed.wait(), timeout)
        figures["first diagnostics s"] = time.perf_counter() - start
        figures["peak MB then"] = peak_memory_mb(process.pid)
        summary = await asyncio.wait_for(wire.request("scorelens/report", {"uri": uri, **SUMMARY_ONLY}), timeout)
        figures["report summary s"] = time.perf_counter() - start
        figures["summary complete"] = summary is not None and not summary.get("partial", False)
        asked = wire.next_id + 1  # the id the request gets (a hover sent meanwhile takes the next)
        page = await asyncio.wait_for(wire.request("scorelens/report", {"uri": uri, **WORST_PAGE}), timeout)
        figures["worst page s"] = time.perf_counter() - start
        figures["page rows"] = len(page["segments"]) if page else None
        figures["page bytes"] = wire.sizes[asked]
    except asyncio.TimeoutError:
        figures["timed out after s"] = time.perf_counter() - start
    hovering.cancel()
    figures["peak MB"] = peak_memory_mb(process.pid)
    figures["longest hover s"] = max(hovers, default=float("nan"))
    process.kill()
    await process.wait()
    return figures


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--timeout", type=float, default=120, help="seconds to wait for each answer")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for lines in map(int, args.sizes.split(",")):
            figures = await drive(Path(tmp), lines, args.timeout)
            print("  ".join(f"{k}: {v:.2f}" if isinstance(v, float) else f"{k}: {v}" for k, v in figures.items()), flush=True)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(__file__))
    asyncio.run(main())
