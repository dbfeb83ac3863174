"""The custom messages: ``scorelens/scores`` (pushed) and ``scorelens/report`` (requested)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from pygls.exceptions import JsonRpcContentModified, JsonRpcInvalidParams

from ..core.table import LINE, Filter, Histogram, SegmentTable, TableBuilder
from ..summary import scores_dict
from . import fluency, qa
from .reviews import Review
from .settings import PPL

SCORES = "scorelens/scores"
# Report rows built between two yields to the event loop: a few milliseconds of work.
ROWS_PER_YIELD = 500
REPORT = "scorelens/report"
# Builds of a report begun again after an edit made the one under way stale, before the
# request is answered ContentModified (a long report under continuous typing never catches up).
REPORT_ATTEMPTS = 3


def notify_scores(ls, uri: str, review: Review | None) -> None:
    if review is None or review.corpus is None:
        # no scores for the version read (a document that cannot be read), or none at all (not paired)
        version = review.versions.get(uri) if review else None
        payload = {"uri": uri, "version": version, "references": list(review.pairing.references) if review else [], "scores": None}
    else:
        scores = {**fluency.scores(review), **scores_dict(review.corpus.scores())}
        payload = {
            "uri": uri,
            "version": review.versions.get(uri),
            "references": list(review.pairing.references),
            "scores": scores,
            "change": _change(review, scores),
        }
        if review.qa is not None:  # checked against a source too: its findings, counted
            payload["qa"] = {"source": review.qa.source_uri or uri, **qa.counts(review)}
        review.announced = scores
    ls.protocol.notify(SCORES, payload)


@dataclass(frozen=True)
class RowQuery:
    """Which rows a report carries: those passing ``filters``, sorted by ``sort``, from ``offset``
    on, at most ``limit`` (None: all of them)."""

    offset: int = 0
    limit: int | None = None
    sort: str = LINE
    descending: bool = False
    filters: tuple[Filter, ...] = ()


def _get(params, key: str, default=None):
    """A field of params as pygls hands them over: dicts, or named tuples for custom methods."""
    return params.get(key, default) if isinstance(params, dict) else getattr(params, key, default)


def _count(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise JsonRpcInvalidParams(f"scorelens/report: {name} must be a whole number of rows, not {value!r:.40}")
    return value


def row_query(params) -> RowQuery:
    offset, limit = _get(params, "offset", 0), _get(params, "limit")
    sort, descending, filters = _get(params, "sort", LINE), _get(params, "descending", False), _get(params, "filters") or ()
    if not isinstance(sort, str):
        raise JsonRpcInvalidParams(f"scorelens/report: sort must be a column name, not {sort!r:.40}")
    if not isinstance(descending, bool):
        raise JsonRpcInvalidParams("scorelens/report: descending must be true or false")
    if not isinstance(filters, (list, tuple)):
        raise JsonRpcInvalidParams('scorelens/report: filters must be a list of {"key", "op", "value"}')
    parsed = []
    for f in filters:
        key, op, value = _get(f, "key"), _get(f, "op"), _get(f, "value")
        if not isinstance(key, str) or isinstance(value, bool) or not isinstance(value, (int, float)):
            raise JsonRpcInvalidParams(f'scorelens/report: a filter is {{"key": column, "op": "<" | "<=" | ">" | ">=", "value": number}}, not {f!r:.80}')
        try:
            parsed.append(Filter(key, op, float(value)))
        except ValueError as exc:
            raise JsonRpcInvalidParams(f"scorelens/report: {exc}") from None
    return RowQuery(_count(offset, "offset"), None if limit is None else _count(limit, "limit"), sort, descending, tuple(parsed))


def _table_key(review: Review) -> tuple:
    # the ppl column comes once the model answered: a table without it is not the one with it
    return tuple(sorted(review.versions.items())), fluency.current(review)


async def table(ls, review: Review) -> SegmentTable | None:
    """The review's table of its current corpus; None if the corpus changed while it was built.
    One build at a time: a request that comes while the table of the same version is being built
    (ahead, after a cold re-score, or for another request) waits for that build instead of
    computing the same segments again beside it."""
    key = _table_key(review)
    if review.table is not None and review.table_of == key:
        return review.table
    task = _building(ls, review, key)
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():
            raise  # the request itself was cancelled
        return None  # that build was replaced by one of a newer version
    return review.table if review.table_of == key else None


def _building(ls, review: Review, key: tuple) -> asyncio.Task:
    """The build of the table of version ``key``: the one under way, or a new one in place of
    one of another version."""
    task = review.table_task
    if task is None or task.done() or review.table_building != key:
        if task is not None:
            task.cancel()
        review.table_building = key
        task = review.table_task = asyncio.ensure_future(_build(ls, review, key))
    return task


async def _build(ls, review: Review, key: tuple) -> None:
    """Builds the table of version ``key``, a chunk between yields, and keeps it in the review;
    gives up if the corpus changes meanwhile."""
    if review.corpus.dirty or _table_key(review) != key:
        return  # edited since it was asked for: the build would re-score first, in one piece
    if review.tables is None:
        review.tables = TableBuilder(review.corpus.config, review.corpus.references)
    lm = review.lm if fluency.current(review) else None
    for built in review.tables.build(review.corpus, lm.sides[0] if lm is not None else None):
        if built is not None:
            review.table, review.table_of = built, key
            return
        await ls.scheduler.next_slice()
        if ls.reviews.get(review.uri) is not review or _table_key(review) != key or review.corpus.dirty:
            return


def shows_reports(capabilities) -> bool:
    """Whether the client says it shows reports: ``experimental: {"scorelens": {"report": true}}``
    in its capabilities (the VS Code extension does)."""
    experimental = getattr(capabilities, "experimental", None)
    declared = experimental.get("scorelens") if isinstance(experimental, dict) else None
    return isinstance(declared, dict) and declared.get("report") is True


def prepare_soon(ls, review: Review) -> None:
    """After a cold re-score, build the report's table in the background (a 1,000,000-segment
    one takes half a second of a core), so a report opened later paints at once; after an edit
    the next table re-uses it for the segments the edit left alone. Only for a client that shows
    reports or has asked for one: for others, that time after each open and each Enter (and the
    table's arrays, 32 MB on 1,000,000 segments) would go to a table no one reads."""
    if not ls.reports_wanted:
        return
    key = _table_key(review)
    if review.table_of != key:
        _building(ls, review, key)


def _row(corpus, layout, t: SegmentTable, i: int) -> dict:
    row = {
        "line": layout.first_line(i),
        **({"id": layout.id(i)} if layout.id(i) is not None else {}),
        "hypothesis": corpus.text(0, i),
        "references": [corpus.text(k, i) for k in range(1, corpus.references + 1)],
    }
    for metric, values in t.columns.items():
        value = float(values[i])
        row[metric] = value if value == value else None  # (NaN: no value, see core.table)
    if t.edits is not None:
        wer = corpus.statistics(i).wer
        row.update(hits=wer.hits, substitutions=wer.substitutions, deletions=wer.deletions, insertions=wer.insertions)
    return row


def _headline(key: str, figures: dict) -> float:
    """The one number of a metric in a scores payload: score, F-measure or error rate."""
    if key == PPL:
        return figures["perplexity"]
    return figures["score"] if "score" in figures else figures["fmeasure"] if "fmeasure" in figures else figures[key]


def _change(review: Review, scores: dict) -> dict | None:
    """What the edits of the line edited last did to each corpus score, on the payload's scales."""
    before = review.before_edit
    if before is None or not review.edits:
        return None
    side, line = review.edits[0]
    return {
        "uri": review.uri if side == 0 else review.pairing.references[side - 1],
        "line": line,
        "scores": {
            key: _headline(key, figures) - _headline(key, before[key])
            for key, figures in scores.items()
            if isinstance(figures, dict) and isinstance(before.get(key), dict)
            and None not in (_headline(key, figures), _headline(key, before[key]))  # a perplexity without segments
        },
    }


async def report(ls, review: Review, query: RowQuery) -> dict | None:
    """The summary, histograms and the rows asked for; None if the document changed meanwhile."""
    t = await table(ls, review)
    if t is None:
        return None
    corpus = review.corpus
    key = _table_key(review)
    try:
        order = t.select(query.sort, query.descending, query.filters)
    except ValueError as exc:
        raise JsonRpcInvalidParams(f"scorelens/report: {exc}") from None
    stop = len(order) if query.limit is None else min(len(order), query.offset + query.limit)
    segments = []
    for n, i in enumerate(order[query.offset : stop].tolist()):
        if n % ROWS_PER_YIELD == ROWS_PER_YIELD - 1:
            await ls.scheduler.next_slice()  # every row of 100,000 segments takes a second or more
            if ls.reviews.get(review.uri) is not review or _table_key(review) != key or corpus.dirty:
                return None
        segments.append(_row(corpus, review.layout(0), t, i))
    return {
        "uri": review.uri,
        "version": review.versions.get(review.uri),
        "references": list(review.pairing.references),
        "scores": {**fluency.scores(review), **scores_dict(corpus.scores())},
        "histograms": {m: _histogram(h) for m, h in t.histograms().items()},
        "columns": t.keys,
        "sort": query.sort,
        "descending": query.descending,
        "total": len(order),
        "offset": query.offset,
        "segments": segments,
    }


def _histogram(h: Histogram) -> dict:
    found = {"bins": h.bins, "total": h.total, "mean": h.mean}
    if h.edges is not None:
        found.update(scale=h.scale, edges=h.edges)
    return found


async def report_for(ls, uri: str, query: RowQuery = RowQuery()) -> dict | None:
    ls.reports_wanted = True
    for _ in range(REPORT_ATTEMPTS):
        review = ls.reviews.get(uri)
        if review is None or review.corpus is None:
            return None
        await ls.scheduler.settled(review)
        await fluency.settled(ls, review)
        built = await report(ls, review, query)
        if built is not None:
            return built
    raise JsonRpcContentModified("the document kept changing while its report was built; ask again")


def register(server) -> None:
    server.reports_wanted = False  # whether the client shows reports or has asked for one

    @server.feature(REPORT)
    async def on_report(ls, params) -> dict | None:
        uri = _get(params, "uri")
        if not isinstance(uri, str):
            raise ValueError('scorelens/report needs {"uri": "<hypothesis uri>"}')
        return await report_for(ls, uri, row_query(params))

