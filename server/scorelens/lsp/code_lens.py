"""Code lenses on the hypothesis's first line: corpus scores with signatures, two commands, for a
system compared with others its difference against the baseline, and what a metric's flavour
notes about the scores (NLTK's warnings, the pairs the ``rouge`` package skips); on an annotator's
document, its agreement with the other annotators (:mod:`.agreement`)."""

from __future__ import annotations

from pathlib import PurePosixPath

from lsprotocol import types

from . import agreement, agreement_figures, fluency, qa
from .compare import lens_title
from .describe import corpus_notes, short


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
        # a flavour's numbers differ from rouge-score's, and ROUGE-W/S/SU over rouge-score's tokens
        # are no peer's: the signature says which (each key's own, with ROUGE-W's weight or ROUGE-S's
        # gap, is in the hover and the report)
        wsu = review.config.rouge_wsu if review.config.rouge_wsu_extension is not None else ()
        rouge = next((key for key in scores.signatures if key.startswith("rouge") and (review.config.rouge_flavour is not None or key in wsu)), None)
        if rouge is not None:
            lenses.append(types.CodeLens(top, types.Command(title=f"ROUGE {scores.signatures[rouge]}", command="scorelens.report", arguments=[uri])))
        for note in corpus_notes(scores):
            title = f"note: {note.split('. ', 1)[0].removesuffix('.')}"
            lenses.append(types.CodeLens(top, types.Command(title=title, command="scorelens.report", arguments=[uri], tooltip=note)))
        return lenses + annotated
