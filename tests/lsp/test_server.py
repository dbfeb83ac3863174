"""The real server over stdio, under the VS Code (UTF-16, push) and Neovim (UTF-8, pull) profiles."""

from __future__ import annotations

import ast
import asyncio

import pytest
import sacrebleu
from rouge_score import rouge_scorer
from lsp_support import diagnostics, open_doc, scores
from lsprotocol import types


def change(client, uri: str, version: int, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(*start), types.Position(*end)), text=text
                )
            ],
        )
    )


def write_pair(client, name: str, hyp: str, ref: str, folder: str = "t") -> tuple[str, str]:
    d = client.workspace / folder
    d.mkdir(exist_ok=True)
    (d / f"{name}.hyp.txt").write_text(hyp, encoding="utf-8")
    (d / f"{name}.ref.txt").write_text(ref, encoding="utf-8")
    return open_doc(client, d / f"{name}.hyp.txt"), (d / f"{name}.ref.txt").as_uri()


def units(client, text: str) -> int:
    """Length of ``text`` in the profile's position encoding."""
    if client.profile == "neovim":
        return len(text.encode("utf-8"))
    return len(text.encode("utf-16-le")) // 2


def by_code(diags, code):
    return [d for d in diags if d.code == code]


async def test_mt_sample_matches_sacrebleu_with_two_references(client):
    mt = client.workspace / "mt"
    uri = open_doc(client, mt / "news.hyp.en")
    s = await scores(client, uri)
    hyp = (mt / "news.hyp.en").read_text().splitlines()
    refs = [(mt / n).read_text().splitlines() for n in ("news.ref.en", "news.ref2.en")]
    expected = sacrebleu.BLEU().corpus_score(hyp, refs)
    assert s["scores"]["bleu"]["score"] == pytest.approx(expected.score, abs=1e-9)
    assert s["references"] == [(mt / "news.ref.en").as_uri(), (mt / "news.ref2.en").as_uri()]
    assert s["scores"]["bleu"]["signature"].startswith("nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:scorelens-")
    assert s["scores"]["segments"] == len(hyp)


async def test_substitution_position_after_emoji_and_cjk(client):
    # the substituted word comes after a non-BMP emoji and CJK text: columns differ per encoding
    prefix = "😀 東京 the "
    uri, ref_uri = write_pair(client, "pos", prefix + "cat sat\n", prefix + "dog sat\n")
    await scores(client, uri)
    subs = by_code(await diagnostics(client, uri), "wer.substitution")
    assert len(subs) == 1
    d = subs[0]
    assert d.range.start == types.Position(0, units(client, prefix))
    assert d.range.end == types.Position(0, units(client, prefix + "cat"))
    assert '"cat" where the reference has "dog"' in d.message
    assert d.related_information[0].location.uri == ref_uri
    assert d.data["fix"] == "replace" and d.data["text"] == "dog"


async def test_crlf_and_unicode_line_separator(client):
    # U+2028 is whitespace to the tokenizers but not a line break for LSP
    uri, _ = write_pair(client, "crlf", "a b\r\nx\u2028y z\r\n", "a b\r\nx\u2028y w\r\n")
    await scores(client, uri)
    subs = by_code(await diagnostics(client, uri), "wer.substitution")
    assert [(d.range.start.line, d.range.start.character) for d in subs] == [(1, units(client, "x\u2028y "))]


async def test_insertion_and_deletion_with_fixes_applied_and_rescored(client):
    uri, ref_uri = write_pair(client, "fix", "the uh cat sat on mat\n", "the cat sat on the mat\n")
    first = await scores(client, uri)
    diags = await diagnostics(client, uri)
    ins = by_code(diags, "wer.insertion")
    dele = by_code(diags, "wer.deletion")
    assert [d.data["fix"] for d in ins] == ["delete"]
    assert [d.data["text"] for d in dele] == [" the"]
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=ins[0].range,
            context=types.CodeActionContext(diagnostics=ins),
        )
    )
    titles = [a.title for a in actions]
    assert "Delete “uh”" in titles and "Take the whole reference line" in titles
    delete = next(a for a in actions if a.title == "Delete “uh”")
    (edit,) = delete.edit.changes[uri]
    assert (edit.range.start.character, edit.range.end.character, edit.new_text) == (4, 7, "")
    change(client, uri, 2, (0, 4), (0, 7), "")
    await scores(client, uri, version=2)
    # now insert the missing word through the command form of the fix
    diags = await diagnostics(client, uri)
    (missing,) = by_code(diags, "wer.deletion")
    assert missing.range.start == types.Position(0, len("the cat sat on"))
    r = missing.data["range"]["start"]
    change(client, uri, 3, (r["line"], r["character"]), (r["line"], r["character"]), missing.data["text"])
    final = await scores(client, uri, version=3)
    assert final["scores"]["wer"]["wer"] == 0
    assert final["scores"]["bleu"]["score"] == pytest.approx(100.0)
    assert final["scores"]["bleu"]["score"] > first["scores"]["bleu"]["score"]


async def test_pull_names_its_result_and_an_unchanged_one_is_not_sent_again(client):
    if client.profile != "neovim":
        pytest.skip("this profile gets pushed diagnostics")
    uri, _ = write_pair(client, "pull", "the uh cat sat\n", "the cat sat\n")
    await scores(client, uri)

    async def pull(previous=None):
        return await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri), previous_result_id=previous)
        )

    first = await pull()
    assert first.kind == "full" and first.result_id and by_code(first.items, "wer.insertion")
    again = await pull(first.result_id)
    assert again.kind == "unchanged" and again.result_id == first.result_id
    # a client that lost what it had (no id, or another server's) gets it all again
    assert (await pull()).kind == "full"
    assert (await pull("0-1")).kind == "full"
    change(client, uri, 2, (0, 4), (0, 7), "")
    await scores(client, uri, version=2)
    fixed = await pull(first.result_id)
    assert fixed.kind == "full" and fixed.result_id != first.result_id
    assert not by_code(fixed.items, "wer.insertion")
    assert (await pull(fixed.result_id)).kind == "unchanged"


async def test_apply_fix_command_round_trip(client):
    uri, _ = write_pair(client, "cmd", "a red car\n", "a blue car\n")
    await scores(client, uri)
    (sub,) = by_code(await diagnostics(client, uri), "wer.substitution")
    edits = []

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply(params: types.ApplyWorkspaceEditParams):
        edits.append(params.edit)
        return types.ApplyWorkspaceEditResult(applied=True)

    applied = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="scorelens.applyFix", arguments=[sub.data])
    )
    assert applied is True
    (e,) = edits[0].changes[uri]
    assert e.new_text == "blue"


async def test_hover_shows_sentence_scores_and_aligned_reference(client):
    uri, _ = write_pair(client, "hov", "the cat sat\n", "the dog sat down\n")
    await scores(client, uri)
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 5))
    )
    text = hover.contents.value
    expected = sacrebleu.sentence_bleu("the cat sat", ["the dog sat down"]).score
    assert f"sentence BLEU {expected:.2f}" in text
    assert "S 1 · D 1 · I 0 · H 2" in text
    assert "**dog**" in text and "~~down~~" in text
    assert "nrefs:1|case:mixed|eff:no|tok:13a" in text


async def test_inlay_hints_for_requested_range_only(client):
    uri, _ = write_pair(client, "hint", "a red car\nthe cat\nfine line\n", "a blue car\nthe cat sat\nfine line\n")
    await scores(client, uri)
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=types.Range(types.Position(1, 0), types.Position(1, 7)),
        )
    )
    labels = [h.label for h in hints]
    assert {h.position.line for h in hints} == {1}
    assert "+sat" in labels
    assert any(isinstance(label, str) and label.startswith("BLEU ") and "WER 33.3%" in label for label in labels)
    resolved = await client.inlay_hint_resolve_async(hints[0])
    assert "sentence BLEU" in resolved.tooltip.value

    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=types.Range(types.Position(0, 0), types.Position(0, 9)),
        )
    )
    assert "→blue" in [h.label for h in hints]


async def test_inlay_hints_of_a_range_ending_at_a_lines_start_leave_that_line_out(client):
    uri, _ = write_pair(client, "edge", "a red car\nthe cat\nfine line\n", "a blue car\nthe cat sat\nfine line\n")
    await scores(client, uri)

    async def hints(start: tuple[int, int], end: tuple[int, int]) -> list[types.InlayHint]:
        params = types.InlayHintParams(types.TextDocumentIdentifier(uri), types.Range(types.Position(*start), types.Position(*end)))
        return await client.text_document_inlay_hint_async(params)

    # LSP ranges end before their end: line 1's hints (at columns 7 and past) are not in (0,0)-(1,0)
    assert {h.position.line for h in await hints((0, 0), (1, 0))} == {0}
    # a hint at the range's very end is in it (the line-end scores of the last line VS Code shows)
    assert {(h.position.line, h.position.character) for h in await hints((1, 0), (1, 7))} >= {(1, 7)}
    # nor are hints before the range's start on its first line: only line 0's line-end scores
    assert [h.position for h in await hints((0, 9), (0, 9))] == [types.Position(0, 9)]


async def test_settings_change_without_restart(client):
    uri, _ = write_pair(client, "cfg", "a red car\nthe cat\n", "a blue car\nthe cat sat\n")
    s = await scores(client, uri)
    assert set(s["scores"]) == {"bleu", "rougeL", "wer", "segments"}
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0), types.Position(2, 0)))
    )
    assert any(h.label == "+sat" for h in hints)
    client.refreshes.clear()
    client.set_configuration(
        {"scorelens": {"debounceMs": 0, "metrics": ["bleu", "cer"], "inlayHints": {"missingWords": False}, "severity": {"bleu": "off"}}}
    )
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await scores(client, uri, until=lambda s: set(s["scores"]) == {"bleu", "cer", "segments"})
    # the client holds hints and lenses made with the old settings: it is asked to re-request them
    assert "inlayHint" in client.refreshes
    assert ("codeLens" in client.refreshes) == (client.profile == "visual-studio-code")
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0), types.Position(2, 0)))
    )
    assert not any(h.label == "+sat" for h in hints)
    assert by_code(await diagnostics(client, uri), "bleu.unmatched") == []


async def test_invalid_setting_falls_back_with_one_message(client):
    client.set_configuration(
        {"scorelens": {"debounceMs": -1, "bleu": {"smoothMethod": "magic"}, "maxProblems": -3, "qa": {"language": "english"}}}
    )
    uri, _ = write_pair(client, "bad", "a b c d\n", "a b c d\n")
    s = await scores(client, uri)
    assert s["scores"]["bleu"]["signature"].split("|")[4] == "smooth:exp"
    messages = [m.message for m in client.messages]
    assert sum("invalid settings" in m for m in messages) == 1
    assert any("scorelens.bleu.smoothMethod" in m and "scorelens.maxProblems" in m for m in messages)
    assert any("scorelens.qa.language: 'english' is not a language code" in m for m in messages)
    # defaults are named as the client wrote its settings: in JSON
    assert any("scorelens.debounceMs" in m and "using the default null" in m and '"exp"' in m for m in messages)


async def test_code_lens_on_first_line(client):
    uri = open_doc(client, client.workspace / "asr" / "call.hyp.txt")
    s = await scores(client, uri)
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    assert all(lens.range.start.line == 0 for lens in lenses)
    commands = [lens.command.command for lens in lenses]
    assert commands[:2] == ["scorelens.report", "scorelens.openReference"]
    assert f"WER {100 * s['scores']['wer']['wer']:.1f}%" in lenses[0].command.title
    assert any(lens.command.title.startswith("BLEU nrefs:1|") for lens in lenses)


async def test_report_request_and_command(client):
    uri, _ = write_pair(client, "rep", "a red car\nthe cat\n", "a blue car\nthe cat sat\n")
    await scores(client, uri)
    report = await client.protocol.send_request_async("scorelens/report", {"uri": uri})
    rows = report["segments"] if isinstance(report, dict) else report.segments
    assert len(rows) == 2
    row = rows[1] if isinstance(rows[1], dict) else rows[1]._asdict()
    assert row["line"] == 1 and row["deletions"] == 1
    assert row["bleu"] == pytest.approx(sacrebleu.sentence_bleu("the cat", ["the cat sat"]).score)
    via_command = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="scorelens.report", arguments=[uri])
    )
    assert via_command is not None


async def test_handler_error_answers_error_and_server_keeps_serving(client):
    uri, _ = write_pair(client, "err", "a b\n", "a c\n")
    await scores(client, uri)
    with pytest.raises(Exception):
        await client.protocol.send_request_async("scorelens/report", {"nope": 1})
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0)))
    assert hover is not None


async def test_line_count_mismatch_is_one_diagnostic(client):
    uri, _ = write_pair(client, "mis", "a\nb\nc\n", "a\nb\n")
    await scores(client, uri)
    diags = by_code(await diagnostics(client, uri), "pairing.line-count-mismatch")
    assert len(diags) == 1 and "hypothesis: 3, mis.ref.txt: 2" in diags[0].message


@pytest.mark.parametrize(
    "content, code, words",
    [
        (None, "pairing.missing-reference", "no such file"),
        (b"a\x00b\n", "pairing.unreadable-reference", "binary"),
        (b"caf\xe9\n", "pairing.unreadable-reference", "offset 3"),
    ],
)
async def test_bad_reference_then_fixed_on_disk(client, content, code, words):
    d = client.workspace / "bad"
    d.mkdir()
    (d / "x.hyp.txt").write_text("a b c d e\n")
    ref = d / "x.ref.txt"
    if content is not None:
        ref.write_bytes(content)
    uri = open_doc(client, d / "x.hyp.txt")
    s = await scores(client, uri)
    assert s["scores"] is None
    problems = by_code(await diagnostics(client, uri), code)
    assert len(problems) == 1 and words in problems[0].message
    ref.write_text("a b c d e\n")
    kind = types.FileChangeType.Created if content is None else types.FileChangeType.Changed
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=ref.as_uri(), type=kind)])
    )
    await scores(client, uri, until=lambda s: s["scores"] is not None and s["scores"]["bleu"]["score"] == pytest.approx(100.0))
    assert by_code(await diagnostics(client, uri), code) == []


async def test_closed_reference_edited_deleted_recreated(client):
    uri, ref_uri = write_pair(client, "disk", "a b c d\n", "a b c d\n")
    assert (await scores(client, uri))["scores"]["wer"]["wer"] == 0
    ref = client.workspace / "t" / "disk.ref.txt"
    ref.write_text("a b x d\n")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=ref_uri, type=types.FileChangeType.Changed)])
    )
    await scores(client, uri, until=lambda s: s["scores"] and s["scores"]["wer"]["wer"] == pytest.approx(0.25))
    ref.unlink()
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=ref_uri, type=types.FileChangeType.Deleted)])
    )
    await scores(client, uri, until=lambda s: s["scores"] is None)
    ref.write_text("a b c d\n")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=ref_uri, type=types.FileChangeType.Created)])
    )
    await scores(client, uri, until=lambda s: s["scores"] and s["scores"]["wer"]["wer"] == 0)


async def test_open_reference_edits_rescore_hypothesis_and_get_deletions(client):
    uri, ref_uri = write_pair(client, "live", "the cat\n", "the cat\n")
    await scores(client, uri)
    open_doc(client, client.workspace / "t" / "live.ref.txt")
    await scores(client, uri)
    client.refreshes.clear()
    change(client, ref_uri, 2, (0, 7), (0, 7), " sat")
    await scores(client, uri, until=lambda s: s["scores"]["wer"]["deletions"] == 1)
    # the hypothesis's hints changed though the client edited another document
    assert "inlayHint" in client.refreshes
    ref_diags = by_code(await diagnostics(client, ref_uri), "wer.deletion")
    assert [(d.range.start.character, d.range.end.character) for d in ref_diags] == [(8, 11)]


async def test_pairing_rules(client):
    ws = client.workspace
    (ws / "hyp").mkdir()
    (ws / "ref").mkdir()
    (ws / "hyp" / "a.txt").write_text("x y\n")
    (ws / "ref" / "a.txt").write_text("x y\n")
    (ws / "out").mkdir()
    (ws / "gold").mkdir()
    (ws / "out" / "b.de").write_text("x y\n")
    (ws / "gold" / "b.de").write_text("x z\n")
    (ws / "scorelens.toml").write_text('[[pair]]\nhypothesis = "out/*.de"\nreferences = ["gold/{stem}.de"]\n')
    (ws / "asr" / "call.sys1.txt").write_text((ws / "asr" / "call.hyp.txt").read_text())
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent((ws / "scorelens.toml").as_uri(), types.FileChangeType.Created)])
    )
    await asyncio.sleep(0.2)
    for path, ref in [
        (ws / "hyp" / "a.txt", ws / "ref" / "a.txt"),
        (ws / "out" / "b.de", ws / "gold" / "b.de"),
        (ws / "asr" / "call.sys1.txt", ws / "asr" / "call.ref.txt"),
    ]:
        uri = open_doc(client, path)
        s = await scores(client, uri)
        assert s["references"] == [ref.as_uri()]
    plain = ws / "notes.txt"
    plain.write_text("some free text to pair by hand\n")
    other = ws / "other.txt"
    other.write_text("some free text to pair by hand\n")
    uri = open_doc(client, plain)
    assert await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="scorelens.pair", arguments=[uri, [other.as_uri()]])
    )
    s = await scores(client, uri, until=lambda s: s["references"] == [other.as_uri()])
    assert s["scores"]["bleu"]["score"] == pytest.approx(100.0)
    await client.workspace_execute_command_async(types.ExecuteCommandParams(command="scorelens.unpair", arguments=[uri]))
    await scores(client, uri, until=lambda s: s["scores"] is None)


async def test_reference_outside_workspace_is_refused(client, tmp_path):
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("a b\n")
    uri = open_doc(client, client.workspace / "mt" / "news.hyp.en")
    await scores(client, uri)
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="scorelens.pair", arguments=[uri, [outside.as_uri()]])
    )
    await scores(client, uri, until=lambda s: s["scores"] is None)
    assert by_code(await diagnostics(client, uri), "pairing.outside-workspace")


async def test_rouge_tokenizer_trap_and_switch(client):
    uri = open_doc(client, client.workspace / "mt" / "zh" / "news.hyp.zh")
    s = await scores(client, uri)
    assert s["scores"]["bleu"]["signature"].split("|")[3] == "tok:zh"
    zh = client.workspace / "mt" / "zh"
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    pairs = zip((zh / "news.ref.zh").read_text().splitlines(), (zh / "news.hyp.zh").read_text().splitlines())
    fs = [scorer.score(r, h)["rougeL"].fmeasure for r, h in pairs]
    assert s["scores"]["rougeL"]["fmeasure"] == pytest.approx(sum(fs) / len(fs), abs=1e-9)
    (trap,) = by_code(await diagnostics(client, uri), "rouge.tokenizer-dropped-text")
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(types.TextDocumentIdentifier(uri), trap.range, types.CodeActionContext(diagnostics=[trap]))
    )
    (switch,) = [a for a in actions if "ROUGE tokenizer" in a.title]
    command = switch.command
    if isinstance(command, str):
        # pytest-lsp's converter reads a CodeAction|Command union as a Command and turns the
        # nested command object into its repr; recover it
        command = types.Command(**ast.literal_eval(command))
    assert (command.command, command.arguments) == ("scorelens.setRougeTokenizer", ["unicode"])
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command.command, arguments=command.arguments)
    )
    await scores(client, uri, until=lambda s: s["scores"]["rougeL"]["fmeasure"] > 0.5)
    assert by_code(await diagnostics(client, uri), "rouge.tokenizer-dropped-text") == []


async def test_cap_is_never_silent(client):
    client.set_configuration({"scorelens": {"debounceMs": 0, "maxProblems": 5}})
    hyp = "".join(f"w{i} a b\n" for i in range(20))
    ref = "".join(f"v{i} a b\n" for i in range(20))
    uri, _ = write_pair(client, "cap", hyp, ref)
    await scores(client, uri)
    diags = await diagnostics(client, uri)
    assert len(diags) == 5
    assert diags[-1].code == "scorelens.truncated" and "not shown" in diags[-1].message


async def test_paragraph_moved_down_by_an_edit_above_moves_its_diagnostics(client):
    client.set_configuration({"scorelens": {"debounceMs": 0, "segmentation": "paragraph"}})
    uri, _ = write_pair(client, "para", "a b\n\nthe cat\n", "a b\n\nthe dog\n")
    await scores(client, uri)
    assert [d.range.start.line for d in by_code(await diagnostics(client, uri), "wer.substitution")] == [2]
    # the second paragraph's text is unchanged, but it now starts a line further down
    change(client, uri, 2, (0, 3), (0, 3), "\nc")
    await scores(client, uri, version=2)
    subs = [d for d in by_code(await diagnostics(client, uri), "wer.substitution") if '"cat"' in d.message]
    assert [d.range.start.line for d in subs] == [3]
    assert subs[0].data["range"]["start"]["line"] == 3


async def test_report_built_across_an_edit_is_of_one_version(client):
    lines = [f"line {i} the cat sat" for i in range(1500)]
    uri, _ = write_pair(client, "big", "\n".join(lines) + "\n", "\n".join(lines) + "\n")
    await scores(client, uri)
    pending = asyncio.ensure_future(client.protocol.send_request_async("scorelens/report", {"uri": uri}))
    await asyncio.sleep(0)
    change(client, uri, 2, (1400, 0), (1400, 0), "new ")
    report = await pending
    report = report if isinstance(report, dict) else report._asdict()
    rows = report["segments"]
    row = rows[1400] if isinstance(rows[1400], dict) else rows[1400]._asdict()
    assert len(rows) == 1500
    assert row["hypothesis"] == ("new " if report["version"] == 2 else "") + "line 1400 the cat sat"


async def test_long_cold_rescore_shows_progress_keeps_serving_and_takes_an_edit(client):
    """30,000 lines are scored in slices: work-done progress is shown, another document's hover
    is answered meanwhile, and an edit sent mid-way ends in the scores and diagnostics of the
    final text."""
    # chrF too: its texts are analysed one by one, where BLEU, ROUGE and WER alone are scored
    # from texts a batch at a time, which takes 30,000 of these lines about 0.5 s
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["bleu", "rougeL", "wer", "chrf"]}})
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    small, _ = write_pair(client, "small", "the cat sat\n", "the dog sat\n")
    await scores(client, small)
    n = 30_000
    # about 1.5 s to score here: long enough for progress (shown after half a second)
    hyp = [f"line {i} the cat sat on a mat while {i % 97} birds sang in {i % 89} old trees near the river {i % 13}" for i in range(n)]
    ref = [f"line {i} the dog sat on the mat as {i % 97} birds sang in {i % 83} tall trees by the river {i % 13}" for i in range(n)]
    started = asyncio.get_running_loop().time()
    uri, _ = write_pair(client, "long", "\n".join(hyp) + "\n", "\n".join(ref) + "\n")
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(small), types.Position(0, 5))
    )
    assert "sentence BLEU" in hover.contents.value
    assert not [p for p in client.scores_log if p["uri"] == uri], "the hover waited for the long re-score"
    change(client, uri, 2, (0, 0), (0, 0), "extra ")
    final = await scores(client, uri, version=2, timeout=60)
    took = asyncio.get_running_loop().time() - started

    hyp[0] = "extra " + hyp[0]
    expected = sacrebleu.BLEU().corpus_score(hyp, [ref])
    assert final["scores"]["bleu"]["score"] == pytest.approx(expected.score, abs=1e-9)
    assert final["scores"]["wer"]["insertions"] == 1
    diags = await diagnostics(client, uri)
    inserted = by_code(diags, "wer.insertion")
    assert [(d.range.start.line, d.range.start.character, d.range.end.character) for d in inserted] == [(0, 0, 5)]
    assert diags[-1].code == "scorelens.truncated"

    begun = [reports for reports in client.progress_reports.values() if reports and reports[0].kind == "begin"]
    assert begun and all(r[-1].kind == "end" for r in begun)
    assert begun[0][0].title == "ScoreLens: scoring"
    # at most one report per quarter second (each redraws the client's status bar), not one per slice
    reported = [r for reports in begun for r in reports if r.kind == "report"]
    assert len(reported) <= len(begun) * (1 + (took + 2) / 0.25)


@pytest.mark.parametrize("echo_data", [True, False], ids=["data", "no-data"])
async def test_ter_shift_diagnostic_and_its_fix_applied_and_rescored(client, echo_data):
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["bleu", "ter"], "ter": {"caseSensitive": True}}})
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    uri, ref_uri = write_pair(client, "shift", "😀 the cat sat on the mat today\n", "😀 today the cat sat on the mat\n")
    first = await scores(client, uri, until=lambda s: "ter" in s["scores"])
    assert (first["scores"]["ter"]["num_edits"], first["scores"]["ter"]["ref_length"]) == (1, 8)
    assert first["scores"]["ter"]["signature"].startswith("nrefs:1|case:mixed|tok:tercom|norm:no|punct:yes|asian:no|")
    (shift,) = by_code(await diagnostics(client, uri), "ter.shift")
    assert shift.range == types.Range(
        types.Position(0, units(client, "😀 the cat sat on the mat ")), types.Position(0, units(client, "😀 the cat sat on the mat today"))
    )
    assert '"today" is in another place in the reference (TER: shift)' in shift.message
    (related,) = shift.related_information
    assert related.location.uri == ref_uri
    assert related.location.range.start == types.Position(0, units(client, "😀 "))
    asked = shift if echo_data else types.Diagnostic(shift.range, shift.message, shift.severity, shift.code, source=shift.source)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri), range=shift.range, context=types.CodeActionContext(diagnostics=[asked])
        )
    )
    move = next(a for a in actions if a.title == "Move “today” to where the reference has it")
    (edit,) = move.edit.changes[uri]
    start, end = edit.range.start, edit.range.end
    change(client, uri, 2, (start.line, start.character), (end.line, end.character), edit.new_text)
    final = await scores(client, uri, version=2)
    assert final["scores"]["ter"]["num_edits"] == 0
    assert final["scores"]["bleu"]["score"] == pytest.approx(100.0)
    assert by_code(await diagnostics(client, uri), "ter.shift") == []
