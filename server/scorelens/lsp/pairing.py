"""Which references a hypothesis is scored against (DESIGN §3), first rule that applies wins:

1. an explicit pairing made with the ``scorelens.pair`` command;
2. ``[[tool.scorelens.pair]]`` in the workspace's ``pyproject.toml`` (or ``[[pair]]`` in
   ``scorelens.toml``): ``hypothesis`` is a glob relative to the folder, ``references`` are
   :class:`~scorelens.pairing_rules.Template` s (``{stem}``, ``{name}``, ``{ext}``, ``{dir}``);
3. the naming conventions of :mod:`scorelens.pairing_rules`;
4. a JSONL, TSV or CSV document that no rule pairs is scored against the reference fields of its
   own records (``eval.jsonl`` with ``prediction`` and ``reference``).

A ``pair`` entry may also say how its documents are read: ``format``, ``hypothesis_field``,
``reference_fields``, ``id_field``, ``pair_by``; with ``reference_fields`` and no ``references``,
the hypothesis's records hold their references.

A hypothesis also finds its *source* (what it translates, for the QA checks): a ``pair`` entry's
``source`` template, or ``NAME.src.LANG`` / ``src/NAME`` (:func:`~scorelens.pairing_rules.pick_source`).
A hypothesis with a source and no reference is checked against its source alone.

The same configuration files name groups of annotators' files (``agree`` entries, see :mod:`.annotators`).
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Callable, Collection

from pygls.uris import from_fs_path, to_fs_path

from .. import pairing_rules
from ..formats import FORMAT_NAMES, format_of
from ..formats.pairing import PAIR_BY
from ..textfile import UnreadableText, read_text
from .annotators import AgreeRule, Group, agree_rule, group_of

CONFIG_FILES = ("scorelens.toml", "pyproject.toml")
CONFIG_MAX_BYTES = 1024 * 1024
# formats whose records can hold their own references (fields or columns)
FIELD_FORMATS = ("jsonl", "tsv", "csv")
# formats whose units hold their sources: with no reference, checked against those
SOURCE_FORMATS = ("xliff", "po", "tmx")
HELD = "reference fields"
SOURCE_ONLY = "NAME.src.LANG, no reference"


@dataclass(frozen=True)
class ReadOptions:
    """How a pairing's documents are read; None and () are the readers' defaults."""

    format: str | None = None  # None: each document's extension says
    hypothesis_field: str | None = None
    reference_fields: tuple[str, ...] = ()
    id_field: str | None = None
    pair_by: str | None = None  # None: by id where every record has one, else by position


@dataclass(frozen=True)
class Pairing:
    hypothesis: str
    references: tuple[str, ...]
    rule: str  # "command", "scorelens.toml", "pyproject.toml", a naming convention or HELD
    # a reference that points outside the workspace folders: refused unless allowed
    outside: tuple[str, ...] = ()
    read: ReadOptions = ReadOptions()
    # the references are fields of the hypothesis's own records (each reference side is the
    # hypothesis document itself)
    held: bool = False
    source: str | None = None  # the document the hypothesis translates (QA checks), if known


@dataclass(frozen=True)
class _ConfigRule:
    folder: Path
    source: str
    hypothesis: str
    references: tuple[pairing_rules.Template, ...]
    read: ReadOptions
    source_template: pairing_rules.Template | None = None


def _entries(data: dict, name: str, table: str) -> tuple[list, str, str | None]:
    """The ``pair`` (or ``agree``) entries of one configuration file, the key they are under, and a problem."""
    if name == "scorelens.toml":
        node, key = data.get(table, []), table
    else:
        key = f"tool.scorelens.{table}"
        tool = data.get("tool", {})
        if not isinstance(tool, dict):
            return [], "tool", "not a table; ignored"
        scorelens = tool.get("scorelens", {})
        if not isinstance(scorelens, dict):
            return [], "tool.scorelens", "not a table; ignored"
        node = scorelens.get(table, [])
    if isinstance(node, dict):
        node = [node]
    if not isinstance(node, list):
        return [], key, f"must be an array of tables ([[{table}]]); ignored"
    return node, key, None


def _config_rule(folder: Path, name: str, entry, key: str) -> _ConfigRule:
    """One ``pair`` entry, or ValueError saying what is wrong with it (the key included)."""
    if not isinstance(entry, dict):
        raise ValueError(f"{key}: a pair is a table with hypothesis = \"glob\" and references = [\"template\", ...]")
    hyp, refs = entry.get("hypothesis"), entry.get("references")
    if isinstance(refs, str):
        refs = [refs]
    if not isinstance(hyp, str) or not hyp.strip() or "\0" in hyp:
        raise ValueError(f"{key}.hypothesis: must be a glob such as \"hyp/*.txt\"")
    try:
        PurePath("x").match(hyp)
    except ValueError as exc:
        raise ValueError(f"{key}.hypothesis: {exc}") from None
    read = _read_options(entry, key)
    source = entry.get("source")
    if source is not None and not isinstance(source, str):
        raise ValueError(f"{key}.source: must be a template such as \"src/{{stem}}.en\", not {type(source).__name__}")
    try:
        source_template = pairing_rules.Template.parse(source) if source is not None else None
    except pairing_rules.TemplateError as exc:
        raise ValueError(f"{key}.source: {exc}") from None
    if refs is None and (read.reference_fields or source_template is not None):
        refs = []  # the hypothesis's records hold their references, or it is checked against its source alone
    elif not isinstance(refs, list) or (not refs and source_template is None):
        raise ValueError(f"{key}.references: must be a list of templates such as [\"ref/{{stem}}.txt\"]")
    templates = []
    for i, ref in enumerate(refs):
        if not isinstance(ref, str):
            raise ValueError(f"{key}.references[{i}]: must be a string, not {type(ref).__name__}")
        try:
            templates.append(pairing_rules.Template.parse(ref))
        except pairing_rules.TemplateError as exc:
            raise ValueError(f"{key}.references[{i}]: {exc}") from None
    return _ConfigRule(folder, name, hyp, tuple(templates), read, source_template)


def _read_options(entry: dict, key: str) -> ReadOptions:
    """The keys of a ``pair`` entry that say how its documents are read."""
    fmt, by = entry.get("format"), entry.get("pair_by")
    if fmt is not None and fmt not in FORMAT_NAMES:
        raise ValueError(f"{key}.format: must be one of {', '.join(FORMAT_NAMES)}, not {fmt!r}")
    if by is not None and by not in PAIR_BY:
        raise ValueError(f"{key}.pair_by: must be one of {', '.join(PAIR_BY)}, not {by!r}")
    fields = {name: entry.get(name) for name in ("hypothesis_field", "id_field")}
    for name, value in fields.items():
        if value is not None and (not isinstance(value, str) or not value):
            raise ValueError(f"{key}.{name}: must be a field or column name, not {value!r}")
    refs = entry.get("reference_fields", [])
    if isinstance(refs, str):
        refs = [refs]
    if not isinstance(refs, list) or not all(isinstance(r, str) and r for r in refs):
        raise ValueError(f"{key}.reference_fields: must be a list of field or column names, not {refs!r}")
    return ReadOptions(fmt, fields["hypothesis_field"], tuple(refs), fields["id_field"], by)


def _read_config(folder: Path) -> tuple[list[_ConfigRule], list[AgreeRule], list[str]]:
    """The pairing rules and annotators' groups of one workspace folder; every problem names the
    file and the key."""
    rules: list[_ConfigRule] = []
    groups: list[AgreeRule] = []
    problems: list[str] = []
    for name in CONFIG_FILES:
        path = folder / name
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(read_text(path, CONFIG_MAX_BYTES, "configuration files"))
        except (UnreadableText, tomllib.TOMLDecodeError) as exc:
            problems.append(f"{path}: {exc}" if isinstance(exc, tomllib.TOMLDecodeError) else str(exc))
            continue
        for table, parse, into in (("pair", _config_rule, rules), ("agree", agree_rule, groups)):
            entries, key, problem = _entries(data, name, table)
            if problem:
                problems.append(f"{path}: {key}: {problem}")
            for i, entry in enumerate(entries):
                try:
                    into.append(parse(folder, name, entry, f"{key}[{i}]"))
                except ValueError as exc:
                    problems.append(f"{path}: {exc}")
    return rules, groups, problems


@dataclass
class Pairings:
    folders: list[Path] = field(default_factory=list)
    explicit: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _config: list[_ConfigRule] = field(default_factory=list)
    _agree: list[AgreeRule] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def set_folders(self, folders: list[Path]) -> None:
        self.folders = [f.resolve() for f in folders]
        self.reload_config()

    def reload_config(self) -> None:
        self._config, self._agree, self.problems = [], [], []
        for folder in self.folders:
            rules, groups, problems = _read_config(folder)
            self._config += rules
            self._agree += groups
            self.problems += problems

    def is_config_file(self, path: Path) -> bool:
        return path.name in CONFIG_FILES and path.parent.resolve() in self.folders

    def inside(self, path: Path) -> bool:
        resolved = path.resolve()
        return any(resolved.is_relative_to(folder) for folder in self.folders)

    def annotators(self, uri: str, open_uris: Collection[str]) -> Group | None:
        """The annotators' group of a document, if it is one of them (see :mod:`.annotators`)."""
        return group_of(uri, self._agree, files_in(open_uris), open_uris)

    def resolve(self, uri: str, names_in: Callable[[PurePath], Collection[str]]) -> Pairing | None:
        """The pairing of a document, if it is a hypothesis; ``names_in`` lists a folder's files."""
        path = Path(to_fs_path(uri) or uri)
        if uri in self.explicit:
            return self._checked(uri, self.explicit[uri], "command")
        for rule in self._config:
            try:
                relative = path.resolve().relative_to(rule.folder)
            except ValueError:
                continue
            pattern = PurePath(rule.hypothesis)
            # PurePath.match anchors at the right only; equal depth anchors it at the folder
            if len(relative.parts) == len(pattern.parts) and relative.match(rule.hypothesis):
                fill = {"stem": path.stem, "name": path.name, "ext": path.suffix.lstrip("."), "dir": str(relative.parent)}
                source = from_fs_path(str(rule.folder / rule.source_template.expand(fill))) if rule.source_template else None
                if not rule.references and rule.read.reference_fields:
                    return self._checked(uri, (uri,), rule.source, rule.read, source, held=True)
                refs = tuple(from_fs_path(str(rule.folder / t.expand(fill))) for t in rule.references)
                return self._checked(uri, refs, rule.source, rule.read, source)
        conventions = pairing_rules.rules(path)
        fields = format_of(path) in (*FIELD_FORMATS, *SOURCE_FORMATS) and not named_like_reference(path)
        found_source = pairing_rules.pick_source(path, names_in)
        source = from_fs_path(str(found_source)) if found_source is not None else None
        if not conventions:
            if fields:
                return self._checked(uri, (uri,), HELD, source=source, held=True)
            return self._checked(uri, (), SOURCE_ONLY, source=source) if source else None
        found = pairing_rules.pick(path, names_in)
        if found is None and fields:
            return self._checked(uri, (uri,), HELD, source=source, held=True)  # the records may hold their references
        if found is None and source is not None:
            return self._checked(uri, (), SOURCE_ONLY, source=source)  # a translation with its source, no reference yet
        if found is None:
            # named like a hypothesis, but nothing to score against: say where we looked
            expected = conventions[0]
            missing = from_fs_path(str(Path(expected.directory) / expected.expected))
            return self._checked(uri, (missing,), expected.convention)
        rule, refs = found
        return self._checked(uri, tuple(from_fs_path(str(r)) for r in refs), rule.convention, source=source)

    def _checked(
        self, uri: str, refs: tuple[str, ...], rule: str, read: ReadOptions = ReadOptions(), source: str | None = None, held: bool = False
    ) -> Pairing:
        named = (*refs, source) if source is not None else refs
        outside = tuple(r for r in named if r != uri and self.folders and not self.inside(Path(to_fs_path(r) or r)))
        return Pairing(uri, refs, rule, outside, read, held, source)


def named_like_reference(path: PurePath) -> bool:
    """``NAME.ref.EXT``, ``NAME.refN.EXT``, or in a ``ref`` folder: what the conventions pair with."""
    return bool(_REFERENCE_NAME.match(path.name)) or "ref" in path.parts[:-1]


_REFERENCE_NAME = re.compile(r"^.+\.ref\d*\.[^.]+")


def files_in(open_uris: Collection[str]) -> Callable[[PurePath], Collection[str]]:
    """A folder lister that also counts open, never-saved documents."""

    def names(folder: PurePath) -> Collection[str]:
        found = set()
        try:
            with os.scandir(folder) as entries:
                found.update(e.name for e in entries if e.is_file())
        except OSError:
            pass
        for uri in open_uris:
            p = PurePath(to_fs_path(uri) or uri)
            if p.parent == folder:
                found.add(p.name)
        return found

    return names
