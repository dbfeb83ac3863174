"""The ``scorelens/compare`` request: the open hypotheses that share a document's references,
tested against a baseline as ``scorelens compare`` tests files."""

from __future__ import annotations

from ..core.config import METRICS
from ..summary import comparison_dict
from .reviews import Review

COMPARE = "scorelens/compare"
TESTS = ("bs", "ar")  # significance.TESTS, named here so the server starts without importing NumPy


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


async def compare_for(ls, uri: str, baseline: str | None, test: str, n: int) -> dict | None:
    from ..core import significance

    review = ls.reviews.get(uri)
    if review is None or review.corpus is None:
        return None
    found = systems_of(ls, review)
    for r in found:
        await ls.settled(r)
    found = systems_of(ls, review)  # as they are now that every one is scored
    if baseline is None:
        baseline = found[0].uri
    ordered = [r for r in found if r.uri == baseline] + [r for r in found if r.uri != baseline]
    if ordered[0].uri != baseline:
        raise ValueError(f"{baseline} is not an open hypothesis with the same references as {uri}")
    corpora = [r.corpus for r in ordered]
    for c in corpora:
        c.refresh()  # an edit may have come while another system was awaited
    metrics = [m for m in METRICS if m in review.config.metrics and m in significance.METRICS]
    out = {"uri": uri, "versions": [r.versions.get(r.uri) for r in ordered], "references": list(review.pairing.references)}
    if len(ordered) < 2 or len({len(c) for c in corpora}) > 1 or not len(corpora[0]):
        # nothing to test yet: one system, or systems that do not line up (their own diagnostics say so)
        out.update(baseline=baseline, systems=[{"uri": r.uri} for r in ordered], lines=[])
        return out
    comparison = significance.paired_test(corpora, metrics, test, n, significance.DEFAULT_SEED, ar_confidence=0)
    out.update(comparison_dict(comparison, [r.uri for r in ordered], key="uri"))
    out["lines"] = [corpora[0].first_line(0, i) for i in range(len(corpora[0]))]
    for entry, corpus in zip(out["systems"][1:], corpora[1:]):
        entry["differences"] = {m: significance.segment_differences(corpora[0], corpus, m).tolist() for m in metrics}
    return out


def register(server) -> None:
    @server.feature(COMPARE)
    async def on_compare(ls, params) -> dict | None:
        get = params.get if isinstance(params, dict) else lambda key, default=None: getattr(params, key, default)
        uri, baseline, test, n = get("uri"), get("baseline"), get("test", "bs"), get("n", 0)
        if not isinstance(uri, str):
            raise ValueError('scorelens/compare needs {"uri": "<hypothesis uri>"}')
        if baseline is not None and not isinstance(baseline, str):
            raise ValueError("scorelens/compare: baseline must be a hypothesis uri")
        if test not in TESTS:
            raise ValueError(f"scorelens/compare: test must be one of {', '.join(TESTS)}")
        if not isinstance(n, int) or n < 0:
            raise ValueError("scorelens/compare: n must be a number of resamples or trials (0: the default)")
        return await compare_for(ls, uri, baseline, test, n)
