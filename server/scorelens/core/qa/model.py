"""What the QA checks report and how they are set: findings with spans and fixes, the checks'
names and default severities, the configuration."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .glossary import Glossary

# check name -> default severity. The five mechanical ones break the text where it is used (a
# changed number, a lost placeholder, tag, inline code or link): errors. The rest are a reviewer's warnings,
# and the two that are only hints at a problem (whitespace, a length far from the rest) information.
CHECKS: dict[str, str] = {
    "number": "error",
    "placeholder": "error",
    "tag": "error",
    "url": "error",  # e-mail addresses too
    "inline-code": "error",  # a translation file's inline codes (XLIFF's <g>, <x/>, <bpt>…)
    "untranslated": "warning",
    "source-words": "warning",
    "end-punctuation": "warning",
    "whitespace": "information",
    "doubled-word": "warning",
    "inconsistent": "warning",
    "length-ratio": "information",
    "glossary": "warning",
    "do-not-translate": "warning",
}

PREFIX = "qa."
# the document-level checks: QADocument's, not check_segment's
DOCUMENT_CHECKS = frozenset({"inconsistent", "length-ratio"})


@dataclass(frozen=True, slots=True)
class Fix:
    title: str  # e.g. 'Use the source\'s number "1,000"'
    start: int  # span of the hypothesis segment text to replace (start == end: insert)
    end: int
    text: str  # the replacement


@dataclass(frozen=True, slots=True)
class QAFinding:
    code: str  # "qa.number", …
    segment: int
    start: int  # code points into the hypothesis (target) segment's text; start == end: a point
    end: int
    text: str  # the hypothesis text of the span
    message: str  # one line: what is wrong and what the source has
    source_start: int | None = None  # the matching place in the source segment's text, if any
    source_end: int = 0
    other_segment: int | None = None  # `inconsistent`: a segment where the same source is translated otherwise
    fix: Fix | None = None  # only where the fix is clear
    note: str = ""  # extra text for a hover (a glossary entry and its note)


@dataclass(frozen=True)
class QAConfig:
    source_language: str | None = None  # ISO code ("en"), as in sacreBLEU's -l en-de
    target_language: str | None = None
    checks: frozenset[str] = frozenset(CHECKS)  # the enabled ones
    glossary: Glossary | None = None
    length_z: float = 3.5  # modified z-score above which a length ratio is an outlier

    def __post_init__(self) -> None:
        unknown = set(self.checks) - set(CHECKS)
        if unknown:
            raise ValueError(f"unknown QA check(s) {', '.join(sorted(unknown))}; known: {', '.join(CHECKS)}")
        if not (math.isfinite(self.length_z) and self.length_z > 0):
            raise ValueError(f"the length-ratio threshold must be a positive number, not {self.length_z!r}")
