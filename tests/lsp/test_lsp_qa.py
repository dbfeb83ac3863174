"""The source-aware checks end to end (VS Code's UTF-16 and Neovim's UTF-8 profiles): a
translation with its source and no reference (samples/qa: manual.hyp.de, manual.src.en) gets
``qa.*`` diagnostics where ``scorelens check`` puts them; typing in the translation or in its
source re-checks; a quick fix clears its finding; settings turn checks off; an XLIFF file is
checked against the sources its units hold."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

from lsp_support import diagnostics, open_doc, scores
from lsprotocol import types
from test_server import change, units


def _qa(diags) -> list[types.Diagnostic]:
    return [d for d in diags if str(d.code).startswith("qa.")]


def _check(path, *args) -> list[dict]:
    """``scorelens check``'s QA findings for the file (its JSON)."""
    out = subprocess.run(
        [sys.executable, "-m", "scorelens", "check", str(path), "--format", "json", *args], capture_output=True, text=True, cwd=path.parent
    )
    assert out.returncode in (0, 1), out.stderr
    return [f for f in json.loads(out.stdout)["findings"] if f["code"].startswith("qa.")]


def _place(client, lines: list[str], d: types.Diagnostic) -> tuple[int, int, int, str]:
    """(line, start column, end column) in code points, and the code."""

    def column(line: int, units_: int) -> int:
        text, k, seen = lines[line], 0, 0
        while seen < units_:
            seen += units(client, text[k])
            k += 1
        return k

    r = d.range
    return r.start.line, column(r.start.line, r.start.character), column(r.end.line, r.end.character), d.code


async def _settled(client, uri, version=None) -> list[types.Diagnostic]:
    await scores(client, uri, version=version)
    return await diagnostics(client, uri)


async def _until(client, uri, done, timeout: float = 20) -> list[types.Diagnostic]:
    """The document's QA diagnostics once ``done(them)``: an edit of another document (the
    source) names no version of this one to wait for."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = _qa(await diagnostics(client, uri))
        if done(found) or loop.time() > deadline:
            return found
        await asyncio.sleep(0.05)


async def test_a_translation_checked_against_its_source_alone_as_check_finds(client):
    hyp = client.workspace / "qa" / "manual.hyp.de"
    uri = open_doc(client, hyp)
    announced = await scores(client, uri)
    found = _qa(await diagnostics(client, uri))
    # the status bar's counts: check's
    report = json.loads(subprocess.run([sys.executable, "-m", "scorelens", "check", str(hyp), "--format", "json"], capture_output=True, text=True).stdout)
    assert announced["references"] == [] and announced["scores"] == {"segments": 10}
    assert announced["qa"] == {"source": (client.workspace / "qa" / "manual.src.en").as_uri(), "findings": len(report["findings"]), "errors": report["qa"]["errors"]}
    lines = hyp.read_text(encoding="utf-8").split("\n")
    expected = {(f["line"] - 1, f["column"] - 1, f["end_column"] - 1, f["code"]) for f in _check(hyp)}
    assert {_place(client, lines, d) for d in found} == expected
    codes = {d.code for d in found}
    assert {"qa.number", "qa.tag", "qa.url", "qa.placeholder", "qa.doubled-word", "qa.untranslated"} <= codes, codes
    # "1.000" is how German writes the source's "1,000": not a finding
    assert not [d for d in found if d.range.start.line == 1 and d.code == "qa.number"]
    [number] = [d for d in found if d.code == "qa.number"]
    assert number.range.start.line == 4
    related = number.related_information[0].location
    assert related.uri == (client.workspace / "qa" / "manual.src.en").as_uri() and related.range.start.line == 4


async def test_typing_in_the_translation_or_its_source_checks_again(client):
    hyp = client.workspace / "qa" / "manual.hyp.de"
    src = client.workspace / "qa" / "manual.src.en"
    uri = open_doc(client, hyp)
    found = _qa(await _settled(client, uri))
    assert [d for d in found if d.code == "qa.number" and d.range.start.line == 4]
    line = hyp.read_text(encoding="utf-8").split("\n")[4]
    at = line.index("15,5")
    change(client, uri, 2, (4, units(client, line[:at])), (4, units(client, line[: at + 2])), "12")
    found = _qa(await _settled(client, uri, version=2))
    assert not [d for d in found if d.code == "qa.number"]
    # the source says 13.5 now: the translation's 12,5 is wrong again
    src_uri = open_doc(client, src)
    source_line = src.read_text(encoding="utf-8").split("\n")[4]
    at = source_line.index("12.5")
    change(client, src_uri, 2, (4, at), (4, at + 2), "13")
    found = await _until(client, uri, lambda found: [d for d in found if d.code == "qa.number" and d.range.start.line == 4])
    assert [d for d in found if d.code == "qa.number" and d.range.start.line == 4]


async def test_a_quick_fix_clears_its_finding(client):
    hyp = client.workspace / "qa" / "manual.hyp.de"
    uri = open_doc(client, hyp)
    [number] = [d for d in _qa(await _settled(client, uri)) if d.code == "qa.number"]
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(types.TextDocumentIdentifier(uri), number.range, types.CodeActionContext(diagnostics=[number]))
    )
    [fix] = [a for a in actions if a.diagnostics and a.diagnostics[0].code == "qa.number"]
    [edit] = fix.edit.changes[uri]
    change(client, uri, 2, (edit.range.start.line, edit.range.start.character), (edit.range.end.line, edit.range.end.character), edit.new_text)
    found = _qa(await _settled(client, uri, version=2))
    assert not [d for d in found if d.code == "qa.number"]


async def test_settings_turn_a_check_off_and_set_its_severity(client):
    client.settings["qa"] = {"checks": {"number": "off", "untranslated": "error"}}
    hyp = client.workspace / "qa" / "manual.hyp.de"
    uri = open_doc(client, hyp)
    found = _qa(await _settled(client, uri))
    assert not [d for d in found if d.code == "qa.number"]
    [untranslated] = [d for d in found if d.code == "qa.untranslated"]
    assert untranslated.severity == types.DiagnosticSeverity.Error and untranslated.range.start.line == 7


async def test_an_xliff_file_is_checked_against_its_units_sources(client):
    path = client.workspace / "qa" / "app.de.xlf"  # no reference beside it
    uri = open_doc(client, path, "xml")
    found = _qa(await _settled(client, uri))
    [number] = [d for d in found if d.code == "qa.number"]
    line = path.read_text(encoding="utf-8").split("\n")[4]
    at = line.index("52 Elemente")
    assert (number.range.start.line, number.range.start.character) == (4, units(client, line[:at]))


XLIFF_DECLARED = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file source-language="en-US" target-language="de-DE" datatype="plaintext" original="a"><body>
<trans-unit id="1"><source>It costs 1,000 euros.</source><target>Es kostet 1,000 Euro.</target></trans-unit>
</body></file>
</xliff>
"""


async def test_the_languages_an_xliff_declares_are_the_checks(client):
    """German "1,000" is one, not the source's thousand: the file says its target is German."""
    path = client.workspace / "declared.xlf"
    path.write_text(XLIFF_DECLARED, encoding="utf-8")
    [number] = _qa(await _settled(client, open_doc(client, path, "xml")))
    assert number.code == "qa.number" and number.range.start.line == 3


async def test_an_edit_of_the_declared_target_language_checks_in_the_new_one(client):
    """A "?" right after the word is German, not French (" ?"): once the file says its target is
    French, the unit is checked as French, with no need to open it again."""
    path = client.workspace / "declared.xlf"
    path.write_text(XLIFF_DECLARED.replace('"de-DE"', '"de"').replace("It costs 1,000 euros.", "Is it ready?").replace("Es kostet 1,000 Euro.", "Est-ce prêt?"), encoding="utf-8")
    uri = open_doc(client, path, "xml")
    assert _qa(await _settled(client, uri)) == []
    lines = path.read_text(encoding="utf-8").split("\n")
    at = lines[2].index('target-language="de"') + len('target-language="')
    change(client, uri, 2, (2, at), (2, at + 2), "fr")
    [punctuation] = _qa(await _settled(client, uri, 2))
    assert punctuation.code == "qa.end-punctuation" and "French" in punctuation.message
    assert (punctuation.range.start.line, punctuation.range.start.character) == (3, units(client, lines[3][: lines[3].index("?</target>")]))


async def test_the_language_setting_wins_over_the_declared_ones(client):
    client.settings["qa"] = {"language": "en-de-CH"}  # Swiss German reads "1,000" as a thousand
    path = client.workspace / "declared.xlf"
    path.write_text(XLIFF_DECLARED, encoding="utf-8")
    assert _qa(await _settled(client, open_doc(client, path, "xml"))) == []


async def test_an_inline_code_missing_from_a_target_is_found_and_its_return_clears_it(client):
    """Putting the <x/> back leaves the target's text as it was: the unit is checked again all the same."""
    path = client.workspace / "codes.xlf"
    path.write_text(XLIFF_DECLARED.replace("euros.</source>", 'euros.<x id="1"/></source>').replace("1,000 Euro", "1.000 Euro"), encoding="utf-8")
    uri = open_doc(client, path, "xml")
    [missing] = _qa(await _settled(client, uri))
    assert missing.code == "qa.inline-code" and missing.severity == types.DiagnosticSeverity.Error and missing.range.start.line == 3
    line = path.read_text(encoding="utf-8").split("\n")[3]
    at = units(client, line[: line.index("</target>")])
    change(client, uri, 2, (3, at), (3, at), '<x id="1"/>')
    assert _qa(await _settled(client, uri, 2)) == []


async def test_a_jsonl_translation_pairs_with_its_jsonl_source_by_id(client):
    """A formatted source document is read by its format's reader and paired by id, as check
    pairs it; editing the source re-checks."""
    folder = client.workspace / "eval"
    folder.mkdir()
    hyp = folder / "news.hyp.jsonl"
    hyp.write_text('{"id": "a", "prediction": "Der Drucker wiegt 15,5 kg."}\n{"id": "b", "prediction": "Speichern Sie die Einstellungen."}\n', encoding="utf-8")
    src = folder / "news.src.jsonl"
    src.write_text('{"id": "b", "source": "Save your settings."}\n{"id": "a", "source": "The printer weighs 12.5 kg."}\n', encoding="utf-8")
    uri = open_doc(client, hyp, "jsonl")
    found = _qa(await _settled(client, uri))
    lines = hyp.read_text(encoding="utf-8").split("\n")
    expected = {(f["line"] - 1, f["column"] - 1, f["end_column"] - 1, f["code"]) for f in _check(hyp, "-l", "en-de")}
    assert {_place(client, lines, d) for d in found} == expected
    [number] = [d for d in found if d.code == "qa.number"]
    assert number.range.start.line == 0
    related = number.related_information[0].location
    source_line = src.read_text(encoding="utf-8").split("\n")[1]
    assert related.uri == src.as_uri() and (related.range.start.line, related.range.start.character) == (1, units(client, source_line[: source_line.index("12.5")]))
    # the source now says 15.5: no number finding
    src_uri = open_doc(client, src, "jsonl")
    at = source_line.index("12.5")
    change(client, src_uri, 2, (1, at), (1, at + 2), "15")
    found = await _until(client, uri, lambda found: not [d for d in found if d.code == "qa.number"])
    assert not [d for d in found if d.code == "qa.number"]


async def test_typing_in_a_records_source_field_or_its_translation_checks_that_record_again(client):
    """A JSONL record holding its source: an edit of the source field alone leaves the
    translation's text as it was, and still re-checks the record."""
    folder = client.workspace / "held"
    folder.mkdir()
    hyp = folder / "eval.jsonl"
    records = [
        ("a", "Save your settings.", "Speichern Sie die Einstellungen."),
        ("b", "The printer weighs 12.5 kg.", "Der Drucker wiegt 15,5 kg."),
        ("c", "Close the lid.", "Schließen Sie den Deckel."),
    ]
    hyp.write_text(
        "".join(json.dumps({"id": i, "source": s, "prediction": p, "reference": p}, ensure_ascii=False) + "\n" for i, s, p in records), encoding="utf-8"
    )
    uri = open_doc(client, hyp, "jsonl")
    numbers = lambda found: [d.range.start.line for d in found if d.code == "qa.number"]  # noqa: E731
    assert numbers(_qa(await _settled(client, uri))) == [1]
    line = hyp.read_text(encoding="utf-8").split("\n")[1]
    at = line.index("12.5")  # the source says 15.5 now
    change(client, uri, 2, (1, units(client, line[:at])), (1, units(client, line[: at + 2])), "15")
    assert numbers(_qa(await _settled(client, uri, version=2))) == []
    at = line.index("15,5")  # and the translation 17,5
    change(client, uri, 3, (1, units(client, line[:at])), (1, units(client, line[: at + 2])), "17")
    assert numbers(_qa(await _settled(client, uri, version=3))) == [1]
    at = line.index("12.5")  # the source 17.5
    change(client, uri, 4, (1, units(client, line[:at])), (1, units(client, line[: at + 2])), "17")
    assert numbers(_qa(await _settled(client, uri, version=4))) == []


async def test_a_glossary_term_missing_with_its_entry_in_the_hover_and_a_fix(client):
    client.settings["qa"] = {"glossary": "qa/glossary.tsv"}
    hyp = client.workspace / "qa" / "manual.hyp.de"
    uri = open_doc(client, hyp)
    found = _qa(await _settled(client, uri))
    [term] = [d for d in found if d.code == "qa.glossary" and d.range.start.line == 8]
    assert "Papierfach" in term.message
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), term.range.start))
    text = hover.contents.value.replace("\\", "")  # (Markdown escapes "4.2" as "4\\.2")
    assert "Open the paper tray" in text and "Papierfach" in text and "style guide 4.2" in text, text
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(types.TextDocumentIdentifier(uri), term.range, types.CodeActionContext(diagnostics=[term]))
    )
    [fix] = [a for a in actions if a.diagnostics and a.diagnostics[0].code == "qa.glossary"]
    [edit] = fix.edit.changes[uri]
    assert "Papierfach" in edit.new_text


async def test_a_source_named_by_a_pair_in_scorelens_toml(client):
    """``source`` in a [[pair]] (no references needed): the translation is checked against it."""
    (client.workspace / "out").mkdir()
    (client.workspace / "in").mkdir()
    (client.workspace / "out" / "manual.de").write_text((client.workspace / "qa" / "manual.hyp.de").read_text(encoding="utf-8"), encoding="utf-8")
    (client.workspace / "in" / "manual.en").write_text((client.workspace / "qa" / "manual.src.en").read_text(encoding="utf-8"), encoding="utf-8")
    (client.workspace / "scorelens.toml").write_text('[[pair]]\nhypothesis = "out/*.de"\nsource = "in/{stem}.en"\n', encoding="utf-8")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=(client.workspace / "scorelens.toml").as_uri(), type=types.FileChangeType.Created)])
    )
    uri = open_doc(client, client.workspace / "out" / "manual.de")
    announced = await scores(client, uri)
    assert announced["qa"]["source"] == (client.workspace / "in" / "manual.en").as_uri() and announced["qa"]["errors"] == 5
    found = _qa(await diagnostics(client, uri))
    assert [d.range.start.line for d in found if d.code == "qa.number"] == [4]


async def test_a_lone_carriage_return_pairs_lines_as_check_pairs_them(client):
    """A bare ``\\r`` ends a line in the editor but not a segment (sacreBLEU's lines): the
    translation's lines pair with the source's as ``check`` pairs them, findings and their
    places in the source land where check puts them, and trailing whitespace is seen by both."""
    folder = client.workspace / "cr"
    folder.mkdir()
    src = folder / "pets.src.en"
    src.write_bytes(b"He has 12 dogs\rand 3 cats.\nThe house is red.\nShe drank 4 teas.\n")
    hyp = folder / "pets.hyp.de"
    hyp.write_bytes("Er hat 12 Hunde und 3 Katzen.\nDas Haus ist rot. \nSie trank\r5 Tees.\n".encode())
    text = hyp.read_bytes().decode()
    uri = hyp.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "plaintext", 1, text)))
    found = _qa(await _settled(client, uri))
    report = subprocess.run([sys.executable, "-m", "scorelens", "check", str(hyp), "--format", "json"], capture_output=True, text=True, cwd=folder)
    assert "no partner" not in report.stderr, report.stderr
    expected = {(f["line"] - 1, f["column"] - 1, f["end_column"] - 1, f["code"]) for f in _check(hyp)}
    lines = text.replace("\r", "\n").split("\n")  # the editor's lines
    assert {_place(client, lines, d) for d in found} == expected
    assert {(line, start, code) for line, start, _, code in expected} == {(1, 17, "qa.whitespace"), (3, 0, "qa.number")}
    [number] = [d for d in found if d.code == "qa.number"]
    related = number.related_information[0].location
    assert related.uri == src.as_uri() and (related.range.start.line, related.range.start.character) == (3, len("She drank "))
    # typing trailing whitespace (which leaves sacreBLEU's line as it was) checks the line again
    first_line = lines[0]
    change(client, uri, 2, (0, units(client, first_line)), (0, units(client, first_line)), "  ")
    found = await _until(client, uri, lambda found: [d for d in found if d.code == "qa.whitespace" and d.range.start.line == 0])
    assert [d for d in found if d.code == "qa.whitespace" and d.range.start.line == 0]


async def test_a_long_line_is_checked_as_check_checks_it(client):
    """A translation whose lines end in a bare ``\\r`` is one long segment, as is its source: the
    pair is checked in the worker process (seconds of checks at a million characters, the event
    loop's otherwise), with check's findings."""
    folder = client.workspace / "long"
    folder.mkdir()
    source = "\r".join(f"Room {k} has 12 windows." for k in range(3_000))
    translation = "\r".join(f"Raum {k} hat {13 if k % 500 == 7 else 12} Fenster." for k in range(3_000))
    (folder / "notes.src.en").write_bytes(source.encode() + b"\r")
    hyp = folder / "notes.hyp.de"
    hyp.write_bytes(translation.encode() + b"\r")
    text = hyp.read_bytes().decode()
    uri = hyp.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "plaintext", 1, text)))
    found = _qa(await _settled(client, uri))
    expected = {(f["line"] - 1, f["column"] - 1, f["end_column"] - 1, f["code"]) for f in _check(hyp)}
    assert len(expected) >= 6 and {code for *_, code in expected} == {"qa.number"}  # a 13 for a 12, six times
    assert {_place(client, text.split("\r"), d) for d in found} == expected
