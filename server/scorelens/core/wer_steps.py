"""jiwer's named transforms as a WER transform: a comma list of steps (``lowercase,remove-punctuation``),
each jiwer 4's transform of that name, applied in that order, then jiwer's ``ReduceToListOfListOfWords``
(words are what lies between single spaces): ``jiwer.Compose([ToLowerCase(), RemovePunctuation(),
ReduceToListOfListOfWords()])`` for that example. CER splits the same text into characters
(``ReduceToListOfListOfChars``).

A step list is a normalising transform like Whisper's (core/wer_normalizers): scored on the whole
transformed text, its findings placed on the original words each transformed word came from.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable
from functools import cache

__all__ = ["CONTRACTIONS", "STEPS", "composed", "is_steps", "parse", "punctuation", "signature_name", "words"]

_MULTIPLE_SPACES = re.compile(r"\s\s+")
_KALDI_NON_WORD = re.compile(r"[<\[][^>\]]*[>\]]")
# ExpandCommonEnglishContractions' substitutions, in its order
CONTRACTIONS = [
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"won't", "will not"),
        (r"can\'t", "can not"),
        (r"let\'s", "let us"),
        (r"n\'t", " not"),
        (r"\'re", " are"),
        (r"\'s", " is"),
        (r"\'d", " would"),
        (r"\'ll", " will"),
        (r"\'t", " not"),
        (r"\'ve", " have"),
        (r"\'m", " am"),
    )
]


@cache
def punctuation() -> dict[int, None]:
    """RemovePunctuation's characters: every code point whose category starts with P."""
    return {i: None for i in range(sys.maxunicode + 1) if unicodedata.category(chr(i)).startswith("P")}


def _expand_contractions(text: str) -> str:
    for pattern, replacement in CONTRACTIONS:
        text = pattern.sub(replacement, text)
    return text


STEPS: dict[str, Callable[[str], str]] = {
    "lowercase": str.lower,  # ToLowerCase
    "remove-punctuation": lambda text: text.translate(punctuation()),
    "remove-multiple-spaces": lambda text: _MULTIPLE_SPACES.sub(" ", text),
    "strip": str.strip,
    "expand-common-english-contractions": _expand_contractions,
    "remove-kaldi-non-words": lambda text: _KALDI_NON_WORD.sub("", text),
}


def is_steps(name: str) -> bool:
    """Whether a transform name is a step list. ``lowercase`` alone is the older transform (jiwer's
    default after lowercasing); in a list it is jiwer's ``ToLowerCase`` step."""
    return "," in name or (name in STEPS and name != "lowercase")


def parse(name: str) -> tuple[str, ...]:
    """A step list's steps; a ValueError names an unknown one."""
    steps = tuple(step.strip() for step in name.split(","))
    for step in steps:
        if step not in STEPS:
            raise ValueError(f"unknown WER transform step {step!r}; steps: {', '.join(STEPS)}")
    return steps


@cache
def composed(name: str) -> Callable[[str], str]:
    """The text transform of a step list: its steps in order."""
    functions = [STEPS[step] for step in parse(name)]

    def transform(text: str) -> str:
        for function in functions:
            text = function(text)
        return text

    return transform


def words(transformed: str) -> list[str]:
    """``ReduceToListOfListOfWords`` of a transformed text: split at single spaces, empty words dropped."""
    return [word for word in transformed.split(" ") if word]


def signature_name(name: str) -> str:
    """How a signature names a step list: its steps joined by ``+``."""
    return "+".join(parse(name))
