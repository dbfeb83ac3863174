"""``scorelens score``: corpus scores with their signatures, or each segment's own (``-sl``)."""

from __future__ import annotations

import argparse
import json
import sys

from ..api.options import PPL, OptionError
from ..api.results import Scores
from .documents import Run, checked_options, evaluation
from .errors import EXIT_OK, CliError
from .options import job_count, scoring_options
from .scores_text import format_chrf, notes, rouge_label, score_lines, summary_lines


def add_parser(commands) -> None:
    score = commands.add_parser(
        "score",
        parents=[scoring_options()],
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
    dask = score.add_argument_group("on a Dask cluster (needs the dask extra)")
    dask.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="score the records of HYP (.jsonl/.ndjson, .parquet or a Parquet folder, .tsv with a header) on the "
        "Dask scheduler at ADDRESS, or on a local cluster started for the run with 'local'",
    )
    dask.add_argument("--dask-workers", type=job_count, default=2, metavar="N", help="with --dask local: worker processes (default: 2)")
    score.set_defaults(run=run_score, parser=score)


def run_score(args: argparse.Namespace) -> int:
    if args.dask is not None:
        return run_on_dask(args)
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


def run_on_dask(args: argparse.Namespace) -> int:
    """The corpus scores of a file's records, scored partition by partition on a Dask cluster."""
    if args.hypothesis is None:
        raise CliError("--dask scores the records of a file: name it (HYP)")
    for wrong, why in (
        (args.sentence_level, "-sl"),
        (args.references, "-r (references are columns: --ref-field)"),
        (args.segmentation != "line", "--segmentation (a record is a segment)"),
        (PPL in args.metrics, "the ppl metric"),
    ):
        if wrong:
            raise CliError(f"--dask does not take {why}")
    options = {k: v for k, v in checked_options(args).items() if not k.startswith("lm")}
    try:
        from .. import dask as on_dask
    except ImportError as exc:
        raise CliError(f"--dask needs the dask extra (pip install 'scorelens[dask]'): {exc}") from None
    try:
        scores = on_dask.score_files(
            args.hypothesis,
            args.dask,
            hypothesis=args.hyp_field or "hypothesis",
            references=args.ref_field or ["reference"],
            metrics=args.metrics,
            n_workers=args.dask_workers,
            **options,
        )
    except (OptionError, KeyError, ValueError, OSError) as exc:
        raise CliError(f"{args.hypothesis}: {getattr(exc, 'reason', exc)}") from None
    print(json.dumps(scores.to_dict(), ensure_ascii=False) if args.json else "\n".join(score_lines(scores)))
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
    if s.id is not None:
        cells.append(f"id={s.id}")
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
