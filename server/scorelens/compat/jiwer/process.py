"""jiwer 4's ``process_words`` and ``process_characters`` with their output objects, over
ScoreLens's core WER (:mod:`scorelens.core.wer`: the same rapidfuzz alignment jiwer makes)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Callable

from ...core import wer as core_wer
from .transformations import Sentences, cer_default, wer_default

Transform = Callable[[Sentences], Any]
_TYPES = ("replace", "insert", "delete", "equal", "substitute")


@dataclass
class AlignmentChunk:
    """Reference units ``[ref_start_idx, ref_end_idx)`` aligned with hypothesis units
    ``[hyp_start_idx, hyp_end_idx)`` as ``type``: ``equal``, ``substitute``, ``insert`` or
    ``delete`` (``replace`` is taken as ``substitute``)."""

    type: str
    ref_start_idx: int
    ref_end_idx: int
    hyp_start_idx: int
    hyp_end_idx: int

    def __post_init__(self) -> None:
        if self.type not in _TYPES:
            raise ValueError(f"unknown alignment type {self.type!r}; one of {', '.join(_TYPES)}")
        if self.type == "replace":
            self.type = "substitute"
        if self.ref_start_idx > self.ref_end_idx:
            raise ValueError(f"ref_start_idx={self.ref_start_idx} is larger than ref_end_idx={self.ref_end_idx}")
        if self.hyp_start_idx > self.hyp_end_idx:
            raise ValueError(f"hyp_start_idx={self.hyp_start_idx} is larger than hyp_end_idx={self.hyp_end_idx}")


@dataclass
class WordOutput:
    """Words of each reference and hypothesis sentence (after the transforms), their
    alignments, WER, MER, WIL, WIP and the summed hits, substitutions, insertions, deletions."""

    references: list[list[str]]
    hypotheses: list[list[str]]
    alignments: list[list[AlignmentChunk]]
    wer: float
    mer: float
    wil: float
    wip: float
    hits: int
    substitutions: int
    insertions: int
    deletions: int


@dataclass
class CharacterOutput:
    """:class:`WordOutput` of characters: ``cer`` is the character error rate."""

    references: list[list[str]]
    hypotheses: list[list[str]]
    alignments: list[list[AlignmentChunk]]
    cer: float
    hits: int
    substitutions: int
    insertions: int
    deletions: int


def process_words(
    reference: Sentences,
    hypothesis: Sentences,
    reference_transform: Transform = wer_default,
    hypothesis_transform: Transform = wer_default,
) -> WordOutput:
    """Align each reference sentence with its hypothesis word by word and compute the measures
    over all of them, equal to jiwer's ``process_words``. A transform takes a string or a list
    of strings to a list of lists of words; after them both sides must have as many sentences
    (ValueError otherwise)."""
    refs = _transformed(reference, reference_transform, "reference")
    hyps = _transformed(hypothesis, hypothesis_transform, "hypothesis")
    check_lengths(refs, hyps)
    number: defaultdict[str, int] = defaultdict(lambda: len(number))
    alignments = []
    total = core_wer.ErrorCounts()
    for ref, hyp in zip(refs, hyps):
        ref_numbers, hyp_numbers = [number[w] for w in ref], [number[w] for w in hyp]
        alignments.append([AlignmentChunk(*op) for op in core_wer.alignment(ref_numbers, hyp_numbers)])
        total += core_wer.counts(ref_numbers, hyp_numbers)
    r = measures_of(total)
    return WordOutput(refs, hyps, alignments, r.wer, r.mer, r.wil, r.wip, total.hits, total.substitutions, total.insertions, total.deletions)


def process_characters(
    reference: Sentences,
    hypothesis: Sentences,
    reference_transform: Transform = cer_default,
    hypothesis_transform: Transform = cer_default,
) -> CharacterOutput:
    """:func:`process_words` of characters (spaces count), equal to jiwer's ``process_characters``."""
    w = process_words(reference, hypothesis, reference_transform, hypothesis_transform)
    return CharacterOutput(w.references, w.hypotheses, w.alignments, w.wer, w.hits, w.substitutions, w.insertions, w.deletions)


def measures_of(counts: core_wer.ErrorCounts) -> core_wer.ErrorRates:
    """The core's rates of summed counts, each an int where jiwer sets it rather than divides
    (no reference words: all four; no hypothesis words: WIL and WIP)."""
    r = core_wer.rates(counts)
    if not counts.ref_len:
        return core_wer.ErrorRates(int(r.wer), int(r.mer), int(r.wil), int(r.wip))  # type: ignore[arg-type]
    if not counts.hyp_len:
        return core_wer.ErrorRates(r.wer, r.mer, int(r.wil), int(r.wip))  # type: ignore[arg-type]
    return r


def check_lengths(refs: list, hyps: list) -> None:
    """Both sides have as many sentences, or ValueError (jiwer's)."""
    if len(refs) != len(hyps):
        raise ValueError(
            "After applying the transforms on the reference and hypothesis sentences, their lengths must match. "
            f"Instead got {len(refs)} reference and {len(hyps)} hypothesis sentences."
        )


def _transformed(sentences: Sentences, transform: Transform, side: str) -> list[list[str]]:
    out = transform([sentences] if isinstance(sentences, str) else sentences)
    if not (isinstance(out, list) and all(isinstance(s, list) and all(isinstance(w, str) for w in s) for s in out)):
        raise ValueError(
            f"After applying the transformation, each {side} should be a list of strings, with each string being a "
            "single word or character. Please ensure the given transformation reduces the input to a list of list strings."
        )
    return out
