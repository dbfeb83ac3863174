"""jiwer's named transforms as a WER transform: a comma list of steps (``lowercase,remove-punctuation``),
each jiwer 4's transform of that name, applied in that order, then jiwer's ``ReduceToListOfListOfWords``
(words are what lies between single spaces): ``jiwer.Compose([ToLowerCase(), RemovePunctuation(),
ReduceToListOfListOfWords()])`` for that example. CER splits the same text into characters
(``ReduceToListOfListOfChars``).

A step list is a normalising transform like Whisper's (core/wer_normalizers): scored on the whole
transformed text, its findings placed on the original words each transformed word came from.

``substitute:PATH`` is jiwer's ``SubstituteWords`` with a user word map: the front end reads the
file and hands its text to :func:`word_map`; the step list is then applied with the read maps
(:class:`WordMap`, kept in the scoring config), so the core never opens a file.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from hashlib import sha256

__all__ = ["CONTRACTIONS", "STEPS", "SUBSTITUTE", "WordMap", "composed", "is_steps", "map_paths", "parse", "punctuation", "signature_name", "word_map", "words"]

SUBSTITUTE = "substitute:"  # a step naming a word map: substitute:PATH

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


@dataclass(frozen=True)
class WordMap:
    """A user word map as read: ``path`` as its ``substitute:`` step names it, ``digest`` (the
    SHA-256 of its text) so that signatures of runs with different maps differ, ``pairs`` in the
    file's order. Compared and hashed by path and digest: the config is a cache key, and a map of
    many pairs is not hashed again on every segment."""

    path: str
    digest: str
    pairs: tuple[tuple[str, str], ...] = field(compare=False)

    def __hash__(self) -> int:
        return hash((self.path, self.digest))


def word_map(text: str, path: str) -> WordMap:
    """A word map's text read: one ``from<TAB>to`` pair a line; blank lines and lines starting with
    ``#`` are skipped. A ValueError lists every bad line as ``path:line: reason`` (a map partly
    applied would give a wrong figure, so none of it is used)."""
    pairs: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    errors = []
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), 1):
        line = line.removesuffix("\r")
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 2:
            errors.append(f"{path}:{number}: expected from<TAB>to (one tab), found {len(fields) - 1} tabs")
        elif not fields[0]:
            errors.append(f"{path}:{number}: the word to replace is empty")
        elif "\\" in fields[1]:
            # jiwer hands the replacement to re.sub, which would read a backslash as an escape
            errors.append(f"{path}:{number}: a backslash in the replacement is not supported")
        elif fields[0] in seen:
            errors.append(f"{path}:{number}: {fields[0]!r} is already replaced on line {seen[fields[0]]}")
        else:
            seen[fields[0]] = number
            pairs.append((fields[0], fields[1]))
    if errors:
        raise ValueError("; ".join(errors))
    return WordMap(path, sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), tuple(pairs))


def _substitute(found: WordMap) -> Callable[[str], str]:
    """jiwer's ``SubstituteWords``: each pair in order, the whole word (``\\b`` on both sides) replaced."""
    patterns = [(re.compile(rf"\b{re.escape(word)}\b"), replacement) for word, replacement in found.pairs]

    def substitute(text: str) -> str:
        for pattern, replacement in patterns:
            text = pattern.sub(replacement, text)
        return text

    return substitute


def is_steps(name: str) -> bool:
    """Whether a transform name is a step list. ``lowercase`` alone is the older transform (jiwer's
    default after lowercasing); in a list it is jiwer's ``ToLowerCase`` step."""
    return "," in name or name.startswith(SUBSTITUTE) or (name in STEPS and name != "lowercase")


def parse(name: str) -> tuple[str, ...]:
    """A step list's steps; a ValueError names an unknown one."""
    steps = tuple(step.strip() for step in name.split(","))
    for step in steps:
        if step.startswith(SUBSTITUTE):
            if not step[len(SUBSTITUTE) :].strip():
                raise ValueError(f"WER transform step {step!r} names no word map: substitute:PATH.tsv")
        elif step not in STEPS:
            raise ValueError(f"unknown WER transform step {step!r}; steps: {', '.join(STEPS)}, substitute:PATH.tsv")
    return steps


def map_paths(name: str) -> list[str]:
    """The word maps a transform's ``substitute:`` steps name, in order, for the front end to read."""
    if not is_steps(name):
        return []
    return [step[len(SUBSTITUTE) :] for step in parse(name) if step.startswith(SUBSTITUTE)]


def _read_map(path: str, maps: Sequence[WordMap]) -> WordMap:
    for found in maps:
        if found.path == path:
            return found
    raise ValueError(f"the word map {path} of the WER transform was not read")


@cache
def composed(name: str, maps: tuple[WordMap, ...] = ()) -> Callable[[str], str]:
    """The text transform of a step list: its steps in order, ``substitute:`` ones with their read ``maps``."""
    functions = [
        _substitute(_read_map(step[len(SUBSTITUTE) :], maps)) if step.startswith(SUBSTITUTE) else STEPS[step] for step in parse(name)
    ]

    def transform(text: str) -> str:
        for function in functions:
            text = function(text)
        return text

    return transform


def words(transformed: str) -> list[str]:
    """``ReduceToListOfListOfWords`` of a transformed text: split at single spaces, empty words dropped."""
    return [word for word in transformed.split(" ") if word]


def signature_name(name: str, maps: Sequence[WordMap] = ()) -> str:
    """How a signature names a step list: its steps joined by ``+``, a word map by its file's name
    and digest (``substitute:map.tsv#1a2b3c4d``)."""
    named = []
    for step in parse(name):
        if step.startswith(SUBSTITUTE):
            found = _read_map(step[len(SUBSTITUTE) :], maps)
            file_name = re.split(r"[/\\]", found.path)[-1]
            step = f"{SUBSTITUTE}{file_name}#{found.digest[:8]}"
        named.append(step)
    return "+".join(named)
