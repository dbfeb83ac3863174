"""Glossary files (formats/glossary.py): TSV and TBX read into entries; bad entries named by their
line with the rest kept; hostile XML refused."""

from __future__ import annotations

import pytest

from scorelens.formats import FormatError
from scorelens.formats.glossary import GlossaryEntry, format_of, read
from scorelens.formats.segments import RecordError

TSV = "\ufeffsource\ttarget\tnote\n# terms of the UI\nfile\tDatei\tnoun\r\n\nhard disk \t Festplatte\nScoreLens\tScoreLens\tproduct name\nno tab here\n\tleer\nzu\tviele\tSpalten\thier\nempty\t\n"


def test_tsv_entries_header_comments_and_do_not_translate():
    reading = read(TSV, "tsv")
    assert reading.entries == [
        GlossaryEntry(3, "file", "Datei", "noun"),
        GlossaryEntry(5, "hard disk", "Festplatte"),
        GlossaryEntry(6, "ScoreLens", "ScoreLens", "product name", True),
    ]
    assert reading.errors == [
        RecordError(7, "expected source term<TAB>target term[<TAB>note], found no tab"),
        RecordError(8, "no source term"),
        RecordError(9, "expected at most 3 columns (source term, target term, note), found 4"),
        RecordError(10, "no target term (for a term not to be translated, write it again as its target)"),
    ]
    assert reading.errors[0].format("g.tsv") == "g.tsv:7: error: expected source term<TAB>target term[<TAB>note], found no tab"


def test_tsv_without_header_keeps_its_first_row():
    assert [e.source for e in read("source code\tQuellcode\n", "tsv").entries] == ["source code"]


def test_csv_entries_quoted_as_spreadsheets_write_them():
    text = 'source,target,note\n"paper tray",Papierfach,"not ""Papierkassette"", style guide"\n# a comment\n\nprinter,Drucker\nno comma here\n"Wi-Fi, WLAN",WLAN\n'
    reading = read(text, format_of("terms.csv"))
    assert reading.entries == [
        GlossaryEntry(2, "paper tray", "Papierfach", 'not "Papierkassette", style guide'),
        GlossaryEntry(5, "printer", "Drucker"),
        GlossaryEntry(7, "Wi-Fi, WLAN", "WLAN"),
    ]
    assert reading.errors == [RecordError(6, "expected source term,target term[,note], found one column")]
    unclosed = read('printer,Drucker\n"paper tray,Papierfach\nsupport,Support\n', "csv")  # its quote runs to the end
    assert [e.source for e in unclosed.entries] == ["printer"] and [e.line for e in unclosed.errors] == [2]
    assert "quote" in unclosed.errors[0].message


TBX = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE martif SYSTEM "TBXcoreStructV02.dtd">
<martif type="TBX" xml:lang="en">
<martifHeader><fileDesc><sourceDesc><p>test</p></sourceDesc></fileDesc></martifHeader>
<text><body>
<termEntry id="c1">
  <descrip type="definition">A file of terms.</descrip>
  <langSet xml:lang="en-US">
    <tig><term>glossary</term></tig>
    <tig><term>termbase</term></tig>
  </langSet>
  <langSet xml:lang="de">
    <tig><term>Wörterbuch</term><termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></tig>
    <tig><term>Terminologie</term></tig>
    <tig><term>Glossar</term><termNote type="administrativeStatus">preferredTerm-admn-sts</termNote></tig>
  </langSet>
</termEntry>
<termEntry id="c2">
  <langSet xml:lang="en"><ntig><termGrp><term>ScoreLens</term><termNote type="translationNote">no</termNote></termGrp></ntig></langSet>
</termEntry>
<termEntry id="c3"><langSet xml:lang="en"><tig><term>orphan</term></tig></langSet></termEntry>
<termEntry id="c4"><langSet><tig><term>no language</term></tig></langSet></termEntry>
<termEntry id="c5"><langSet xml:lang="en"><tig><term></term></tig></langSet><langSet xml:lang="de"><tig><term>leer</term></tig></langSet></termEntry>
<termEntry id="c6"><langSet xml:lang="fr-FR"><tig><term>fichier</term></tig></langSet></termEntry>
</body></text></martif>
"""


def test_tbx_v2_entries():
    reading = read(TBX, "tbx", target_language="de")
    assert (reading.source_language, reading.target_language) == ("en", "de")
    assert reading.entries == [
        GlossaryEntry(9, "glossary", "Glossar", "A file of terms."),
        GlossaryEntry(10, "termbase", "Glossar", "A file of terms."),
        GlossaryEntry(19, "ScoreLens", "ScoreLens", "", True),
    ]
    assert reading.errors == [
        RecordError(21, "no de term for 'orphan'"),
        RecordError(22, "<langSet> without xml:lang: its terms are left out"),
        RecordError(23, "an empty term"),
    ]


def test_tbx_target_language_must_be_named_when_there_are_several():
    with pytest.raises(FormatError, match="which language is the target"):
        read(TBX, "tbx")


TBX3 = """<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
<tbxHeader><fileDesc><sourceDesc><p>v3</p></sourceDesc></fileDesc></tbxHeader>
<text><body>
<conceptEntry id="1">
  <langSec xml:lang="en"><termSec><term>file</term></termSec></langSec>
  <langSec xml:lang="ja"><termSec><term>ファイル</term><termNote type="administrativeStatus">admittedTerm-admn-sts</termNote></termSec></langSec>
</conceptEntry>
<conceptEntry id="2">
  <langSec xml:lang="en"><termSec><term>folder</term></termSec></langSec>
  <langSec xml:lang="ja"><termSec><term>フォルダー</term><termNote type="administrativeStatus">forbidden</termNote></termSec>
    <termSec><term>フォルダ</term></termSec></langSec>
</conceptEntry>
</body></text></tbx>
"""


def test_tbx_v3_entries_and_languages_from_the_file():
    reading = read(TBX3, "tbx")
    assert (reading.source_language, reading.target_language) == ("en", "ja")
    assert [(e.line, e.source, e.target) for e in reading.entries] == [(6, "file", "ファイル"), (10, "folder", "フォルダ")]
    assert reading.errors == []
    reverse = read(TBX3, "tbx", "ja", "en")
    assert [(e.source, e.target) for e in reverse.entries] == [("ファイル", "file"), ("フォルダー", "folder"), ("フォルダ", "folder")]


@pytest.mark.parametrize(
    "text, message",
    [
        ('<?xml version="1.0"?><!DOCTYPE martif [<!ENTITY x "boom">]><martif>&x;</martif>', "XML refused"),
        ('<?xml version="1.0"?><!DOCTYPE martif [<!ENTITY x SYSTEM "file:///etc/passwd">]><martif>&x;</martif>', "XML refused"),
        ("<martif><text>", "not well-formed XML"),
        ("<html/>", "not a TBX document"),
    ],
)
def test_tbx_hostile_or_broken_xml_is_refused(text, message):
    with pytest.raises(FormatError, match=message):
        read(text, "tbx", "en", "de")


def test_format_of_a_path():
    assert [format_of(p) for p in ("g.tbx", "G.TBX", "g.tsv", "terms.txt", "terms", "g.CSV")] == ["tbx", "tbx", "tsv", "tsv", "tsv", "csv"]
    with pytest.raises(FormatError, match="unknown glossary format"):
        read("", "xlsx")
