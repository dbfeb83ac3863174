"""Placeholders, tags, URLs and e-mail addresses: what must come through translation unchanged.

Found with translate-toolkit's own patterns (its printf pattern, its brace pattern, its tag
pattern and tag properties, its URL and e-mail patterns), and judged by its checks (``printf``,
``pythonbraceformat``, ``xmltags``, ``urls``, ``emails``): a pair is flagged only where pofilter
flags it. What ScoreLens adds is which ones: the source's items the hypothesis lacks and the
hypothesis's items the source lacks, with their spans, and a fix that puts the source's item in
the place of a wrong one. Where the two part ways, on purpose:

- its patterns take letters of any script (``\\w``), so "50%の" holds a printf variable ``%の``
  and "http://example.com/を参照" a URL ending in Japanese; here they take ASCII letters only,
  and a URL or e-mail address ends before trailing punctuation ("see http://a.org." links to
  ``http://a.org``). A check that fails only through such a match is not reported.
- tags, URLs and e-mail addresses in another order than the source's fail its checks; here
  they may move with the words around them (word order changes in translation). Unnumbered
  printf placeholders in another order are reported: their order is their meaning.
- ``{{ name }}`` (Mustache, Jinja, Angular) is a placeholder here; translate-toolkit drops
  doubled braces as escapes and checks nothing of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from translate.filters.checks.standard import printf_pat
from translate.filters.checks.tags import intuplelist, tag_re, tagproperties

from .model import PREFIX, QAFinding
from .spans import Item, mismatch_findings, pair, quote
from .toolkit import checker, passes

_BRACES = re.compile(r"\{\{.*?\}\}|\{[^{}]*\}")
# translate-toolkit's URL and e-mail patterns (decoration.geturls, getemails), ASCII letters only
_URL = re.compile(r"https?:[\w/.:;+\-~%#$?=&,()]+|www\.[\w/.:;+\-~%#$?=&,()]+|ftp:[\w/.:;+\-~%#?=&,]+", re.ASCII)
_EMAIL = re.compile(r"[\w.\-]+@[\w.\-]+", re.ASCII)
_TRAILING = ".,;:!?"


@dataclass(frozen=True, slots=True)
class Placeables:
    """One side's placeables by kind."""

    printf: tuple[Item, ...] = ()
    braces: tuple[Item, ...] = ()  # {name}, {0}, {} (translate-toolkit's) and {{ name }} (ours)
    tags: tuple[Item, ...] = ()
    urls: tuple[Item, ...] = ()  # e-mail addresses too

    def spans(self) -> list[tuple[int, int]]:
        if self is NONE:
            return []
        return [(i.start, i.end) for kind in (self.printf, self.braces, self.tags, self.urls) for i in kind]


NONE = Placeables()


def find(text: str, source_language: str | None, target_language: str | None) -> Placeables:
    """The placeables of one side (cheap tests first: most segments have none)."""
    has_url = "http" in text or "www." in text or "ftp:" in text
    if not ("%" in text or "{" in text or "<" in text or "@" in text or has_url):
        return NONE
    return Placeables(
        _printf(text) if "%" in text else (),
        tuple(Item(m.start(), m.end(), m.group(), m.group()) for m in _BRACES.finditer(text)) if "{" in text else (),
        _tags(text, source_language, target_language) if "<" in text else (),
        _urls(text, has_url),
    )


def _printf(text: str) -> tuple[Item, ...]:
    return tuple(Item(m.start(), m.end(), m.group(), m.group()) for m in printf_pat.finditer(text) if m.group("boost_ord") or m.group("type").isascii())


def _tags(text: str, source_language: str | None, target_language: str | None) -> tuple[Item, ...]:
    """Each tag keyed by its name and the attributes that must not change (an ``alt`` or a
    ``title`` may be translated), as translate-toolkit's ``xmltags`` compares them."""
    config = checker(source_language, target_language).config
    items = []
    for m in tag_re.finditer(text):
        properties = tagproperties([m.group()], config.ignoretags)
        items.append(Item(m.start(), m.end(), m.group(), tuple(intuplelist(p, config.canchangetags) for p in properties)))
    return tuple(items)


def _urls(text: str, has_url: bool) -> tuple[Item, ...]:
    found = []
    for pattern in (_URL,) * has_url + (_EMAIL,) * ("@" in text):
        for m in pattern.finditer(text):
            url = m.group()
            while url and (url[-1] in _TRAILING or url[-1] == ")" and url.count("(") < url.count(")")):
                url = url[:-1]
            if "@" in url and pattern is _URL:
                continue  # an e-mail address's host, found again as its own
            if url:
                found.append(Item(m.start(), m.start() + len(url), url, url))
    return tuple(sorted(found, key=lambda i: i.start))


def check_placeholders(source: str, target: str, ours: Placeables, theirs: Placeables, languages) -> list[QAFinding]:
    missing: list[Item] = []
    extra: list[Item] = []
    if (ours.printf or theirs.printf) and not passes("printf", source, target, *languages):
        m, e = pair(ours.printf, theirs.printf)
        if not (m or e):
            return _printf_order(ours.printf, theirs.printf)
        missing += m
        extra += e
    if ours.braces or theirs.braces:
        single = [i for i in ours.braces if not i.text.startswith("{{")], [i for i in theirs.braces if not i.text.startswith("{{")]
        if (single[0] or single[1]) and not passes("pythonbraceformat", source, target, *languages):
            m, e = pair(*single)
            missing += m
            extra += e
        m, e = pair([i for i in ours.braces if i.text.startswith("{{")], [i for i in theirs.braces if i.text.startswith("{{")])
        missing += m
        extra += e
    return _findings("placeholder", source, target, missing, extra)


def _printf_order(ours: Sequence[Item], theirs: Sequence[Item]) -> list[QAFinding]:
    """Unnumbered printf placeholders the source has, in another order."""
    for s, t in zip(ours, theirs):
        if s.text != t.text:
            order = ", ".join(quote(i.text) for i in ours)
            return [QAFinding(PREFIX + "placeholder", 0, t.start, t.end, t.text, f"placeholder {quote(t.text)} is out of the source's order ({order}): unnumbered placeholders keep it", s.start, s.end)]
    return []


def check_tags(source: str, target: str, ours: Placeables, theirs: Placeables, languages) -> list[QAFinding]:
    if not (ours.tags or theirs.tags) or passes("xmltags", source, target, *languages):
        return []
    return _findings("tag", source, target, *pair(ours.tags, theirs.tags))


def check_urls(source: str, target: str, ours: Placeables, theirs: Placeables, languages) -> list[QAFinding]:
    if not (ours.urls or theirs.urls):
        return []
    if passes("urls", source, target, *languages) and passes("emails", source, target, *languages):
        return []
    missing, extra = pair(ours.urls, theirs.urls)
    kind = "e-mail address" if all("@" in i.text and "/" not in i.text for i in (*missing, *extra)) else "URL"
    return _findings("url", source, target, missing, extra, kind)


def _findings(check: str, source: str, target: str, missing: list[Item], extra: list[Item], what: str | None = None) -> list[QAFinding]:
    missing.sort(key=lambda i: i.start)
    extra.sort(key=lambda i: i.start)
    return mismatch_findings(check, source, target, missing, extra, what or check)
