"""Files read as Dask collections, and the cluster a command runs them on."""

from __future__ import annotations

import csv
import json
import logging
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import dask.bag as db
import dask.dataframe as dd

from ..formats.delimited import csv_delimiter
from ..formats.jsonl import REFERENCE_FIELDS, TEXT_FIELDS

# Partitions of the text files read here: ~25,000-35,000 pairs of 20-30-word sentences, a few
# seconds of scoring each, so a lost one is cheap to redo, and ~250 MB of a worker's memory
# (bench/dask_scaling.py measures row groups of that many rows)
TEXT_BLOCKSIZE = 8 * 2**20
# a leading byte-order mark is left out of the first record (or header), as the command line's
# JSONL and TSV readers leave it out; it is no JSON, and no part of the first column's name
ENCODING = "utf-8-sig"


def read(path: str | os.PathLike, columns: list[str]) -> dd.DataFrame | db.Bag:
    """The records of a file, by its name's ending: ``.jsonl``/``.ndjson``, ``.parquet``/``.pq``
    or a directory (a Parquet dataset, one partition per row group), ``.tsv`` or ``.csv`` with a
    header."""
    kind = _kind(path)
    if kind == "jsonl":
        lines = db.read_text(str(path), blocksize=TEXT_BLOCKSIZE, encoding=ENCODING)
        return lines.filter(str.strip).map(_record, os.fspath(path))
    if kind == "parquet":
        return dd.read_parquet(str(path), columns=columns, split_row_groups=True)
    # quoted fields as the csv module reads them (so does the command line's TSV reader, and pandas
    # writes TSV so), and "NA" or "" a text, not a missing value; partitions split the file at line
    # breaks, so a field cannot hold one (docs/dask.md sends such texts to Parquet or JSONL)
    return dd.read_csv(
        str(path), sep=_delimiter(path, kind), blocksize=TEXT_BLOCKSIZE, dtype=str, usecols=columns,
        keep_default_na=False, na_filter=False, encoding=ENCODING,
    )  # fmt: skip


def _kind(path: str | os.PathLike) -> str:
    name = Path(path).name.lower()
    if name.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    if name.endswith((".parquet", ".pq")) or Path(path).is_dir():
        return "parquet"
    if name.endswith((".tsv", ".csv")):
        return name[-3:]
    raise ValueError(f"{path}: expected a .jsonl, .ndjson, .parquet, .pq, .tsv or .csv file, or a Parquet directory")


def _delimiter(path: str | os.PathLike, kind: str) -> str:
    """A tab, or a CSV's delimiter as the command line reads it: ``;`` where the header has
    semicolons and no comma (spreadsheets where the comma is the decimal mark)."""
    if kind == "tsv":
        return "\t"
    with open(path, encoding=ENCODING) as f:
        return csv_delimiter(f.readline())


def _record(line: str, name: str) -> dict:
    """A JSON Lines record of the file ``name``; a line that is not one is named by the file and
    the line's start (a partition of lines does not know their numbers)."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as e:
        raise ValueError(f"{name}: invalid JSON ({e.msg}) in the line {line[:80]!r}") from None
    if not isinstance(record, dict):
        raise ValueError(f"{name}: a line is not a JSON object: {line[:80]!r}")
    return record


def fields(paths: Sequence[str | os.PathLike], hypothesis: str | None, references: str | Sequence[str] | None) -> tuple[str, list[str]]:
    """The columns (fields) scored in the files: those named, or the first of the names the
    format readers take by default (``prediction``, ``hypothesis``, …; ``reference``, …), as the
    first file's header, schema or first record has them; each checked in every file."""
    found = [column_names(p) for p in paths]
    references = [references] if isinstance(references, str) else list(references or ())
    if hypothesis is None:
        hypothesis = next((n for n in TEXT_FIELDS if n in found[0]), None)
        if hypothesis is None:
            raise ValueError(f"{paths[0]}: no hypothesis column: none of {', '.join(TEXT_FIELDS)} (the columns are: {', '.join(found[0])}); name it")
    if not references:
        reference = next((n for n in REFERENCE_FIELDS if n in found[0] and n != hypothesis), None)
        if reference is None:
            raise ValueError(f"{paths[0]}: no reference column: none of {', '.join(REFERENCE_FIELDS)} (the columns are: {', '.join(found[0])}); name it")
        references = [reference]
    for path, have in zip(paths, found):
        for name in (hypothesis, *references):
            if name not in have:
                raise ValueError(f"{path}: no column {name!r} (the columns are: {', '.join(have)})")
    return hypothesis, references


def column_names(path: str | os.PathLike) -> list[str]:
    """A file's column names: a Parquet file's schema, a TSV or CSV file's header, a JSONL file's
    first record's keys."""
    kind = _kind(path)
    if kind == "parquet":
        return list(dd.read_parquet(str(path)).columns)  # reads the schema, no rows
    with open(path, encoding=ENCODING) as f:
        if kind in ("tsv", "csv"):
            header = f.readline().rstrip("\r\n")
            return next(csv.reader([header], delimiter=_delimiter(path, kind)), [])
        return list(_record(next((line for line in f if line.strip()), "{}"), os.fspath(path)))


@contextmanager
def cluster(address: str, n_workers: int) -> Iterator:
    """A client of the scheduler at ``address``, or for ``"local"`` of a ``distributed.LocalCluster``
    of ``n_workers`` processes, started here and closed after."""
    from distributed import Client, LocalCluster  # the distributed scheduler is needed here only

    if address != "local":
        with Client(address, set_as_default=False) as client:
            yield client
        return
    with (
        # ":0": any free port, where the default 8787 may be another cluster's
        # the workers' logs stay quiet: a task's error reaches the caller as an exception
        LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.CRITICAL) as local,
        Client(local, set_as_default=False) as client,
    ):
        yield client
