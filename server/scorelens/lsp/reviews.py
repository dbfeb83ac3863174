"""A review: one hypothesis document scored against its references, kept up to date.

A review owns the hypothesis's :class:`~scorelens.core.Corpus`. Edits to the hypothesis or to
any of its references are applied to the corpus at once (cheap: only the changed lines); the
re-scoring runs later in a task that is cancelled and restarted by the next edit (debounce,
by default paced by :class:`Pace`: see :mod:`.scheduler`), refreshes the corpus a slice at a
time so the event loop keeps serving, and then publishes (:mod:`.rescore`).
"""

from __future__ import annotations

import asyncio
import gc
import time
from dataclasses import dataclass, field

from ..core import Corpus, ScoringConfig
from ..core.table import SegmentTable, TableBuilder
from .fluency import Lm
from .layout import TextLayout
from .pairing import Pairing
from .settings import Settings
from .worker import Worker

# Work done between two yields to the event loop by a background build or the diagnostics, so a
# request or a keystroke waits at most this behind them (a hover sent while inlay hints were built
# in the background: 4.7-4.9 ms median end to end with 2 ms, 6.0-6.6 ms with 4 ms; every hint
# built after 5.3-6.1 s against 5.3-5.6 s, within the noise).
SLICE_SECONDS = 0.002
# A re-score's slices are longer: a call of the core's scoring costs ~1 ms whatever its size
# (NumPy's set-up for a batch), so 2 ms slices scored ~7 segments each and a cold start of
# 100,000 lines took 28-42 s instead of 5-7 s (8 ms). A request waits for the re-score anyway; a
# keystroke waits at most this.
SCORE_SLICE_SECONDS = 0.008
# The adaptive debounce (scorelens.debounceMs unset) waits only for a re-score slower than
# this, or while keystrokes come faster than re-scores finish; it waits as long as a re-score
# has been taking, at least MIN_WAIT_S (so a burst coalesces) and at most MAX_WAIT_S.
SLOW_S = 0.030
MIN_WAIT_S = 0.010
MAX_WAIT_S = 0.150
# scorelens.typingPauseMs applies while an update of a review is heavy for the editor: while the
# client holds at least HEAVY_MARKERS of its markers (diagnostics), each of which an update has it
# lay out again, whatever the document's size (the measurements: docs/performance-history.md).
# 100 is a judgement, a fifth of the 500 markers VS Code draws, not a measured knee.
HEAVY_MARKERS = 100
# How often progress is reported while a worker scores a long segment.
PROGRESS_TICK_S = 0.25
# Segments in a cold re-score's first slice (the first texts meet only unseen words, so are slow);
# later slices are sized from the time the last one took.
FIRST_SLICE = 10
# Edits remembered for where diagnostics are shown first (after the visible lines).
EDITS_KEPT = 3
# A place edited once is followed by the diagnostics after this long without an edit elsewhere
# (at once when it is edited again): building the diagnostics around a new place takes tens of
# ms, and a typist moving on at once would pay them on every keystroke.
STAY_S = 0.15


@dataclass
class Problem:
    """Something wrong with the pairing itself, shown on the hypothesis's first line, or at
    ``at`` (line, client column) in the hypothesis where one place is to blame."""

    code: str
    message: str
    uri: str | None = None  # the reference it is about
    at: tuple[int, int] | None = None


@dataclass
class Pace:
    """The adaptive debounce: how long an edit's re-score and publish take, measured.

    A keystroke's re-score costs a few milliseconds even on 100,000 lines, so by default it
    starts at once: a fixed wait would be all the latency a user feels. It waits only while
    edits come faster than re-scores finish (one arrives while the last is still being scored,
    or sooner after it than a re-score takes: they are coalesced) or when re-scoring is slow
    (a huge segment, say); and, when asked (scorelens.typingPauseMs, an update heavy for the
    editor: :meth:`Review.typing_pause`), until a burst of typing pauses.
    """

    cost: float = 0.0  # moving average of an edit's re-score and publish, in seconds
    last_edit: float = float("-inf")

    def measured(self, seconds: float) -> None:
        self.cost = seconds if not self.cost else 0.7 * self.cost + 0.3 * seconds

    def delay(self, now: float, rescoring: bool, pause: float = 0.0) -> float:
        """The wait before re-scoring an edit made at ``now`` (``time.monotonic()``): with
        ``pause`` (seconds), edits less than that apart are a burst, re-scored once it pauses."""
        since = now - self.last_edit
        self.last_edit = now
        if pause and (rescoring or since < pause):
            return pause
        bursting = rescoring or since < self.cost
        if bursting or self.cost > SLOW_S:
            return min(MAX_WAIT_S, max(self.cost, MIN_WAIT_S))
        return 0.0


@dataclass
class Reading:
    """A formatted review's documents being read whole in a thread, as they were after its
    ``edits``-th unread edit: what reading them gives (formatted.Sides), the readings that
    made, and the documents' versions read."""

    edits: int
    future: asyncio.Future
    readings: dict
    versions: dict[str, int]


@dataclass
class Review:
    uri: str
    pairing: Pairing
    settings: Settings
    config: ScoringConfig
    corpus: Corpus | None
    problems: list[Problem] = field(default_factory=list)
    # the target language the document's name or language id gives; None: a formatted document's
    # declared one picks BLEU's tokenizer once it is read
    language: str | None = None
    task: asyncio.Task | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    # per segment shown by the last push: its diagnostics as JSON, with the texts and first lines
    # they were made from
    cache: dict = field(default_factory=dict)
    # per segment: its inlay hints as answer JSON, with the texts they were made from and the
    # first line they are at (see inlay_hints.py)
    hints: dict = field(default_factory=dict)
    hints_task: asyncio.Task | None = None  # building them all after a cold re-score
    hints_partial: bool = False  # a request was answered without some: refresh once they are built
    # inlay hints and code lenses the client holds may be out of date: ask it to re-request them
    views_stale: bool = True
    # per open document of the review, the version whose text the corpus holds: what a publish
    # names (the document's own version may be newer than what was scored)
    versions: dict[str, int] = field(default_factory=dict)
    pace: Pace = field(default_factory=Pace)
    # the scheduled re-score waits for a burst of typing to pause (scorelens.typingPauseMs)
    pausing: bool = False
    # per document of the review, how many of its markers the client holds (last pushed or pulled):
    # what the next update has it lay out again
    markers: dict[str, int] = field(default_factory=dict)
    # the report's table of the corpus as of ``table_of`` (a key of its versions), and what
    # builds the next one from it; made when a report is first asked for
    tables: TableBuilder | None = None
    table: SegmentTable | None = None
    table_of: tuple | None = None
    table_task: asyncio.Task | None = None  # building the table of version ``table_building``
    table_building: tuple | None = None
    # (side, line) of the last few edits, newest first
    edits: list[tuple[int, int]] = field(default_factory=list)
    # the last few of those places the user stayed at, newest first: where diagnostics go after
    # the visible lines; and the wait before the newest edit's place is followed if it is not yet
    followed: list[tuple[int, int]] = field(default_factory=list)
    stay: asyncio.Task | None = None
    # the corpus scores last announced (scorelens/scores), and those from before the edits of the
    # line edited last began: the change that line's edit made is the difference
    announced: dict | None = None
    before_edit: dict | None = None
    lm: Lm | None = None  # fluency, with ppl on and a model named (see fluency.py)
    qa: object | None = None  # the source-aware checks, with a source paired (see qa.py)
    # per side, where its segments sit in a formatted document; None: plain text, placed by the
    # corpus and each side's LineMap (line_maps)
    layouts: list | None = None
    line_maps: list | None = None
    # a formatted review's records that could not be read or found no partner, and its documents
    # as last read (see formatted.py)
    record_problems: list = field(default_factory=list)
    readings: dict = field(default_factory=dict)
    # a formatted review's documents as last read and paired (formatted.Sides), which an edit
    # within lines updates, and the lines edited since, per document (formatted.Edited)
    last_read: object | None = None
    edited_lines: dict = field(default_factory=dict)
    # edits since whose documents are to be read whole (Server.read_again), and that reading
    unread_edits: int = 0
    reading: Reading | None = None

    def edited(self, side: int, line: int) -> None:
        """An edit at ``line`` of a side; a place edited twice in a row is followed."""
        if not self.edits or self.edits[0] != (side, line):
            self.before_edit = self.announced
        else:
            self.follow()
        self.edits = [(side, line), *(e for e in self.edits if e != (side, line))][:EDITS_KEPT]

    def typing_pause(self) -> float:
        """How long a burst of typing is held, in seconds: scorelens.typingPauseMs while an update
        is heavy for the editor (it holds HEAVY_MARKERS or more of the review's markers), at any
        document size; else 0."""
        heavy = sum(self.markers.values()) >= HEAVY_MARKERS
        return self.settings.typing_pause_ms / 1000 if heavy else 0.0

    def follow(self) -> None:
        """Diagnostics go around the newest edit's place from now on."""
        place = self.edits[0]
        self.followed = [place, *(p for p in self.followed if p != place)][:EDITS_KEPT]

    def layout(self, side: int):
        """Where the segments of a side sit in its document (see :mod:`.layout`)."""
        if self.layouts is not None:
            return self.layouts[side]
        return TextLayout(self.corpus, side, self.line_maps[side] if self.line_maps is not None else None)

    def sides(self, uri: str) -> list[int]:
        """Which sides of the corpus a document is (0 = hypothesis, k = reference k)."""
        found = [0] if uri == self.uri else []
        return found + [k + 1 for k, ref in enumerate(self.pairing.references) if ref == uri]

    async def refresh(self, progress=None, worker: Worker | None = None, next_slice=lambda: asyncio.sleep(0)) -> bool:
        """Re-score what is dirty (:func:`refresh_corpus`)."""
        if self.corpus is None:
            return False
        return await refresh_corpus(self.corpus, progress, worker, next_slice)


async def refresh_corpus(corpus: Corpus, progress=None, worker: Worker | None = None, next_slice=lambda: asyncio.sleep(0)) -> bool:
    """Re-score what is dirty in a corpus, awaiting ``next_slice()`` between slices;
    ``progress(done, total)`` if long. Long segments are scored by ``worker`` first, if given.
    True if it took more than one slice or a long segment (a cold start or a huge text, not a
    keystroke)."""
    if not corpus.dirty:
        return False
    long = corpus.long_pending() if worker is not None else []
    for k, segment in enumerate(long):
        texts = corpus.texts(segment)
        job = asyncio.ensure_future(worker.score(corpus.config, texts))
        try:
            while not job.done():
                await asyncio.wait({job}, timeout=PROGRESS_TICK_S)
                if progress is not None:
                    progress(k, len(long))
        except asyncio.CancelledError:
            job.cancel()  # kills the worker's job
            raise
        corpus.put(texts, job.result())
    # A cold start keeps millions of new objects; the core pauses the garbage collector
    # within one call only, and collections between slices would walk them (and a freshly
    # opened document's lines) again and again. They are acyclic (reference counting frees
    # them), so once made they are frozen: the next full collection would otherwise walk
    # them all, blocking for half a second.
    collecting = gc.isenabled()
    gc.disable()
    size = scored = FIRST_SLICE
    try:
        while True:
            started = time.perf_counter()
            if corpus.refresh(size):
                return scored > FIRST_SLICE or bool(long)
            took = max(time.perf_counter() - started, 1e-6)
            size = max(1, min(2 * size, int(size * SCORE_SLICE_SECONDS / took)))
            if progress is not None:
                progress(min(scored, len(corpus)), len(corpus))
            await next_slice()
            scored += size
    finally:
        if collecting:
            if scored > FIRST_SLICE:
                gc.freeze()
            gc.enable()
