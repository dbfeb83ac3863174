"""The report's table in the server's process (no client): one build at a time, so a report asked
for while the table is being built ahead (after a cold re-score) waits for that build instead of
computing the same segments beside it: after an Enter in a 100,000-line file, the 50,000
re-paired segments' formulas, twice, on the two cores the editor needed."""

from __future__ import annotations

import asyncio
import gc
from types import SimpleNamespace

from test_hint_pieces import _review as _plain_review

from scorelens.core.table import TableBuilder
from scorelens.lsp import report


def _review():
    """A review, in a server whose client shows reports (as the VS Code extension says it does)."""
    ls, review = _plain_review()
    ls.reports_wanted = True
    return ls, review


def test_the_table_is_built_ahead_only_for_a_client_that_shows_reports_or_has_asked_for_one():
    # For a client without reports (Neovim, Helix…), the table built after each cold re-score was
    # 0.5-0.9 s of a core after every open and 0.6 s after every Enter in a 100,000-line file.
    ls, review = _plain_review()
    ls.reports_wanted = report.shows_reports(SimpleNamespace(experimental=None))

    async def nothing(*args):
        return None

    ls.scheduler.settled = nothing

    async def ahead_then_asked():
        report.prepare_soon(ls, review)  # as after a cold re-score
        built_ahead = review.table_task
        answer = await report.report_for(ls, review.uri, report.RowQuery(limit=0))
        return built_ahead, answer

    try:
        built_ahead, answer = asyncio.run(ahead_then_asked())
    finally:
        gc.unfreeze()
    assert built_ahead is None
    assert answer["total"] == len(review.corpus)
    assert ls.reports_wanted  # asked for once: built ahead from now on


def test_a_client_shows_reports_when_its_experimental_capabilities_say_so():
    assert report.shows_reports(SimpleNamespace(experimental={"scorelens": {"report": True}}))
    for experimental in (None, {}, {"scorelens": True}, {"scorelens": {"report": "yes"}}, ["scorelens"]):
        assert not report.shows_reports(SimpleNamespace(experimental=experimental))


def test_a_report_asked_for_while_the_table_is_built_ahead_waits_for_that_build(monkeypatch):
    ls, review = _review()
    builds = []
    build = TableBuilder.build
    monkeypatch.setattr(TableBuilder, "build", lambda self, *args: builds.append(1) or build(self, *args))

    async def ahead_then_asked():
        report.prepare_soon(ls, review)  # as after a cold re-score
        await asyncio.sleep(0)  # the build has begun
        return await report.table(ls, review), await report.table(ls, review)

    try:
        first, again = asyncio.run(ahead_then_asked())
    finally:
        gc.unfreeze()
    assert first is not None and again is first and len(first) == len(review.corpus)
    assert len(builds) == 1


def test_a_build_of_an_older_version_gives_way_to_the_newer_one(monkeypatch):
    ls, review = _review()

    async def ahead_edited_then_asked():
        report.prepare_soon(ls, review)
        await asyncio.sleep(0)
        review.corpus.replace_lines(0, 3, 4, ["an edited line"])
        review.versions[review.uri] = 2  # what the server does on didChange
        review.corpus.refresh()
        return await report.table(ls, review)

    try:
        table = asyncio.run(ahead_edited_then_asked())
    finally:
        gc.unfreeze()
    assert table is not None and review.table_of == report._table_key(review)
    assert table.columns["bleu"][3] == review.corpus.segment_scores(3).bleu.score
