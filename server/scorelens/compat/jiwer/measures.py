"""jiwer 4's measures: ``wer``, ``mer``, ``wil``, ``wip`` and ``cer`` of one or more sentences.

With jiwer's default transforms each sentence pair is counted as the core counts a segment
(the core's tokenizing, no alignment objects); with any other transform, through
:func:`~.process.process_words`.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import count

from ...core import wer as core_wer
from ...core.tokenizers import jiwer_words
from ...core.wer import ErrorCounts, ErrorRates
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
    """The summed counts of the sentence pairs under jiwer's default transform, WER's words or
    CER's characters, each pair counted as the core counts a segment. No core corpus is made: a
    call per sentence pair is common, and a corpus's set-up took three times jiwer's own call."""
    refs = [reference] if isinstance(reference, str) else reference
    hyps = [hypothesis] if isinstance(hypothesis, str) else hypothesis
    for side, texts in (("reference", refs), ("hypothesis", hyps)):
        if not isinstance(texts, list):
            raise ValueError(f"the {side} should be a string or a list of strings, not {type(texts).__name__}")
        # the item, not the list: a corpus's repr would fill the notebook
        bad = next((i for i, t in enumerate(texts) if not isinstance(t, str)), None)
        if bad is not None:
            raise ValueError(f"the {side} should be a string or a list of strings: item {bad} is {type(texts[bad]).__name__}")
    check_lengths(refs, hyps)
    if metric == "cer":  # cer_default: each sentence stripped, its characters
        units = [[text.strip() for text in texts] for texts in (refs, hyps)]
    else:  # wer_default's words, numbered (equal words equal numbers) for rapidfuzz
        words, number = jiwer_words().tokens, defaultdict(count().__next__).__getitem__
        units = [[tuple(map(number, words(text))) for text in texts] for texts in (refs, hyps)]
    return ErrorCounts(*map(sum, zip(*map(core_wer.tally, *units))))  # (no pairs: all 0)
