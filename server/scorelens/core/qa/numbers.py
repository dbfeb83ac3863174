"""Numbers: the source's numbers, by value, in the hypothesis, each side read by its language's
conventions.

translate-toolkit's ``numbers`` check compares digit strings (its own TODO: "handle locale-based
periods"), so ``1,000`` in English against ``1.000`` in German is an error there and ``1,000``
against German ``1,000`` (which a German reads as one) is not. Here a number is read as its
language writes them: the decimal mark and the grouping marks of the table below, any space
(U+0020 before three digits, U+00A0, U+202F, U+2009) grouping everywhere, digits of any script
(full-width ``１，０００`` too). A number its language's conventions cannot read is read by every
convention that can (``3.14`` in German is still 3.14); one no convention reads (``3.5.2010``,
``192.168.0.1``) is its parts. Without a language, every reading counts: ``1,000`` may be 1000 or 1.
Japanese and Chinese ``万``/``億`` after a number, and English ``thousand``/``million``/``billion``,
give it a second reading multiplied (``1万`` is 1 or 10,000).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from .model import QAFinding
from .spans import Item, Skipped, language_name, mismatch_findings, pair, primary, quote, region_tag

DIGIT = re.compile(r"\d")
_SEPARATORS = ".,'’\u00a0\u202f\u2009\uff0c\uff0e\u066b\u066c"
NUMBER = re.compile(rf"\d+(?:(?:[{_SEPARATORS}]|[ ](?=\d{{3}}(?!\d)))\d+)*")
_MARKED = re.compile(rf"\d[{_SEPARATORS} ]\d")  # a number with a mark in it: conventions read it
_SPACES = " \u00a0\u202f\u2009"
# marks as read once NFKC has made full-width ones ASCII; Arabic's decimal and thousands marks
_MARKS = str.maketrans({"\u066b": ".", "\u066c": ","})
_GROUP_SPLIT = re.compile(r"[,.'’ ]")

# (decimal mark, grouping marks besides spaces, grouping mark written in a fix)
POINT = (".", ",", ",")  # 1,234.5
COMMA_DOT = (",", ".", ".")  # 1.234,5
COMMA_SPACE = (",", "", "\u202f")  # 1 234,5
APOSTROPHE = (".", "'’", "’")  # 1’234.5 (Switzerland)
CONVENTIONS = (POINT, COMMA_DOT, COMMA_SPACE, APOSTROPHE)
_BY_LANGUAGE = {
    **dict.fromkeys("en ja zh ko th he hi bn ta te mr gu kn ml pa ur ms fil tl sw ga cy mt ar fa".split(), POINT),
    **dict.fromkeys("de da nl it es pt id tr el ro hr sl sr bs is vi ca gl eu az mk".split(), COMMA_DOT),
    **dict.fromkeys("fr ru uk be pl cs sk sv fi nb nn no et lv lt hu bg ka kk uz hy".split(), COMMA_SPACE),
    **dict.fromkeys(["de-ch", "de-li", "it-ch"], APOSTROPHE),
    **dict.fromkeys(["es-mx", "es-us", "es-419", "en-in"], POINT),
    "pt-pt": COMMA_SPACE,
}
# a word after a number that multiplies it: the number also reads as that much
_MULTIPLIERS = {"万": 10**4, "萬": 10**4, "億": 10**8, "亿": 10**8, "兆": 10**12}
_SCALE_WORDS = re.compile(r"\s?(thousand|million|billion|trillion)\b", re.IGNORECASE)
_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
# English words for numbers: a month's name (or its abbreviation, with its full stop), a number (up to ninety-nine), an ordinal up to twelfth.
# They pair with digits on the other side ("October 1, 1907" is "1907年10月1日"; "Ninety-five
# chapters" is "95章") but are not missing when the other side writes them as words too.
_ABBREVIATIONS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
_MONTHS = "January February March April May June July August September October November December".split()
_CARDINALS = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_MONTH_NAMES = {w.casefold() for w in _MONTHS} | {w.casefold() + "." for w in _ABBREVIATIONS} | {"sept."}
_UNITS = frozenset(_CARDINALS[:9])
_WORD_VALUES = {
    **{w.casefold() + ".": n for n, w in enumerate(_ABBREVIATIONS, 1)},
    "sept.": 9,
    **{w.casefold(): n for names in (_MONTHS, _CARDINALS, _ORDINALS) for n, w in enumerate(names, 1)},
    **{w: 10 * n for n, w in enumerate(_TENS, 2)},
}
_NUMBER_WORD = re.compile(r"[A-Za-z]+\.?")  # looked up in _CANDIDATES
# the words _NUMBER_WORD may match that are worth a look, in their cases, with a full stop or not
_CANDIDATES = frozenset(
    form + stop for word in _WORD_VALUES for form in (word.rstrip("."), word.rstrip(".").capitalize()) for stop in ("", ".")
)
_UNIT = re.compile(r"-([a-z]+)")


@lru_cache(maxsize=64)
def convention(language: str | None) -> tuple[str, str, str] | None:
    if not language:
        return None
    return _BY_LANGUAGE.get(region_tag(language)) or _BY_LANGUAGE.get(primary(language))


def _normal(token: str) -> str:
    """ASCII digits and marks, spaces as U+0020."""
    if token.isascii():
        return token
    token = unicodedata.normalize("NFKC", token).translate(_MARKS)
    for space in _SPACES[1:]:
        token = token.replace(space, " ")
    return "".join(str(unicodedata.digit(c)) if c.isdigit() and not c.isascii() else c for c in token)


def _grouped(integer: str, marks: str) -> str | None:
    """The digits of an integer part written with grouping ``marks`` (and spaces), or None when
    its groups are not groups: 1-3 digits, then 2 or 3 (Indian lakhs), the last 3."""
    if integer.isdigit():
        return integer
    if any(c not in marks + " " for c in integer if not c.isdigit()):
        return None
    groups = _GROUP_SPLIT.split(integer)
    if not (1 <= len(groups[0]) <= 3 and len(groups[-1]) == 3 and all(len(g) in (2, 3) for g in groups[1:-1])):
        return None
    return "".join(groups)


def read(token: str, conv: tuple[str, str, str]) -> Decimal | None:
    """The value of a normalised number by one convention, or None when it cannot be read so."""
    decimal, marks, _ = conv
    integer, found, fraction = token.rpartition(decimal) if decimal in token else (token, "", "")
    if found and not fraction.isdigit():
        return None
    digits = _grouped(integer, marks)
    if digits is None or not digits:
        return None
    try:
        return Decimal(f"{digits}.{fraction}" if found else digits)
    except InvalidOperation:
        return None


def readings(token: str, conv: tuple[str, str, str] | None) -> frozenset[Decimal] | None:
    """The values a normalised number may have: its language's reading, else every convention's;
    None when none reads it."""
    if conv is not None:
        value = read(token, conv)
        if value is not None:
            return frozenset((value,))
    values = frozenset(v for c in CONVENTIONS if (v := read(token, c)) is not None)
    return values or None


def numbers(text: str, conv: tuple[str, str, str] | None, skip: Skipped | None = None, paired: Counter | None = None) -> list[Item]:
    """The numbers of ``text`` outside the ``skip`` spans (placeholders, tags, URLs), each with
    the set of values it may have as its key; less those ``paired`` already (as many of each text)."""
    found = []
    for m in NUMBER.finditer(text):
        start, end = m.span()
        if paired and paired[m.group()]:
            paired[m.group()] -= 1
            continue
        if skip and skip.overlaps(start, end):
            continue
        token = _normal(m.group())
        values = frozenset((Decimal(token),)) if token.isdigit() else readings(token, conv)
        if values is None:  # no convention reads it: its parts, each a number
            for part in re.finditer(r"\d+", m.group()):
                value = Decimal(_normal(part.group()))
                found.append(Item(start + part.start(), start + part.end(), part.group(), _multiplied(text, start + part.end(), frozenset((value,)))))
            continue
        found.append(Item(start, end, m.group(), _multiplied(text, end, values)))
    return found


def number_words(text: str, language: str | None) -> list[Item]:
    """English words for numbers (for an English side, or one whose language is not known)."""
    if language and primary(language) != "en":
        return []
    # by start: "one" and "one." find the same word. Hyphens part words: "first-order", "mid-seventh"
    found: dict[int, Item] = {}
    for hit in _CANDIDATES.intersection(_NUMBER_WORD.findall(text)):  # a few words, if any: found by str.find
        word = hit[:-1] if hit.endswith(".") and hit.casefold() not in _WORD_VALUES else hit  # a sentence's full stop
        folded = word.casefold()
        if folded in _MONTH_NAMES and not word[0].isupper():
            continue  # "may", "march": verbs
        at = text.find(hit)
        while at >= 0:
            end = at + len(word)
            if (at == 0 or not _letter(text[at - 1])) and (end == len(text) or not _letter(text[end])):
                value = _WORD_VALUES[folded]
                unit = _UNIT.match(text, end) if folded in _TENS else None
                if unit and unit.group(1) in _UNITS:  # "twenty-one"
                    value += _WORD_VALUES[unit.group(1)]
                    end = unit.end()
                found[at] = Item(at, end, text[at:end], frozenset((Decimal(value),)))
            at = text.find(hit, at + 1)
    items = [found[at] for at in sorted(found)]
    return [i for k, i in enumerate(items) if not (k and i.start < items[k - 1].end)]  # "one" of "twenty-one"


def _letter(c: str) -> bool:
    return c.isascii() and c.isalpha()


def _multiplied(text: str, end: int, values: frozenset[Decimal]) -> frozenset[Decimal]:
    factor = _MULTIPLIERS.get(text[end : end + 1])
    if factor is None:
        m = _SCALE_WORDS.match(text, end)
        factor = _SCALES[m.group(1).lower()] if m else None
    return values | {v * factor for v in values} if factor else values


def _format(value_text: str, source_conv: tuple[str, str, str], target_conv: tuple[str, str, str]) -> str:
    """A source number written as the target language writes it: the same digits, the target's
    decimal mark, and its grouping mark where the source grouped."""
    decimal, _, _ = source_conv
    token = _normal(value_text)
    integer, found, fraction = token.rpartition(decimal) if decimal in token else (token, "", "")
    digits = _grouped(integer, source_conv[1])
    if digits is None:
        return value_text
    if digits != integer:  # grouped in the source: grouped in the target
        head = len(digits) % 3 or 3
        digits = target_conv[2].join([digits[:head], *(digits[i : i + 3] for i in range(head, len(digits), 3))])
    return digits + (target_conv[0] + fraction if found else "")


def check(
    source: str, target: str, source_language: str | None, target_language: str | None, skip_source: Skipped | None = None, skip_target: Skipped | None = None
) -> list[QAFinding]:
    if not (DIGIT.search(source) or DIGIT.search(target)):
        return []
    source_conv, target_conv = convention(source_language), convention(target_language)
    paired = None
    if not (skip_source or skip_target):
        # a number written the same on both sides reads the same (in one convention, or with no
        # mark in it): those pair without being read, and most segments are done here
        ours, theirs = NUMBER.findall(source), NUMBER.findall(target)
        if sorted(ours) == sorted(theirs) and (source_conv == target_conv or not any(_MARKED.search(k) for k in ours)):
            return []
        paired = Counter(ours) & Counter(theirs)
        if source_conv != target_conv:
            paired = Counter({k: n for k, n in paired.items() if not _MARKED.search(k)})
    ours = numbers(source, source_conv, skip_source, paired and paired.copy())
    theirs = numbers(target, target_conv, skip_target, paired)
    def same(s: Item, t: Item) -> bool:
        return bool(s.key & t.key)

    missing, extra = pair(ours, theirs, same)
    # then words pair with digits left over, or with nothing
    if extra:
        extra = pair(number_words(source, source_language), extra, same)[1]
    if missing:
        missing = pair(missing, number_words(target, target_language), same)[0]
    if not (missing or extra):
        return []

    def replacement(s: Item, t: Item) -> str | None:
        if _MULTIPLIERS.get(target[t.end : t.end + 1]) or _SCALE_WORDS.match(target, t.end):
            return None  # "2万" -> "10,000万" would be no better
        if target_conv is None or read(_normal(s.text), target_conv) in s.key:
            return s.text  # the target's language reads the source's number as the source does
        if source_conv is None or len(s.key) != 1:
            return None  # how the source means it is not known
        return _format(s.text, source_conv, target_conv)

    found = mismatch_findings("number", source, target, missing, extra, "number", replacement)
    if target_conv is None:
        return found
    return [_explained(f, source, target_language, target_conv) for f in found]


def _explained(finding: QAFinding, source: str, target_language: str, target_conv: tuple[str, str, str]) -> QAFinding:
    """Where the digits are the source's but the target's language reads them otherwise, say so."""
    if finding.fix is None or finding.source_start is None:
        return finding
    theirs = source[finding.source_start : finding.source_end]
    value = read(_normal(finding.text), target_conv)
    if value is None or _digits(finding.text) != _digits(theirs):
        return finding
    return replace(
        finding,
        message=f"{quote(finding.text)} reads {_plain(value)} in {language_name(target_language)}, "
        f"not the source's {quote(theirs)}: write {quote(finding.fix.text)}",
    )


def _digits(text: str) -> str:
    return "".join(c for c in _normal(text) if c.isdigit())


def _plain(value: Decimal) -> str:
    return format(value.normalize(), "f")
