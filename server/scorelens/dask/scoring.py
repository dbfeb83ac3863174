"""Scoring a Dask collection: each partition's :class:`~scorelens.Statistics` computed where the
partition is, the statistics added in a tree, the sum scored once. The scores equal
:func:`scorelens.score` of all the collection's texts in one list (BLEU, chrF, TER, WER and CER
exactly; ROUGE means to within float rounding of the order of addition).

Each row of a ``dask.dataframe.DataFrame``, or each record (a dict) of a ``dask.bag.Bag``, is one
segment: its ``hypothesis`` column (or field) holds the hypothesis, and each of its
``references`` columns holds one reference, so two columns are two references per segment
(sacreBLEU's several reference streams).
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Sequence

import dask
import dask.bag as db
import dask.dataframe as dd
from dask.delayed import Delayed

from scorelens.api import DEFAULT_METRICS, OptionError, Scores, Statistics
from scorelens.api import statistics as texts_statistics
from scorelens.api.options import check_choices, complete, metric_names, scoring_config
from scorelens.core.scores import needs_records

from .files import cluster, fields, read
from .rows import partitions, texts

SPLIT_EVERY = 8  # statistics added by one task of the reduction tree
PathLike = str | os.PathLike


def score(
    collection: dd.DataFrame | db.Bag,
    hypothesis: str = "hypothesis",
    references: str | Sequence[str] = ("reference",),
    metrics: str | Iterable[str] = DEFAULT_METRICS,
    *,
    scheduler: Any = None,
    **options: Any,
) -> Scores:
    """The corpus scores of a DataFrame's rows or a Bag's records, equal to :func:`scorelens.score`
    of their ``hypothesis`` texts against their ``references`` texts, in the collection's order.

    ``references`` names one column (or field) per reference. ``metrics`` and ``options`` are
    :func:`scorelens.score`'s, except that ``segmentation`` is ``"line"`` (a row is a segment,
    whatever the partitions). The work runs on ``scheduler`` as ``dask.compute`` takes it: None
    for the active ``distributed.Client`` (else Dask's default), a client, or a scheduler's name.
    """
    return statistics(collection, hypothesis, references, metrics, scheduler=scheduler, **options).scores()


def statistics(
    collection: dd.DataFrame | db.Bag,
    hypothesis: str = "hypothesis",
    references: str | Sequence[str] = ("reference",),
    metrics: str | Iterable[str] = DEFAULT_METRICS,
    *,
    scheduler: Any = None,
    **options: Any,
) -> Statistics:
    """The additive statistics of a collection (arguments as :func:`score`): equal to
    :func:`scorelens.statistics` of all its texts, and addable to other statistics of the same
    metrics and options, e.g. another collection's."""
    (total,) = dask.compute(_delayed_statistics([collection], hypothesis, references, metrics, options), scheduler=scheduler)
    return total


def score_files(
    paths: PathLike | Sequence[PathLike],
    address: str,
    *,
    hypothesis: str | None = None,
    references: str | Sequence[str] | None = None,
    metrics: str | Iterable[str] = DEFAULT_METRICS,
    n_workers: int = 2,
    **options: Any,
) -> Scores:
    """The corpus scores of the records of one or more files, scored on a Dask cluster: as
    :func:`score` of one collection of all of them, in the order given.

    A file is read by its name's ending: ``.jsonl``/``.ndjson`` (one JSON object a line),
    ``.parquet``/``.pq`` or a directory (a Parquet dataset, one partition per row group), ``.tsv``
    or ``.csv`` (tab- or comma-separated, semicolons where a CSV's header has them and no comma; a
    header row naming the columns, quoted fields as the csv module reads them).
    ``hypothesis`` and ``references`` name columns (fields) as :func:`score`'s; not named, they are
    the first of the names the command line's readers take (``prediction``, ``hypothesis``, …;
    ``reference``, ``references``, …) that the first file has.
    ``address`` is a scheduler's address (``tcp://host:8786``), or ``"local"`` for a
    ``distributed.LocalCluster`` of ``n_workers`` processes, started and closed for this call.
    """
    files = file_list(paths)  # named as given in errors, as the command line names them
    hypothesis, refs = fields(files, hypothesis, references)
    collections = [read(p, [hypothesis, *refs]) for p in files]
    total = _delayed_statistics(collections, hypothesis, refs, metrics, options)
    with cluster(address, n_workers) as client:
        return total.compute(scheduler=client).scores()


def file_list(paths: PathLike | Sequence[PathLike]) -> list[PathLike]:
    return [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)


def _delayed_statistics(
    collections: Sequence[dd.DataFrame | db.Bag],
    hypothesis: str,
    references: str | Sequence[str],
    metrics: str | Iterable[str],
    options: dict[str, Any],
) -> Delayed:
    """The statistics of the collections' partitions, added in a tree: one lazy
    :class:`~scorelens.Statistics`. The metrics and options are checked here, before any work."""
    refs = reference_names(references)
    check(metrics, options)
    parts = [part for collection in collections for part in _partition_statistics(collection, hypothesis, refs, metrics, options)]
    if not parts:  # a collection of no partitions: the statistics of no segments
        parts = [dask.delayed(_part_statistics)([], hypothesis, refs, metrics, options)]
    while len(parts) > 1:
        parts = [dask.delayed(sum)(parts[i : i + SPLIT_EVERY]) for i in range(0, len(parts), SPLIT_EVERY)]
    return parts[0]


def reference_names(references: str | Sequence[str] | None) -> list[str]:
    """The reference columns named: at least one, checked before any work."""
    names = [references] if isinstance(references, str) else list(references or ())
    if not names:
        raise OptionError("references", "no reference column named: name one per reference")
    return names


def check(metrics: str | Iterable[str], options: dict[str, Any]) -> None:
    names = metric_names(metrics)
    o = complete(options)
    check_choices(o)
    if needs_records(scoring_config(names, o)):
        raise OptionError("metrics", "these flavours' corpus figures read every segment, not sums that add up")
    if o["segmentation"] != "line":
        # a paragraph or a document could span partitions, and ROUGE's mean is over segments
        raise OptionError("segmentation", "a Dask collection is scored row by row: only 'line'")


def _partition_statistics(collection, hypothesis: str, references: list[str], metrics, options) -> list[Delayed]:
    return [dask.delayed(_part_statistics)(part, hypothesis, references, metrics, options) for part in partitions(collection, hypothesis, references)]


def _part_statistics(part, hypothesis: str, references: list[str], metrics, options) -> Statistics:
    hyps, refs = texts(part, hypothesis, references)
    return texts_statistics(hyps, refs, metrics, **options)
