"""Comparing systems on Dask: sacreBLEU's paired tests (:func:`scorelens.compare`) over segment
statistics computed where the partitions are.

Each system is a collection whose row i is the same item in every system: its hypothesis and the
references. Each partition yields, per compared metric, its segments' statistics (a few numbers
a segment, not texts) and a digest of each row's references; the client puts each system's in order,
checks that every system has the baseline's references, and runs the tests on them. The p-values,
means and intervals equal :func:`scorelens.compare`'s of the same texts in one process. Of the
texts, only those of the segments shown as most improved and most regressed are fetched, each
from its own partition.
"""

from __future__ import annotations

import bisect
import hashlib
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, Iterable, Sequence

import dask
import dask.bag as db
import dask.dataframe as dd

from scorelens.api import DEFAULT_METRICS, OptionError
from scorelens.api.compare import Compared, checked_arguments, compared_corpora, tested_metrics, tested_options
from scorelens.api.options import complete, metric_names
from scorelens.api.scoring import evaluation_of
from scorelens.core.config import ScoringConfig
from scorelens.core.significance import Gathered, metric_statistics

from .files import cluster, fields, read
from .rows import partitions, texts
from .scoring import PathLike, check, file_list, reference_names

Collection = dd.DataFrame | db.Bag
DIGEST = 8


@dataclass(frozen=True)
class _Part:
    """What one partition of one system sends back."""

    segments: int
    config: ScoringConfig | None  # None for a partition of no rows
    references: int
    rows: dict[str, list[tuple]]
    digests: bytes  # of each row's references, DIGEST bytes a row: the systems' must be the same


def compare(
    baseline: Collection,
    systems: Sequence[Collection],
    hypothesis: str = "hypothesis",
    references: str | Sequence[str] = ("reference",),
    metrics: str | Iterable[str] = DEFAULT_METRICS,
    *,
    test: str = "bs",
    n: int = 0,
    seed: int | None = 12345,
    segments: int = 3,
    names: Sequence[str] | None = None,
    scheduler: Any = None,
    **options: Any,
) -> dict[str, Any]:
    """Each system against the baseline, as :func:`scorelens.compare` of the collections' texts:
    ``baseline`` and each of ``systems`` is a DataFrame or a Bag whose ``hypothesis`` column holds
    that system's hypotheses and whose ``references`` columns hold the references, the same in
    every system (a ValueError names the first row where they are not). A highlighted segment's
    ``line`` is its row's 1-based number. Other arguments as :func:`scorelens.compare` and
    :func:`scorelens.dask.score`."""
    if isinstance(systems, (dd.DataFrame, db.Bag)):  # iterated, a DataFrame would be its column names
        raise OptionError("systems", "expected a list of systems, each a DataFrame or Bag (one system: [collection])")
    return compared(
        [baseline, *systems], names, hypothesis, references, metrics, test, n, seed, segments, options, scheduler
    ).to_dict()


def compare_files(paths: Sequence[PathLike], address: str, *, n_workers: int = 2, **arguments: Any) -> dict[str, Any]:
    """:func:`compare` of files (the baseline's first), each read as :func:`~scorelens.dask.score_files`
    reads one, on the cluster at ``address`` (or ``"local"``, of ``n_workers`` processes); the
    systems are named by their paths; ``arguments`` are :func:`compare`'s but ``names``."""
    return compared_files(paths, address, n_workers=n_workers, **arguments).to_dict()


def compared_files(
    paths: Sequence[PathLike],
    address: str,
    *,
    hypothesis: str | None = None,
    references: str | Sequence[str] | None = None,
    metrics: str | Iterable[str] = DEFAULT_METRICS,
    test: str = "bs",
    n: int = 0,
    seed: int | None = 12345,
    segments: int = 3,
    n_workers: int = 2,
    **options: Any,
) -> Compared:
    """:func:`compare_files`'s comparison, as the command line prints it."""
    files = file_list(paths)  # named as given in errors, as the command line names them
    hypothesis, refs = fields(files, hypothesis, references)
    collections = [read(p, [hypothesis, *refs]) for p in files]
    names = [str(p) for p in files]
    with cluster(address, n_workers) as client:
        return compared(collections, names, hypothesis, refs, metrics, test, n, seed, segments, options, client)


def compared(
    collections: Sequence[Collection],
    names: Sequence[str] | None,
    hypothesis: str,
    references: str | Sequence[str],
    metrics: str | Iterable[str],
    test: str,
    n: int,
    seed: int | None,
    segments: int,
    options: dict[str, Any],
    scheduler: Any,
) -> Compared:
    tested = tested_metrics(metric_names(metrics))
    tested_options(complete(options))
    check(tested, options)
    checked_arguments(len(collections), names, test, n, seed, segments)
    if names is None:
        names = ["baseline", *(f"system{i}" for i in range(1, len(collections)))]
    refs = reference_names(references)
    parts = [partitions(c, hypothesis, refs) for c in collections]
    work = [[dask.delayed(_part)(p, name, hypothesis, refs, tested, options) for p in system] for name, system in zip(names, parts)]
    (done,) = dask.compute(work, scheduler=scheduler)
    _same_references(done, list(names))
    corpora = [_gathered(system, tested) for system in done]

    def described(system: int, rows: list[int]) -> list[tuple[int, str]]:
        """Each row's number and hypothesis, fetched from the partitions that hold them."""
        starts = list(accumulate((p.segments for p in done[system]), initial=0))
        wanted: dict[int, list[int]] = {}
        for row in rows:
            k = bisect.bisect_right(starts, row) - 1  # past any empty partition starting there
            wanted.setdefault(k, []).append(row)
        keys = sorted(wanted)
        fetched = dask.compute([parts[system][k] for k in keys], scheduler=scheduler)[0]
        found = {}
        for k, part in zip(keys, fetched):
            hyps, _ = texts(part, hypothesis, [])
            found.update((row, hyps[row - starts[k]]) for row in wanted[k])
        return [(row + 1, found[row]) for row in rows]

    return compared_corpora(corpora, list(names), tested, test, n, seed, segments, described)


def _part(part, name: str, hypothesis: str, references: list[str], metrics: list[str], options: dict[str, Any]) -> _Part:
    try:
        hyps, refs = texts(part, hypothesis, references)
    except (TypeError, ValueError) as exc:  # a record's problem (a missing field or value), named by its system
        raise type(exc)(f"{name}: {exc}") from None
    digests = b"".join(
        hashlib.blake2b("\0".join(row).encode("utf-8", "surrogatepass"), digest_size=DIGEST).digest() for row in zip(*refs)
    )
    if not hyps:
        return _Part(0, None, len(refs), {m: [] for m in metrics}, digests)
    corpus = evaluation_of(hyps, refs, metrics, 1, options).corpus
    return _Part(len(hyps), corpus.config, corpus.references, {m: metric_statistics(corpus, m) for m in metrics}, digests)


def _same_references(done: list[list[_Part]], names: list[str]) -> None:
    """Every system has the baseline's rows and, row for row, its references."""
    counts = [sum(p.segments for p in system) for system in done]
    baseline = b"".join(p.digests for p in done[0])
    for name, count, system in zip(names[1:], counts[1:], done[1:]):
        if count != counts[0]:
            raise ValueError(f"{name} has {count} rows, the baseline {names[0]} {counts[0]}")
        theirs = b"".join(p.digests for p in system)
        if theirs != baseline:
            row = next(i for i in range(counts[0]) if theirs[i * DIGEST : (i + 1) * DIGEST] != baseline[i * DIGEST : (i + 1) * DIGEST])
            raise ValueError(f"{name} has other references than the baseline {names[0]}: row {row + 1} is the first")


def _gathered(system: list[_Part], metrics: list[str]) -> Gathered:
    held = [p for p in system if p.config is not None]
    if not held:
        return Gathered(ScoringConfig(metrics=frozenset()), 0, {m: [] for m in metrics})
    return Gathered(held[0].config, held[0].references, {m: [row for p in held for row in p.rows[m]] for m in metrics})
