"""Glossary terms (core/qa/glossary.py): found in the source as whole words with inflections, the
target term looked for likewise, "do not translate" terms kept as they are; findings with the
place, the fix and the entry for a hover."""

from __future__ import annotations

import pytest

from scorelens.core.qa import Glossary, QAConfig, Term, check_segment

TERMS = [
    Term("file", "Datei", "noun, not 'Akte'"),
    Term("hard disk", "Festplatte"),
    Term("disk", "Datenträger"),
    Term("ScoreLens", "ScoreLens", do_not_translate=True),
]
DE = Glossary(TERMS, "en", "de")


def findings(source: str, target: str, glossary: Glossary = DE):
    return check_segment(source, target, QAConfig(glossary.source_language, glossary.target_language, frozenset({"glossary", "do-not-translate"}), glossary))


def test_terms_found_as_whole_words_with_inflections_and_the_longest_first():
    assert [(a, b, [t.target for t in terms]) for a, b, terms in DE.find("Copy the files to the hard disk.")] == [
        (9, 14, ["Datei"]),
        (22, 31, ["Festplatte"]),
    ]
    assert DE.find("A profile, a diskette.") == []  # not inside other words
    assert [t[2][0].source for t in DE.find("FILE and Disk")] == ["file", "disk"]  # case ignored


def test_target_term_present_in_an_inflected_form():
    assert findings("Open the file.", "Öffnen Sie die Datei.") == []
    assert findings("Open the files.", "Öffnen Sie die Dateien.") == []
    assert findings("Save it to the hard disk.", "Speichern Sie es auf der Festplatte.") == []


def test_missing_term_is_a_point_with_an_insertion():
    source, target = "Open the file now.", "Öffnen Sie jetzt das Dokument."
    (f,) = findings(source, target)
    assert f.code == "qa.glossary" and f.start == f.end and f.text == ""
    assert (f.source_start, f.source_end) == (9, 13)
    assert f.message == 'the source\'s "file" is "Datei" in the glossary, and the hypothesis lacks it'
    assert f.note == "file → Datei: noun, not 'Akte'"
    assert target[f.start - 1] == " " or f.start == 0  # a word start
    after = target[: f.fix.start] + f.fix.text + target[f.fix.end :]
    assert "Datei" in after.split() and findings(source, after) == []


def test_source_term_left_in_the_hypothesis_is_replaced():
    source, target = "Delete the file.", "Löschen Sie die file."
    (f,) = findings(source, target)
    assert (f.start, f.end, f.text) == (16, 20, "file")
    assert f.fix.text == "Datei" and f.message == '"file" is left untranslated: the glossary has "Datei"'
    assert findings(source, target[:16] + "Datei" + target[20:]) == []


def test_do_not_translate():
    assert findings("ScoreLens scores it.", "ScoreLens bewertet es.") == []
    (f,) = findings("ScoreLens scores it.", "Scorelens bewertet es.")
    assert f.code == "qa.do-not-translate" and (f.start, f.end, f.fix.text) == (0, 9, "ScoreLens")
    assert f.note == "ScoreLens (do not translate)"
    (f,) = findings("Use ScoreLens.", "Verwenden Sie das Werkzeug.")
    assert f.start == f.end and "ScoreLens" in f.fix.text


def test_a_language_without_spaces_matches_strings():
    ja = Glossary([Term("temple", "寺院"), Term("Kyoto", "京都")], "en", "ja")
    assert findings("The temple in Kyoto.", "京都の寺院。", ja) == []
    (f,) = findings("The temple in Kyoto.", "京都のお寺。", ja)
    assert f.fix.text == "寺院" and f.fix.start == f.fix.end
    reverse = Glossary([Term("寺院", "temple")], "ja", "en")
    assert [(a, b) for a, b, _ in reverse.find("京都の寺院です")] == [(3, 5)]
    assert findings("京都の寺院です", "It is a temple in Kyoto.", reverse) == []


def test_terms_without_a_stemmer_or_languages_match_words_as_they_are():
    plain = Glossary([Term("file", "fichier")])
    assert len(plain.find("the file")) == 1 and plain.find("the files") == []
    assert findings("the file", "le fichier", plain) == []


def test_two_entries_for_one_term_accept_either_target():
    either = Glossary([Term("car", "Auto"), Term("car", "Wagen")], "en", "de")
    assert findings("The car.", "Der Wagen.", either) == []
    (f,) = findings("The car.", "Das Fahrzeug.", either)
    assert f.fix.text.strip() == "Auto"


def test_a_terms_punctuation_must_stand_in_the_text():
    marked = Glossary([Term("C++", "C++", do_not_translate=True), Term(".NET", ".NET", do_not_translate=True), Term("C#", "C#")], "en", "de")
    assert marked.find("Write C code for the net income.") == []  # "C" is not "C++", "net" not ".NET"
    assert [(a, b) for a, b, _ in marked.find("Use C++ on .NET here.")] == [(4, 7), (11, 15)]
    assert findings("Use C++ on .NET.", "Verwenden Sie C++ auf .NET.", marked) == []
    (f,) = findings("Learn C#.", "Lernen Sie C.", marked)  # "C" is not the target term "C#"
    assert f.code == "qa.glossary"


def test_a_term_without_letters_or_digits_is_found_as_a_string():
    symbols = Glossary([Term("%", " Prozent"), Term("->", "→")], "en", "de")
    assert [(a, b) for a, b, _ in symbols.find("Up 5% -> down")] == [(4, 5), (6, 8)]
    (f,) = findings("Press A -> B.", "Drücken Sie A, dann B.", symbols)
    assert f.fix.text.strip() == "→"


def test_decomposed_accents_match_composed_terms():
    import unicodedata

    def nfd(text: str) -> str:
        return unicodedata.normalize("NFD", text)

    cafe = Glossary([Term("café", "Café"), Term("Ölçü", "Ölçü", do_not_translate=True)], "fr", "de")
    source = nfd("Le café est ouvert.")
    assert [(source[a:b]) for a, b, _ in cafe.find(source)] == [nfd("café")]  # placed in the text as written
    assert findings("Le café est ouvert.", nfd("Das Café ist offen."), cafe) == []
    assert findings("Ölçü est là.", nfd("Ölçü ist da."), cafe) == []
    assert [t.target for _, _, (t, *_) in Glossary([Term(nfd("café"), "Café")], "fr", "de").find("Un café.")] == ["Café"]


def test_turkish_dotted_and_dotless_i_are_one_letter_with_case_ignored():
    tr = Glossary([Term("Izmir", "İzmir"), Term("light", "ışık")], "en", "tr")
    assert findings("Izmir is big.", "izmir büyük.", tr) == []  # Turkish lower-cases İ as i
    assert findings("Izmir is big.", "İZMİR BÜYÜK.", tr) == []
    assert findings("The light.", "IŞIK.", tr) == []  # and upper-cases ı as I
    assert [t.target for _, _, (t, *_) in Glossary([Term("İzmir", "Izmir")], "tr", "en").find("izmir güzel")] == ["Izmir"]


@pytest.mark.timeout(10)  # each string term once looked through every word term found: minutes
def test_a_long_line_with_string_and_word_terms_is_searched_in_linear_time():
    mixed = Glossary([Term("file", "Datei"), Term("京都", "Kyoto")], "en", "de")
    line = "Copy the file to 京都. " * 20000
    assert len(mixed.find(line)) == 40000


def test_any_dash_stands_for_a_terms_hyphen():
    wifi = Glossary([Term("Wi-Fi", "WLAN-Router")], "en", "de")
    assert [(a, b) for a, b, _ in wifi.find("Use Wi‑Fi.")] == [(4, 9)]  # U+2011, a no-break hyphen
    assert findings("Use Wi-Fi.", "Nutzen Sie den WLAN‐Router.", wifi) == []  # U+2010


def test_a_term_in_capitals_is_an_abbreviation_found_in_capitals():
    caps = Glossary([Term("IT", "IT", do_not_translate=True), Term("US", "USA"), Term("disk", "Datenträger")], "en", "de")
    assert findings("Save it and close it.", "Speichern und schließen.", caps) == []  # "it" is no "IT"
    assert findings("Contact us.", "Kontaktieren Sie uns.", caps) == []
    assert [f.code for f in findings("The IT team, made in the US.", "Das Team, hergestellt in Amerika.", caps)] == ["qa.do-not-translate", "qa.glossary"]
    assert [t.source for _, _, (t, *_) in caps.find("DISK and Disk")] == ["disk", "disk"]  # other terms: case ignored
