"""Long segments: a 1 MB line pair opened in the server while another document's hovers keep coming.

    .venv/bin/python bench/long_segment.py [--words 170000]

A segment over 10,000 characters is scored in a worker process; the server's loop must stay
free meanwhile. A hover on a small paired document is sent every 20 ms from opening the long
pair until its diagnostics arrive; their answer times are reported (p50/p95/max), with the
peak memory of the server (and how much it grew from before opening the pair) and of its worker,
against the size of the texts (Python holds them as one byte a character here). Then the peers' time for the same line
(sacreBLEU BLEU, jiwer WER), for scale. Not a test: it prints its figures.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from asyncio.subprocess import PIPE
from pathlib import Path

from server import Wire, peak_memory_mb  # bench/server.py


def random_line(words: int, seed: int) -> str:
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(3000)]
    return " ".join(rng.choice(vocabulary) for _ in range(words))


def descendants(pid: int) -> list[int]:
    """The server's worker is a child of its fork server, a child of the server."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            found += [int(child), *descendants(int(child))]
    return found


async def drive(folder: Path, words: int) -> dict:
    hyp, ref = random_line(words, 1), random_line(words, 2)
    (folder / "long.hyp.txt").write_text(hyp + "\n")
    (folder / "long.ref.txt").write_text(ref + "\n")
    (folder / "small.hyp.txt").write_text("the cat sat on the mat\n")
    (folder / "small.ref.txt").write_text("a cat sat on the mat\n")
    published: dict[str, asyncio.Event] = {}

    def on_notification(method: str, params: dict, arrived: float) -> None:
        if method == "textDocument/publishDiagnostics":
            published.setdefault(params["uri"], asyncio.Event()).set()

    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "scorelens", "serve", stdin=PIPE, stdout=PIPE, limit=2**26)
    wire = Wire(process, on_notification, {})
    await wire.request("initialize", {"processId": None, "capabilities": {}, "workspaceFolders": [{"uri": folder.as_uri(), "name": "bench"}]})
    wire.notify("initialized", {})

    def open_doc(name: str) -> str:
        path = folder / name
        uri = path.as_uri()
        published.setdefault(uri, asyncio.Event())
        wire.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": path.read_text()}})
        return uri

    small = open_doc("small.hyp.txt")
    await asyncio.wait_for(published[small].wait(), 60)
    before_mb = peak_memory_mb(process.pid)
    started = time.perf_counter()
    long = open_doc("long.hyp.txt")
    hovers = []
    worker_mb = 0.0
    while not published[long].is_set():
        asked = wire.next_id + 1  # the id the request gets
        sent = time.perf_counter()
        await wire.request("textDocument/hover", {"textDocument": {"uri": small}, "position": {"line": 0, "character": 1}})
        hovers.append((wire.arrivals[asked] - sent, sent - started))
        try:
            worker_mb = max([worker_mb, *(peak_memory_mb(c) for c in descendants(process.pid))])
        except FileNotFoundError:  # a process ended while being read
            pass
        await asyncio.sleep(0.02)
    scored = time.perf_counter() - started
    server_mb = peak_memory_mb(process.pid)
    await wire.request("shutdown", None)
    wire.notify("exit", None)
    await process.wait()
    slowest = max(hovers)
    hovers = sorted(h for h, _ in hovers)
    return {
        "scored": scored,
        "hovers": len(hovers),
        "p50": statistics.median(hovers),
        "p95": hovers[int(0.95 * (len(hovers) - 1))],
        "max": slowest[0],
        "max_at": slowest[1],
        "server_mb": server_mb,
        "before_mb": before_mb,
        "worker_mb": worker_mb,
        "text_mb": (len(hyp) + len(ref)) / 1e6,
        "peers": peers(hyp, ref),
    }


def peers(hyp: str, ref: str) -> dict[str, float]:
    import jiwer
    import sacrebleu

    times = {}
    for name, run in (("sacreBLEU BLEU", lambda: sacrebleu.corpus_bleu([hyp], [[ref]])), ("jiwer WER", lambda: jiwer.wer(ref, hyp))):
        began = time.perf_counter()
        run()
        times[name] = time.perf_counter() - began
    return times


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=170_000, help="words in each line (170,000 make about 1 MB)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        r = await drive(Path(tmp), args.words)
    print(f"a {r['text_mb']:.2f} MB pair (one line each side), scored and published in {r['scored']:.1f} s")
    print(
        f"hovers on another document meanwhile: {r['hovers']} answered, p50 {1000 * r['p50']:.1f} ms, "
        f"p95 {1000 * r['p95']:.1f} ms, max {1000 * r['max']:.1f} ms ({r['max_at']:.1f} s after opening the pair)"
    )
    grown = r["server_mb"] - r["before_mb"]
    print(
        f"peak memory: server {r['server_mb']:.0f} MB ({grown:.0f} MB more than before opening the pair: "
        f"{grown / r['text_mb']:.1f}× the texts), worker {r['worker_mb']:.0f} MB"
    )
    print("peers on the same line, for scale: " + ", ".join(f"{name} {t:.1f} s" for name, t in r["peers"].items()))


if __name__ == "__main__":
    asyncio.run(main())
