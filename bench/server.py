"""Benchmark: the real language server over stdio on a 10k- and a 100k-line pair.

Measures the time from sending a one-character ``didChange`` to receiving the resulting
``publishDiagnostics`` and ``scorelens/scores`` (p50/p95 over the keystrokes), the time to the
first diagnostics after ``didOpen``, and the server's peak memory (VmHWM); beside them, the
peers' full recomputation (sacrebleu + rouge-score rougeL + jiwer) of the same pair, timed in
the same run. Not a test: run ``.venv/bin/python bench/server.py [--sizes 10000,100000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

WORDS = [f"w{i}" for i in range(5000)]


def corpus(lines: int, seed: int = 1) -> tuple[list[str], list[str]]:
    """Line-aligned pairs of ~20-30 Zipf-distributed words with ~30% word errors."""
    rng = random.Random(seed)
    weights = [1 / (i + 1) for i in range(len(WORDS))]
    refs, hyps = [], []
    for _ in range(lines):
        ref = rng.choices(WORDS, weights, k=rng.randint(20, 30))
        hyp = []
        for w in ref:
            r = rng.random()
            if r < 0.1:
                hyp.append(rng.choices(WORDS, weights)[0])
            elif r < 0.2:
                continue
            elif r < 0.3:
                hyp += [w, rng.choices(WORDS, weights)[0]]
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


def peak_memory_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def drive(folder: Path, lines: int, keystrokes: int) -> dict:
    hyps, refs = corpus(lines)
    hyp_path, ref_path = folder / f"b{lines}.hyp.txt", folder / f"b{lines}.ref.txt"
    hyp_path.write_text("\n".join(hyps) + "\n")
    ref_path.write_text("\n".join(refs) + "\n")
    uri = hyp_path.as_uri()

    client = LanguageClient("bench", "0")
    events: dict[str, asyncio.Event] = {"diagnostics": asyncio.Event(), "scores": asyncio.Event()}
    expected = {"version": 1}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == uri and params.version == expected["version"]:
            events["diagnostics"].set()

    @client.feature("scorelens/scores")
    def on_scores(params) -> None:
        if params.uri == uri and params.version == expected["version"]:
            events["scores"].set()

    @client.feature(types.WORKSPACE_CONFIGURATION)
    def configuration(params: types.ConfigurationParams):
        return [{"debounceMs": 0} for _ in params.items]

    await client.start_io(sys.executable, "-m", "scorelens", "serve")
    pid = client._server.pid
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(configuration=True)),
            workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="bench")],
        )
    )
    client.initialized(types.InitializedParams())

    start = time.perf_counter()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="plaintext", version=1, text=hyp_path.read_text()))
    )
    await asyncio.wait_for(events["diagnostics"].wait(), 600)
    first = time.perf_counter() - start

    rng = random.Random(7)
    latencies = []
    for k in range(keystrokes):
        line = rng.randrange(lines)
        expected["version"] = k + 2
        for e in events.values():
            e.clear()
        sent = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(version=k + 2, uri=uri),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(types.Position(line, 0), types.Position(line, 0)), text="x"
                    )
                ],
            )
        )
        await asyncio.wait_for(asyncio.gather(events["diagnostics"].wait(), events["scores"].wait()), 60)
        latencies.append(time.perf_counter() - sent)
    memory = peak_memory_mb(pid)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    latencies.sort()
    return {
        "lines": lines,
        "first": first,
        "p50": statistics.median(latencies),
        "p95": latencies[int(0.95 * (len(latencies) - 1))],
        "memory": memory,
        "peers": peers(hyps, refs),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--keystrokes", type=int, default=200)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            rows.append(await drive(Path(tmp), n, args.keystrokes))
    print(f"{'lines':>8} {'first diags':>12} {'keystroke p50':>14} {'p95':>9} {'peak MB':>8} {'peers full':>11} {'peers/p50':>10}")
    for r in rows:
        print(
            f"{r['lines']:>8} {r['first']:>11.2f}s {1000 * r['p50']:>12.1f}ms {1000 * r['p95']:>7.1f}ms "
            f"{r['memory']:>8.0f} {r['peers']:>10.2f}s {r['peers'] / r['p50']:>9.0f}×"
        )


if __name__ == "__main__":
    asyncio.run(main())
