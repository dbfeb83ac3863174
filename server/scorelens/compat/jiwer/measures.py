"""jiwer 4's measures: ``wer``, ``mer``, ``wil``, ``wip`` and ``cer`` of one or more sentences.

With jiwer's default transforms the sentences are scored as a core corpus (the core's batch
path: counts summed over segments, no alignment objects); with any other transform, through
:func:`~.process.process_words`.
"""

from __future__ import annotations

from ...core import ScoringConfig
from ...core.wer import ErrorCounts, ErrorRates
from ..corpus import scored_corpus
from .process import Transform, check_lengths, measures_of, process_characters, process_words
from .transformations import Sentences, cer_default, wer_default


def wer(
    reference: Sentences | None = None,
    hypothesis: Sentences | None = None,
    reference_transform: Transform = wer_default,
    hypothesis_transform: Transform = wer_default,
) -> float:
    """Word error rate, (S + D + I) / (H + S + D) summed over the sentences, equal to jiwer's ``wer``."""
    return _word_rates(reference, hypothesis, reference_transform, hypothesis_transform).wer


def mer(
    reference: Sentences | None = None,
    hypothesis: Sentences | None = None,
    reference_transform: Transform = wer_default,
    hypothesis_transform: Transform = wer_default,
) -> float:
    """Match error rate, (S + D + I) / (H + S + D + I), equal to jiwer's ``mer``."""
    return _word_rates(reference, hypothesis, reference_transform, hypothesis_transform).mer


def wil(
    reference: Sentences | None = None,
    hypothesis: Sentences | None = None,
    reference_transform: Transform = wer_default,
    hypothesis_transform: Transform = wer_default,
) -> float:
    """Word information lost, 1 - WIP, equal to jiwer's ``wil``."""
    return _word_rates(reference, hypothesis, reference_transform, hypothesis_transform).wil


def wip(
    reference: Sentences | None = None,
    hypothesis: Sentences | None = None,
    reference_transform: Transform = wer_default,
    hypothesis_transform: Transform = wer_default,
) -> float:
    """Word information preserved, H / reference words × H / hypothesis words, equal to jiwer's ``wip``."""
    return _word_rates(reference, hypothesis, reference_transform, hypothesis_transform).wip


def cer(
    reference: Sentences | None = None,
    hypothesis: Sentences | None = None,
    reference_transform: Transform = cer_default,
    hypothesis_transform: Transform = cer_default,
) -> float:
    """Character error rate (spaces count), equal to jiwer's ``cer``."""
    if reference_transform is cer_default and hypothesis_transform is cer_default:
        return measures_of(_corpus_counts(reference, hypothesis, "cer")).wer
    return process_characters(reference, hypothesis, reference_transform, hypothesis_transform).cer


def _word_rates(reference, hypothesis, reference_transform: Transform, hypothesis_transform: Transform) -> ErrorRates:
    if reference_transform is wer_default and hypothesis_transform is wer_default:
        return measures_of(_corpus_counts(reference, hypothesis, "wer"))
    w = process_words(reference, hypothesis, reference_transform, hypothesis_transform)
    return ErrorRates(w.wer, w.mer, w.wil, w.wip)


def _corpus_counts(reference: Sentences | None, hypothesis: Sentences | None, metric: str) -> ErrorCounts:
    """The summed counts of the sentence pairs, scored as a core corpus (WER's or CER's)."""
    refs = [reference] if isinstance(reference, str) else reference
    hyps = [hypothesis] if isinstance(hypothesis, str) else hypothesis
    for side, texts in (("reference", refs), ("hypothesis", hyps)):
        if not (isinstance(texts, list) and all(isinstance(t, str) for t in texts)):
            raise ValueError(f"the {side} should be a string or a list of strings, not {texts!r}")
    check_lengths(refs, hyps)
    return ErrorCounts(*scored_corpus(hyps, [refs], ScoringConfig(metrics=frozenset({metric}))).sums()[metric])
