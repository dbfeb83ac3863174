"""One segment's checks: its source and hypothesis in, findings with spans and fixes out."""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from . import numbers, placeables, punctuation, wording
from .model import QAConfig, QAFinding
from .spans import Skipped

BOM = "\ufeff"


def check_segment(source: str, target: str, config: QAConfig, segment: int = 0) -> list[QAFinding]:
    """The per-segment checks (all but inconsistent and length-ratio); an empty source -> [].

    Findings come in check order (number, placeholder, tag, url, untranslated, source-words,
    end-punctuation, whitespace, doubled-word, glossary and do-not-translate), each check's in
    text order. Numbers and source words inside placeholders, tags and URLs are left to those checks."""
    if source.startswith(BOM) or target.startswith(BOM):
        # a file's byte-order mark, kept in its first segment as sacreBLEU keeps it, is no text to check
        s, t = int(source.startswith(BOM)), int(target.startswith(BOM))
        return [_shifted(f, s, t) for f in check_segment(source[s:], target[t:], config, segment)]
    if not source.strip():
        return []
    enabled = config.checks
    languages = (config.source_language, config.target_language)
    found: list[QAFinding] = []
    ours = theirs = placeables.NONE
    if enabled & {"placeholder", "tag", "url", "number", "source-words"}:
        ours, theirs = placeables.find(source, *languages), placeables.find(target, *languages)
    skip_source, skip_target = Skipped(ours.spans()), Skipped(theirs.spans())  # numbers and words there are theirs
    if "number" in enabled:
        found += numbers.check(source, target, *languages, skip_source, skip_target)
    if "placeholder" in enabled:
        found += placeables.check_placeholders(source, target, ours, theirs, languages)
    if "tag" in enabled:
        found += placeables.check_tags(source, target, ours, theirs, languages)
    if "url" in enabled:
        found += placeables.check_urls(source, target, ours, theirs, languages)
    untranslated = wording.untranslated(source, target)
    if "untranslated" in enabled:
        found += untranslated
    if "source-words" in enabled and not untranslated:
        found += wording.source_words(source, target, skip_source, skip_target)
    if "end-punctuation" in enabled:
        found += punctuation.end_punctuation(source, target, languages)
    if "whitespace" in enabled:
        found += punctuation.whitespace(source, target, languages)
    if "doubled-word" in enabled:
        found += wording.doubled_words(source, target, languages)
    if config.glossary is not None and enabled & {"glossary", "do-not-translate"}:
        found += [f for f in config.glossary.check(source, target) if f.code[3:] in enabled]
    if segment:
        found = [replace(f, segment=segment) for f in found]
    return found


def _shifted(finding: QAFinding, source: int, target: int) -> QAFinding:
    """``finding``'s offsets moved on by ``source`` and ``target`` characters."""
    fix = finding.fix and replace(finding.fix, start=finding.fix.start + target, end=finding.fix.end + target)
    in_source = {} if finding.source_start is None else {"source_start": finding.source_start + source, "source_end": finding.source_end + source}
    return replace(finding, start=finding.start + target, end=finding.end + target, fix=fix, **in_source)


def check_pairs(pairs: Sequence[tuple[str, str]], config: QAConfig) -> list[list[QAFinding]]:
    """:func:`check_segment` of each (source, target) pair (a module-level function: a worker
    process runs it)."""
    return [check_segment(source, target, config) for source, target in pairs]
