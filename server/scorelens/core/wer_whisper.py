"""The ``whisper-normalizer`` package's ``EnglishTextNormalizer`` and ``BasicTextNormalizer``: the
same output for every text, faster.

The English one runs some sixty regular expressions, a character-by-character symbol filter
and a word-by-word number parser over every text; most of them change nothing in most texts.
Here every step is the package's (its patterns, parser and tables, read from the installed
package where it keeps them), in its order, and a step is skipped only where it cannot change
the text:

- a substitution whose every match holds a literal (``won't``, ``'s``, ``(``) is skipped when
  the text lacks it; one of ``\\bX\\b`` with ``X`` a word (``mr``, ``um``) when ``X`` is not one
  of the text's maximal runs of word characters; a block of them when none can match;
- the symbol filters decide each character of the NFKD (NFKC) text on its own, so they are a
  ``str.translate`` with a table filled from the package's rule as characters are met;
- the number parser passes a word it does not read (not in its vocabulary, not a number) through
  with its state reset, and to it such a word is the same neighbour as the text's start or
  end. So it is run on each maximal run of the words it reads alone (cached: runs recur), the
  other words are kept, and its pre- and post-processing substitutions run only on the texts
  that hold what they react to (digits, "half", "1").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache
from itertools import groupby

__all__ = ["basic", "english"]

_ASCII_DIGIT = re.compile(r"[0-9]")
_DIGIT = re.compile(r"\d")
_NUMBER = re.compile(r"^\d+(\.\d+)?$")  # a number to the number parser
_CURRENCY_DIGIT = re.compile(r"[€£$][0-9]")  # in every match of the parser's postprocessing but "1"s'
_ONES = re.compile(r"\b1(s?)\b")  # the postprocessing's "1"s and "1s" back to "one"s and "ones"
_SPACES = re.compile(r"\s+")


class _Table(dict):
    """A ``str.translate`` table of a per-character rule, filled as characters are met."""

    def __init__(self, rule: Callable[[str], str]) -> None:
        super().__init__()
        self.rule = rule

    def __missing__(self, code: int) -> str:
        self[code] = out = self.rule(chr(code))
        return out


# a text's maximal runs of word characters (what \b bounds) are the words of it translated thus
_RUNS = _Table(lambda c: c if re.match(r"\w", c) else " ")


class _Sub:
    """``re.sub(pattern, replacement, text)``, run only when the text holds one of ``needles``
    (every match of the pattern holds one; none given: always run)."""

    def __init__(self, pattern: str, replacement: str | Callable[[re.Match], str], needles: Iterable[str] = ()) -> None:
        self.pattern = pattern
        self.sub = re.compile(pattern).sub
        self.replacement = replacement
        self.needles = tuple(needles)

    def __call__(self, text: str) -> str:
        if not self.needles:
            return self.sub(self.replacement, text)
        for needle in self.needles:
            if needle in text:
                return self.sub(self.replacement, text)
        return text


# the package's other substitutions; templates as functions (re expands a template in Python)
_BRACKETS = _Sub(r"[<\[][^>\]]*[>\]]", "", "<[")
_PARENTHESES = _Sub(r"\(([^)]+?)\)", "", "(")
_APOSTROPHES = _Sub(r"\s+'", "'", "'")
_COMMAS = _Sub(r"(\d),(\d)", lambda m: m[1] + m[2], ",")
_PERIODS = _Sub(r"\.([^0-9]|$)", lambda m: " " + m[1], ".")
_CURRENCY = re.compile(r"[.$¢€£]([^0-9])")
_PERCENT = re.compile(r"([^0-9])%")


def _literal(pattern: str) -> str | None:
    """What a replacer's pattern matches if it is a literal, maybe between word boundaries
    (``\\bwon't\\b``, ``'s\\b``), else None."""
    text = pattern.removeprefix(r"\b").removesuffix(r"\b")
    return text if re.fullmatch(r"[a-z' ]+", text) else None


def _bounded(pattern: str) -> list[str] | None:
    """The literals ``X`` of a pattern ``\\bX\\b`` or ``\\b(X|Y)\\b`` that start and end with a
    word character (``won't``, ``hmm``), else None."""
    literal = r"\w(?:[\w' ]*\w)?"
    match = re.fullmatch(rf"\\b(\({literal}(?:\|{literal})*\)|{literal})\\b", pattern)
    return match[1].strip("()").split("|") if match else None


class _Words:
    """Substitutions of patterns ``\\bX\\b``, skipped together when none can match: an ``X`` of
    word characters only must be one of the text's maximal word ``runs``, another (``won't``)
    must be in the text."""

    def __init__(self, subs: list[_Sub]) -> None:
        self.subs = subs
        literals = [x for sub in subs for x in _bounded(sub.pattern)]
        self.heads = frozenset(x for x in literals if re.fullmatch(r"\w+", x))
        self.needles = tuple(x for x in literals if x not in self.heads)

    def __call__(self, text: str, runs: list[str]) -> str:
        if self.heads.isdisjoint(runs) and not any(needle in text for needle in self.needles):
            return text
        for sub in self.subs:
            text = sub(text)
        return text


class _Block:
    """Substitutions skipped together when the alternation of their patterns finds nothing
    in the text: then none of them matches, so none changes it (a pattern that refers back
    to a group, whose number the alternation would change, is always run)."""

    def __init__(self, subs: list[_Sub]) -> None:
        self.subs = subs
        self.search = None
        if not any(re.search(r"\\[1-9]|\(\?P=", sub.pattern) for sub in subs):
            self.search = re.compile("|".join(f"(?:{sub.pattern})" for sub in subs)).search

    def __call__(self, text: str, runs: list[str] = ()) -> str:
        if self.search is not None and self.search(text) is None:
            return text
        for sub in self.subs:
            text = sub(text)
        return text


def _block(subs: list[_Sub]) -> _Words | _Block:
    return _Words(subs) if all(_bounded(sub.pattern) for sub in subs) else _Block(subs)


class _English:
    def __init__(self) -> None:
        from whisper_normalizer.basic import remove_symbols_and_diacritics
        from whisper_normalizer.english import EnglishTextNormalizer

        package = EnglishTextNormalizer()
        self.fillers = _block([_Sub(package.ignore_patterns, "")])  # hmm, mm, mhm, mmm, uh, um
        subs = [_Sub(p, r, filter(None, [_literal(p)])) for p, r in package.replacers.items()]
        # contractions and titles (won't, mr), then endings ('s, n't): a block each
        self.replacers = [_block(list(run)) for _, run in groupby(subs, lambda sub: _bounded(sub.pattern) is not None)]
        keep = ".%$¢€£"  # the package's: numeric symbols
        self.symbols = _Table(lambda c: remove_symbols_and_diacritics(c, keep=keep))
        self.numbers = package.standardize_numbers
        self.reads = frozenset(self.numbers.words)
        # "and"s alone are yielded as met: the parser holds no number, the next word is none
        # and the previous word no multiplier
        self.reads_besides_and = self.reads - {"and"}
        self.prefixes = frozenset(self.numbers.prefixes)
        self.run = lru_cache(maxsize=1 << 16)(lambda run: list(self.numbers.process_words(list(run))))
        self.spellings = package.standardize_spellings.mapping
        # each spelling words between single spaces: the spelled text's whitespace is single spaces
        self.spaced = all(re.fullmatch(r"\S+( \S+)*", v) for v in self.spellings.values())

    def __call__(self, s: str) -> str:
        s = _PARENTHESES(_BRACKETS(s.lower()))
        # the fillers' and the apostrophes' substitutions delete only whole runs or non-word
        # characters between non-word characters: the word runs after them are among these
        runs = s.translate(_RUNS).split()
        s = self.fillers(s, runs)
        s = _APOSTROPHES(s)
        for replace in self.replacers:
            s = replace(s, runs)
        if "," in s and _DIGIT.search(s) is not None:
            s = _COMMAS(s)
        s = _PERIODS(s)
        s = unicodedata.normalize("NFKD", s).translate(self.symbols)
        words = self.number_words(s)
        s = " ".join(map(self.spellings.get, words, words))
        s, changed = _CURRENCY.subn(lambda m: " " + m[1], s)
        if "%" in s:
            s, percents = _PERCENT.subn(lambda m: m[1] + " ", s)
            changed += percents
        return _SPACES.sub(" ", s) if changed or not self.spaced else s

    def number_words(self, s: str) -> list[str]:
        """The words of ``EnglishNumberNormalizer()(s)``."""
        numbers = self.numbers
        digits = _DIGIT.search(s) is not None
        if "half" in s or (digits and _ASCII_DIGIT.search(s) is not None):  # what preprocessing reacts to
            s = numbers.preprocess(s)
            digits = _DIGIT.search(s) is not None
        words = s.split()
        if not digits:
            if self.reads_besides_and.isdisjoint(words):
                return words
            reads = [i for i, w in enumerate(words) if w in self.reads]
        else:  # a number ends with a digit (\d is what str.isdecimal is)
            prefixes, number = self.prefixes, _NUMBER.match
            reads = [
                i for i, w in enumerate(words) if w in self.reads or (w[-1].isdecimal() and number(w[1:] if w[0] in prefixes else w))
            ]
        out: list[str] = []
        done = k = 0  # words[:done] are in out; reads[k] starts the next run
        while k < len(reads):
            start = end = reads[k]
            while k < len(reads) and reads[k] == end:
                k, end = k + 1, end + 1
            out += words[done:start]
            out += self.run(tuple(words[start:end]))
            done = end
        out += words[done:]
        s = " ".join(out)
        if _CURRENCY_DIGIT.search(s) is not None:
            return numbers.postprocess(s).split()
        # without a currency symbol before a digit, postprocessing is its last substitution
        return _ONES.sub(lambda m: "one" + m[1], s).split() if "1" in s else out


class _Basic:
    def __init__(self) -> None:
        from whisper_normalizer.basic import remove_symbols

        # BasicTextNormalizer()'s filter: diacritics kept, marks not kept (letters not split)
        self.symbols = _Table(remove_symbols)

    def __call__(self, s: str) -> str:
        s = _PARENTHESES(_BRACKETS(s.lower()))
        s = unicodedata.normalize("NFKC", s).translate(self.symbols).lower()
        return _SPACES.sub(" ", s)


def english() -> Callable[[str], str]:
    """``EnglishTextNormalizer()``'s function (it loads the package's spelling table)."""
    return _English()


def basic() -> Callable[[str], str]:
    """``BasicTextNormalizer()``'s function."""
    return _Basic()
