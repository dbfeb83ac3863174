"""Soak: the server's memory over 20,000 edits on a 10,000-line pair, against a fresh server's.

    .venv/bin/python bench/soak.py [--lines 10000] [--edits 20000]

A client that answers every request the server sends types into the hypothesis: mostly one
character inserted or deleted at a random line, every 50th edit a line broken or two lines
joined (every later line re-paired), a hover every 10th; it waits for each edit's
``publishDiagnostics``. The server's resident memory (VmRSS) is sampled every 1,000 edits.
Then a fresh server opens the final text, and its memory once its first diagnostics are out is
the baseline. Not a test (minutes long): it prints its figures.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from asyncio.subprocess import PIPE
from pathlib import Path

from server import Wire, corpus  # bench/server.py


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Session:
    """One server process, one open hypothesis; waits for the publish of each version."""

    def __init__(self) -> None:
        self.published: dict[int, asyncio.Event] = {}

    def on_notification(self, method: str, params: dict, arrived: float) -> None:
        if method == "textDocument/publishDiagnostics" and params.get("version") in self.published:
            self.published[params["version"]].set()

    async def start(self, folder: Path, uri: str, text: str) -> None:
        self.process = await asyncio.create_subprocess_exec(sys.executable, "-m", "scorelens", "serve", stdin=PIPE, stdout=PIPE, limit=2**26)
        self.wire = Wire(self.process, self.on_notification)
        caps = {"workspace": {"configuration": True}, "textDocument": {"publishDiagnostics": {"versionSupport": True}}}
        await self.wire.request("initialize", {"processId": None, "capabilities": caps, "workspaceFolders": [{"uri": folder.as_uri(), "name": "soak"}]})
        self.wire.notify("initialized", {})
        self.uri = uri
        await self.publish(1, lambda: self.wire.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}}))

    async def publish(self, version: int, send) -> None:
        self.published[version] = asyncio.Event()
        send()
        await asyncio.wait_for(self.published[version].wait(), 600)
        del self.published[version]

    async def stop(self) -> None:
        await self.wire.request("shutdown", None)
        self.wire.notify("exit", None)
        await self.process.wait()


def broken_and_joined(doc: list[str]) -> list[dict]:
    """Two changes that leave the text as it was: line 0 broken in two, then joined again (each
    re-pairs every later line, as the soak's every 50th edit does)."""
    at = {"line": 0, "character": len(doc[0]) // 2}
    return [{"range": {"start": at, "end": at}, "text": "\n"}, {"range": {"start": at, "end": {"line": 1, "character": 0}}, "text": ""}]


async def soak(lines: int, edits: int) -> None:
    hyps, refs = corpus(lines)
    rng = random.Random(11)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        hyp_path, ref_path = folder / "s.hyp.txt", folder / "s.ref.txt"
        hyp_path.write_text("\n".join(hyps) + "\n")
        ref_path.write_text("\n".join(refs) + "\n")
        session = Session()
        await session.start(folder, hyp_path.as_uri(), hyp_path.read_text())
        doc = hyps + [""]
        samples = [(0, rss_mb(session.process.pid))]
        started = time.perf_counter()
        for k in range(1, edits + 1):
            line = rng.randrange(len(doc) - 1)
            text = doc[line]
            if k % 50 == 0 and len(doc) > 2:
                if k % 100 == 0:  # join this line and the next
                    change = {"range": {"start": {"line": line, "character": len(text)}, "end": {"line": line + 1, "character": 0}}, "text": " "}
                    doc[line : line + 2] = [text + " " + doc[line + 1]]
                else:  # break it in two
                    col = len(text) // 2
                    change = {"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col}}, "text": "\n"}
                    doc[line : line + 1] = [text[:col], text[col:]]
            elif text and rng.random() < 0.5:  # delete one character
                col = rng.randrange(len(text))
                change = {"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 1}}, "text": ""}
                doc[line] = text[:col] + text[col + 1 :]
            else:
                col = rng.randrange(len(text) + 1)
                change = {"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col}}, "text": "x"}
                doc[line] = text[:col] + "x" + text[col:]
            params = {"textDocument": {"uri": session.uri, "version": k + 1}, "contentChanges": [change]}
            await session.publish(k + 1, lambda: session.wire.notify("textDocument/didChange", params))
            if k % 10 == 0:
                at = {"line": line, "character": 0}
                await session.wire.request("textDocument/hover", {"textDocument": {"uri": session.uri}, "position": at})
            if k % 1000 == 0:
                samples.append((k, rss_mb(session.process.pid)))
                print(f"  {k:>6} edits  {samples[-1][1]:6.1f} MB  ({time.perf_counter() - started:.0f} s)", flush=True)
        await session.stop()

        final = folder / "final.hyp.txt"
        final.write_text("\n".join(doc))
        (folder / "final.ref.txt").write_text(ref_path.read_text())
        fresh = Session()
        await fresh.start(folder, final.as_uri(), final.read_text())
        baseline = rss_mb(fresh.process.pid)
        # the same server once it has served each kind of request the soak makes (its code for
        # them imported, the high-water mark of a re-pairing's re-score reached): a line broken
        # and joined again, a hover
        for version, change in enumerate(broken_and_joined(doc), start=2):
            params = {"textDocument": {"uri": fresh.uri, "version": version}, "contentChanges": [change]}
            await fresh.publish(version, lambda: fresh.wire.notify("textDocument/didChange", params))
        await fresh.wire.request("textDocument/hover", {"textDocument": {"uri": fresh.uri}, "position": {"line": 0, "character": 0}})
        served = rss_mb(fresh.process.pid)
        await fresh.stop()

    end = samples[-1][1]
    print(f"after opening: {samples[0][1]:.0f} MB; after {edits:,} edits: {end:.0f} MB; fresh server on the final text: {baseline:.0f} MB ({100 * (end / baseline - 1):+.1f} %)")
    print(f"the fresh server after a line broken and joined again and a hover: {served:.0f} MB ({100 * (end / served - 1):+.1f} %)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--edits", type=int, default=20_000)
    args = parser.parse_args()
    asyncio.run(soak(args.lines, args.edits))


if __name__ == "__main__":
    main()
