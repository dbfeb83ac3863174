"""What ``score --dask`` and ``compare --dask`` share: the options, what they refuse, the module."""

from __future__ import annotations

import argparse
from types import ModuleType
from typing import Any

from ..api.options import PPL
from .documents import checked_options
from .errors import CliError
from .options import job_count


def dask_options(parser: argparse.ArgumentParser, what: str) -> None:
    dask = parser.add_argument_group("on a Dask cluster (needs the dask extra)")
    dask.add_argument(
        "--dask",
        metavar="ADDRESS",
        help=f"{what} (.jsonl/.ndjson, .parquet or a Parquet folder, .tsv or .csv with a header) on the "
        "Dask scheduler at ADDRESS, or on a local cluster started for the run with 'local'",
    )
    dask.add_argument("--dask-workers", type=job_count, default=2, metavar="N", help="with --dask local: worker processes (default: 2)")


def refuse_on_dask(args: argparse.Namespace, *more: tuple[Any, str]) -> None:
    """One error for the first option given that a run on Dask does not take."""
    for wrong, why in (
        *more,
        (args.references, "-r (references are columns: --ref-field)"),
        (args.segmentation != "line", "--segmentation (a record is a segment)"),
        (PPL in args.metrics, "the ppl metric"),
    ):
        if wrong:
            raise CliError(f"--dask does not take {why}")


def dask_module() -> ModuleType:
    try:
        from .. import dask as on_dask
    except ImportError as exc:
        raise CliError(f"--dask needs the dask extra (from the checkout: pip install -e '.[dask]'): {exc}") from None
    return on_dask


def dask_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The fields, metrics and scoring options, as scorelens.dask takes them."""
    options = {k: v for k, v in checked_options(args).items() if not k.startswith("lm")}
    return {"hypothesis": args.hyp_field, "references": args.ref_field, "metrics": args.metrics, **options}
