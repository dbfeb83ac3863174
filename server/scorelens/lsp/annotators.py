"""Which documents are annotators' files of the same items (``scorelens agree`` in the editor), first
rule that applies wins:

1. ``[[agree]]`` in the workspace's ``scorelens.toml`` (``[[tool.scorelens.agree]]`` in
   ``pyproject.toml``): ``annotators = ["a/{stem}.txt", "b/{stem}.txt"]``, paths relative to the
   folder in which ``{stem}`` stands for the item's name, the part every annotator's file shares; a
   path may be a glob (``ann*/{stem}.txt``), each file it matches one annotator;
2. ``NAME.annK.EXT``: with every ``NAME.annJ.EXT`` in the same folder, by number.

A document is in a group when at least two annotators' files are named (one of them itself). A file
a template names that does not exist stays in the group: reading it is the problem shown.
"""

from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Callable, Collection

from pygls.uris import from_fs_path, to_fs_path

from ..pairing_rules import Template, TemplateError

CONVENTION = "NAME.annK.EXT"
_ANNOTATOR_NAME = re.compile(r"^(?P<name>.+)\.ann(?P<n>\d+)\.(?P<ext>[^.]+(?:\.[^.]+)*)$")
_WILDCARDS = re.compile(r"[*?[]")


@dataclass(frozen=True)
class Group:
    """Annotators' documents of the same items, in order, each with the name hovers and lenses give it."""

    annotators: tuple[str, ...]  # URIs
    names: tuple[str, ...]
    rule: str  # CONVENTION, or the configuration file and key


@dataclass(frozen=True)
class AgreeRule:
    """One ``agree`` entry: its patterns, and what each matches of a document's path (relative to
    the folder, ``/``-separated), the item's name as the group ``stem``."""

    folder: Path
    rule: str  # "scorelens.toml agree[0]"
    patterns: tuple[Template, ...]
    matchers: tuple[re.Pattern[str], ...]


def agree_rule(folder: Path, name: str, entry, key: str) -> AgreeRule:
    """One ``agree`` entry, or ValueError saying what is wrong with it (the key included)."""
    example = '["a/{stem}.txt", "b/{stem}.txt"]'
    if not isinstance(entry, dict):
        raise ValueError(f"{key}: an agree group is a table with annotators = {example}")
    paths = entry.get("annotators")
    if isinstance(paths, str):
        paths = [paths]
    if not isinstance(paths, list) or not paths:
        raise ValueError(f"{key}.annotators: must be a list of paths or globs such as {example}")
    patterns = []
    for i, path in enumerate(paths):
        where = f"{key}.annotators[{i}]"
        if not isinstance(path, str) or not path.strip():
            raise ValueError(f"{where}: must be a path or glob such as \"a/{{stem}}.txt\", not {path!r:.40}")
        try:
            template = Template.parse(path)
        except TemplateError as exc:
            raise ValueError(f"{where}: {exc}") from None
        other = [p[0] for p in template.parts if isinstance(p, tuple) and p[0] != "stem"]
        if other:
            raise ValueError(f"{where}: {{{other[0]}}} has no value here; an agree group knows {{stem}}, the item's name")
        if PurePath(path).is_absolute():
            raise ValueError(f"{where}: must be relative to the folder of {name}")
        patterns.append(template)
    with_stem = [_has_stem(t) for t in patterns]
    if any(with_stem) and not all(with_stem):
        raise ValueError(f"{key}.annotators: either every path has {{stem}} (a group per item) or none does (one group)")
    if len(patterns) < 2 and not _WILDCARDS.search(paths[0]):
        raise ValueError(f"{key}.annotators: name two or more annotators' files (or a glob), such as {example}")
    return AgreeRule(folder, f"{name} {key}", tuple(patterns), tuple(_matcher(t) for t in patterns))


def _has_stem(template: Template) -> bool:
    return ("stem",) in template.parts


def _matcher(template: Template) -> re.Pattern[str]:
    """A relative path the template matches, ``{stem}`` (one part of a path, the same wherever it
    appears) as a group; glob wildcards match within one part of a path."""
    out = []
    for part in template.parts:
        if isinstance(part, tuple):
            out.append("(?P=stem)" if "(?P<stem>" in "".join(out) else "(?P<stem>[^/]+)")
        else:
            out.append(_glob_regex(part))
    return re.compile("".join(out))


def _glob_regex(text: str) -> str:
    """A glob's regular expression, as :meth:`Path.glob` matches it: ``*`` and ``?`` within a part."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        close = text.find("]", i + 2) if c == "[" else -1
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif close != -1:
            body = text[i + 1 : close]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body).replace("\\", "\\\\") + "]")
            i = close
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def group_of(uri: str, rules: list[AgreeRule], names_in: Callable[[PurePath], Collection[str]], open_uris: Collection[str]) -> Group | None:
    """The group of annotators a document is one of, if any; ``names_in`` lists a folder's files
    (open, never-saved documents included), ``open_uris`` are the open documents."""
    path = Path(to_fs_path(uri) or uri)
    for rule in rules:
        try:
            relative = path.resolve().relative_to(rule.folder).as_posix()
        except ValueError:
            continue
        for matcher in rule.matchers:
            m = matcher.fullmatch(relative)
            if m is not None:
                return _configured(rule, m.groupdict().get("stem"), path, uri, open_uris)
    m = _ANNOTATOR_NAME.match(path.name)
    if m is None:
        return None
    found = []
    for name in names_in(path.parent):
        other = _ANNOTATOR_NAME.match(name)
        if other is not None and (other["name"], other["ext"]) == (m["name"], m["ext"]):
            found.append((int(other["n"]), name))
    if len(found) < 2:
        return None
    found.sort()
    uris = tuple(uri if name == path.name else from_fs_path(str(path.parent / name)) for _, name in found)
    return Group(uris, tuple(f"ann{n}" for n, _ in found), CONVENTION)


def _configured(rule: AgreeRule, stem: str | None, path: Path, uri: str, open_uris: Collection[str]) -> Group | None:
    """The files a rule's patterns name for one item: each fixed path, and what each glob matches
    on disk or among the open documents."""
    folder = rule.folder
    opened = {Path(p).resolve(): u for u in open_uris if (p := to_fs_path(u))}
    opened[path.resolve()] = uri
    found: dict[Path, None] = {}
    for template, pattern in zip(rule.patterns, rule.matchers):
        if not any(isinstance(p, str) and _WILDCARDS.search(p) for p in template.parts):
            found[Path(os.path.normpath(folder / template.expand({"stem": stem or ""})))] = None
            continue
        expanded = template.expand({"stem": glob.escape(stem or "")})
        matches = set(folder.glob(expanded))
        exact = re.compile(_glob_regex(expanded))
        for p in opened:
            if p.is_relative_to(folder) and exact.fullmatch(p.relative_to(folder).as_posix()):
                matches.add(p)
        found.update(dict.fromkeys(sorted(p for p in matches if p in opened or p.is_file())))
    if len(found) < 2:
        return None
    uris = tuple(opened.get(p.resolve(), None) or from_fs_path(str(p)) for p in found)
    names = tuple(_relative(p, folder) for p in found)
    return Group(uris, names, rule.rule)


def _relative(path: Path, folder: Path) -> str:
    try:
        return path.relative_to(folder).as_posix()
    except ValueError:
        return os.path.relpath(path, folder)
