"""Systems against a baseline on the same references: sacreBLEU's paired significance tests over
ScoreLens's per-segment statistics, and the segments where the best system differs most."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from ..summary import comparison_dict
from .evaluation import Evaluation
from .options import DEFAULT_METRICS, OptionError, complete, default_implementations, metric_names
from .scoring import Texts, evaluation_of

if TYPE_CHECKING:  # significance imports NumPy, which only comparing needs
    from ..core.significance import Comparison, Scored

TESTS = ("bs", "ar")


@dataclass(frozen=True)
class Highlight:
    """A segment where a system differs most from the baseline on one metric."""

    line: int  # 1-based, in the system's lines
    difference: float
    baseline: float
    system: float
    baseline_text: str
    system_text: str


@dataclass(frozen=True)
class Highlights:
    system: int  # index into the compared systems
    metric: str
    improved: list[Highlight]
    regressed: list[Highlight]


@dataclass(frozen=True)
class Compared:
    """A comparison's results: each system (the baseline first) named, its paired test, the segments."""

    names: list[str]
    comparison: Comparison
    highlights: Highlights | None

    def to_dict(self) -> dict[str, Any]:
        """What ``scorelens compare --json`` prints (systems named by ``path``)."""
        out = comparison_dict(self.comparison, self.names)
        found = self.highlights
        if found is not None:
            out["segments"] = {
                "system": self.names[found.system],
                "metric": found.metric,
                **{
                    key: [
                        {"line": h.line, "difference": h.difference, "baseline": h.baseline, "system": h.system}
                        for h in items
                    ]
                    for key, items in (("improved", found.improved), ("regressed", found.regressed))
                },
            }
        return out


# every resample's scores are kept for the intervals: a million is 8 MB a metric and system
MAX_SAMPLES = 1_000_000


def compare(
    baseline: Texts,
    systems: Sequence[Texts],
    references: Texts | Sequence[Texts],
    metrics: str | Iterable[str] = DEFAULT_METRICS,
    *,
    test: str = "bs",
    n: int = 0,
    seed: int | None = 12345,
    segments: int = 3,
    names: Sequence[str] | None = None,
    jobs: int = 1,
    **options: Any,
) -> dict[str, Any]:
    """Each system against the baseline: every metric's score, the mean and 95 % confidence
    interval of its resamples, and the p-value of sacreBLEU 2.x's paired bootstrap resampling
    (``test="bs"``, ``n`` resamples, default 1,000) or approximate randomization (``"ar"``,
    default 10,000 trials), seeded as sacreBLEU's ``SACREBLEU_SEED`` (12345; None for a random
    one); then the ``segments`` most improved and most regressed segments of the best system.
    Systems are named by ``names`` (default ``baseline``, ``system1``, ...). Returns what
    ``scorelens compare --json`` prints; options as :func:`~scorelens.score`."""
    tested = tested_metrics(metric_names(metrics))
    tested_options(complete(options))
    systems = list(systems)  # a generator of systems too (a string becomes strings, refused here)
    if any(isinstance(texts, str) for texts in systems):
        # one system's texts where a list of systems is expected: scorelens.compare(hyps, [sys2], refs)
        raise OptionError("systems", "expected a list of systems, each a list of texts (one system: [texts])")
    checked_arguments(1 + len(systems), names, test, n, seed, segments)
    if names is None:
        names = ["baseline", *(f"system{i}" for i in range(1, len(systems) + 1))]
    sides = ["baseline", *(f"systems[{i}]" for i in range(len(systems)))]
    evaluations = [evaluation_of(texts, references, tested, jobs, options, side) for texts, side in zip((baseline, *systems), sides)]
    return compared(evaluations, list(names), tested, test, n, seed, segments).to_dict()


def tested_metrics(metrics: list[str]) -> list[str]:
    """The metrics, each one a paired test exists for."""
    from ..core import significance

    untested = [m for m in metrics if m not in significance.METRICS]
    if untested:
        raise OptionError("metrics", f"compare has no significance test for {untested[0]}; choose from {','.join(significance.METRICS)}")
    return metrics


def tested_options(o: dict[str, Any]) -> None:
    """The paired tests resample the default implementations' formulas, not a flavour's."""
    default_implementations(o, "compare tests")


def compared(
    evaluations: list[Evaluation], names: list[str], metrics: list[str], test: str, n: int, seed: int | None, segments: int
) -> Compared:
    """The paired test over scored evaluations (the baseline first) and the segments that changed most."""
    corpora = [ev.corpus for ev in evaluations]

    def described(system: int, segments: list[int]) -> list[tuple[int, str]]:
        ev = evaluations[system]
        return [(ev.first_line(i) + 1, ev.corpus.text(0, i)) for i in segments]

    return compared_corpora(corpora, names, metrics, test, n, seed, segments, described)


def checked_arguments(systems: int, names: Sequence[str] | None, test: str, n: int, seed: int | None, segments: int) -> None:
    """compare's arguments besides the texts, checked before any scoring; ``systems`` counts the baseline."""
    if test not in TESTS:
        raise OptionError("test", f"unknown test {test!r}; one of {', '.join(TESTS)}")
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_SAMPLES:
        raise OptionError("n", f"expected 0 (the test's default) to {MAX_SAMPLES:,} resamples or trials, not {n!r}")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise OptionError("seed", f"expected None (a random seed) or a number, 0 or more, not {seed!r}")
    if not isinstance(segments, int) or isinstance(segments, bool) or segments < 0:
        raise OptionError("segments", f"expected a number of segments, 0 or more, not {segments!r}")
    if systems < 2:
        raise OptionError("systems", "compare needs a baseline and at least one system")
    if isinstance(names, str):  # its letters would name the systems
        raise OptionError("names", f"expected a list of names (the baseline's first), not a string: {names!r}")
    if names is not None and len(names) != systems:
        raise OptionError("names", f"{len(names)} names for {systems} systems (the baseline included)")


def compared_corpora(
    corpora: Sequence[Scored],
    names: list[str],
    metrics: list[str],
    test: str,
    n: int,
    seed: int | None,
    segments: int,
    described: Callable[[int, list[int]], list[tuple[int, str]]],
) -> Compared:
    """:func:`compared` of each system's segment statistics, wherever they were computed:
    ``described(system, segments)`` gives each of those segments' first line (1-based) and
    hypothesis, for the highlights."""
    from ..core import significance

    checked_arguments(len(corpora), names, test, n, seed, segments)
    if not len(corpora[0]):
        raise ValueError("no segments to compare")
    # confidence intervals under randomization too (sacreBLEU's n_ar_confidence), as the table shows them
    comparison = significance.paired_test(corpora, metrics, test, n, seed, ar_confidence=0)
    return Compared(names, comparison, highlights(corpora, comparison, segments, described))


def highlights(
    corpora: Sequence[Scored], comparison: Comparison, count: int, described: Callable[[int, list[int]], list[tuple[int, str]]]
) -> Highlights | None:
    """The segments where the best system (on the first metric) most improves and most regresses."""
    import numpy as np

    from ..core import significance

    if count == 0:
        return None
    metric = comparison.metrics[0]
    sign = 1 if significance.METRICS[metric].higher_is_better else -1
    scores = [r[metric].score for r in comparison.results]
    best = max(range(1, len(scores)), key=lambda i: sign * scores[i])
    base_scores = significance.segment_scores(corpora[0], metric)
    system_scores = significance.segment_scores(corpora[best], metric)
    gains = sign * (system_scores - base_scores)
    order = np.argsort(-gains, kind="stable")
    improved = [int(i) for i in order[:count] if gains[i] > 0]
    regressed = [int(i) for i in order[::-1][:count] if gains[i] < 0]
    picked = improved + regressed
    texts = dict(zip(picked, zip(described(best, picked), (text for _, text in described(0, picked)))))

    def highlight(i: int) -> Highlight:
        (line, text), baseline_text = texts[i]
        return Highlight(line, float(system_scores[i] - base_scores[i]), float(base_scores[i]), float(system_scores[i]), baseline_text, text)

    return Highlights(best, metric, [highlight(i) for i in improved], [highlight(i) for i in regressed])
