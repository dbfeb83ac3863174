"""The custom messages: ``scorelens/scores`` (pushed) and ``scorelens/report`` (requested)."""

from __future__ import annotations

import asyncio

from pygls.exceptions import JsonRpcContentModified

from ..core import rates
from ..summary import scores_dict
from .reviews import Review

SCORES = "scorelens/scores"
# Report rows built between two yields to the event loop: a few milliseconds of work.
ROWS_PER_YIELD = 500
REPORT = "scorelens/report"
# Builds of a report begun again after an edit made the one under way stale, before the
# request is answered ContentModified (a long report under continuous typing never catches up).
REPORT_ATTEMPTS = 3


def notify_scores(ls, uri: str, review: Review | None) -> None:
    if review is None or review.corpus is None:
        payload = {"uri": uri, "version": None, "references": list(review.pairing.references) if review else [], "scores": None}
    else:
        payload = {
            "uri": uri,
            "version": review.versions.get(uri),
            "references": list(review.pairing.references),
            "scores": scores_dict(review.corpus.scores()),
        }
    ls.protocol.notify(SCORES, payload)


async def report(ls, review: Review) -> dict | None:
    """Every segment's scores; None if the document changed while the report was being built."""
    corpus = review.corpus
    version = review.versions.get(review.uri)
    segments = []
    for i in range(len(corpus)):
        if i % ROWS_PER_YIELD == ROWS_PER_YIELD - 1:
            await asyncio.sleep(0)  # a 100,000-line report takes a second or more to build
            if ls.reviews.get(review.uri) is not review or review.versions.get(review.uri) != version or corpus.dirty:
                return None
        s = corpus.segment_scores(i)
        row = {
            "line": corpus.first_line(0, i),
            "hypothesis": corpus.text(0, i),
            "references": [corpus.text(k, i) for k in range(1, corpus.references + 1)],
        }
        if s.bleu is not None:
            row["bleu"] = s.bleu.score
        if s.chrf is not None:
            row["chrf"] = s.chrf.score
        if s.ter is not None:
            row["ter"] = s.ter.score
        for key, r in s.rouge_n.items():
            row[key] = r.fmeasure
        if s.rouge_l is not None:
            row["rougeL"] = s.rouge_l.fmeasure
        if s.rouge_lsum is not None:
            row["rougeLsum"] = s.rouge_lsum.fmeasure
        if s.wer is not None:
            row["wer"] = rates(s.wer).wer
            row.update(hits=s.wer.hits, substitutions=s.wer.substitutions, deletions=s.wer.deletions, insertions=s.wer.insertions)
        segments.append(row)
    return {
        "uri": review.uri,
        "version": version,
        "references": list(review.pairing.references),
        "scores": scores_dict(corpus.scores()),
        "segments": segments,
    }


async def report_for(ls, uri: str) -> dict | None:
    for _ in range(REPORT_ATTEMPTS):
        review = ls.reviews.get(uri)
        if review is None or review.corpus is None:
            return None
        await ls.settled(review)
        built = await report(ls, review)
        if built is not None:
            return built
    raise JsonRpcContentModified("the document kept changing while its report was built; ask again")


def register(server) -> None:
    @server.feature(REPORT)
    async def on_report(ls, params) -> dict | None:
        uri = params.get("uri") if isinstance(params, dict) else getattr(params, "uri", None)
        if not isinstance(uri, str):
            raise ValueError('scorelens/report needs {"uri": "<hypothesis uri>"}')
        return await report_for(ls, uri)

