"""Each per-segment QA check (core/qa): what it flags, where (the span in the hypothesis and in
the source), its fix (applied, the check no longer fires), and what it must not flag."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorelens.core.qa import CHECKS, QAConfig, QAFinding, check_segment, wording

DE = QAConfig("en", "de")
FR = QAConfig("en", "fr")
JA = QAConfig("en", "ja")


def only(check: str, config: QAConfig) -> QAConfig:
    return QAConfig(config.source_language, config.target_language, frozenset({check}), config.glossary)


def found(source: str, target: str, check: str, config: QAConfig = DE) -> list[QAFinding]:
    return check_segment(source, target, only(check, config))


def applied(target: str, finding: QAFinding) -> str:
    fix = finding.fix
    assert fix is not None, finding
    assert target[finding.start : finding.end] == finding.text
    return target[: fix.start] + fix.text + target[fix.end :]


def fixed(source: str, target: str, check: str, config: QAConfig = DE) -> tuple[QAFinding, str]:
    """The one finding of ``check``, and the target with its fix applied (which must pass)."""
    (f,) = found(source, target, check, config)
    assert f.code == "qa." + check
    after = applied(target, f)
    assert found(source, after, check, config) == [], after
    return f, after


# numbers


@pytest.mark.parametrize(
    "source, target, config",
    [
        ("It costs 1,000 euros.", "Es kostet 1.000 Euro.", DE),
        ("It costs 1,000 euros.", "Es kostet 1000 Euro.", DE),
        ("It costs 1,000 euros.", "Es kostet 1 000 Euro.", DE),
        ("It costs 1,000 euros.", "Il coûte 1 000 euros.", FR),
        ("It costs 1,000 euros.", "Il coûte 1\u202f000 euros.", FR),
        ("It costs 1,000 euros.", "Il coûte 1\u00a0000 euros.", FR),
        ("Pi is 3.14.", "Pi ist 3,14.", DE),
        ("Pi is 3.14.", "Pi ist 3.14.", DE),  # not German, but still 3.14
        ("1,234.5 km", "1.234,5 km", DE),
        ("1,234.5 km", "1’234.5 km", QAConfig("en", "de-CH")),
        ("1,234.5 km", "1'234.5 km", QAConfig("en", "de_CH")),
        ("It costs 10,000 yen.", "1万円です。", JA),
        ("3 million people", "300万人", JA),
        ("Room 12", "１２号室", JA),  # full-width digits
        ("October 1, 1907: nationalized", "1907年10月1日:国有化", JA),  # a month's name is a number
        ("Ninety-five chapters", "95章", JA),
        ("on 3.5.2010", "am 3.5.2010", DE),  # no convention reads it: its parts
        ("Version 2", "Version 2", QAConfig()),
        ("It costs 1,000 euros.", "Es kostet 1.000 Euro.", QAConfig()),  # no languages: either reading
        ("No number here.", "Keine Zahl hier.", DE),
        ("Use %1$s and {2}.", "Nimm %1$s und {2}.", DE),  # placeholders are the placeholder check's
    ],
)
def test_numbers_not_flagged(source, target, config):
    assert found(source, target, "number", config) == []


def test_number_changed_is_replaced_by_the_source_s():
    f, after = fixed("It has 250 pages.", "Es hat 205 Seiten.", "number")
    assert (f.start, f.end, f.text, f.source_start, f.source_end) == (7, 10, "205", 7, 10)
    assert f.message == 'number "205" is not the source\'s "250"'
    assert after == "Es hat 250 Seiten."


def test_number_read_by_the_target_language_s_conventions():
    # German reads "1,000" as one: the fix writes the source's thousand as German does
    f, after = fixed("It costs 1,000 euros.", "Es kostet 1,000 Euro.", "number")
    assert (f.start, f.end) == (10, 15)
    assert f.message == '"1,000" reads 1 in German, not the source\'s "1,000": write "1.000"'
    assert after == "Es kostet 1.000 Euro."
    f, after = fixed("It weighs 2,500 kg.", "Il pèse 2,500 kg.", "number", FR)
    assert after == "Il pèse 2\u202f500 kg."


def test_number_missing_and_added():
    (missing,) = found("Call 112 now.", "Rufen Sie jetzt an.", "number")
    assert (missing.start, missing.end, missing.text, missing.fix) == (missing.start, missing.start, "", None)
    assert (missing.source_start, missing.source_end) == (5, 8)
    assert missing.message == 'the source\'s number "112" is missing'
    (added,) = found("Call now.", "Rufen Sie 112 an.", "number")
    assert (added.start, added.end, added.message, added.fix) == (10, 13, 'number "112" is not in the source', None)


# placeholders, tags, URLs


@pytest.mark.parametrize(
    "source, target",
    [
        ("Open %s now", "Öffne jetzt %s"),
        ("%1$s of %2$s", "%2$s von %1$s"),  # numbered: any order
        ("Hello {name}", "Hallo {name}"),
        ("{0} and {1}", "{1} und {0}"),
        ("Hi {{ user }}", "Hallo {{ user }}"),
        ("<b>Bold</b> text", "<b>Fetter</b> Text"),
        ('<img src="a.png" alt="A cat">', '<img src="a.png" alt="Eine Katze">'),  # alt may be translated
        ("<b>a</b> <i>b</i>", "<i>b</i> <b>a</b>"),  # tags move with their words
        ("See http://example.com/a.", "Siehe http://example.com/a."),
        ("Mail info@example.com", "Mail an info@example.com"),
        ("50% off", "50% Rabatt"),
    ],
)
def test_placeables_kept_are_not_flagged(source, target):
    assert check_segment(source, target, QAConfig("en", "de", frozenset({"placeholder", "tag", "url"}))) == []


@pytest.mark.parametrize(
    "source, target, config",
    [
        ("50% off", "50%の割引", JA),  # translate-toolkit takes "%の" for a printf variable
        ("see http://a.org/x.", "http://a.org/xを参照。", JA),  # and "…/xを参照" for the URL
        ("Mail info@example.com now", "info@example.comまでメール", JA),
    ],
)
def test_placeables_in_a_language_without_spaces_are_not_flagged(source, target, config):
    assert check_segment(source, target, QAConfig(config.source_language, config.target_language, frozenset({"placeholder", "url"}))) == []


def test_placeholder_changed():
    f, after = fixed("Click %s to open.", "Klicken Sie %d zum Öffnen.", "placeholder")
    assert (f.start, f.end, f.source_start, f.source_end) == (12, 14, 6, 8)
    assert after == "Klicken Sie %s zum Öffnen."
    f, after = fixed("Hello {name}!", "Hallo {nom}!", "placeholder")
    assert (f.text, after) == ("{nom}", "Hallo {name}!")
    f, after = fixed("Hi {{ user }}", "Hallo {{ benutzer }}", "placeholder")
    assert after == "Hallo {{ user }}"


def test_placeholder_missing_and_out_of_order():
    (f,) = found("Delete %s?", "Löschen?", "placeholder")
    assert (f.start, f.end, f.fix, f.source_start) == (f.start, f.start, None, 7)
    assert f.message == 'the source\'s placeholder "%s" is missing'
    (f,) = found("%s has %d files", "%d Dateien hat %s", "placeholder")
    assert (f.start, f.end, f.text) == (0, 2, "%d")
    assert "out of the source's order" in f.message


def test_tag_changed_and_missing():
    source, target = "See <b>this</b> page.", "Siehe <i>diese</i> Seite."
    findings = found(source, target, "tag")
    assert [(f.text, f.fix.text) for f in findings] == [("<i>", "<b>"), ("</i>", "</b>")]
    for f in findings:
        target = applied(target, f)  # same lengths: the spans still hold
    assert target == "Siehe <b>diese</b> Seite." and found(source, target, "tag") == []
    missing = found("A <br/> B", "A B", "tag")
    assert [f.message for f in missing] == ['the source\'s tag "<br/>" is missing']


def test_url_and_email_changed():
    f, after = fixed("Visit https://example.com/docs today.", "Besuchen Sie heute https://example.org/docs.", "url")
    assert f.text == "https://example.org/docs" and f.message.startswith("URL ")
    assert after == "Besuchen Sie heute https://example.com/docs."
    f, after = fixed("Write to info@example.com.", "Schreiben Sie an info@example.net.", "url")
    assert f.message == 'e-mail address "info@example.net" is not the source\'s "info@example.com"'


# untranslated and source words


@pytest.mark.parametrize("target", ["Hello world.", "hello   WORLD.", "  Hello world.  "])
def test_untranslated(target):
    (f,) = found("Hello world.", target, "untranslated")
    assert f.text == target.strip() and f.fix is None


def test_untranslated_without_case_and_empty():
    assert [f.message for f in found("東京タワー", "東京タワー", "untranslated", QAConfig("ja", "en"))] == ["the hypothesis is the source, untranslated"]
    (f,) = found("Hello world.", "", "untranslated")
    assert (f.start, f.end, f.message) == (0, 0, "the hypothesis is empty")


@pytest.mark.parametrize("source, target", [("NASA", "NASA"), ("OK", "OK"), ("42", "42"), ("A", "A"), ("Hello", "Hallo"), ("", "")])
def test_not_untranslated(source, target):
    assert found(source, target, "untranslated") == []


def test_source_words():
    source = "The sensor measures the ambient temperature every second."
    target = "Der Fühler measures the ambient temperature jede Sekunde."
    (f,) = found(source, target, "source-words")
    assert f.text == "measures the ambient temperature"
    assert source[f.source_start : f.source_end] == "measures the ambient temperature"


def _source_word_runs(source: str, target: str) -> list[tuple[int, int, int, int]]:
    """source-words by its definition, every source place tried: from each hypothesis word on,
    the longest run of the source's words (the first in the source of the longest), taken when it
    has three words or more and a lower-case word of four letters, the search going on after it."""
    ours, theirs = wording._words(source, ()), wording._words(target, ())
    runs, j = [], 0
    while j < len(theirs):
        best = (0, 0)
        for i in range(len(ours)):
            n = 0
            while i + n < len(ours) and j + n < len(theirs) and ours[i + n][0] == theirs[j + n][0]:
                n += 1
            best = max(best, (n, -i))
        n, i = best[0], -best[1]
        if n >= 3 and any(wording._real(target[a:b]) for _, a, b in theirs[j : j + n]):
            runs.append((theirs[j][1], theirs[j + n - 1][2], ours[i][1], ours[i + n - 1][2]))
            j += n
        else:
            j += 1
    return runs


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["the", "house", "garden", "Tree", "of", "red", "3", "water"]), max_size=40), st.lists(st.sampled_from(["das", "house", "garden", "Tree", "of", "red", "3", "water"]), max_size=40))
def test_source_words_are_the_definitions_runs(source_words, target_words):
    """Tried only from the source's first RUN_STARTS places that have the run's first three
    words, the runs are those of trying every place (the first of the longest runs starts early)."""
    source, target = " ".join(source_words), " ".join(target_words)
    found = [(f.start, f.end, f.source_start, f.source_end) for f in wording.source_words(source, target)]
    assert found == _source_word_runs(source, target)


@pytest.mark.parametrize(
    "source, target",
    [
        ("Juan de la Cruz wrote it.", "Juan de la Cruz schrieb es."),  # a name with its particles
        ("The World Health Organization said so.", "Die World Health Organization sagte das."),
        ("Hello world.", "Hello world."),  # untranslated says it, not this
        ("Dogen was a Zen monk in the early Kamakura period.", "道元は鎌倉時代初期の禅僧でした。"),
    ],
)
def test_not_source_words(source, target):
    assert found(source, target, "source-words") == []


# end punctuation and whitespace


def test_end_punctuation_in_the_target_language_s_form():
    f, after = fixed("Dogen was a Zen monk.", "道元は禅僧でした", "end-punctuation", JA)
    assert (f.start, f.end, f.fix.text) == (8, 8, "。")
    assert after == "道元は禅僧でした。"
    f, after = fixed("Dogen was a Zen monk.", "道元は禅僧でした.", "end-punctuation", JA)
    assert (f.text, after) == (".", "道元は禅僧でした。")
    assert f.message == 'ends with "."; the source\'s "." is "。" in Japanese'
    _, after = fixed("Hello!", "Bonjour!", "end-punctuation", FR)
    assert after == "Bonjour\u00a0!"
    _, after = fixed("Hello.", "Hallo !", "end-punctuation")
    assert after == "Hallo."
    _, after = fixed("Name", "Name:", "end-punctuation")
    assert after == "Name"


@pytest.mark.parametrize(
    "source, target, config",
    [("Is it?", "そうですか？", JA), ("Hello.", "こんにちは。", JA), ("Hello!", "Bonjour !", FR), ("Hello", "Hallo", DE), ("Wait...", "Warte...", DE)],
)
def test_end_punctuation_not_flagged(source, target, config):
    assert found(source, target, "end-punctuation", config) == []


def test_whitespace():
    f, after = fixed("Password: ", "Passwort:", "whitespace")
    assert (f.start, f.end, f.fix.text) == (9, 9, " ") and after == "Passwort: "
    f, after = fixed("Name", "  Name", "whitespace")
    assert (f.start, f.end, f.text, after) == (0, 2, "  ", "Name")
    assert found(" a ", " b ", "whitespace") == []


# doubled words


def test_doubled_word():
    f, after = fixed("It is good.", "Es ist ist gut.", "doubled-word")
    assert (f.start, f.end, f.text) == (7, 10, "ist") and after == "Es ist gut."
    _, after = fixed("Stop.", "Stop. Stop.", "doubled-word")
    assert after == "Stop."
    _, after = fixed("the end", "the the.", "doubled-word")
    assert after == "the."
    _, after = fixed("The cat", "The the cat", "doubled-word")
    assert after == "The cat"
    assert found("a b", "Ein Hund, Hund", "doubled-word") == []
    assert found("Hi", "主 主", "doubled-word", JA)[0].text == "主"


def test_every_check_has_a_severity_and_an_empty_source_has_no_findings():
    assert set(CHECKS.values()) <= {"error", "warning", "information", "hint"}
    assert {k for k, v in CHECKS.items() if v == "error"} == {"number", "placeholder", "tag", "inline-code", "url"}
    assert check_segment("", "Hallo 5 %s <b>", DE) == [] and check_segment("  ", "x", DE) == []


def test_findings_carry_their_segment():
    assert {f.segment for f in check_segment("It has 250 pages.", "Es hat 205 Seiten", DE, segment=7)} == {7}


def test_config_refuses_unknown_checks():
    with pytest.raises(ValueError, match="unknown QA check"):
        QAConfig(checks=frozenset({"numbers"}))


def test_a_byte_order_mark_opening_a_file_is_not_text_to_the_checks():
    """A file's U+FEFF is in its first segment (the metrics count it, as sacreBLEU does), but the
    checks read past it: a source saved with one is still the untranslated hypothesis, and spans
    in a hypothesis with one still land on their text."""
    [untranslated] = check_segment("\ufeffSave your settings now.", "Save your settings now.", DE)
    assert untranslated.code == "qa.untranslated"
    target = "\ufeffWiegt 15,5 kg."
    [number] = check_segment("Weighs 12.5 kg.", target, DE)
    assert (number.code, number.source_start) == ("qa.number", 7) and target[number.start : number.end] == number.text == "15,5"
    assert applied(target, number) == "\ufeffWiegt 12,5 kg."
    assert check_segment("\ufeffOpen it.", "\ufeffÖffnen Sie es.", DE) == []


@pytest.mark.timeout(10)  # each number and word was once looked up in every placeable's span: minutes
def test_a_long_segment_dense_with_placeables_is_checked_in_near_linear_time():
    import random

    rng = random.Random(1)
    words = ["paper", "tray", "printer", "<b>", "</b>", "%s", "12.5", "1,000", "https://x.org/a", "is"]
    source, target = (" ".join(rng.choice(words) for _ in range(20000)) for _ in range(2))
    found = check_segment(source, target, QAConfig("en", "de", frozenset({"number", "source-words"})))
    assert {f.code for f in found} == {"qa.number", "qa.source-words"}
