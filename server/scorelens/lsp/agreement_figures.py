"""What the editor shows of a group of annotators (:mod:`.agreement`): each directed pair's
figures as ``scorelens agree`` gives them, the ``scorelens/agreement`` answer, the code lens and the
hover's other annotators."""

from __future__ import annotations

import asyncio
from itertools import permutations
from typing import TYPE_CHECKING

from lsprotocol import types

from ..core import CorpusScores, rates
from ..core.config import HUNDREDS, SYMMETRIC
from ..summary import metric_label
from ..textfile import BOM, BOM_NOTE, UnreadableText
from .compare import Snapshot
from .describe import segment_figures, short, versions_description
from .documents import ReadDocument
from .layout import LineMap

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


def _entries(annotators: Annotators) -> list[tuple[str, int, int, float]]:
    """(metric, i, j, figure of annotator j against annotator i) in the order ``scorelens agree``
    puts them (so a segment's disagreement, a mean over the pairs, is the same float); a symmetric
    figure once, from the pair's first direction."""
    found = []
    for i, j in permutations(annotators.read, 2):
        scores = annotators.corpora[i, j].scores()
        found += [(m, i, j, figure(scores, m)) for m in annotators.metrics if m not in SYMMETRIC or i < j]
    return found


def _cells(ranking: str, entries: list[tuple[str, int, int, float]], snapshots: dict | None = None, texts: dict | None = None):
    """The :class:`~scorelens.core.agreement.Cells` of the figures; with ``snapshots`` (a pair's
    statistics, :class:`.compare.Snapshot`) and ``texts`` (each annotator's segments), each
    pair's segment distances on ``ranking`` too."""
    from ..core.agreement import Cells, equal_texts

    found = Cells(ranking)
    for metric, i, j, cell in entries:
        if snapshots is not None and metric == ranking:
            found.put(metric, i, j, cell, _segment_scores(snapshots[i, j], metric), equal_texts(texts[i], texts[j]))
        else:
            found.put(metric, i, j, cell)
    return found


def _segment_scores(snapshot, metric: str):
    from ..core.significance import segment_scores

    return segment_scores(snapshot, metric)


def _ranked(ranking: str, entries: list[tuple[str, int, int, float]], snapshots: dict, texts: dict, top: int) -> list[tuple[int, float]]:
    return _cells(ranking, entries, snapshots, texts).ranked(top)


def matrices(annotators: Annotators) -> dict[str, list[list[float | None]]]:
    """Each metric's matrix: row i, column j annotator j against annotator i (None where either
    was not read)."""
    found = _cells(annotators.metrics[0], _entries(annotators))
    return {m: found.matrix(m, len(annotators.group.annotators)) for m in annotators.metrics}


def versions(ls, annotators: Annotators) -> list[int | None]:
    return [d.version if (d := ls.documents.open.get(u)) is not None else None for u in annotators.group.annotators]


def _segment_counts(annotators: Annotators) -> dict[int, int]:
    """Each annotator's number of segments (of those read)."""
    return {k: against[0][1].segment_counts()[0] for k in annotators.read if (against := annotators.against(k))}


def problems(annotators: Annotators) -> list[tuple[str | None, str]]:
    """(annotator's name or None, what is wrong): settings agreement does not follow, annotators
    not read, a leading U+FEFF scored in an annotator's first word (as ``scorelens agree`` scores
    and names it; VS Code and Neovim drop it from an open document, so the figures change when that
    file is opened), and annotators whose segments do not line up."""
    names = annotators.group.names
    found: list[tuple[str | None, str]] = [(None, what) for what in annotators.departed]
    found += [(names[annotators.group.annotators.index(u)], f"not compared: {why}") for u, why in annotators.unread]
    found += [(names[k], BOM_NOTE) for k in annotators.read if (against := annotators.against(k)) and against[0][1].text(0, 0).startswith(BOM)]
    counts = _segment_counts(annotators)
    if len(set(counts.values())) > 1:
        unit = "lines" if annotators.config.segmentation == "line" else f"{annotators.config.segmentation}s"
        listed = ", ".join(f"{names[k]} has {n}" for k, n in counts.items())
        found.append((None, f"the annotators' files do not line up ({listed} {unit}); segment i of each is the same item"))
    return found


def summary(ls, annotators: Annotators) -> dict:
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
        "matrices": matrices(annotators),
        "problems": [f"{name}: {what}" if name else what for name, what in problems(annotators)],
    }


async def report(ls, annotators: Annotators, uri: str, top: int) -> dict:
    """The ``scorelens/agreement`` answer: the summary, the signatures and the ``top`` segments
    the annotators disagree on most, with every annotator's text and first line (0-based). The
    segments are ranked in a thread, from the statistics and texts copied here (edits change them)."""
    from ..core.significance import METRICS as TESTED

    out = {**summary(ls, annotators), "uri": uri}
    read, ranking = annotators.read, annotators.metrics[0]
    out["signatures"] = {m: annotators.corpora[read[1], read[0]].scores().signatures[m] for m in annotators.metrics} if len(read) > 1 else {}
    out["ranked_by"] = ranking
    entries = _entries(annotators)
    field = TESTED[ranking].field
    snapshots = {(i, j): Snapshot.of(annotators.corpora[i, j], [field]) for m, i, j, _ in entries if m == ranking}
    # each annotator's texts and first lines: side 0 of a corpus it is the hypothesis of
    own = {k: against[0][1] for k in read if (against := annotators.against(k))}
    texts = {k: list(c.texts_of(0)) for k, c in own.items()}
    lines = {k: c.first_lines(0) for k, c in own.items()}  # of the scored lines: placed among LSP's below
    maps = {k: _line_map(ls, annotators.group.annotators[k], annotators.settings.max_file_bytes) for k in own}
    loop = asyncio.get_running_loop()
    ranked = await loop.run_in_executor(None, _ranked, ranking, entries, snapshots, texts, top)
    everyone = range(len(annotators.group.annotators))

    def line(k: int, segment: int) -> int | None:  # past the end of a shorter file: where it ends
        return None if k not in lines else maps[k].first(lines[k][segment] if segment < len(lines[k]) else lines[k][-1])

    def text(k: int, segment: int) -> str | None:  # a shorter file's missing segment is empty, as scored
        return None if k not in texts else texts[k][segment] if segment < len(texts[k]) else ""

    out["disagreements"] = [
        {"segment": segment, "lines": [line(k, segment) for k in everyone], "disagreement": mean, "texts": [text(k, segment) for k in everyone]}
        for segment, mean in ranked
    ]
    return out


def _line_map(ls, uri: str, max_bytes: int):
    """Where a document's scored lines sit among its LSP lines (the file as read, if it cannot be now: as scored)."""
    try:
        return LineMap(ls.documents.read(uri, max_bytes))
    except UnreadableText:
        return LineMap(ReadDocument([], bytearray()))


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
    versions = [(group.names[i], short(segment_figures(corpus, segment)), corpus.text(1, segment)) for i, corpus in against]
    mine = against[0][1].text(0, segment)
    return segment, versions_description("Other annotators", group.names[k], mine, versions, markdown)
