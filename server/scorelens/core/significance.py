"""Paired significance tests between systems that share references, as sacreBLEU 2.6.0 runs them.

sacreBLEU (sacrebleu/significance.py) extracts each system's per-segment sufficient statistics,
then scores many resampled corpora: paired bootstrap resampling draws ``n`` corpora of segment
indices with replacement (one draw shared by every system), approximate randomization swaps each
segment between the baseline and the system with probability 1/2 in each of ``n`` trials. Here
the statistics are the ones the :class:`Corpus` already holds, and a resampled corpus's summed
statistics are one matrix product (how often each segment was drawn, times the statistics), so
the only per-resample work left is the metric's formula, itself vectorised over resamples.

Exactly sacreBLEU's numbers need its details: the same NumPy generator calls in the same order
(``default_rng(seed)``; the baseline's confidence interval from a generator of its own), the
bootstrap's statistics cast to float32 (so BLEU's precisions are float32 divisions there, and
float64 in approximate randomization, whose statistics stay integers), ``math.log``/``math.exp``
rather than NumPy's, and seed 0 meaning "no seed" for the compared systems (``seed if seed
else None``). Sums are exact below 2**24 per statistic (float32 sums of integers); sacreBLEU's
float32 sums round beyond that.

BLEU's and TER's formulas are vectorised over resamples; chrF's runs row by row on NumPy scalars
of the same types as sacreBLEU's (a metric without a vectorised formula takes one line either way).
TER's per-segment reference length is the references' average, a fraction with several
references: there sacreBLEU's float32 sums round, in the order its resampled segments were drawn,
and its randomization sums come from a float64 matrix product, so those columns are summed the
same ways.
ROUGE-L/Lsum/N (the mean of per-segment F) and WER/CER (rates of summed counts) are ScoreLens's
extension: the same two tests over their statistics, in float64.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

import numpy as np

from . import chrf
from .bleu import SMOOTH_DEFAULTS, BleuConfig
from .config import ScoringConfig
from .rouge import ROUGE_N

DEFAULT_SEED = 12345
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}  # resamples (bootstrap) / trials (randomization)
TESTS = tuple(DEFAULT_SAMPLES)
# Resamples and trials are drawn and summed at most this many at a time, and at most this many
# draws (segments x rows) at a time, which keeps the arrays small whatever the corpus's length
# (a thousand resamples of a million segments at once took 24 GB). Trials come in blocks of a
# multiple of 32: NumPy draws booleans from 32-bit words, so blocks of whole words continue the
# stream exactly as sacreBLEU's single call does (``choice`` has no such state at all).
_BLOCK = 1024
_BLOCK_DRAWS = 1 << 23

_log = np.frompyfunc(math.log, 1, 1)
_exp = np.frompyfunc(math.exp, 1, 1)
# Before NumPy 2 (NEP 50), a float32 scalar met with a Python number gave a float64: sacreBLEU's
# formulas then divide its bootstrap's float32 statistics in float64.
_PROMOTES_TO_FLOAT64 = np.lib.NumpyVersion(np.__version__) < "2.0.0"


def _arithmetic(kind: type) -> type:
    """The type sacreBLEU's formulas compute in on statistics of type ``kind`` when a Python number
    is an operand (``100. * correct[n]``): the statistics' own under NumPy 2, float64 before."""
    return np.float64 if _PROMOTES_TO_FLOAT64 else kind


class Scored(Protocol):
    """What the tests read of a system: its segments' statistics (a :class:`~.corpus.Corpus`,
    or the records ``scorelens sacrebleu`` scored)."""

    config: ScoringConfig

    @property
    def references(self) -> int: ...

    def __len__(self) -> int: ...

    def segment_statistics(self, metric: str) -> list[tuple]: ...


@dataclass(frozen=True)
class Gathered:
    """A system's per-segment statistics for some metrics, computed elsewhere (in the partitions
    of a Dask collection, say) and put together in segment order: what the tests read of it."""

    config: ScoringConfig
    references: int
    rows: dict[str, list[tuple]]  # metric -> every segment's statistics, as metric_statistics gives them

    def __len__(self) -> int:
        return len(next(iter(self.rows.values()), ()))


def seed_from(value: str | None) -> int | None:
    """The seed that ``SACREBLEU_SEED`` names: unset means 12345, ``none`` (any case) no seed."""
    if value is None:
        return DEFAULT_SEED
    if value.lower() == "none":
        return None
    seed = int(value)
    if seed < 0:  # NumPy's generators take none
        raise ValueError(f"a seed is 0 or more, not {seed}")
    return seed


# -- formulas: rows of summed statistics in, one score per row out --------------------------------


def bleu_scores(stats: np.ndarray, config: BleuConfig, effective_order: bool = False) -> np.ndarray:
    """:func:`bleu.score` over rows, operation for operation, in the rows' precision.

    float32 rows divide in float32 as sacreBLEU's ``compute_bleu`` does on its bootstrap's
    float32 statistics (NumPy 2 keeps a Python float's operand's type; see :func:`_arithmetic`).
    """
    order = config.max_ngram_order
    kind = _arithmetic(stats.dtype.type)
    method = config.smooth_method
    smooth_value = config.smooth_value if config.smooth_value is not None else SMOOTH_DEFAULTS[method]
    rows = len(stats)
    sys_len = np.trunc(stats[:, 0]).astype(np.float64)
    ref_len = np.trunc(stats[:, 1]).astype(np.float64)
    correct = stats[:, 2 : 2 + order].copy()
    total = stats[:, 2 + order : 2 + 2 * order].copy()

    bp = np.ones(rows)
    short = (sys_len < ref_len) & (sys_len > 0)
    bp[short] = _exp(1 - ref_len[short] / sys_len[short]).astype(np.float64)
    bp[(sys_len < ref_len) & (sys_len == 0)] = 0.0
    matched = correct.any(axis=1)

    precisions = np.zeros((rows, order))
    alive = np.ones(rows, dtype=bool)  # rows whose loop has not hit ``break`` yet
    eff_order = np.full(rows, order)
    smooth_mteval = np.ones(rows)
    for n in range(order):
        if method == "add-k" and n > 0:
            correct[:, n] += smooth_value
            total[:, n] += smooth_value
        alive &= total[:, n] != 0
        if effective_order:
            eff_order[alive] = n + 1
        zero = alive & (correct[:, n] == 0)
        hit = alive & ~zero
        precisions[hit, n] = kind(100.0) * correct[hit, n].astype(kind) / total[hit, n].astype(kind)
        if method == "exp":
            smooth_mteval[zero] *= 2
            precisions[zero, n] = kind(100.0) / (smooth_mteval[zero].astype(kind) * total[zero, n].astype(kind))
        elif method == "floor":
            precisions[zero, n] = kind(100.0 * smooth_value) / total[zero, n].astype(kind)

    logs = np.full((rows, order), -9999999999.0)
    positive = precisions != 0
    logs[positive] = _log(precisions[positive]).astype(np.float64)
    summed = np.zeros(rows)
    for n in range(order):  # left to right, as Python's sum
        summed += np.where(n < eff_order, logs[:, n], 0.0)
    value = bp * _exp(summed / eff_order).astype(np.float64)
    return np.where(matched, value, 0.0)


def error_rates(counts: np.ndarray) -> np.ndarray:
    """WER (or CER) of rows of summed (hits, substitutions, deletions, insertions), as :func:`wer.rates`."""
    hits, subs, dels, ins = counts.T
    ref_len = hits + subs + dels
    errors = subs + dels + ins
    safe = np.where(ref_len == 0, 1, ref_len)
    return np.where(ref_len == 0, ins, errors / safe).astype(np.float64)


def ter_scores(sums: np.ndarray) -> np.ndarray:
    """TER of rows of summed (edits, average reference length), as sacreBLEU's
    ``_compute_score_from_stats``, in the rows' precision. A row without reference words scores
    a Python float there (100.0 or 0.0), which makes sacreBLEU's array of scores float64."""
    edits, length = sums[:, 0], sums[:, 1]
    empty = length <= 0
    scores = 100 * (edits / np.where(empty, 1, length)).astype(_arithmetic(sums.dtype.type))
    if empty.any():
        scores = np.where(empty, np.where(edits > 0, 100.0, 0.0), scores.astype(np.float64))
    return scores


def row_by_row(formula: Callable[[Sequence[float]], float]) -> Callable[[np.ndarray], np.ndarray]:
    """A scalar formula over rows: float32 rows as NumPy float32 scalars, so the formula's
    arithmetic is sacreBLEU's on its bootstrap's float32 statistics; float64 rows as Python floats.
    The array takes the type NumPy gives the results, as sacreBLEU's ``np.array`` of scores does
    (float32 for chrF there: its mean and interval are float32 arithmetic too)."""

    def scores(rows: np.ndarray) -> np.ndarray:
        return np.array([formula(r) for r in (list(rows) if rows.dtype == np.float32 else rows.tolist())])

    return scores


@dataclass(frozen=True)
class Metric:
    """A metric as the tests see it: which per-segment statistics, and the formula over their sum.

    ``corpus(sums, segments, config)`` scores rows of statistics summed over ``segments``
    segments; ``sentence(stats, config)`` scores each segment on its own (for per-segment
    differences). ``float32`` reproduces sacreBLEU's bootstrap, which casts statistics to float32.
    ``statistics(corpus)`` turns the field's rows into the metric's own when they differ: ROUGE-N's
    columns of the field that holds every order's, TER's average reference length.
    """

    field: str  # the Record field holding the statistics
    corpus: Callable[[np.ndarray, int, ScoringConfig], np.ndarray]
    sentence: Callable[[np.ndarray, ScoringConfig], np.ndarray]
    float32: bool = False
    higher_is_better: bool = True
    statistics: Callable[[Scored], list[tuple]] | None = None


def _mean_f(sums: np.ndarray, segments: int, config: ScoringConfig) -> np.ndarray:
    return sums[:, 2] / segments if segments else np.zeros(len(sums))


def _rouge_n(key: str) -> Metric:
    def statistics(corpus: Scored) -> list[tuple]:
        if key not in corpus.config.rouge_n:
            raise ValueError(f"{key!r} is not enabled in this corpus")
        i = corpus.config.rouge_n.index(key)
        return [r[3 * i : 3 * i + 3] for r in corpus.segment_statistics("rouge_n")]

    return Metric("rouge_n", _mean_f, lambda stats, _: stats[:, 2], statistics=statistics)


def _ter_statistics(corpus: Scored) -> list[tuple]:
    """sacreBLEU's (edits, average reference length): the corpus keeps the lengths' sum."""
    nrefs = corpus.references
    return [(edits, ref_words / nrefs) for edits, ref_words, _ in corpus.segment_statistics("ter")]


def _chrf(rows: np.ndarray, config: ScoringConfig) -> np.ndarray:
    return row_by_row(lambda stats: chrf.f_score(stats, config.chrf))(rows)


METRICS: dict[str, Metric] = {
    "bleu": Metric(
        "bleu",
        lambda sums, _, config: bleu_scores(sums, config.bleu),
        lambda stats, config: bleu_scores(stats, config.bleu, effective_order=True),
        float32=True,
    ),
    "rougeL": Metric("rouge_l", _mean_f, lambda stats, _: stats[:, 2]),
    "rougeLsum": Metric("rouge_lsum", _mean_f, lambda stats, _: stats[:, 2]),
    "wer": Metric("wer", lambda sums, _, __: error_rates(sums), lambda stats, _: error_rates(stats), higher_is_better=False),
    "cer": Metric("cer", lambda sums, _, __: error_rates(sums), lambda stats, _: error_rates(stats), higher_is_better=False),
    "chrf": Metric("chrf", lambda sums, _, config: _chrf(sums, config), _chrf, float32=True),
    "ter": Metric(
        "ter",
        lambda sums, _, __: ter_scores(sums),
        lambda stats, _: ter_scores(stats),
        float32=True,
        higher_is_better=False,
        statistics=_ter_statistics,
    ),
    **{key: _rouge_n(key) for key in ROUGE_N},
}


# -- the tests --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Result:
    """One system's figures for one metric; ``p_value`` is None for the baseline."""

    score: float
    mean: float | None = None
    ci: float | None = None  # half the width of the 95 % confidence interval around ``mean``
    p_value: float | None = None


@dataclass(frozen=True)
class Comparison:
    test: str  # "bs" or "ar"
    n: int  # resamples or trials
    seed: int | None
    metrics: tuple[str, ...]
    results: tuple[dict[str, Result], ...]  # per system, the baseline first: metric -> result


def estimate_ci(scores: np.ndarray) -> tuple[float, float]:
    """Mean and half the 95 % interval's width, as sacreBLEU's (the 1/40th from each end)."""
    scores = np.sort(scores)
    lower = len(scores) // 40
    upper = len(scores) - lower - 1
    return float(scores.mean()), float(0.5 * (scores[upper] - scores[lower]))


def p_value(samples: np.ndarray, observed: float) -> float:
    """(samples above the observed difference + 1) / (samples + 1), as multeval and sacreBLEU."""
    return (np.sum(samples > observed).item() + 1) / (len(samples) + 1)


class _Statistics:
    """Per-segment statistics side by side (segments × columns) and what products over them need.

    ``float32`` marks the columns of metrics whose bootstrap sacreBLEU sums in float32.
    """

    def __init__(self, matrix: np.ndarray, float32: np.ndarray | None = None) -> None:
        self.matrix = matrix
        # float32 products of whole numbers (counts) are exact while every partial sum stays below
        # 2**24, and cost half as much; fractional columns (ROUGE's F) take float64, except that
        # float32 metrics' fractions (TER's average reference length) are summed as sacreBLEU does
        self.whole = np.all(matrix == np.trunc(matrix), axis=0)
        self.in_order = ~self.whole & (float32 if float32 is not None else False)
        self.fraction = ~self.whole & ~self.in_order
        self.single = matrix[:, self.whole].astype(np.float32)
        self.double = matrix[:, self.fraction]
        self.ordered = matrix[:, self.in_order].astype(np.float32)
        self.bound = float(np.abs(self.single).sum(axis=0).max(initial=0))

    def weighted(self, weights: np.ndarray) -> np.ndarray:
        """``weights @ matrix`` for non-negative whole weights (draw counts, swaps), exactly;
        the in-order columns are left to :meth:`drawn`."""
        out = np.empty((len(weights), self.matrix.shape[1]))
        if self.single.size:
            if weights.max(initial=0) * self.bound < 2**24:
                out[:, self.whole] = weights.astype(np.float32) @ self.single
            else:
                out[:, self.whole] = weights.astype(np.float64) @ self.matrix[:, self.whole]
        if self.double.size:
            out[:, self.fraction] = weights.astype(np.float64) @ self.double
        return out

    def drawn(self, idxs: np.ndarray, out: np.ndarray) -> None:
        """The in-order columns of resampled corpora summed as sacreBLEU's ``stats[idxs].sum(0)``:
        in float32, segment after segment in the order drawn."""
        if not self.ordered.size:
            return
        total = np.zeros((len(idxs), self.ordered.shape[1]), dtype=np.float32)
        for column in idxs.T:
            total += self.ordered[column]
        out[:, self.in_order] = total


def resampled_sums(rng: np.random.Generator, stats: _Statistics, samples: int) -> np.ndarray:
    """The summed statistics of ``samples`` bootstrap corpora, drawn as sacreBLEU draws them
    (``rng.choice(segments, size=(samples, segments))``): how often each segment is drawn, times
    the statistics."""
    segments = len(stats.matrix)
    out = np.empty((samples, stats.matrix.shape[1]))
    block = _block_rows(segments)
    offsets = np.arange(block)[:, None] * segments
    for start in range(0, samples, block):
        rows = min(block, samples - start)
        idxs = rng.choice(segments, size=(rows, segments), replace=True)
        counts = np.bincount((idxs + offsets[:rows]).ravel(), minlength=rows * segments).reshape(rows, segments)
        out[start : start + rows] = stats.weighted(counts)
        stats.drawn(idxs, out[start : start + rows])
    return out


def _block_rows(segments: int, multiple: int = 1) -> int:
    """How many resamples or trials of ``segments`` segments to draw at a time: see _BLOCK."""
    rows = min(_BLOCK, _BLOCK_DRAWS // max(segments, 1))
    return max(multiple, rows // multiple * multiple)


class _System:
    """One system's statistics for the compared metrics side by side, each metric's columns a slice."""

    def __init__(self, corpus: Scored, metrics: Sequence[str]) -> None:
        self.config = corpus.config
        self.segments = len(corpus)
        blocks, self.columns, self.scores = [], {}, {}
        for m in metrics:
            rows = metric_statistics(corpus, m)
            start = sum(b.shape[1] for b in blocks)
            blocks.append(np.array(rows, dtype=np.float64).reshape(self.segments, -1))
            self.columns[m] = slice(start, start + blocks[-1].shape[1])
            # summed in segment order, as the corpus sums them for its own scores; float64 as
            # sacreBLEU's Python numbers (an integer array would take a fractional smoothing value
            # as an integer, or refuse it)
            self.scores[m] = float(self.exact(m, np.array([[sum(c) for c in zip(*rows)]], dtype=np.float64))[0])
        self.stats = np.hstack(blocks)
        self.float32 = np.zeros(self.stats.shape[1], dtype=bool)
        for m, columns in self.columns.items():
            self.float32[columns] = METRICS[m].float32

    def exact(self, metric: str, sums: np.ndarray) -> np.ndarray:
        """Scores of rows of summed statistics, in float64 (exact integer sums)."""
        return METRICS[metric].corpus(sums, self.segments, self.config)

    def resampled(self, sums: np.ndarray) -> dict[str, np.ndarray]:
        """Each metric's scores of bootstrap corpora, from their summed statistics."""
        out = {}
        for m, columns in self.columns.items():
            metric = METRICS[m]
            own = sums[:, columns]
            out[m] = metric.corpus(own.astype(np.float32) if metric.float32 else own, self.segments, self.config)
        return out


def _bootstrap_scores(rng: np.random.Generator, systems: Sequence[_System], samples: int) -> list[dict[str, np.ndarray]]:
    """Each system's scores on the same ``samples`` bootstrap corpora (one draw, one product)."""
    matrix = _Statistics(np.hstack([s.stats for s in systems]), np.concatenate([s.float32 for s in systems]))
    sums = resampled_sums(rng, matrix, samples)
    width = systems[0].stats.shape[1]
    return [s.resampled(sums[:, k * width : (k + 1) * width]) for k, s in enumerate(systems)]


def bootstrap_scores(corpus: Scored, metric: str, samples: int, seed: int | None = DEFAULT_SEED) -> np.ndarray:
    """The scores of ``samples`` bootstrap resamples of one system, drawn and scored as
    sacreBLEU's ``_bootstrap_resample`` (a ``corpus_score`` with ``n_bootstrap``) does."""
    return _bootstrap_scores(np.random.default_rng(seed), [_System(corpus, [metric])], samples)[0][metric]


def paired_test(
    systems: Sequence[Scored],
    metrics: Sequence[str],
    test: str = "bs",
    n: int = 0,
    seed: int | None = DEFAULT_SEED,
    ar_confidence: int = -1,
) -> Comparison:
    """Compare ``systems[1:]`` with the baseline ``systems[0]``, as sacreBLEU's ``PairedTest``.

    ``n`` 0 means the test's default; ``ar_confidence`` is the bootstrap resamples behind
    approximate randomization's confidence intervals (-1 none, 0 the default 1,000).
    The corpora must have the same number of segments and the metrics enabled.
    """
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; one of {', '.join(TESTS)}")
    if not systems:
        raise ValueError("nothing to compare")
    if not len(systems[0]):
        raise ValueError("no segments to resample")
    if len({len(c) for c in systems}) > 1:
        raise ValueError("systems with different numbers of segments cannot be compared")
    unknown = [m for m in metrics if m not in METRICS]
    if unknown:
        raise ValueError(f"no significance test for {unknown[0]!r}; one of {', '.join(METRICS)}")
    n = n if n > 0 else DEFAULT_SAMPLES[test]
    confidence = ar_confidence if ar_confidence != 0 else DEFAULT_SAMPLES["bs"]
    baseline, *others = [_System(c, metrics) for c in systems]
    # sacreBLEU seeds the baseline's interval with the seed itself and the systems' tests with
    # ``seed if seed else None``; each test starts a generator of its own
    system_seed = seed if seed else None
    shared = test == "bs" and seed is not None and system_seed == seed

    confidence_n = n if test == "bs" else confidence
    if shared:  # every system draws the baseline's very corpora: one pass serves them all
        base_scores, *system_scores = _bootstrap_scores(np.random.default_rng(seed), [baseline, *others], n)
    elif confidence_n > 0:
        base_scores = _bootstrap_scores(np.random.default_rng(seed), [baseline], confidence_n)[0]
    else:
        base_scores = None
    results = [{m: Result(baseline.scores[m], *(estimate_ci(base_scores[m]) if base_scores else (None, None))) for m in metrics}]
    for k, system in enumerate(others):
        if test == "bs":
            if shared:
                pair = base_scores, system_scores[k]
            else:
                pair = _bootstrap_scores(np.random.default_rng(system_seed), [baseline, system], n)
            results.append(_bootstrap(baseline, system, *pair))
        else:
            results.append(_randomization(baseline, system, np.random.default_rng(system_seed), n, confidence))
    return Comparison(test, n, seed, tuple(metrics), tuple(results))


def _bootstrap(baseline: _System, system: _System, scores_bl: dict[str, np.ndarray], scores_sys: dict[str, np.ndarray]) -> dict[str, Result]:
    out = {}
    for m in system.columns:
        mean, ci = estimate_ci(scores_sys[m])
        sample_diffs = np.abs(scores_sys[m] - scores_bl[m])
        observed = abs(baseline.scores[m] - system.scores[m])
        out[m] = Result(system.scores[m], mean, ci, p_value(sample_diffs - sample_diffs.mean(), observed))
    return out


def _randomization(baseline: _System, system: _System, rng: np.random.Generator, n: int, confidence: int) -> dict[str, Result]:
    # side a = swap @ bl + ~swap @ sys = sys's total + swap @ (bl - sys); side b has the rest.
    # Exact for whole statistics; a float32 metric's fractions (TER's) take sacreBLEU's products.
    delta = _Statistics(baseline.stats - system.stats)
    sys_total = system.stats.sum(axis=0)
    both_total = baseline.stats.sum(axis=0) + sys_total
    literal = [c for m, c in system.columns.items() if METRICS[m].float32 and not _whole(baseline.stats[:, c], system.stats[:, c])]
    diffs = {m: np.empty(n) for m in system.columns}
    block = _block_rows(baseline.segments, 32)
    for start in range(0, n, block):
        rows = min(block, n - start)
        swap = rng.integers(2, size=(rows, baseline.segments), dtype=bool)  # True: side a takes the baseline's
        side_a = sys_total + delta.weighted(swap)
        side_b = both_total - side_a
        for c in literal:
            side_a[:, c] = swap @ baseline.stats[:, c] + ~swap @ system.stats[:, c]
            side_b[:, c] = ~swap @ baseline.stats[:, c] + swap @ system.stats[:, c]
        for m, columns in system.columns.items():
            diffs[m][start : start + rows] = np.abs(system.exact(m, side_a[:, columns]) - system.exact(m, side_b[:, columns]))
    scores_sys = _bootstrap_scores(rng, [system], confidence)[0] if confidence > 0 else None
    out = {}
    for m in system.columns:
        mean, ci = estimate_ci(scores_sys[m]) if scores_sys else (None, None)
        out[m] = Result(system.scores[m], mean, ci, p_value(diffs[m], abs(baseline.scores[m] - system.scores[m])))
    return out


def _whole(*blocks: np.ndarray) -> bool:
    return all(np.array_equal(b, np.trunc(b)) for b in blocks)


def metric_statistics(corpus: Scored, metric: str) -> list[tuple]:
    """Every segment's statistics for one metric."""
    if isinstance(corpus, Gathered):
        return corpus.rows[metric]
    m = METRICS[metric]
    return m.statistics(corpus) if m.statistics else corpus.segment_statistics(m.field)


def segment_scores(corpus: Scored, metric: str) -> np.ndarray:
    """Each segment's own score for ``metric`` (sentence BLEU with effective order, as the corpus's)."""
    rows = metric_statistics(corpus, metric)
    return METRICS[metric].sentence(np.array(rows, dtype=np.float64).reshape(len(rows), -1), corpus.config)


def segment_differences(baseline: Scored, system: Scored, metric: str) -> np.ndarray:
    """Per segment, ``system``'s score minus the baseline's (negative is better for WER, CER and TER)."""
    if len(baseline) != len(system):
        raise ValueError("systems with different numbers of segments cannot be compared")
    return segment_scores(system, metric) - segment_scores(baseline, metric)
