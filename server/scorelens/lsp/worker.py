"""Work done in a separate process, so the event loop keeps serving meanwhile: long segments, and
language models (loading and scoring).

rapidfuzz and kenlm hold the GIL (a thread would block the loop just the same), so a worker
process does one job at a time. It is started from a fork server (not forked from the server's
own large heap) when first needed. The long-segment worker is killed when the re-score that waits
for it is cancelled by an edit: a running job cannot be interrupted otherwise, and its result
would be for a text that is gone. The language-model worker is kept (it holds the loaded models).

A worker process that dies (killed, out of memory) loses its job without a word: the pool's
callbacks are never called and it quietly starts another process. Its exit is watched instead:
the jobs waiting on it raise :class:`WorkerDied` and the pool is dropped, to be started again
when next needed.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections.abc import Callable
from multiprocessing.pool import Pool

from ..core import ScoringConfig
from ..core.corpus import score_apart
from ..core.fluency import SegmentFluency, score_segment
from ..core.tokenizers import bleu_tokenizer


class WorkerDied(Exception):
    """The worker process ended while a job was waiting for it."""


class Worker:
    def __init__(self, stop_on_cancel: bool = True, on_died: Callable[[], None] | None = None) -> None:
        self._pool: Pool | None = None
        self._stop_on_cancel = stop_on_cancel
        self._on_died = on_died  # told when the process ends unasked, waited on or not
        self._watched: list[int] = []  # the pool's processes' sentinels, readable once one ends
        self._waiting: set[asyncio.Future] = set()

    async def score(self, config: ScoringConfig, texts: tuple[str, ...]):
        """:func:`~scorelens.core.corpus.score_apart` of these texts, in the worker process."""
        return await self.run(score_apart, config, texts)

    async def run(self, function, *args):
        """``function(*args)`` in the worker process (a module-level function, to be pickled)."""
        loop = asyncio.get_running_loop()
        if self._pool is None:
            # starting the fork server and the worker takes a few hundred ms: not on the loop
            pool = await loop.run_in_executor(None, multiprocessing.get_context("forkserver").Pool, 1)
            if self._pool is not None:  # another job started one meanwhile
                threading.Thread(target=pool.terminate, daemon=True).start()
            else:
                self._pool = pool
                # Pool has no public way to its processes. Their sentinels are duplicated: the
                # pool's maintenance thread reaps a dead process and closes its sentinel, which
                # takes it out of the loop's selector before the loop may have seen it (and
                # the number can go to the process started in its place), so _died was never called.
                self._watched = [os.dup(p.sentinel) for p in pool._pool]  # type: ignore[attr-defined]
                for fd in self._watched:
                    loop.add_reader(fd, self._died)
        pool = self._pool
        done = loop.create_future()

        def settle(outcome, failed: bool = False) -> None:  # in the pool's result thread
            loop.call_soon_threadsafe(_settle, done, outcome, failed)

        pool.apply_async(function, args, callback=settle, error_callback=lambda exc: settle(exc, True))
        self._waiting.add(done)
        try:
            return await done
        except asyncio.CancelledError:
            if self._stop_on_cancel and pool is self._pool:
                self.stop()
            raise
        finally:
            self._waiting.discard(done)

    def _died(self) -> None:
        self.stop()
        for done in self._waiting:
            _settle(done, WorkerDied("the worker process ended (killed, or out of memory?)"), True)
        if self._on_died is not None:
            self._on_died()

    def stop(self) -> None:
        if self._pool is not None:
            loop = asyncio.get_running_loop()
            for fd in self._watched:
                loop.remove_reader(fd)
                os.close(fd)
            self._watched = []
            # terminate() joins the pool's threads: not on the event loop
            threading.Thread(target=self._pool.terminate, daemon=True).start()
            self._pool = None


def _settle(done: asyncio.Future, outcome, failed: bool) -> None:
    if done.done():
        return
    if failed:
        done.set_exception(outcome)
    else:
        done.set_result(outcome)


def load_model(path: str) -> int:
    """In the language-model worker: load (once per file version) the model; its n-gram order."""
    from ..language_model import load

    return load(path).order


def score_fluency(path: str, tokenize: str, texts: list[str]) -> list[SegmentFluency]:
    """In the language-model worker: each text scored by the model at ``path``."""
    from ..language_model import load

    model, tokenizer = load(path), bleu_tokenizer(tokenize)
    return [score_segment(model, tokenizer, t) for t in texts]
