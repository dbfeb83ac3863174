"""Benchmark: ScoreLens's paired significance tests against sacreBLEU's ``PairedTest``, in one run.

    .venv/bin/python bench/compare.py [--segments 3000] [--systems 5] [--repeat 2] [--tests bs,ar]

One reference of ``--segments`` lines cut from TED (as bench/core.py makes them) and
``--systems`` hypotheses with 20-40 % word errors (fixed seed). For paired bootstrap resampling
(1,000 resamples) and paired approximate randomization (10,000 trials), on BLEU, chrF and TER,
it times:

- sacreBLEU 2.6.0 ``PairedTest`` as its ``--paired-bs`` / ``--paired-ar`` run it (one process;
  it extracts every system's statistics, then tests);
- ScoreLens ``paired_test`` on corpora already scored, as the language server holds them;
- ScoreLens cold: scoring the systems' corpora, then the test (what ``scorelens compare`` does);
- the language server's ``scorelens/compare`` on those corpora, in its two parts: the statistics
  copied on the event loop (the loop serves nothing else meanwhile) and the test with the
  per-segment differences, off the loop in a thread.

Every ScoreLens result (score, mean, CI, p-value of every system) is checked equal to
sacreBLEU's before anything is reported. Rounds alternate the two (``--repeat``, best kept).
This is not a test.
"""

from __future__ import annotations

import argparse
import os
import random
from core import SEED, corrupt, fmt_s, generate, text, timed  # noqa: E402

from scorelens.core import Corpus, ScoringConfig  # noqa: E402
from scorelens.core.significance import paired_test  # noqa: E402
from scorelens.lsp.compare import copied, tested  # noqa: E402

METRICS = ("bleu", "chrf", "ter")


def systems(segments: int, count: int) -> tuple[list[list[str]], list[str], str]:
    """``count`` hypotheses of the same reference, each with its own error rate."""
    _, refs, source = generate(segments)
    rng = random.Random(SEED + 1)
    vocabulary = [w for r in refs for w in r.split()]
    rates = [0.2 + 0.2 * i / max(count - 1, 1) for i in range(count)]
    return [[" ".join(corrupt(r.split(), rng, vocabulary, rate)) for r in refs] for rate in rates], refs, source


def sacrebleu_test(hyps, refs, test):
    """sacreBLEU's results per metric (our names), as its command line runs the test."""
    from sacrebleu.metrics import BLEU, CHRF, TER
    from sacrebleu.significance import PairedTest

    named = [(f"sys{i}", h) for i, h in enumerate(hyps)]
    metrics = {"BLEU": BLEU(references=[refs]), "chrF": CHRF(references=[refs]), "TER": TER(references=[refs])}
    _, scores = PairedTest(named, metrics, None, test_type=test)()
    return {"bleu": scores["BLEU"], "chrf": scores["chrF2"], "ter": scores["TER"]}


def scored(hyps, refs):
    config = ScoringConfig(metrics=frozenset(METRICS))
    corpora = [Corpus(text(h), [text(refs)], config) for h in hyps]
    for c in corpora:
        c.refresh()
    return corpora


def check(ours, theirs):
    for metric in METRICS:
        for i, (r, t) in enumerate(zip(ours.results, theirs[metric])):
            a = r[metric]
            assert (a.score, a.mean, a.ci, a.p_value) == (t.score, t.mean, t.ci, t.p_value), (metric, i, a, t)


def check_server(out, theirs, test):
    """The server's answer against sacreBLEU's: its approximate randomization also draws the
    confidence intervals (1,000 resamples) that PairedTest leaves out by default."""
    fields = ("score", "mean", "ci", "p_value") if test == "bs" else ("score", "p_value")
    for metric in METRICS:
        for i, (entry, t) in enumerate(zip(out["systems"], theirs[metric])):
            assert [entry[metric][f] for f in fields] == [getattr(t, f) for f in fields], (metric, i, entry[metric], t)


def server_compare(corpora, test):
    """(seconds on the loop, seconds in the thread, answer) of the server's ``scorelens/compare``
    for systems already scored, as compare.compare_for runs it."""
    uris = [f"file:///bench/sys{i}.txt" for i in range(len(corpora))]
    t_copy, (snapshots, _) = timed(lambda: copied(corpora, list(METRICS)))
    t_test, out = timed(lambda: tested(snapshots, list(METRICS), test, 0, uris))
    return t_copy, t_test, out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=3000)
    parser.add_argument("--systems", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=2, help="runs per figure (the best is kept)")
    parser.add_argument("--tests", default="bs,ar", help="which tests, comma-separated: bs, ar")
    args = parser.parse_args(argv)
    os.environ.pop("SACREBLEU_SEED", None)  # both use the default seed, 12345

    hyps, refs, source = systems(args.segments, args.systems)
    load_before = os.getloadavg()
    rows = []
    for test in args.tests.split(","):
        best = dict.fromkeys(("sacrebleu", "held", "cold", "copy", "thread"), float("inf"))
        for _ in range(args.repeat):
            t, theirs = timed(lambda: sacrebleu_test(hyps, refs, test))
            best["sacrebleu"] = min(best["sacrebleu"], t)
            t_score, corpora = timed(lambda: scored(hyps, refs))
            t, ours = timed(lambda: paired_test(corpora, list(METRICS), test))
            check(ours, theirs)
            best["held"] = min(best["held"], t)
            best["cold"] = min(best["cold"], t_score + t)
            t_copy, t_thread, out = server_compare(corpora, test)
            check_server(out, theirs, test)
            best["copy"] = min(best["copy"], t_copy)
            best["thread"] = min(best["thread"], t_thread)
        rows.append((test, best))
    load_after = os.getloadavg()

    print(
        f"{args.segments:,} segments × {args.systems} systems ({source}), BLEU + chrF + TER; best of {args.repeat}; "
        f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after; results identical to sacreBLEU's"
    )
    print()
    print("| test | sacreBLEU PairedTest | ScoreLens, statistics held | ratio | ScoreLens cold (scoring + test) | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    names = {"bs": "paired bootstrap, 1,000 resamples", "ar": "approximate randomization, 10,000 trials"}
    for test, b in rows:
        print(
            f"| {names[test]} | {fmt_s(b['sacrebleu'])} | {fmt_s(b['held'])} | **{b['sacrebleu'] / b['held']:.0f}×** "
            f"| {fmt_s(b['cold'])} | {b['sacrebleu'] / b['cold']:.1f}× |"
        )
    print()
    print("| test | server `scorelens/compare`: statistics copied on the loop | test + per-segment differences in a thread | sacreBLEU PairedTest |")
    print("|---|---:|---:|---:|")
    for test, b in rows:
        print(f"| {names[test]} | {fmt_s(b['copy'])} | {fmt_s(b['thread'])} | {fmt_s(b['sacrebleu'])} |")


if __name__ == "__main__":
    main()
