"""Hover on any line of a paired document: the segment's scores, the aligned other side, and on a
hypothesis compared with others their outputs for the segment; on an annotator's document, the
other annotators' versions of the segment."""

from __future__ import annotations

from lsprotocol import types

from ..core.corpus import LONG_SEGMENT_CHARS, score_apart
from ..core.flavours import FLAVOUR_FAILURES
from ..core.scores import segment_scores
from ..core.segment import SegmentStatistics
from . import agreement, agreement_figures
from .compare import systems_of
from .describe import segment_description, short, systems_description
from .layout import LineMap


def markdown_hovers(ls) -> bool:
    """Whether the client lists Markdown in ``hover.contentFormat`` (eglot without markdown-mode
    and Vim ALE show Markdown raw: they get plain text)."""
    caps = ls.client_capabilities.text_document
    formats = (caps.hover.content_format if caps is not None and caps.hover is not None else None) or []
    return types.MarkupKind.Markdown in formats


def described(ls, review, segment: int, others=(), side: int = 0, annotators: str = "") -> types.MarkupContent:
    """The segment described, with the other systems' outputs and the other annotators' versions
    (``annotators``) if any."""
    markdown = markdown_hovers(ls)
    return types.MarkupContent(
        kind=types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText,
        value=segment_description(review, segment, markdown, side) + systems_description(review, others, segment, markdown) + annotators,
    )


def annotators_hover(ls, uri: str, line: int):
    """(segment, the other annotators' versions of it) for a line of an annotator's document: the
    hover of one that is not a hypothesis, and a part of the hover of one that is."""
    group = ls.agreements.of(uri)
    if group is None:
        return None
    yield from agreement.settling(ls, group)
    markdown = markdown_hovers(ls)
    scored = LineMap(ls.documents.open[uri]).scored_line(line)  # (an LSP line; the corpora have sacreBLEU's)
    return agreement_figures.description(group, uri, scored, markdown)


def while_scoring(review, uri: str, line: int) -> types.Hover:
    """A hover answered at once while the document is being scored (a first scoring of a large
    file takes seconds): how far it is, and the segment's own scores, computed apart from the
    corpus, unless the segment is long enough to take a while itself."""
    corpus = review.corpus
    done = 100 * (len(corpus) - corpus.pending) // max(len(corpus), 1)
    value = f"ScoreLens is still scoring this document ({done} % done)"
    for side in review.sides(uri):
        segment = review.layout(side).segment_at(line)
        if segment is None or segment >= len(corpus):
            continue
        texts = corpus.texts(segment)
        if max(map(len, texts)) <= LONG_SEGMENT_CHARS:
            try:
                record, _ = score_apart(corpus.config, texts)
            except FLAVOUR_FAILURES as exc:  # the re-score under way says so too
                value += f"; segment {segment + 1}: {exc}"
                break
            value += f"; segment {segment + 1}: {short(segment_scores(corpus.config, corpus.references, SegmentStatistics.of(record)))}"
        break
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.PlainText, value=value))


def register(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls, params: types.HoverParams):
        uri, line = params.text_document.uri, params.position.line
        annotated = yield from annotators_hover(ls, uri, line)
        for review in ls.reviews_of(uri):
            if review.corpus is None:
                continue
            if not ls.scheduler.settle_now(review):
                return while_scoring(review, uri, line)
            yield from ls.scheduler.settling(review)
            for side in review.sides(uri):
                segment = review.layout(side).segment_at(line)
                if segment is not None and segment < len(review.corpus):
                    others = [r for r in systems_of(ls, review) if r is not review] if side == 0 else []
                    for r in others:
                        yield from ls.scheduler.settling(r)
                    if review.corpus is None:
                        return None
                    others = [r for r in others if r.corpus is not None and len(r.corpus) == len(review.corpus)]
                    # the other annotators' versions of the same segment, under the scores
                    extra = f"\n\n{annotated[1]}" if annotated is not None and annotated[0] == segment and side == 0 else ""
                    return types.Hover(contents=described(ls, review, segment, others, side, extra))
        if annotated is None:
            return None
        segment, versions = annotated
        markdown = markdown_hovers(ls)
        strong = "**" if markdown else ""
        kind = types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText
        return types.Hover(contents=types.MarkupContent(kind=kind, value=f"{strong}ScoreLens{strong} · segment {segment + 1}\n\n{versions}"))
