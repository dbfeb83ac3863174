"""Benchmark: the real language server over stdio on a 10k- and a 100k-line pair.

Measures, with the default settings (the adaptive debounce), the time from sending a
one-character ``didChange`` (a word's letters typed on one line, then on another line picked at random) to receiving the resulting ``publishDiagnostics`` and
``scorelens/scores`` (both read in full off the pipe; p50/p95 over the keystrokes), the time to
the first diagnostics after ``didOpen``, and the server's peak memory (VmHWM); beside them, the
peers' full recomputation (sacrebleu + rouge-score rougeL + jiwer) of the same pair, timed in
the same run. Then the CPU cost of the default against a fixed 150 ms debounce: the server's
CPU time while ``--typed`` keystrokes arrive ``--gap`` ms apart (a fast typist), each setting in
its own server; during that typing a hover is requested after every fifth keystroke, and its
answer time is reported (p50/p95). Last, as clients other than VS Code ask: a whole-document
``textDocument/inlayHint`` (Neovim 0.11) cold (its first answer, and the one with every hint after
the refresh that follows an answer without some; hovers sent while the rest is built in the
background) and after a keystroke with its size, a hover sent once such an answer has begun to
arrive, and one-line changes sent as the whole text (Vim ALE);
``--other-clients`` runs only that part, and ``--loop-steps`` adds the longest step of the
server's event loop while those hints were in flight. Not a test: run ``.venv/bin/python bench/server.py [--sizes 10000,100000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from asyncio.subprocess import PIPE
from pathlib import Path


WORDS = [f"w{i}" for i in range(5000)]
# Keystrokes typed on one line before moving to another: the server spends the diagnostics budget
# around the last edits for clients that do not say what they show, so a move costs more.
WORD_LETTERS = 8


def corpus(lines: int, seed: int = 1) -> tuple[list[str], list[str]]:
    """Line-aligned pairs of ~20-30 Zipf-distributed words with ~30% word errors."""
    rng = random.Random(seed)
    cum_weights = list(itertools.accumulate(1 / (i + 1) for i in range(len(WORDS))))

    def word() -> str:
        return rng.choices(WORDS, cum_weights=cum_weights)[0]

    refs, hyps = [], []
    for _ in range(lines):
        ref = rng.choices(WORDS, cum_weights=cum_weights, k=rng.randint(20, 30))
        hyp = []
        for w in ref:
            r = rng.random()
            if r < 0.1:
                hyp.append(word())
            elif r < 0.2:
                continue
            elif r < 0.3:
                hyp += [w, word()]
            else:
                hyp.append(w)
        refs.append(" ".join(ref))
        hyps.append(" ".join(hyp))
    return hyps, refs


def peers(hyps: list[str], refs: list[str]) -> float:
    import jiwer
    import sacrebleu
    from rouge_score import rouge_scorer

    start = time.perf_counter()
    sacrebleu.BLEU().corpus_score(hyps, [refs])
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    for h, r in zip(hyps, refs):
        scorer.score(r, h)
    jiwer.process_words(refs, hyps)
    return time.perf_counter() - start


# With --loop-steps the server runs under this wrapper, which times each step of its event loop
# and writes those over 1 ms (start and seconds, on the clock the client reads too, and the
# seconds of CPU its thread had meanwhile: on a loaded machine a step's length can be the time
# the process waited for a core) at exit.
LOOP_STEPS = """
import asyncio.events, atexit, os, sys, time
steps, run = [], asyncio.events.Handle._run
def timed(self):
    start, cpu = time.perf_counter(), time.thread_time()
    try:
        return run(self)
    finally:
        if (took := time.perf_counter() - start) > 0.001:
            steps.append((start, took, time.thread_time() - cpu))
asyncio.events.Handle._run = timed
atexit.register(lambda: open(os.environ["SCORELENS_LOOP_STEPS"], "w").write("\\n".join(f"{a} {b} {c}" for a, b, c in steps)))
from scorelens.cli import main
sys.exit(main(["serve"]))
"""


def longest_step(path: Path, windows: list[tuple[float, float]]) -> tuple[float, float]:
    """The longest step of the server's event loop that overlapped one of ``windows``, in seconds
    and in seconds of CPU time (the most CPU time of those steps)."""
    steps = [tuple(map(float, line.split())) for line in path.read_text().splitlines()]
    during = [(took, cpu) for start, took, cpu in steps if any(a < start + took and start < b for a, b in windows)]
    return max((took for took, _ in during), default=0.0), max((cpu for _, cpu in during), default=0.0)


def peak_memory_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# The start of an answer the server encodes itself (whole-document inlay hints), and the size
# over which the client does not parse such an answer (the benchmark does not use its content).
ENCODED_ANSWER = re.compile(rb'\{"jsonrpc":"2\.0","id":(\d+),"result":')
UNPARSED_BYTES = 1_000_000


class Wire:
    """A bare JSON-RPC client over the server's stdio: an editor parses messages in native code,
    so the benchmark must not time a Python client's per-field decoding of every diagnostic."""

    def __init__(self, process: asyncio.subprocess.Process, on_notification, settings: dict | None = None) -> None:
        self.process = process
        self.settings = settings or {}
        self.on_notification = on_notification
        self.pending: dict[int, asyncio.Future] = {}
        self.sizes: dict[int, int] = {}  # bytes of each answer
        self.arrivals: dict[int, float] = {}  # when each answer was read off the pipe, before parsing
        self.starts: dict[int, asyncio.Future] = {}  # resolved when an answer's first bytes are read
        self.hints_refreshed = asyncio.Event()  # set by each workspace/inlayHint/refresh
        self.next_id = 0
        self.reader = asyncio.ensure_future(self._read())

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    async def request(self, method: str, params: dict | None) -> object:
        self.next_id += 1
        future = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        self.send({"id": self.next_id, "method": method, "params": params})
        return await future

    async def started(self, msg_id: int) -> None:
        """Until the first bytes of the answer to ``msg_id`` have been read (of an answer the server
        encodes itself: whole-document inlay hints)."""
        await self.starts.setdefault(msg_id, asyncio.get_running_loop().create_future())

    async def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = 0
            while (header := await stream.readline()) not in (b"\r\n", b""):
                if header.lower().startswith(b"content-length:"):
                    length = int(header.split(b":")[1])
            if not length:
                return
            head = await stream.readexactly(min(length, 64))
            answer = ENCODED_ANSWER.match(head)
            if answer is not None:
                started = self.starts.setdefault(int(answer[1]), asyncio.get_running_loop().create_future())
                if not started.done():
                    started.set_result(None)
            rest = await stream.readexactly(length - len(head))
            arrived = time.perf_counter()
            if answer is not None and length > UNPARSED_BYTES:
                # Whole-document inlay hints are not parsed: parsing 55 MB in Python took this client
                # 0.8 s and freeing the result 0.2 s, and what came next waited for both.
                message = {"id": int(answer[1]), "result": None}
            else:
                message = json.loads(head + rest)
            if "method" not in message:
                self.sizes[message["id"]] = length
                self.arrivals[message["id"]] = arrived
                self.pending.pop(message["id"]).set_result(message.get("result"))
            elif "id" in message:  # a request from the server
                if message["method"] == "workspace/inlayHint/refresh":
                    self.hints_refreshed.set()
                result = [self.settings for _ in message["params"]["items"]] if message["method"] == "workspace/configuration" else None
                self.send({"id": message["id"], "result": result})
            else:
                self.on_notification(message["method"], message["params"], arrived)


def cpu_seconds(pid: int) -> float:
    """The process's user + system CPU time so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def other_clients(wire: Wire, uri: str, document: list[str], change, keystroke, rng: random.Random) -> dict:
    """As clients other than VS Code ask: a whole-document inlay-hint request (Neovim 0.11 asks
    lines 0..N after every change) cold and after a keystroke, with its answer's size; a hover
    sent once such an answer has begun to arrive (its answer comes after the rest of that one:
    also timed from the hints' last byte read); one-line changes sent as the whole text (Vim ALE).
    ``document`` is the text's lines as the server has them, kept up to date by ``keystroke``."""
    lines = len(document)
    whole = {"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": lines, "character": 0}}}

    windows = []  # from sending each warm request to reading its answer

    async def hints() -> tuple[float, int]:
        """Until the answer is read off the pipe: an editor parses it in native code."""
        asked = wire.next_id + 1  # the id the request gets
        sent = time.perf_counter()
        await wire.request("textDocument/inlayHint", whole)
        windows.append((sent, wire.arrivals[asked]))
        return wire.arrivals[asked] - sent, wire.sizes[asked]

    wire.hints_refreshed.clear()
    cold, size = await hints()
    # An answer that left out pieces not built yet is followed by a refresh once they are (as
    # Neovim 0.11, which asks again): the cold figure is until the answer with all of them.
    # A partial answer is told by asking again at once: that request builds more pieces itself, so
    # only an answer that had them all comes back the same. The refresh follows the last piece.
    # Meanwhile, hovers (up to 20, 0.1 s apart): answered between the build's slices.
    complete = cold
    began = time.perf_counter() - cold
    building = []
    if (await hints())[1] != size:
        while not wire.hints_refreshed.is_set() and len(building) < 20:
            sent = time.perf_counter()
            await wire.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": rng.randrange(lines), "character": 0}})
            building.append(time.perf_counter() - sent)
            await asyncio.sleep(0.1)
        await asyncio.wait_for(wire.hints_refreshed.wait(), 120)
        size = (await hints())[1]
        complete = time.perf_counter() - began
    windows.clear()
    warm, hovers, after_hints = [], [], []
    for _ in range(5):
        await change(keystroke())
        warm.append((await hints())[0])
        in_flight = asyncio.ensure_future(hints())
        asked = wire.next_id + 1  # the id it gets when it runs
        await wire.started(asked)  # the server is writing the answer
        hover = wire.next_id + 1
        sent = time.perf_counter()
        await wire.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": rng.randrange(lines), "character": 0}})
        await in_flight
        hovers.append(wire.arrivals[hover] - sent)
        after_hints.append(wire.arrivals[hover] - wire.arrivals[asked])
    full_text = []
    for _ in range(20):
        line = rng.randrange(lines)
        document[line] = "y " + document[line]
        full_text.append(await change([{"text": "\n".join(document) + "\n"}]))
    return {
        "hints_cold": cold,
        "hints_complete": complete,
        "hints_warm": statistics.median(warm),
        "hints_mb": size / 1e6,
        "hover_building": (statistics.median(building), max(building)) if building else None,
        "hover_in_flight": statistics.median(hovers),
        "hover_after_hints": statistics.median(after_hints),
        "hint_windows": windows,
        "full_text": statistics.median(full_text),
    }


async def drive(
    folder: Path,
    lines: int,
    keystrokes: int,
    settings: dict,
    typed: int,
    gap: float,
    latency: bool = True,
    only_others: bool = False,
    loop_steps: bool = False,
) -> dict:
    hyps, refs = corpus(lines)
    hyp_path, ref_path = folder / f"b{lines}.hyp.txt", folder / f"b{lines}.ref.txt"
    hyp_path.write_text("\n".join(hyps) + "\n")
    ref_path.write_text("\n".join(refs) + "\n")
    uri = hyp_path.as_uri()

    events = {"textDocument/publishDiagnostics": asyncio.Event(), "scorelens/scores": asyncio.Event()}
    arrivals: dict[str, float] = {}
    expected = {"version": 1}

    def on_notification(method: str, params: dict, arrived: float) -> None:
        if method in events and params.get("uri") == uri and params.get("version") == expected["version"]:
            arrivals[method] = arrived
            events[method].set()

    steps_file = folder / f"steps{lines}.txt"
    command = ["-c", LOOP_STEPS] if loop_steps else ["-m", "scorelens", "serve"]
    process = await asyncio.create_subprocess_exec(
        sys.executable, *command, stdin=PIPE, stdout=PIPE, limit=2**26, env={**os.environ, "SCORELENS_LOOP_STEPS": str(steps_file)}
    )
    wire = Wire(process, on_notification, settings)
    await wire.request(
        "initialize",
        {
            "processId": None,
            "capabilities": {
                "workspace": {"configuration": True, "inlayHint": {"refreshSupport": True}},
                "textDocument": {"inlayHint": {"dynamicRegistration": False}},
            },
            "workspaceFolders": [{"uri": folder.as_uri(), "name": "bench"}],
        },
    )
    wire.notify("initialized", {})

    start = time.perf_counter()
    wire.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": hyp_path.read_text()}},
    )
    await asyncio.wait_for(events["textDocument/publishDiagnostics"].wait(), 600)
    first = arrivals["textDocument/publishDiagnostics"] - start

    rng = random.Random(7)
    version = 1

    async def change(changes: list[dict]) -> float:
        """Seconds from sending a change to both its diagnostics and its scores."""
        nonlocal version
        version += 1
        expected["version"] = version
        for e in events.values():
            e.clear()
        sent = time.perf_counter()
        wire.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes})
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events.values())), 60)
        return max(arrivals.values()) - sent

    typing = {"line": 0, "column": 0, "left": 0, "jumped": False}
    # the text as the server has it: a whole-text change built from the opened text instead
    # would undo every keystroke before it, re-scoring most of the document
    document = list(hyps)

    def keystroke() -> list[dict]:
        """The next letter of a word typed on a line; after each word, the next is typed on another
        line picked at random (a jump: the diagnostics around that line are built then)."""
        typing["jumped"] = typing["left"] == 0
        if typing["jumped"]:
            typing.update(line=rng.randrange(lines), column=0, left=WORD_LETTERS)
        at = {"line": typing["line"], "character": typing["column"]}
        line = document[typing["line"]]
        document[typing["line"]] = line[: typing["column"]] + "x" + line[typing["column"] :]
        typing["column"] += 1
        typing["left"] -= 1
        return [{"range": {"start": at, "end": at}, "text": "x"}]

    # This client's own garbage collections (it holds the corpus and parses every message) would
    # land in the timings as server latency (the keystrokes' and the hovers' while typing).
    gc.collect()
    gc.disable()
    latencies, jumps = [], []
    for _ in range(keystrokes if latency else 0):
        latencies.append(await change(keystroke()))
        if typing["jumped"]:
            jumps.append(latencies[-1])
    others = await other_clients(wire, uri, document, change, keystroke, rng) if latency else {}
    if only_others:
        gc.enable()
        memory = peak_memory_mb(process.pid)
        await wire.request("shutdown", None)
        wire.notify("exit", None)
        await process.wait()
        if loop_steps:
            others["longest_step"] = longest_step(steps_file, others["hint_windows"])
        return {"lines": lines, "memory": memory, **others}

    # typing at a steady pace without waiting for anything; then until the last one is published
    first_typed = version + 1
    expected["version"] = first_typed + typed - 1
    for e in events.values():
        e.clear()
    cpu = cpu_seconds(process.pid)
    hovers: list[float] = []

    async def hover(at: dict) -> None:
        sent = time.perf_counter()
        await wire.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": at})
        hovers.append(time.perf_counter() - sent)

    asked = []
    for k in range(typed):
        at = {"line": rng.randrange(lines), "character": 0}
        wire.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": first_typed + k}, "contentChanges": [{"range": {"start": at, "end": at}, "text": "x"}]},
        )
        if k % 5 == 4:
            asked.append(asyncio.ensure_future(hover(at)))
        await asyncio.sleep(gap)
    await asyncio.gather(*asked)
    gc.enable()
    hovers.sort()
    await asyncio.wait_for(events["textDocument/publishDiagnostics"].wait(), 60)
    cpu = cpu_seconds(process.pid) - cpu
    memory = peak_memory_mb(process.pid)
    await wire.request("shutdown", None)
    wire.notify("exit", None)
    await process.wait()
    latencies.sort()
    if not latency:
        return {"cpu": cpu}
    hover_p50 = statistics.median(hovers) if hovers else float("nan")
    hover_p95 = hovers[int(0.95 * (len(hovers) - 1))] if hovers else float("nan")
    return {
        "lines": lines,
        "first": first,
        "p50": statistics.median(latencies),
        "p95": latencies[int(0.95 * (len(latencies) - 1))],
        "jump_p50": statistics.median(jumps),
        "memory": memory,
        "cpu": cpu,
        "hover_p50": hover_p50,
        "hover_p95": hover_p95,
        "peers": peers(hyps, refs),
        **others,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--keystrokes", type=int, default=200)
    parser.add_argument("--typed", type=int, default=200, help="keystrokes typed at a steady pace for the CPU comparison")
    parser.add_argument("--gap", type=float, default=50, help="milliseconds between typed keystrokes")
    parser.add_argument(
        "--other-clients", action="store_true", help="only the last table (after --keystrokes keystrokes; no typing, no peers)"
    )
    parser.add_argument(
        "--loop-steps",
        action="store_true",
        help="with --other-clients: also the longest step of the server's event loop while warm whole-document hints are in flight",
    )
    args = parser.parse_args()
    rows = []
    gap = args.gap / 1000
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            if args.other_clients:
                rows.append(await drive(Path(tmp), n, args.keystrokes, {}, args.typed, gap, only_others=True, loop_steps=args.loop_steps))
                continue
            rows.append(await drive(Path(tmp), n, args.keystrokes, {}, args.typed, gap))
            rows[-1]["fixed_cpu"] = (await drive(Path(tmp), n, 0, {"debounceMs": 150}, args.typed, gap, latency=False))["cpu"]
    if not args.other_clients:
        print_latencies(rows, args)
        print()
    print_other_clients(rows)
    if args.other_clients:
        print("server peak memory: " + ", ".join(f"{r['lines']:,} lines {r['memory']:.0f} MB" for r in rows))
    if args.loop_steps:
        print(
            "longest step of the server's event loop while warm whole-document hints were in flight: "
            + ", ".join(f"{r['lines']:,} lines {1000 * r['longest_step'][0]:.1f} ms ({1000 * r['longest_step'][1]:.1f} ms of CPU)" for r in rows)
        )


def print_latencies(rows: list[dict], args: argparse.Namespace) -> None:
    print("default settings (scorelens.debounceMs unset: the adaptive debounce)")
    print(f"words of {WORD_LETTERS} letters, each on a line picked at random; 'after a jump': each word's first letter")
    print(
        f"{'lines':>8} {'first diags':>12} {'keystroke p50':>14} {'p95':>9} {'after a jump p50':>17} "
        f"{'peak MB':>8} {'peers full':>11} {'peers/p50':>10}"
    )
    for r in rows:
        print(
            f"{r['lines']:>8} {r['first']:>11.2f}s {1000 * r['p50']:>12.1f}ms {1000 * r['p95']:>7.1f}ms "
            f"{1000 * r['jump_p50']:>15.1f}ms {r['memory']:>8.0f} {r['peers']:>10.2f}s {r['peers'] / r['p50']:>9.0f}×"
        )
    for r in rows:
        print(
            f"{r['lines']:,} lines, {args.typed} keystrokes typed {args.gap:.0f} ms apart: server CPU {r['cpu']:.2f} s "
            f"with the adaptive debounce, {r['fixed_cpu']:.2f} s with a fixed 150 ms debounce; "
            f"hover meanwhile p50 {1000 * r['hover_p50']:.1f} ms, p95 {1000 * r['hover_p95']:.1f} ms"
        )


def print_other_clients(rows: list[dict]) -> None:
    print("as other clients ask (whole-document inlay hints as Neovim 0.11; whole-text changes as Vim ALE)")
    print(
        f"{'lines':>8} {'hints cold':>11} {'all of them':>12} {'hints warm':>11} {'MB':>6} {'hover behind':>13} {'after their end':>16} "
        f"{'full-text change p50':>21} {'hover while building p50/max':>29}"
    )
    for r in rows:
        building = "(built at once)" if r["hover_building"] is None else "{:.1f} / {:.1f} ms".format(*(1000 * t for t in r["hover_building"]))
        print(
            f"{r['lines']:>8} {1000 * r['hints_cold']:>9.0f}ms {1000 * r['hints_complete']:>10.0f}ms {1000 * r['hints_warm']:>9.0f}ms {r['hints_mb']:>6.1f} "
            f"{1000 * r['hover_in_flight']:>11.1f}ms {1000 * r['hover_after_hints']:>14.1f}ms {1000 * r['full_text']:>19.1f}ms {building:>29}"
        )


if __name__ == "__main__":
    asyncio.run(main())
