"""Code lenses on the hypothesis's first line: corpus scores with signatures, two commands, and
for a system compared with others its difference against the baseline; on an annotator's
document, its agreement with the other annotators (:mod:`.agreement`)."""

from __future__ import annotations

from pathlib import PurePosixPath

from lsprotocol import types

from . import agreement, agreement_figures, fluency, qa
from .compare import lens_title
from .describe import short


def register(server) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    def code_lens(ls, params: types.CodeLensParams):
        uri = params.text_document.uri
        group = ls.agreements.of(uri)
        annotated = []
        if group is not None:
            yield from agreement.settling(ls, group)
            annotated = agreement_figures.lenses(ls, group, uri)
        review = ls.reviews.get(uri)
        if review is None or review.corpus is None:
            return annotated
        yield from ls.scheduler.settling(review)
        scores = review.corpus.scores()
        top = types.Range(types.Position(0, 0), types.Position(0, 0))
        # (references held in the hypothesis's own records have no document of their own to open)
        names = ", ".join(dict.fromkeys(PurePosixPath(r).name for r in review.pairing.references if r != uri))
        lenses = [
            types.CodeLens(top, types.Command(title=f"ScoreLens: {' · '.join(filter(None, (short(scores), fluency.label(review, 0), qa.label(review))))} ({scores.segments} segments)", command="scorelens.report", arguments=[uri])),
        ]
        if names:  # a document checked alone (fluency only) has no reference to open
            lenses.append(types.CodeLens(top, types.Command(title=f"Open reference beside ({names})", command="scorelens.openReference", arguments=[uri])))
        versus = lens_title(ls, review)
        if versus is not None:
            lenses.append(types.CodeLens(top, types.Command(title=versus, command="scorelens.report", arguments=[uri])))
        if "bleu" in scores.signatures:
            lenses.append(types.CodeLens(top, types.Command(title=f"BLEU {scores.signatures['bleu']}", command="scorelens.report", arguments=[uri])))
        return lenses + annotated
