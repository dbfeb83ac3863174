"""gettext PO/POT: a record per entry (not the header, not obsolete ``#~`` entries), its
``msgstr`` the text read, its ``msgid`` the record's source.

polib parses the file; its entries give their first line, from which the quoted string literals
of ``msgid`` and ``msgstr`` (one literal, or several on the lines that follow, concatenated) are
found and scanned for the map: a character is its own, an escape (``\\n``, ``\\"``…) is one
piece. The id is gettext's: ``msgctxt`` + ``"\\x04"`` + ``msgid`` when there is a context, else
``msgid``. A plural entry's text is ``msgstr[0]`` (the other forms are not read); one without
``msgstr[0]`` is a :class:`RecordError`, as ``msgfmt`` refuses it. An empty ``msgstr`` is
gettext's "untranslated": a record whose text is None (the caller reports it), but in a
reference file (``Fields.references_only``) a :class:`RecordError`, the entry left out: an
untranslated entry is no reference. Fuzzy entries are read like the others. The header's ``Language:`` is the target language declared
(a PO file does not name its source's).

polib reads a string without its closing quote as something else (an empty ``msgstr``, the
text less its last character; an entry whose ``msgid`` has none it drops), so each such line
is found here first: a :class:`RecordError` on that line, and the entry it is in left out.
"""

from __future__ import annotations

import bisect
import re

import polib

from .segments import (
    Fields,
    FormatError,
    Reading,
    Record,
    RecordError,
    Segment,
    TextBuilder,
    line_starts,
)

# the line breaks of str.splitlines, which polib numbers its lines by
_BREAK = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_KEYWORD = re.compile(r'[ \t]*(msgctxt|msgid|msgid_plural|msgstr(?:\[[0-9]+\])?)[ \t]*(?=")')
_LITERAL = re.compile(r'[ \t]*"((?:[^"\\]|\\.)*)"')
# a line that holds a string: a keyword and its first literal, or a literal continuing it
_STRING_LINE = re.compile(r'[ \t]*(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[[0-9]+\])?)[ \t]*)?(?=")')
_ESCAPE = re.compile(r'\\(\\|n|t|r|v|b|f|")')  # those polib.unescape decodes


def escape(text: str) -> str:
    """A replacement inside a PO string literal."""
    return polib.escape(text)


def read(text: str, fields: Fields, name: str) -> Reading:
    try:
        # polib opens its argument as a path when one exists by that name: a document that ends
        # with a line break is never taken for one
        po = polib.pofile(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    except OSError as error:  # polib's syntax errors
        raise FormatError(f"not a readable PO file: {error}") from None
    scanner = _Scanner(text)
    reading = Reading(languages=(None, po.metadata.get("Language", "").strip() or None))
    unclosed = scanner.unclosed()
    for k in unclosed:
        reading.errors.append(RecordError(scanner.line(k), "unterminated string: no closing quote on this line; its entry is not read"))
    entries = [e for e in po if not e.obsolete]
    firsts = [max(e.linenum, 1) for e in entries]  # polib numbers a file's first entry 0
    for entry, first, following in zip(entries, firsts, [*firsts[1:], len(scanner.starts) + 1]):
        line = scanner.line(first)
        k = bisect.bisect_left(unclosed, first)
        if k < len(unclosed) and unclosed[k] < following:
            continue  # polib misread it; the unclosed string is the error
        try:
            source = scanner.string(first, "msgid", entry.msgid)
            if entry.msgid_plural and 0 not in entry.msgstr_plural:
                raise ValueError("a plural entry without msgstr[0], its first form (the one read)")
            msgstr = entry.msgstr_plural[0] if entry.msgid_plural else entry.msgstr
            target = scanner.string(first, "msgstr[0]" if entry.msgid_plural else "msgstr", msgstr)
            if fields.references_only and not target.text:
                raise ValueError("untranslated (an empty msgstr): no reference, the entry is left out")
        except ValueError as error:
            reading.errors.append(RecordError(line, str(error)))
            continue
        id = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        reading.records.append(Record(line, target if target.text else None, id=id, source=source))
    reading.errors.sort(key=lambda e: e.line)
    return reading


class _Scanner:
    """The string literals of an entry, found from polib's line numbers."""

    def __init__(self, doc: str) -> None:
        self.doc = doc
        self.starts = [0, *(m.end() for m in _BREAK.finditer(doc))]  # polib's lines
        self.lsp = line_starts(doc)

    def unclosed(self) -> list[int]:
        """polib's lines (1-based) whose string has no closing quote."""
        found = []
        for k, start in enumerate(self.starts):
            m = _STRING_LINE.match(self.doc, start, self._end(k))
            if m and not _LITERAL.match(self.doc, m.end(), self._end(k)):
                found.append(k + 1)
        return found

    def line(self, polib_line: int) -> int:
        """The document line (1-based, as LSP breaks lines) of one of polib's."""
        return bisect.bisect_right(self.lsp, self.starts[polib_line - 1])

    def string(self, first: int, keyword: str, expected: str) -> Segment:
        """The string of ``keyword`` in the entry starting on polib's line ``first``."""
        k = first - 1
        while k < len(self.starts):
            m = _KEYWORD.match(self.doc, self.starts[k], self._end(k))
            k += 1
            if m and m.group(1) == keyword:
                segment = self._literals(m.end(), k)
                if segment.text != expected:
                    break
                return segment
        raise ValueError(f"{keyword} not found where polib read it (an unusual layout of its lines)")

    def _literals(self, at: int, k: int) -> Segment:
        """The literal at ``at`` and those alone on the lines from ``k`` on, concatenated."""
        builder = TextBuilder()
        while True:
            m = _LITERAL.match(self.doc, at)
            if not m:
                return builder.segment()
            start, end = m.span(1)
            for e in _ESCAPE.finditer(self.doc, start, end):
                builder.literal(self.doc[start : e.start()], start)
                builder.add(polib.unescape(e.group()), e.start(), e.end())
                start = e.end()
            builder.literal(self.doc[start:end], start)
            if k >= len(self.starts) or not _LITERAL.match(self.doc, self.starts[k], self._end(k)):
                return builder.segment()
            at, k = self.starts[k], k + 1

    def _end(self, k: int) -> int:
        return self.starts[k + 1] if k + 1 < len(self.starts) else len(self.doc)
