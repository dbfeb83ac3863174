"""jiwer 4's composable text transforms (``Compose``, ``ToLowerCase``, ``RemovePunctuation``...):
each takes a string or a list of strings and gives the same, except the ``ReduceTo...`` ones,
which end a pipeline with a list of lists of words (or characters). Their output equals jiwer's."""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ...core.wer_steps import CONTRACTIONS, punctuation

__all__ = [
    "AbstractTransform",
    "Compose",
    "ExpandCommonEnglishContractions",
    "ReduceToListOfListOfChars",
    "ReduceToListOfListOfWords",
    "ReduceToSingleSentence",
    "RemoveEmptyStrings",
    "RemoveKaldiNonWords",
    "RemoveMultipleSpaces",
    "RemovePunctuation",
    "RemoveSpecificWords",
    "RemoveWhiteSpace",
    "Strip",
    "SubstituteRegexes",
    "SubstituteWords",
    "ToLowerCase",
    "ToUpperCase",
]


class AbstractTransform:
    """A transform of each string (:meth:`process_string`) of a string or a list of them."""

    def __call__(self, sentences: str | list[str]) -> Any:
        if isinstance(sentences, str):
            return self.process_string(sentences)
        if isinstance(sentences, list):
            return self.process_list(sentences)
        raise ValueError(f"input {sentences} was expected to be a string or list of strings")

    def process_string(self, s: str) -> Any:
        raise NotImplementedError

    def process_list(self, inp: list[str]) -> list:
        return [self.process_string(s) for s in inp]


class Compose:
    """The transforms applied one after the other."""

    def __init__(self, transforms: list[Callable[[Any], Any]]) -> None:
        self.transforms = transforms

    def __call__(self, text: Any) -> Any:
        for transform in self.transforms:
            text = transform(text)
        return text


class BaseRemoveTransform(AbstractTransform):
    """Each of ``tokens_to_remove`` replaced by ``replace_token`` wherever it occurs, in turn."""

    def __init__(self, tokens_to_remove: Iterable[str], replace_token: str = "") -> None:
        self.tokens_to_remove = tokens_to_remove
        self.replace_token = replace_token

    def process_string(self, s: str) -> str:
        for token in self.tokens_to_remove:
            s = s.replace(token, self.replace_token)
        return s


class _Sentences(AbstractTransform):
    """A reduction to a list of lists of units; no sentence at all gives one empty list."""

    def process_list(self, inp: list[str]) -> list[list[str]]:
        return [self.process_string(s)[0] for s in inp] or [[]]


class ReduceToListOfListOfWords(_Sentences):
    """Each sentence's words: split at ``word_delimiter``, empty ones dropped."""

    def __init__(self, word_delimiter: str = " ") -> None:
        self.word_delimiter = word_delimiter

    def process_string(self, s: str) -> list[list[str]]:
        return [[w for w in s.split(self.word_delimiter) if w]]


class ReduceToListOfListOfChars(_Sentences):
    """Each sentence's characters."""

    def process_string(self, s: str) -> list[list[str]]:
        return [list(s)]


class ReduceToSingleSentence(AbstractTransform):
    """A list's non-empty sentences joined by ``word_delimiter`` into one (none: an empty list)."""

    def __init__(self, word_delimiter: str = " ") -> None:
        self.word_delimiter = word_delimiter

    def process_string(self, s: str) -> str:
        return s

    def process_list(self, inp: list[str]) -> list[str]:
        kept = [s for s in inp if s]
        return [self.word_delimiter.join(kept)] if kept else []


class SubstituteRegexes(AbstractTransform):
    """Each pattern replaced by its substitute (``re.sub``), in the mapping's order."""

    def __init__(self, substitutions: Mapping[str, str]) -> None:
        self.substitutions = substitutions

    def process_string(self, s: str) -> str:
        for pattern, replacement in self.substitutions.items():
            s = re.sub(pattern, replacement, s)
        return s


class SubstituteWords(AbstractTransform):
    """Each word (between word boundaries) replaced by its substitute, in the mapping's order."""

    def __init__(self, substitutions: Mapping[str, str]) -> None:
        self.substitutions = substitutions

    def process_string(self, s: str) -> str:
        for word, replacement in self.substitutions.items():
            s = re.sub(rf"\b{re.escape(word)}\b", replacement, s)
        return s


class RemoveSpecificWords(SubstituteWords):
    """Each of the words replaced by a space."""

    def __init__(self, words_to_remove: list[str]) -> None:
        super().__init__({word: " " for word in words_to_remove})


class RemoveWhiteSpace(BaseRemoveTransform):
    """Every whitespace character of ``string.whitespace`` removed (or made a space)."""

    def __init__(self, replace_by_space: bool = False) -> None:
        super().__init__(list(string.whitespace), replace_token=" " if replace_by_space else "")




class RemovePunctuation(BaseRemoveTransform):
    """Every Unicode punctuation character (categories P*) removed."""

    def __init__(self) -> None:
        super().__init__([chr(c) for c in punctuation()])

    def process_string(self, s: str) -> str:
        return s.translate(punctuation())


class RemoveMultipleSpaces(AbstractTransform):
    """Every run of two or more whitespace characters made one space."""

    def process_string(self, s: str) -> str:
        return re.sub(r"\s\s+", " ", s)


class Strip(AbstractTransform):
    """Leading and trailing whitespace removed."""

    def process_string(self, s: str) -> str:
        return s.strip()


class RemoveEmptyStrings(AbstractTransform):
    """A list's blank strings dropped (a string alone is stripped)."""

    def process_string(self, s: str) -> str:
        return s.strip()

    def process_list(self, inp: list[str]) -> list[str]:
        return [s for s in inp if s.strip()]




class ExpandCommonEnglishContractions(AbstractTransform):
    """English contractions written out (``won't`` -> ``will not``, ``'re`` -> `` are``...)."""

    def process_string(self, s: str) -> str:
        for pattern, expansion in CONTRACTIONS:
            s = re.sub(pattern, expansion, s)
        return s


class ToLowerCase(AbstractTransform):
    def process_string(self, s: str) -> str:
        return s.lower()


class ToUpperCase(AbstractTransform):
    def process_string(self, s: str) -> str:
        return s.upper()


class RemoveKaldiNonWords(AbstractTransform):
    """Kaldi's non-word markers (``<unk>``, ``[laughter]``) removed."""

    def process_string(self, s: str) -> str:
        return re.sub(r"[<\[][^>\]]*[>\]]", "", s)
