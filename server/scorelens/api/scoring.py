"""Scoring lists of strings: :func:`score` for a corpus, :func:`sentence_scores` segment by segment."""

from __future__ import annotations

from itertools import repeat
from typing import Any, Iterable, Sequence

from ..core.corpus import _collector_paused
from .evaluation import Evaluation, evaluate
from .options import (
    DEFAULT_METRICS,
    PPL,
    OptionError,
    check_choices,
    complete,
    metric_names,
)
from .results import Scores, SegmentScores

Texts = Sequence[str]


def score(
    hypotheses: Texts,
    references: Texts | Sequence[Texts] | None = (),
    metrics: str | Iterable[str] = DEFAULT_METRICS,
    *,
    jobs: int = 1,
    **options: Any,
) -> Scores:
    """The corpus scores of ``metrics`` for hypotheses against references, equal to the peers':

    BLEU, chrF and TER as sacreBLEU 2.x's ``corpus_score``; ROUGE as the mean of rouge-score
    0.1.2's per-pair scores; WER and CER as jiwer 4 (counts summed over segments); ``ppl`` as
    ``kenlm``'s perplexity under the model ``lm`` names. ``references`` is one list of strings,
    or several (sacreBLEU's shape: one list per reference, each as long as ``hypotheses``); none
    (or None) for ``ppl`` alone.
    ``options`` are the command line's, by the same names and with the same defaults
    (``tokenize="13a"``, ``lowercase=False``, ``smooth_method="exp"``, ``chrf_word_order=0``,
    ``rouge_tokenizer="rouge-score"``, ``stem=False``, ``wer_transform="default"``,
    ``segmentation="line"``, ...); a bad one raises :class:`OptionError` (a ``ValueError``)
    naming it. ``jobs`` > 1 scores 2,000 segments or more in that many processes.
    The result's ``to_dict()`` is what ``scorelens score --json`` prints for the same texts.
    """
    return evaluation_of(hypotheses, references, metrics, jobs, options).results()


def sentence_scores(
    hypotheses: Texts,
    references: Texts | Sequence[Texts] | None = (),
    metrics: str | Iterable[str] = DEFAULT_METRICS,
    *,
    jobs: int = 1,
    **options: Any,
) -> list[SegmentScores]:
    """Each segment's own scores (sentence BLEU with effective order as sacreBLEU's
    ``sentence_bleu``, sentence chrF and TER, the pair's ROUGE, its WER counts), one per segment;
    each ``to_dict()`` is a ``scorelens score -sl --json`` row. Arguments as :func:`score`.
    A segment NLTK's ``sentence_bleu`` fails on (method6 without a 3-gram match) has ``bleu`` None."""
    ev = evaluation_of(hypotheses, references, metrics, jobs, options)
    # the rows are acyclic; without the collector walking them and the corpus's records again and
    # again (the command line runs without it), 100,000 rows take a quarter less time
    with _collector_paused(True):
        return list(ev.all_segment_results())


def evaluation_of(
    hypotheses: Texts, references: Texts | Sequence[Texts] | None, metrics, jobs: int, options: dict[str, Any], side: str = "hypotheses"
) -> Evaluation:
    """The evaluation of the texts; ``side`` names them in errors (compare's ``systems[0]``)."""
    names = metric_names(metrics)
    o = complete(options)
    check_choices(o)
    if PPL in names and o["lm"] is None:
        raise OptionError("lm", "the ppl metric needs lm, the path of a KenLM model")
    check_jobs(jobs)
    hypothesis = lines_of(side, hypotheses)
    streams = reference_streams(references)
    if names != [PPL] and not streams:
        raise OptionError("references", "no references to score against")
    ev = evaluate(hypothesis, [lines_of(f"references[{i}]", r) for i, r in enumerate(streams)], names, o, jobs)
    check_lined_up(ev, side)
    return ev


def check_lined_up(ev: Evaluation, side: str = "hypotheses") -> None:
    """ValueError for a reference with another number of segments than the texts ``side`` names."""
    for k, hyp_count, ref_count in ev.mismatches():
        unit = "paragraphs" if ev.corpus.config.segmentation == "paragraph" else "segments"
        message = f"{side} {'have' if side == 'hypotheses' else 'has'} {hyp_count} {unit}, references[{k - 1}] has {ref_count}"
        if ev.corpus.references == hyp_count and len(set(ev.corpus.segment_counts()[1:])) == 1:
            # as many lists as segments, all of one length: likely each segment's references
            # (Hugging Face's shape)
            message += "; references are one list per reference, each as long as the hypotheses (sacreBLEU's shape), not one per segment"
        raise ValueError(message)


def check_jobs(jobs: int) -> None:
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise OptionError("jobs", f"expected a positive int, not {jobs!r}")


def reference_streams(references: Texts | Sequence[Texts] | None) -> list[Texts]:
    """sacreBLEU's shape (a list of streams) from either shape; one list of strings is one stream."""
    if references is None:
        return []
    if isinstance(references, str) or not isinstance(references, Iterable):
        shown = "a string" if isinstance(references, str) else type(references).__name__
        raise OptionError("references", f"expected a list of strings or a list of lists of strings, not {shown}")
    refs = list(references)
    # the first item tells the shape (lines_of refuses a stream of mixed items); a missing first
    # reference (None) is an item of one stream, which lines_of names
    if refs and (isinstance(refs[0], str) or refs[0] is None):
        return [refs]
    return refs


def lines_of(name: str, texts: Texts) -> list[str]:
    """A stream's lines as the core takes a file's: its strings, then an empty last line."""
    if isinstance(texts, str) or not isinstance(texts, Iterable):
        raise OptionError(name, f"expected a list of strings, not {'a string' if isinstance(texts, str) else type(texts).__name__}")
    lines = list(texts)
    # checked in C: a Python loop took 3% of the time of scoring 100,000 lines' WER
    if not all(map(isinstance, lines, repeat(str))):
        i, text = next((i, text) for i, text in enumerate(lines) if not isinstance(text, str))
        raise OptionError(name, f"item {i} is {type(text).__name__}, not str")
    lines.append("")
    return lines
