"""Terminology: the glossary's terms found in a source segment, and whether the hypothesis uses
the target term each asks for (or, for a "do not translate" entry, keeps the term as it is).

A term is found as whole words, case ignored, each word compared by its stem where the language
has a Snowball stemmer (nltk's: English, German, French, Spanish, Russian… 15 languages), so
"files" finds the term "file" and "Dateien" satisfies "Datei". In Japanese, Chinese and Thai,
written without spaces, a term is found as a string (case ignored). Overlapping terms: the
longest one found first wins. A "do not translate" term must stand in the hypothesis unchanged
(as whole words, case kept).

A term in capitals ("IT", "US") is an abbreviation, found only in capitals.
Texts are compared in NFC (decomposed accents match composed ones), and Turkish's dotted and
dotless i are one letter with case ignored ("İzmir" is "izmir", "IŞIK" is "ışık"). A term's
punctuation must stand in the text too ("C++" is not "C", ".NET" is not "net"); a term without
letters or digits ("%", "->") is found as a string.
"""

from __future__ import annotations

import bisect
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterator, NamedTuple, Sequence

import regex

from .model import PREFIX, Fix, QAFinding
from .spans import insertion, insertion_point, primary, quote

_WORD = regex.compile(r"[\w\p{M}]+(?:['’][\w\p{M}]+)*")  # with combining marks: NFD accents, Indic vowel signs
_UNSPACED = {"ja", "zh", "th", "lo", "km", "my", "bo"}
_UNSPACED_SCRIPT = regex.compile(r"[\u0e00-\u0eff\u1000-\u109f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_DASH = regex.compile(r"\p{Pd}")
_TURKISH_I = str.maketrans({"İ": "i", "ı": "i"})  # casefold() makes "İ" "i̇" and keeps "ı"
_STEMMERS = {
    "ar": "arabic", "da": "danish", "nl": "dutch", "en": "english", "fi": "finnish", "fr": "french",
    "de": "german", "hu": "hungarian", "it": "italian", "nb": "norwegian", "nn": "norwegian",
    "no": "norwegian", "pt": "portuguese", "ro": "romanian", "ru": "russian", "es": "spanish", "sv": "swedish",
}


def _fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).translate(_TURKISH_I).casefold()


@lru_cache(maxsize=4)  # a segment's, asked for by each of its terms
def _folded_with_offsets(text: str) -> tuple[str, Sequence[int]]:
    """``text`` folded, and where in ``text`` each of its characters comes from (the start of its
    grapheme; one more item, ``len(text)``): folding may change the length ("ß" is "ss")."""
    folded = _fold(text)
    if len(folded) == len(text) and unicodedata.is_normalized("NFC", text):
        return folded, range(len(text) + 1)  # character for character (folding never shortens)
    parts, offsets = [], []
    for m in regex.finditer(r"\X", text):
        part = _fold(m.group())
        parts.append(part)
        offsets.extend([m.start()] * len(part))
    offsets.append(len(text))
    return "".join(parts), offsets


class _Words(NamedTuple):
    """A term found by words: their stems, and the punctuation before, between and after them."""

    stems: tuple[str, ...]
    glue: tuple[str, ...]  # len(stems) + 1 strings, as _bare writes them

    def at(self, text: str, words: Sequence[tuple[str, int, int]], i: int) -> tuple[int, int] | None:
        """Where the term stands in ``text`` from its ``i``-th word, its punctuation included."""
        n = len(self.stems)
        if i + n > len(words) or any(words[i + k][0] != self.stems[k] for k in range(n)):
            return None
        start, end = words[i][1], words[i + n - 1][2]
        before, after = self.glue[0], self.glue[-1]
        if _bare(text[max(0, start - len(before)) : start]) != before or _bare(text[end : end + len(after)]) != after:
            return None
        if any(glue and glue != _bare(text[words[i + k][2] : words[i + k + 1][1]]) for k, glue in enumerate(self.glue[1:-1])):
            return None
        return start - len(before), end + len(after)


def _bare(punctuation: str) -> str:
    """Punctuation as terms are compared by: spaces left out, every dash a hyphen ("Wi‑Fi" is "Wi-Fi")."""
    return _DASH.sub("-", "".join(punctuation.split()))


def _glue(term: str) -> tuple[str, ...]:
    cuts = [0, *(x for m in _WORD.finditer(term) for x in m.span()), len(term)]
    return tuple(_bare(term[cuts[k] : cuts[k + 1]]) for k in range(0, len(cuts), 2))


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
            folded = _fold(word)
            found = self._stems[word] = self._stemmer(folded) if self._stemmer else folded
        return found

    def by_string(self, term: str) -> bool:
        return self.unspaced or bool(_UNSPACED_SCRIPT.search(term)) or not _WORD.search(term)

    def words(self, text: str) -> list[tuple[str, int, int]]:
        """``(stem, start, end)`` of each word."""
        return [(self.stem(m.group()), m.start(), m.end()) for m in _WORD.finditer(text)]

    def key(self, term: str) -> _Words | str:
        """What a term is found by: its words' stems and punctuation, or its folded string."""
        return _fold(term) if self.by_string(term) else _Words(tuple(self.stem(w) for w in _WORD.findall(term)), _glue(term))


def _find_words(text: str, words: Sequence[tuple[str, int, int]], key: _Words) -> tuple[int, int] | None:
    return next(filter(None, (key.at(text, words, i) for i in range(len(words) - len(key.stems) + 1))), None)


class Glossary:
    """Terms to look for in source segments, and the target terms the hypothesis should use."""

    def __init__(self, terms: Sequence[Term], source_language: str | None = None, target_language: str | None = None) -> None:
        self.terms = tuple(terms)
        self.source_language = source_language
        self.target_language = target_language
        self._source = _Side(source_language)
        self._target = _Side(target_language)
        # word terms by their first stem; string terms by their first character (folded)
        self._by_first_word: dict[str, list[tuple[_Words, Term]]] = {}
        self._by_first_char: dict[str, list[tuple[str, Term]]] = {}
        for term in self.terms:
            key = self._source.key(term.source)
            if isinstance(key, str):
                if key:
                    self._by_first_char.setdefault(key[0], []).append((key, term))
            else:
                self._by_first_word.setdefault(key.stems[0], []).append((key, term))
        for candidates in self._by_first_word.values():
            candidates.sort(key=lambda c: -len(c[0].stems))  # the longest first
        for strings in self._by_first_char.values():
            strings.sort(key=lambda c: -len(c[0]))

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
                i = self._match_words(source, words, i, found)
        if self._by_first_char:
            self._match_strings(*_folded_with_offsets(source), found)
        found.sort(key=lambda f: f[0])
        return found

    def _match_words(self, source: str, words, i: int, found: list) -> int:
        candidates = self._by_first_word.get(words[i][0], ())
        for key, _ in candidates:
            span = key.at(source, words, i)
            terms = [] if span is None else [t for k, t in candidates if k == key and _cased_as(t.source, source[span[0] : span[1]])]
            if terms:
                found.append((*span, terms))
                return i + len(key.stems)
        return i + 1

    def _match_strings(self, folded: str, offsets: Sequence[int], found: list) -> None:
        taken_starts, taken_ends = [a for a, _, _ in found], [b for _, b, _ in found]  # in order, apart

        def free(a: int, b: int) -> bool:
            k = bisect.bisect_left(taken_ends, a + 1)  # the first word term ending after a
            return k == len(taken_starts) or taken_starts[k] >= b

        i = 0
        while i < len(folded):
            for key, term in self._by_first_char.get(folded[i], ()):
                a, b = offsets[i], offsets[i + len(key)]
                if folded.startswith(key, i) and a < b and free(a, b):
                    found.append((a, b, [t for k, t in self._by_first_char[folded[i]] if k == key]))
                    i += len(key) - 1
                    break
            i += 1

    def check(self, source: str, target: str) -> list[QAFinding]:
        """A finding for each source term whose target term the hypothesis lacks."""
        found = []
        target_words: list[tuple[str, int, int]] | None = None
        seen: set[str] = set()
        for start, end, terms in self.find(source):
            if terms[0].source.casefold() in seen:
                continue  # a term found twice: once is enough to say
            seen.add(terms[0].source.casefold())
            if target_words is None:
                target_words = self._target.words(target)
            if any(self._has(t, target, target_words) for t in terms):
                continue
            found.append(self._finding(source, target, start, end, terms[0], target_words))
        return found

    def _has(self, term: Term, target: str, words) -> bool:
        if term.do_not_translate:
            return _exact(unicodedata.normalize("NFC", target), unicodedata.normalize("NFC", term.source), self._target.by_string(term.source))
        key = self._target.key(term.target)
        if isinstance(key, str):
            return key in _folded_with_offsets(target)[0]
        return _find_words(target, words, key) is not None

    def _finding(self, source: str, target: str, start: int, end: int, term: Term, words) -> QAFinding:
        surface = source[start:end]
        wanted = term.source if term.do_not_translate else term.target
        check = "do-not-translate" if term.do_not_translate else "glossary"
        left = _left(surface, target, words, self._target)
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


def _cased_as(term: str, surface: str) -> bool:
    """Whether ``surface`` may be ``term``: an abbreviation in capitals ("IT", "US") is no word
    written in lower case ("it", "us"); other terms are found with case ignored."""
    return not (term.isupper() and sum(c.isalpha() for c in term) > 1) or surface.isupper()


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


def _left(surface: str, target: str, words, side: _Side) -> tuple[int, int] | None:
    """Where the source's own words for a term stand in the hypothesis (case ignored)."""
    if side.by_string(surface):
        (text, offsets), key = _folded_with_offsets(target), _fold(surface)
        a = text.find(key)
        return (offsets[a], offsets[a + len(key)]) if a >= 0 else None
    stems = tuple(_fold(w) for w in _WORD.findall(surface))
    plain = [(_fold(target[a:b]), a, b) for _, a, b in words]
    return _find_words(target, plain, _Words(stems, ("",) * (len(stems) + 1))) if stems else None
