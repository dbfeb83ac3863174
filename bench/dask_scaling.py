"""Benchmark: scorelens.dask on 1 worker against 2 workers, on a 1,000,000-row Parquet file.

    PYTHONPATH=server .venv/bin/python bench/dask_scaling.py [--rows 1000000] [--row-group 25000] [--metrics bleu,rougeL,wer] [--repeat 1] [--write bench/RESULTS.md]

Writes a Parquet file of ``--rows`` hypothesis/reference pairs (bench/core.py's: sentences of
20-30 tokens cut from the TED text in ../shared/data/compare-mt, or a synthetic Zipfian
vocabulary when it is absent, with ~30% word errors; fixed seed) in row groups of
``--row-group`` rows, under a temporary directory. Then, for 1 and for 2 workers (a
``distributed.LocalCluster`` of processes with one thread each, started before the timing),
times :func:`scorelens.dask.score_files` of the file on that cluster (``--repeat`` rounds, the
fastest kept), and reads each worker's peak resident memory and CPU time before and after the
job. Prints the wall times side by side with their ratio, the peaks against the sizes of a row
group (one partition) and of the file, and the load average of each run (the machine's 2 cores
may be shared). The scores of the two runs are checked equal. ``--write`` also puts the table
in its section of bench/RESULTS.md. This is not a test.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

from core import DEFAULT, generate  # bench/core.py: the same pairs as the core benchmark
from results import measured, publish

HEADING = "## Dask (bench/dask_scaling.py)"
TARGET = 1.6  # issue #35: two local workers against one

MB = 2**20


def usage() -> tuple[int, float]:
    """This process's peak resident memory in bytes and its CPU seconds so far. The peak is
    /proc's VmHWM, of this program's memory alone: getrusage's ru_maxrss is carried over from
    the parent through fork and exec, so a worker's would be at least this benchmark's peak."""
    status = Path("/proc/self/status").read_text()
    peak = int(status.split("VmHWM:")[1].split()[0]) * 1024
    times = resource.getrusage(resource.RUSAGE_SELF)
    return peak, times.ru_utime + times.ru_stime


def machine_busy() -> float:
    """CPU seconds all processes of the machine have used since boot (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def write_pairs(path: Path, rows: int, row_group: int) -> str:
    """The Parquet file of ``rows`` pairs; returns where the text came from."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    hyps, refs, source = generate(rows)
    pq.write_table(pa.table({"hypothesis": hyps, "reference": refs}), path, row_group_size=row_group)
    return source


def run(path: Path, workers: int, metrics: str) -> dict:
    """One timed job on a fresh cluster of ``workers`` processes."""
    from distributed import Client, LocalCluster

    import scorelens.dask

    with (
        LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster,
        Client(cluster) as client,
    ):
        client.wait_for_workers(workers)
        before = client.run(usage)
        load, busy, own = os.getloadavg()[0], machine_busy(), time.process_time()
        start = time.perf_counter()
        scores = scorelens.dask.score_files([path], cluster.scheduler_address, metrics=metrics)
        seconds = time.perf_counter() - start
        busy, own = machine_busy() - busy, time.process_time() - own
        after = client.run(usage)
    cpu = sum(after[w][1] - before[w][1] for w in after)
    return {
        "seconds": seconds,
        "scores": scores,
        "load": (load, os.getloadavg()[0]),
        "peaks": [(before[w][0], after[w][0]) for w in sorted(after)],
        "cpu": cpu,
        # what other programs took of the 2 cores meanwhile: with the kernel's autogroup
        # scheduling, one busy program of another session halves what the workers can have
        "others": max(0.0, busy - cpu - own) / seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--row-group", type=int, default=25_000, help="rows per Parquet row group: one partition each")
    parser.add_argument("--metrics", default=",".join(DEFAULT))
    parser.add_argument("--repeat", type=int, default=1, help="rounds of 1 then 2 workers; the fastest of each kept")
    parser.add_argument("--write", metavar="PATH", help="also write the table into its own section of PATH")
    args = parser.parse_args()
    load_before = os.getloadavg()

    import pyarrow.parquet as pq

    with tempfile.TemporaryDirectory(prefix="scorelens-dask-") as folder:
        path = Path(folder) / "pairs.parquet"
        t = time.perf_counter()
        source = write_pairs(path, args.rows, args.row_group)
        meta = pq.ParquetFile(path).metadata
        group = max(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
        data = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
        print(f"{args.rows:,} rows ({source}) written in {time.perf_counter() - t:.1f} s: {meta.num_row_groups} row groups of "
              f"{args.row_group:,} rows; file {path.stat().st_size / MB:.0f} MB on disk, {data / MB:.0f} MB of column data, "
              f"a row group {group / MB:.1f} MB")
        print(f"metrics {args.metrics}; load average before {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        rounds = []
        for i in range(args.repeat):
            rounds.append((run(path, 1, args.metrics), run(path, 2, args.metrics)))
            print(f"round {i + 1}: " + "; ".join(
                f"{n} worker{'s' * (n > 1)} {r['seconds']:.1f} s (other programs {r['others']:.2f} cores)" for n, r in zip((1, 2), rounds[-1])
            ), flush=True)  # fmt: skip
        one, two = (min((r[i] for r in rounds), key=lambda r: r["seconds"]) for i in (0, 1))
        print(f"load average after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    assert one["scores"].segments == two["scores"].segments == args.rows
    first, second = one["scores"].to_dict(), two["scores"].to_dict()
    for key, figures in first.items():  # counts exactly, ROUGE's means (added in another order) to 1e-9
        for field, value in figures.items() if key.startswith("rouge") else ():
            assert value == second[key][field] or abs(value - second[key][field]) <= 1e-9, (key, field)
        assert key.startswith("rouge") or figures == second[key], key

    lines = [
        "| workers | wall time | speed-up | target | workers' CPU time | other programs' CPU (cores) | load average (1 min) at start, end | peak memory per worker (before the job -> after) |",
        "|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for workers, r in ((1, one), (2, two)):
        peaks = ", ".join(f"{b / MB:.0f} -> {a / MB:.0f} MB" for b, a in r["peaks"])
        load = ", ".join(f"{x:.2f}" for x in r["load"])
        speed_up = one["seconds"] / r["seconds"]
        target = "" if workers == 1 else f"≥ {TARGET}×, {'met' if speed_up >= TARGET else '**not met**'}"
        lines.append(f"| {workers} | {r['seconds']:.1f} s | {speed_up:.2f}× | {target} | {r['cpu']:.1f} s | {r['others']:.2f} | {load} | {peaks} |")
    about = (
        f"{measured(load_before, os.getloadavg())} {args.rows:,} rows of bench/core.py's pairs ({source}), metrics {args.metrics}, "
        f"in a Parquet file of {data / MB:.0f} MB of column data; a partition (row group) {group / MB:.1f} MB, {args.row_group:,} rows. "
        f"Each run a fresh `distributed.LocalCluster` of processes with one thread; the scores of both runs checked equal."
    )
    publish(args.write, HEADING, "dask_scaling.py", None, about, "\n".join(lines))


if __name__ == "__main__":  # the workers are processes that import this script
    main()
