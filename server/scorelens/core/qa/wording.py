"""Words: an untranslated segment, source words left in the hypothesis, a doubled word."""

from __future__ import annotations

import re

from translate.filters.checks.tags import tag_re

from .model import PREFIX, Fix, QAFinding
from .spans import Skipped, quote
from .toolkit import language, passes

_WORD = re.compile(r"\w+(?:['’]\w+)*")
_TOKEN = re.compile(r"\S+")
_LETTER = re.compile(r"[^\W\d_]")
_LETTER_OR_DIGIT = re.compile(r"[^\W_]")
SOURCE_RUN = 3  # words in a row, at the least, for source-words
REAL_WORD = 4  # letters, at the least, of the lower-case word a run needs (not only "de la", "of the")
# The source's places a run at one hypothesis word is tried from, at most (the first ones): a long,
# repetitive segment (a file whose lines end in a bare "\r" is one) would have every word tried
# against most of the source's. Texts that repeat three words in a row more often than this lose
# only the choice of the longest run among the later ones.
RUN_STARTS = 16


def untranslated(source: str, target: str) -> list[QAFinding]:
    """The hypothesis is empty or blank (translate-toolkit's ``untranslated`` and ``blank``) or is the source, but for
    case and spaces, and the source has letters.

    The second is translate-toolkit's ``unchanged`` check, but for two things: spaces inside count
    as one ("a  b" is "a b"), and a source with letters but no case (Japanese, Chinese) is not
    taken for a name. As there, a source in capitals kept as it is ("NASA", "OK") is not flagged."""
    s, t = source.strip(), target.strip()
    if s and not t:
        return [QAFinding(PREFIX + "untranslated", 0, 0, 0, "", "the hypothesis is empty", len(source) - len(source.lstrip()), len(source.rstrip()))]
    if len(s) < 2 or s[0].casefold() != t[0].casefold() or s.casefold().split() != t.casefold().split() or not _LETTER.search(s):
        return []
    if s == target.strip() and s.upper() == s and s.lower() != s:
        return []
    start, end = len(target) - len(target.lstrip()), len(target.rstrip())
    return [QAFinding(PREFIX + "untranslated", 0, start, end, target[start:end], "the hypothesis is the source, untranslated", len(source) - len(source.lstrip()), len(source.rstrip()))]


def source_words(source: str, target: str, skip_source: Skipped | None = None, skip_target: Skipped | None = None) -> list[QAFinding]:
    """Runs of at least three of the source's words, in its order, standing in the hypothesis,
    with one lower-case word of four letters or more among them: a name ("Juan de la Cruz",
    "World Health Organization"), a number or a placeholder alone is not a phrase left
    untranslated. Only scripts with case have such words, so a Japanese source has none."""
    # first whether one word a run needs is there at all (most hypotheses have none)
    real = {w.casefold() for w in _WORD.findall(target) if _real(w)}
    if not real or not real & set(_WORD.findall(source.casefold())):
        return []
    ours, theirs = _words(source, skip_source), _words(target, skip_target)
    # a run starts where the source has the same SOURCE_RUN words: only those places are tried
    where: dict[tuple[str, ...], list[int]] = {}
    for i in range(len(ours) - SOURCE_RUN + 1):
        where.setdefault(tuple(w for w, _, _ in ours[i : i + SOURCE_RUN]), []).append(i)
    found = []
    j = 0
    while j <= len(theirs) - SOURCE_RUN:
        best = (0, 0)  # (length, source index) of the longest run starting at target word j
        for i in where.get(tuple(w for w, _, _ in theirs[j : j + SOURCE_RUN]), ())[:RUN_STARTS]:
            n = SOURCE_RUN
            while i + n < len(ours) and j + n < len(theirs) and ours[i + n][0] == theirs[j + n][0]:
                n += 1
            best = max(best, (n, -i))
        n, i = best[0], -best[1]
        if n >= SOURCE_RUN and any(_real(target[a:b]) for _, a, b in theirs[j : j + n]):
            start, end = theirs[j][1], theirs[j + n - 1][2]
            found.append(QAFinding(PREFIX + "source-words", 0, start, end, target[start:end], f"{quote(target[start:end])} is the source's words, untranslated", ours[i][1], ours[i + n - 1][2]))
            j += n
        else:
            j += 1
    return found


def _words(text: str, skip: Skipped | None) -> list[tuple[str, int, int]]:
    words = [(m.group().casefold(), m.start(), m.end()) for m in _WORD.finditer(text)]
    return [w for w in words if not skip.overlaps(w[1], w[2])] if skip else words


def _real(word: str) -> bool:
    return len(word) >= REAL_WORD and word.isalpha() and word.islower()


def _pairs(text: str) -> list[tuple[str, str]]:
    tokens = [n for t in text.split() if (n := _plain(t))]
    return list(zip(tokens, tokens[1:]))


def _plain(token: str) -> str:
    """A token as translate-toolkit's ``doublewords`` compares it."""
    return (tag_re.sub("", token) if "<" in token else token).replace(".", "").lower()


def doubled_words(source: str, target: str, languages) -> list[QAFinding]:
    """translate-toolkit's ``doublewords``: a word twice in a row (tags left out, full stops
    and case ignored; a language's valid doubles allowed), each repeat with its span and a fix
    that keeps one (the first one's case, the last one's full stop). Two departures: punctuation
    is no word (the toolkit flags '" "' and "- -"), and a repeat the source has too is meant
    ("Bora Bora", "(Laughter) (Laughter)")."""
    valid = language(languages[1]).validdoublewords
    tokens = [(n, m) for m in _TOKEN.finditer(target) if (n := _plain(m.group()))]
    repeats = [(a, b) for (n1, a), (n2, b) in zip(tokens, tokens[1:]) if n1 == n2 and n1 not in valid and _LETTER_OR_DIGIT.search(n1)]
    if not repeats or passes("doublewords", source, target, *languages):
        return []
    doubled_in_source = {n1 for n1, n2 in _pairs(source) if n1 == n2}
    repeats = [(a, b) for a, b in repeats if _plain(a.group()) not in doubled_in_source]
    found = []
    for first, second in repeats:
        word = first.group()
        fix = None
        if "<" not in word + second.group():
            kept = word if word.endswith(".") else word + second.group()[len(second.group().rstrip(".")) :]
            fix = Fix(f"Remove the repeated {quote(second.group())}", first.start(), second.end(), kept)
        found.append(QAFinding(PREFIX + "doubled-word", 0, second.start(), second.end(), second.group(), f"{quote(second.group())} repeats the word before it", fix=fix))
    return found
