"""Inlay hints for the requested lines: per-line scores, missing words, reference words.

Tooltips are filled in on ``inlayHint/resolve`` only, as they need the segment's full scores.
"""

from __future__ import annotations

from lsprotocol import types

from ..core import findings as codes
from .describe import short
from .hover import described


def _hints(ls, review, start_line: int, end_line: int) -> list[types.InlayHint]:
    corpus = review.corpus
    show = review.settings.inlay_hints
    lines = corpus.lines(0)
    hints = []
    first = corpus.segment_at(0, start_line)
    segment = first if first is not None else 0
    while segment < len(corpus) and corpus.first_line(0, segment) <= end_line:
        text = corpus.text(0, segment)
        data = {"uri": review.uri, "segment": segment}
        if show.missing_words or show.substitutions:
            for f in corpus.findings(segment):
                if f.code == codes.DELETION and show.missing_words:
                    line, col = corpus.position(0, segment, f.other_start)
                    hints.append(
                        types.InlayHint(
                            position=ls.columns.position(lines, line, col),
                            label=f"+{f.text}",
                            padding_left=f.other_start > 0,
                            padding_right=f.other_start == 0,
                            data=data,
                        )
                    )
                elif f.code == codes.SUBSTITUTION and show.substitutions:
                    line, col = corpus.position(0, segment, f.end)
                    hints.append(
                        types.InlayHint(position=ls.columns.position(lines, line, col), label=f"→{f.other_text}", padding_left=True, data=data)
                    )
        if show.line_scores:
            line, col = corpus.position(0, segment, len(text))
            if line < len(lines):
                hints.append(
                    types.InlayHint(position=ls.columns.position(lines, line, col), label=short(corpus.segment_scores(segment)), padding_left=True, data=data)
                )
        segment += 1
    return [h for h in hints if start_line <= h.position.line <= end_line]


def register(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=True))
    async def inlay_hints(ls, params: types.InlayHintParams) -> list[types.InlayHint]:
        review = ls.reviews.get(params.text_document.uri)
        if review is None or review.corpus is None:
            return []
        await ls.settled(review)
        return _hints(ls, review, params.range.start.line, params.range.end.line)

    @server.feature(types.INLAY_HINT_RESOLVE)
    def resolve(ls, hint: types.InlayHint) -> types.InlayHint:
        data = hint.data if isinstance(hint.data, dict) else {}
        review = ls.reviews.get(data.get("uri"))
        segment = data.get("segment")
        if review is not None and review.corpus is not None and isinstance(segment, int) and segment < len(review.corpus):
            hint.tooltip = described(ls, review, segment)
        return hint
