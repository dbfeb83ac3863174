"""``scorelens agree``: how far annotators of the same items agree, pair by pair, and where they
disagree most."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from ..api.agreement import METRICS, Agreement, Annotation, agreed_metrics, agreement, check_options
from ..api.documents import Document as FormattedDocument
from ..api.documents import pair_annotators, with_rules
from ..api.options import OptionError, scoring_config
from ..formats import Fields
from ..formats.pairing import Problem, shown_id
from ..summary import HUNDREDS, metric_label
from ..textfile import BOM, BOM_NOTE
from .documents import (
    MAX_NAMED,
    STDIN,
    checked_options,
    formatted,
    formatted_document,
    option_error,
    read_document,
    segments_counted,
    with_hypothesis_language,
)
from .errors import EXIT_ERROR, EXIT_OK, CliError
from .options import jobs, scoring_options, segment_count
from .scores_text import dropped_note, unspaced_notes


def add_parser(commands) -> None:
    agree = commands.add_parser(
        "agree",
        parents=[scoring_options(hypothesis=False, references=False, language_model=False, metrics=("wer",), metric_choices=METRICS)],
        help="agreement between annotators of the same items: every pair scored both ways, the segments they disagree on most",
        description="Every annotator's file scored against every other one's as the reference (WER of B against A, "
        "of A against B, ...), one matrix per metric, each figure what `scorelens score B -r A` gives; then the "
        "segments where the annotators disagree most on the first metric, with every annotator's text. Line i "
        "of every plain-text file is the same item; records of other formats pair by id.",
    )
    agree.add_argument("annotators", metavar="FILE", nargs="+", help="two or more annotators' files of the same items")
    agree.add_argument(
        "--segments",
        type=segment_count,
        default=3,
        metavar="N",
        help="show the N segments the annotators disagree on most (default: 3; 0 for none)",
    )
    agree.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    agree.set_defaults(run=run_agree, parser=agree, references=None)


def run_agree(args: argparse.Namespace) -> int:
    paths = args.annotators
    if len(paths) < 2:
        raise CliError("agree needs two or more annotators' files of the same items (FILE FILE [FILE ...])")
    if STDIN in paths:
        raise CliError("agree reads every annotator from a file; standard input (-) is not one")
    options = checked_options(args)
    try:
        check_options(agreed_metrics(args.metrics), options)
    except OptionError as exc:
        raise option_error(exc) from None
    complete = True
    if formatted(args, paths):
        annotations, options, tokenizer_note, complete = formatted_annotations(args, paths, options)
    else:
        annotations = plain_annotations(args, paths)
        options, tokenizer_note = with_hypothesis_language(options, paths[0])
    if not annotations[0].texts:
        raise CliError(f"{paths[0]}: no segments to compare")
    for path in byte_order_marks(paths, annotations):
        print(f"{path}:1: note: {BOM_NOTE}", file=sys.stderr)
    result = agreement(annotations, list(paths), args.metrics, args.segments, options, jobs(args))
    found = notes(result, options, annotations[0], tokenizer_note)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
        for note in found:
            print(note, file=sys.stderr)  # stdout stays one JSON object
    else:
        print("\n".join(agreement_lines(result, args.segments) + ([""] + found if found else [])))
    return EXIT_OK if complete else EXIT_ERROR  # as check: what was read is reported, but not all of the files was


def plain_annotations(args: argparse.Namespace, paths: Sequence[str]) -> list[Annotation]:
    """Each file's segments, read as sacreBLEU reads a file; files that do not line up are bad input."""
    annotations = [Annotation.of_lines(read_document(p, args.max_file_bytes, args.encoding).lines, args.segmentation) for p in paths]
    first = annotations[0]
    details = []
    for k, a in enumerate(annotations[1:], 1):
        if len(a.texts) != len(first.texts):
            longer = 0 if len(first.texts) > len(a.texts) else k
            line = annotations[longer].lines[min(len(first.texts), len(a.texts))]
            details.append(
                f"{paths[0]} has {segments_counted(len(first.texts), args.segmentation)}, {paths[k]} has {len(a.texts)} (from {paths[longer]}:{line} on without a partner)"
            )
    if details:
        raise CliError(f"the files do not line up: {'; '.join(details)}; segment i of every annotator's file is the same item")
    return annotations


def formatted_annotations(args: argparse.Namespace, paths: Sequence[str], options: dict) -> tuple[list[Annotation], dict, str | None, bool]:
    """Each file's records read through its format's reader, paired with the first file's, the
    options with the files' scoring rules and the tokenizer the first file's declared language
    implies (with its note, :func:`.documents.with_hypothesis_language`), and whether every record could be read (an unreadable
    one is named and the rest is read). By id, an item not in every file is named and left out; by
    position, records without partners are bad input, as unequal line counts are."""
    if args.segmentation != "line":
        raise CliError("--segmentation is for plain text: each record of a formatted file is a segment")
    fields = Fields(args.hyp_field, (), None, args.id_field)
    documents = [formatted_document(p, args, fields, "annotation") for p in paths]
    for line in [e.format(d.path) for d in documents for e in d.reading.errors]:
        print(line, file=sys.stderr)  # path:line: error: ..., as compilers and CI problem matchers read it
    try:
        pairing = pair_annotators(documents, args.pair_by)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    named = [_problem(p, documents) for p in pairing.problems[:MAX_NAMED]]
    more = len(pairing.problems) - len(named)
    if named and pairing.by != "id":
        raise CliError(f"records do not pair by {pairing.by}: {'; '.join(named)}" + (f" (and {more} more)" if more else ""))
    for problem in named:
        print(f"{problem}; left out", file=sys.stderr)
    if more:
        print(f"scorelens: warning: {more} more records without a partner in every file left out", file=sys.stderr)
    streams = [pairing.hypothesis, *pairing.references]
    annotations = [Annotation([e.segment.text for e in s], [e.line for e in s], [e.id for e in s]) for s in streams]
    options, note = with_hypothesis_language(with_rules(options, documents), paths[0], documents[0].reading.languages[1])
    return annotations, options, note, not any(d.reading.errors for d in documents)


def notes(result: Agreement, options: dict, first: Annotation, tokenizer_note: str | None) -> list[str]:
    """The known traps (DESIGN §2) ``score`` notes, as the annotators' texts fall into them, and
    the tokenizer their language implies."""
    found = [dropped_note(result.dropped_segments, result.segments)] if result.dropped_segments else []
    bleu_tokenize = scoring_config(result.metrics, options).bleu.tokenize if "bleu" in result.metrics else None
    if bleu_tokenize is not None and tokenizer_note is not None:
        found.append(tokenizer_note)
    return found + unspaced_notes("\n".join(first.texts), "the annotators' text", bleu_tokenize, "wer" in result.metrics)


def byte_order_marks(paths: Sequence[str], annotations: Sequence[Annotation]) -> list[str]:
    """The files whose leading U+FEFF is scored as part of the text on their first line, as
    ``score`` scores it: a difference from every other annotator that no printed text shows, so
    it is said, as ``check`` says it (a reader that skips the mark leaves none to say)."""
    return [p for p, a in zip(paths, annotations) if any(line == 1 and text.startswith(BOM) for text, line in zip(a.texts, a.lines))]


def _problem(p: Problem, documents: Sequence[FormattedDocument]) -> str:
    """``path:line: warning: ...`` for a record without a partner, naming the files it is not in."""
    where = f"{documents[p.side].path}:{p.line}: warning:"
    what = f"id '{shown_id(p.id)}'" if p.id is not None else "a record"
    if p.kind == "duplicate":
        return f"{where} {what} is given again"
    if p.kind == "unpaired":
        return f"{where} {what} has no partner at this position"
    if p.kind == "extra":
        return f"{where} {what} is not in {documents[0].path}"
    lacking = [d.path for d in documents[1:] if all(r.id != p.id for r in d.reading.records)]
    return f"{where} {what} is not in {', '.join(lacking) or 'every other file'}"


def _value(metric: str, x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:.2f}" if metric in HUNDREDS else f"{x:.4f}"


def agreement_lines(result: Agreement, segments: int) -> list[str]:
    """The matrices as tables, then (``segments`` > 0) the segments ranked."""
    paths = result.annotators
    out = [
        f"{len(paths)} annotators, {result.segments:,} segment{'s' * (result.segments != 1)}; in each table row i is the reference and "
        "column j the annotator scored against it",
    ]
    for metric in result.metrics:
        out += ["", f"{metric_label(metric)}  {result.signatures[metric]}"]
        header = ["reference", *(str(k) for k in range(1, len(paths) + 1))]
        rows = [[f"{i} {path}", *(_value(metric, x) for x in row)] for i, (path, row) in enumerate(zip(paths, result.matrix(metric)), 1)]
        widths = [max(len(row[k]) for row in [header, *rows]) for k in range(len(header))]
        for row in [header, *rows]:
            out.append("  ".join([row[0].ljust(widths[0]), *(cell.rjust(w) for cell, w in zip(row[1:], widths[1:]))]))
    if segments:
        label = metric_label(result.metrics[0])
        out += ["", f"Where the annotators disagree most (the mean {label} of every annotator against every other, segment by segment):"]
        if not result.disagreements:
            out.append(f"  nowhere: {label} finds every two annotators alike on every segment")
        width = max((len(f"{p}:{line}") for d in result.disagreements for p, line in zip(paths, d.lines)), default=0)
        for d in result.disagreements:
            out.append(f"  mean {label} {_value(result.metrics[0], result.mean_score(d))}" + (f", id '{shown_id(d.id)}'" if d.id is not None else ""))
            for path, line, text in zip(paths, d.lines, d.texts):
                out.append(f"    {f'{path}:{line}'.ljust(width)}  {text.replace(chr(10), ' ⏎ ')}")
    return out
