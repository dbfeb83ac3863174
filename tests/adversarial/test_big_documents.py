"""A pair of very many short lines in the server (#39 point 4): the report must not multiply its memory.

On 1,000,000 lines the server peaked at 1.1-1.7 GB once a report was asked for, against ~450 MB
for the scoring itself (bench/big_document.py has the figures and times). Here 300,000 lines show
the same growth (the report's table made a record object per segment and kept it, ~185 MB -> ~390 MB)
in a few seconds. The bound is relative to the server's own peak while scoring, so a slower or
busier machine does not move it; no time is asserted (waits are bounded by the harness's timeout).
"""

from __future__ import annotations

import random
from pathlib import Path

from hostile import Server

LINES = 300_000
# What asking for the report may add to the server's peak memory, as a share of that peak.
REPORT_GROWTH = 0.25


def _peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM in /proc (Linux only)")


def _short_lines(rng: random.Random) -> tuple[str, str]:
    words = [f"w{i}" for i in range(2000)]
    hyps, refs = [], []
    for _ in range(LINES):
        ref = rng.choices(words, k=rng.randint(2, 5))
        refs.append(" ".join(ref))
        hyps.append(" ".join(rng.choice(words) if rng.random() < 0.25 else w for w in ref))
    return "\n".join(hyps) + "\n", "\n".join(refs) + "\n"


def test_report_of_300000_short_lines_adds_little_memory(tmp_path: Path) -> None:
    hyp, ref = _short_lines(random.Random(1))
    (tmp_path / "big.hyp.txt").write_text(hyp)
    (tmp_path / "big.ref.txt").write_text(ref)
    server = Server(tmp_path)
    try:
        server.initialize({"workspace": {"configuration": True}, "experimental": {"scorelens": {"report": True}}})
        uri = server.open(tmp_path / "big.hyp.txt", hyp)
        server.wait_for(
            lambda m: m.get("method") == "scorelens/scores" and m["params"]["uri"] == uri and m["params"]["scores"] is not None,
            what="the corpus scores",
        )
        scored = _peak_mb(server.proc.pid)
        answer = server.request("scorelens/report", {"uri": uri, "offset": 0, "limit": 100, "sort": "bleu", "descending": False, "filters": []})
        assert len(answer["result"]["segments"]) == 100 and answer["result"]["total"] == LINES
        assert _peak_mb(server.proc.pid) <= scored * (1 + REPORT_GROWTH), f"peak {_peak_mb(server.proc.pid):.0f} MB after the report, {scored:.0f} MB after scoring"
    finally:
        server.close()
