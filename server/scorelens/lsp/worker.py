"""Long segments scored in a separate process, so the event loop keeps serving meanwhile.

rapidfuzz holds the GIL while it aligns (a thread would block the loop just the same), so one
worker process scores one long segment at a time. It is started from a fork server (not forked
from the server's own large heap) when first needed, and killed when the re-score that waits for
it is cancelled by an edit: a running job cannot be interrupted otherwise, and its result would
be for a text that is gone.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from multiprocessing.pool import Pool

from ..core import ScoringConfig
from ..core.corpus import score_apart


class Worker:
    def __init__(self) -> None:
        self._pool: Pool | None = None

    async def score(self, config: ScoringConfig, texts: tuple[str, ...]):
        """:func:`~scorelens.core.corpus.score_apart` of these texts, in the worker process."""
        loop = asyncio.get_running_loop()
        if self._pool is None:
            # starting the fork server and the worker takes a few hundred ms: not on the loop
            pool = await loop.run_in_executor(None, multiprocessing.get_context("forkserver").Pool, 1)
            if self._pool is not None:  # another job started one meanwhile
                threading.Thread(target=pool.terminate, daemon=True).start()
            else:
                self._pool = pool
        done = loop.create_future()

        def settle(outcome, failed: bool = False) -> None:  # in the pool's result thread
            loop.call_soon_threadsafe(_settle, done, outcome, failed)

        self._pool.apply_async(score_apart, (config, texts), callback=settle, error_callback=lambda exc: settle(exc, True))
        try:
            return await done
        except asyncio.CancelledError:
            self.stop()
            raise

    def stop(self) -> None:
        if self._pool is not None:
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
