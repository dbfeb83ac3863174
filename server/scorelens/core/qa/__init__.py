"""Reference-free translation QA: a source and its hypothesis in, findings with spans and fixes out.

The checks a translation QA tool runs (translate-toolkit's ``pofilter``, Xbench, CheckMate) with
no reference needed: numbers, placeholders, tags, URLs and e-mail addresses of the source kept,
untranslated segments and source words, end punctuation and whitespace, doubled words, glossary
terms; and, across a document, inconsistent translations and length ratios far from the rest.
Built on translate-toolkit's checks where it has one (its verdict, its patterns); ScoreLens adds
the spans, the fixes, locale-aware numbers and the live re-check of an edited segment. Pure: no
I/O, no LSP types.
"""

from .document import QADocument
from .glossary import Glossary, Term
from .model import CHECKS, DOCUMENT_CHECKS, PREFIX, Fix, QAConfig, QAFinding
from .segment import check_segment

__all__ = ["CHECKS", "DOCUMENT_CHECKS", "PREFIX", "Fix", "Glossary", "QAConfig", "QADocument", "QAFinding", "Term", "check_segment"]
