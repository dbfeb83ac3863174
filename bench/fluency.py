"""Fluency benchmark: per-line perplexity of 100,000 lines against a plain loop over kenlm's Model.score.

``.venv/bin/python bench/fluency.py`` (needs kenlm and ../shared/data). The model is a trigram model
estimated (tests/core/arpa.py) from the first 1,500 lines of the TED reference; the scored lines are the
TED systems' and the CNN/DM summaries' lines, repeated to 100,000. Both sides score the same
whitespace-tokenized lines; ScoreLens also keeps every word's full_scores and counts unknown words.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import cycle, islice
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
sys.path[:0] = [str(ROOT / "server"), str(ROOT / "tests" / "core")]

import kenlm  # noqa: E402

from arpa import estimate  # noqa: E402
from scorelens.core.fluency import Fluency  # noqa: E402

LINES = 100_000
EDITS = 50


def best_of(runs: int, work) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ted = (SHARED / "compare-mt" / "ted.ref.eng").read_text(encoding="utf-8").split("\n")
    scored = []
    for name in ("compare-mt/ted.sys1.eng", "compare-mt/ted.sys2.eng", "cnndm/cnndm.simcls.txt"):
        scored += [line for line in (SHARED / name).read_text(encoding="utf-8").split("\n") if line]
    lines = list(islice(cycle(scored), LINES))
    # repeated lines would be cache hits for ScoreLens: make every line distinct (one more word, unknown)
    lines = [f"{line} w{i}" for i, line in enumerate(lines)]
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ted.arpa"
        path.write_text(estimate(ted[:1500], order=3), encoding="utf-8")
        model = kenlm.Model(str(path))

        def plain() -> None:
            score = model.score
            [score(line) for line in lines]

        kenlm_time = best_of(2, plain)
        ours_time = best_of(2, lambda: Fluency.of(model, segments=lines).score())

        fluency = Fluency.of(model, segments=lines)
        edits = []
        for k in range(EDITS):
            i = (k * 7919) % LINES
            start = time.perf_counter()
            fluency.replace(i, i + 1, [lines[i] + f" edit{k}"])
            fluency.score()
            edits.append(time.perf_counter() - start)
        update_all = []
        texts = list(lines)
        for k in range(5):
            texts[(k * 104729) % LINES] += " again"
            start = time.perf_counter()
            fluency.update(texts)
            fluency.score()
            update_all.append(time.perf_counter() - start)
        start = time.perf_counter()
        outliers = fluency.outliers()
        outlier_time = time.perf_counter() - start

    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"{LINES:,} lines, a model of order {model.order}; load average {load_before:.2f} before; after: {uptime}")
    print(f"kenlm Model.score loop:            {kenlm_time:.3f} s")
    print(f"ScoreLens Fluency (cold, per line): {ours_time:.3f} s ({ours_time / kenlm_time:.1f}x the plain loop)")
    print(f"one line replaced, then score():   {statistics.median(edits) * 1e6:.0f} µs (median of {EDITS})")
    print(f"update(all segments), one changed: {statistics.median(update_all) * 1e3:.1f} ms (median of 5)")
    print(f"outliers() over all lines:         {outlier_time * 1e3:.0f} ms ({len(outliers.segments)} flagged)")


if __name__ == "__main__":
    main()
