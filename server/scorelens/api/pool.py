"""Scoring a large corpus in several processes: the core scores chunks of segments, a map over
processes forked from this one hands them out."""

from __future__ import annotations

import os
import signal
from contextlib import contextmanager
from typing import Iterator

from ..core.corpus import PoolMap


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity), not the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@contextmanager
def worker_pool(jobs: int) -> Iterator[PoolMap]:
    """A ``map`` for the core's scoring of large inputs in ``jobs`` processes: this one and
    ``jobs - 1`` workers forked from it.

    The workers take the chunks from the first on, this process takes them from the last on,
    each the next one no one has taken, until they meet; each worker then sends its results
    back at once. Forked, a worker has the chunks and the function already: only results
    cross between processes, and no thread runs to move them (a process pool pickles each
    chunk out and its results back, in threads that take turns with this process's scoring).
    This process scores its first chunk before forking: the workers then have what that
    loaded (NumPy, the tables of the words met) without loading it again.
    """
    import multiprocessing  # imported only when used

    if "fork" not in multiprocessing.get_all_start_methods():  # Windows: scored in this process
        yield map
        return
    context = multiprocessing.get_context("fork")
    workers: list = []

    def shared_map(fn, chunks):
        chunks = list(chunks)
        if not chunks:
            return []
        results = {len(chunks) - 1: fn(chunks[-1])}
        untaken = context.Array("q", [0, len(chunks) - 2])  # the first and last chunks no one has taken

        def take(first: bool) -> int | None:
            with untaken.get_lock():
                low, high = untaken
                if low > high:
                    return None
                untaken[not first] = low + 1 if first else high - 1
                return low if first else high

        started = []
        for _ in range(jobs - 1):
            receiving, sending = context.Pipe(duplex=False)
            worker = context.Process(target=_score_chunks, args=(fn, chunks, take, sending), daemon=True)
            worker.start()
            sending.close()
            started.append((worker, receiving))
        workers.extend(started)
        while (i := take(first=False)) is not None:
            results[i] = fn(chunks[i])
        for worker, receiving in started:
            try:
                found = receiving.recv()
            except EOFError:
                raise RuntimeError(f"a scoring worker process ended without its results (exit code {worker.exitcode})") from None
            if isinstance(found, BaseException):
                raise found
            results.update(found)
            worker.join()  # its results sent, it is ending
        return [results[i] for i in range(len(chunks))]

    try:
        yield shared_map
    finally:
        for worker, receiving in workers:
            if worker.is_alive():  # this process stopped early (an error, Ctrl-C)
                worker.terminate()
            worker.join()
            receiving.close()


def _score_chunks(fn, chunks, take, sending) -> None:
    """A worker of :func:`worker_pool`: ``fn`` of each chunk it takes, sent back at the end
    (or what it raised)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the process group; the parent stops the pool
    done = {}
    try:
        while (i := take(first=True)) is not None:
            done[i] = fn(chunks[i])
    except Exception as exc:  # noqa: BLE001 -- raised again in the parent
        sending.send(exc)
    else:
        sending.send(done)
