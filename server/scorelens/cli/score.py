"""``scorelens score``: corpus scores with their signatures, or each segment's own (``-sl``)."""

from __future__ import annotations

import argparse
import json
import sys

from .documents import Run, evaluation
from .errors import EXIT_OK
from ..api.results import Scores
from .scores_text import format_chrf, notes, rouge_label, summary_lines


def add_parser(commands, shared: argparse.ArgumentParser) -> None:
    score = commands.add_parser(
        "score",
        parents=[shared],
        help="corpus scores with their signatures",
        description="Corpus scores with their signatures. Line i of HYP is scored against line i of every REF.",
    )
    score.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    score.add_argument(
        "-sl",
        "--sentence-level",
        action="store_true",
        help="each segment's own scores (sentence BLEU, sentence chrF, ...) instead of the corpus's: "
        "one row per segment, or one JSON object per line with --json",
    )
    score.set_defaults(run=run_score, parser=score)


def run_score(args: argparse.Namespace) -> int:
    ev = evaluation(args)
    if args.sentence_level:
        run_sentence_level(ev, args.json)
        for note in notes(ev):
            print(note, file=sys.stderr)
    elif args.json:
        print(json.dumps(ev.results().to_dict(), ensure_ascii=False))
        for note in notes(ev):
            print(note, file=sys.stderr)  # stdout stays one JSON object
    else:
        print("\n".join(summary_lines(ev) + notes(ev)))
    return EXIT_OK


def run_sentence_level(ev: Run, as_json: bool) -> None:
    ev.scores  # noqa: B018 -- scored once, through the pool when large
    for i in range(ev.segments):
        if as_json:
            print(json.dumps(ev.segment_results(i).to_dict(), ensure_ascii=False))
        else:
            print(segment_row(ev, i))


def segment_row(ev: Run, segment: int) -> str:
    """One segment's scores on one line: where it starts in the hypothesis, then each metric in
    the order of the corpus summary."""
    cells = [f"{ev.documents[0].path}:{ev.first_line(segment) + 1}"]
    s = ev.segment_results(segment)
    for key in Scores.KEYS:
        value = getattr(s, key)
        if value is None:
            continue
        if key == "ppl":
            cells.append(f"PPL = {value.perplexity:.2f}")
        elif key in ("bleu", "ter"):
            cells.append(f"{key.upper()} = {value.score:.2f}")
        elif key == "chrf":
            cells.append(format_chrf(value))
        elif key in ("wer", "cer"):
            cells.append(f"{key.upper()} = {value.rate:.4f}")
        else:
            cells.append(f"{rouge_label(key)} = {value.fmeasure:.4f}")
    return "\t".join(cells)
