"""What the editor shows of a group of annotators (:mod:`.agreement`): each directed pair's
figures as ``scorelens agree`` gives them, the ``scorelens/agreement`` answer, the code lens and the
hover's other annotators."""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

from lsprotocol import types

from ..core import CorpusScores, rates
from ..core.config import HUNDREDS, SYMMETRIC
from ..summary import metric_label
from .describe import short, versions_description

if TYPE_CHECKING:
    from .agreement import Annotators



def figure(scores: CorpusScores, metric: str) -> float:
    """A metric's one figure, on the scale ``scorelens agree`` gives it (BLEU, chrF, TER 0-100;
    ROUGE's F-measure, WER, CER 0-1)."""
    if metric in ("wer", "cer"):
        return rates(getattr(scores, metric)).wer
    if metric in HUNDREDS:
        return getattr(scores, metric).score
    rouge = {"rougeL": scores.rouge_l, "rougeLsum": scores.rouge_lsum}.get(metric) or scores.rouge_n[metric]
    return rouge.fmeasure


def cells(annotators: Annotators, ranked: bool = False):
    """The matrices' cells (:class:`~scorelens.core.agreement.Cells`), each directed pair in the
    order ``scorelens agree`` takes them (so a segment's disagreement is the same float); with
    ``ranked``, each pair's segment distances on the first metric too."""
    from ..core.agreement import Cells
    from ..core.significance import segment_scores

    ranking = annotators.metrics[0]
    found = Cells(ranking)
    for i, j in permutations(annotators.read, 2):
        corpus = annotators.corpora[i, j]
        scores = corpus.scores()
        for metric in annotators.metrics:
            if metric in SYMMETRIC and i > j:
                continue  # put both ways from the pair's first direction, as agree does
            segments = segment_scores(corpus, metric) if ranked and metric == ranking else None
            found.put(metric, i, j, figure(scores, metric), segments)
    return found


def matrices(annotators: Annotators, found=None) -> dict[str, list[list[float | None]]]:
    """Each metric's matrix: row i, column j annotator j against annotator i (None where either
    was not read); from ``found`` cells if given."""
    found = found if found is not None else cells(annotators)
    return {m: found.matrix(m, len(annotators.group.annotators)) for m in annotators.metrics}


def versions(ls, annotators: Annotators) -> list[int | None]:
    return [d.version if (d := ls.documents.open.get(u)) is not None else None for u in annotators.group.annotators]


def _segment_counts(annotators: Annotators) -> dict[int, int]:
    """Each annotator's number of segments (of those read)."""
    return {k: against[0][1].segment_counts()[0] for k in annotators.read if (against := annotators.against(k))}


def problems(annotators: Annotators) -> list[tuple[str | None, str]]:
    """(annotator's name or None, what is wrong): annotators not read, and annotators whose
    segments do not line up."""
    names = annotators.group.names
    found: list[tuple[str | None, str]] = [(names[annotators.group.annotators.index(u)], f"not compared: {why}") for u, why in annotators.unread]
    counts = _segment_counts(annotators)
    if len(set(counts.values())) > 1:
        unit = "lines" if annotators.config.segmentation == "line" else f"{annotators.config.segmentation}s"
        listed = ", ".join(f"{names[k]} has {n}" for k, n in counts.items())
        found.append((None, f"the annotators' files do not line up ({listed} {unit}); segment i of each is the same item"))
    return found


def summary(ls, annotators: Annotators, found=None) -> dict:
    """What ``scorelens/agreementChanged`` carries: the group, its versions and matrices."""
    group = annotators.group
    counts = _segment_counts(annotators)
    return {
        "uri": group.annotators[0],
        "annotators": list(group.annotators),
        "names": list(group.names),
        "rule": group.rule,
        "versions": versions(ls, annotators),
        "segments": max(counts.values(), default=0),
        "metrics": annotators.metrics,
        "matrices": matrices(annotators, found),
        "problems": [f"{name}: {what}" if name else what for name, what in problems(annotators)],
    }


def report(ls, annotators: Annotators, uri: str, top: int) -> dict:
    """The ``scorelens/agreement`` answer: the summary, the signatures and the ``top`` segments
    the annotators disagree on most, with every annotator's text and first line (0-based)."""
    found = cells(annotators, ranked=True)
    out = {**summary(ls, annotators, found), "uri": uri}
    read = annotators.read
    out["signatures"] = {m: annotators.corpora[read[1], read[0]].scores().signatures[m] for m in annotators.metrics} if len(read) > 1 else {}
    out["ranked_by"] = annotators.metrics[0]
    own = {k: against[0][1] for k in read if (against := annotators.against(k))}  # k's text is side 0 of these
    everyone = range(len(annotators.group.annotators))
    out["disagreements"] = [
        {
            "segment": segment,
            "lines": [own[k].first_line(0, segment) if k in own else None for k in everyone],
            "disagreement": mean,
            "texts": [own[k].text(0, segment) if k in own else None for k in everyone],
        }
        for segment, mean in found.ranked(top)
    ]
    return out


# -- what the editor shows -----------------------------------------------------------------------


def _value(metric: str, x: float) -> str:
    if metric in ("wer", "cer"):
        return f"{100 * x:.1f} %"
    return f"{x:.1f}" if metric in HUNDREDS else f"{x:.3f}"


def lenses(ls, annotators: Annotators, uri: str) -> list[types.CodeLens]:
    """``Agreement: WER vs ann2 12.3 % · vs ann3 8.1 %`` per metric, the document as the
    hypothesis and each other annotator as the reference; then each problem."""
    top = types.Range(types.Position(0, 0), types.Position(0, 0))
    group = annotators.group
    k = group.annotators.index(uri)

    def lens(title: str) -> types.CodeLens:
        return types.CodeLens(top, types.Command(title=f"Agreement: {title}", command="scorelens.agreement", arguments=[uri]))

    found = []
    if k in annotators.read and len(annotators.read) > 1:
        figures = matrices(annotators)
        others = [i for i in annotators.read if i != k]
        for metric in annotators.metrics:
            parts = [f"vs {group.names[i]} {_value(metric, figures[metric][i][k])}" for i in others]
            found.append(lens(f"{metric_label(metric)} " + " · ".join(parts)))
    found += [lens(f"{name}: {what}" if name else what) for name, what in problems(annotators)]
    return found


def description(annotators: Annotators, uri: str, line: int, markdown: bool) -> tuple[int, str] | None:
    """(segment, the other annotators' versions of it) for a line of an annotator's document."""
    group = annotators.group
    k = group.annotators.index(uri)
    against = annotators.against(k) if k in annotators.read else []
    if not against:
        return None
    segment = against[0][1].segment_at(0, line)
    if segment is None:
        return None
    versions = [(group.names[i], short(corpus.segment_scores(segment)), corpus.text(1, segment)) for i, corpus in against]
    mine = against[0][1].text(0, segment)
    return segment, versions_description("Other annotators", group.names[k], mine, versions, markdown)
