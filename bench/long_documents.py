"""Long documents: ROUGE-Lsum over a 2,000-line document, TER on one very long line.

    .venv/bin/python bench/long_documents.py [--lines 2000] [--ter-words 20000,180000] [--ter-peer-words 2000] [--write bench/RESULTS.md]

ROUGE-Lsum: a reference document of ``--lines`` sentences of 15 words (cut in order from the
CNN/DM summaries in ../shared/data/cnndm when present, else Zipfian synthetic words) and a
hypothesis with ~20% of its words edited (substituted, dropped, or followed by another word),
one sentence a line. rouge-score's ``RougeScorer(['rougeLsum']).score(ref, hyp)`` on the two
texts against ``scorelens score HYP -r REF -m rougeLsum --segmentation document -j 1``, the
summary-level LCS of every sentence pair (4 million on 2,000 lines; rouge-score takes minutes).

TER: one line of N words drawn from a 5,000-word vocabulary and a hypothesis line with a tenth
of them edited, for N in ``--ter-words``, timed as ``scorelens score HYP -r REF -m ter -j 1``.
sacreBLEU keeps every row of its beam's table whole (at least 8·N² bytes: 3.2 GB at 20,000 words),
so it runs on ``--ter-peer-words`` only, side by side with ScoreLens on the same line.

Every run is a whole process (interpreter, imports, reading, scoring), timed from its start to
its exit, with its peak resident memory; ScoreLens's figures are checked equal to the peer's
(1e-12). Not a test: nothing here is asserted but that equality.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CNNDM = ROOT.parent / "shared" / "data" / "cnndm" / "cnndm.ref.txt"
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "server")}
sys.path.insert(0, str(ROOT / "tests" / "core"))

from results import measured, publish  # noqa: E402
from texts import edited_line, randomly_edited  # noqa: E402  (the tests' generators)

HEADING = "## Long documents (bench/long_documents.py)"

ROUGE_PEER = """
import json, sys
from rouge_score.rouge_scorer import RougeScorer
hyp, ref = (open(p, encoding="utf-8").read().rstrip("\\n") for p in sys.argv[1:3])
s = RougeScorer(["rougeLsum"]).score(ref, hyp)["rougeLsum"]
print(json.dumps([s.precision, s.recall, s.fmeasure]))
"""

TER_PEER = """
import json, sys
from sacrebleu.metrics import TER
hyp, ref = (open(p, encoding="utf-8").read().rstrip("\\n") for p in sys.argv[1:3])
s = TER().corpus_score([hyp], [[ref]])
print(json.dumps([s.score, s.num_edits]))
"""


def run(args: list[str]) -> tuple[str, float, float]:
    """A process's standard output, wall-clock seconds and peak resident memory (MB)."""
    started = time.perf_counter()
    process = subprocess.Popen(args, stdout=subprocess.PIPE, env=ENV, text=True)
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status):
        sys.exit(f"{args} failed")
    return out, elapsed, usage.ru_maxrss / 1024


def words_for_documents(rng: random.Random) -> list[str]:
    if CNNDM.exists():
        return CNNDM.read_text(encoding="utf-8").split()
    vocabulary = [f"w{k}" for k in range(20000)]
    return rng.choices(vocabulary, [1 / (k + 1) for k in range(len(vocabulary))], k=200_000)


def documents(lines: int, seed: int = 20240607) -> tuple[str, str]:
    rng = random.Random(seed)
    stream = words_for_documents(rng)
    ref = [stream[at : at + 15] for at in ((k * 15) % (len(stream) - 15) for k in range(lines))]
    hyp = [randomly_edited(rng, r, 0.2, stream) for r in ref]
    return "\n".join(map(" ".join, hyp)), "\n".join(map(" ".join, ref))


def write(folder: Path, name: str, texts: tuple[str, str]) -> tuple[str, str]:
    paths = (folder / f"{name}.hyp.txt", folder / f"{name}.ref.txt")
    for path, text in zip(paths, texts):
        path.write_text(text + "\n", encoding="utf-8")
    return str(paths[0]), str(paths[1])


def scorelens(hyp: str, ref: str, *options: str) -> tuple[dict, float, float]:
    out, seconds, mb = run([sys.executable, "-m", "scorelens", "score", hyp, "-r", ref, "-j", "1", "--json", *options])
    return json.loads(out), seconds, mb


def check(ours: list[float], theirs: list[float], what: str) -> None:
    if any(abs(a - b) > 1e-12 for a, b in zip(ours, theirs, strict=True)):
        sys.exit(f"{what}: ScoreLens {ours} != peer {theirs}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=2000, help="sentences of the ROUGE-Lsum document (0: skip)")
    parser.add_argument("--ter-words", default="20000,180000", help="words of the TER lines, comma-separated")
    parser.add_argument("--ter-peer-words", type=int, default=2000, help="words of the line sacreBLEU scores too (0: skip)")
    parser.add_argument("--write", metavar="RESULTS.md", help="also write the table into this file's section")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    rows = ["| case | peer | ScoreLens | peer / ScoreLens |", "|---|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.lines:
            hyp, ref = write(folder, "doc", documents(args.lines))
            out, peer_s, peer_mb = run([sys.executable, "-c", ROUGE_PEER, hyp, ref])
            ours, our_s, our_mb = scorelens(hyp, ref, "-m", "rougeLsum", "--segmentation", "document")
            figures = ours["rougeLsum"]
            check([figures["precision"], figures["recall"], figures["fmeasure"]], json.loads(out), "ROUGE-Lsum")
            rows.append(
                f"| ROUGE-Lsum, one {args.lines:,}-line document of 15-word sentences (`--segmentation document -j 1`) "
                f"| rouge-score {peer_s:.2f} s, {peer_mb:.0f} MB | {our_s:.2f} s, {our_mb:.0f} MB | **{peer_s / our_s:.0f}×** |"
            )
        if args.ter_peer_words:
            hyp, ref = write(folder, "peer", edited_line(args.ter_peer_words, 20240607))
            out, peer_s, peer_mb = run([sys.executable, "-c", TER_PEER, hyp, ref])
            ours, our_s, our_mb = scorelens(hyp, ref, "-m", "ter")
            check([ours["ter"]["score"], ours["ter"]["num_edits"]], json.loads(out), "TER")
            rows.append(
                f"| TER, one {args.ter_peer_words:,}-word line | sacreBLEU {peer_s:.2f} s, {peer_mb:.0f} MB "
                f"| {our_s:.2f} s, {our_mb:.0f} MB | {peer_s / our_s:.1f}× |"
            )
        for n in (int(n) for n in args.ter_words.split(",") if n):
            hyp, ref = write(folder, f"line{n}", edited_line(n, 20240607))
            ours, our_s, our_mb = scorelens(hyp, ref, "-m", "ter")
            rows.append(
                f"| TER, one {n:,}-word line ({Path(hyp).stat().st_size / 1e3:,.0f} KB) "
                f"| sacreBLEU not run (rows of {8 * n * n / 1e9:,.1f} GB at least) | {our_s:.2f} s, {our_mb:.0f} MB | |"
            )
    about = measured(load_before, os.getloadavg()) + (
        " Whole processes, one run each: wall clock and peak resident memory; ScoreLens's figures"
        " checked equal to the peer's (1e-12)."
    )
    publish(args.write, HEADING, "long_documents.py", argv, about, "\n".join(rows))


if __name__ == "__main__":
    main()
