"""Terminology: the glossary's terms found in a source segment, and whether the hypothesis uses
the target term each asks for (or, for a "do not translate" entry, keeps the term as it is).

A term is found as whole words, case ignored, each word compared by its stem where the language
has a Snowball stemmer (nltk's: English, German, French, Spanish, Russian… 15 languages), so
"files" finds the term "file" and "Dateien" satisfies "Datei". In Japanese, Chinese and Thai,
written without spaces, a term is found as a string (case ignored). Overlapping terms: the
longest one found first wins. A "do not translate" term must stand in the hypothesis unchanged
(as whole words, case kept).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from .model import PREFIX, Fix, QAFinding
from .spans import insertion, insertion_point, primary, quote

_WORD = re.compile(r"\w+(?:['’]\w+)*")
_UNSPACED = {"ja", "zh", "th", "lo", "km", "my", "bo"}
_UNSPACED_SCRIPT = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_STEMMERS = {
    "ar": "arabic", "da": "danish", "nl": "dutch", "en": "english", "fi": "finnish", "fr": "french",
    "de": "german", "hu": "hungarian", "it": "italian", "nb": "norwegian", "nn": "norwegian",
    "no": "norwegian", "pt": "portuguese", "ro": "romanian", "ru": "russian", "es": "spanish", "sv": "swedish",
}


@dataclass(frozen=True, slots=True)
class Term:
    source: str
    target: str
    note: str = ""
    do_not_translate: bool = False

    def entry(self) -> str:
        """The entry as a hover shows it."""
        text = f"{self.source} (do not translate)" if self.do_not_translate else f"{self.source} → {self.target}"
        return f"{text}: {self.note}" if self.note else text


class _Side:
    """How one language's texts are cut into words and compared: stems, or strings."""

    def __init__(self, language: str | None) -> None:
        self.unspaced = primary(language) in _UNSPACED
        name = _STEMMERS.get(primary(language) or "")
        self._stemmer: Callable[[str], str] | None = None
        if name and not self.unspaced:
            from nltk.stem.snowball import SnowballStemmer  # a third of a second to import: only when used
            self._stemmer = SnowballStemmer(name).stem
        self._stems: dict[str, str] = {}

    def stem(self, word: str) -> str:
        found = self._stems.get(word)
        if found is None:
            folded = word.casefold()
            found = self._stems[word] = self._stemmer(folded) if self._stemmer else folded
        return found

    def by_string(self, term: str) -> bool:
        return self.unspaced or bool(_UNSPACED_SCRIPT.search(term))

    def words(self, text: str) -> list[tuple[str, int, int]]:
        """``(stem, start, end)`` of each word."""
        return [(self.stem(m.group()), m.start(), m.end()) for m in _WORD.finditer(text)]

    def key(self, term: str) -> tuple[str, ...] | str:
        """What a term is found by: its words' stems, or its folded string."""
        return term.casefold() if self.by_string(term) else tuple(self.stem(w) for w in _WORD.findall(term))


def _find_words(words: Sequence[tuple[str, int, int]], key: tuple[str, ...]) -> tuple[int, int] | None:
    for i in range(len(words) - len(key) + 1):
        if all(words[i + k][0] == key[k] for k in range(len(key))):
            return words[i][1], words[i + len(key) - 1][2]
    return None


class Glossary:
    """Terms to look for in source segments, and the target terms the hypothesis should use."""

    def __init__(self, terms: Sequence[Term], source_language: str | None = None, target_language: str | None = None) -> None:
        self.terms = tuple(terms)
        self.source_language = source_language
        self.target_language = target_language
        self._source = _Side(source_language)
        self._target = _Side(target_language)
        # word terms by their first stem; string terms by their first character (folded)
        self._by_first_word: dict[str, list[tuple[tuple[str, ...], Term]]] = {}
        self._by_first_char: dict[str, list[tuple[str, Term]]] = {}
        for term in self.terms:
            key = self._source.key(term.source)
            if isinstance(key, str):
                if key:
                    self._by_first_char.setdefault(key[0], []).append((key, term))
            elif key:
                self._by_first_word.setdefault(key[0], []).append((key, term))
        for index in (self._by_first_word, self._by_first_char):
            for candidates in index.values():
                candidates.sort(key=lambda c: -len(c[0]))  # the longest first

    def __len__(self) -> int:
        return len(self.terms)

    def find(self, source: str) -> list[tuple[int, int, list[Term]]]:
        """The terms of a source segment: ``(start, end, terms)``, one per place, in text order, not
        overlapping (``terms``: every entry of that source term, e.g. two accepted targets)."""
        found: list[tuple[int, int, list[Term]]] = []
        if self._by_first_word:
            words = self._source.words(source)
            i = 0
            while i < len(words):
                i = self._match_words(words, i, found)
        if self._by_first_char:
            folded = source.casefold()
            if len(folded) == len(source):  # folding kept the offsets (it does but for ß, ﬁ…)
                self._match_strings(folded, found)
        found.sort(key=lambda f: f[0])
        return found

    def _match_words(self, words, i: int, found: list) -> int:
        for key, term in self._by_first_word.get(words[i][0], ()):
            n = len(key)
            if all(i + k < len(words) and words[i + k][0] == key[k] for k in range(n)):
                terms = [t for k, t in self._by_first_word[words[i][0]] if k == key]
                found.append((words[i][1], words[i + n - 1][2], terms))
                return i + n
        return i + 1

    def _match_strings(self, folded: str, found: list) -> None:
        taken = [(a, b) for a, b, _ in found]
        i = 0
        while i < len(folded):
            for key, term in self._by_first_char.get(folded[i], ()):
                if folded.startswith(key, i) and not any(a < i + len(key) and i < b for a, b in taken):
                    found.append((i, i + len(key), [t for k, t in self._by_first_char[folded[i]] if k == key]))
                    i += len(key) - 1
                    break
            i += 1

    def check(self, source: str, target: str) -> list[QAFinding]:
        """A finding for each source term whose target term the hypothesis lacks."""
        found = []
        target_words: list[tuple[str, int, int]] | None = None
        folded_target: str | None = None
        seen: set[str] = set()
        for start, end, terms in self.find(source):
            if terms[0].source.casefold() in seen:
                continue  # a term found twice: once is enough to say
            seen.add(terms[0].source.casefold())
            if target_words is None:
                target_words, folded_target = self._target.words(target), target.casefold()
            if any(self._has(t, target, target_words, folded_target) for t in terms):
                continue
            found.append(self._finding(source, target, start, end, terms[0], target_words, folded_target))
        return found

    def _has(self, term: Term, target: str, words, folded: str) -> bool:
        if term.do_not_translate:
            return _exact(target, term.source, self._target.by_string(term.source))
        key = self._target.key(term.target)
        if isinstance(key, str):
            return key in folded
        return _find_words(words, key) is not None

    def _finding(self, source: str, target: str, start: int, end: int, term: Term, words, folded: str) -> QAFinding:
        surface = source[start:end]
        wanted = term.source if term.do_not_translate else term.target
        check = "do-not-translate" if term.do_not_translate else "glossary"
        left = _left(surface, target, words, folded, self._target)
        if left is not None:  # the source's words stand in the hypothesis: replace them
            a, b = left
            fix = Fix(f"Use the glossary's {quote(wanted)}", a, b, wanted)
            what = f"{quote(target[a:b])} is not the glossary's {quote(wanted)}" if term.do_not_translate else f"{quote(target[a:b])} is left untranslated: the glossary has {quote(wanted)}"
            return QAFinding(PREFIX + check, 0, a, b, target[a:b], what, start, end, fix=fix, note=term.entry())
        at = insertion_point(source, start, target)
        fix = Fix(f"Insert the glossary's {quote(wanted)}", at, at, insertion(target, at, wanted))
        if term.do_not_translate:
            message = f"the source's {quote(surface)} is to stand untranslated, and the hypothesis lacks it"
        else:
            message = f"the source's {quote(surface)} is {quote(wanted)} in the glossary, and the hypothesis lacks it"
        return QAFinding(PREFIX + check, 0, at, at, "", message, start, end, fix=fix, note=term.entry())


def _exact(text: str, term: str, by_string: bool) -> bool:
    """``term`` in ``text`` as it is, as whole words unless by string."""
    return any(by_string or _whole(text, a, a + len(term)) for a in _occurrences(text, term))


def _occurrences(text: str, term: str) -> Iterator[int]:
    a = text.find(term)
    while a >= 0 and term:
        yield a
        a = text.find(term, a + 1)


def _whole(text: str, a: int, b: int) -> bool:
    return (a == 0 or not text[a - 1].isalnum()) and (b == len(text) or not text[b].isalnum())


def _left(surface: str, target: str, words, folded: str, side: _Side) -> tuple[int, int] | None:
    """Where the source's own words for a term stand in the hypothesis (case ignored)."""
    if side.by_string(surface):
        a = folded.find(surface.casefold())
        return (a, a + len(surface)) if a >= 0 and len(folded) == len(target) else None
    key = tuple(w.casefold() for w in _WORD.findall(surface))
    plain = [(target[a:b].casefold(), a, b) for _, a, b in words]
    return _find_words(plain, key) if key else None
