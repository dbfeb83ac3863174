"""Benchmark: the metric flavours (DESIGN §8) against the packages whose numbers they reproduce, cold.

    .venv/bin/python bench/flavours.py [--lines 100000] [--pyrouge-lines 10000] [--write bench/RESULTS.md]

Text: ``--lines`` pairs of lines, each two lines of compare-mt's TED English test set joined
(a seeded draw, so the texts are distinct; ../shared/data/compare-mt, ``ted.sys1.eng`` against
``ted.ref.eng``), one segment a line.

Cases, each the peer's whole computation against ``scorelens.score`` of the same texts in the
same process (a new scoring run: no vocabulary or cache carried over from another case):
- NLTK's BLEU: ``corpus_bleu`` of whitespace-split tokens (``SmoothingFunction().method1``)
  against ``bleu_impl="nltk"``;
- the ``rouge`` package: ``Rouge().get_scores(hyps, refs, avg=True, ignore_empty=True)`` against
  ``rouge_impl="rouge"`` (ROUGE-1, -2, -L);
- Whisper-normalised WER: ``EnglishTextNormalizer`` of both sides then ``jiwer.process_words``
  against ``wer_transform="whisper-english"``;
- ROUGE-W/S/SU: rouge-metric's ``PyRouge`` (its pure-Python implementation, ROUGE-W-1.2, -S4,
  -SU4) against ``rouge_impl="rouge-1.5.5"`` with ``rougeW,rougeS,rougeSU`` (which reproduces
  the Perl script's numbers, tokenization and rounding, not PyRouge's: the same measures, the
  same texts), and again under the default ``rouge_impl`` (rouge-score's tokens, the script's
  formulas). PyRouge scores ``--pyrouge-lines`` lines (ScoreLens the same, and all ``--lines``).

Each case again as a whole ``scorelens score --json`` process (from the interpreter's start to its
exit, default jobs: how bench/core.py reads #13's and #37's targets) on files of the same texts,
against the same peer figure. Then one-line edits (median of ``--edits``) on a corpus of all
``--lines`` lines with every new flavour on: NLTK BLEU, the ``rouge`` package's ROUGE-1/2/L and
Whisper-English WER together; ROUGE-1.5.5's ROUGE-1/2/L/W/S/SU apart (one ROUGE impl at a
time), with at most ``--rouge155-edits`` edits.
Wall clock, one run each. Not a test.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results import measured, publish

ROOT = Path(__file__).resolve().parents[1]
TED = ROOT.parent / "shared" / "data" / "compare-mt"
HEADING = "## Metric flavours (bench/flavours.py)"
SEED = 37


def pairs(lines: int) -> tuple[list[str], list[str]]:
    read = lambda name: (TED / name).read_text(encoding="utf-8").split("\n")[:-1]
    hyps, refs = read("ted.sys1.eng"), read("ted.ref.eng")
    rng = random.Random(SEED)
    # two lines joined, so that the texts are distinct (as in a real document), not 2,445 repeated
    drawn = [(rng.randrange(len(hyps)), rng.randrange(len(hyps))) for _ in range(lines)]
    return [f"{hyps[a]} {hyps[b]}" for a, b in drawn], [f"{refs[a]} {refs[b]}" for a, b in drawn]


def edit_row(case: str, median: float, slowest: float) -> str:
    verdict = "met" if median <= 0.001 else "**not met**"
    return f"| {case} | {1000 * median:.2f} ms | {1000 * slowest:.2f} ms | ≤ 1 ms | {verdict} |"


def timed(fn) -> tuple[object, float]:
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def cli(files: tuple[Path, Path], metrics: str, options: dict) -> tuple[dict, float]:
    """(JSON output, seconds) of one whole ``scorelens score`` process of this checkout, default jobs."""
    argv = [sys.executable, "-m", "scorelens", "score", str(files[0]), "-r", str(files[1]), "--json", "-m", metrics]
    for name, value in options.items():
        argv += [f"--{name.replace('_', '-')}", str(value)]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "server")}
    run, seconds = timed(lambda: subprocess.run(argv, check=True, capture_output=True, text=True, env=env))
    return json.loads(run.stdout), seconds


def written(folder: Path, name: str, hyps: list[str], refs: list[str]) -> tuple[Path, Path]:
    files = folder / f"{name}.hyp", folder / f"{name}.ref"
    for path, lines in zip(files, (hyps, refs)):
        path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return files


def edit_median(hyps: list[str], refs: list[str], metrics: str, options: dict, count: int) -> tuple[float, float]:
    """(median, slowest) seconds of replacing one line mid-corpus, then reading the corpus scores."""
    import scorelens

    corpus = scorelens.Corpus(hyps, refs, metrics, **options)
    corpus.scores()
    gc.freeze()  # as the language server does after a cold scoring (see bench/core.py)
    rng = random.Random(SEED)
    times = []
    for _ in range(count):
        i = rng.randrange(len(hyps) // 4, 3 * len(hyps) // 4)
        _, seconds = timed(lambda: (corpus.edit(i, hyps[rng.randrange(len(hyps))]), corpus.scores()))
        times.append(seconds)
    gc.unfreeze()
    return statistics.median(times), max(times)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--pyrouge-lines", type=int, default=10_000, help="lines PyRouge scores (it is slow)")
    parser.add_argument("--edits", type=int, default=20, help="one-line edits timed with the new flavours on")
    parser.add_argument("--rouge155-edits", type=int, default=3, help="at most this many with ROUGE-1.5.5's")
    parser.add_argument("--write", metavar="PATH", help="also write the table into its own section of PATH")
    args = parser.parse_args(argv)
    if not TED.exists():
        sys.exit(f"bench/flavours.py needs {TED} (../shared/data next to the repository)")

    import jiwer
    import scorelens
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu
    from rouge import Rouge
    from rouge_metric import PyRouge
    from whisper_normalizer.english import EnglishTextNormalizer

    hyps, refs = pairs(args.lines)
    n = f"{args.lines:,}"
    jobs = len(os.sched_getaffinity(0))
    folder = Path(tempfile.mkdtemp(prefix="scorelens-flavours-"))
    files = written(folder, "all", hyps, refs)
    few_files = written(folder, "few", hyps[: args.pyrouge_lines], refs[: args.pyrouge_lines])
    load_before = os.getloadavg()
    rows = []

    def row(case: str, peer_name: str, peer_s: float, ours_s: float, target: float, check: str) -> None:
        ratio = peer_s / ours_s
        verdict = "met" if ratio >= target else "**not met**"
        rows.append(f"| {case} | {peer_name} {peer_s:.2f} s | {ours_s:.2f} s | **{ratio:.1f}×** | ≥ {target:g}× | {verdict} | {check} |")

    # NLTK's BLEU
    smoothing = SmoothingFunction().method1
    peer, peer_s = timed(lambda: corpus_bleu([[r.split()] for r in refs], [h.split() for h in hyps], smoothing_function=smoothing))
    nltk = {"bleu_impl": "nltk", "nltk_smoothing": 1}
    ours, ours_s = timed(lambda: scorelens.score(hyps, refs, "bleu", **nltk))
    row(f"NLTK BLEU, {n} lines (method1)", "`corpus_bleu`", peer_s, ours_s, 10, f"{100 * peer:.4f} vs {ours.bleu.score:.4f}")
    out, cli_s = cli(files, "bleu", nltk)
    row(f"the same, `scorelens score` whole process ({jobs} processes)", "`corpus_bleu`", peer_s, cli_s, 10, f"{100 * peer:.4f} vs {out['bleu']['score']:.4f}")

    # the rouge package
    peer, peer_s = timed(lambda: Rouge().get_scores(hyps, refs, avg=True, ignore_empty=True))
    ours, ours_s = timed(lambda: scorelens.score(hyps, refs, "rouge1,rouge2,rougeL", rouge_impl="rouge"))
    row(f"`rouge` package's ROUGE-1/2/L, {n} lines", "`Rouge().get_scores`", peer_s, ours_s, 10, f"L F {peer['rouge-l']['f']:.6f} vs {ours.rougeL.fmeasure:.6f}")
    out, cli_s = cli(files, "rouge1,rouge2,rougeL", {"rouge_impl": "rouge"})
    row(f"the same, `scorelens score` whole process ({jobs} processes)", "`Rouge().get_scores`", peer_s, cli_s, 10, f"L F {peer['rouge-l']['f']:.6f} vs {out['rougeL']['fmeasure']:.6f}")

    # Whisper-normalised WER
    def whisper_jiwer():
        normalise = EnglishTextNormalizer()
        return jiwer.process_words([normalise(r) for r in refs], [normalise(h) for h in hyps])

    peer, peer_s = timed(whisper_jiwer)
    ours, ours_s = timed(lambda: scorelens.score(hyps, refs, "wer", wer_transform="whisper-english"))
    row(f"Whisper-English WER, {n} lines", "normaliser + `jiwer.process_words`", peer_s, ours_s, 5, f"{peer.wer:.6f} vs {ours.wer.wer:.6f}")
    out, cli_s = cli(files, "wer", {"wer_transform": "whisper-english"})
    row(f"the same, `scorelens score` whole process ({jobs} processes)", "normaliser + `jiwer.process_words`", peer_s, cli_s, 5, f"{peer.wer:.6f} vs {out['wer']['wer']:.6f}")

    # ROUGE-W/S/SU
    few = args.pyrouge_lines
    py_rouge = PyRouge(rouge_n=(), rouge_l=False, rouge_w=True, rouge_w_weight=1.2, rouge_s=True, rouge_su=True, skip_gap=4)
    peer, peer_s = timed(lambda: py_rouge.evaluate(hyps[:few], [[r] for r in refs[:few]]))
    extension = {"rouge_w_weight": 1.2, "rouge_skip_gap": 4}
    options = {"rouge_impl": "rouge-1.5.5", **extension}
    for impl, impl_options in (("rouge-1.5.5", options), ("rouge-score", extension)):
        ours, ours_s = timed(lambda: scorelens.score(hyps[:few], refs[:few], "rougeW,rougeS,rougeSU", **impl_options))
        row(
            f"ROUGE-W-1.2/S4/SU4, {few:,} lines ({impl} impl)",
            "rouge-metric `PyRouge.evaluate`",
            peer_s,
            ours_s,
            10,
            f"SU4 F {peer['rouge-su4']['f']:.5f} vs {ours.rougeSU.fmeasure:.5f} (different tokenizers)",
        )
        out, cli_s = cli(few_files, "rougeW,rougeS,rougeSU", impl_options)
        row(
            f"the same, `scorelens score` whole process ({jobs} processes)",
            "rouge-metric `PyRouge.evaluate`",
            peer_s,
            cli_s,
            10,
            f"SU4 F {peer['rouge-su4']['f']:.5f} vs {out['rougeSU']['fmeasure']:.5f}",
        )
    _, all_s = timed(lambda: scorelens.score(hyps, refs, "rougeW,rougeS,rougeSU", **options))
    _, all_cli_s = cli(files, "rougeW,rougeS,rougeSU", options)

    # one-line edits with the new flavours on
    flavours = {**nltk, "rouge_impl": "rouge", "wer_transform": "whisper-english"}
    edited = edit_median(hyps, refs, "bleu,rouge1,rouge2,rougeL,wer", flavours, args.edits)
    rouge155 = {**options, "rouge_impl": "rouge-1.5.5"}
    count155 = min(args.edits, args.rouge155_edits)
    edited155 = edit_median(hyps, refs, "rouge1,rouge2,rougeL,rougeW,rougeS,rougeSU", rouge155, count155)
    load_after = os.getloadavg()
    shutil.rmtree(folder)

    table = "\n".join(
        [
            "| case | peer | ScoreLens | peer / ScoreLens | target | | the two figures |",
            "|---|---:|---:|---:|---:|---|---|",
            *rows,
            f"| ROUGE-W/S/SU, all {n} lines (rouge-1.5.5 impl) | (PyRouge not run) | {all_s:.2f} s | | | | |",
            f"| the same, `scorelens score` whole process ({jobs} processes) | (PyRouge not run) | {all_cli_s:.2f} s | | | | |",
        ]
    )
    table += "\n\n" + "\n".join(
        [
            f"| one line replaced, then the corpus scores, {n} lines | median | slowest | target | |",
            "|---|---:|---:|---:|---|",
            edit_row(f"NLTK BLEU + `rouge` ROUGE-1/2/L + Whisper-English WER ({args.edits} edits)", *edited),
            edit_row(f"ROUGE-1.5.5's ROUGE-1/2/L/W/S/SU ({count155} edits)", *edited155),
        ]
    )
    about = measured(load_before, load_after) + (
        f" Text: {n} line pairs, each two lines of compare-mt's TED English test set joined (seed {SEED}), one segment a line. "
        "Cold: each case a fresh `scorelens.score` call, in one process, one run; then the same as a whole "
        "`scorelens score --json` process with the default jobs against the same peer figure; wall clock. "
        "Edits: `scorelens.Corpus`, cold-scored first."
    )
    publish(args.write, HEADING, "flavours.py", argv, about, table)


if __name__ == "__main__":
    main()
