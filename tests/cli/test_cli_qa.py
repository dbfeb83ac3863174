"""``check`` against a source: the QA checks with or without a reference, their gate, the
glossary, the sources XLIFF units hold, and real data (the Kyoto en-ja test set) with planted faults."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import scorelens
from cli_support import SAMPLES, sample

KYOTO = Path(__file__).resolve().parents[3] / "shared" / "data" / "en-ja-kyoto"
needs_kyoto = pytest.mark.skipif(not KYOTO.is_dir(), reason="../shared/data/en-ja-kyoto not present (a fresh clone without the shared corpora)")


def _json(result) -> dict:
    assert result.code in (0, 1), result.err
    return json.loads(result.out)


def _codes_by_line(findings: list[dict]) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for f in findings:
        out.setdefault(f["line"], set()).add(f["code"])
    return out


def test_a_translation_with_its_source_and_no_reference(run):
    result = run("check", sample("qa/manual.hyp.de"), "--format", "json")
    report = _json(result)
    assert "source found by name: " in result.err and "manual.src.en" in result.err
    assert report["scores"] is None and report["qa"]["source"].endswith("manual.src.en") and report["qa"]["language"] == "en-de"
    by_line = _codes_by_line(report["findings"])
    assert by_line == {
        3: {"qa.tag"},
        4: {"qa.url"},
        5: {"qa.number"},
        6: {"qa.placeholder", "qa.doubled-word"},
        8: {"qa.untranslated"},
        9: {"qa.inconsistent"},
        10: {"qa.end-punctuation"},
    }, by_line  # line 2: "1.000" is German for the source's "1,000"
    [number] = [f for f in report["findings"] if f["code"] == "qa.number"]
    assert (number["column"], number["end_column"], number["text"], number["severity"]) == (19, 23, "15,5", "error")
    source_line = (SAMPLES / "qa" / "manual.src.en").read_text(encoding="utf-8").split("\n")[4]
    assert number["related"] == {"path": sample("qa/manual.src.en"), "line": 5, "column": source_line.index("12.5") + 1}
    assert number["fix"]["start"] == {"line": 5, "column": 19} and number["fix"]["end"] == {"line": 5, "column": 23}
    assert "12" in number["fix"]["text"]
    [inconsistent] = [f for f in report["findings"] if f["code"] == "qa.inconsistent"]
    assert inconsistent["related"]["line"] == 7  # the same source, translated otherwise
    assert report["qa"]["errors"] == sum(f["severity"] == "error" for f in report["findings"]) == 5


def test_text_output_is_in_line_order_with_a_summary(run):
    result = run("check", sample("qa/manual.hyp.de"))
    assert result.code == 0
    lines = result.out.splitlines()
    places = [tuple(map(int, line.split(":")[1:3])) for line in lines if line.startswith(sample("qa/manual.hyp.de"))]
    assert places == sorted(places) and len(places) == 9
    assert any(line.startswith("QA against ") and "9 findings (5 errors)" in line for line in lines)


def test_max_qa_gates_on_errors_and_github_annotations_carry_severity(run):
    assert run("check", sample("qa/manual.hyp.de"), "--max-qa", "5").code == 0
    failed = run("check", sample("qa/manual.hyp.de"), "--max-qa", "4", "--format", "github")
    assert failed.code == 1
    assert "::error title=scorelens threshold::QA errors 5 is above --max-qa 4" in failed.out
    assert "::error file=" in failed.out and "title=qa.number" in failed.out
    assert "::warning file=" in failed.out and "title=qa.doubled-word" in failed.out


def test_checks_chosen_skipped_or_turned_off(run):
    only = _json(run("check", sample("qa/manual.hyp.de"), "--format", "json", "--qa-checks", "number,url"))
    assert {f["code"] for f in only["findings"]} == {"qa.number", "qa.url"}
    skipped = _json(run("check", sample("qa/manual.hyp.de"), "--format", "json", "--qa-skip", "number"))
    assert "qa.number" not in {f["code"] for f in skipped["findings"]} and "qa.url" in {f["code"] for f in skipped["findings"]}
    bad = run("check", sample("qa/manual.hyp.de"), "--qa-checks", "numbers")
    assert bad.code == 2 and "unknown check 'numbers'" in bad.err and "number" in bad.err
    off = run("check", sample("qa/manual.hyp.de"), "--no-qa")
    assert off.code == 2 and "no reference" in off.err  # nothing left to check against
    clash = run("check", sample("qa/manual.hyp.de"), "--no-qa", "--max-qa", "1")
    assert clash.code == 2 and "--no-qa" in clash.err


def test_with_a_reference_both_the_scores_findings_and_the_checks(run, tmp_path):
    for name in ("manual.hyp.de", "manual.src.en"):
        shutil.copy(SAMPLES / "qa" / name, tmp_path / name)
    (tmp_path / "manual.ref.de").write_text((SAMPLES / "qa" / "manual.hyp.de").read_text(encoding="utf-8").replace("15,5", "12,5"), encoding="utf-8")
    report = _json(run("check", tmp_path / "manual.hyp.de", "--format", "json", "-m", "wer"))
    codes = {f["code"] for f in report["findings"]}
    assert "wer.substitution" in codes and "qa.number" in codes
    assert report["scores"]["wer"]["substitutions"] == 1


def test_an_explicit_source_and_language_and_no_source_at_all(run, tmp_path):
    shutil.copy(SAMPLES / "qa" / "manual.hyp.de", tmp_path / "out.txt")
    report = _json(run("check", tmp_path / "out.txt", "--source", sample("qa/manual.src.en"), "-l", "en-de", "--format", "json"))
    assert report["qa"]["language"] == "en-de" and "qa.number" in {f["code"] for f in report["findings"]}
    none = run("check", tmp_path / "out.txt", "--max-qa", "0")
    assert none.code == 2 and "no source to check against" in none.err
    piped = run("check", "--source", sample("qa/manual.src.en"), "-r", sample("qa/manual.src.en"), stdin=b"x\n")
    assert piped.code == 2 and "QA checks read the hypothesis from a file" in piped.err


def test_a_bare_carriage_return_is_text_in_a_line_as_the_metrics_read_it(run, tmp_path):
    """A source line holding a bare "\\r" is one line, as sacreBLEU and the metrics read it: every
    later line still pairs with its own translation, and a finding is placed on the line an
    editor shows (the "\\r" starts one)."""
    (tmp_path / "pets.src.en").write_bytes(b"He has 12 dogs\rand 3 cats.\nThe house is red.\nShe drank 4 teas.\n")
    (tmp_path / "pets.hyp.de").write_bytes(b"Er hat 12 Hunde und 3 Katzen.\nDas Haus ist rot.\nSie trank\r5 Tees.\n")
    result = run("check", tmp_path / "pets.hyp.de", "--format", "json")
    report = _json(result)
    assert "no partner" not in result.err
    assert [(f["line"], f["column"], f["code"]) for f in report["findings"]] == [(4, 1, "qa.number")]


def test_a_glossary_and_its_broken_rows(run, tmp_path):
    report = _json(run("check", sample("qa/manual.hyp.de"), "--glossary", sample("qa/glossary.tsv"), "--format", "json"))
    glossary = [f for f in report["findings"] if f["code"] == "qa.glossary"]
    assert {f["line"] for f in glossary} == {9, 10}
    assert any("Papierfach" in f["message"] for f in glossary)
    broken = tmp_path / "terms.tsv"
    broken.write_text("paper tray\tPapierfach\nno tab here\nsupport\tSupport\n", encoding="utf-8")
    result = run("check", sample("qa/manual.hyp.de"), "--glossary", broken, "--format", "json")
    assert f"{broken}:2: error: " in result.err
    assert {f["line"] for f in _json(result)["findings"] if f["code"] == "qa.glossary"} == {9, 10}
    missing = run("check", sample("qa/manual.hyp.de"), "--glossary", tmp_path / "nope.tsv")
    assert missing.code == 2 and "nope.tsv" in missing.err


def test_records_that_cannot_be_read_are_named_and_the_rest_checked(run, tmp_path):
    """Without a reference no scoring reads the files to name their broken records: the QA does,
    the hypothesis's and the source's alike, and exits 2 as check does when it scores."""
    hyp = tmp_path / "app.jsonl"
    hyp.write_text('{"id": "a", "src": "Saved 25 items.", "mt": "52 Elemente gespeichert."}\n{"id": "b", broken\n', encoding="utf-8")
    result = run("check", hyp, "--hyp-field", "mt", "--format", "json")
    assert result.code == 2 and f"{hyp}:2: error: invalid JSON" in result.err
    assert [f["code"] for f in json.loads(result.out)["findings"]] == ["qa.number"]
    source = tmp_path / "app.src.jsonl"
    source.write_text('{"id": "a", "source": "Saved 25 items."}\nnot json\n', encoding="utf-8")
    hyp.write_text('{"id": "a", "mt": "52 Elemente gespeichert."}\n', encoding="utf-8")
    result = run("check", hyp, "--hyp-field", "mt", "--source", source)
    assert result.code == 2 and f"{source}:2: error: invalid JSON" in result.err and "qa.number" in result.out
    assert result.err.count("invalid JSON") == 1


def test_the_sources_field_or_column_named(run, tmp_path):
    hyp = tmp_path / "app.jsonl"
    hyp.write_text('{"id": "a", "en": "Saved 25 items.", "de": "52 Elemente gespeichert."}\n', encoding="utf-8")
    result = run("check", hyp, "--hyp-field", "de", "--source-field", "en", "--format", "json")
    assert result.code == 0 and [f["code"] for f in json.loads(result.out)["findings"]] == ["qa.number"]
    source = tmp_path / "app.src.tsv"
    source.write_text("id\tenglish\na\tSaved 25 items.\n", encoding="utf-8")
    refused = run("check", hyp, "--hyp-field", "de", "--source", source)
    assert refused.code == 2 and "none of source, src, input, " in refused.err  # the names a source's column goes by
    result = run("check", hyp, "--hyp-field", "de", "--source", source, "--source-field", "english")
    assert result.code == 0 and "qa.number" in result.out
    source.write_text("id\ttext\na\tSaved 25 items.\n", encoding="utf-8")  # a file of sources alone may call it text
    assert "qa.number" in run("check", hyp, "--hyp-field", "de", "--source", source).out


def test_a_glossary_empty_in_csv_or_in_another_encoding(run, tmp_path):
    empty = tmp_path / "terms.tsv"
    empty.write_text("source\ttarget\n# to do\n", encoding="utf-8")
    result = run("check", sample("qa/manual.hyp.de"), "--glossary", empty)
    assert result.code == 0 and f"{empty}: warning: no terms" in result.err  # not silently no glossary checks
    spreadsheet = tmp_path / "terms.csv"
    spreadsheet.write_text('source,target,note\n"paper tray",Papierfach,"not ""Papierkassette"""\n', encoding="utf-8")
    report = _json(run("check", sample("qa/manual.hyp.de"), "--glossary", spreadsheet, "--format", "json"))
    assert [f["line"] for f in report["findings"] if f["code"] == "qa.glossary"] == [9]
    latin = tmp_path / "latin.tsv"
    latin.write_bytes("paper tray\tPapierfach\tnicht für Kassetten\n".encode("latin-1"))
    report = _json(run("check", sample("qa/manual.hyp.de"), "--glossary", latin, "-e", "latin-1", "--format", "json"))
    assert [f["line"] for f in report["findings"] if f["code"] == "qa.glossary"] == [9]


def test_a_source_of_other_length_is_one_error_and_exit_status_2(run, tmp_path):
    (tmp_path / "n.src.en").write_text("".join(f"It weighs {k} kg.\n" for k in range(100)), encoding="utf-8")
    (tmp_path / "n.hyp.de").write_text("".join(f"Es wiegt {k} kg.\n" for k in range(95)), encoding="utf-8")
    result = run("check", tmp_path / "n.hyp.de")
    errors = [line for line in result.err.splitlines() if "error" in line]
    assert result.code == 2 and errors == [f"{tmp_path / 'n.src.en'}:96: error: 5 records from here on have no partner at their position; not checked"]
    assert "0 findings" in result.out  # the lines that pair are checked


def test_xliff_units_are_checked_against_their_own_sources(run):
    path = SAMPLES / "qa" / "app.de.xlf"  # no reference beside it
    report = _json(run("check", path, "--format", "json"))
    [number] = [f for f in report["findings"] if f["code"] == "qa.number"]
    line = path.read_text(encoding="utf-8").split("\n")[4]
    assert (number["line"], number["column"]) == (5, line.index("52 Elemente") + 1)
    assert number["related"]["path"] == str(path) and number["related"]["line"] == 5


def test_the_api_checks_lists_of_strings():
    report = scorelens.qa(["Der Drucker wiegt 15,5 kg."], ["The printer weighs 12.5 kg."], language="en-de")
    [finding] = report.findings
    assert (finding.code, finding.text) == ("qa.number", "15,5")
    assert report.to_dict()["counts"] == {"qa.number": 1}
    with pytest.raises(ValueError, match="hypotheses and"):
        scorelens.qa(["a", "b"], ["a"])
    with pytest.raises(scorelens.OptionError, match="unknown check"):
        scorelens.qa(["a"], ["a"], checks=["nope"])


@pytest.mark.parametrize(
    "language, pair",
    [("de-CH", (None, "de-CH")), ("en-de-CH", ("en", "de-CH")), ("en-US-de-CH", ("en-US", "de-CH")), ("en_US-de_CH", ("en_US", "de_CH")), ("zh-Hant-en", ("zh-Hant", "en")), ("en-de", ("en", "de"))],
)
def test_a_language_with_its_region_is_one_language_of_the_pair(language, pair):
    """Swiss German writes 1’000: "de-CH" is the target, not German to the region "CH"."""
    from scorelens.api.qa_checks import qa_config

    config = qa_config(language)
    assert (config.source_language, config.target_language) == pair
    assert scorelens.qa(["Es kostet 1’000 Franken."], ["It costs 1,000 francs."], language=language).findings == []


@needs_kyoto
def test_the_kyoto_test_set_quiet_where_it_is_right_and_planted_faults_found(run, tmp_path):
    """1,160 real English→Japanese segments: numbers written as the source writes them are not
    findings; a number changed and a URL dropped in a copy are, on their lines."""
    hyp = (KYOTO / "kyoto-test.hyp.ja").read_text(encoding="utf-8").split("\n")
    src = (KYOTO / "kyoto-test.src.en").read_text(encoding="utf-8").split("\n")
    real = _json(run("check", KYOTO / "kyoto-test.hyp.ja", "--no-qa", "-m", "bleu", "--format", "json"))
    assert real["qa"] is None
    baseline = _json(run("check", KYOTO / "kyoto-test.hyp.ja", "--source", KYOTO / "kyoto-test.src.en", "--qa-checks", "number", "--format", "json"))
    flagged = {f["line"] for f in baseline["findings"] if f["code"] == "qa.number"}
    # a line whose source and hypothesis have the same digits, and which is not flagged
    k = next(i for i, (s, h) in enumerate(zip(src, hyp)) if any(c.isdigit() for c in s) and i + 1 not in flagged and sorted(filter(str.isdigit, s)) == sorted(filter(str.isdigit, h)))
    digit = next(c for c in hyp[k] if c.isdigit())
    planted = list(hyp)
    planted[k] = hyp[k].replace(digit, "9" if digit != "9" else "8", 1)
    (tmp_path / "kyoto.hyp.ja").write_text("\n".join(planted), encoding="utf-8")
    shutil.copy(KYOTO / "kyoto-test.src.en", tmp_path / "kyoto.src.en")
    found = _json(run("check", tmp_path / "kyoto.hyp.ja", "--qa-checks", "number", "--format", "json"))
    assert found["qa"]["language"] == "en-ja"
    now = {f["line"] for f in found["findings"] if f["code"] == "qa.number"}
    assert now == flagged | {k + 1}
    assert len(flagged) < 0.1 * len(hyp), f"{len(flagged)} of {len(hyp)} lines flagged for numbers"


XLIFF_DECLARED = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file source-language="en-US" target-language="de-DE" datatype="plaintext" original="a"><body>
<trans-unit id="1"><source>It costs 1,000 euros.</source><target>Es kostet 1,000 Euro.</target></trans-unit>
</body></file>
</xliff>
"""


def test_the_languages_an_xliff_declares_are_the_checks_and_an_explicit_l_wins(run, tmp_path):
    """German "1,000" is one, not the source's thousand: only a check that knows the target is
    German can say so, and the file says it is."""
    path = tmp_path / "doc.xlf"
    path.write_text(XLIFF_DECLARED, encoding="utf-8")
    report = _json(run("check", path, "--format", "json"))
    assert report["qa"]["language"] == "en-US-de-DE"
    assert [(f["code"], f["text"]) for f in report["findings"]] == [("qa.number", "1,000")]
    overridden = _json(run("check", path, "-l", "en-de-CH", "--format", "json"))  # Swiss German reads it as a thousand
    assert overridden["qa"]["language"] == "en-de-CH" and overridden["findings"] == []
    # -l naming the target alone takes the source's language from the file
    assert _json(run("check", path, "-l", "de-CH", "--format", "json"))["qa"]["language"] == "en-US-de-CH"


def test_a_po_files_language_header_is_the_target_language(run, tmp_path):
    path = tmp_path / "app.po"
    entry = 'msgid "The file was saved."\nmsgstr "ファイルを保存しました."\n'
    path.write_text(f'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: ja\\n"\n\n{entry}', encoding="utf-8")
    report = _json(run("check", path, "--format", "json"))
    assert report["qa"]["language"] == "ja"
    [finding] = report["findings"]
    assert finding["code"] == "qa.end-punctuation" and finding["fix"]["text"] == "。"


def test_a_tmx_declares_its_languages_for_the_checks_and_the_glossary(run, tmp_path):
    """The glossary's terms are found by their stems in the languages the memory declares:
    "Dateien" has the German term "Datei"."""
    path = tmp_path / "memory.tmx"
    path.write_text(
        '<tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en" creationtool="t" creationtoolversion="1" o-tmf="t"/><body>'
        '<tu tuid="1"><tuv xml:lang="en"><seg>Open the files.</seg></tuv><tuv xml:lang="de"><seg>Öffnen Sie die Dateien.</seg></tuv></tu>'
        "</body></tmx>",
        encoding="utf-8",
    )
    glossary = tmp_path / "terms.tsv"
    glossary.write_text("file\tDatei\n", encoding="utf-8")
    report = _json(run("check", path, "--glossary", glossary, "--format", "json"))
    assert report["qa"]["language"] == "en-de" and report["findings"] == []
    assert [f["code"] for f in _json(run("check", path, "--glossary", glossary, "-l", "en-fr", "--format", "json"))["findings"]] == ["qa.glossary"]


XLIFF_CODES = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file source-language="en" target-language="de" datatype="plaintext" original="a"><body>
<trans-unit id="1"><source>Click <g id="1">Save</g>.<x id="2"/></source><target>Klicken Sie auf <g id="1">Speichern</g>.</target></trans-unit>
<trans-unit id="2"><source>Press <ph id="1">{0}</ph> now.</source><target>Drücken Sie <ph id="1">{0}</ph><ph id="7">x</ph> jetzt.</target></trans-unit>
<trans-unit id="3"><source>Open <bpt id="1">&lt;b&gt;</bpt>it<ept id="1">&lt;/b&gt;</ept>.</source><target>Öffnen <bpt id="1">&lt;b&gt;</bpt>es<ept id="1">&lt;/b&gt;</ept>.</target></trans-unit>
</body></file>
</xliff>
"""


def test_an_xliff_targets_inline_codes_missing_or_added_are_errors_where_they_belong(run, tmp_path):
    path = tmp_path / "doc.xlf"
    path.write_text(XLIFF_CODES, encoding="utf-8")
    report = _json(run("check", path, "--format", "json"))
    found = [(f["line"], f["column"], f["severity"], f["message"]) for f in report["findings"]]
    lines = XLIFF_CODES.split("\n")
    assert found == [
        # after the </g> the target has: where the source's <x/> came after it
        (4, lines[3].index(".</target>") + 1, "error", "the source's inline code <x> (id 2) is missing"),
        # a point just after the extra code (markup is no character a span could cover)
        (5, lines[4].index(" jetzt") + 1, "error", "inline code <ph> (id 7) is not in the source"),
    ]
    assert report["findings"][0]["related"]["line"] == 4
    assert _json(run("check", path, "--qa-skip", "inline-code", "--format", "json"))["findings"] == []


def test_a_tmx_targets_missing_inline_codes_are_errors(run, tmp_path):
    path = tmp_path / "memory.hyp.tmx"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header srclang="en"/><body>\n'
        '<tu tuid="1"><tuv xml:lang="en"><seg>Click <bpt i="1">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> now</seg></tuv>'
        '<tuv xml:lang="de"><seg>Jetzt Speichern klicken</seg></tuv></tu>\n</body></tmx>\n',
        encoding="utf-8",
    )
    found = [(f["line"], f["message"]) for f in _json(run("check", path, "--format", "json"))["findings"]]
    assert found == [(3, "the source's inline code <bpt> (id 1) is missing"), (3, "the source's inline code <ept> (id 1) is missing")]


def test_a_qa_finding_and_its_fix_end_before_the_markup_after_them(run, tmp_path):
    """As the editor places them: "Haus" ends before "</g>", and a fix whose range would take
    the "</g>" between two words along (and leave the XML broken) is not offered."""
    unit = '<trans-unit id="{}"><source>the house is big</source><target>das {} ist groß</target></trans-unit>\n'
    path = tmp_path / "doc.xlf"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
        '<file source-language="en" target-language="de" datatype="plaintext" original="x"><body>\n'
        + unit.format(1, '<g id="1">Haus Haus</g>') + unit.format(2, '<g id="1">Haus</g> Haus')
        + "</body></file></xliff>\n",
        encoding="utf-8",
    )
    report = _json(run("check", path, "--qa-skip", "inline-code", "--format", "json"))
    lines = path.read_text(encoding="utf-8").split("\n")
    [inside, across] = [f for f in report["findings"] if f["code"] == "qa.doubled-word"]
    start = lines[2].index("Haus Haus") + 1
    assert (inside["line"], inside["column"], inside["end_column"]) == (3, start + 5, start + 9)
    assert inside["fix"]["start"] == {"line": 3, "column": start} and inside["fix"]["end"] == {"line": 3, "column": start + 9}
    assert "fix" not in across
