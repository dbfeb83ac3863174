"""Formatted documents end to end: JSONL records holding their references, and JSONL files
paired by id, scored with findings on the characters inside the JSON strings (through escapes
and surrogate pairs), quick fixes written escaped, edits re-scoring the records they touch, and
unreadable or unpaired records shown on their lines."""

from __future__ import annotations

import asyncio
import json

import sacrebleu
from lsp_support import _plain, diagnostics, open_doc, scores
from lsprotocol import types
from test_server import change, units

NOTE = "😀 before"  # a non-BMP character before the hypothesis on the line: UTF-16 and UTF-8 columns differ
RECORDS = [
    {"id": "a", "note": NOTE, "prediction": "😀 le café est \"chaud\"", "reference": "😀 le thé est \"chaud\""},
    {"id": "b", "note": "", "prediction": "the cat sat on the mat", "reference": "the cat sat on the mat"},
    {"id": "c", "note": "", "prediction": "a dog barked", "reference": "the dog barked"},
]


def _line(record: dict) -> str:
    # escapes as a writer with ensure_ascii makes them: é as \u00e9, 😀 as a surrogate pair
    return json.dumps(record, ensure_ascii=True)


def _column(client, line: str, index: int) -> int:
    return units(client, line[:index])


def applied(client, text: str, edits: list[types.TextEdit]) -> str:
    """Text edits applied to a document as the client applies them: their positions in the
    profile's units, each a range of the text before any of them."""
    lines = text.split("\n")

    def offset(p: types.Position) -> int:
        line, k, seen = lines[p.line], 0, 0
        while seen < p.character:
            seen += units(client, line[k])
            k += 1
        return sum(len(x) + 1 for x in lines[: p.line]) + k

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


def _write(client, name: str, lines: list[str]) -> tuple[str, str]:
    path = client.workspace / name
    text = "\n".join(lines) + "\n"
    path.write_text(text, encoding="utf-8")
    return open_doc(client, path, "jsonl"), text


def _on_line(diags, line: int, code: str) -> list[types.Diagnostic]:
    return [d for d in diags if d.range.start.line == line and d.code == code]


async def test_a_finding_lands_on_the_escaped_word_and_its_fix_writes_valid_json(client):
    lines = [_line(r) for r in RECORDS]
    uri, text = _write(client, "eval.jsonl", lines)
    got = await scores(client, uri)
    hyps, refs = [r["prediction"] for r in RECORDS], [r["reference"] for r in RECORDS]
    assert got["scores"]["bleu"]["score"] == sacrebleu.BLEU().corpus_score(hyps, [refs]).score
    assert got["scores"]["segments"] == 3

    diags = await diagnostics(client, uri)
    [sub] = [d for d in _on_line(diags, 0, "wer.substitution") if "café" in d.message]
    start = lines[0].index("caf\\u00e9")
    assert sub.range == types.Range(
        types.Position(0, _column(client, lines[0], start)), types.Position(0, _column(client, lines[0], start + len("caf\\u00e9")))
    )

    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), sub.range.start))
    assert "café" in hover.contents.value and "thé" in hover.contents.value

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(types.TextDocumentIdentifier(uri), sub.range, types.CodeActionContext(diagnostics=[sub]))
    )
    [fix] = [a for a in actions if a.title == "Replace with “thé”"]
    [edit] = fix.edit.changes[uri]
    fixed = applied(client, text, [edit])
    records = [json.loads(line) for line in fixed.splitlines()]
    assert records[0] == {**RECORDS[0], "prediction": "😀 le thé est \"chaud\""}
    assert records[1:] == RECORDS[1:]

    change(client, uri, 2, (edit.range.start.line, edit.range.start.character), (edit.range.end.line, edit.range.end.character), edit.new_text)
    after = await scores(client, uri, version=2)
    hyps[0] = records[0]["prediction"]
    assert after["scores"]["bleu"]["score"] == sacrebleu.BLEU().corpus_score(hyps, [refs]).score
    assert after["change"]["line"] == 0


async def test_an_edit_inside_a_field_rescores_that_record_only(client):
    lines = [_line(r) for r in RECORDS]
    uri, _ = _write(client, "edit.jsonl", lines)
    await scores(client, uri)
    before = await diagnostics(client, uri)
    assert _on_line(before, 2, "wer.substitution"), "a → the"
    # "a dog" → "the dog" in record c's prediction
    at = lines[2].index('"a dog')
    change(client, uri, 2, (2, at + 1), (2, at + 2), "the")
    after = await scores(client, uri, version=2)
    hyps = [r["prediction"] for r in RECORDS[:2]] + ["the dog barked"]
    refs = [r["reference"] for r in RECORDS]
    assert after["scores"]["bleu"]["score"] == sacrebleu.BLEU().corpus_score(hyps, [refs]).score
    assert after["change"]["line"] == 2
    diags = await diagnostics(client, uri)
    assert not [d for d in diags if d.range.start.line == 2]
    # the other records' findings are as they were
    key = lambda d: (d.range.start.line, d.range.start.character, d.range.end.character, d.code, d.message)
    assert sorted(map(key, diags)) == sorted(key(d) for d in before if d.range.start.line != 2)


async def test_a_broken_line_is_a_diagnostic_and_the_rest_is_scored(client):
    lines = [_line(RECORDS[0]), '{"id": "x", "prediction": "oops', _line(RECORDS[1]), json.dumps({"id": "y", "reference": "only"}), _line(RECORDS[2])]
    uri, _ = _write(client, "broken.jsonl", lines)
    got = await scores(client, uri)
    diags = await diagnostics(client, uri)
    assert _on_line(diags, 1, "format.unreadable-record")  # invalid JSON
    assert _on_line(diags, 3, "format.unreadable-record")  # no prediction field
    assert got["scores"]["segments"] == 3
    # fixing the line brings its record in
    change(client, uri, 2, (1, len(lines[1])), (1, len(lines[1])), ' now", "reference": "oops now"}')
    fixed = await scores(client, uri, version=2)
    assert fixed["scores"]["segments"] == 4
    assert not _on_line(await diagnostics(client, uri), 1, "format.unreadable-record")


async def test_an_id_given_again_in_a_file_of_its_own_references_is_a_diagnostic_on_its_line(client):
    again = {**RECORDS[2], "id": "a"}
    uri, _ = _write(client, "again.jsonl", [_line(r) for r in (*RECORDS, again)])
    got = await scores(client, uri)
    assert got["scores"]["segments"] == 4  # scored, as the command line scores it
    diags = await _diagnostics_until(client, uri, lambda ds: _on_line(ds, 3, "pairing.duplicate-id"))
    assert [d.message for d in diags if d.code == "pairing.duplicate-id"] == ["id 'a' is given again"]


async def test_two_files_pair_by_id(client):
    folder = client.workspace / "pairs"
    folder.mkdir()
    hyp_lines = [json.dumps({"id": "2", "prediction": "the dog barked"}), json.dumps({"id": "1", "prediction": "a cat sat"}), json.dumps({"id": "9", "prediction": "alone"})]
    ref_lines = [json.dumps({"id": "1", "reference": "the cat sat"}), json.dumps({"id": "2", "reference": "the dog barked"})]
    (folder / "news.ref.jsonl").write_text("\n".join(ref_lines) + "\n", encoding="utf-8")
    (folder / "news.hyp.jsonl").write_text("\n".join(hyp_lines) + "\n", encoding="utf-8")
    uri = open_doc(client, folder / "news.hyp.jsonl", "jsonl")
    got = await scores(client, uri)
    assert got["scores"]["bleu"]["score"] == sacrebleu.BLEU().corpus_score(["the dog barked", "a cat sat"], [["the dog barked", "the cat sat"]]).score
    diags = await diagnostics(client, uri)
    assert _on_line(diags, 2, "pairing.missing-record")
    [sub] = _on_line(diags, 1, "wer.substitution")
    at = hyp_lines[1].index("a cat")
    assert (sub.range.start.character, sub.range.end.character) == (at, at + 1)
    report = _plain(await client.protocol.send_request_async("scorelens/report", {"uri": uri}))
    assert [row["id"] for row in report["segments"]] == ["2", "1"]
    assert [row["line"] for row in report["segments"]] == [0, 1]


async def _diagnostics_until(client, uri: str, until, timeout: float = 20) -> list[types.Diagnostic]:
    """The document's diagnostics once ``until`` accepts them (pushed ones may follow the scores)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not until(diags := await diagnostics(client, uri)):
        assert loop.time() < deadline, [(d.code, d.range.start, d.message) for d in diags]
        await asyncio.sleep(0.05)
    return diags


async def test_xml_broken_while_typing_is_one_diagnostic_where_the_parser_stopped_and_the_scores_say_its_version(client):
    path = client.workspace / "formats" / "news.hyp.xlf"
    uri = open_doc(client, path, "xml")
    await scores(client, uri, until=lambda p: p["scores"] is not None)
    line = path.read_text(encoding="utf-8").split("\n")[6]
    at = line.index("public")
    change(client, uri, 2, (6, units(client, line[:at])), (6, units(client, line[: at + 3])), "😀 pub<")  # half typed
    typed = line[:at] + "😀 pub<" + line[at + 3 :]
    unread = await scores(client, uri, until=lambda p: p["scores"] is None)
    assert unread["version"] == 2
    # expat stops at the `<` of `</target>`: `<lic transport.` reads as a tag with an attribute
    where = types.Position(6, units(client, typed[: typed.index("</target>")]))
    diags = await _diagnostics_until(client, uri, lambda ds: [d.code for d in ds] == ["format.unreadable"])
    assert diags[0].range == types.Range(where, where)
    assert diags[0].message.endswith(f"line 7, column {typed.index('</target>') + 1}")


async def test_a_tmx_of_several_target_languages_is_one_diagnostic_naming_them_and_the_setting(client):
    folder = client.workspace / "tmx"
    folder.mkdir()
    unit = '<tu tuid="1"><tuv xml:lang="en"><seg>a dog</seg></tuv><tuv xml:lang="de"><seg>ein Hund</seg></tuv><tuv xml:lang="fr"><seg>un chien</seg></tuv></tu>'
    for name in ("m.hyp.tmx", "m.ref.tmx"):
        (folder / name).write_text(f'<tmx version="1.4">\n<header srclang="en"/>\n<body>\n{unit}\n</body>\n</tmx>\n', encoding="utf-8")
    uri = open_doc(client, folder / "m.hyp.tmx", "xml")
    diags = await _diagnostics_until(client, uri, lambda ds: [d.code for d in ds] == ["format.unreadable"])
    assert diags[0].range.start.line == 0
    assert diags[0].message.endswith(
        "m.hyp.tmx: line 4: which target language? units hold several besides their source: de, fr; "
        "name one with --hyp-field LANG (hypothesis_field in a [[pair]] of scorelens.toml)"
    )


async def test_a_po_id_in_a_pairing_diagnostic_is_written_as_score_sl_writes_it(client):
    entry = 'msgctxt "{}"\nmsgid "{}"\nmsgstr "the cat"\n\n'
    folder = client.workspace / "po"
    folder.mkdir()
    (folder / "p.hyp.po").write_text(entry.format("menu", "Don't save") + entry.format("menu", "Quit"), encoding="utf-8")
    (folder / "p.ref.po").write_text(entry.format("menu", "Quit"), encoding="utf-8")
    uri = open_doc(client, folder / "p.hyp.po", "po")
    await scores(client, uri, until=lambda p: p["scores"] is not None)
    diags = await _diagnostics_until(client, uri, lambda ds: _on_line(ds, 0, "pairing.missing-record"))
    assert [d.message for d in _on_line(diags, 0, "pairing.missing-record")] == ["id 'menu\\x04Don't save' has no reference"]


async def test_a_csv_row_a_stray_quote_ran_over_lines_names_the_lines_it_took_in(client):
    path = client.workspace / "q.csv"
    path.write_text('id,hypothesis,reference\n1,"the cat,the cat\n2,a dog"\n3,fine,fine\n', encoding="utf-8")
    uri = open_doc(client, path, "csv")
    await scores(client, uri, until=lambda p: p["scores"] is not None)
    diags = await _diagnostics_until(client, uri, lambda ds: _on_line(ds, 1, "format.unreadable-record"))
    assert [d.message for d in _on_line(diags, 1, "format.unreadable-record")] == [
        "2 columns, no column 'reference' (column 3); a quoted field runs over lines 2-3, so csv read line 3 as part of this record"
    ]


ZH_XLIFF = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file source-language="en" target-language="zh-CN" datatype="plaintext" original="d"><body>
<trans-unit id="1"><source>We went to school today.</source><target>{target}</target></trans-unit>
</body></file>
</xliff>
"""


async def test_the_declared_target_language_picks_bleus_tokenizer_and_an_edit_of_it_too(client):
    """An XLIFF pair whose target language is zh-CN is scored with sacreBLEU's zh tokenizer, as
    -l zh (and the command line) score it; edited to en, with 13a."""
    hyp_text, ref_text = "我们今天去了学校。", "我们昨天去了学校。"
    (client.workspace / "d.ref.xlf").write_text(ZH_XLIFF.format(target=ref_text), encoding="utf-8")
    path = client.workspace / "d.hyp.xlf"
    path.write_text(ZH_XLIFF.format(target=hyp_text), encoding="utf-8")
    uri = open_doc(client, path, "xml")
    bleu = (await scores(client, uri, until=lambda p: p["scores"] is not None))["scores"]["bleu"]
    assert "|tok:zh|" in bleu["signature"]
    assert bleu["score"] == sacrebleu.BLEU(trg_lang="zh").corpus_score([hyp_text], [[ref_text]]).score
    line = path.read_text(encoding="utf-8").split("\n")[2]
    at = line.index('target-language="zh-CN"') + len('target-language="')
    change(client, uri, 2, (2, at), (2, at + len("zh-CN")), "en")
    bleu = (await scores(client, uri, version=2, until=lambda p: p["scores"] is not None))["scores"]["bleu"]
    assert "|tok:13a|" in bleu["signature"]
    assert bleu["score"] == sacrebleu.BLEU().corpus_score([hyp_text], [[ref_text]]).score
