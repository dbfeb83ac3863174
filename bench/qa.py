"""Benchmark: reference-free translation QA over a 100,000-line document, and one segment re-checked.

    .venv/bin/python bench/qa.py [--lines 100000] [--edits 200] [--write bench/RESULTS.md]

Text: ``--lines`` English->Japanese pairs, each two lines of ../shared/data/en-ja-kyoto joined
(source to source, hypothesis to hypothesis; a seeded draw, so the pairs are distinct, as in a
real document): Wikipedia prose dense with dates and names.

Peer: translate-toolkit's ``StandardChecker.run_filters`` (what pofilter runs) on each pair, as
a PO unit made beforehand (its making not timed). ScoreLens: ``QADocument`` of all the pairs
(every check: numbers, placeholders, tags, URLs, untranslated, source words, end punctuation,
whitespace, doubled words; inconsistency and length ratio across the document), then every
finding of every flagged segment. Then the editor's case: one segment's hypothesis edited
(``replace`` of that segment, then its ``findings``), the median and slowest of ``--edits``,
against ``run_filters`` of one unit. Wall clock and this process's CPU time, in one process, one
run. Not a test.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

from results import measured, publish

ROOT = Path(__file__).resolve().parents[1]
KYOTO = ROOT.parent / "shared" / "data" / "en-ja-kyoto"
HEADING = "## Translation QA (bench/qa.py)"
SEED = 38


def pairs(lines: int) -> tuple[list[str], list[str]]:
    read = lambda name: (KYOTO / name).read_text(encoding="utf-8").split("\n")[:-1]  # noqa: E731
    sources, targets = read("kyoto-test.src.en"), read("kyoto-test.hyp.ja")
    rng = random.Random(SEED)
    out_s, out_t = [], []
    for _ in range(lines):
        a, b = rng.randrange(len(sources)), rng.randrange(len(sources))
        out_s.append(f"{sources[a]} {sources[b]}")
        out_t.append(targets[a] + targets[b])
    return out_s, out_t


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--write", metavar="PATH", help="also write the table into its own section of PATH")
    args = parser.parse_args(argv)
    if not KYOTO.exists():
        sys.exit(f"bench/qa.py needs {KYOTO} (../shared/data next to the repository)")

    from translate.filters.checks import CheckerConfig, StandardChecker
    from translate.storage.pypo import pounit

    from scorelens.core.qa import QAConfig, QADocument

    sources, targets = pairs(args.lines)
    load_before = os.getloadavg()
    units = []
    for s, t in zip(sources, targets):
        unit = pounit(s)
        unit.target = t
        units.append(unit)
    checker = StandardChecker(CheckerConfig(targetlanguage="ja"))
    peer, peer_s, peer_cpu = timed(lambda: sum(1 for u in units if checker.run_filters(u)))

    def everything():
        document = QADocument(QAConfig("en", "ja"))
        document.replace(0, 0, sources, targets)
        flagged = document.flagged()
        return document, flagged, sum(len(document.findings(i)) for i in flagged)

    (document, flagged, findings), ours_s, ours_cpu = timed(everything)

    rng = random.Random(SEED)
    edits, peer_one = [], []
    for k in range(args.edits):
        i = rng.randrange(len(sources))
        edited = targets[i][:-1] if k % 2 else targets[i] + "る"  # a keystroke: one character more or less
        start = time.perf_counter()
        document.replace(i, i + 1, [sources[i]], [edited])
        document.findings(i)
        edits.append(time.perf_counter() - start)
        unit = pounit(sources[i])
        unit.target = edited
        start = time.perf_counter()
        checker.run_filters(unit)
        peer_one.append(time.perf_counter() - start)
    load_after = os.getloadavg()

    n = f"{args.lines:,}"
    edit_median, edit_max = statistics.median(edits), max(edits)
    rows = [
        "| case | translate-toolkit | ScoreLens | toolkit / ScoreLens | target | |",
        "|---|---:|---:|---:|---:|---|",
        f"| {n} pairs, every check, every finding (`run_filters` each; `QADocument` + `findings`) | "
        f"{peer_s:.2f} s (CPU {peer_cpu:.2f} s; {peer:,} pairs failing a check) | "
        f"{ours_s:.2f} s (CPU {ours_cpu:.2f} s; {len(flagged):,} segments, {findings:,} findings) | "
        f"**{peer_s / ours_s:.1f}×** | ≤ 5 s | {'met' if ours_s <= 5 else '**not met**'} |",
        f"| one segment edited in the {n}-line document, re-checked (`replace` + `findings`; median of {args.edits}, slowest) | "
        f"{statistics.median(peer_one) * 1e3:.3f} ms (`run_filters` of the pair) | {edit_median * 1e3:.3f} ms; {edit_max * 1e3:.2f} ms | "
        f"**{statistics.median(peer_one) / edit_median:.1f}×** | ≤ 1 ms | {'met' if edit_median <= 1e-3 else '**not met**'} |",
    ]
    about = measured(load_before, load_after) + (
        f" Text: {n} English→Japanese pairs, each two lines of en-ja-kyoto "
        f"joined (seed {SEED}). One process, one run; wall clock and CPU time of this process."
    )
    publish(args.write, HEADING, "qa.py", argv, about, "\n".join(rows))


if __name__ == "__main__":
    main()
