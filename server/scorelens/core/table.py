"""Every segment's own scores as columns: what a report sorts, filters, bins and pages through.

A column holds one metric's sentence score per segment (sentence BLEU with effective order, or
a flavour's own; sentence chrF, sentence TER, the ROUGE F-measures, WER, CER) in an array, computed
a chunk of segments at a time from arrays of the corpus's per-segment statistics (no record is
made for it: a report of 1,000,000 short lines made and kept as many, a gigabyte), and the
hypothesis's perplexities (``ppl``) when a :class:`Fluency` is given. A segment the corpus has not
re-scored since the last build keeps its values, others are computed: the table of a corpus one
edit newer costs the edited segments' formulas. Values are not looked up by equal statistics: such
a memo kept the statistics of every segment an edit had replaced (an Enter re-pairs half the
corpus), 2 MB of a 10,000-line server's 90 after a few, for the rare undo it would have saved.
Orders (by any column, either direction, ties by segment) are made when first asked for and kept
with the table, which is of one version of the corpus: a newer version builds a new table.
"""

from __future__ import annotations

import math
import operator
import weakref
from dataclasses import dataclass, field
from functools import partial
from itertools import repeat
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

if TYPE_CHECKING:  # NumPy is imported where it is used: score, check and serve start without it
    import numpy as np

from . import bleu, chrf, ter, wer
from .config import ScoringConfig
from .corpus import Corpus
from .flavours import FLAVOUR_FAILURES
from .fluency import Fluency

# Keys that are not metrics: the segment's place and its word edits (S + D + I).
LINE = "line"
EDITS = "edits"
PPL = "ppl"
FILTER_OPS: dict[str, Callable[[float, float], bool]] = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
# Segments whose values are computed between two yields of :meth:`TableBuilder.build`: a few
# milliseconds (sentence BLEU's logarithms, in Python's math, take most of it).
CHUNK = 10_000


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
    return Histogram(np.bincount(index, minlength=count).tolist(), len(values), _fsum(values) / len(values) if len(values) else None)


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
    return Histogram(bins, len(values), _fsum(values) / len(values) if len(values) else None, "log10", edges)


def _fsum(values: np.ndarray) -> float:
    """``math.fsum`` of an array, a chunk of floats made at a time (the exact sum's rounding:
    in any order)."""
    return math.fsum(x for start in range(0, len(values), CHUNK) for x in values[start : start + CHUNK].tolist())


@dataclass
class SegmentTable:
    """Per metric, each segment's value; ``edits`` each segment's word edits if WER is on (arrays)."""

    segments: int
    columns: dict[str, np.ndarray]
    edits: np.ndarray | None
    log10_ppl: np.ndarray | None = None  # with a ppl column: its log10 values, for the histogram
    _orders: dict[tuple[str, bool], np.ndarray] = field(default_factory=dict, repr=False)
    _selected: tuple[tuple, np.ndarray] | None = field(default=None, repr=False)
    _histograms: dict[str, Histogram] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return self.segments

    @property
    def keys(self) -> list[str]:
        return [LINE, *self.columns, *([EDITS] if self.edits is not None else [])]

    def column(self, key: str) -> np.ndarray:
        if key == LINE:
            import numpy as np

            return np.arange(len(self))
        if key == EDITS and self.edits is not None:
            return self.edits
        if key in self.columns:
            return self.columns[key]
        raise ValueError(f"no column {key!r}; one of {', '.join(self.keys)}")

    def order(self, key: str, descending: bool = False) -> np.ndarray:
        """Segments sorted by one column; equal values keep segment order in both directions."""
        import numpy as np

        found = self._orders.get((key, descending))
        if found is None:
            values = self.column(key)
            # a stable sort of the values negated is the descending order with ties by segment
            found = np.argsort(-values if descending else values, kind="stable")
            self._orders[(key, descending)] = found
        return found

    def select(self, key: str = LINE, descending: bool = False, filters: Sequence[Filter] = ()) -> np.ndarray:
        """The segments that pass every filter, in the order asked for (the last answer is kept,
        so paging through it costs a slice)."""
        asked = (key, descending, tuple(filters))
        if self._selected is not None and self._selected[0] == asked:
            return self._selected[1]
        order = self.order(key, descending)
        for f in filters:
            order = order[FILTER_OPS[f.op](self.column(f.key)[order], f.value)]
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
        # (column, the record fields it reads, its values from their rows)
        self._specs: list[tuple[str, tuple[str, ...], Callable[..., np.ndarray]]] = []
        if "bleu" in metrics:
            flavour = config.bleu_flavour
            if flavour is None:
                self._specs.append(("bleu", ("bleu",), partial(bleu.sentence_scores, config=config.bleu)))
            else:  # its own sentence score (NLTK's sentence_bleu reads the segment's bleu_last too)
                self._specs.append(("bleu", ("bleu", "bleu_last"), partial(_flavour_scores, flavour)))
        if "chrf" in metrics:
            self._specs.append(("chrf", ("chrf",), partial(chrf.f_scores, config=config.chrf)))
        if "ter" in metrics:
            self._specs.append(("ter", ("ter",), partial(ter.scores_of, nrefs=references)))
        for k, key in enumerate(config.rouge_n):
            self._specs.append((key, ("rouge_n",), operator.itemgetter((slice(None), 3 * k + 2))))
        if "rougeL" in metrics:
            self._specs.append(("rougeL", ("rouge_l",), operator.itemgetter((slice(None), 2))))
        if "rougeLsum" in metrics:
            self._specs.append(("rougeLsum", ("rouge_lsum",), operator.itemgetter((slice(None), 2))))
        for k, key in enumerate(config.rouge_wsu):
            self._specs.append((key, ("rouge_wsu",), operator.itemgetter((slice(None), 3 * k + 2))))
        if "wer" in metrics:
            self._specs.append(("wer", ("wer",), wer.wers_of))
            self._specs.append((EDITS, ("wer",), _edits))
        if "cer" in metrics:
            self._specs.append(("cer", ("cer",), wer.wers_of))
        # the last build's corpus, its mark (Corpus.scoring) and values
        self._corpus: weakref.ref[Corpus] | None = None
        self._mark = 0
        self._values: dict[str, np.ndarray] = {}

    def build(self, corpus: Corpus, fluency: Fluency | None = None) -> Iterator[SegmentTable | None]:
        """Yields None after each chunk of segments (a caller may do other work, or give up if the
        corpus changed meanwhile), then the table; with ``fluency`` (the hypothesis's, of the same
        texts) a ``ppl`` column too."""
        import numpy as np

        n, mark = len(corpus), corpus.scoring
        # the segments re-scored since the last build of this corpus (the others keep their values)
        again = self._corpus is not None and self._corpus() is corpus
        todo = corpus.rescored_since(self._mark) if again else np.arange(n)
        values = {}
        for column, _, _ in self._specs:
            into = values[column] = np.zeros(n, np.int64 if column == EDITS else float)
            if again:
                kept = min(n, len(self._values[column]))
                into[:kept] = self._values[column][:kept]
        for start in range(0, len(todo), CHUNK):
            chunk = todo[start : start + CHUNK]
            rows = {}
            for column, fields, formula in self._specs:
                for name in fields:
                    if name not in rows:
                        rows[name] = corpus.statistic_rows(name, chunk)
                values[column][chunk] = formula(*(rows[name] for name in fields))
            yield None
        self._corpus, self._mark, self._values = weakref.ref(corpus), mark, values
        columns = {column: v for column, v in values.items() if column != EDITS}
        log10_ppl = None
        if fluency is not None:
            # copies: the fluency's arrays change in place with the next edit, this table does not
            columns[PPL] = fluency.perplexities().copy()
            log10_ppl = fluency.log10_perplexities().copy()
        yield SegmentTable(n, columns, values.get(EDITS), log10_ppl)


def _flavour_scores(flavour, stats: np.ndarray, last: np.ndarray | None) -> np.ndarray:
    """A flavour's sentence score of each segment's statistics; NaN where its oracle fails (NLTK's
    method6 asserts without a 3-gram match): such a segment sorts last and is in no bin."""
    import numpy as np

    lasts = repeat(None) if last is None else map(tuple, last.tolist())
    return np.fromiter(map(partial(_flavour_score, flavour), map(tuple, stats.tolist()), lasts), float, len(stats))


def _flavour_score(flavour, stats: tuple, last: tuple | None) -> float:
    try:
        return flavour.score(stats, last).score
    except FLAVOUR_FAILURES:
        return math.nan


def _edits(counts: np.ndarray) -> np.ndarray:
    """Each segment's word edits (S + D + I) from its WER statistics."""
    return counts[:, 1] + counts[:, 2] + counts[:, 3]
