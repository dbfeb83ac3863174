"""jiwer 4's standard transformations from sentences to lists of words (or characters), as
ScoreLens's core reads them.

``wer_default`` and ``cer_default`` are what jiwer applies unless told otherwise; the
``_contiguous`` ones first join all sentences into one (for inputs whose sentence counts differ).
jiwer's composable text transforms (``Compose``, ``RemovePunctuation``...) are not provided;
any callable from a string or a list of strings to a list of lists of strings can be passed
as a transform instead.
"""

from __future__ import annotations

from typing import Callable

from ...core.tokenizers import jiwer_words

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

__all__ = ["cer_contiguous", "cer_default", "wer_contiguous", "wer_default"]
