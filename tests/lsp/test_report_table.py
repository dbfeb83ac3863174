"""The report's table in the server's process (no client): one build at a time, so a report asked
for while the table is being built ahead (after a cold re-score) waits for that build instead of
computing the same segments beside it: after an Enter in a 100,000-line file, the 50,000
re-paired segments' formulas, twice, on the two cores the editor needed."""

from __future__ import annotations

import asyncio
import gc

from test_hint_pieces import _review

from scorelens.core.table import TableBuilder
from scorelens.lsp import report


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
