"""The incremental corpus: one hypothesis, its references, per-segment statistics and totals.

An edit replaces a range of lines on one side. Segments whose texts changed are marked dirty;
when a line count changes, every later segment is re-paired and marked dirty from there on
(the "tail"). :meth:`Corpus.refresh` re-scores dirty segments, optionally a bounded number at a
time so a caller can interleave other work, and keeps running totals by subtracting each
segment's old statistics and adding its new ones. Tokenizations live with the segment texts,
so re-pairing after a line insertion re-uses them; and the records a change of line count
displaces are kept (the last few changes'), so undoing it, or evening the counts out further on,
takes back the records of the pairs it restores instead of scoring them again.

A caller can pass ``refresh`` a ``map``-like callable (a process pool's, say): a large
re-scoring then goes to it as chunks of texts, and only statistics come back. The core starts
no process itself. The analyses of segments scored that way are made again where needed, as
are those of a run scored for BLEU, ROUGE and WER alone, which goes from texts to statistics
directly (see ``Analyser.records``).

A *long* segment (one of its texts longer than ``LONG_SEGMENT_CHARS``) takes more than a few
milliseconds to score, and ROUGE-L and WER cost its length squared, as in their peers. A caller
that must stay responsive scores it elsewhere: :meth:`Corpus.long_pending` names such segments,
:func:`score_apart` scores one from its texts alone (records and findings), and
:meth:`Corpus.put` hands the result back; re-scoring then takes it instead of scoring again.
"""

from __future__ import annotations

import bisect
import gc
from array import array
from contextlib import contextmanager
from dataclasses import replace
from functools import lru_cache, partial
from itertools import chain, groupby, repeat
from operator import itemgetter
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence

from . import wer
from .config import ScoringConfig
from .findings import Finding, segment_findings
from .rouge155 import ScriptDies
from .scores import CorpusScores, SegmentScores, Totals, corpus_scores, needs_records, segment_score_columns, segment_scores
from .segment import FEW_SEGMENTS, Analyser, Analysis, Record, RecordColumns, SegmentStatistics, score_texts
from .text import common_ends, segment_count, segment_spans, split_lines

if TYPE_CHECKING:
    import numpy as np

    from .rouge155_average import Average

# ``map(function, chunks)``, e.g. ``ProcessPoolExecutor.map``: results in the chunks' order
PoolMap = Callable[[Callable[[list[list[str]]], list[Record]], Iterable[list[list[str]]]], Iterable[list[Record]]]
# Segments per chunk handed to a pool map, and the fewest segments worth one. Measured on 2 cores
# with lines of 20-30 words: starting 2 workers costs 25 ms or more (forking a larger process
# costs more), which `scorelens score` wins back from about 1,000 lines; 2,000 leaves a margin.
POOL_CHUNK = 500
# Chunks a run is cut into at most where ROUGE-1.5.5's kernels score it (segment.Analyser.batched):
# they go faster on larger batches (10,000 lines: 0.97 s of CPU in chunks of 500, 0.79 in 1,000)
POOL_CHUNKS_BATCHED = 8
POOL_MINIMUM = 2000
_DROPPED = Record._fields.index("dropped")
_DIFFERS = Record._fields.index("differs")
# A segment with a text longer than this is long (scoring it takes several milliseconds).
LONG_SEGMENT_CHARS = 10_000
# Segments scored apart whose results are kept for their texts (findings asked for later).
APART_KEPT = 8
# Changes of line count whose displaced records are kept (see Corpus._displace).
DISPLACED_CHANGES = 8
# Records made from columns at a time around a segment asked for: ~0.3 ms (a larger block costs
# the first edit in it more; a smaller one leaves more runs of columns to look through)
RECORDS_BLOCK = 64
# More segments than this changed in place at once (a replace-all, a text reverted or sent again
# whole) are re-scored together, as a cold start is: one at a time, each kept its analyses (half
# the text of 100,000 lines changed: 7.8 s and 210 MB held).
WIDE_CHANGE = 256


class _Side:
    """One document: its lines, its segment texts and their analyses."""

    def __init__(self, text: str | list[str]) -> None:
        # a list is the lines already split (the command line splits files as sacreBLEU does)
        self.lines = split_lines(text) if isinstance(text, str) else text
        self.texts: list[str] = []
        self.starts: list[int] | None = None  # first line of each segment; None when segments are lines
        self.analyses: list[Analysis | None] = []
        # per follower of the texts, the leading and trailing segments unchanged since its last
        # Corpus.take_edited (None: all); a follower not in it has taken none: nothing unchanged
        self.edited: dict[str, tuple[int, int] | None] = {}


class _Displaced:
    """The records of segments ``start`` on as they were before a line count changed, with the
    texts of every side they were scored from. Records scored as columns and not made yet are
    made from them when first asked for."""

    __slots__ = ("start", "texts", "records", "columns", "stale")

    def __init__(self, start: int, texts: list[list[str]], records: list[Record | None], columns: list[tuple[int, RecordColumns]], stale: set[int]) -> None:
        self.start = start
        self.texts = texts  # a list per side
        self.records = records  # None: not made yet, or stale
        self.columns = columns  # (first segment, columns) of those not made yet
        self.stale = stale  # segments whose record was out of date

    def record(self, i: int, texts: Sequence[str]) -> Record | None:
        """Segment ``i``'s record if it was scored from ``texts`` (a text per side)."""
        k = i - self.start
        if not 0 <= k < len(self.records) or i in self.stale:
            return None
        for then, now in zip(self.texts, texts):
            if (then[k] if k < len(then) else "") != now:
                return None
        if self.records[k] is None:
            self.columns = _made(self.columns, i, i + 1, self.records, self.start)
        return self.records[k]


class Corpus:
    def __init__(self, hypothesis: str | list[str], references: Sequence[str | list[str]], config: ScoringConfig | None = None) -> None:
        self.config = config or ScoringConfig()
        if not references and self.config.metrics:  # no metric: a document checked for fluency alone
            raise ValueError("a corpus needs at least one reference")
        self._sides = [_Side(hypothesis), *(_Side(r) for r in references)]
        self._analyse = Analyser(self.config)
        self._empty = self._analyse("")
        self._results: list[Record | None] = []
        # segments scored from texts whose records are not made yet: (first segment, their
        # columns). Their totals are summed from the columns; a command that prints the corpus
        # scores never needs the records (making 100,000 takes 40 ms with the collector off;
        # 50,000 took 0.38 s with it on, in an editor's loop), an editor makes a block of them
        # around a segment it asks for or edits, and the report's table reads the columns
        # themselves (statistic_rows).
        self._unmade: list[tuple[int, RecordColumns]] = []
        self._differs = bytearray()  # per segment: 1 if it has findings, for a fast skip over the rest
        # per segment, the re-scoring that scored it last (see rescored_since); refreshes with
        # something to score are numbered
        self._scored_in = array("q")
        self._scoring = 0
        self._dirty: set[int] = set()
        self._tail: int | None = None
        # what the last changes of a line count re-paired, so that undoing them (or evening the
        # counts again further on) finds the records of the pairs it restores instead of scoring
        # half the document again (a second or two on 100,000 lines)
        self._displaced: list[_Displaced] = []
        # results of long segments scored apart, by their texts (hypothesis first)
        self._apart: dict[tuple[str, ...], tuple[Record, list[Finding]]] = {}
        order = self.config.bleu_order
        self._bleu = [0] * (2 + 2 * order)
        self._rouge_l = [0.0, 0.0, 0.0]
        self._rouge_lsum = [0.0, 0.0, 0.0]
        self._wer = [0, 0, 0, 0]  # hits, substitutions, deletions, insertions
        self._cer = [0, 0, 0, 0]
        self._rouge_n = [0.0] * (3 * len(self.config.rouge_n))
        self._chrf = [0] * (3 * self.config.chrf.order)
        self._ter = [0, 0, 0]
        self._rouge_wsu = [0.0] * (3 * len(self.config.rouge_wsu))
        self._rouge_skipped = [0]
        rouge_flavour = self.config.rouge_flavour
        # ROUGE's flavour's average where it reads every segment (ROUGE-1.5.5's bootstrap), kept a
        # segment at a time, and the scoring it was last read at (None: never)
        self._running = rouge_flavour.running() if rouge_flavour is not None and rouge_flavour.needs_records else None
        self._running_read: int | None = None
        # the running totals of the enabled metrics, and the record field each one sums
        metrics = self.config.metrics
        self._sums = [
            (Record._fields.index(name), into)
            for name, into, on in (
                ("bleu", self._bleu, "bleu" in metrics),
                ("rouge_l", self._rouge_l, "rougeL" in metrics),
                ("rouge_lsum", self._rouge_lsum, "rougeLsum" in metrics),
                ("rouge_n", self._rouge_n, bool(self.config.rouge_n)),
                ("chrf", self._chrf, "chrf" in metrics),
                ("wer", self._wer, "wer" in metrics),
                ("cer", self._cer, "cer" in metrics),
                ("ter", self._ter, "ter" in metrics),
                ("rouge_wsu", self._rouge_wsu, bool(self.config.rouge_wsu)),
                ("rouge_skipped", self._rouge_skipped, rouge_flavour is not None and rouge_flavour.skips),
            )
            if on
        ]
        self._dropped = 0
        self._differing = 0
        for side, s in enumerate(self._sides):
            if self.config.segmentation == "line":
                s.texts = s.lines[: segment_count(s.lines)]
                s.analyses = [None] * len(s.texts)
            else:
                self._resegment(side)
        self._tail = 0

    # -- reading -------------------------------------------------------------------------

    @property
    def references(self) -> int:
        return len(self._sides) - 1

    def __len__(self) -> int:
        """Number of segments: the longest side's; shorter sides count as empty there."""
        return max(len(s.texts) for s in self._sides)

    def segment_counts(self) -> list[int]:
        """Segments per side (hypothesis first); they differ when the files do not line up."""
        return [len(s.texts) for s in self._sides]

    def lines(self, side: int) -> list[str]:
        return self._sides[side].lines

    def texts_of(self, side: int) -> Sequence[str]:
        """A side's segment texts (the corpus's own list: not to be changed)."""
        return self._sides[side].texts

    def edited(self, side: int, follower: str) -> tuple[int, int] | None:
        """How many leading and trailing segments of a side are as they were at ``follower``'s
        last :meth:`take_edited` (None: all of them): a follower of the texts (fluency, the QA
        checks) re-reads only those between, an edit's worth, not the whole side."""
        return self._sides[side].edited.get(follower, (0, 0))

    def take_edited(self, side: int, follower: str) -> tuple[int, int] | None:
        """:meth:`edited`, and from now on the side counts as unchanged for ``follower``."""
        edited = self._sides[side].edited
        ends = edited.get(follower, (0, 0))
        edited[follower] = None
        return ends

    def text(self, side: int, segment: int) -> str:
        texts = self._sides[side].texts
        return texts[segment] if segment < len(texts) else ""

    def first_line(self, side: int, segment: int) -> int:
        """The document line where a segment starts (past the end for a missing segment)."""
        s = self._sides[side]
        if s.starts is None:
            return segment
        if segment < len(s.starts):
            return s.starts[segment]
        return len(s.lines)

    def first_lines(self, side: int) -> list[int]:
        """``first_line`` of every segment, without a Python step per segment (a comparison
        copies them for each system on the event loop)."""
        s = self._sides[side]
        if s.starts is None:
            return list(range(len(self)))
        return s.starts + [len(s.lines)] * (len(self) - len(s.starts))

    def segment_at(self, side: int, line: int) -> int | None:
        """The segment a document line belongs to, if any."""
        s = self._sides[side]
        if s.starts is None:
            return line if line < len(s.texts) else None
        i = bisect.bisect_right(s.starts, line) - 1
        if i < 0 or line >= s.starts[i] + s.texts[i].count("\n") + 1:
            return None
        return i

    def segments_on(self, side: int, first: int, last: int) -> range:
        """The segments with a line in ``first..last`` (document lines of one side)."""
        s = self._sides[side]
        if s.starts is None:
            return range(min(max(first, 0), len(s.texts)), min(last + 1, len(s.texts)))
        lo = max(bisect.bisect_right(s.starts, first) - 1, 0)
        if lo < len(s.starts) and first >= s.starts[lo] + s.texts[lo].count("\n") + 1:
            lo += 1  # ``first`` is past that segment (a blank line between paragraphs)
        return range(lo, bisect.bisect_right(s.starts, last))

    def line_count(self, side: int, segment: int) -> int:
        """How many document lines a segment spans."""
        return len(_line_breaks(self.text(side, segment))) + 1

    def position(self, side: int, segment: int, offset: int) -> tuple[int, int]:
        """(line, column) in code points of an offset into a segment's text."""
        line = self.first_line(side, segment)
        breaks = _line_breaks(self.text(side, segment))
        before = bisect.bisect_left(breaks, offset)
        if before:
            return line + before, offset - breaks[before - 1] - 1
        return line, offset

    @property
    def dirty(self) -> bool:
        return bool(self._dirty) or self._tail is not None

    @property
    def pending(self) -> int:
        """How many segments :meth:`refresh` has left to score."""
        n = len(self)
        start = min(self._tail if self._tail is not None else n, len(self._results))
        return len(self._dirty) + max(n - start, 0)

    def totals(self) -> Totals:
        self.refresh()
        return Totals(
            list(self._bleu),
            tuple(self._rouge_l),
            tuple(self._rouge_lsum),
            wer.ErrorCounts(*self._wer),
            wer.ErrorCounts(*self._cer),
            self._dropped,
            self._differing,
            tuple(self._rouge_n),
            list(self._chrf) if "chrf" in self.config.metrics else None,
            tuple(self._ter) if "ter" in self.config.metrics else None,
        )

    def scores(self) -> CorpusScores:
        self.refresh()
        running = self._running_average()
        records = self.records() if needs_records(self.config, running is not None) else None
        return corpus_scores(self.config, self.references, self.sums(), len(self), self._dropped, records, running)

    def _running_average(self) -> Average | None:
        """ROUGE's flavour's kept average (if any), given the segments re-scored since it was last
        read: one at a time for an edit's few, all again after a wide change."""
        running = self._running
        if running is None:
            return None
        n = len(self._results)
        running.resize(n)
        changed = self.rescored_since(self._running_read) if self._running_read is not None else None
        self._running_read = self._scoring
        figures = self.config.rouge_flavour.figures
        if changed is None or len(changed) > WIDE_CHANGE:
            self._make_records(0, n)
            running.put_all(map(figures, self._results))
        else:
            for i in changed.tolist():
                self._make_records(i, i + 1)
                running.put(i, figures(self._results[i]))
        return running

    def sums(self) -> dict[str, list]:
        """The enabled metrics' summed statistics, keyed by :class:`Record` field: a copy, which
        :func:`~.scores.corpus_scores` turns into the corpus scores."""
        self.refresh()
        return {Record._fields[f]: list(into) for f, into in self._sums}

    def scores_without(self, segment: int) -> CorpusScores:
        """The corpus scores with one segment left out (its statistics taken from the sums, ROUGE
        the mean of the others): what the segment contributes is ``scores()`` minus these."""
        self.refresh()
        self._make_records(segment, segment + 1)
        record = self._results[segment]
        sums = {Record._fields[f]: [t - v for t, v in zip(into, record[f])] for f, into in self._sums}
        records = self._flavour_records()
        if records is not None:
            records = records[:segment] + records[segment + 1 :]
        return corpus_scores(self.config, self.references, sums, len(self) - 1, self._dropped, records)

    def _flavour_records(self) -> list[Record] | None:
        """Every segment's record where a flavour's corpus figure reads more than sums."""
        return self.records() if needs_records(self.config) else None

    def statistics(self, segment: int) -> SegmentStatistics:
        self.refresh()
        self._make_records(segment, segment + 1)
        return SegmentStatistics.of(self._results[segment])

    def records(self) -> list[Record]:
        """Every segment's record, in segment order: a new list of the corpus's own records, each
        replaced (never changed) when its segment is re-scored."""
        self.refresh()
        with _collector_paused(True):
            self._make_records(0, len(self._results))
        return list(self._results)

    def segment_statistics(self, metric: str) -> list[tuple]:
        """Every segment's raw statistics for one metric, in segment order: a :class:`Record`
        field (``"bleu"``, ``"rouge_l"``, ``"wer"``...). The significance tests resample these."""
        self.refresh()
        with _collector_paused(True):
            self._make_records(0, len(self._results))
        if metric not in Record._fields or metric in ("rouge_ref", "dropped", "differs"):
            raise ValueError(f"no per-segment statistics named {metric!r}")
        column = list(map(itemgetter(Record._fields.index(metric)), self._results))
        if column and column[0] is None:
            raise ValueError(f"{metric!r} is not enabled in this corpus")
        return column

    def statistic_rows(self, field: str, segments: np.ndarray) -> np.ndarray | None:
        """One :class:`Record` field of some segments (ascending numbers) as an array, a row a
        segment (None if its metric is off), read where the statistics are: in the columns a
        re-scoring left, whose records are not made for it (a report of 1,000,000 segments made
        as many records, a gigabyte), or in the records."""
        import numpy as np

        self.refresh()
        index = Record._fields.index(field)
        parts = []  # (rows of ``segments``, their values)
        in_records = np.ones(len(segments), bool)
        for first, columns in self._unmade:
            lo, hi = np.searchsorted(segments, [first, first + len(columns)]).tolist()
            if lo < hi:
                column = getattr(columns, field)
                if column is None:
                    return None
                parts.append((slice(lo, hi), column[segments[lo:hi] - first]))
                in_records[lo:hi] = False
        rows = np.flatnonzero(in_records)
        if len(rows):
            values = [self._results[i][index] for i in segments[rows].tolist()]
            if values[0] is None:
                return None
            parts.append((rows, np.array(values)))
        if not parts:
            return None
        found = np.empty((len(segments), parts[0][1].shape[1]), np.result_type(*(values.dtype for _, values in parts)))
        for where, values in parts:
            found[where] = values
        return found

    @property
    def scoring(self) -> int:
        """A mark of the corpus as scored now, for :meth:`rescored_since`."""
        self.refresh()
        return self._scoring

    def rescored_since(self, mark: int) -> np.ndarray:
        """The segments re-scored since :attr:`scoring` was ``mark``, ascending: a follower of
        the statistics (the report's table) computes its figures of those alone again."""
        import numpy as np

        self.refresh()
        return np.flatnonzero(np.frombuffer(self._scored_in, np.int64) > mark) if self._scored_in else np.zeros(0, np.int64)

    def next_differing(self, start: int = 0) -> int | None:
        """The first segment from ``start`` on that has findings, if any."""
        self.refresh()
        found = self._differs.find(1, start)
        return found if found >= 0 else None

    def segment_scores(self, segment: int) -> SegmentScores:
        return segment_scores(self.config, self.references, self.statistics(segment))

    def segment_score_columns(self, size: int) -> Iterator[dict[str, list]]:
        """:meth:`segment_scores` of every segment, in order, ``size`` segments at a time: a list
        per metric key each time (see :func:`.scores.segment_score_columns`), all from one
        snapshot of the records (re-scored once, not checked again for each segment)."""
        records = self.records()
        for start in range(0, len(records), size):
            yield segment_score_columns(self.config, self.references, records[start : start + size])

    def findings(self, segment: int) -> list[Finding]:
        """Where hypothesis and references differ in one segment, as spans into its texts."""
        st = self.statistics(segment)
        if self._apart:
            apart = self._apart.get(self.texts(segment))
            if apart is not None:
                return [f if f.segment == segment else replace(f, segment=segment) for f in apart[1]]
        # Analyses not kept already are made for the moment: findings are asked for a segment at a
        # time by callers that keep what they make of them, and kept, a whole document's (hints
        # for a client that asks for all of them, `check`) held 170 MB on 100,000 lines.
        return segment_findings(segment, self._analysis(0, segment, False), self._references(segment, False), st, self.config)

    def texts(self, segment: int) -> tuple[str, ...]:
        """The segment's texts, hypothesis first (empty where a side has no such segment)."""
        return tuple(self.text(side, segment) for side in range(len(self._sides)))

    def long_pending(self) -> list[int]:
        """Segments left to score that are long (see the module's notes)."""
        n = len(self)
        tail = min(self._tail if self._tail is not None else n, len(self._results))
        found = [i for i in self._dirty if i < tail and self._long(i)]
        if tail < n and any(max(map(len, s.texts[tail:n]), default=0) > LONG_SEGMENT_CHARS for s in self._sides):
            found.extend(i for i in range(tail, n) if self._long(i))
        return [i for i in found if self.texts(i) not in self._apart]

    def _long(self, segment: int) -> bool:
        return any(len(t) > LONG_SEGMENT_CHARS for t in self.texts(segment))

    def put(self, texts: Sequence[str], scored: tuple[Record, list[Finding]]) -> None:
        """The result of :func:`score_apart` for these texts: re-scoring takes it for any segment
        that has these texts, and findings are read from it."""
        self._apart[tuple(texts)] = scored
        while len(self._apart) > APART_KEPT:
            del self._apart[next(iter(self._apart))]

    # -- editing -------------------------------------------------------------------------

    def replace_lines(self, side: int, start: int, end: int, new_lines: Sequence[str]) -> None:
        """Replace lines ``[start, end)`` of one side (0 = hypothesis, k = reference k)."""
        s = self._sides[side]
        if not 0 <= start <= end <= len(s.lines):
            raise IndexError(f"lines {start}..{end} outside a document of {len(s.lines)} lines")
        new_lines = list(new_lines)
        old_len = len(s.lines)
        s.lines[start:end] = new_lines
        if not s.lines:
            s.lines.append("")  # a document always has a line, as in LSP
        if s.starts is not None:
            self._resegment(side)
            return
        # Segments are lines[:count]. Lines before the edit keep their segments, and so do the
        # lines after it, except that the count also moves when the last line becomes, or stops
        # being, an empty final line: that can drop or add a segment on either side of the edit.
        old_count = len(s.texts)
        count = segment_count(s.lines)
        prefix = min(start, old_count, count)
        empty_last = max(old_len - old_count, len(s.lines) - count)
        suffix = max(0, old_len - end - empty_last)
        self._splice(side, prefix, old_count - suffix, s.lines[prefix : count - suffix])

    def set_text(self, side: int, text: str) -> None:
        self.replace_lines(side, 0, len(self._sides[side].lines), split_lines(text))

    def _resegment(self, side: int) -> None:
        """Recompute a side's segments from its lines; keep the analyses of unchanged ones."""
        s = self._sides[side]
        spans = segment_spans(s.lines, self.config.segmentation)
        new_texts = ["\n".join(s.lines[a:b]) for a, b in spans]
        s.starts = [a for a, _ in spans]
        prefix, suffix = common_ends(s.texts, new_texts)
        self._splice(side, prefix, len(s.texts) - suffix, new_texts[prefix : len(new_texts) - suffix])

    def _splice(self, side: int, start: int, end: int, new_texts: list[str]) -> None:
        """Segments ``[start, end)`` of a side became ``new_texts``; mark what must be re-scored."""
        s = self._sides[side]
        if len(new_texts) != end - start:
            self._displace(start)
        kept = len(s.texts) - end
        for follower, ends in s.edited.items():
            s.edited[follower] = (start, kept) if ends is None else (min(ends[0], start), min(ends[1], kept))
        s.texts[start:end] = new_texts
        s.analyses[start:end] = [None] * len(new_texts)
        if len(new_texts) == end - start:
            self._dirty.update(range(start, end))
        else:
            # later segments now pair with other texts
            self._tail = start if self._tail is None else min(self._tail, start)

    def _displace(self, start: int) -> None:
        """Keep the current records of segments ``start`` on, which a change of line count is
        about to pair with other texts (references to what the corpus holds: no copies; records
        not made yet stay columns until a re-scoring finds their texts again)."""
        current = min(self._tail if self._tail is not None else len(self._results), len(self._results))
        if current <= start:
            return  # all of them were displaced already, by a change not re-scored yet
        columns = [(first, c) for first, c in self._unmade if first < current and first + len(c) > start]
        stale = {i for i in self._dirty if start <= i < current}
        texts = [s.texts[start:current] for s in self._sides]
        self._displaced.append(_Displaced(start, texts, self._results[start:current], columns, stale))
        # Several changes, then as many undos, need the records of before the first: at most as
        # many records as the corpus has are kept (each a kilobyte or two), and those that reach
        # furthest up (ties: the older) stay longest.
        held = sum(len(d.records) for d in self._displaced)
        while len(self._displaced) > DISPLACED_CHANGES or held > len(self._results):
            last = max(range(len(self._displaced)), key=lambda k: (self._displaced[k].start, k))
            held -= len(self._displaced.pop(last).records)

    # -- scoring -------------------------------------------------------------------------

    def _analysis(self, side: int, segment: int, keep: bool = True) -> Analysis:
        s = self._sides[side]
        if segment >= len(s.texts):
            return self._empty
        a = s.analyses[segment]
        if a is None:
            a = self._analyse(s.texts[segment])
            if keep:
                s.analyses[segment] = a
        return a

    def _references(self, segment: int, keep: bool = True) -> list[Analysis]:
        # a corpus without references (no metric on) scores against an empty one: records of nothing
        return [self._analysis(side, segment, keep) for side in range(1, len(self._sides))] or [self._empty]

    def refresh(self, limit: int | None = None, pool_map: PoolMap | None = None) -> bool:
        """Re-score dirty segments, at most ``limit`` of them; True once nothing is dirty.

        With ``pool_map``, a run of at least ``POOL_MINIMUM`` segments to score from scratch
        (a cold start, re-pairing after a line count changed) is scored through it.
        """
        n = len(self)
        results = self._results
        # segments gone are taken out of the totals by their records, made if still columns
        self._make_records(n, len(results))
        while len(results) > n:
            self._account(results.pop(), -1)
        del self._differs[n:]
        del self._scored_in[n:]
        if self.dirty:
            self._scoring += 1
        if len(results) < n:
            start = len(results)
            results.extend([None] * (n - start))
            self._differs.extend(bytes(n - start))
            self._scored_in.extend(repeat(self._scoring, n - start))
            self._tail = start if self._tail is None else min(self._tail, start)
        budget = limit if limit is not None else -1
        pending = len(self._dirty) + (n - self._tail if self._tail is not None else 0)
        with _collector_paused(min(pending, budget if budget >= 0 else pending) > 256):
            while len(self._dirty) > WIDE_CHANGE and budget != 0:
                take = len(self._dirty) if budget < 0 else min(budget, len(self._dirty))
                picked = sorted(self._dirty.pop() for _ in range(take))
                self._rescore_many([i for i in picked if i < n and (self._tail is None or i < self._tail)])
                budget = max(budget - take, 0) if budget >= 0 else budget
            while self._dirty and budget != 0:
                i = self._dirty.pop()
                if i < n and (self._tail is None or i < self._tail):
                    self._rescore(i)
                    budget -= 1
            if self._tail is not None and budget != 0:
                stop = n if budget < 0 else min(n, self._tail + budget)
                self._rescore_range(self._tail, stop, pool_map)
                self._tail = stop if stop < n else None
        return not self.dirty

    def _rescore(self, i: int) -> None:
        self._make_records(i, i + 1)  # the record taken out of the totals
        old = self._results[i]
        if old is not None:
            self._account(old, -1)
        new = self._scored_apart(i) if self._apart else None
        if new is None:
            with self._failing_located([i]):
                new = self._analyse.statistics(self._analysis(0, i), self._references(i))
        self._results[i] = new
        self._differs[i] = new.differs
        self._scored_in[i] = self._scoring
        self._account(new, 1)

    def _rescore_many(self, segments: list[int]) -> None:
        """Re-score segments changed in place, together: from their texts where the metrics
        allow, their analyses made for the moment and not kept."""
        for i in segments:
            self._make_records(i, i + 1)
        self._account_all([r for r in map(self._results.__getitem__, segments) if r is not None], -1)
        apart = [self._scored_apart(i) if self._apart else None for i in segments]
        fresh = [i for i, r in zip(segments, apart) if r is None]
        with self._failing_located(fresh):
            scored = iter(self._analyse.scored([[self.text(side, i) for i in fresh] for side in range(len(self._sides))]))
        new = [r if r is not None else next(scored) for r in apart]
        for i, record in zip(segments, new):
            self._results[i] = record
            self._differs[i] = record.differs
            self._scored_in[i] = self._scoring
        self._account_all(new, 1)

    @contextmanager
    def _failing_located(self, segments: Sequence[int]) -> Iterator[None]:
        """Sets ``segment`` on ROUGE-1.5.5.pl's failure (ROUGE-W against a reference without
        tokens) scoring ``segments``: the first of them it fails on alone, found a chunk at a
        time, so that a message can name its line."""
        try:
            yield
        except ScriptDies as exc:
            if len(segments) == 1:
                exc.segment = segments[0]
                raise
            for start in range(0, len(segments), POOL_CHUNK):
                chunk = segments[start : start + POOL_CHUNK]
                if self._fails(chunk):
                    exc.segment = next((i for i in chunk if self._fails([i])), None)
                    break
            raise

    def _fails(self, segments: Sequence[int]) -> bool:
        try:
            list(score_texts(self.config, [[self.text(side, i) for i in segments] for side in range(len(self._sides))]))
        except ScriptDies:
            return True
        return False

    def _scored_apart(self, segment: int) -> Record | None:
        apart = self._apart.get(self.texts(segment))
        return apart[0] if apart is not None else None

    def _analyses(self, side: int, start: int, stop: int) -> list[Analysis]:
        """Analyses of segments ``[start, stop)`` of one side, computing the missing ones."""
        s = self._sides[side]
        end = min(stop, len(s.texts))
        cached = s.analyses[start:end]
        if None in cached:
            analyse = self._analyse
            cached = [a if a is not None else analyse(t) for a, t in zip(cached, s.texts[start:end])]
            s.analyses[start:end] = cached
        return cached + [self._empty] * (stop - max(start, end))

    def _rescore_range(self, start: int, stop: int, pool_map: PoolMap | None = None) -> None:
        """Re-score segments ``[start, stop)`` in one pass (a cold start, or re-pairing after a
        line count changed): columns of analyses (of texts, for BLEU, ROUGE and WER alone) in,
        one record per segment out."""
        found = self._redisplaced(start, stop) if self._displaced else None
        if found is not None and any(r is not None for r in found):
            new = found
            for missing, run in groupby(range(len(found)), lambda k: found[k] is None):
                if missing:  # a run of segments not found: scored
                    ks = list(run)
                    new[ks[0] : ks[-1] + 1] = self._scored(start + ks[0], start + ks[-1] + 1, pool_map)
        else:
            with self._failing_located(range(start, stop)):
                new = self._scored(start, stop, pool_map)
        self._make_records(start, stop)
        old = [r for r in self._results[start:stop] if r is not None]
        self._account_all(old, -1)
        self._scored_in[start:stop] = array("q", repeat(self._scoring, stop - start))
        if isinstance(new, RecordColumns):
            self._results[start:stop] = [None] * (stop - start)
            self._unmade.append((start, new))
            self._differs[start:stop] = new.differs.tobytes()
            self._account_columns(new)
        else:
            self._results[start:stop] = new
            self._differs[start:stop] = bytes(map(itemgetter(_DIFFERS), new))
            self._account_all(new, 1)

    def _redisplaced(self, start: int, stop: int) -> list[Record | None]:
        """For each of segments ``[start, stop)``, a record kept by :meth:`_displace` for its
        present texts, or None."""
        found: list[Record | None] = [None] * (stop - start)
        columns = self._columns(start, stop)
        for displaced in self._displaced:
            for k, texts in enumerate(zip(*columns)):
                if found[k] is None:
                    found[k] = displaced.record(start + k, texts)
        return found

    def _scored(self, start: int, stop: int, pool_map: PoolMap | None) -> list[Record] | RecordColumns:
        """New records of segments ``[start, stop)``, from their analyses or their texts."""
        if pool_map is not None and stop - start >= POOL_MINIMUM:
            return self._pooled_records(start, stop, pool_map)
        if self._apart:
            statistics = self._analyse.statistics
            return [self._scored_apart(i) or statistics(self._analysis(0, i), self._references(i)) for i in range(start, stop)]
        if self._analyse.from_texts and stop - start >= FEW_SEGMENTS:
            return self._analyse.scored(self._columns(start, stop))
        hyps = self._analyses(0, start, stop)
        refs = list(zip(*[self._analyses(side, start, stop) for side in range(1, len(self._sides))])) or [(self._empty,)] * len(hyps)
        return self._analyse.statistics_many(hyps, refs)

    def _pooled_records(self, start: int, stop: int, pool_map: PoolMap) -> list[Record] | RecordColumns:
        """Records of segments ``[start, stop)`` scored from their texts, a chunk per call.

        Analyses are not sent back (pickling them would cost more than making them): the few
        needed later, for findings or an edit's re-scoring, are made again on demand.
        """
        columns = self._columns(start, stop)
        size = max(POOL_CHUNK, -(-(stop - start) // POOL_CHUNKS_BATCHED)) if self._analyse.batched else POOL_CHUNK
        chunks = ([column[i : i + size] for column in columns] for i in range(0, stop - start, size))
        scored = pool_map(partial(score_texts, self.config), chunks)
        if self._analyse.from_texts:
            return RecordColumns.joined(list(scored))
        return list(chain.from_iterable(scored))

    def _make_records(self, start: int, stop: int) -> None:
        """The records of segments ``[start, stop)`` that :meth:`_rescore_range` left as columns."""
        if self._unmade and start < stop:
            self._unmade = _made(self._unmade, start, stop, self._results)

    def _columns(self, start: int, stop: int) -> list[list[str]]:
        """The texts of segments ``[start, stop)``, a column per side (a missing segment is empty)."""
        columns = []
        for s in self._sides:
            texts = s.texts[start:stop]
            columns.append(texts + [""] * (stop - start - len(texts)))
        return columns

    def _account_all(self, records: list[Record], sign: int) -> None:
        """Add (``sign`` 1) or take away (-1) many records at once, summing column by column."""
        if not records:
            return
        # only the summed fields are taken out of the records (half the time of transposing them)
        for field_, into in self._sums:
            for k, total in enumerate(map(sum, zip(*map(itemgetter(field_), records)))):
                into[k] += sign * total
        self._dropped += sign * sum(map(itemgetter(_DROPPED), records))
        self._differing += sign * sum(map(itemgetter(_DIFFERS), records))

    def _account_columns(self, scored: RecordColumns) -> None:
        """Add the records of ``scored`` to the totals, as :meth:`_account_all` would: the same
        sums of the same numbers, column by column."""
        for field_, into in self._sums:
            for k, values in enumerate(getattr(scored, Record._fields[field_]).T.tolist()):
                into[k] += sum(values)
        self._dropped += int(scored.dropped.sum())
        self._differing += int(scored.differs.sum())

    def _account(self, r: Record | None, sign: int) -> None:
        if r is None:
            return
        for field_, into in self._sums:
            for k, v in enumerate(r[field_]):
                into[k] += sign * v
        self._dropped += sign * r.dropped
        self._differing += sign * r.differs


def _made(unmade: list[tuple[int, RecordColumns]], start: int, stop: int, records: list, base: int = 0) -> list[tuple[int, RecordColumns]]:
    """Make the records of segments ``[start, stop)`` held in ``unmade`` (runs of columns: first
    segment, columns), whole blocks of ``RECORDS_BLOCK`` at a time, into ``records`` (whose first
    item is segment ``base``; records past its ends are not kept); returns the runs left."""
    left = []
    for first, columns in unmade:
        end = first + len(columns)
        if end <= start or first >= stop:
            left.append((first, columns))
            continue
        lo = first + (max(start, first) - first) // RECORDS_BLOCK * RECORDS_BLOCK
        hi = min(end, first - (first - min(stop, end)) // RECORDS_BLOCK * RECORDS_BLOCK)
        kept_lo, kept_hi = max(lo, base), min(hi, base + len(records))
        if kept_lo < kept_hi:
            records[kept_lo - base : kept_hi - base] = columns[kept_lo - first : kept_hi - first]
        if lo > first:
            left.append((first, columns[: lo - first]))
        if hi < end:
            left.append((hi, columns[hi - first :]))
    return left


def score_apart(config: ScoringConfig, texts: Sequence[str]) -> tuple[Record, list[Finding]]:
    """One segment's record and findings from its texts alone (hypothesis first): picklable, for
    a worker process to score a long segment while the caller keeps serving."""
    analyse = Analyser(config)
    hyp, *refs = map(analyse, texts)
    refs = refs or [analyse("")]  # no reference (checked alone): an empty one, as the corpus has
    record = analyse.statistics(hyp, refs)
    return record, segment_findings(0, hyp, refs, SegmentStatistics.of(record), config)


@contextmanager
def _collector_paused(pause: bool) -> Iterator[None]:
    """Pause Python's cyclic garbage collector during a large re-scoring.

    Scoring allocates millions of short-lived, acyclic tuples and sets; every collection they
    trigger walks all the objects the corpus holds, which made a cold 100,000-line scoring
    several times slower. Nothing here forms cycles, so nothing is left for the collector.
    """
    if not pause or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@lru_cache(maxsize=8)
def _line_breaks(text: str) -> tuple[int, ...]:
    """Offsets of a segment's line breaks: a segment's findings are placed one by one, and a
    1 MB line would be scanned again for each of them."""
    return tuple(i for i, ch in enumerate(text) if ch == "\n") if "\n" in text else ()
