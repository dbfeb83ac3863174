"""WER after Whisper's text normalisers, as ASR leaderboards compute it (``transform:whisper-english``,
``transform:whisper-basic``).

Leaderboards normalise both sides and call ``jiwer.wer(normalized_refs, normalized_hyps)``; jiwer
then splits on spaces (its default transform) and sums hits/S/D/I over the pairs, so the corpus
figure is :func:`.wer.rates` of the summed :func:`counts` per segment, exactly as for the default
transform. The normalisers are the ``whisper-normalizer`` package's copies of OpenAI's
``EnglishTextNormalizer`` and ``BasicTextNormalizer`` (a runtime dependency, loaded on first use),
run by core/wer_whisper: the same output, its steps skipped where they change nothing.

The English normaliser rewrites across words ("twenty five" → "25", "$20 million" → "$20000000",
"[inaudible speech]" → nothing), so a normalised word has no exact place in the original text.
:func:`word_spans` places each one approximately: every original word is normalised on its own,
and the whole text's normalised words are aligned to that word-by-word result; a normalised word
takes the span of the original word(s) its aligned piece came from.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from rapidfuzz.distance import Levenshtein

from . import wer, wer_steps
from .tokenizers import Span, TokenizerUnavailable, jiwer_words
from .wer_steps import WordMap

__all__ = ["NORMALIZERS", "chars", "counts", "error_spans", "normalize", "normalizer", "normalizing", "signature", "split", "word_spans", "words"]

NORMALIZERS = ("whisper-english", "whisper-basic")


def normalizing(name: str) -> bool:
    """Whether a WER transform rewrites the whole text before jiwer splits it: a Whisper
    normaliser, or a list of jiwer's named steps (core/wer_steps), which are scored alike."""
    return name in NORMALIZERS or wer_steps.is_steps(name)


@cache
def normalizer(name: str, maps: tuple[WordMap, ...] = ()) -> Callable[[str], str]:
    """The named normaliser (one instance: the English one loads a spelling table); a step list's
    ``substitute:`` steps with their read word ``maps``."""
    if wer_steps.is_steps(name):
        return wer_steps.composed(name, maps)
    if name not in NORMALIZERS:
        raise ValueError(f"unknown normaliser {name!r}; one of {', '.join(NORMALIZERS)}")
    from . import wer_whisper  # its tables are built at import: only when a normaliser is used

    try:
        return wer_whisper.english() if name == "whisper-english" else wer_whisper.basic()
    except ImportError as e:
        raise TokenizerUnavailable(f"{name} needs the whisper-normalizer package: pip install whisper-normalizer ({e})") from None


def normalize(text: str, name: str, contiguous: bool = False, maps: tuple[WordMap, ...] = ()) -> str:
    """The normalised text; ``contiguous``, a step list's text of several lines as jiwer's
    ``ReduceToSingleSentence`` after the steps makes it: each line transformed, the non-empty
    ones joined by a space (a Whisper normaliser reads a newline as a space already)."""
    transform = normalizer(name, maps)
    if contiguous and "\n" in text and wer_steps.is_steps(name):
        return " ".join(line for line in map(transform, text.split("\n")) if line)
    return transform(text)


def split(normalized: str, name: str) -> list[str]:
    """A normalised text's words: as jiwer's default transform splits them after a Whisper
    normaliser, as ``ReduceToListOfListOfWords`` alone after a step list."""
    return wer_steps.words(normalized) if wer_steps.is_steps(name) else jiwer_words().tokens(normalized)


def chars(normalized: str, name: str) -> str:
    """The characters CER compares of a normalised text (jiwer's ``cer_default`` strips; after a
    step list, ``ReduceToListOfListOfChars`` alone does not)."""
    return normalized if wer_steps.is_steps(name) else normalized.strip()


def words(text: str, name: str, contiguous: bool = False, maps: tuple[WordMap, ...] = ()) -> list[str]:
    """The words jiwer scores of a text."""
    return split(normalize(text, name, contiguous, maps), name)


def counts(ref: str, hyp: str, name: str, maps: tuple[WordMap, ...] = ()) -> wer.ErrorCounts:
    """One segment's hits/S/D/I after normalising both sides; they add up over segments to
    what ``jiwer.wer`` of the normalised lists counts."""
    return wer.counts(words(ref, name, maps=maps), words(hyp, name, maps=maps))


_WORD = re.compile(r"\S+")


def word_spans(
    text: str, name: str, normalized: Sequence[str] | None = None, contiguous: bool = False, maps: tuple[WordMap, ...] = ()
) -> list[Span]:
    """Approximate ``[start, end)`` in ``text`` of each of its normalised :func:`words`.

    A word the normaliser kept or rewrote on its own (contraction, spelling, symbol) gets its
    original word's span; one made from several words ("twenty five" → "25") the span from the
    first to the last; one with no counterpart word by word sits on its neighbour's.
    """
    if normalized is None:
        normalized = words(text, name, contiguous, maps)
    originals = [m.span() for m in _WORD.finditer(text)]
    pieces: list[str] = []
    origin: list[int] = []  # per piece, the original word it came from
    cache: dict[str, list[str]] = {}
    for k, (start, end) in enumerate(originals):
        word = text[start:end]
        if word not in cache:
            cache[word] = words(word, name, maps=maps)
        pieces.extend(cache[word])
        origin.extend([k] * len(cache[word]))
    if not pieces:
        return [(0, 0)] * len(normalized)
    spans: list[Span] = [(0, 0)] * len(normalized)
    # runs of non-equal operations are taken as one block: Levenshtein pairs "$20000000" with
    # either "$20" or "1000000" of "$20 million", but it came from both
    blocks: list[list[int]] = []
    for tag, i1, i2, j1, j2 in Levenshtein.opcodes(normalized, pieces):
        if tag == "equal":
            for i, j in zip(range(i1, i2), range(j1, j2)):
                spans[i] = originals[origin[j]]
        elif blocks and blocks[-1][1] == i1 and blocks[-1][3] == j1:
            blocks[-1][1], blocks[-1][3] = i2, j2
        else:
            blocks.append([i1, i2, j1, j2])
    for i1, i2, j1, j2 in blocks:
        if j2 > j1:
            span = (originals[origin[j1]][0], originals[origin[j2 - 1]][1])
        else:  # normalised words without a piece: beside the next piece (or the last)
            span = originals[origin[min(j1, len(pieces) - 1)]]
        for i in range(i1, i2):
            spans[i] = span
    return spans


def error_spans(ref: str, hyp: str, name: str, maps: tuple[WordMap, ...] = ()) -> list[tuple[str, Span | None, Span | None]]:
    """jiwer's errors after normalisation as ``(tag, hyp_span, ref_span)`` in the original texts
    (tag: substitute, delete, insert; a deletion has no hypothesis span, an insertion no
    reference span), through :func:`word_spans`."""
    ref_words, hyp_words = words(ref, name, maps=maps), words(hyp, name, maps=maps)
    ref_spans, hyp_spans = word_spans(ref, name, ref_words, maps=maps), word_spans(hyp, name, hyp_words, maps=maps)

    def cover(spans: list[Span], i1: int, i2: int) -> Span:
        return min(s[0] for s in spans[i1:i2]), max(s[1] for s in spans[i1:i2])

    found = []
    for tag, r1, r2, h1, h2 in wer.alignment(ref_words, hyp_words):
        if tag == "equal":
            continue
        tag = {"replace": "substitute"}.get(tag, tag)
        found.append((tag, cover(hyp_spans, h1, h2) if h2 > h1 else None, cover(ref_spans, r1, r2) if r2 > r1 else None))
    return found


def signature(name: str, nrefs: int = 1, maps: tuple[WordMap, ...] = ()) -> str:
    return wer.signature("word", wer_steps.signature_name(name, maps) if wer_steps.is_steps(name) else name, nrefs)
