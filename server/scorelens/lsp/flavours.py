"""The metric flavours' settings (``scorelens.bleu.impl``, ``scorelens.rouge.impl`` and their
options) checked together, as the command line checks its options (``api/options``): a setting of
another implementation than the one chosen, a metric the chosen one does not compute, options
that do not go together. Each such setting falls back to its default, said in one message; the
core's config is then always one it accepts.
"""

from __future__ import annotations

import json
from pathlib import Path

import attrs
from pygls.uris import from_fs_path

from ..core.config import METRICS, ConfigError
from ..core.flavours import ROUGE_FLAVOURS, ROUGE_WSU
from ..core.rouge155 import stopword_list
from ..core.wer_steps import SUBSTITUTE, WordMap, map_paths, parse, word_map
from ..textfile import UnreadableText
from .fluency import model_path
from .settings import PPL, Settings, scoring_config

# per implementation setting, the settings only some of its implementations take (the command
# line's IMPL_OPTIONS, by setting name; tests/lsp/test_flavours.py checks that they agree)
IMPL_SETTINGS = {
    "bleu.impl": {
        "bleu.weights": ("nltk",),
        "nltk.smoothing": ("nltk",),
        "nltk.autoReweigh": ("nltk",),
        "bleu.smoothMethod": ("sacrebleu",),
        "bleu.smoothValue": ("sacrebleu",),
        "bleu.maxNgramOrder": ("sacrebleu",),
    },
    "rouge.impl": {
        "rouge.tokenizer": ("rouge-score",),
        "rouge.stem": ("rouge-score", "rouge-1.5.5"),
        "rouge.wWeight": ("rouge-score", "rouge-1.5.5"),
        "rouge.skipGap": ("rouge-score", "rouge-1.5.5"),
        "rouge.multiRef": ("rouge-1.5.5",),
        "rouge.stopwords": ("rouge-1.5.5",),
    },
}
# ROUGE's metrics per implementation: rouge-score's own has them all (W, S and SU as an extension: core/rouge_wsu)
ROUGE_KEYS = {"rouge-score": tuple(m for m in (*METRICS, *ROUGE_WSU) if m.startswith("rouge"))} | {
    impl: flavour.KEYS for impl, flavour in ROUGE_FLAVOURS.items()
}


def _field(path: str) -> tuple[str, str]:
    """``("rouge", "w_weight")`` of ``rouge.wWeight``."""
    family, name = path.split(".")
    return family, "".join("_" + c.lower() if c.isupper() else c for c in name)


def _get(settings: Settings, path: str):
    family, name = _field(path)
    return getattr(getattr(settings, family), name)


def _reset(settings: Settings, path: str) -> Settings:
    """``settings`` with one setting at its default."""
    family, name = _field(path)
    group = getattr(settings, family)
    return attrs.evolve(settings, **{family: attrs.evolve(group, **{name: _default(type(group), name)})})


def _default(cls: type, name: str):
    return attrs.fields_dict(cls)[name].default


def checked(settings: Settings) -> tuple[Settings, list[str]]:
    """``settings`` with every setting that does not go with the others at its default (a metric
    the ROUGE implementation does not compute left out), and what was wrong, per setting."""
    problems: list[str] = []
    for impl_path, takers in IMPL_SETTINGS.items():
        impl = _get(settings, impl_path)
        for path, impls in takers.items():
            family, name = _field(path)
            default = _default(type(getattr(settings, family)), name)
            if impl not in impls and _get(settings, path) != default:
                settings = _reset(settings, path)
                wanted = " or ".join(json.dumps(i) for i in impls)
                problems.append(f"scorelens.{path} is a setting of scorelens.{impl_path} {wanted}, not of {json.dumps(impl)}; using the default {json.dumps(default)}")
    impl = settings.rouge.impl
    kept = ROUGE_KEYS[impl]
    other = [m for m in settings.metrics if m.startswith("rouge") and m not in kept]
    if other:
        metrics = tuple(m for m in settings.metrics if m not in other)
        if not set(metrics) - {PPL}:
            metrics = _default(Settings, "metrics")
        why = f"scorelens.rouge.impl {json.dumps(impl)} has no {', '.join(other)} (it computes {', '.join(kept)})"
        problems.append(f"scorelens.metrics: {why}; scoring {', '.join(metrics)}")
        settings = attrs.evolve(settings, metrics=metrics)
    if settings.bleu.impl == "nltk" and settings.nltk.smoothing == 6 and len(settings.bleu.weights) < 3:
        settings = _reset(settings, "nltk.smoothing")
        problems.append("scorelens.nltk.smoothing: NLTK's method6 reads the 3-gram precision, which scorelens.bleu.weights must reach (3 weights or more); using the default 0")
    return settings, problems


def for_pairing(settings: Settings, references: int) -> tuple[Settings, list[str]]:
    """What goes with the pairing: the ``rouge`` package scores one reference per hypothesis."""
    flavour = ROUGE_FLAVOURS.get(settings.rouge.impl)
    if flavour is None or flavour.max_references is None or references <= flavour.max_references:
        return settings, []
    message = (
        f"scorelens.rouge.impl {json.dumps(settings.rouge.impl)} scores {flavour.max_references} reference per hypothesis, "
        f'not {references}; using the default "rouge-score"'
    )
    return _reset(settings, "rouge.impl"), [message]


def stopwords(ls, uri: str, settings: Settings) -> tuple[frozenset[str] | None, list[str]]:
    """The words of ``scorelens.rouge.stopwords`` (ROUGE-1.5.5's ``-s`` list), its path resolved
    as ``scorelens.lm.model``'s, read as references are read: inside the workspace folders unless
    ``scorelens.allowOutsideWorkspace``, and no larger than ``scorelens.maxFileBytes``."""
    setting = settings.rouge.stopwords
    if setting is None or settings.rouge.impl != "rouge-1.5.5":
        return None, []
    text, problem = _readable(ls, uri, settings, setting, "stopword removal")
    if text is None:
        return None, [f"scorelens.rouge.stopwords: {problem}"]
    return stopword_list(text), []


def _readable(ls, uri: str, settings: Settings, setting: str, what: str) -> tuple[str | None, str | None]:
    """The text of a file a setting names (resolved as ``scorelens.lm.model``'s), read as references
    are read: inside the workspace folders unless ``scorelens.allowOutsideWorkspace``, no larger than
    ``scorelens.maxFileBytes``; else None and why, for a message that ends ``… without {what}``."""
    path = Path(model_path(ls, uri, setting))
    if ls.pairings.folders and not settings.allow_outside_workspace and not ls.pairings.inside(path):
        return None, f"{path} is outside the workspace folders; set scorelens.allowOutsideWorkspace to use it; scoring without {what}"
    try:
        return ls.documents.text(from_fs_path(str(path)), settings.max_file_bytes), None
    except UnreadableText as exc:
        return None, f"{exc}; scoring without {what}"


def word_maps(ls, uri: str, settings: Settings) -> tuple[Settings, tuple[WordMap, ...], list[str]]:
    """The word maps of ``scorelens.wer.transform``'s ``substitute:PATH`` steps, read as
    :func:`stopwords`' list; a map that cannot be read, or has a bad line, is left out of the
    transform, said in one message."""
    maps: list[WordMap] = []
    problems, unread = [], set()
    for written in dict.fromkeys(map_paths(settings.wer.transform)):
        text, problem = _readable(ls, uri, settings, written, "this word map")
        try:
            if text is not None:
                maps.append(word_map(text, written))
        except ValueError as exc:
            problem = f"word map {exc}; scoring without this word map"
        if problem is not None:
            problems.append(f"scorelens.wer.transform: {problem}")
            unread.add(written)
    if unread:
        kept = [step for step in parse(settings.wer.transform) if step.removeprefix(SUBSTITUTE) not in unread or not step.startswith(SUBSTITUTE)]
        settings = attrs.evolve(settings, wer=attrs.evolve(settings.wer, transform=",".join(kept) or "default"))
    return settings, tuple(maps), problems


def configured(ls, uri: str, settings: Settings, language: str | None, references: int):
    """The core's config for a document and what had to give way; a config the core still
    refuses (a combination not foreseen here) gives its reason and the defaults, never an error."""
    settings, problems = for_pairing(settings, references)
    words, found = stopwords(ls, uri, settings)
    settings, maps, unread = word_maps(ls, uri, settings)
    problems += found + unread
    try:
        return scoring_config(settings, language, words, maps), problems
    except (ConfigError, ValueError) as exc:
        return scoring_config(Settings(), language), [*problems, f"{exc}; using the default settings"]
