"""What a re-score does, once the scheduler (:mod:`.scheduler`) runs it: the corpus brought up to
the edits a slice at a time (with work-done progress if that takes a while), fluency, the
diagnostics published; after a cold one the inlay hints and the report's table built ahead; then
the views refreshed and the scores announced.
"""

from __future__ import annotations

import time

from lsprotocol import types
from pygls.uris import to_fs_path

from ..core.flavours import FLAVOUR_FAILURES
from . import diagnostics, fluency, inlay_hints, qa, report
from .reviews import Problem, Review

# a flavour's oracle stops with an error on these texts (ROUGE-1.5.5.pl's ROUGE-W of an empty
# reference, NLTK's method6 without a 3-gram match): nothing is scored until they change
SCORING_FAILED = "scoring.failed"

# Re-scoring that takes longer than this shows work-done progress.
PROGRESS_AFTER_S = 0.5
# Progress is reported at most this often: each report redraws the client's status bar (one per
# 4 ms slice cost VS Code 1.4 s of its main thread while a 100,000-line pair was re-paired).
PROGRESS_EVERY_S = 0.25


async def rescore(ls, review: Review) -> bool:
    """Re-score the review and publish; True if it was cold (more than a slice of scoring: a
    cold start or a huge text, not a keystroke)."""
    cold = False
    # The diagnostics are built in slices too (after a cold re-score or at a new place, up to
    # maxProblems of them). That yields, and an edit meanwhile that does not cancel this task
    # (run on save) leaves the corpus dirty again: it is scored again before they are sent.
    while True:
        started = time.monotonic()
        progress = _Progress(ls, review)
        sliced = False
        try:
            await ls.read_again(review)  # a formatted review's documents, if an edit left them unread
            sliced = await review.refresh(lambda done, total: progress.report(done, total, started), ls.worker, ls.scheduler.next_slice)
            if review.corpus is not None:
                review.corpus.scores()  # (a corpus figure can fail where no segment did)
                ls.failures_told.pop(review.uri, None)
        except FLAVOUR_FAILURES as exc:
            _failed(ls, review, exc)
        finally:
            progress.end()  # also when an edit cancels this re-score: the client shows it until told
        cold |= sliced
        if review.qa is not None:
            await qa.check_long_lines(ls, review)
        if review.qa is not None:  # (still: the review may have been loaded again meanwhile)
            qa.refresh(ls, review)
        if review.lm is not None:
            # publishes the other metrics first if the model process keeps it waiting
            await fluency.refresh(ls, review, lambda: _publish(ls, review))
        if await diagnostics.publish(ls, review) or ls.reviews.get(review.uri) is not review:
            break
    if cold and ls.reviews.get(review.uri) is review:
        # after the diagnostics, whose slices these would share the event loop with
        inlay_hints.prepare_soon(ls, review)
        report.prepare_soon(ls, review)
    _announce(ls, review)
    return cold


def _failed(ls, review: Review, exc: Exception) -> None:
    """The review's texts cannot be scored as its flavour's oracle scores them: said once, on the
    segment it fails on where the corpus found which (else the hypothesis's first line), and in
    a message; the corpus dropped (a re-score that failed half-way leaves its totals wrong); the
    next edit loads it again (see handlers.did_change)."""
    message = f"{exc}; scored again when the text changes"
    segment = getattr(exc, "segment", None)  # (a corpus figure's failure is no segment's)
    at = (review.layout(0).first_line(segment), 0) if segment is not None else None
    review.problems = [Problem(SCORING_FAILED, message, at=at)]
    review.corpus = None
    review.lm = None
    if ls.failures_told.get(review.uri) != message:  # (each edit that fails again says nothing new)
        ls.failures_told[review.uri] = message
        ls.tell(f"{to_fs_path(review.uri) or review.uri}: {message}")


async def _publish(ls, review: Review) -> None:
    if await diagnostics.publish(ls, review):
        _announce(ls, review)


def _announce(ls, review: Review) -> None:
    if review.views_stale:  # asked before the scores are announced, so a client that reacts
        review.views_stale = False  # to them finds its views already asked for again
        _refresh_views(ls)
    report.notify_scores(ls, review.uri, review)
    ls.comparisons.rescored(ls, review)


def _refresh_views(ls) -> None:
    # The client re-requests hints and lenses of the document it edits, not of the others.
    if ls.client_supports("workspace", "inlay_hint", "refresh_support"):
        ls.workspace_inlay_hint_refresh(None)
    if ls.client_supports("workspace", "code_lens", "refresh_support"):
        ls.workspace_code_lens_refresh(None)


class _Progress:
    """Work-done progress for a long re-score, begun only once it has taken a while."""

    def __init__(self, ls, review: Review) -> None:
        self.ls = ls
        self.review = review
        self.token: str | None = None
        self.reported = 0.0  # time.monotonic() of the last begin or report

    def report(self, done: int, total: int, started: float) -> None:
        if not self.ls.client_supports("window", "work_done_progress"):
            return
        percentage = int(100 * done / max(total, 1))
        now = time.monotonic()
        if now - self.reported < PROGRESS_EVERY_S:
            return
        if self.token is None:
            if now - started < PROGRESS_AFTER_S:
                return
            self.token = f"scorelens-{id(self.review)}-{time.monotonic_ns()}"
            self.ls.work_done_progress.create(self.token)
            self.ls.work_done_progress.begin(
                self.token, types.WorkDoneProgressBegin(title="ScoreLens: scoring", percentage=percentage, cancellable=False)
            )
        else:
            self.ls.work_done_progress.report(
                self.token, types.WorkDoneProgressReport(message=f"{done}/{total} segments", percentage=percentage)
            )
        self.reported = now

    def end(self) -> None:
        if self.token is not None:
            self.ls.work_done_progress.end(self.token, types.WorkDoneProgressEnd())
