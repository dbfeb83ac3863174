"""A glossary file read for the QA checks: TSV (``source<TAB>target[<TAB>note]``) or TBX, its
terms as :class:`~scorelens.core.qa.glossary.Term` s, and the rows that could not be read."""

from __future__ import annotations

import os
from dataclasses import dataclass

from .core.qa.glossary import Glossary, Term
from .formats import FormatError
from .formats import glossary as glossary_format
from .textfile import DEFAULT_MAX_BYTES, UnreadableText, read_text


@dataclass(frozen=True)
class GlossaryFile:
    glossary: Glossary
    errors: list[str]  # ``path:line: error: …`` of each row that could not be read


def read_glossary(
    path: str | os.PathLike,
    languages: tuple[str | None, str | None] = (None, None),
    max_bytes: int = DEFAULT_MAX_BYTES,
    limit: str = "",
    encoding: str = "utf-8",
) -> GlossaryFile:
    """The glossary at ``path`` for ``languages`` (source, target: ``("en", "de")`` picks a
    TBX's languages); an unreadable file is a :class:`ValueError` naming it."""
    source_language, target_language = languages
    try:
        text = read_text(path, max_bytes, limit, encoding=encoding)
    except UnreadableText as exc:
        raise ValueError(str(exc)) from None
    try:
        read = glossary_format.read(text, glossary_format.format_of(str(path)), source_language, target_language)
    except FormatError as exc:
        raise ValueError(f"{path}: {exc}") from None
    terms = [Term(e.source, e.target, e.note, e.do_not_translate) for e in read.entries]
    # the languages asked for, else those a TBX says its terms are in
    languages = (source_language or read.source_language, target_language or read.target_language)
    return GlossaryFile(Glossary(terms, *languages), [e.format(str(path)) for e in read.errors])
