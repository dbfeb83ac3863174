"""Agreement between annotators of the same items, without a gold reference: every annotator
scored against every other one as the reference, and the segments where they disagree most.

Each directed pair's figure is what :func:`~scorelens.score` gives for that pair (and so the
peers'). Where a figure is the same both ways it is computed once per pair: jiwer's WER and CER
(one alignment, :mod:`..core.agreement`) and ROUGE-L and ROUGE-N's F-measure (precision and
recall swap, F does not); BLEU, chrF, TER and ROUGE-Lsum are scored both ways.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import permutations
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from ..core.config import AGREEMENT_METRICS as METRICS
from ..core.config import SYMMETRIC
from ..core.text import segment_spans
from ..summary import HUNDREDS
from .evaluation import evaluate
from .options import OptionError, check_choices, complete, default_implementations, metric_names, scoring_config
from .scoring import Texts, check_jobs, lines_of

if TYPE_CHECKING:  # NumPy is imported only once agreement is computed
    from ..core.agreement import Cells

# under jiwer's rules, one alignment of a pair gives both directions' rates (core.agreement)
ALIGNED_ONCE = ("wer", "cer")


@dataclass(frozen=True)
class Annotation:
    """One annotator's segments: each one's text, the 1-based line its record or text starts on in
    the annotator's file, and its id where the file has ids."""

    texts: list[str]
    lines: list[int]
    ids: list[str | None] | None = None

    @classmethod
    def of_lines(cls, lines: list[str], segmentation: str = "line") -> Annotation:
        """A file's lines (as the core takes them: an empty last line), segmented as a corpus
        segments them (a line, a blank-line separated paragraph, or the whole file)."""
        spans = segment_spans(lines, segmentation)
        return cls(["\n".join(lines[a:b]) for a, b in spans], [a + 1 for a, _ in spans])


@dataclass(frozen=True)
class Disagreement:
    """A segment the annotators disagree on: its disagreement (see :func:`agree`) and every
    annotator's text of it, in the annotators' order."""

    segment: int  # 0-based
    disagreement: float
    texts: list[str]
    lines: list[int]  # 1-based, per annotator: where the text starts in its file
    id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "segment": self.segment,
            **({"id": self.id} if self.id is not None else {}),
            "lines": self.lines,
            "disagreement": self.disagreement,
            "texts": self.texts,
        }


@dataclass(frozen=True)
class Agreement:
    """Every metric's matrix over the annotators: ``matrices[metric][i][j]`` is annotator ``j``
    scored against annotator ``i`` as the reference (None on the diagonal), on the scale
    :func:`~scorelens.score` gives it (BLEU, chrF, TER 0-100; ROUGE's F-measure, WER, CER 0-1);
    then the segments where the annotators disagree most on the first metric, the most first."""

    annotators: list[str]
    metrics: list[str]
    matrices: dict[str, list[list[float | None]]]
    signatures: dict[str, str]
    segments: int
    disagreements: list[Disagreement]
    # segments some annotator's text of which lost non-ASCII letters to rouge-score's tokenizer
    # (0 without ROUGE, or with another tokenizer), as Scores.dropped_segments counts a pair's
    dropped_segments: int = 0

    def matrix(self, metric: str) -> list[list[float | None]]:
        return self.matrices[metric]

    def mean_score(self, d: Disagreement) -> float:
        """The segment's mean sentence-level figure on the first metric, that its disagreement
        is the distance of (mean sentence BLEU for 100 minus it)."""
        from ..core.agreement import distance  # its own inverse

        return float(distance(self.metrics[0], d.disagreement))

    def to_dict(self) -> dict[str, Any]:
        """What ``scorelens agree --json`` prints (annotators named by their paths there)."""
        return {
            "annotators": self.annotators,
            "segments": self.segments,
            **self.matrices,
            "signatures": self.signatures,
            "ranked_by": self.metrics[0],
            "disagreements": [d.to_dict() for d in self.disagreements],
        }


def agree(
    annotators: Sequence[Texts],
    metrics: str | Iterable[str] = ("wer",),
    names: Sequence[str] | None = None,
    top: int = 10,
    *,
    jobs: int = 1,
    **options: Any,
) -> Agreement:
    """How far annotators of the same segments agree: each ``annotators[j]`` (a list of strings,
    one a segment, all as long) scored against each ``annotators[i]`` as the reference, for each
    of ``metrics`` (``wer`` by default; ``bleu``, ``chrf``, ``ter``, ``rougeL``, ``rougeLsum``,
    ``rouge1`` ... ``rouge9``, ``wer``, ``cer``), every figure equal to
    ``score(annotators[j], annotators[i], metric)``'s; and the ``top`` segments where they
    disagree most. A segment's disagreement is the mean, over every ordered pair of annotators,
    of its sentence-level distance on the first metric: WER, CER and TER as they are, 100 minus
    sentence BLEU (effective order) or chrF, 1 minus ROUGE's F-measure; segments where every
    annotator wrote the same have none and are not listed (nor those where the first metric
    sees no difference, e.g. WER where only spacing differs); ties keep the segments' order.
    Annotators are named by ``names`` (default ``annotator1``, ``annotator2``, ...); options as
    :func:`~scorelens.score`'s, except other implementations than the default ones. The result's
    ``to_dict()`` is what ``scorelens agree --json`` prints for the same texts as files."""
    asked = agreed_metrics(metric_names(metrics))
    o = complete(options)
    check_choices(o)
    check_jobs(jobs)
    check_options(asked, o)
    if isinstance(annotators, str) or len(annotators) < 2:
        raise OptionError("annotators", "agreement needs at least two annotators' texts")
    if names is None:
        names = [f"annotator{k}" for k in range(1, len(annotators) + 1)]
    if len(names) != len(annotators):
        raise OptionError("names", f"{len(names)} names for {len(annotators)} annotators")
    annotations = [Annotation.of_lines(lines_of(f"annotators[{k}]", texts), o["segmentation"]) for k, texts in enumerate(annotators)]
    for k, a in enumerate(annotations[1:], 1):
        if len(a.texts) != len(annotations[0].texts):
            raise ValueError(f"annotators[{k}] has {len(a.texts)} segments, annotators[0] has {len(annotations[0].texts)}")
    return agreement(annotations, list(names), asked, top, o, jobs)


def agreed_metrics(metrics: list[str]) -> list[str]:
    """The metrics, each one agreement is measured by: one that scores a text against another
    and has sentence-level figures to rank segments by."""
    other = [m for m in metrics if m not in METRICS]
    if other:
        raise OptionError("metrics", f"annotators are scored against each other by {','.join(METRICS)}, not by {other[0]}")
    return metrics


def check_options(metrics: list[str], o: dict[str, Any]) -> None:
    """The options as scoring checks them, and the default implementations only."""
    scoring_config(metrics, o)
    default_implementations(o, "agree ranks segments by")


def agreement(annotations: Sequence[Annotation], names: list[str], metrics: list[str], top: int, options: dict[str, Any], jobs: int = 1) -> Agreement:
    """The agreement of annotations lined up segment by segment, with every option (see
    :func:`.options.complete`); the first metric ranks the segments."""
    from ..core.agreement import Cells
    from ..core.scores import signatures

    if not isinstance(top, int) or isinstance(top, bool) or top < 0:
        raise OptionError("top", f"expected a number of segments, 0 or more, not {top!r}")
    if not annotations[0].texts:
        raise ValueError("no segments to compare")
    joined = options["segmentation"] != "line"
    options = {**options, "segmentation": "line"}  # the texts are segments already
    config = replace(scoring_config(metrics, options), lines_joined=joined)
    scored = Cells(metrics[0])
    fast = [m for m in metrics if m in ALIGNED_ONCE and config.wer_rules == "jiwer"]
    for metric in fast:
        _edit_rates(scored, metric, config, annotations)
    rest = [m for m in metrics if m not in fast]
    for i, j in permutations(range(len(annotations)), 2):
        # annotator j against annotator i; a symmetric figure once, from the pair's first direction
        pair = [m for m in rest if m not in SYMMETRIC or i < j]
        if pair:
            _scored_pair(scored, i, j, pair, annotations, options, jobs)
    matrices = {m: scored.matrix(m, len(names)) for m in metrics}
    return Agreement(
        names,
        metrics,
        matrices,
        {m: signatures(config, 1)[m] for m in metrics},
        len(annotations[0].texts),
        [_disagreement(annotations, k, mean) for k, mean in scored.ranked(top)],
        _dropped(config, annotations),
    )


def _dropped(config, annotations: Sequence[Annotation]) -> int:
    from ..core.tokenizers import RougeScoreTokenizer

    if config.rouge.tokenizer_name != "rouge-score" or not any(m.startswith("rouge") for m in config.metrics):
        return 0
    return sum(any(map(RougeScoreTokenizer.dropped, texts)) for texts in zip(*(a.texts for a in annotations)))


def _disagreement(annotations: Sequence[Annotation], k: int, mean: float) -> Disagreement:
    ids = annotations[0].ids
    return Disagreement(k, mean, [a.texts[k] for a in annotations], [a.lines[k] for a in annotations], ids[k] if ids is not None else None)


def _edit_rates(scored: Cells, metric: str, config, annotations: Sequence[Annotation]) -> None:
    from ..core.agreement import EditDistances

    edits = EditDistances.of(config, metric, [a.texts for a in annotations])
    for i, j in permutations(range(len(annotations)), 2):
        rates = edits.segment_rates(i, j) if metric == scored.ranking else None
        scored.put(metric, i, j, edits.rate(i, j), rates)  # equal texts: rate 0 already


def _scored_pair(scored: Cells, i: int, j: int, metrics: list[str], annotations: Sequence[Annotation], options: dict[str, Any], jobs: int) -> None:
    """Annotator j scored against annotator i, as :func:`~scorelens.score` scores them."""
    from ..core.agreement import equal_texts
    from ..core.significance import segment_scores

    ev = evaluate(annotations[j].texts + [""], [annotations[i].texts + [""]], metrics, options, jobs)
    results = ev.results()
    for metric in metrics:
        figures = getattr(results, metric)
        cell = figures.score if metric in HUNDREDS else figures.rate if metric in ("wer", "cer") else figures.fmeasure
        if metric == scored.ranking:
            scored.put(metric, i, j, cell, segment_scores(ev.corpus, metric), equal_texts(annotations[i].texts, annotations[j].texts))
        else:
            scored.put(metric, i, j, cell)
