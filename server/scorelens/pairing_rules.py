"""The naming conventions by which a hypothesis finds its references (DESIGN §3, rule 3).

- ``NAME.hyp.EXT``  ↔ ``NAME.ref.EXT``, plus ``NAME.ref1.EXT``, ``NAME.ref2.EXT``, … as extra references;
- ``NAME.sysN.EXT`` ↔ the same references as ``NAME.hyp.EXT`` would have;
- ``…/hyp/NAME``    ↔ ``…/ref/NAME`` (the nearest enclosing ``hyp`` directory; subdirectories kept).

A hypothesis finds its *source* (what was translated) alike: ``NAME.hyp.EXT`` and ``NAME.sysN.EXT``
↔ ``NAME.src.LANG`` (any extension: a source is in another language, ``news.src.en`` for
``news.hyp.de``), ``…/hyp/NAME`` ↔ ``…/src/NAME``.

:func:`rules` and :func:`pick` are pure: paths in, paths out, and the caller supplies the
file names it knows of (the language server may count open, unsaved documents; the CLI
lists directories). :func:`find_references` is the thin wrapper that asks the file system.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Callable, Collection

_HYP_NAME = re.compile(r"^(?P<name>.+)\.hyp\.(?P<ext>[^.]+(?:\.[^.]+)*)$")
_SYS_NAME = re.compile(r"^(?P<name>.+)\.sys\d+\.(?P<ext>[^.]+(?:\.[^.]+)*)$")


@dataclass(frozen=True)
class Rule:
    """One convention applied to one hypothesis: where its references would be."""

    convention: str  # e.g. "NAME.hyp.EXT -> NAME.ref.EXT", for messages
    directory: PurePath  # the folder the references live in
    pattern: re.Pattern[str]  # reference file names in that folder; group "n" numbers extra ones
    expected: str  # the main reference's file name, for "looked for …" messages

    def select(self, names: Collection[str]) -> list[PurePath]:
        """The references among ``names`` (file names in :attr:`directory`), main one first."""
        found = []
        for name in names:
            m = self.pattern.match(name)
            if m:
                n = m.groupdict().get("n") or ""
                # NAME.ref.EXT sorts before NAME.ref1.EXT, NAME.ref2.EXT, …, NAME.ref10.EXT
                found.append(((int(n) if n else -1), name))
        return [self.directory / name for _, name in sorted(found)]

    def describe(self) -> str:
        return f"{self.directory / self.expected} ({self.convention})"


# a hypothesis's format whose reference comes in another: sclite scores a CTM against an STM
_REFERENCE_EXT = {"ctm": "stm"}


def _numbered(directory: PurePath, name: str, ext: str, convention: str) -> Rule:
    ext = _REFERENCE_EXT.get(ext.lower(), ext)
    pattern = re.compile(rf"^{re.escape(name)}\.ref(?P<n>\d*)\.{re.escape(ext)}$")
    return Rule(convention, directory, pattern, f"{name}.ref.{ext}")


def rules(hypothesis: PurePath) -> list[Rule]:
    """Every convention that applies to this hypothesis path, in the order they are tried."""
    directory, filename = hypothesis.parent, hypothesis.name
    found = []
    m = _HYP_NAME.match(filename)
    if m:
        found.append(_numbered(directory, m["name"], m["ext"], "NAME.hyp.EXT -> NAME.ref.EXT"))
    m = _SYS_NAME.match(filename)
    if m:
        found.append(_numbered(directory, m["name"], m["ext"], "NAME.sysN.EXT -> NAME.ref.EXT"))
    parts = hypothesis.parts
    if "hyp" in parts[:-1]:
        i = len(parts) - 2 - parts[-2::-1].index("hyp")  # the nearest enclosing hyp/
        ref_path = PurePath(*parts[:i], "ref", *parts[i + 1 :])
        ext = hypothesis.suffix[1:]
        ref_name = filename[: len(filename) - len(ext)] + _REFERENCE_EXT[ext.lower()] if ext.lower() in _REFERENCE_EXT else filename
        found.append(
            Rule("hyp/NAME -> ref/NAME", ref_path.parent, re.compile(rf"^{re.escape(ref_name)}$"), ref_name)
        )
    return found


def pick(hypothesis: PurePath, names_in: Callable[[PurePath], Collection[str]]) -> tuple[Rule, list[PurePath]] | None:
    """The first rule whose references exist, and those references; ``names_in(folder)`` lists a folder."""
    for rule in rules(hypothesis):
        refs = rule.select(names_in(rule.directory))
        if refs:
            return rule, refs
    return None


def source_rules(hypothesis: PurePath) -> list[Rule]:
    """Where the source of this hypothesis would be, in the order tried."""
    directory, filename = hypothesis.parent, hypothesis.name
    found = []
    for regex, convention in ((_HYP_NAME, "NAME.hyp.EXT -> NAME.src.EXT"), (_SYS_NAME, "NAME.sysN.EXT -> NAME.src.EXT")):
        m = regex.match(filename)
        if m:
            # the hypothesis's own extension first: a format that holds both sides keeps it
            same = re.escape(m["ext"])
            pattern = re.compile(rf"^{re.escape(m['name'])}\.src\.(?:(?P<same>{same})|[^.]+)$")
            found.append(Rule(convention, directory, pattern, f"{m['name']}.src.EXT"))
    parts = hypothesis.parts
    if "hyp" in parts[:-1]:
        i = len(parts) - 2 - parts[-2::-1].index("hyp")
        src_path = PurePath(*parts[:i], "src", *parts[i + 1 :])
        found.append(Rule("hyp/NAME -> src/NAME", src_path.parent, re.compile(rf"^{re.escape(filename)}$"), filename))
    return found


def pick_source(hypothesis: PurePath, names_in: Callable[[PurePath], Collection[str]]) -> PurePath | None:
    """The source the first matching rule finds (the hypothesis's extension first, then by name)."""
    for rule in source_rules(hypothesis):
        matches = [m for name in sorted(names_in(rule.directory)) if (m := rule.pattern.match(name))]
        if matches:
            best = min(matches, key=lambda m: m.groupdict().get("same") is None)  # stable: then by name
            return rule.directory / best.string
    return None


def known_languages() -> frozenset[str]:
    """Language codes a file's last extension may be (``news.src.en``): translate-toolkit's list."""
    from translate.lang.data import languages

    return frozenset(languages)


def language_pair(source: PurePath, hypothesis: PurePath, known: Collection[str] | None = None) -> tuple[str, str] | None:
    """``(source language, target language)`` when both files' last extensions are language codes
    among ``known`` (``news.src.en`` and ``news.hyp.de``: en-de), as sacreBLEU's ``-l`` gives them."""
    known = known_languages() if known is None else known
    pair = tuple(p.suffix[1:].lower() for p in (source, hypothesis))
    return pair if all(code in known for code in pair) and pair[0] != pair[1] else None


# a region ("CH", "419") or a script ("Hant") as BCP 47 writes them: part of the language before it
_SUBTAG = re.compile(r"[A-Z]{2}|[0-9]{3}|[A-Z][a-z]{3}")


def split_languages(language: str | None) -> tuple[str | None, str | None]:
    """``(source, target)`` of sacreBLEU's ``-l``: ``"en-de"`` names both, ``"de"`` the target;
    ``"de-CH"`` is one language, and ``"en-US-de-CH"`` two."""
    if not language:
        return None, None
    parts: list[str] = []
    for part in language.split("-"):
        if parts and _SUBTAG.fullmatch(part):
            parts[-1] += "-" + part
        else:
            parts.append(part)
    target = parts.pop()
    return ("-".join(parts) or None), target


# a language tag: a 2- or 3-letter language, then its region, script or variant (de-CH,
# zh-Hant, en_US); "english" is none, and would silently choose no language's tokenizer or checks
_LANGUAGE = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*")


def language_problem(language: str) -> str | None:
    """What is wrong with a ``-l`` (a target, or sacreBLEU's SRC-TRG pair); None if nothing."""
    for tag in split_languages(language):
        if tag is not None and not _LANGUAGE.fullmatch(tag):
            return f"{tag!r} is not a language code: name the target (de, zh-TW) or sacreBLEU's pair SRC-TRG (en-de)"
    return None


def qa_languages(
    language: str | None,
    declared: tuple[str | None, str | None],
    source_declared: str | None,
    source: PurePath | None,
    hypothesis: PurePath,
) -> tuple[str | None, str | None]:
    """``(source, target)`` for the QA checks, each side the first that names it: sacreBLEU's
    ``-l`` (``language``), what the hypothesis's document ``declared`` (an XLIFF's languages, a
    PO's ``Language:``), for the source language what the source's document declares, then the
    pair the files' names make (``news.src.en`` with ``news.hyp.de``). An explicit -l wins, and
    ``-l de`` still takes the source language from the files."""
    chosen = split_languages(language)
    by_name = language_pair(source, hypothesis) if source is not None else None
    for pair in (declared, (source_declared, None), by_name):
        if pair is not None:
            chosen = (chosen[0] or pair[0], chosen[1] or pair[1])
    return chosen


def language_label(languages: tuple[str | None, str | None]) -> str | None:
    """A ``(source, target)`` pair written as -l writes it (``en-de``; ``de`` for a target
    alone), ``?`` for an unknown source language of a known target's; None for neither."""
    source, target = languages
    if target is None:
        return f"{source}-?" if source else None
    return f"{source}-{target}" if source else target


# -- the file system ------------------------------------------------------------------------


class NoReferences(LookupError):
    """No convention found a reference; the message says what was looked for."""


def _files_in(directory: PurePath) -> list[str]:
    try:
        with os.scandir(Path(directory)) as entries:
            return [e.name for e in entries if e.is_file()]
    except OSError:  # a missing or unreadable folder holds no references
        return []


def find_references(hypothesis: Path) -> list[Path]:
    """The references of a hypothesis on disk by naming convention, or :class:`NoReferences`."""
    found = pick(hypothesis, _files_in)
    if found is None:
        tried = rules(hypothesis)
        if not tried:
            raise NoReferences(
                "no reference given and the name follows no convention "
                "(NAME.hyp.EXT, NAME.sysN.EXT or hyp/NAME); pass -r REF"
            )
        raise NoReferences(
            "no reference given and none found; looked for "
            + ", ".join(rule.describe() for rule in tried)
        )
    return [Path(p) for p in found[1]]


def find_source(hypothesis: Path) -> Path | None:
    """The source of a hypothesis on disk by naming convention, if there is one."""
    found = pick_source(hypothesis, _files_in)
    return Path(found) if found is not None else None


# -- reference templates of [[tool.scorelens.pair]] / scorelens.toml -------------------------


PLACEHOLDERS = {
    "stem": "the hypothesis's file name without its last extension",
    "name": "the hypothesis's file name",
    "ext": "its last extension, without the dot",
    "dir": "its folder, relative to the workspace folder (. at the top)",
}
_TEMPLATE_PART = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")


class TemplateError(ValueError):
    """A reference template that is not in the placeholder language; the message says why."""


@dataclass(frozen=True)
class Template:
    """A reference path with placeholders: ``{stem}``, ``{name}``, ``{ext}``, ``{dir}``; ``{{`` and
    ``}}`` stand for braces. Nothing else: no attributes, indexes or format specs."""

    parts: tuple[str | tuple[str], ...]  # literal text, or (placeholder,)

    @classmethod
    def parse(cls, text: str) -> Template:
        if "\0" in text:
            raise TemplateError("a NUL character")
        parts: list[str | tuple[str]] = []
        at = 0
        for m in _TEMPLATE_PART.finditer(text):
            parts.append(text[at : m.start()])
            at = m.end()
            token = m.group()
            if token in ("{{", "}}"):
                parts.append(token[0])
            elif token in ("{", "}"):
                raise TemplateError(f"a lone {token!r} at character {m.start()} (write {token * 2} for a brace)")
            elif m.group(1) in PLACEHOLDERS:
                parts.append((m.group(1),))
            else:
                raise TemplateError(f"unknown placeholder {token}; use {', '.join('{' + p + '}' for p in PLACEHOLDERS)}")
        parts.append(text[at:])
        return cls(tuple(p for p in parts if p != ""))

    def expand(self, values: dict[str, str]) -> str:
        return "".join(p if isinstance(p, str) else values[p[0]] for p in self.parts)
