"""BLEU with each of sacreBLEU's tokenizers, and TER with its Asian normalising, on real text:
sacreBLEU's corpus call against ``scorelens.score`` on the same texts, in one process.

    .venv/bin/python bench/tokenizers.py [--lines 20000] [--write bench/RESULTS.md]

English: bench/core.py's TED pairs. Japanese: the Kyoto test set and compare-mt's multi-TED
Japanese (../shared/data), with each line once, since sacreBLEU's tokenizers cache the lines
they have seen. ScoreLens is timed after a first call on 20 lines (its imports are lazy), with one
process (jobs=1). Each figure is checked equal to sacreBLEU's (1e-9). Not a test: it prints
its figures.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import sacrebleu
from sacrebleu.metrics import TER

from api import clocked
from core import SEED, fmt_s, generate
from results import measured, publish

import scorelens

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
JAPANESE = [("en-ja-kyoto/kyoto-test.hyp.ja", "en-ja-kyoto/kyoto-test.ref.ja"), ("compare-mt/multited.sys1.jpn", "compare-mt/multited.ref.jpn")]
TER_LINES = 1_000  # sacreBLEU's TER takes about 40 ms a Japanese line


def japanese() -> tuple[list[str], list[str]] | None:
    if not all((DATA / p).exists() for pair in JAPANESE for p in pair):
        return None
    lines = lambda p: (DATA / p).read_text(encoding="utf-8").split("\n")[:-1]
    return [h for hyp, _ in JAPANESE for h in lines(hyp)], [r for _, ref in JAPANESE for r in lines(ref)]


def mecab() -> bool:
    try:
        import ipadic  # noqa: F401
        import MeCab  # noqa: F401
    except ImportError:
        return False
    return True


def bleu_row(language: str, hyps: list[str], refs: list[str], tokenize: str) -> str:
    _, theirs, expected = clocked(lambda: sacrebleu.corpus_bleu(hyps, [refs], tokenize=tokenize).score)
    _, ours, got = clocked(lambda: scorelens.score(hyps, refs, metrics="bleu", jobs=1, tokenize=tokenize).bleu.score)
    assert abs(got - expected) <= 1e-9, (tokenize, got, expected)
    return f"| {language}, {len(hyps):,} lines | BLEU `tokenize={tokenize}` | {fmt_s(theirs)} | {fmt_s(ours)} | **{theirs / ours:.1f}×** | {got:.4f} |"


def ter_row(language: str, hyps: list[str], refs: list[str]) -> str:
    hyps, refs = hyps[:TER_LINES], refs[:TER_LINES]
    _, theirs, expected = clocked(lambda: TER(normalized=True, asian_support=True).corpus_score(hyps, [refs]).score)
    options = {"ter_normalized": True, "ter_asian_support": True}
    _, ours, got = clocked(lambda: scorelens.score(hyps, refs, metrics="ter", jobs=1, **options).ter.score)
    assert abs(got - expected) <= 1e-9, (got, expected)
    return f"| {language}, {len(hyps):,} lines | TER, normalised with Asian support | {fmt_s(theirs)} | {fmt_s(ours)} | **{theirs / ours:.1f}×** | {got:.4f} |"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=20_000, help="English lines")
    parser.add_argument("--write", help="write the table into this RESULTS.md")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    hyps, refs, source = generate(args.lines, SEED)
    scorelens.score(hyps[:20], refs[:20], metrics="bleu,ter", jobs=1)  # its lazy imports (a batch: a few lines are scored apart)
    rows = [bleu_row("English", hyps, refs, tokenize) for tokenize in ("13a", "intl", "char", "none")]
    found = japanese()
    if found is not None:
        ja_hyps, ja_refs = found
        tokenizers = ("zh", "char", "13a") + (("ja-mecab",) if mecab() else ())
        rows += [bleu_row("Japanese", ja_hyps, ja_refs, tokenize) for tokenize in tokenizers]
        rows.append(ter_row("Japanese", ja_hyps, ja_refs))
    table = "\n".join(
        ["| text | metric | sacreBLEU | ScoreLens | sacreBLEU / ScoreLens | score (both) |", "|---|---|---:|---:|---:|---:|", *rows]
    )
    japanese_text = "the Kyoto test set and compare-mt's multi-TED Japanese, each line once" if found else "absent (../shared/data)"
    about = (
        f"{measured(load_before, os.getloadavg())} CPU time of one corpus call each, in one process; ScoreLens with "
        f"jobs=1, after a first call on 20 lines. English: {source}, 20-30 tokens a line; Japanese: {japanese_text}. "
        "Each ScoreLens figure checked equal to sacreBLEU's (1e-9)."
    )
    publish(args.write, "## Tokenizers (bench/tokenizers.py)", "tokenizers.py", argv, about, table)


if __name__ == "__main__":
    sys.exit(main())
