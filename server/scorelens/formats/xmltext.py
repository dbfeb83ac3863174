"""XML read safely, with the document offset of every piece of character data (XLIFF, TMX).

defusedxml's parser does the parsing and refuses entity declarations (billion laughs) and
external references; a DOCTYPE alone (TMX 1.4's ``<!DOCTYPE tmx SYSTEM "tmx14.dtd">``) is
accepted, and nothing it names is ever fetched. Expat gives no character offsets, but it reports
each run of character data with the byte index where it starts, and every entity or character
reference (``&amp;``, ``&#233;``) and every line break as a run of its own; so each run is
either the document's own characters or one decoded piece whose raw text is known. Offsets are
worked out only for the text a reader collects (a source, a target, a seg).
"""

from __future__ import annotations

from typing import Any, Iterable, Protocol
from xml.etree.ElementTree import ParseError
from xml.parsers.expat import ErrorString
from xml.sax.saxutils import escape as _escape

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from .segments import CharMap, FormatError, InlineCode, Segment, TextBuilder

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"

# elements whose content is native code (a tag of the original format), not text: XLIFF 1.2 and
# TMX's placeholders and paired codes; what sits inside them (``<sub>`` included) is skipped
NATIVE_CODE = frozenset({"ph", "bpt", "ept", "it", "ut"})


class Handler(Protocol):
    """What a format's reader is told as the document is parsed (names as ``{uri}local``)."""

    def start(self, name: str, attrs: dict[str, str], line: int) -> Collector | None:
        """An element starts on ``line``; a :class:`Collector` returned gathers its text, and
        the elements inside it are told to the collector, not to the handler."""

    def end(self, name: str) -> None:
        """An element ends (a collected one's collector then has its text)."""


def escape(text: str) -> str:
    """A replacement as XML character data."""
    return _escape(text)


def local(name: str) -> str:
    """``{uri}local`` -> ``local``."""
    return name.rpartition("}")[2]


def matches_language(lang: str, code: str) -> bool:
    """An ``xml:lang`` matches a code without case, and a code matches its regional variants
    (``en`` matches ``en-US``)."""
    lang, code = lang.lower(), code.lower()
    return lang == code or lang.startswith(code + "-")


def one_language(values: Iterable[str | None]) -> str | None:
    """The language every one of ``values`` names (without case; as first written), or None
    where one names none or two differ: a document's languages are declared, never guessed."""
    found = None
    for value in values:
        if not value or (found is not None and value.lower() != found.lower()):
            return None
        found = found or value
    return found


def namespace(name: str) -> str:
    return name[1 : name.index("}")] if name.startswith("{") else ""


class Collector:
    """The text of one element (a source, a target, a seg): its character data and that of its
    inline elements, less what lies inside native-code elements, with its map; and the inline
    codes it holds, where ``codes`` names them (local name -> ``"start"``, ``"end"``,
    ``"standalone"``, or ``"paired"`` for an element that holds text between its start and end)."""

    def __init__(self, codes: dict[str, str] | None = None, ids: tuple[str, ...] = ("id", "startRef")) -> None:
        self.builder = TextBuilder()
        self.depth = 0  # elements open inside the collected one
        self.native = 0  # of which native code (and what they hold)
        self.end = 0  # where the element's content ends: an empty text's place
        self.kinds = codes or {}
        self.ids = ids  # the attributes a code's id is read from, the first present
        self.codes: list[InlineCode] = []
        self.ends: list[InlineCode | None] = []  # per open element, the end code its closing is

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.depth += 1
        kind = None if self.native else self.kinds.get(local(name))
        end = None
        if kind is not None:
            # (XLIFF 2.x's <ec/> names its <sc/> by startRef, an isolated one has an id; TMX pairs by i)
            id = next((attrs[a] for a in self.ids if attrs.get(a)), "")
            code = InlineCode("start" if kind == "paired" else kind, id, local(name), self.builder.length)
            self.codes.append(code)
            end = code._replace(kind="end") if kind == "paired" else None
        self.ends.append(end)
        if self.native or local(name) in NATIVE_CODE:
            self.native += 1

    def close(self) -> bool:
        """An element ends; True when it is the collected one."""
        if self.depth == 0:
            return True
        self.depth -= 1
        if self.native:
            self.native -= 1
        end = self.ends.pop()
        if end is not None:
            self.codes.append(end._replace(offset=self.builder.length))
        return False

    def segment(self) -> Segment:
        """The text; an empty one (``<target/>``) still has a place: where the element ends."""
        segment = self.builder.segment()
        return segment if segment.text else Segment("", CharMap(0, ((0, self.end, self.end),)))


def parse(doc: str, handler: Handler) -> None:
    """Parse ``doc``, telling ``handler`` each start and end tag, and its collectors their text;
    a document that is not well-formed, or that declares entities or refers to external ones,
    is a :class:`FormatError`."""
    data = doc.encode("utf-8")
    target = _Target(doc, data, handler)
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
        line, column = error.position  # expat counts a line's characters from 0
        raise FormatError(f"not well-formed XML: {ErrorString(error.code)}: line {line}, column {column + 1}", line, column + 1) from None


class _Target:
    """Expat's events turned into the handler's and its collectors', with code-point offsets."""

    def __init__(self, doc: str, data: bytes, handler: Handler) -> None:
        self.doc = doc
        self.offset = _Offsets(doc, data)
        self.handler = handler
        self.collector: Collector | None = None
        self.in_cdata = False
        self.expat: Any = None  # the parser, whose position each event reads

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if self.collector is not None:
            self.collector.start(name, attrs)
        else:
            self.collector = self.handler.start(name, attrs, self.expat.CurrentLineNumber)

    def end(self, name: str) -> None:
        collector = self.collector
        if collector is not None:
            if not collector.close():
                return
            collector.end = self.offset(self.expat.CurrentByteIndex)
            self.collector = None
        self.handler.end(name)

    def data(self, text: str) -> None:
        if self.collector is None or self.collector.native:
            return
        doc = self.doc
        start = self.offset(self.expat.CurrentByteIndex)
        if text == "\n" and doc.startswith("\r", start):  # a normalised \r\n or \r
            end = start + (2 if doc.startswith("\r\n", start) else 1)
        elif not self.in_cdata and doc.startswith("&", start):  # a reference, read as one piece
            end = doc.index(";", start) + 1
        else:
            end = start + len(text)
        self.collector.builder.add(text, start, end)

    def start_cdata(self) -> None:
        self.in_cdata = True

    def end_cdata(self) -> None:
        self.in_cdata = False

    def close(self) -> None:
        return None


class _Offsets:
    """UTF-8 byte offsets (expat's) -> code-point offsets (the document's). Expat's events come
    in document order, so each is decoded on from the last one: the whole document at most once."""

    def __init__(self, doc: str, data: bytes) -> None:
        self.data = data
        self.ascii = len(data) == len(doc)
        self.byte = self.char = 0

    def __call__(self, byte: int) -> int:
        if self.ascii:
            return byte
        if byte < self.byte:  # not met with expat; correct all the same
            self.byte = self.char = 0
        self.char += len(self.data[self.byte : byte].decode("utf-8"))
        self.byte = byte
        return self.char
