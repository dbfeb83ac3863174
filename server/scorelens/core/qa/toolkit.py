"""translate-toolkit's checks (what ``pofilter`` runs) as verdicts on a (source, target) pair.

One ``StandardChecker`` per language pair, its checks called one by one (``run_filters`` runs
all forty of them and wants a storage unit): a check passes, or fails with a message. The
checker caches filtered texts for the length of a ``run_filters``; called this way its cache is
emptied after each check, or it would keep every text it ever saw.
"""

from __future__ import annotations

from functools import lru_cache

from translate.filters.checks import CheckerConfig, FilterFailure, StandardChecker
from translate.lang import factory


@lru_cache(maxsize=32)
def checker(source_language: str | None, target_language: str | None) -> StandardChecker:
    config = CheckerConfig(targetlanguage=target_language)
    if source_language:
        config.sourcelang = factory.getlanguage(source_language)
    return StandardChecker(checkerconfig=config)


def passes(name: str, source: str, target: str, source_language: str | None, target_language: str | None) -> bool:
    """Whether translate-toolkit's check ``name`` passes the pair."""
    c = checker(source_language, target_language)
    try:
        return bool(getattr(c, name)(source, target))
    except FilterFailure:
        return False
    finally:
        c.results_cache.clear()


def language(code: str | None):
    """translate-toolkit's language object (punctuation, sentence ends, double words)."""
    return factory.getlanguage(code)
