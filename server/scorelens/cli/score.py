"""``scorelens score``: corpus scores with their signatures, or each segment's own (``-sl``)."""

from __future__ import annotations

import argparse
import json
import sys

from ..api.options import OptionError
from ..api.results import Scores, SegmentScores
from ..formats.pairing import shown_id
from .documents import FormattedRun, Run, checked_options, evaluation, option_error
from .errors import EXIT_ERROR, EXIT_OK, CliError
from .on_dask import dask_arguments, dask_module, dask_options, refuse_on_dask
from .options import scoring_options
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
    dask_options(score, "score the records of HYP")
    score.set_defaults(run=run_score, parser=score)


_LINES_NAMED = 10  # in a note on segments without a figure


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
    if isinstance(ev, FormattedRun) and ev.unreadable():
        return EXIT_ERROR  # what was read is scored, but not all of the files was (as check)
    return EXIT_OK


def run_on_dask(args: argparse.Namespace) -> int:
    """The corpus scores of a file's records, scored partition by partition on a Dask cluster."""
    if args.hypothesis is None:
        raise CliError("--dask scores the records of a file: name it (HYP)")
    refuse_on_dask(args, (args.sentence_level, "-sl"))
    on_dask = dask_module()
    try:
        scores = on_dask.score_files(args.hypothesis, args.dask, n_workers=args.dask_workers, **dask_arguments(args))
    except OptionError as exc:
        raise option_error(exc) from None
    except (KeyError, TypeError, ValueError, OSError) as exc:  # TypeError: a missing value
        message = str(exc)  # a file's problem names the file; a record's is named here
        raise CliError(message if message.startswith(f"{args.hypothesis}:") else f"{args.hypothesis}: {message}") from None
    print(json.dumps(scores.to_dict(), ensure_ascii=False) if args.json else "\n".join(score_lines(scores)))
    return EXIT_OK


def run_sentence_level(ev: Run, as_json: bool) -> None:
    bleu_on = ev.corpus is not None and "bleu" in ev.corpus.config.metrics
    refused = []  # lines of segments without BLEU: NLTK's sentence_bleu fails on them
    for s in ev.all_segment_results():
        if bleu_on and s.bleu is None:
            refused.append(s.line)
        print(json.dumps(s.to_dict(), ensure_ascii=False) if as_json else segment_row(ev, s))
    if refused:
        shown = ", ".join(f"{ev.documents[0].path}:{line}" for line in refused[:_LINES_NAMED])
        more = f" and {len(refused) - _LINES_NAMED} more" if len(refused) > _LINES_NAMED else ""
        print(
            f"note: no BLEU for {len(refused)} of {ev.segments} segments, as NLTK's sentence_bleu fails on them "
            f"(method6 asserts without a 3-gram match): {shown}{more}",
            file=sys.stderr,
        )


def segment_row(ev: Run, s: SegmentScores) -> str:
    """One segment's scores on one line: where it starts in the hypothesis, then each metric in
    the order of the corpus summary."""
    cells = [f"{ev.documents[0].path}:{s.line}"]
    if s.id is not None:
        cells.append("id=" + shown_id(s.id))  # (a tab in it would be a cell more)
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
