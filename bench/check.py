"""Benchmark: `scorelens check` against `scorelens score` on the same files, as whole processes.

    .venv/bin/python bench/check.py [--lines 100000] [--write bench/RESULTS.md]

``--lines`` pairs of the lines bench/core.py generates (TED sentences of 20-30 tokens, ~30% word
errors) as two plain files. No peer prints where a hypothesis and its reference differ, so the
floor is ScoreLens's own `score` of the same files and metrics (BLEU, ROUGE-L, WER), with the
default jobs. Timed: `check` as a CI gate shows it (`--max-findings 20 --min-bleu 10`), and
`check` printing every finding (as text, and as JSON; its output read to the end). Every run is a whole process
(interpreter, imports, reading, scoring, printing), the best of two, with its peak resident
memory; the scores of every run are checked equal, and the gated run's count of findings to the
full run's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from core import generate
from long_documents import ENV  # the checkout's server/ on the path
from results import measured, publish

HEADING = "## Check (bench/check.py)"


def scorelens(out: Path, *args: str) -> tuple[float, float]:
    """Seconds and peak memory (MB) of the faster of two runs (a shared machine's load only ever
    adds time), its standard output written to ``out``. Not read into this process: a child's peak
    counts the memory of the process it was started from (Linux keeps it across exec)."""
    runs = []
    for _ in range(2):
        with open(out, "wb") as stdout:
            started = time.perf_counter()
            process = subprocess.Popen([sys.executable, "-m", "scorelens", *args], stdout=stdout, env=ENV)
            _, status, usage = os.wait4(process.pid, 0)
            runs.append((time.perf_counter() - started, usage.ru_maxrss / 1024))
        if os.waitstatus_to_exitcode(status) not in (0, 1):  # 1: a threshold crossed
            sys.exit(f"scorelens {' '.join(args)} failed")
    return min(runs)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=100_000, help="line pairs to check")
    parser.add_argument("--write", metavar="PATH", help="also write the table into its own section of PATH")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        hyps, refs, _ = generate(args.lines)
        hyp, ref = Path(tmp) / "hyp.txt", Path(tmp) / "ref.txt"
        hyp.write_text("\n".join(hyps) + "\n", encoding="utf-8")
        ref.write_text("\n".join(refs) + "\n", encoding="utf-8")
        del hyps, refs
        files, out = [str(hyp), "-r", str(ref)], Path(tmp) / "out"
        score_s, score_mb = scorelens(out, "score", *files, "--json")
        scores = json.loads(out.read_text(encoding="utf-8"))
        gated_s, gated_mb = scorelens(out, "check", *files, "--format", "json", "--max-findings", "20", "--min-bleu", "10")
        gated = json.loads(out.read_text(encoding="utf-8"))
        every_s, every_mb = scorelens(out, "check", *files)
        with open(out, encoding="utf-8") as printed:
            shown = sum(1 for line in printed if line.startswith((str(hyp), str(ref))))
        json_s, json_mb = scorelens(out, "check", *files, "--format", "json")
    if gated["scores"] != scores:
        sys.exit(f"check's scores differ from score's: {gated['scores']} != {scores}")
    if shown != len(gated["findings"]) + gated["findings_omitted"]:
        sys.exit(f"check --max-findings counted {len(gated['findings']) + gated['findings_omitted']} findings, check printed {shown}")
    load_after = os.getloadavg()
    rows = [
        "| 100,000 lines (`-m bleu,rougeL,wer`, default jobs) | time, peak memory | / `score`'s time |",
        "|---|---:|---:|",
        f"| `scorelens score --json` | {score_s:.2f} s, {score_mb:.0f} MB | 1× |",
        f"| `scorelens check --max-findings 20 --min-bleu 10` ({shown:,} findings counted) | {gated_s:.2f} s, {gated_mb:.0f} MB | {gated_s / score_s:.1f}× |",
        f"| `scorelens check`, every finding printed | {every_s:.2f} s, {every_mb:.0f} MB | {every_s / score_s:.1f}× |",
        f"| `scorelens check --format json`, every finding | {json_s:.2f} s, {json_mb:.0f} MB | {json_s / score_s:.1f}× |",
    ]
    if args.lines != 100_000:
        rows[0] = rows[0].replace("100,000", f"{args.lines:,}")
    about = measured(load_before, load_after) + (
        " Whole processes, the best of two runs each, wall clock and peak resident memory;"
        " the scores checked equal, and the findings counted under the limit to those printed."
    )
    publish(args.write, HEADING, "check.py", argv, about, "\n".join(rows))


if __name__ == "__main__":
    main()
