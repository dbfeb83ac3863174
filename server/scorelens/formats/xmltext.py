"""XML read safely, with the document offset of every piece of character data (XLIFF, TMX).

defusedxml's parser does the parsing and refuses entity declarations (billion laughs) and
external references; a DOCTYPE alone (TMX 1.4's ``<!DOCTYPE tmx SYSTEM "tmx14.dtd">``) is
accepted, and nothing it names is ever fetched. Expat gives no character offsets, but it reports
each run of character data with the byte index where it starts, and every entity or character
reference (``&amp;``, ``&#233;``) and every line break as a run of its own; so each run is
either the document's own characters or one decoded piece whose raw text is known.
"""

from __future__ import annotations

import bisect
from itertools import accumulate
from typing import Protocol
from xml.etree.ElementTree import ParseError
from xml.sax.saxutils import escape as _escape

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from .segments import CharMap, FormatError, Segment, TextBuilder

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"

# elements whose content is native code (a tag of the original format), not text: XLIFF 1.2 and
# TMX's placeholders and paired codes; what sits inside them (``<sub>`` included) is skipped
NATIVE_CODE = frozenset({"ph", "bpt", "ept", "it", "ut"})


class Handler(Protocol):
    """What a format's reader is told as the document is parsed (names as ``{uri}local``)."""

    def start(self, name: str, attrs: dict[str, str], line: int) -> None: ...

    def end(self, name: str, at: int) -> None: ...

    def text(self, text: str, start: int, end: int) -> None: ...


def escape(text: str) -> str:
    """A replacement as XML character data."""
    return _escape(text)


def local(name: str) -> str:
    """``{uri}local`` -> ``local``."""
    return name.rpartition("}")[2]


def namespace(name: str) -> str:
    return name[1 : name.index("}")] if name.startswith("{") else ""


def empty_at(offset: int) -> Segment:
    """An empty text that still has a place in the document (an empty ``<target/>``)."""
    return Segment("", CharMap(0, ((0, offset, offset),)))


class Collector:
    """The text of one element (a source, a target, a seg): its character data and that of its
    inline elements, less what lies inside native-code elements, with its map."""

    def __init__(self) -> None:
        self.builder = TextBuilder()
        self.depth = 0  # elements open inside the collected one
        self.native = 0  # of which native code (and what they hold)
        self.end = 0  # where the element's content ends: an empty text's place

    def start(self, name: str) -> None:
        self.depth += 1
        if self.native or local(name) in NATIVE_CODE:
            self.native += 1

    def close(self, at: int) -> bool:
        """An element ends; True when it is the collected one."""
        if self.depth == 0:
            self.end = at
            return True
        self.depth -= 1
        if self.native:
            self.native -= 1
        return False

    def text(self, text: str, start: int, end: int) -> None:
        if not self.native:
            self.builder.add(text, start, end)

    def segment(self) -> Segment:
        segment = self.builder.segment()
        return segment if segment.text else empty_at(self.end)


def parse(doc: str, handler: Handler) -> None:
    """Parse ``doc``, telling ``handler`` each start tag, end tag and piece of text; a document
    that is not well-formed, or that declares entities or refers to external ones, is a
    :class:`FormatError`."""
    data = doc.encode("utf-8")
    offsets = _Offsets(doc, data)
    target = _Target(doc, offsets, handler)
    parser = DefusedXMLParser(target=target, forbid_dtd=False)
    target.expat = expat = parser.parser
    expat.buffer_text = False  # each reference and line break as its own run (see above)
    expat.StartCdataSectionHandler = target.start_cdata
    expat.EndCdataSectionHandler = target.end_cdata
    try:
        parser.feed(data)
        parser.close()
    except DefusedXmlException as error:
        raise FormatError(f"XML refused: entity declarations and external references are not read ({error})") from None
    except ParseError as error:
        raise FormatError(f"not well-formed XML: {error}") from None


class _Target:
    """Expat's events turned into the handler's, with code-point offsets."""

    def __init__(self, doc: str, offsets: _Offsets, handler: Handler) -> None:
        self.doc = doc
        self.offsets = offsets
        self.handler = handler
        self.in_cdata = False

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.handler.start(name, attrs, self.expat.CurrentLineNumber)

    def end(self, name: str) -> None:
        self.handler.end(name, self.offsets(self.expat.CurrentByteIndex))

    def data(self, text: str) -> None:
        doc = self.doc
        start = self.offsets(self.expat.CurrentByteIndex)
        if text == "\n" and doc.startswith("\r", start):  # a normalised \r\n or \r
            end = start + (2 if doc.startswith("\r\n", start) else 1)
        elif not self.in_cdata and doc.startswith("&", start):  # a reference, read as one piece
            end = doc.index(";", start) + 1
        else:
            end = start + len(text)
        self.handler.text(text, start, end)

    def start_cdata(self) -> None:
        self.in_cdata = True

    def end_cdata(self) -> None:
        self.in_cdata = False

    def close(self) -> None:
        return None


class _Offsets:
    """UTF-8 byte offsets (expat's) -> code-point offsets (the document's), by blocks of
    characters whose byte starts are known: an ASCII block converts by arithmetic, another
    decodes at most one block's bytes."""

    BLOCK = 1024

    def __init__(self, doc: str, data: bytes) -> None:
        self.data = data
        self.ascii = len(data) == len(doc)
        if not self.ascii:
            sizes = (len(doc[i : i + self.BLOCK].encode("utf-8")) for i in range(0, len(doc), self.BLOCK))
            self.starts = list(accumulate(sizes, initial=0))

    def __call__(self, byte: int) -> int:
        if self.ascii:
            return byte
        k = bisect.bisect_right(self.starts, byte) - 1
        base = self.starts[k]
        if k + 1 < len(self.starts) and self.starts[k + 1] - base == self.BLOCK:
            return k * self.BLOCK + byte - base
        return k * self.BLOCK + len(self.data[base:byte].decode("utf-8"))
