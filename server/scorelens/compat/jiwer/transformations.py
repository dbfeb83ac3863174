"""jiwer 4's standard transformations from sentences to lists of words (or characters).

``wer_default`` and ``cer_default`` are what jiwer applies unless told otherwise, and the
``_contiguous`` ones first join all sentences into one (for inputs whose sentence counts differ):
these four are ScoreLens's core tokenizations (the measures score through the core when both
sides use a default). ``wer_standardize`` (lowercase, contractions written out, Kaldi's non-words
removed) is a pipeline of :mod:`.transforms`. Any callable from a string or a list of strings to
a list of lists of strings can be passed as a transform.
"""

from __future__ import annotations

from typing import Callable

from ...core.tokenizers import jiwer_words
from . import transforms as tr

Sentences = str | list[str]


class Transformation:
    """A named transformation: ``transform(sentences)`` is a list of lists of units (a list
    per sentence; one empty list for no sentence at all)."""

    def __init__(self, name: str, units: Callable[[str], list[str]], contiguous: bool) -> None:
        self.name = name
        self._units = units
        self._contiguous = contiguous

    def __call__(self, sentences: Sentences) -> list[list[str]]:
        if isinstance(sentences, str):
            sentences = [sentences]
        elif not isinstance(sentences, list):
            raise ValueError(f"input {sentences} was expected to be a string or list of strings")
        if self._contiguous:
            # one sentence: the non-blank ones stripped and joined by a space (none: no sentence)
            sentences = [" ".join(t for t in (s.strip() for s in sentences) if t)]
        return [self._units(s) for s in sentences] or [[]]

    def __repr__(self) -> str:
        return f"jiwer.transformations.{self.name}"


def _words(sentence: str) -> list[str]:
    """jiwer's words: whitespace runs collapsed to a space, stripped, split at spaces."""
    return jiwer_words().tokens(sentence)


def _characters(sentence: str) -> list[str]:
    """jiwer's characters: the stripped sentence's, spaces included."""
    return list(sentence.strip())


wer_default = Transformation("wer_default", _words, contiguous=False)
wer_contiguous = Transformation("wer_contiguous", _words, contiguous=True)
cer_default = Transformation("cer_default", _characters, contiguous=False)
cer_contiguous = Transformation("cer_contiguous", _characters, contiguous=True)


def _standardize(contiguous: bool) -> tr.Compose:
    steps = [tr.ToLowerCase(), tr.ExpandCommonEnglishContractions(), tr.RemoveKaldiNonWords(), tr.RemoveWhiteSpace(replace_by_space=True)]
    steps += [tr.RemoveMultipleSpaces(), tr.Strip(), *([tr.ReduceToSingleSentence()] if contiguous else []), tr.ReduceToListOfListOfWords()]
    return tr.Compose(steps)


wer_standardize = _standardize(contiguous=False)
wer_standardize_contiguous = _standardize(contiguous=True)

__all__ = ["cer_contiguous", "cer_default", "wer_contiguous", "wer_default", "wer_standardize", "wer_standardize_contiguous"]
