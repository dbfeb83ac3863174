"""Benchmark: scoring files in the formats evaluation data comes in, as whole processes.

    .venv/bin/python bench/formats.py [--records 100000] [--meeting 3000] [--write bench/RESULTS.md]

JSONL: ``--records`` records ``{"id", "prediction", "reference"}`` of the lines bench/core.py
generates (TED sentences of 20-30 tokens, ~30% word errors), written once as one JSONL file and
once as two plain files. Timed: ``scorelens score eval.jsonl -j 1 --json`` against the same
command on the two plain files (the target of issue #36: at most 1.3× their time), and the
peers as an eval harness calls them today on the same JSONL (``json.loads`` per line, then
``sacrebleu.corpus_bleu``, a rouge-score ``RougeScorer(["rougeL"])`` loop and
``jiwer.process_words``) against ``scorelens score eval.jsonl -m bleu,rougeL,wer``.

STM/CTM: a meeting of ``--meeting`` segments (~20,000 words in all at the default) on one
channel, its CTM hypothesis the reference's words with ~30% errors and times inside their
segment; ``scorelens score meeting.ctm -r meeting.stm -m wer -j 1`` (target: ≤ 1 s). sclite
itself is not run here (it is C, built from SCTK's sources, which this machine's CI cannot fetch).

Every run is a whole process (interpreter, imports, reading, scoring), timed from its start to
its exit, with its peak resident memory; the figures of the plain and JSONL runs and the
peers' are checked equal (1e-9).

Keystrokes (``--keystrokes``, the other target of issue #36: a keystroke inside a JSONL field
re-scores in at most 1.5x a plain line's time): in this process, the language server driven
directly (no client, debounce 0, BLEU + ROUGE-L + WER), ``eval.jsonl`` reviewed with the
references its records hold, and the two plain files as a pair. Each keystroke is one
character typed inside a record's hypothesis (the JSONL field's text, the plain line's), in
records spread over the file: its ``didChange`` then its re-score to the end (the corpus's
incremental path; the JSONL's edited line read again). The medians are compared. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from core import ROOT, SEED, generate
from long_documents import run  # a whole process: its output, seconds and peak memory
from results import measured, publish

HEADING = "## Formats (bench/formats.py)"

PEERS = """
import json, sys
import jiwer, sacrebleu
from rouge_score.rouge_scorer import RougeScorer
hyps, refs = [], []
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        record = json.loads(line)
        hyps.append(record["prediction"])
        refs.append(record["reference"])
bleu = sacrebleu.corpus_bleu(hyps, [refs]).score
scorer = RougeScorer(["rougeL"])
rouge = sum(scorer.score(r, h)["rougeL"].fmeasure for h, r in zip(hyps, refs)) / len(hyps)
wer = jiwer.process_words(refs, hyps).wer
print(json.dumps([bleu, rouge, wer]))
"""


def scorelens(*args: str) -> tuple[dict, float, float]:
    out, seconds, mb = run([sys.executable, "-m", "scorelens", "score", *args, "-j", "1", "--json"])
    return json.loads(out), seconds, mb


def same(a: dict, b: dict, what: str) -> None:
    def figures(d):
        return [d["bleu"]["score"], d["rougeL"]["fmeasure"], d["wer"]["wer"]]

    if any(abs(x - y) > 1e-9 for x, y in zip(figures(a), figures(b), strict=True)):
        sys.exit(f"{what}: {figures(a)} != {figures(b)}")


def best(runs: int, fn):
    """The fastest of ``runs`` runs (a shared machine's load only ever adds time)."""
    return min((fn() for _ in range(runs)), key=lambda r: r[1])


def jsonl_rows(folder: Path, records: int) -> list[str]:
    hyps, refs, _ = generate(records)
    (folder / "plain.hyp.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (folder / "plain.ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    with open(folder / "eval.jsonl", "w", encoding="utf-8") as f:
        for k, (h, r) in enumerate(zip(hyps, refs)):
            f.write(json.dumps({"id": f"doc{k}", "prediction": h, "reference": r}, ensure_ascii=False) + "\n")
    jsonl, plain = str(folder / "eval.jsonl"), [str(folder / "plain.hyp.txt"), "-r", str(folder / "plain.ref.txt")]
    ours_plain, plain_s, plain_mb = best(3, lambda: scorelens(*plain))
    ours, jsonl_s, jsonl_mb = best(3, lambda: scorelens(jsonl))
    same(ours, ours_plain, "JSONL against plain")
    out, peer_s, peer_mb = run([sys.executable, "-c", PEERS, jsonl])
    bleu, rouge, wer = json.loads(out)
    same(ours, {"bleu": {"score": bleu}, "rougeL": {"fmeasure": rouge}, "wer": {"wer": wer}}, "JSONL against the peers")
    ratio = jsonl_s / plain_s
    return [
        f"| {records:,}-record JSONL: `score eval.jsonl` against the same texts as two plain files | "
        f"{plain_s:.2f} s, {plain_mb:.0f} MB | {jsonl_s:.2f} s, {jsonl_mb:.0f} MB | **{ratio:.2f}×** | ≤ 1.3× | "
        f"{'met' if ratio <= 1.3 else '**not met**'} |",
        f"| {records:,}-record JSONL: `json.loads` + sacreBLEU + rouge-score + jiwer against `score eval.jsonl` | "
        f"peers {peer_s:.2f} s, {peer_mb:.0f} MB | {jsonl_s:.2f} s, {jsonl_mb:.0f} MB | **{peer_s / jsonl_s:.1f}×** faster | | |",
    ]


def keystroke_times(hypothesis: Path, references: tuple[Path, ...], edits: int, column_of) -> list[float]:
    """Seconds from each keystroke's didChange to the end of its re-score, in the server."""
    sys.path.insert(0, str(ROOT / "server"))
    from formatted_reread import scored  # the server driven directly, as that benchmark drives it
    from lsprotocol import types

    from scorelens.lsp import handlers
    from scorelens.lsp.pairing import HELD, Pairing
    from scorelens.lsp.settings import Settings

    async def typed() -> list[float]:
        uri = hypothesis.as_uri()
        held = not references
        pairing = Pairing(uri, (uri,) if held else tuple(r.as_uri() for r in references), HELD if held else "bench", held=held)
        ls, review = await scored(hypothesis, pairing, Settings(debounce_ms=0, metrics=("bleu", "rougeL", "wer")))
        lines = ls.documents.open[uri].lines
        step = (len(lines) - 1) // edits
        times = []
        for k in range(edits):
            line = k * step + step // 2
            column = column_of(lines[line])
            began = time.perf_counter()
            handlers.did_change(
                ls,
                types.DidChangeTextDocumentParams(
                    types.VersionedTextDocumentIdentifier(version=k + 2, uri=uri),
                    [types.TextDocumentContentChangePartial(types.Range(types.Position(line, column), types.Position(line, column)), "x")],
                ),
            )
            await review.task
            times.append(time.perf_counter() - began)
            assert review.unread_edits == 0, "the keystroke was not read as a one-line edit"
        return times

    return asyncio.run(typed())


def keystroke_rows(folder: Path, edits: int) -> list[str]:
    # inside the hypothesis's text, after its first word: in the JSONL line, inside the
    # "prediction" field's string (json.dumps writes it after the id)
    def in_field(line: str) -> int:
        start = line.index('"prediction": "') + len('"prediction": "')
        return line.index(" ", start)

    jsonl = keystroke_times(folder / "eval.jsonl", (), edits, in_field)
    plain = keystroke_times(folder / "plain.hyp.txt", (folder / "plain.ref.txt",), edits, lambda line: line.index(" "))
    j, p = statistics.median(jsonl), statistics.median(plain)
    ratio = j / p
    return [
        f"| a keystroke inside a JSONL field (the hypothesis's), re-scored, in the server (median of {edits}) "
        f"against one in a plain line | {p * 1000:.2f} ms | {j * 1000:.2f} ms | **{ratio:.2f}×** | ≤ 1.5× | "
        f"{'met' if ratio <= 1.5 else '**not met**'} |"
    ]


def meeting(folder: Path, segments: int) -> list[str]:
    rng = random.Random(SEED)
    hyps, refs, _ = generate(segments)
    stm, ctm, t, words = [], [], 0.0, 0
    for k, (h, r) in enumerate(zip(hyps, refs)):
        # a meeting's turns are short: 5-9 of the sentence's words
        ref_words = r.split()[: rng.randint(5, 9)]
        hyp_words = h.split()[: len(ref_words)]
        words += len(ref_words)
        end = t + 0.4 * len(ref_words)
        stm.append(f"meeting 1 spk{k % 4} {t:.2f} {end:.2f} <o,f0,male> {' '.join(ref_words)}")
        step = (end - t) / max(len(hyp_words), 1)
        ctm += [f"meeting 1 {t + i * step:.2f} {step * 0.9:.2f} {w}" for i, w in enumerate(hyp_words)]
        t = end + 0.2
    (folder / "meeting.stm").write_text("\n".join(stm) + "\n", encoding="utf-8")
    (folder / "meeting.ctm").write_text("\n".join(ctm) + "\n", encoding="utf-8")
    ours, seconds, mb = best(3, lambda: scorelens(str(folder / "meeting.ctm"), "-r", str(folder / "meeting.stm"), "-m", "wer"))
    return [
        f"| STM/CTM meeting, {segments:,} segments, {words:,} words (`score meeting.ctm -r meeting.stm -m wer`; "
        f"WER {ours['wer']['wer']:.4f}) | sclite not run | {seconds:.2f} s, {mb:.0f} MB | | ≤ 1 s | "
        f"{'met' if seconds <= 1 else '**not met**'} |"
    ]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100_000, help="records of the JSONL file (0: skip)")
    parser.add_argument("--meeting", type=int, default=3_000, help="segments of the STM/CTM meeting (0: skip)")
    parser.add_argument("--keystrokes", type=int, default=200, help="keystrokes typed into the JSONL and the plain files (0: skip)")
    parser.add_argument("--write", metavar="PATH", help="also write the table into its own section of PATH")
    args = parser.parse_args(argv)
    rows = ["| case | plain files, or the peer | ScoreLens | ratio | target | |", "|---|---:|---:|---:|---:|---|"]
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        if args.records:
            rows += jsonl_rows(Path(tmp), args.records)
        if args.meeting:
            rows += meeting(Path(tmp), args.meeting)
        if args.records and args.keystrokes:
            # last: the servers it loads stay in this process, and a process started after them
            # would count this one's memory, forked, in its peak
            rows += keystroke_rows(Path(tmp), args.keystrokes)
    load_after = os.getloadavg()
    about = measured(load_before, load_after) + (
        f" Whole processes, the best of three runs for ScoreLens's, "
        f"wall clock and peak resident memory; every figure checked equal across the runs and to the peers' (1e-9). "
        f"Keystrokes: in this process, the server driven directly, the medians compared."
    )
    publish(args.write, HEADING, "formats.py", argv, about, "\n".join(rows))


if __name__ == "__main__":
    main()
