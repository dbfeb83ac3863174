"""Files read as Dask collections, and the cluster a command runs them on."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dask.bag as db
import dask.dataframe as dd

# Partitions of the text files read here: ~25,000-35,000 pairs of 20-30-word sentences, a few
# seconds of scoring each, so a lost one is cheap to redo, and ~250 MB of a worker's memory
# (bench/dask_scaling.py measures row groups of that many rows)
TEXT_BLOCKSIZE = 8 * 2**20


def read(path: Path, columns: list[str]) -> dd.DataFrame | db.Bag:
    """The records of a file, by its name's ending: ``.jsonl``/``.ndjson``, ``.parquet``/``.pq``
    or a directory (a Parquet dataset, one partition per row group), ``.tsv`` with a header."""
    name = path.name.lower()
    if name.endswith((".jsonl", ".ndjson")):
        lines = db.read_text(str(path), blocksize=TEXT_BLOCKSIZE, encoding="utf-8")
        return lines.filter(str.strip).map(json.loads)
    if name.endswith((".parquet", ".pq")) or path.is_dir():
        return dd.read_parquet(str(path), columns=columns, split_row_groups=True)
    if name.endswith(".tsv"):
        # every field a string as written: no quoting, and "NA" or "" is a text, not a missing value
        return dd.read_csv(
            str(path), sep="\t", blocksize=TEXT_BLOCKSIZE, dtype=str, usecols=columns,
            quoting=csv.QUOTE_NONE, keep_default_na=False, na_filter=False, encoding="utf-8",
        )  # fmt: skip
    raise ValueError(f"{path}: expected a .jsonl, .ndjson, .parquet, .pq or .tsv file, or a Parquet directory")


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
        LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=":0") as local,
        Client(local, set_as_default=False) as client,
    ):
        yield client
