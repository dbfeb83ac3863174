"""PO/POT: entries as records, maps into msgid/msgstr string literals through their escapes."""

from __future__ import annotations

import polib
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mapcheck import check_map, po_decode

from scorelens.formats import FormatError, read, reader

PO = r'''# a header comment
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

#: a.c:1
msgctxt "menu"
msgid "Open"
msgstr "Öffnen 😀"

#, fuzzy
#| msgid "old \"q\""
msgid "A \"q\""
msgstr ""
"part one "
"part\ttwo\n"

msgid "one"
msgid_plural "many"
msgstr[0] "eins"
msgstr[1] "viele"

msgid "untranslated"
msgstr ""

#~ msgid "obsolete"
#~ msgstr "veraltet"
'''


def test_entries_ids_texts_sources_lines():
    reading = read(PO, "po")
    assert not reading.errors
    records = reading.records
    assert [r.id for r in records] == ["menu\x04Open", 'A "q"', "one", "untranslated"]
    assert [r.line for r in records] == [7, 12, 19, 24]
    assert [r.text.text if r.text else None for r in records] == ["Öffnen 😀", "part one part\ttwo\n", "eins", None]
    assert [r.source.text for r in records] == ["Open", 'A "q"', "one", "untranslated"]
    for r in records:
        for segment in (r.text, r.source):
            if segment is not None:
                check_map(PO, segment, po_decode)


def test_multi_line_msgstr_maps_into_each_literal_and_escapes():
    text = read(PO, "po").records[1].text
    tab = text.text.index("\t")
    assert PO[slice(*text.map.span(tab, tab + 1))] == "\\t"
    assert PO[slice(*text.map.span(0, 9))] == "part one "
    assert PO[slice(*text.map.span(9, 13))] == "part"
    quote = read(PO, "po").records[1].source
    assert PO[slice(*quote.map.span(2, 3))] == '\\"'


def test_crlf_document():
    doc = PO.replace("\n", "\r\n")
    records = read(doc, "po").records
    assert [r.line for r in records] == [7, 12, 19, 24]
    for r in records:
        if r.text is not None:
            check_map(doc, r.text, po_decode)


def test_syntax_error_is_a_format_error():
    with pytest.raises(FormatError, match="PO"):
        read('msgid "a"\nnot po\n', "po")


def test_first_entry_without_header():
    doc = '#: x.c:1\nmsgid "a"\nmsgstr "b"\n\nmsgid "c"\nmsgstr "d"\n'
    records = read(doc, "po").records
    assert [(r.line, r.id, r.text.text) for r in records] == [(1, "a", "b"), (5, "c", "d")]
    for r in records:
        check_map(doc, r.text, po_decode)


def test_a_document_naming_a_file_is_not_read_as_that_file(tmp_path):
    path = tmp_path / "other.po"
    path.write_text('msgid "secret"\nmsgstr "geheim"\n', encoding="utf-8")
    try:
        reading = read(str(path), "po")
    except FormatError:
        return
    assert reading.records == []


def test_escape_is_po_string_escaping():
    assert reader("po").escape('a "b"\n\\') == 'a \\"b\\"\\n\\\\'


# no other control characters or line separators: polib writes them raw, then splits lines at them
_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")) | st.sampled_from('&<>"\'\\\n\t😀é中'), min_size=1, max_size=120)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.none(), _TEXT), _TEXT, _TEXT), min_size=1, max_size=5, unique_by=lambda e: (e[0], e[1])))
def test_random_entries_written_by_polib_read_back(entries):
    po = polib.POFile(wrapwidth=40)  # long strings split over several literals
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    for ctxt, msgid, msgstr in entries:
        po.append(polib.POEntry(msgctxt=ctxt, msgid=msgid, msgstr=msgstr))
    doc = str(po)
    reading = read(doc, "po")
    assert not reading.errors
    assert [(r.id, r.source.text, r.text.text) for r in reading.records] == [
        (m if c is None else f"{c}\x04{m}", m, s) for c, m, s in entries
    ]
    for r in reading.records:
        check_map(doc, r.text, po_decode)
        check_map(doc, r.source, po_decode)


def test_the_language_header_is_the_target_language_declared():
    assert read(PO, "po").languages == (None, None)
    declared = PO.replace('"Plural-Forms', '"Language: pt_BR\\n"\n"Plural-Forms')
    assert read(declared, "po").languages == (None, "pt_BR")
    assert read(PO.replace('"Plural-Forms', '"Language: \\n"\n"Plural-Forms'), "po").languages == (None, None)  # a POT's empty one
