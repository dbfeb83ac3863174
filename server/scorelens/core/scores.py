"""Scores from summed sufficient statistics: each metric's corpus formula over the sums of its
per-segment statistics, as sacreBLEU's metrics compute a corpus score from summed statistics.

The sums of two corpora added are the sums of their concatenation, so the same formula gives the
corpus of an edited document (:class:`~.corpus.Corpus`) and the corpus of partitions scored apart
(the API's ``Statistics``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter
from typing import TYPE_CHECKING, Mapping, Sequence

from . import bleu, chrf, rouge, ter, wer
from .config import ScoringConfig
from .flavours import FLAVOUR_FAILURES
from .segment import Record, SegmentStatistics

if TYPE_CHECKING:
    from .rouge155_average import Average


@dataclass(frozen=True, slots=True)
class Totals:
    bleu: list[float]
    rouge_l: tuple[float, float, float]
    rouge_lsum: tuple[float, float, float]
    wer: wer.ErrorCounts
    cer: wer.ErrorCounts
    dropped: int
    differing: int  # segments with at least one finding
    rouge_n: tuple[float, ...] = ()  # summed (P, R, F) of each enabled ROUGE-N, shortest n first
    chrf: list[int] | None = None
    ter: tuple[int, int, int] | None = None  # num_edits, ref_words, shifts


@dataclass(frozen=True, slots=True)
class CorpusScores:
    segments: int
    bleu: bleu.BleuScore | None
    rouge_l: rouge.RougeScore | None
    rouge_lsum: rouge.RougeScore | None
    wer: wer.ErrorCounts | None
    cer: wer.ErrorCounts | None
    dropped_segments: int
    signatures: dict[str, str]
    rouge_n: dict[str, rouge.RougeScore] = field(default_factory=dict)  # "rouge1": ..., enabled ones only
    chrf: chrf.ChrfScore | None = None
    ter: ter.TerScore | None = None
    rouge_wsu: dict[str, rouge.RougeScore] = field(default_factory=dict)  # "rougeW", "rougeS", "rougeSU": enabled ones
    rouge_skipped: int = 0  # pairs ROUGE's flavour left out of its mean (the rouge package's)


@dataclass(frozen=True, slots=True)
class SegmentScores:
    """One segment's own figures: sentence BLEU (effective order on), ROUGE, WER counts, sentence chrF.

    BLEU is None, and ``refused`` says why, where its flavour's oracle fails on the segment
    (NLTK's ``sentence_bleu`` with method6 asserts without a 3-gram match): that segment alone
    has no figure, as a loop calling NLTK would lose that call alone."""

    bleu: bleu.BleuScore | None
    rouge_l: rouge.RougeScore | None
    rouge_lsum: rouge.RougeScore | None
    wer: wer.ErrorCounts | None
    cer: wer.ErrorCounts | None
    rouge_n: dict[str, rouge.RougeScore] = field(default_factory=dict)
    chrf: chrf.ChrfScore | None = None
    ter: ter.TerScore | None = None
    rouge_wsu: dict[str, rouge.RougeScore] = field(default_factory=dict)
    refused: str | None = None


def corpus_scores(
    config: ScoringConfig,
    nrefs: int,
    sums: Mapping[str, Sequence],
    n: int,
    dropped: int,
    records: Sequence[Record] | None = None,
    running: Average | None = None,
) -> CorpusScores:
    """Corpus scores from the summed statistics (keyed by :class:`~.segment.Record` field, enabled
    metrics only) of ``n`` segments against ``nrefs`` references; ROUGE is the mean of its per-pair
    scores, as rouge-score's users average them. ``records``, the segments' own, only where
    :func:`needs_records` says a flavour reads more than sums (see :mod:`.flavours`); ``running``,
    ROUGE's flavour's average where the caller keeps it (and ``records`` need not serve it)."""
    metrics = config.metrics
    mean = (lambda totals: rouge.RougeScore(*(x / n for x in totals))) if n else (lambda totals: rouge.ZERO)
    flavour = config.rouge_flavour
    if flavour is not None:
        rouge_scores = flavour.corpus(sums, n, records) if running is None else flavour.corpus(sums, n, records, running)
    else:
        rouge_scores = {key: mean(sums["rouge_n"][3 * i : 3 * i + 3]) for i, key in enumerate(config.rouge_n)}
        for key, field_ in (("rougeL", "rouge_l"), ("rougeLsum", "rouge_lsum")):
            if key in metrics:
                rouge_scores[key] = mean(sums[field_])
        if config.rouge_wsu_extension is not None:
            rouge_scores.update(config.rouge_wsu_extension.corpus(sums, n))
    return CorpusScores(
        segments=n,
        bleu=_bleu(config, sums, records) if "bleu" in metrics else None,
        rouge_l=rouge_scores.get("rougeL"),
        rouge_lsum=rouge_scores.get("rougeLsum"),
        wer=wer.ErrorCounts(*sums["wer"]) if "wer" in metrics else None,
        cer=wer.ErrorCounts(*sums["cer"]) if "cer" in metrics else None,
        dropped_segments=dropped,
        signatures=dict(signatures(config, nrefs)),
        rouge_n={key: rouge_scores[key] for key in config.rouge_n},
        chrf=chrf.score(sums["chrf"], config.chrf) if "chrf" in metrics else None,
        ter=ter.score(sums["ter"], nrefs) if "ter" in metrics else None,
        rouge_wsu={key: rouge_scores[key] for key in config.rouge_wsu},
        rouge_skipped=sums["rouge_skipped"][0] if "rouge_skipped" in sums else 0,
    )


def needs_records(config: ScoringConfig, running: bool = False) -> bool:
    """Whether the corpus figures read the segments' records besides their sums (and besides
    ROUGE's flavour's average, with ``running``: the caller keeps that)."""
    flavour = config.bleu_flavour
    if "bleu" in config.metrics and flavour is not None and flavour.needs_last:
        return True
    return not running and config.rouge_flavour is not None and config.rouge_flavour.needs_records


def _bleu(config: ScoringConfig, sums: Mapping[str, Sequence], records: Sequence[Record] | None):
    flavour = config.bleu_flavour
    if flavour is None:
        return bleu.score(sums["bleu"], config.bleu)
    last = records[-1].bleu_last if flavour.needs_last and records else None
    return flavour.score(sums["bleu"], last)


def segment_scores(config: ScoringConfig, nrefs: int, st: SegmentStatistics) -> SegmentScores:
    """One segment's own scores from its statistics: sentence BLEU (effective order on; a flavour's
    own sentence score), sentence chrF and TER, the pair's ROUGE, its WER counts."""
    bleu_score, refused = _sentence_bleu(config, st.bleu, st.bleu_last) if st.bleu is not None else (None, None)
    chrf_score = chrf.score(st.chrf, config.chrf) if st.chrf is not None else None
    return SegmentScores(
        bleu=bleu_score,
        rouge_l=st.rouge_l,
        rouge_lsum=st.rouge_lsum,
        wer=st.wer,
        cer=st.cer,
        rouge_n=dict(zip(config.rouge_n, st.rouge_n or ())),
        chrf=chrf_score,
        ter=ter.score(st.ter, nrefs) if st.ter is not None else None,
        rouge_wsu=dict(zip(config.rouge_wsu, st.rouge_wsu or ())),
        refused=refused,
    )


def segment_score_columns(config: ScoringConfig, nrefs: int, records: Sequence[Record]) -> dict[str, list]:
    """Every segment's own scores, a list per enabled metric key (``"bleu"``, ``"chrf"``, ``"ter"``,
    ``"rougeL"``, ``"rougeLsum"``, ``"rouge2"``, ``"rougeW"``, ``"wer"``, ``"cer"``), in segment
    order: :func:`segment_scores` of each record (the same figures, None where BLEU is refused), made
    a column at a time, with no per-segment object beyond each figure's (sentence BLEU and chrF in
    numpy)."""
    metrics = config.metrics
    columns: dict[str, list] = {}
    if "bleu" in metrics:
        flavour = config.bleu_flavour
        if flavour is None:
            columns["bleu"] = bleu.sentence_figures([r.bleu for r in records], config.bleu)
        else:
            columns["bleu"] = [_sentence_bleu(config, list(r.bleu), r.bleu_last)[0] for r in records]
    if "chrf" in metrics:
        columns["chrf"] = chrf.scores_of([r.chrf for r in records], config.chrf)
    if "ter" in metrics:
        columns["ter"] = [ter.score(r.ter, nrefs) for r in records]
    for key, field_name in (("rougeL", "rouge_l"), ("rougeLsum", "rouge_lsum")):
        if key in metrics:
            columns[key] = [rouge.RougeScore(*value) if value is not None else None for value in map(attrgetter(field_name), records)]
    for field_name, keys in (("rouge_n", config.rouge_n), ("rouge_wsu", config.rouge_wsu)):
        if not keys:
            continue
        flat = [getattr(r, field_name) or () for r in records]
        for k, key in enumerate(keys):
            columns[key] = [rouge.RougeScore(*value[3 * k : 3 * k + 3]) if value else None for value in flat]
    for key in ("wer", "cer"):
        if key in metrics:
            columns[key] = [wer.ErrorCounts(*value) if value is not None else None for value in map(attrgetter(key), records)]
    return columns


def _sentence_bleu(config: ScoringConfig, stats: Sequence[int], last: tuple[int, int, int] | None):
    """A segment's BLEU, or None and why its flavour's oracle fails on it."""
    flavour = config.bleu_flavour
    if flavour is None:
        return bleu.score(stats, config.bleu, effective_order=True), None
    try:
        return flavour.score(stats, last), None
    except FLAVOUR_FAILURES as exc:
        return None, str(exc)


@lru_cache(maxsize=8)
def signatures(config: ScoringConfig, nrefs: int | None) -> dict[str, str]:
    """Each enabled metric's signature (made once: every edit's scores carry them)."""
    metrics = config.metrics
    found = {}
    if "bleu" in metrics:
        flavour = config.bleu_flavour
        found["bleu"] = flavour.signature(nrefs) if flavour is not None else bleu.signature(config.bleu, nrefs)
    flavour = config.rouge_flavour
    for key in (*(k for k in ("rougeL", "rougeLsum") if k in metrics), *config.rouge_n, *config.rouge_wsu):
        found[key] = flavour.signature(key, nrefs) if flavour is not None else rouge.signature(config.rouge, nrefs)
    if config.rouge_wsu_extension is not None:
        found.update((key, config.rouge_wsu_extension.signature(key, nrefs)) for key in config.rouge_wsu)
    if "chrf" in metrics:
        found["chrf"] = chrf.signature(config.chrf, nrefs)
    for key, unit in (("wer", "word"), ("cer", "char")):
        if key in metrics:
            found[key] = wer.signature(unit, config.wer_transform_name(unit), nrefs, config.wer_rules, config.sclite_case)
    if "ter" in metrics:
        found["ter"] = ter.signature(config.ter, nrefs)
    return found
