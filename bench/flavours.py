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
  same texts). PyRouge scores ``--pyrouge-lines`` lines (ScoreLens the same, and all ``--lines``).
Wall clock, one run each. Not a test.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
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


def timed(fn) -> tuple[object, float]:
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--pyrouge-lines", type=int, default=10_000, help="lines PyRouge scores (it is slow)")
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
    load_before = os.getloadavg()
    rows = []

    def row(case: str, peer_name: str, peer_s: float, ours_s: float, target: float, check: str) -> None:
        ratio = peer_s / ours_s
        verdict = "met" if ratio >= target else "**not met**"
        rows.append(f"| {case} | {peer_name} {peer_s:.2f} s | {ours_s:.2f} s | **{ratio:.1f}×** | ≥ {target:g}× | {verdict} | {check} |")

    # NLTK's BLEU
    smoothing = SmoothingFunction().method1
    peer, peer_s = timed(lambda: corpus_bleu([[r.split()] for r in refs], [h.split() for h in hyps], smoothing_function=smoothing))
    ours, ours_s = timed(lambda: scorelens.score(hyps, refs, "bleu", bleu_impl="nltk", nltk_smoothing=1))
    row(f"NLTK BLEU, {n} lines (method1)", "`corpus_bleu`", peer_s, ours_s, 10, f"{100 * peer:.4f} vs {ours.bleu.score:.4f}")

    # the rouge package
    peer, peer_s = timed(lambda: Rouge().get_scores(hyps, refs, avg=True, ignore_empty=True))
    ours, ours_s = timed(lambda: scorelens.score(hyps, refs, "rouge1,rouge2,rougeL", rouge_impl="rouge"))
    row(f"`rouge` package's ROUGE-1/2/L, {n} lines", "`Rouge().get_scores`", peer_s, ours_s, 10, f"L F {peer['rouge-l']['f']:.6f} vs {ours.rougeL.fmeasure:.6f}")

    # Whisper-normalised WER
    def whisper_jiwer():
        normalise = EnglishTextNormalizer()
        return jiwer.process_words([normalise(r) for r in refs], [normalise(h) for h in hyps])

    peer, peer_s = timed(whisper_jiwer)
    ours, ours_s = timed(lambda: scorelens.score(hyps, refs, "wer", wer_transform="whisper-english"))
    row(f"Whisper-English WER, {n} lines", "normaliser + `jiwer.process_words`", peer_s, ours_s, 5, f"{peer.wer:.6f} vs {ours.wer.wer:.6f}")

    # ROUGE-W/S/SU
    few = args.pyrouge_lines
    py_rouge = PyRouge(rouge_n=(), rouge_l=False, rouge_w=True, rouge_w_weight=1.2, rouge_s=True, rouge_su=True, skip_gap=4)
    peer, peer_s = timed(lambda: py_rouge.evaluate(hyps[:few], [[r] for r in refs[:few]]))
    options = {"rouge_impl": "rouge-1.5.5", "rouge_w_weight": 1.2, "rouge_skip_gap": 4}
    ours, ours_s = timed(lambda: scorelens.score(hyps[:few], refs[:few], "rougeW,rougeS,rougeSU", **options))
    row(
        f"ROUGE-W-1.2/S4/SU4, {few:,} lines (rouge-1.5.5 impl)",
        "rouge-metric `PyRouge.evaluate`",
        peer_s,
        ours_s,
        10,
        f"SU4 F {peer['rouge-su4']['f']:.5f} vs {ours.rougeSU.fmeasure:.5f} (different tokenizers)",
    )
    _, all_s = timed(lambda: scorelens.score(hyps, refs, "rougeW,rougeS,rougeSU", **options))
    load_after = os.getloadavg()

    table = "\n".join(
        [
            "| case | peer | ScoreLens | peer / ScoreLens | target | | the two figures |",
            "|---|---:|---:|---:|---:|---|---|",
            *rows,
            f"| ROUGE-W/S/SU, all {n} lines (rouge-1.5.5 impl) | (PyRouge not run) | {all_s:.2f} s | | | | |",
        ]
    )
    about = measured(load_before, load_after) + (
        f" Text: {n} line pairs, each two lines of compare-mt's TED English test set joined (seed {SEED}), one segment a line. "
        "Cold: each case a fresh `scorelens.score` call, in one process, one run; wall clock."
    )
    publish(args.write, HEADING, "flavours.py", argv, about, table)


if __name__ == "__main__":
    main()
