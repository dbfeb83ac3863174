"""XLIFF 1.2 and 2.x: units as records, inline codes out of the text, maps through references;
hostile XML refused."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mapcheck import check_map, covered, real_lines, xml_decode

from scorelens.formats import Fields, FormatError, read, reader

X1 = "urn:oasis:names:tc:xliff:document:1.2"
X2 = "urn:oasis:names:tc:xliff:document:2.0"

XLIFF_1 = f"""<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="{X1}">
 <file source-language="en" target-language="de" datatype="plaintext" original="x">
  <body>
   <group id="g">
   <trans-unit id="1">
    <source>Hello &amp; <g id="1">wörld</g><x id="2"/>!</source>
    <target>Hallo &amp; <g id="1">Wélt</g><ph id="3">&lt;br/&gt;</ph>&#233;<bpt id="4">&lt;b&gt;</bpt>x<ept id="4">&lt;/b&gt;</ept><mrk mtype="term">y</mrk><it id="5" pos="open">&lt;i&gt;</it>!</target>
    <alt-trans><target>not this</target></alt-trans>
   </trans-unit>
   </group>
   <trans-unit id="2"><source>no target</source></trans-unit>
   <trans-unit id="3"><source>empty</source><target/></trans-unit>
   <trans-unit id="4"><source>cdata</source><target><![CDATA[a & <b>]]> &lt;c&gt;</target></trans-unit>
  </body>
 </file>
</xliff>"""


def test_xliff_1_units_texts_sources_and_maps():
    records = read(XLIFF_1, "xliff").records
    assert [(r.id, r.line) for r in records] == [("1", 6), ("2", 12), ("3", 13), ("4", 14)]
    first = records[0]
    assert first.text.text == "Hallo & Wéltéxy!"
    assert first.source.text == "Hello & wörld!"
    for r in records:
        for segment in (r.text, r.source):
            if segment is not None:
                check_map(XLIFF_1, segment, xml_decode)
    amp = first.text.text.index("&")
    assert XLIFF_1[slice(*first.text.map.span(amp, amp + 1))] == "&amp;"
    assert XLIFF_1[slice(*first.text.map.span(12, 13))] == "&#233;"
    assert records[3].text.text == "a & <b> <c>"


def test_xliff_1_inline_codes_belong_to_no_character():
    target = read(XLIFF_1, "xliff").records[0].text
    start = XLIFF_1.index("<target>")
    end = XLIFF_1.index("</target>")
    inside = set(range(start, end))
    text = {i for i in inside if XLIFF_1[i] not in "<>" and i in covered(target)}
    # what the target's text covers is its character data outside the codes, nothing else
    for tag in ("<ph", "<bpt", "<ept", "<it", "<g ", "<mrk"):
        at = XLIFF_1.index(tag, start)
        close = XLIFF_1.index(">", at)
        assert not set(range(at, close + 1)) & covered(target)
    for code in ("&lt;br/&gt;", "&lt;b&gt;", "&lt;/b&gt;", "&lt;i&gt;"):
        at = XLIFF_1.index(code, start)
        assert not set(range(at, at + len(code))) & text


def test_missing_target_is_none_and_empty_target_is_placed():
    records = read(XLIFF_1, "xliff").records
    assert records[1].text is None and records[1].source.text == "no target"
    empty = records[2].text
    assert empty.text == "" and XLIFF_1[: empty.map.span(0, 0)[0]].endswith("<target/>")


XLIFF_2 = f"""<xliff xmlns="{X2}" version="2.0" srcLang="en" trgLang="fr">
<file id="f">
<unit id="u1">
 <segment id="s1"><source>A <pc id="1">b</pc></source><target>X <pc id="1">y</pc><ph id="2"/><sc id="3"/>z<ec startRef="3"/></target></segment>
 <ignorable><source> </source><target> </target></ignorable>
 <segment><source>C</source><target>Z <mrk id="m" translate="no">&amp;</mrk></target></segment>
</unit>
<group id="g"><unit id="u2"><segment id="only"><source>D</source><target>W</target></segment></unit></group>
<unit id="u3"><segment><source>no target</source></segment></unit>
</file></xliff>"""


def test_xliff_2_segments_ids_and_maps():
    records = read(XLIFF_2, "xliff").records
    assert [(r.id, r.line) for r in records] == [("u1/s1", 3), ("u1/2", 3), ("u2", 8), ("u3", 9)]
    assert [r.text.text if r.text else None for r in records] == ["X yz", "Z &", "W", None]
    assert [r.source.text for r in records] == ["A b", "C", "D", "no target"]
    for r in records:
        for segment in (r.text, r.source):
            if segment is not None:
                check_map(XLIFF_2, segment, xml_decode)


def test_namespace_prefix_and_unnamespaced_1_x():
    prefixed = f'<x:xliff xmlns:x="{X1}" version="1.2"><x:file><x:body><x:trans-unit id="a"><x:source>s</x:source><x:target>t</x:target></x:trans-unit></x:body></x:file></x:xliff>'
    plain = '<xliff version="1.1"><file><body><trans-unit id="a"><source>s</source><target>t</target></trans-unit></body></file></xliff>'
    for doc in (prefixed, plain):
        [r] = read(doc, "xliff").records
        assert (r.id, r.text.text, r.source.text) == ("a", "t", "s")
        check_map(doc, r.text, xml_decode)


def test_elements_of_other_namespaces_are_not_units():
    doc = f'<xliff xmlns="{X1}" xmlns:o="urn:other" version="1.2"><file><body><o:trans-unit id="no"><o:source>s</o:source></o:trans-unit><trans-unit id="a"><source>s</source></trans-unit></body></file></xliff>'
    assert [r.id for r in read(doc, "xliff").records] == ["a"]


def test_crlf_and_non_ascii_before_the_text():
    doc = f'<?xml version="1.0"?>\r\n<!-- 😀 ü 中 -->\r\n<xliff xmlns="{X1}" version="1.2"><file><body>\r\n<trans-unit id="ü😀"><source>a</source><target>😀 line\r\nnext &amp; ü</target></trans-unit></body></file></xliff>'
    [r] = read(doc, "xliff").records
    assert r.id == "ü😀" and r.line == 4
    assert r.text.text == "😀 line\nnext & ü"
    check_map(doc, r.text, xml_decode)


@pytest.mark.parametrize(
    "doc",
    [
        "<xliff version='1.2'><file>",  # not well-formed
        "<tmx version='1.4'/>",  # another root
        "<xliff xmlns='urn:x' version='3.0'/>",
        "not xml at all",
    ],
)
def test_not_an_xliff_document(doc):
    with pytest.raises(FormatError):
        read(doc, "xliff")


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<xliff version="1.2"><file><body><trans-unit id="1"><source>&lol9;</source><target>&lol9;</target></trans-unit></body></file></xliff>"""

EXTERNAL_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE xliff [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<xliff version="1.2"><file><body><trans-unit id="1"><source>x</source><target>&secret;</target></trans-unit></body></file></xliff>"""

PARAMETER_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE xliff [<!ENTITY % dtd SYSTEM "http://example.invalid/evil.dtd"> %dtd;]>
<xliff version="1.2"/>"""

UNDEFINED_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE xliff SYSTEM "http://example.invalid/xliff.dtd">
<xliff version="1.2"><file><body><trans-unit id="1"><source>x</source><target>&nbsp;</target></trans-unit></body></file></xliff>"""


@pytest.mark.parametrize("doc", [BILLION_LAUGHS, EXTERNAL_ENTITY, PARAMETER_ENTITY], ids=["billion-laughs", "external-entity", "external-dtd"])
@pytest.mark.parametrize("name", ["xliff", "tmx"])
def test_hostile_xml_is_refused_quickly(doc, name):
    t = time.perf_counter()
    with pytest.raises(FormatError, match="entity declarations and external references"):
        read(doc, name)
    assert time.perf_counter() - t < 0.5


def test_an_entity_an_external_dtd_would_define_is_not_silently_dropped():
    with pytest.raises(FormatError, match="undefined entity"):
        read(UNDEFINED_ENTITY, "xliff")


def test_a_doctype_alone_is_read_and_nothing_fetched():
    doc = '<?xml version="1.0"?>\n<!DOCTYPE xliff SYSTEM "http://example.invalid/xliff.dtd">\n' + XLIFF_1.split("\n", 1)[1]
    assert [r.id for r in read(doc, "xliff").records] == ["1", "2", "3", "4"]


def test_escape_is_xml_character_data():
    assert reader("xliff").escape("a & <b> \"c\"") == "a &amp; &lt;b&gt; \"c\""


_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from("&<>\"'\n\t😀é中"), max_size=40)


def _xliff_1(pairs: list[tuple[str, str]]) -> str:
    ET.register_namespace("", X1)
    root = ET.Element(f"{{{X1}}}xliff", version="1.2")
    body = ET.SubElement(ET.SubElement(root, f"{{{X1}}}file", original="x"), f"{{{X1}}}body")
    for k, (source, target) in enumerate(pairs):
        unit = ET.SubElement(body, f"{{{X1}}}trans-unit", id=str(k))
        ET.SubElement(unit, f"{{{X1}}}source").text = source
        ET.SubElement(unit, f"{{{X1}}}target").text = target
    return ET.tostring(root, encoding="unicode", xml_declaration=True)


def _xliff_2(pairs: list[tuple[str, str]]) -> str:
    ET.register_namespace("", X2)
    root = ET.Element(f"{{{X2}}}xliff", version="2.0", srcLang="en", trgLang="de")
    file = ET.SubElement(root, f"{{{X2}}}file", id="f")
    for k, (source, target) in enumerate(pairs):
        segment = ET.SubElement(ET.SubElement(file, f"{{{X2}}}unit", id=str(k)), f"{{{X2}}}segment")
        ET.SubElement(segment, f"{{{X2}}}source").text = source
        ET.SubElement(segment, f"{{{X2}}}target").text = target
    return ET.tostring(root, encoding="unicode")


def _expected(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")  # what XML reads back


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_TEXT, _TEXT), min_size=1, max_size=5), st.sampled_from([_xliff_1, _xliff_2]))
def test_random_texts_written_by_elementtree_read_back(pairs, write):
    doc = write(pairs)
    records = read(doc, "xliff").records
    assert [r.id for r in records] == [str(k) for k in range(len(pairs))]
    assert [(r.source.text, r.text.text) for r in records] == [(_expected(s), _expected(t)) for s, t in pairs]
    for r in records:
        check_map(doc, r.text, xml_decode)
        check_map(doc, r.source, xml_decode)


def test_10000_units_are_read():
    doc = _xliff_1([(f"Source sentence {k} & more", f"Zielsatz {k} für <alle>") for k in range(10_000)])
    assert len(read(doc, "xliff").records) == 10_000


@pytest.mark.shared
def test_real_system_output_as_xliff_reads_back():
    hyp, ref = real_lines()
    doc = _xliff_1(list(zip(ref, hyp)))
    records = read(doc, "xliff").records
    assert [r.text.text for r in records] == hyp
    assert [r.source.text for r in records] == ref
    for r in records:
        check_map(doc, r.text, xml_decode)


@pytest.mark.parametrize("name", ["xliff", "tmx"])
def test_a_document_not_well_formed_says_where_its_parser_stopped(name):
    # a `<` typed into a target, after a character outside the BMP: the column counts characters, from 1
    root = "<xliff version='1.2'><file><body>" if name == "xliff" else "<tmx version='1.4'><body>"
    doc = f"{root}\n<trans-unit id='a'><target>😀 go<od</target>\n"
    with pytest.raises(FormatError) as caught:
        read(doc, name)
    line = doc.split("\n")[1]
    assert (caught.value.line, caught.value.column) == (2, line.index("</target>") + 1)
    assert str(caught.value).endswith(f"line 2, column {line.index('</target>') + 1}")


def _xliff_1_files(*files: tuple[str, str]) -> str:
    body = '<body><trans-unit id="{0}"><source>a</source><target>b</target></trans-unit></body>'
    return f'<xliff version="1.2" xmlns="{X1}">' + "".join(
        f'<file original="f{k}" datatype="plaintext" {attrs}>{body.format(k)}</file>' for k, attrs in enumerate(a for a, _ in files)
    ) + "</xliff>"


def test_the_languages_declared_on_the_files_are_the_readings():
    assert read(XLIFF_1, "xliff").languages == ("en", "de")
    assert read(XLIFF_1, "xliff", Fields(references_only=True)).languages == ("en", "de")
    two = _xliff_1_files(('source-language="en-US" target-language="de-CH"', ""), ('source-language="en-us" target-language="de-CH"', ""))
    assert read(two, "xliff").languages == ("en-US", "de-CH")  # the same without case: as first written
    # a target language one file does not name, or names otherwise, is not guessed
    assert read(_xliff_1_files(('source-language="en" target-language="de"', ""), ('source-language="en"', "")), "xliff").languages == ("en", None)
    assert read(_xliff_1_files(('source-language="en" target-language="de"', ""), ('source-language="en" target-language="fr"', "")), "xliff").languages == ("en", None)


def test_xliff_2_declares_its_languages_on_the_root():
    doc = f'<xliff xmlns="{X2}" version="2.0" srcLang="en" trgLang="ja"><file id="f"><unit id="u"><segment><source>a</source><target>b</target></segment></unit></file></xliff>'
    assert read(doc, "xliff").languages == ("en", "ja")
    assert read(doc.replace(' trgLang="ja"', ""), "xliff").languages == ("en", None)


def test_inline_codes_of_source_and_target_are_kept_on_the_record_with_their_places():
    """1.2: <g> is a start and an end around its text; <bpt>/<ept> are a start and an end; <x/>,
    <ph> and <it> stand alone; <mrk> is no code; what native code holds is no code either."""
    [first, *_] = read(XLIFF_1, "xliff").records
    source, target = first.codes
    assert [(c.kind, c.id, c.name, c.offset) for c in source] == [("start", "1", "g", 8), ("end", "1", "g", 13), ("standalone", "2", "x", 13)]
    assert [(c.kind, c.id, c.name) for c in target] == [
        ("start", "1", "g"), ("end", "1", "g"), ("standalone", "3", "ph"), ("start", "4", "bpt"), ("end", "4", "ept"), ("standalone", "5", "it")
    ]
    assert first.text.text[target[0].offset : target[1].offset] == "Wélt"  # the text <g> holds
    assert read(XLIFF_1, "xliff").records[1].codes == ((), ())  # no target, no codes


def test_xliff_2_inline_codes_and_an_end_code_named_by_its_start():
    doc = (
        f'<xliff xmlns="{X2}" version="2.0" srcLang="en"><file id="f"><unit id="u"><segment>'
        '<source>a <pc id="1">b</pc><ph id="2"/> <sc id="3"/>c<ec startRef="3"/><mrk id="m">d</mrk><cp hex="0001"/></source>'
        '<target>x<ph id="2"/></target></segment></unit></file></xliff>'
    )
    [record] = read(doc, "xliff").records
    source, target = record.codes
    assert [(c.kind, c.id, c.name, c.offset) for c in source] == [
        ("start", "1", "pc", 2), ("end", "1", "pc", 3), ("standalone", "2", "ph", 3), ("start", "3", "sc", 4), ("end", "3", "ec", 5)
    ]
    assert [(c.kind, c.id, c.offset) for c in target] == [("standalone", "2", 1)]
