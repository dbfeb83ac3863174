"""Comparing the open hypotheses that share a document's references, as ``scorelens compare``
compares files: the ``scorelens/compare`` request, the ``scorelens/compareChanged`` notification
after edits, and what the code lens and hover show of it.

The tests run off the event loop: each system's per-segment statistics are copied on the loop
(lists of tuples: 3 ms for 3,000 segments × 5 systems × BLEU, chrF and TER in bench/compare.py),
then resampled in a thread; NumPy's and the formulas' work gives the loop the interpreter back at
every switch interval, so edits and requests are served meanwhile. After edits a comparison is recomputed once the systems
have been quiet for the debounce, and told when its numbers changed.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import PurePosixPath

from pygls.exceptions import JsonRpcInvalidParams

from ..core.config import METRICS, ScoringConfig
from ..summary import HUNDREDS, comparison_dict, metric_label
from .reviews import Review

COMPARE = "scorelens/compare"
COMPARE_CHANGED = "scorelens/compareChanged"
TESTS = ("bs", "ar")  # significance.TESTS, named here so the server starts without importing NumPy
DEBOUNCE = 0.5  # seconds of quiet before a comparison is recomputed, unless scorelens.debounceMs says


def systems_of(ls, review: Review) -> list[Review]:
    """Scored hypotheses with the same references, in the same order, and the same settings."""
    return sorted(
        (
            r
            for r in ls.reviews.values()
            if r.corpus is not None and r.pairing.references == review.pairing.references and r.config == review.config
        ),
        key=lambda r: r.uri,
    )


def _group(review: Review) -> tuple:
    return tuple(review.pairing.references), review.config


@dataclass(frozen=True)
class Snapshot:
    """One system's per-segment statistics as they were: what the tests read, off the loop."""

    config: ScoringConfig
    references: int
    segments: int
    statistics: dict[str, list[tuple]]

    @classmethod
    def of(cls, corpus, fields) -> Snapshot:
        """The corpus's statistics of each Record field in ``fields``, copied (on the loop: edits change them)."""
        return cls(corpus.config, corpus.references, len(corpus), {f: corpus.segment_statistics(f) for f in fields})

    def __len__(self) -> int:
        return self.segments

    def segment_statistics(self, field: str) -> list[tuple]:
        return self.statistics[field]


def copied(corpora, layouts, metrics: list[str]) -> tuple[list[Snapshot], list[list[int]]]:
    """What the tests read, copied on the loop (edits change the corpora meanwhile): each
    system's per-segment statistics, and its first line of each segment (paragraphs of two
    systems can start on different lines)."""
    from ..core import significance

    fields = {significance.METRICS[m].field for m in metrics}
    snapshots = [Snapshot.of(c, fields) for c in corpora]
    return snapshots, [layout.first_lines() for layout in layouts]


def tested(snapshots: list[Snapshot], metrics: list[str], test: str, n: int, uris: list[str]) -> dict:
    """The tests and per-segment differences (in a thread)."""
    from ..core import significance

    comparison = significance.paired_test(snapshots, metrics, test, n, significance.DEFAULT_SEED, ar_confidence=0)
    out = comparison_dict(comparison, uris, key="uri")
    for entry, system in zip(out["systems"][1:], snapshots[1:]):
        entry["differences"] = {m: significance.segment_differences(snapshots[0], system, m).tolist() for m in metrics}
    return out


async def compare_for(ls, uri: str, baseline: str | None, test: str, n: int, chosen: list[str] | None = None) -> dict | None:
    """The comparison of ``chosen`` (default: every open system sharing ``uri``'s references)
    against ``baseline`` (default: the first of them by URI)."""
    from ..core import significance

    review = ls.reviews.get(uri)
    if review is None or review.corpus is None:
        return None
    found = systems_of(ls, review)
    for r in found:
        await ls.scheduler.settled(r)
    found = systems_of(ls, review)  # as they are now that every one is scored
    candidates = [r.uri for r in found]
    for named in ([baseline] if baseline is not None else []) + (chosen or []):
        if named not in candidates:
            raise JsonRpcInvalidParams(
                f"scorelens/compare: {named} is not an open hypothesis with the same references and settings as {uri}; "
                f"those are {', '.join(candidates)}"
            )
    if chosen is not None:
        found = [r for r in found if r.uri in chosen or r.uri == baseline]
    if baseline is None:
        baseline = found[0].uri
    ordered = [r for r in found if r.uri == baseline] + [r for r in found if r.uri != baseline]
    corpora = [r.corpus for r in ordered]
    for c in corpora:
        c.refresh()  # an edit may have come while another system was awaited
    metrics = [m for m in METRICS if m in review.config.metrics and m in significance.METRICS and not _flavoured(review.config, m)]
    out = {
        "uri": uri,
        "versions": [r.versions.get(r.uri) for r in ordered],
        "references": list(review.pairing.references),
        "candidates": candidates,
    }
    if len(ordered) < 2 or len({len(c) for c in corpora}) > 1 or not len(corpora[0]) or not metrics:
        # nothing to test yet: one system, or systems that do not line up (their own diagnostics say so)
        out.update(baseline=baseline, systems=[{"uri": r.uri} for r in ordered], lines=[])
        return out
    snapshots, lines = copied(corpora, [r.layout(0) for r in ordered], metrics)
    uris = [r.uri for r in ordered]
    out.update(await asyncio.get_running_loop().run_in_executor(None, tested, snapshots, metrics, test, n, uris))
    for entry, own in zip(out["systems"], lines):
        entry["lines"] = own
    out["lines"] = lines[0]  # the baseline's again, for clients that read only the top-level lines
    return out


def _flavoured(config: ScoringConfig, metric: str) -> bool:
    """Whether a flavour computes the metric: the paired tests resample the default
    implementations' formulas, as ``scorelens compare`` does (it refuses the flavours)."""
    return (metric == "bleu" and config.bleu_impl != "sacrebleu") or (metric.startswith("rouge") and config.rouge_impl != "rouge-score")


# -- following edits ------------------------------------------------------------------------------


class Comparisons:
    """Per group of systems (same references and settings): the latest default comparison (paired
    bootstrap against the first system by URI) and the task recomputing it."""

    def __init__(self) -> None:
        self.latest: dict[tuple, dict] = {}
        self._tasks: dict[tuple, asyncio.Task] = {}

    def rescored(self, ls, review: Review) -> None:
        """A system was re-scored: recompute its group's comparison once the systems are quiet."""
        if review.corpus is None or len(systems_of(ls, review)) < 2:
            return
        key = _group(review)
        if key in self._tasks:
            self._tasks[key].cancel()
        fixed = review.settings.debounce_ms
        delay = fixed / 1000 if fixed is not None else DEBOUNCE
        first = systems_of(ls, review)[0].uri  # the notification's uri: the baseline, whichever changed
        self._tasks[key] = asyncio.ensure_future(self._recompare(ls, first, key, delay))

    async def _recompare(self, ls, uri: str, key: tuple, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            result = await compare_for(ls, uri, None, "bs", 0)
        except Exception as exc:  # a review replaced meanwhile: its own re-score comes back here
            ls.log(f"comparison not updated: {exc}")
            return
        if result is None or "test" not in result:
            return
        old = self.latest.get(key)
        self.latest[key] = result
        if old is not None and _numbers(old) == _numbers(result):
            return
        ls.protocol.notify(COMPARE_CHANGED, result)
        if ls.client_supports("workspace", "code_lens", "refresh_support"):
            ls.workspace_code_lens_refresh(None)

    def of(self, review: Review) -> dict | None:
        return self.latest.get(_group(review))


def _numbers(result: dict) -> tuple:
    """What a change is: the systems, their numbers, differences and lines (not the documents' versions)."""
    return result["baseline"], result["systems"]


def lens_title(ls, review: Review) -> str | None:
    """``vs news.sys1.en: BLEU +1.23 (p = 0.0300)* · chrF +0.80 (p = 0.2100)`` for a system that is
    not its comparison's baseline; ``*`` marks p < 0.05."""
    result = ls.comparisons.of(review)
    if result is None or result["baseline"] == review.uri:
        return None
    systems = {s["uri"]: s for s in result["systems"]}
    if set(systems) != {r.uri for r in systems_of(ls, review)}:
        return None  # a system closed or opened since: the next comparison will say
    base, mine = systems[result["baseline"]], systems[review.uri]
    parts = []
    for m, r in mine.items():
        if m in ("uri", "differences") or not isinstance(r, dict):
            continue
        difference = r["score"] - base[m]["score"]
        value = f"{difference:+.2f}" if m in HUNDREDS else f"{difference:+.4f}"
        mark = "*" if r["p_value"] < 0.05 else ""
        parts.append(f"{metric_label(m)} {value} (p = {r['p_value']:.4f}){mark}")
    return f"vs {PurePosixPath(result['baseline']).name}: " + " · ".join(parts)


def _uris(value, what: str) -> list[str] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not value or not all(isinstance(u, str) for u in value):
        raise JsonRpcInvalidParams(f"scorelens/compare: {what} must be a non-empty list of hypothesis uris, not {value!r:.80}")
    return list(dict.fromkeys(value))


def register(server) -> None:
    @server.feature(COMPARE)
    async def on_compare(ls, params) -> dict | None:
        get = params.get if isinstance(params, dict) else lambda key, default=None: getattr(params, key, default)
        uri, baseline, test, n = get("uri"), get("baseline"), get("test", "bs"), get("n", 0)
        if not isinstance(uri, str):
            raise JsonRpcInvalidParams('scorelens/compare needs {"uri": "<hypothesis uri>"}')
        if baseline is not None and not isinstance(baseline, str):
            raise JsonRpcInvalidParams("scorelens/compare: baseline must be a hypothesis uri")
        chosen = _uris(get("systems"), "systems")
        if test not in TESTS:
            raise JsonRpcInvalidParams(f"scorelens/compare: test must be one of {', '.join(TESTS)}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise JsonRpcInvalidParams("scorelens/compare: n must be a number of resamples or trials (0: the default)")
        return await compare_for(ls, uri, baseline, test, n, chosen)
