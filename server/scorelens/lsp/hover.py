"""Hover on any line of a paired document: the segment's scores and the aligned other side."""

from __future__ import annotations

from lsprotocol import types

from .describe import segment_markdown


def register(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls, params: types.HoverParams) -> types.Hover | None:
        uri, line = params.text_document.uri, params.position.line
        for review in ls.reviews_of(uri):
            if review.corpus is None:
                continue
            await ls.settled(review)
            for side in review.sides(uri):
                segment = review.corpus.segment_at(side, line)
                if segment is not None and segment < len(review.corpus):
                    return types.Hover(
                        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=segment_markdown(review, segment))
                    )
        return None
