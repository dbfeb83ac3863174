"""Every segment's own scores as columns: what a report sorts, filters, bins and pages through.

A column holds one metric's sentence score per segment (sentence BLEU with effective order, or
a flavour's own; sentence chrF, sentence TER, the ROUGE F-measures, WER, CER), made from the corpus's
per-segment statistics, and the hypothesis's perplexities (``ppl``) when a :class:`Fluency` is given. A segment
whose record is the very object it was at the last build keeps its values (the corpus replaces a
segment's record only when it re-scores it), others are computed: the table of a corpus one edit
newer costs the edited segments' formulas, and finding them one pass in C over the records. Values
are not looked up by equal statistics: such a memo kept the statistics of every segment an edit had
replaced (an Enter re-pairs half the corpus), 2 MB of a 10,000-line server's 90 after a few, for
the rare undo it would have saved. Orders (by any column, either direction, ties by segment) are
made when first asked for and kept with the table, which is of one version of the corpus: a newer
version builds a new table.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass, field
from functools import partial
from itertools import compress
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

if TYPE_CHECKING:  # NumPy is imported where it is used: score, check and serve start without it
    import numpy as np

from . import bleu, chrf, ter
from .config import ScoringConfig
from .corpus import Corpus
from .flavours import FLAVOUR_FAILURES
from .fluency import Fluency
from .segment import Record
from .wer import ErrorCounts, rates

# Keys that are not metrics: the segment's place and its word edits (S + D + I).
LINE = "line"
EDITS = "edits"
PPL = "ppl"
FILTER_OPS: dict[str, Callable[[float, float], bool]] = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
# Segments whose values are computed between two yields of :meth:`TableBuilder.build`: a few
# milliseconds when none is remembered (sentence BLEU's formula takes some microseconds).
CHUNK = 1000


@dataclass(frozen=True, slots=True)
class Filter:
    key: str
    op: str
    value: float

    def __post_init__(self) -> None:
        if self.op not in FILTER_OPS:
            raise ValueError(f"unknown filter operator {self.op!r}; one of {', '.join(FILTER_OPS)}")
        if not math.isfinite(self.value):
            raise ValueError("a filter's value must be a finite number")


@dataclass(frozen=True, slots=True)
class Histogram:
    """Ten equal bins over the metric's range (0-100 for BLEU, chrF and TER, 0-1 otherwise; the top
    bin includes its upper edge); error and edit rates, which pass their top with many
    insertions, get an eleventh bin for values from the top up. Perplexity's (:func:`log_histogram`)
    has no fixed range: its ``edges`` are given, ``scale`` says how they are spaced."""

    bins: list[int]
    total: int
    mean: float | None
    scale: str | None = None
    edges: list[float] | None = None


def histogram(metric: str, values: Sequence[float]) -> Histogram:
    import numpy as np

    width = (100.0 if metric in ("bleu", "chrf", "ter") else 1.0) / 10
    count = 11 if metric in ("ter", "wer", "cer") else 10
    values = np.asarray(values, dtype=float)
    values = values[~np.isnan(values)]  # a segment without a value (see _flavour_score)
    # Values are never negative, so truncation is floor. 1e-9: 0.3 / 0.1 is 2.9999..., and 0.3 belongs
    # to the bin that starts there. Past the top edge is the last bin (the top one, or TER's and WER's overflow).
    index = np.clip((values / width + 1e-9).astype(np.int64), 0, count - 1)
    return Histogram(np.bincount(index, minlength=count).tolist(), len(values), math.fsum(values.tolist()) / len(values) if len(values) else None)


def log_histogram(values: Sequence[float], log10_values: np.ndarray) -> Histogram:
    """Ten bins equal in log10 between whole powers of ten: edges ``10 ** (lo + k * (hi - lo) / 10)``,
    ``lo`` and ``hi`` the floor and ceiling of the smallest and largest log10 value (``hi`` at least
    ``lo + 1``); bin k counts ``edges[k] <= value < edges[k + 1]``, the top bin including its upper edge."""
    import numpy as np
    lo = math.floor(log10_values.min()) if len(log10_values) else 0
    hi = max(math.ceil(log10_values.max()), lo + 1) if len(log10_values) else 1
    edges = [10.0 ** (lo + k * (hi - lo) / 10) for k in range(11)]
    # the bin a value's edges say, not its log10's: the clip keeps the top edge in the top bin
    index = np.clip(np.searchsorted(edges, values, side="right") - 1, 0, 9)
    bins = np.bincount(index, minlength=10).tolist()
    return Histogram(bins, len(values), math.fsum(values) / len(values) if len(values) else None, "log10", edges)


@dataclass
class SegmentTable:
    """Per metric, each segment's value; ``edits`` each segment's word edits if WER is on."""

    segments: int
    columns: dict[str, list[float]]
    edits: list[int] | None
    log10_ppl: np.ndarray | None = None  # with a ppl column: its log10 values, for the histogram
    _orders: dict[tuple[str, bool], list[int]] = field(default_factory=dict, repr=False)
    _selected: tuple[tuple, list[int]] | None = field(default=None, repr=False)
    _histograms: dict[str, Histogram] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return self.segments

    @property
    def keys(self) -> list[str]:
        return [LINE, *self.columns, *([EDITS] if self.edits is not None else [])]

    def column(self, key: str) -> Sequence[float]:
        if key == LINE:
            return range(len(self))
        if key == EDITS and self.edits is not None:
            return self.edits
        if key in self.columns:
            return self.columns[key]
        raise ValueError(f"no column {key!r}; one of {', '.join(self.keys)}")

    def order(self, key: str, descending: bool = False) -> list[int]:
        """Segments sorted by one column; equal values keep segment order in both directions."""
        import numpy as np

        found = self._orders.get((key, descending))
        if found is None:
            values = np.asarray(self.column(key))
            # a stable sort of the values negated is the descending order with ties by segment
            found = np.argsort(-values if descending else values, kind="stable").tolist()
            self._orders[(key, descending)] = found
        return found

    def select(self, key: str = LINE, descending: bool = False, filters: Sequence[Filter] = ()) -> list[int]:
        """The segments that pass every filter, in the order asked for (the last answer is kept,
        so paging through it costs a slice)."""
        asked = (key, descending, tuple(filters))
        if self._selected is not None and self._selected[0] == asked:
            return self._selected[1]
        import numpy as np

        order = self.order(key, descending)
        if filters:
            kept = np.asarray(order, dtype=np.int64)
            for f in filters:
                kept = kept[FILTER_OPS[f.op](np.asarray(self.column(f.key))[kept], f.value)]
            order = kept.tolist()
        self._selected = (asked, order)
        return order

    def histograms(self) -> dict[str, Histogram]:
        if self._histograms is None:
            self._histograms = {
                metric: log_histogram(values, self.log10_ppl) if metric == PPL else histogram(metric, values)
                for metric, values in self.columns.items()
            }
        return self._histograms


class TableBuilder:
    """Builds the tables of one corpus's successive versions, keeping the values of the segments an
    edit left alone."""

    def __init__(self, config: ScoringConfig, references: int) -> None:
        self.config = config
        metrics = config.metrics
        field = Record._fields.index
        # (column, what it reads of a record, the value from that)
        self._specs: list[tuple[str, Callable, Callable]] = []
        if "bleu" in metrics:
            flavour = config.bleu_flavour
            if flavour is None:
                self._specs.append(("bleu", operator.itemgetter(field("bleu")), lambda st: bleu.score(st, config.bleu, effective_order=True).score))
            else:  # its own sentence score (NLTK's sentence_bleu reads the segment's bleu_last too)
                self._specs.append(("bleu", operator.itemgetter(field("bleu"), field("bleu_last")), partial(_flavour_score, flavour)))
        if "chrf" in metrics:
            self._specs.append(("chrf", operator.itemgetter(field("chrf")), lambda st: chrf.f_score(st, config.chrf)))
        if "ter" in metrics:
            self._specs.append(("ter", operator.itemgetter(field("ter")), lambda st: ter.score(st, references).score))
        for k, key in enumerate(config.rouge_n):
            self._specs.append((key, operator.itemgetter(field("rouge_n")), operator.itemgetter(3 * k + 2)))
        if "rougeL" in metrics:
            self._specs.append(("rougeL", operator.itemgetter(field("rouge_l")), operator.itemgetter(2)))
        if "rougeLsum" in metrics:
            self._specs.append(("rougeLsum", operator.itemgetter(field("rouge_lsum")), operator.itemgetter(2)))
        for k, key in enumerate(config.rouge_wsu):
            self._specs.append((key, operator.itemgetter(field("rouge_wsu")), operator.itemgetter(3 * k + 2)))
        if "wer" in metrics:
            self._specs.append(("wer", operator.itemgetter(field("wer")), lambda st: rates(ErrorCounts(*st)).wer))
            self._specs.append((EDITS, operator.itemgetter(field("wer")), _edits))
        if "cer" in metrics:
            self._specs.append(("cer", operator.itemgetter(field("cer")), lambda st: rates(ErrorCounts(*st)).wer))
        # the last build's records and values
        self._records: list[Record] = []
        self._values: dict[str, list] = {}

    def build(self, corpus: Corpus, fluency: Fluency | None = None) -> Iterator[SegmentTable | None]:
        """Yields None after each chunk of segments (a caller may do other work, or give up if the
        corpus changed meanwhile), then the table; with ``fluency`` (the hypothesis's, of the same
        texts) a ``ppl`` column too."""
        n = len(corpus)
        while not corpus.make_records(CHUNK):
            yield None
        records, last = corpus.records(), self._records
        kept = min(n, len(last))
        # the segments re-scored since the last build, found without a Python loop (a keystroke's
        # table has a few of 100,000), and those the last build did not have
        todo = [*compress(range(kept), map(operator.is_not, records, last)), *range(kept, n)]
        values = {column: self._values.get(column, [])[:kept] + [0.0] * (n - kept) for column, _, _ in self._specs}
        for start in range(0, len(todo), CHUNK):
            chunk = todo[start : start + CHUNK]
            for column, read, formula in self._specs:
                into = values[column]
                for i in chunk:
                    into[i] = formula(read(records[i]))
            yield None
        self._records, self._values = records, values
        columns = {column: v for column, v in values.items() if column != EDITS}
        log10_ppl = None
        if fluency is not None:
            # copies: the fluency's arrays change in place with the next edit, this table does not
            columns[PPL] = fluency.perplexities().tolist()
            log10_ppl = fluency.log10_perplexities().copy()
        yield SegmentTable(n, columns, values.get(EDITS), log10_ppl)


def _flavour_score(flavour, st: tuple) -> float:
    """A flavour's sentence score of a segment's statistics; NaN where its oracle fails (NLTK's
    method6 asserts without a 3-gram match): such a segment sorts last and is in no bin."""
    try:
        return flavour.score(*st).score
    except FLAVOUR_FAILURES:
        return math.nan


def _edits(wer: tuple) -> int:
    """A segment's word edits (S + D + I) from its WER statistics."""
    return wer[1] + wer[2] + wer[3]
