"""Subtitles end to end: a hypothesis NAME.hyp.srt scored against NAME.ref.srt, cues paired by
number (or by time, as a pairing rule asks), markup left out of the scored text and out of the
findings' ranges."""

from __future__ import annotations

import sacrebleu
from lsp_support import diagnostics, open_doc, scores
from lsprotocol import types

HYP = """1
00:00:01,000 --> 00:00:02,000
<i>the dog</i> sat on
the mat

2
00:00:03,000 --> 00:00:04,000
a bird sang
"""
REF = """1
00:00:01,000 --> 00:00:02,000
the cat sat on the mat

2
00:00:03,000 --> 00:00:04,500
the bird sang
"""


def _subs(diags) -> dict[tuple[int, int, int], str]:
    return {(d.range.start.line, d.range.start.character, d.range.end.character): d.message for d in diags if d.code == "wer.substitution"}


async def test_cues_pair_by_number_and_findings_skip_the_markup(client):
    folder = client.workspace / "subs"
    folder.mkdir()
    (folder / "film.hyp.srt").write_text(HYP, encoding="utf-8")
    (folder / "film.ref.srt").write_text(REF, encoding="utf-8")
    uri = open_doc(client, folder / "film.hyp.srt", "srt")
    got = await scores(client, uri)
    hyps, refs = ["the dog sat on the mat", "a bird sang"], ["the cat sat on the mat", "the bird sang"]
    assert got["scores"]["bleu"]["score"] == sacrebleu.BLEU().corpus_score(hyps, [refs]).score
    found = _subs(await diagnostics(client, uri))
    # "dog" sits between "<i>the " and "</i>"; "a" starts cue 2's text line
    assert set(found) == {(2, 7, 10), (7, 0, 1)}, found


async def test_cues_pair_by_time_when_a_rule_says_so(client):
    folder = client.workspace / "timed"
    folder.mkdir()
    (client.workspace / "scorelens.toml").write_text(
        '[[pair]]\nhypothesis = "timed/*.hyp.srt"\nreferences = ["timed/{stem}.gold.srt"]\npair_by = "time"\n', encoding="utf-8"
    )
    (folder / "film.hyp.srt").write_text(HYP, encoding="utf-8")
    # the reference splits the first cue in two, numbered differently: by time they join
    (folder / "film.hyp.gold.srt").write_text(
        "7\n00:00:01,000 --> 00:00:01,500\nthe cat sat\n\n8\n00:00:01,500 --> 00:00:02,000\non the mat\n\n"
        "9\n00:00:03,000 --> 00:00:04,000\nthe bird sang\n",
        encoding="utf-8",
    )
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=(client.workspace / "scorelens.toml").as_uri(), type=types.FileChangeType.Created)]
        )
    )
    uri = open_doc(client, folder / "film.hyp.srt", "srt")
    got = await scores(client, uri, until=lambda p: p["scores"] is not None)
    hyps, refs = ["the dog sat on the mat", "a bird sang"], ["the cat sat on the mat", "the bird sang"]
    assert got["scores"]["bleu"]["score"] == sacrebleu.BLEU().corpus_score(hyps, [refs]).score
    assert set(_subs(await diagnostics(client, uri))) == {(2, 7, 10), (7, 0, 1)}


async def test_a_ctm_is_scored_against_its_stm_by_sclite_s_rules(client):
    folder = client.workspace / "sclite"
    folder.mkdir()
    (folder / "call.ref.stm").write_text(
        "call 1 agent 0.00 2.00 <o,f0,female> thank you for { calling / phoning }\ncall 1 caller 2.50 4.00 <o,f0,male> Hi there\n",
        encoding="utf-8",
    )
    # "phoning" is an alternative of the reference; "hi" matches "Hi" (sclite ignores case)
    (folder / "call.hyp.ctm").write_text(
        "call 1 0.10 0.30 thank\ncall 1 0.50 0.30 you\ncall 1 0.90 0.30 phoning\ncall 1 2.60 0.30 hi\ncall 1 3.00 0.30 here\n",
        encoding="utf-8",
    )
    uri = open_doc(client, folder / "call.hyp.ctm", "ctm")
    got = await scores(client, uri, until=lambda p: p["scores"] is not None)
    wer = got["scores"]["wer"]
    assert (wer["hits"], wer["substitutions"], wer["deletions"], wer["insertions"]) == (4, 1, 1, 0)
    assert "rules:sclite" in wer["signature"]
    found = {(d.range.start.line, d.range.start.character, d.range.end.character) for d in await diagnostics(client, uri) if d.code == "wer.substitution"}
    assert found == {(4, 17, 21)}  # "here" on the CTM's fifth line


async def test_a_webvtt_fix_writes_the_reference_word_escaped(client):
    """A WebVTT cue cannot hold a bare & or <: the reference's "R&D" is written "R&amp;D", which
    the reader decodes back to the word the reference has (SRT has no escapes: written as it is)."""
    folder = client.workspace / "vtt"
    folder.mkdir()
    cue = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n{}\n"
    (folder / "talk.hyp.vtt").write_text(cue.format("our research budget"), encoding="utf-8")
    (folder / "talk.ref.vtt").write_text(cue.format("our R&amp;D budget"), encoding="utf-8")
    (folder / "talk.hyp.srt").write_text("1\n00:00:01,000 --> 00:00:02,000\nour research budget\n", encoding="utf-8")
    (folder / "talk.ref.srt").write_text("1\n00:00:01,000 --> 00:00:02,000\nour R&D budget\n", encoding="utf-8")
    for name, written in (("talk.hyp.vtt", "R&amp;D"), ("talk.hyp.srt", "R&D")):
        uri = open_doc(client, folder / name, name.rsplit(".", 1)[1])
        await scores(client, uri)
        [sub] = [d for d in await diagnostics(client, uri) if d.code == "wer.substitution"]
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(types.TextDocumentIdentifier(uri), sub.range, types.CodeActionContext(diagnostics=[sub]))
        )
        [edit] = next(a for a in actions if a.title == "Replace with “R&D”").edit.changes[uri]
        assert edit.new_text == written, name


async def test_sclite_s_case_table_from_the_settings(client):
    """scorelens.wer.scliteCase folds case as sclite -e utf-8 TABLE: Turkish I is ı."""
    folder = client.workspace / "tr"
    folder.mkdir()
    (folder / "light.ref.trn").write_text("IŞIK YANDI (u1)\n", encoding="utf-8")
    (folder / "light.hyp.trn").write_text("ışık yandı (u1)\n", encoding="utf-8")
    uri = open_doc(client, folder / "light.hyp.trn", "trn")
    got = await scores(client, uri)
    assert got["scores"]["wer"]["substitutions"] == 2  # sclite's default folds A-Z only
    client.settings["wer"] = {"scliteCase": "babel_turkish"}
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    got = await scores(client, uri, until=lambda p: p["scores"] and "case:babel_turkish" in p["scores"]["wer"]["signature"])
    assert (got["scores"]["wer"]["hits"], got["scores"]["wer"]["substitutions"]) == (2, 0)
