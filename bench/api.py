"""Benchmark: ScoreLens's Python API against the peers' own Python calls, in one process.

    .venv/bin/python bench/api.py [--lines 100000 | --quick] [--write bench/RESULTS.md]

On the lines bench/core.py generates (TED sentences of 20-30 tokens, ~30% word errors, fixed
seed), it times each peer call and the ``scorelens`` call that computes the same figures:

- ``sacrebleu.corpus_bleu``, ``corpus_chrf``, ``corpus_ter``, a rouge-score ``RougeScorer``
  (rouge1, rouge2, rougeL) over every pair and the means, ``jiwer.process_words``, each against
  ``scorelens.score(hyps, refs, metrics)`` of that metric;
- a loop of ``sacrebleu.sentence_bleu`` + ``sentence_chrf`` against
  ``scorelens.sentence_scores(hyps, refs, "bleu,chrf")``;
- ``sacrebleu.corpus_bleu`` against the drop-in ``scorelens.compat.sacrebleu.corpus_bleu`` (called
  as sacreBLEU's is: in process, no jobs).

ScoreLens is timed with ``jobs=1`` (in this process: the figure the targets are read on) and
``jobs=2`` (forked workers, their start timed too). Each call runs once, cold (a new corpus,
its word tables empty); both sides are called on a few lines first, so no timing includes an
import. Every ScoreLens figure is checked equal to the peer's (1e-9) before anything is
reported. ``--quick`` runs 5,000 lines, a smoke test of the script. This is not a test.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import platform
import sys
import time
from functools import partial

from core import ERROR_RATE, SEED, fmt_s, generate
from results import publish

HEADING = "## Python API (bench/api.py)"
TOLERANCE = 1e-9
ROUGE_KEYS = ("rouge1", "rouge2", "rougeL")


def clocked(fn):
    """(wall-clock seconds, CPU seconds of this process, result) of one call: the CPU time is
    what other processes on the machine inflate least."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def close(name: str, ours: float, theirs: float) -> None:
    if not abs(ours - theirs) <= TOLERANCE:
        raise AssertionError(f"{name}: ScoreLens {ours!r}, peer {theirs!r}")


# -- the peers' calls and ScoreLens's, each with what checks them equal -------------------------
# A peer's call keeps only its figures: jiwer's alignments or 100,000 sacreBLEU objects would be a
# large object graph weighing on the timings after it.


def bleu_case(hyps, refs):
    from sacrebleu import corpus_bleu

    def peer():
        b = corpus_bleu(hyps, [refs])
        return b.score, b.sys_len, b.ref_len

    def check(s, figures):
        close("BLEU", s.bleu.score, figures[0])
        assert (s.bleu.sys_len, s.bleu.ref_len) == figures[1:], (s.bleu, figures)

    return peer, "bleu", check


def chrf_case(hyps, refs):
    from sacrebleu import corpus_chrf

    def check(s, figure):
        close("chrF", s.chrf.score, figure)

    return lambda: corpus_chrf(hyps, [refs]).score, "chrf", check


def ter_case(hyps, refs):
    from sacrebleu import corpus_ter

    def peer():
        t = corpus_ter(hyps, [refs])
        return t.score, t.num_edits

    def check(s, figures):
        close("TER", s.ter.score, figures[0])
        assert s.ter.num_edits == figures[1], (s.ter, figures)

    return peer, "ter", check


def rouge_case(hyps, refs):
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(list(ROUGE_KEYS))

    def peer():
        pairs = [scorer.score(r, h) for h, r in zip(hyps, refs)]
        return {k: [sum(p[k][i] for p in pairs) / len(pairs) for i in range(3)] for k in ROUGE_KEYS}

    def check(s, means):
        for k in ROUGE_KEYS:
            r = getattr(s, k)
            for field, ours, theirs in zip(("precision", "recall", "fmeasure"), (r.precision, r.recall, r.fmeasure), means[k]):
                close(f"{k} {field}", ours, theirs)

    return peer, ",".join(ROUGE_KEYS), check


def wer_case(hyps, refs):
    from jiwer import process_words

    fields = ("wer", "mer", "wil", "hits", "substitutions", "deletions", "insertions")

    def peer():
        out = process_words(refs, hyps)
        return {f: getattr(out, f) for f in fields}

    def check(s, figures):
        for f in fields:
            close(f"WER {f}", getattr(s.wer, f), figures[f])

    return peer, "wer", check


def compat_bleu_case(hyps, refs):
    peer, _, check = bleu_case(hyps, refs)

    def compat_check(b, figures):
        close("BLEU", b.score, figures[0])
        assert (b.sys_len, b.ref_len) == figures[1:], (b, figures)

    return peer, "bleu", compat_check


def compat_corpus_bleu(hyps, refs, metrics, jobs=None):
    """``scorelens.compat.sacrebleu.corpus_bleu``, called as sacreBLEU's is (no jobs: always in process)."""
    from scorelens.compat.sacrebleu import corpus_bleu

    return corpus_bleu(hyps, [refs])


def sentence_case(hyps, refs):
    from sacrebleu import sentence_bleu, sentence_chrf

    def peer():
        return [(sentence_bleu(h, [r]).score, sentence_chrf(h, [r]).score) for h, r in zip(hyps, refs)]

    def check(rows, figures):
        assert len(rows) == len(figures), (len(rows), len(figures))
        for row, (bleu, chrf) in zip(rows, figures):
            close(f"segment {row.segment} sentence BLEU", row.bleu.score, bleu)
            close(f"segment {row.segment} sentence chrF", row.chrf.score, chrf)

    return peer, "bleu,chrf", check


# (label of the peer's call, label of ScoreLens's, the case, ScoreLens's function: a name in scorelens or a
# function called alike, without jobs, target ratio)
CASES = [
    ("`sacrebleu.corpus_bleu`", '`score(…, "bleu")`', bleu_case, "score", 10),
    ("`sacrebleu.corpus_chrf`", '`score(…, "chrf")`', chrf_case, "score", 10),
    ("`sacrebleu.corpus_ter`", '`score(…, "ter")`', ter_case, "score", 5),
    ("rouge-score `RougeScorer` rouge1/2/L, a loop", '`score(…, "rouge1,rouge2,rougeL")`', rouge_case, "score", 10),
    ("`jiwer.process_words`", '`score(…, "wer")`', wer_case, "score", 10),
    ("`sentence_bleu` + `sentence_chrf`, a loop", '`sentence_scores(…, "bleu,chrf")`', sentence_case, "sentence_scores", 20),
    ("`sacrebleu.corpus_bleu`", "`compat.sacrebleu.corpus_bleu`", compat_bleu_case, compat_corpus_bleu, 10),
]


def measure(hyps, refs) -> list[tuple]:
    """Per case: (its CASES row, the peer's (wall, CPU) seconds, ScoreLens's with jobs=1, its
    wall-clock seconds with jobs=2, the load average once they are timed)."""
    import scorelens  # here: core has put this checkout's server/ first on the path (the venv's may be another's)

    rows = []
    for case in CASES:
        peer_label, _, make, function, _ = case
        peer, metrics, check = make(hyps, refs)
        ours = getattr(scorelens, function) if isinstance(function, str) else function
        # imports and first-use set-ups of both sides, outside the timings
        check(ours(hyps[:20], refs[:20], metrics), make(hyps[:20], refs[:20])[0]())
        gc.collect()
        theirs = clocked(peer)
        ours_by_jobs = {}
        for jobs in (1, 2) if isinstance(function, str) else (1,):
            gc.collect()
            *ours_by_jobs[jobs], result = clocked(partial(ours, hyps, refs, metrics, jobs=jobs))
            check(result, theirs[2])
            del result  # not held through the next timing
        (one, one_cpu), two = ours_by_jobs[1], ours_by_jobs.get(2, (None,))[0]
        print(f"{peer_label}: {theirs[0]:.2f} s (CPU {theirs[1]:.2f} s); ScoreLens {one:.2f} s (CPU {one_cpu:.2f} s), jobs=2 {fmt_s(two) if two else '—'}", file=sys.stderr, flush=True)
        rows.append((case, theirs[:2], ours_by_jobs[1], two, os.getloadavg()[0]))
    return rows


def table(rows, lines: int) -> str:
    head = "the peer's call | its time | `scorelens.…` | jobs=1 (in process) | peer / that | CPU time: peer / that | target | | jobs=2 | peer / that | load"
    out = [f"| {lines:,} lines: {head} |", "|---|---:|---|---:|---:|---:|---:|---|---:|---:|---:|"]
    for (peer_label, ours_label, _, _, target), (theirs, theirs_cpu), (one, one_cpu), two, load in rows:
        ratio = theirs / one
        met = "met" if ratio >= target else "**not met**"
        out.append(
            f"| {peer_label} | {fmt_s(theirs)} | {ours_label} | {fmt_s(one)} | **{ratio:.1f}×** | {theirs_cpu / one_cpu:.1f}× "
            f"| ≥ {target}× | {met} | {fmt_s(two) if two else '—'} | {f'{theirs / two:.1f}×' if two else '—'} | {load:.1f} |"
        )
    return "\n".join(out)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=100_000, help="line pairs to score (the targets are for 100,000)")
    parser.add_argument("--quick", action="store_true", help="5,000 lines: a smoke test of the script")
    parser.add_argument("--write", metavar="PATH", help="also write the table into its own section of PATH")
    args = parser.parse_args(argv)
    lines = 5_000 if args.quick else args.lines

    hyps, refs, source = generate(lines)
    load_before = os.getloadavg()
    rows = measure(hyps, refs)
    load_after = os.getloadavg()
    about = (
        f"Measured {datetime.date.today().isoformat()} on {os.cpu_count()} cores ({platform.machine()}, "
        f"{platform.python_implementation()} {platform.python_version()}, Linux {platform.release()}); "
        f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after (a shared machine). "
        f"Text: {source}, 20-30 tokens a line, {ERROR_RATE:.0%} word errors, seed {SEED}. Wall-clock time of one "
        f"call each, in one process, ScoreLens's cold (a new corpus), and the CPU time of this process (which the "
        f"load of other processes inflates least); load: the 1-minute load average once a row's calls were timed. Its figures were checked equal to the peers' "
        f"(1e-9; each segment's for `sentence_scores`). The targets (issue #35) are read on jobs=1's wall-clock ratio; jobs=2 "
        f"scores in this process and a worker forked from it, its start timed too."
    )
    publish(args.write, HEADING, "api.py", argv, about, table(rows, lines))


if __name__ == "__main__":
    main()
