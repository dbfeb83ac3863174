"""When reviews are re-scored, and how their work shares the event loop with the requests.

- Debounce: an edit (re)schedules its review's re-score, after scorelens.debounceMs if set, else
  after the review's measured pace (:class:`~.reviews.Pace`); while an update is heavy for the
  editor, once a burst of typing pauses (scorelens.typingPauseMs).
- Slices: background work yields between slices (:meth:`Scheduler.next_slice`), letting the
  threads that read the input and write the output have the interpreter.
- Settling: a request waits until its review's latest edit is scored
  (:meth:`Scheduler.settled`), scoring a keystroke's few segments itself.
- Following: the diagnostics follow the newest edit's place once the user stays there.

What a re-score does is not decided here: the server hands its scheduler that (:mod:`.rescore`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from pygls.exceptions import JsonRpcContentModified

from .reviews import STAY_S, Review

# How long the event loop waits between two slices of work to let the threads run, and how much
# work it does at most without that wait (see Scheduler.next_slice).
THREADS_TURN_S = 0.001
THREADS_TURN_EVERY_S = 0.02
# A request scores up to this many dirty segments itself rather than wait for the re-score
# (a keystroke dirties one; scoring one takes well under a millisecond).
SCORE_IN_REQUEST = 64


class Scheduler:
    """The re-score task of each review, and the waits around it.

    ``reviews``: the live reviews by hypothesis URI (one replaced meanwhile is not waited for);
    ``rescore(review)``: what a re-score does, True if it was cold (more than a slice: not an
    edit's cost); ``look_elsewhere(review)``: send what changed for a new place the user stays
    at; ``output_waiting()``: whether the writer has messages not yet written; ``failed(error,
    source)``: a re-score failed.
    """

    def __init__(
        self,
        reviews: dict[str, Review],
        rescore: Callable[[Review], Awaitable[bool]],
        look_elsewhere: Callable[[Review], Awaitable[None]],
        output_waiting: Callable[[], bool],
        failed: Callable[[BaseException, str], None],
    ) -> None:
        self.reviews = reviews
        self._rescore = rescore
        self._look_elsewhere = look_elsewhere
        self._output_waiting = output_waiting
        self._failed = failed
        self._threads_turn = time.perf_counter()  # when next_slice last let the threads run

    # -- debounce ---------------------------------------------------------------------------

    def schedule(self, review: Review, delay: float | None = None) -> None:
        """Re-score after ``delay`` seconds; by default the debounce: scorelens.debounceMs if set,
        else the review's measured pace."""
        rescoring = review.task is not None and not review.task.done()
        if review.task is not None:
            review.task.cancel()
        review.done.clear()
        review.pausing = False
        if delay is None:
            fixed = review.settings.debounce_ms
            pause = review.typing_pause()
            delay = fixed / 1000 if fixed is not None else review.pace.delay(time.monotonic(), rescoring, pause)
            review.pausing = fixed is None and bool(pause) and delay >= pause
        review.task = asyncio.ensure_future(self._run(review, delay))
        review.task.add_done_callback(self._ended)

    async def _run(self, review: Review, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        began = time.perf_counter()
        cold = await self._rescore(review)
        if not cold:  # an edit's cost, not a cold start's
            review.pace.measured(time.perf_counter() - began)
        review.done.set()

    def _ended(self, task: asyncio.Task) -> None:
        # nobody awaits a re-score but requests, which are cancelled or gone: its failure would go unseen
        if not task.cancelled() and task.exception() is not None:
            self._failed(task.exception(), "re-score")

    # -- slices -----------------------------------------------------------------------------

    async def next_slice(self) -> None:
        """Between two slices of work on the event loop. Yielding to the loop alone releases the
        interpreter lock only for an instant, in a select() that does not wait, and CPython counts
        that as the lock changing hands: a thread woken meanwhile never gets to ask for it, and
        pygls reads the input, and ScoreLens writes its output, in threads. While the inlay hints
        were built in the background a hover was read 3.2-3.8 s after it was sent, and a hint
        answer queued 0.26 s after its request was written after 1.1-5.3 s, both once the build
        was done. So the loop waits a moment without the lock while output waits, and at least
        every THREADS_TURN_EVERY_S of work (input cannot be seen waiting: the reading thread has
        taken it from the pipe).

        Otherwise it yields twice. A task woken while a slice ran (the reader's, by a message
        read) is queued behind the slicing task, which queued itself again as it yielded: one
        yield would run another slice before it."""
        if self._output_waiting() or time.perf_counter() - self._threads_turn >= THREADS_TURN_EVERY_S:
            await asyncio.sleep(THREADS_TURN_S)
            self._threads_turn = time.perf_counter()
        else:
            await asyncio.sleep(0)
            await asyncio.sleep(0)

    # -- settling ---------------------------------------------------------------------------

    def settle_now(self, review: Review, scored: bool = False) -> bool:
        """Score what is left of the review's latest edit here and now if it is little (a
        keystroke's segments); whether nothing is left to wait for. ContentModified if the review
        was replaced (settings or pairing changed), or, ``scored``, lost its corpus."""
        if self.reviews.get(review.uri) is not review or (scored and review.corpus is None):
            raise JsonRpcContentModified("the document's pairing or settings changed; ask again")
        corpus, task = review.corpus, review.task
        if corpus is None:
            return True
        if review.unread_edits and task is not None and not task.done():
            return False  # the re-score reads the documents first: the segments' places are stale
        if (corpus.pending <= SCORE_IN_REQUEST and not corpus.long_pending()) or task is None or task.done():
            corpus.refresh()
            return True
        return False

    async def settled(self, review: Review, pause: bool = False) -> None:
        """Wait until the review's latest edit is scored, for a request to answer from.

        Little left to score is scored at once (:meth:`settle_now`), so requests are answered
        while edits keep coming; more, or a long segment, is waited for through the re-score's
        slices and its worker. An edit meanwhile restarts the re-score and the wait goes on: the
        answer is from the newest text. Only the client's own cancellation cancels the request;
        a review replaced meanwhile (settings or pairing changed) answers ContentModified.

        ``pause``: while a burst of typing is held for scorelens.typingPauseMs, wait for its
        re-score instead: a pulled diagnostics or inlay-hint answer replaces every marker or hint
        the client draws in its range, so once a burst, as a push does.
        """
        scored = review.corpus is not None
        while (pause and review.pausing and review.task is not None and not review.task.done()) or not self.settle_now(review, scored):
            await outlived(review.task)

    def settling(self, review: Review):
        """:meth:`settled` for a request handler written as a generator, ``yield from
        ls.scheduler.settling(review)``: pygls answers such a handler in the call that reads the
        request when it does not wait, where an ``async`` one is started, and answered, each on a
        later turn of the event loop, both behind any slice of background work (an inlay-hint
        build, a re-score) that turn has first."""
        if not self.settle_now(review):
            yield self.settled, (review,), {}

    # -- following --------------------------------------------------------------------------

    def follow_soon(self, review: Review) -> None:
        """Follow the newest edit's place with the diagnostics if no edit comes for ``STAY_S``
        (one edited twice in a row is followed already)."""
        if review.stay is not None:
            review.stay.cancel()
        if review.edits and review.edits[0] not in review.followed:
            review.stay = asyncio.ensure_future(self._follow(review))

    async def _follow(self, review: Review) -> None:
        await asyncio.sleep(STAY_S)
        if self.reviews.get(review.uri) is review:
            review.follow()
            await self._look_elsewhere(review)


async def outlived(task: asyncio.Task) -> None:
    """Wait for a re-score task to end, cancelled (by a newer edit) or not; only the waiting
    request's own cancellation (the client's) is raised."""
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():
            raise  # the client cancelled
