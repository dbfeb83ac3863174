"""The ends of a segment: its end punctuation and its leading and trailing whitespace.

translate-toolkit's ``endpunc``, ``startwhitespace`` and ``endwhitespace`` judge; the source's
punctuation is first put in the target language's forms by its language tables (English "."
is Japanese "。", "!" is French " !"), and the fix writes that form. One departure: ends equal
but for compatibility forms are equal (NFKC): full-width "？", "！", "：" are "?", "!", ":" (the
toolkit's Japanese table has no mapping for them, so a Japanese question ending in "？" would
fail against English "?"), and "…" is "...".
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from .model import PREFIX, Fix, QAFinding
from .spans import language_name, quote
from .toolkit import checker, language, passes

_ANY_END = language(None).sentenceend + ":"  # a source's end marks, before they are put in the target's forms


def _end_run(text: str, marks: str) -> int:
    """Where the run of end punctuation (and spaces between it) at the end of ``text`` starts."""
    i = len(text)
    while i and (text[i - 1] in marks or text[i - 1].isspace()):
        i -= 1
    while i < len(text) and text[i].isspace():  # a run starts at a mark, not at the space before it
        i += 1
    return i


@lru_cache(maxsize=1024)
def _mapped(end: str, target_language: str | None) -> str:
    """A source's end punctuation in the target language's forms (the toolkit's mapping acts on
    the end alone: what comes before a run of end marks leaves it as it is)."""
    return language(target_language).punctranslate(end) if end else end


def end_punctuation(source: str, target: str, languages) -> list[QAFinding]:
    marks = checker(*languages).config.endpunctuation + ":"
    s, t = source.rstrip(), target.rstrip()
    if not s or not t or (s[-1] not in marks and s[-1] not in _ANY_END and t[-1] not in marks):
        return []
    marks += _ANY_END  # "." in a Japanese hypothesis is end punctuation too: the fix replaces it
    if _mapped(s[_end_run(s, marks) :], languages[1]) == t[_end_run(t, marks) :]:
        return []  # as the toolkit's check would say, sooner: the ends are the same
    if passes("endpunc", source, target, *languages):
        return []
    translated = language(languages[1]).punctranslate(source).rstrip()
    theirs = translated[len(translated[: _end_run(translated, marks)].rstrip()) :]
    start = len(t[: _end_run(t, marks)].rstrip())  # the spaces before the run go with it: "Bonjour !" -> "Bonjour."
    ours = t[start:]
    if unicodedata.normalize("NFKC", theirs) == unicodedata.normalize("NFKC", ours):
        return []
    source_at = _end_run(s, marks)
    have = f"ends with {quote(ours.strip())}" if ours else "has no end punctuation"
    if not theirs:
        fix = Fix(f"Remove {quote(ours.strip())}: the source has no end punctuation", start, len(t), "")
        message = f"{have}; the source has none"
    else:
        fix = Fix(f"End with {quote(theirs)}, as the source does", start, len(t), theirs)
        if theirs == s[source_at:]:
            message = f"{have}; the source ends with {quote(s[source_at:])}"
        else:
            message = f"{have}; the source's {quote(s[source_at:])} is {quote(theirs)} in {language_name(languages[1])}"
    return [QAFinding(PREFIX + "end-punctuation", 0, start, len(t), target[start : len(t)], message, source_at, len(s), fix=fix)]


def whitespace(source: str, target: str, languages) -> list[QAFinding]:
    found = []
    if (source[:1].isspace() or target[:1].isspace()) and not passes("startwhitespace", source, target, *languages):
        ours = source[: len(source) - len(source.lstrip())]
        theirs = target[: len(target) - len(target.lstrip())]
        found.append(_whitespace("leading", 0, len(theirs), theirs, ours, 0, len(ours)))
    if (source[-1:].isspace() or target[-1:].isspace()) and not passes("endwhitespace", source, target, *languages):
        translated = language(languages[1]).punctranslate(source)
        ours = translated[len(translated.rstrip()) :]
        end = len(target.rstrip())
        found.append(_whitespace("trailing", end, len(target), target[end:], ours, len(source.rstrip()), len(source)))
    return found


def _whitespace(side: str, start: int, end: int, theirs: str, ours: str, source_start: int, source_end: int) -> QAFinding:
    fix = Fix(f"Make the {side} whitespace the source's ({quote(ours)})", start, end, ours)
    return QAFinding(PREFIX + "whitespace", 0, start, end, theirs, f"{side} whitespace {quote(theirs)}; the source has {quote(ours)}", source_start, source_end, fix=fix)
