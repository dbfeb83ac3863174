"""TMX: translation units as records, the source and target chosen by language."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mapcheck import check_map, covered, xml_decode

from scorelens.formats import Fields, FormatError, read

LANG = "{http://www.w3.org/XML/1998/namespace}lang"

TMX = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE tmx SYSTEM "tmx14.dtd">
<tmx version="1.4">
<header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en" creationtool="t" creationtoolversion="1" o-tmf="t"/>
<body>
<tu tuid="7">
 <tuv xml:lang="EN"><seg>Hi <bpt i="1">&lt;b&gt;</bpt>there<ept i="1">&lt;/b&gt;</ept> &amp; you</seg></tuv>
 <tuv xml:lang="de-DE"><seg>Hallo <hi type="x">dort</hi><ph>&lt;br/&gt;</ph> &amp; dü</seg></tuv>
 <tuv xml:lang="fr"><seg>Salut <it pos="begin">&lt;i&gt;</it>là</seg></tuv>
</tu>
<tu>
 <tuv xml:lang="de"><seg>nur Ziel</seg></tuv>
 <tuv xml:lang="en"><seg>source as id</seg></tuv>
</tu>
<tu tuid="9"><tuv xml:lang="en"><seg>no target</seg></tuv></tu>
<tu tuid="10" srclang="de"><tuv xml:lang="en"><seg>E</seg></tuv><tuv xml:lang="de"><seg>D</seg></tuv></tu>
</body>
</tmx>"""


def _all(records):
    return [(r.id, r.source.text if r.source else None, r.text.text if r.text else None) for r in records]


def test_several_target_languages_and_none_chosen_is_refused():
    # whichever tuv came first would be scored: the numbers would change with the tuvs' order
    with pytest.raises(FormatError) as caught:
        read(TMX, "tmx")
    message = str(caught.value)
    assert message.startswith("line 6: which target language? units hold several besides their source: de-DE, fr, de, en; name one with")
    assert "--hyp-field LANG" in message and "hypothesis_field" in message
    # a reference file's target language is its reference field
    with pytest.raises(FormatError, match="de-DE, fr, de, en; name one with --ref-field LANG"):
        read(TMX, "tmx", Fields(references_only=True))


def test_the_chosen_language_is_the_target():
    records = read(TMX, "tmx", Fields(text="de")).records
    assert _all(records) == [
        ("7", "Hi there & you", "Hallo dort & dü"),  # de matches de-DE
        ("source as id", "source as id", "nur Ziel"),
        ("9", "no target", None),
        ("10", "D", None),  # its de tuv is its source
    ]
    assert [r.line for r in records] == [6, 11, 15, 16]
    for r in records:
        for segment in (r.text, r.source):
            if segment is not None:
                check_map(TMX, segment, xml_decode)
    reference = read(TMX, "tmx", Fields(references=("FR",), references_only=True))
    assert _all(reference.records)[0] == ("7", "Hi there & you", "Salut là")
    # a unit without a target is no reference (read as an empty one, every word would count as
    # an error): named and left out, as XLIFF's
    assert [r.id for r in reference.records] == ["7"]
    assert [(e.line, e.message) for e in reference.errors][:2] == [
        (11, "unit 'source as id' has no target <tuv> in 'FR': untranslated, no reference; left out"),
        (15, "unit '9' has no target <tuv> in 'FR': untranslated, no reference; left out"),
    ]


def test_one_target_language_per_unit_is_read_as_before():
    bilingual = TMX.replace(' <tuv xml:lang="fr"><seg>Salut <it pos="begin">&lt;i&gt;</it>là</seg></tuv>\n', "")
    assert bilingual != TMX
    assert _all(read(bilingual, "tmx").records) == [
        ("7", "Hi there & you", "Hallo dort & dü"),
        ("source as id", "source as id", "nur Ziel"),
        ("9", "no target", None),
        ("10", "D", "E"),  # the unit's own srclang
    ]
    # one language in each unit, though not the same in all: no unit's target is in doubt
    mixed = bilingual.replace('xml:lang="de-DE"', 'xml:lang="it"')
    assert [r.text.text if r.text else None for r in read(mixed, "tmx").records] == ["Hallo dort & dü", "nur Ziel", None, "E"]


def test_a_choice_matching_several_languages_of_a_unit_or_none_is_refused():
    variants = TMX.replace('xml:lang="fr"', 'xml:lang="de-AT"')
    with pytest.raises(FormatError, match=r"^line 6: which target language\? 'de' matches de-DE, de-AT in a unit; name one with --hyp-field"):
        read(variants, "tmx", Fields(text="de"))
    assert _all(read(variants, "tmx", Fields(text="de-at")).records)[0] == ("7", "Hi there & you", "Salut là")
    # every unit would be scored as untranslated
    with pytest.raises(FormatError, match=r"^no unit has a target in 'it' \(their other languages: de-DE, fr, de, en\); name one with --hyp-field"):
        read(TMX, "tmx", Fields(text="it"))
    with pytest.raises(FormatError, match="in one target language, not de, fr: name one with --ref-field"):
        read(TMX, "tmx", Fields(references=("de", "fr"), references_only=True))


def test_a_source_file_is_read_for_its_sources_whatever_its_targets():
    records = read(TMX, "tmx", Fields(sources_only=True)).records
    assert [r.source.text for r in records] == ["Hi there & you", "source as id", "no target", "D"]


def test_fields_choose_target_and_source_languages():
    records = read(TMX, "tmx", Fields(text="fr")).records
    assert _all(records)[0] == ("7", "Hi there & you", "Salut là")
    assert records[1].text is None
    records = read(TMX, "tmx", Fields(text="en", source="de")).records
    assert _all(records)[:2] == [("7", "Hallo dort & dü", "Hi there & you"), ("nur Ziel", "nur Ziel", "source as id")]


def test_native_codes_belong_to_no_character():
    target = read(TMX, "tmx", Fields(text="de")).records[0].text
    for code in ("&lt;br/&gt;", "<hi", "</hi>", "<ph>"):
        at = TMX.index(code, TMX.index("de-DE"))
        assert not set(range(at, at + len(code))) & covered(target)


def test_no_srclang_takes_the_first_tuv_as_source():
    doc = '<tmx version="1.4"><header srclang="*all*"/><body><tu><tuv lang="fr"><seg>a</seg></tuv><tuv lang="en"><seg>b</seg></tuv></tu></body></tmx>'
    assert _all(read(doc, "tmx").records) == [("a", "a", "b")]


_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from("&<>\"'\t😀é中"), max_size=40)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_TEXT, _TEXT), min_size=1, max_size=5))
def test_random_texts_written_by_elementtree_read_back(pairs):
    root = ET.Element("tmx", version="1.4")
    ET.SubElement(root, "header", srclang="en", datatype="plaintext")
    body = ET.SubElement(root, "body")
    for k, (source, target) in enumerate(pairs):
        tu = ET.SubElement(body, "tu", tuid=str(k))
        for lang, text in (("de", target), ("en", source)):
            ET.SubElement(ET.SubElement(tu, "tuv", {LANG: lang}), "seg").text = text
    doc = ET.tostring(root, encoding="unicode")
    records = read(doc, "tmx").records
    assert _all(records) == [(str(k), s, t) for k, (s, t) in enumerate(pairs)]
    for r in records:
        check_map(doc, r.text, xml_decode)
        check_map(doc, r.source, xml_decode)


def test_the_languages_of_the_tuvs_read_are_the_readings_where_every_unit_agrees():
    def tmx(*units: str) -> str:
        return '<tmx version="1.4"><header srclang="en"/><body>' + "".join(units) + "</body></tmx>"

    unit = '<tu><tuv xml:lang="{}"><seg>a</seg></tuv><tuv xml:lang="{}"><seg>b</seg></tuv></tu>'
    untranslated = '<tu><tuv xml:lang="en"><seg>c</seg></tuv></tu>'
    doc = tmx(unit.format("en", "de-DE"), untranslated, unit.format("EN", "de-de"))
    assert read(doc, "tmx").languages == ("en", "de-DE")  # a unit without a target does not disagree
    assert read(doc, "tmx", Fields(references_only=True)).languages == ("en", "de-DE")
    assert read(doc, "tmx", Fields(sources_only=True)).languages[0] == "en"
    assert read(tmx(unit.format("en", "de-DE"), unit.format("en", "de")), "tmx").languages == ("en", None)
    # the source is the header's srclang, and a unit's own where it names one
    assert read(TMX, "tmx", Fields("de")).languages == (None, None)


def test_inline_codes_of_source_and_target_are_kept_on_the_record():
    """<bpt>/<ept> are a start and an end paired by their i; <ph>, <it> and <ut> stand alone (by
    their x); <hi> is a start and an end around the text it holds."""
    memory = (
        '<tmx version="1.4"><header srclang="en"/><body><tu tuid="1">'
        '<tuv xml:lang="en"><seg>Click <bpt i="1">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept><ph x="2">&lt;br/&gt;</ph></seg></tuv>'
        '<tuv xml:lang="de"><seg><hi x="3">Speichern</hi> klicken<it pos="begin" x="4">&lt;i&gt;</it></seg></tuv>'
        "</tu></body></tmx>"
    )
    [record] = read(memory, "tmx").records
    source, target = record.codes
    assert [(c.kind, c.id, c.name, c.offset) for c in source] == [("start", "1", "bpt", 6), ("end", "1", "ept", 10), ("standalone", "2", "ph", 10)]
    assert [(c.kind, c.id, c.name) for c in target] == [("start", "3", "hi"), ("end", "3", "hi"), ("standalone", "4", "it")]
    assert record.text.text[target[0].offset : target[1].offset] == "Speichern"
