"""Reference-free translation QA: a source and its hypothesis in, findings with spans and fixes out.

The checks a translation QA tool runs (translate-toolkit's ``pofilter``, Xbench, CheckMate) with
no reference needed: numbers, placeholders, tags, URLs and e-mail addresses of the source kept,
untranslated segments and source words, end punctuation and whitespace, doubled words, glossary
terms; and, across a document, inconsistent translations and length ratios far from the rest.
Built on translate-toolkit's checks where it has one (its verdict, its patterns); ScoreLens adds
the spans, the fixes, locale-aware numbers and the live re-check of an edited segment. Pure: no
I/O, no LSP types.
"""

from typing import TYPE_CHECKING, Any

from .model import CHECKS, DOCUMENT_CHECKS, PREFIX, Fix, QAConfig, QAFinding

__all__ = ["CHECKS", "DOCUMENT_CHECKS", "PREFIX", "Fix", "Glossary", "QAConfig", "QADocument", "QAFinding", "Term", "check_segment"]

if TYPE_CHECKING:
    from .document import QADocument
    from .glossary import Glossary, Term
    from .segment import check_segment

# The checks (and translate-toolkit under them) load when first used: the command line's
# options and the server's settings name the checks without running them.
_LAZY = {"QADocument": "document", "Glossary": "glossary", "Term": "glossary", "check_segment": "segment"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
