"""``scorelens compare``: systems against a baseline, with sacreBLEU's paired significance tests."""

from __future__ import annotations

import argparse
import json
import os
from typing import TYPE_CHECKING

from ..api.compare import Compared, compared, tested_metrics, tested_options
from ..api.evaluation import evaluate
from ..api.options import OptionError
from ..summary import HUNDREDS, metric_label
from .documents import (
    STDIN,
    FormattedRun,
    Run,
    checked_options,
    formatted,
    formatted_run,
    found_references,
    option_error,
    read_document,
    with_hypothesis_language,
)
from .errors import EXIT_OK, CliError
from .on_dask import dask_arguments, dask_module, dask_options, refuse_on_dask
from .options import jobs, samples, scoring_options, segment_count

if TYPE_CHECKING:  # significance imports NumPy, which only comparing needs
    from ..core import significance

TEST_NAMES = {"bs": ("paired bootstrap resampling", "resample"), "ar": ("paired approximate randomization", "trial")}
SIGNIFICANT = 0.05


def add_parser(commands) -> None:
    from ..core.significance import METRICS  # the metrics compare has a paired test for

    compare = commands.add_parser(
        "compare",
        parents=[scoring_options(hypothesis=False, language_model=False, metric_choices=list(METRICS))],
        help="systems against a baseline: scores, confidence intervals, paired significance tests",
        description="Each system against the baseline on the same references: every metric's score, the mean "
        "and 95% confidence interval of its bootstrap resamples, and the p-value of a paired test "
        "(sacreBLEU's; the seed comes from SACREBLEU_SEED, default 12345, 'none' for a random one); "
        "then the segments where the best system most improves and most regresses.",
    )
    compare.add_argument("baseline", metavar="BASELINE", help="the baseline system's file")
    compare.add_argument("systems", metavar="SYSTEM", nargs="+", help="files of the systems compared with it")
    tests = compare.add_mutually_exclusive_group()
    tests.add_argument(
        "--paired-bs", dest="test", action="store_const", const="bs", help="paired bootstrap resampling (the default)"
    )
    tests.add_argument("--paired-ar", dest="test", action="store_const", const="ar", help="paired approximate randomization")
    compare.set_defaults(test="bs")
    compare.add_argument(
        "--paired-n",
        type=samples,
        default=0,
        metavar="N",
        help="bootstrap resamples (default: 1,000; the confidence intervals come from them) or randomization "
        "trials (default: 10,000; the confidence intervals from 1,000 bootstrap resamples); 0: the default",
    )
    compare.add_argument(
        "--segments", type=segment_count, default=3, metavar="N", help="show N most improved and N most regressed segments (default: 3)"
    )
    compare.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    dask_options(compare, "compare the records of the files, each holding the references too,")
    compare.set_defaults(run=run_compare, parser=compare)


def run_compare(args: argparse.Namespace) -> int:
    from ..core import significance

    options = checked_options(args)
    try:
        tested_metrics(args.metrics)
        tested_options(options)
    except OptionError as exc:
        raise option_error(exc) from None
    try:
        seed = significance.seed_from(os.environ.get("SACREBLEU_SEED"))
    except ValueError:
        raise CliError(f"SACREBLEU_SEED must be a number, 0 or more, or 'none', not {os.environ['SACREBLEU_SEED']!r}") from None
    if args.dask is not None:
        result = compared_on_dask(args, seed)
    else:
        runs = compared_runs(args, options)
        if not runs[0].segments:
            raise CliError(f"{args.baseline}: no segments to compare")
        result = compared(runs, [r.documents[0].path for r in runs], args.metrics, args.test, args.paired_n, seed, args.segments)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        print("\n".join(compare_lines(result)))
    return EXIT_OK


def compared_runs(args: argparse.Namespace, options: dict) -> list[Run | FormattedRun]:
    """The baseline and every system, each with the shared references, scored and lined up."""
    paths = [args.baseline, *args.systems]
    if STDIN in paths:
        raise CliError("compare reads every system from a file; standard input (-) is not one")
    if formatted(args, paths):
        # records in the reference's order, so that segment i is the same item in every system
        baseline = formatted_run(args, options, args.baseline, in_reference_order=True)
        if not args.references:
            # the systems share the baseline's references, and pair with its records: the
            # references its records hold (the baseline read as the reference file), else the
            # files found by its name (a file holding several references is several documents)
            held = any(r.references for r in baseline.documents[0].reading.records)
            args.references = [args.baseline] if held else list(dict.fromkeys(d.path for d in baseline.documents[1:]))
        # one tokenizer for every system: the one the baseline's language implies
        options, _ = with_hypothesis_language(options, args.baseline, baseline.documents[0].reading.languages[1])
        return [baseline, *(formatted_run(args, options, path, in_reference_order=True) for path in args.systems)]
    # the systems read first: a file that is no text (Parquet without --dask, say) is named as such,
    # before its references are looked for by its name
    documents = [read_document(path, args.max_file_bytes, args.encoding) for path in paths]
    references = [read_document(r, args.max_file_bytes, args.encoding) for r in args.references or found_references(args.baseline)]
    options, _ = with_hypothesis_language(options, args.baseline)  # one tokenizer for every system: the baseline's
    runs = []
    for document in documents:
        ev = evaluate(document.lines, [r.lines for r in references], args.metrics, options, jobs(args))
        run = Run(ev.corpus, ev.jobs, ev.perplexity, [document, *references])
        run.require_lined_up()
        run.scores  # noqa: B018 -- scored here, through the worker pool when large
        runs.append(run)
    return runs


def compared_on_dask(args: argparse.Namespace, seed: int | None) -> Compared:
    """The files' records compared partition by partition on a Dask cluster."""
    refuse_on_dask(args)
    on_dask = dask_module()
    try:
        return on_dask.comparing.compared_files(
            [args.baseline, *args.systems], args.dask, test=args.test, n=args.paired_n, seed=seed, segments=args.segments,
            n_workers=args.dask_workers, **dask_arguments(args),
        )  # fmt: skip
    except OptionError as exc:
        raise option_error(exc) from None
    except (KeyError, TypeError, ValueError, OSError) as exc:  # TypeError: a missing value
        raise CliError(str(exc)) from None


def _value(metric: str, x: float, sign: str = "") -> str:
    return f"{x:{sign}.2f}" if metric in HUNDREDS else f"{x:{sign}.4f}"


def _cell(metric: str, r: significance.Result) -> str:
    cell = _value(metric, r.score)
    if r.mean is not None:
        cell += f" ({_value(metric, r.mean)} ± {_value(metric, r.ci)})"
    if r.p_value is not None:
        cell += f" p = {r.p_value:.4f}" + ("*" if r.p_value < SIGNIFICANT else "")
    return cell


def compare_lines(result: Compared) -> list[str]:
    comparison, found, paths = result.comparison, result.highlights, result.names
    name, unit = TEST_NAMES[comparison.test]
    seed = "no seed" if comparison.seed is None else f"seed {comparison.seed}"
    out = [
        f"{name.capitalize()} against the baseline {paths[0]}: {comparison.n:,} {unit}{'' if comparison.n == 1 else 's'}, {seed}",
        "score (mean ± 95% confidence interval) and p-value against the baseline; * p < 0.05",
        "",
    ]
    header = ["System", *(metric_label(m) for m in comparison.metrics)]
    rows = [[path, *(_cell(m, r[m]) for m in comparison.metrics)] for path, r in zip(paths, comparison.results)]
    widths = [max(len(row[k]) for row in [header, *rows]) for k in range(len(header))]
    for row in [header, *rows]:
        out.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    if found is not None:
        label = metric_label(found.metric)
        out += ["", f"{paths[found.system]} against the baseline, segment by segment ({label} of each segment):"]
        for title, items in (("most improved", found.improved), ("most regressed", found.regressed)):
            out.append(f"  {title}:" + ("" if items else " none"))
            for h in items:
                out += [
                    f"    line {h.line}: {_value(found.metric, h.difference, '+')} "
                    f"({_value(found.metric, h.baseline)} -> {_value(found.metric, h.system)})",
                    *_marked("-", h.baseline_text),
                    *_marked("+", h.system_text),
                ]
    return out


def _marked(marker: str, text: str) -> list[str]:
    """A segment's text after its marker; a paragraph's later lines indented under its first, so
    that the baseline's and the system's stay apart."""
    first, *rest = text.split("\n")
    return [f"      {marker} {first}", *(f"        {line}" for line in rest)]
