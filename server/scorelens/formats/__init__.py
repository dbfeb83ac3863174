"""Format readers: a document's text in, records with ids, texts and character maps out.

Each reader is a module of the same shape: ``read(text, fields, name) -> Reading`` (``name``
the format asked for, where one module reads several: TSV and CSV, SRT and WebVTT) and
``escape(text) -> str`` (how a replacement is written into the document; ``escape_into(text,
segment)`` where that depends on where the text sits: see :func:`escaper`). A format is named
(``--format NAME``) or found from the file's extension. Readers are imported when first used,
so a plain-text run pays nothing for them.
"""

from __future__ import annotations

import importlib
from pathlib import PurePath
from types import ModuleType
from typing import Callable

from .segments import (
    CharMap,
    Fields,
    FormatError,
    Reading,
    Record,
    RecordError,
    Segment,
)

# format name -> module (under scorelens.formats)
READERS = {
    "text": "plain",
    "jsonl": "jsonl",
    "tsv": "delimited",
    "csv": "delimited",
    "srt": "subtitles",
    "vtt": "subtitles",
    "xliff": "xliff",
    "po": "po",
    "tmx": "tmx",
    "trn": "sclite",
    "stm": "sclite",
    "ctm": "sclite",
}
EXTENSIONS = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".tsv": "tsv",
    ".csv": "csv",
    ".srt": "srt",
    ".vtt": "vtt",
    ".xlf": "xliff",
    ".xliff": "xliff",
    ".po": "po",
    ".pot": "po",
    ".tmx": "tmx",
    ".trn": "trn",
    ".stm": "stm",
    ".ctm": "ctm",
}
FORMAT_NAMES = tuple(READERS)

__all__ = [
    "CharMap", "Fields", "FormatError", "Reading", "Record", "RecordError", "Segment",
    "EXTENSIONS", "FORMAT_NAMES", "escaper", "format_of", "read", "reader",
]


def format_of(path: str | PurePath) -> str:
    """The format a file's extension names (``eval.jsonl.gz``'s too: gzip is read through); plain
    text for any other."""
    path = PurePath(path)
    if path.suffix.lower() == ".gz":
        path = path.with_suffix("")
    return EXTENSIONS.get(path.suffix.lower(), "text")


def reader(name: str) -> ModuleType:
    if name not in READERS:
        raise FormatError(f"unknown format {name!r}; choose from {', '.join(FORMAT_NAMES)}")
    return importlib.import_module(f"{__name__}.{READERS[name]}")


def escaper(name: str) -> Callable[[str, Segment], str]:
    """How a replacement is written into a text (its segment) of a document of format ``name``:
    a module that reads several formats may escape them differently (its ``ESCAPES``), and one
    whose texts are written differently by where they sit (a CSV field quoted or not) takes the
    segment too (its ``escape_into``). ValueError for a text that cannot be written there."""
    module = reader(name)
    into = getattr(module, "escape_into", None)
    if into is not None:
        return into
    escape = getattr(module, "ESCAPES", {}).get(name, module.escape)
    return lambda text, segment: escape(text)


def read(text: str, name: str, fields: Fields = Fields()) -> Reading:
    """A document's records, as the reader of format ``name`` reads them."""
    return reader(name).read(text, fields, name)
