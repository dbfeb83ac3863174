"""The custom messages: ``scorelens/scores`` (pushed) and ``scorelens/report`` (requested)."""

from __future__ import annotations

from ..core import rates
from ..summary import scores_dict
from .reviews import Review

SCORES = "scorelens/scores"
REPORT = "scorelens/report"


def notify_scores(ls, uri: str, review: Review | None) -> None:
    if review is None or review.corpus is None:
        payload = {"uri": uri, "version": None, "references": list(review.pairing.references) if review else [], "scores": None}
    else:
        payload = {
            "uri": uri,
            "version": _version(ls, uri),
            "references": list(review.pairing.references),
            "scores": scores_dict(review.corpus.scores()),
        }
    ls.protocol.notify(SCORES, payload)


def _version(ls, uri: str) -> int | None:
    doc = ls.documents.open.get(uri)
    return doc.version if doc else None


def report(ls, review: Review) -> dict:
    corpus = review.corpus
    segments = []
    for i in range(len(corpus)):
        s = corpus.segment_scores(i)
        row = {
            "line": corpus.first_line(0, i),
            "hypothesis": corpus.text(0, i),
            "references": [corpus.text(k, i) for k in range(1, corpus.references + 1)],
        }
        if s.bleu is not None:
            row["bleu"] = s.bleu.score
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
        "version": _version(ls, review.uri),
        "references": list(review.pairing.references),
        "scores": scores_dict(corpus.scores()),
        "segments": segments,
    }


async def report_for(ls, uri: str) -> dict | None:
    review = ls.reviews.get(uri)
    if review is None or review.corpus is None:
        return None
    await ls.settled(review)
    return report(ls, review)


def register(server) -> None:
    @server.feature(REPORT)
    async def on_report(ls, params) -> dict | None:
        uri = params.get("uri") if isinstance(params, dict) else getattr(params, "uri", None)
        if not isinstance(uri, str):
            raise ValueError('scorelens/report needs {"uri": "<hypothesis uri>"}')
        return await report_for(ls, uri)

