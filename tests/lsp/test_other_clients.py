"""What editors other than VS Code send and expect (issue 12): plain-text hovers, settings in
``initializationOptions`` and pushed in ``workspace/didChangeConfiguration``, code actions for
diagnostics echoed without ``source``/``data``, no double work when settings follow ``didOpen``,
settings per workspace folder.

``plain_client`` asks as Vim ALE and eglot without markdown-mode do (plain text, no
``workspace/configuration``), on the VS Code (UTF-16) and Neovim (UTF-8) profiles.
"""

from __future__ import annotations

import asyncio

import pytest
import sacrebleu
from lsp_support import diagnostics, scores, start_plain
from lsprotocol import types
from test_server import by_code, units, write_pair


async def test_plain_text_hover_without_markdown_marks(plain_client):
    await start_plain(plain_client, {"debounceMs": 0})
    uri, _ = write_pair(plain_client, "plain", "the cat sat 1.2\n", "the dog sat down 1.2\n")
    await scores(plain_client, uri)
    hover = await plain_client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 5))
    )
    assert hover.contents.kind == types.MarkupKind.PlainText
    text = hover.contents.value
    expected = sacrebleu.sentence_bleu("the cat sat 1.2", ["the dog sat down 1.2"]).score
    assert f"sentence BLEU {expected:.2f}" in text
    assert "Reference: the [dog] sat [-down-] 1.2" in text
    assert "Hypothesis: the [cat] sat 1.2" in text
    assert "**" not in text and "~~" not in text and "\\" not in text and "`" not in text


@pytest.mark.parametrize("shape", ["wrapped", "bare"])
async def test_initialization_options_either_shape(plain_client, shape):
    section = {"debounceMs": 0, "metrics": ["bleu", "wer"]}
    await start_plain(plain_client, {"scorelens": section} if shape == "wrapped" else section)
    uri, _ = write_pair(plain_client, "init", "a red car\n", "a blue car\n")
    s = await scores(plain_client, uri)
    assert set(s["scores"]) == {"bleu", "wer", "segments"}


async def test_pushed_settings_apply_over_initialization_options_without_restart(plain_client):
    await start_plain(plain_client, {"scorelens": {"debounceMs": 0, "metrics": ["bleu", "wer"]}})
    uri, _ = write_pair(plain_client, "push", "A red car\n", "a blue car\n")
    s = await scores(plain_client, uri)
    assert s["scores"]["bleu"]["signature"].split("|")[1] == "case:mixed"
    # as Vim ALE sends them: the whole settings object, ScoreLens's under its section
    plain_client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"scorelens": {"bleu": {"lowercase": True}}})
    )
    s = await scores(plain_client, uri, until=lambda s: s["scores"]["bleu"]["signature"].split("|")[1] == "case:lc")
    assert set(s["scores"]) == {"bleu", "wer", "segments"}  # the initialization options still apply beneath
    lowercased = sacrebleu.BLEU(lowercase=True).corpus_score(["A red car"], [["a blue car"]]).score
    assert s["scores"]["bleu"]["score"] == pytest.approx(lowercased, abs=1e-9)


async def test_configuration_wins_over_pushed_settings(client):
    # `client` answers workspace/configuration: settings pushed beside it do not override it
    uri, _ = write_pair(client, "layers", "a red car\n", "a blue car\n")
    await scores(client, uri)
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["bleu", "rougeL"]}})
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"scorelens": {"metrics": ["wer"]}}))
    s = await scores(client, uri)
    assert set(s["scores"]) == {"bleu", "rougeL", "segments"}


@pytest.mark.parametrize("echo", ["code-message-range", "nothing"])
async def test_code_actions_without_source_or_data(plain_client, echo):
    await start_plain(plain_client, {"debounceMs": 0, "metrics": ["bleu", "wer"]})  # no ROUGE tokenizer trap
    prefix = "😀 東京 a "
    uri, _ = write_pair(plain_client, "ale", prefix + "red car uh\n", prefix + "blue car\n")
    await scores(plain_client, uri)
    (sub,) = by_code(await diagnostics(plain_client, uri), "wer.substitution")
    # Vim ALE echoes {code, message, range} only; other clients may send no diagnostics at all
    echoed = [types.Diagnostic(range=sub.range, message=sub.message, code=sub.code)] if echo != "nothing" else []
    at = types.Position(0, units(plain_client, prefix + "re"))
    actions = await plain_client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=types.Range(at, at),
            context=types.CodeActionContext(diagnostics=echoed),
        )
    )
    titles = [a.title for a in actions]
    assert titles == ["Replace with “blue”", "Take the whole reference line"]
    (edit,) = actions[0].edit.changes[uri]
    assert edit.range == sub.range and edit.new_text == "blue"
    # the command form of the fix takes the data of the server's own diagnostic
    assert actions[0].diagnostics[0].data["fix"] == "replace"


async def test_settings_sent_right_after_open_cause_no_second_score_or_publish(client):
    # eglot sends its (unchanged) settings right after didOpen, while the first score is pending
    published = _count_publications(client)
    uri, _ = write_pair(client, "eglot", "a red car\nthe cat\n", "a blue car\nthe cat sat\n")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"scorelens": client.settings}))
    await scores(client, uri)
    await asyncio.sleep(0.5)
    assert [s["uri"] for s in client.scores_log].count(uri) == 1
    if client.profile == "visual-studio-code":  # pushed diagnostics
        assert published[uri] == 1


async def test_identical_diagnostics_are_not_published_twice(client):
    published = _count_publications(client)
    uri, _ = write_pair(client, "same", "a red car\n", "a blue car\n")
    await scores(client, uri)
    client.set_configuration({"scorelens": {"debounceMs": 1}})  # re-scores, changes no finding
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await scores(client, uri)
    await asyncio.sleep(0.3)
    if client.profile == "visual-studio-code":
        assert published[uri] == 1
    assert len(by_code(await diagnostics(client, uri), "wer.substitution")) == 1


class _Counting(dict):
    def __init__(self) -> None:
        super().__init__()
        self.counts: dict[str, int] = {}

    def __setitem__(self, uri, value) -> None:
        self.counts[uri] = self.counts.get(uri, 0) + 1
        super().__setitem__(uri, value)


def _count_publications(client) -> dict[str, int]:
    client.diagnostics = _Counting()
    return client.diagnostics.counts


async def test_each_workspace_folder_follows_its_own_settings(two_folder_client):
    """workspace/configuration answers per folder (scopeUri): the same pair in each folder is
    scored and reported with that folder's settings, and a change to one folder's leaves the
    other's documents as they were."""
    client = two_folder_client
    left, right = client.folders
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["wer"], "severity": {"wer": "error"}}}, scope_uri=left.as_uri())
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["bleu"]}}, scope_uri=right.as_uri())
    hyp, ref = "a red car\nthe cat\n", "a blue car\nthe dog sat\n"
    left_uri, _ = write_pair(client, "same", hyp, ref, folder=left.name)
    right_uri, _ = write_pair(client, "same", hyp, ref, folder=right.name)

    async def findings(uri: str) -> set[tuple[str, types.DiagnosticSeverity]]:
        return {(d.code.split(".")[0], d.severity) for d in await diagnostics(client, uri)}

    assert set((await scores(client, left_uri))["scores"]) == {"wer", "segments"}
    assert set((await scores(client, right_uri))["scores"]) == {"bleu", "segments"}
    assert await findings(left_uri) == {("wer", types.DiagnosticSeverity.Error)}
    assert await findings(right_uri) == {("bleu", types.DiagnosticSeverity.Information)}

    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["bleu", "wer"]}}, scope_uri=right.as_uri())
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await scores(client, right_uri, until=lambda s: set(s["scores"]) == {"bleu", "wer", "segments"})
    assert await findings(right_uri) == {("bleu", types.DiagnosticSeverity.Information), ("wer", types.DiagnosticSeverity.Information)}
    assert await findings(left_uri) == {("wer", types.DiagnosticSeverity.Error)}
    assert len([s for s in client.scores_log if s["uri"] == left_uri]) == 1  # its settings did not change: not scored again
