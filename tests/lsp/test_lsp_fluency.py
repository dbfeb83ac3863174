"""Fluency (ppl) through the real server: findings, hover, hints, scorelens/scores, edits, problems."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lsp_support import diagnostics, open_doc, scores
from lsprotocol import types
from test_server import by_code, units, write_pair

sys.path.insert(0, str(Path(__file__).parents[1] / "core"))
from arpa import estimate, require_kenlm  # noqa: E402

kenlm = require_kenlm()
ROOT = Path(__file__).parents[2]
PLANTED = [9, 15, 21]  # 1-based word-salad lines of samples/lm/call.hyp.txt


def configure(client, **settings) -> None:
    client.set_configuration({"scorelens": {"debounceMs": 0, **settings}})
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))


def _sample(client) -> tuple[str, list[str], Path]:
    d = client.workspace / "lm"
    d.mkdir(exist_ok=True)
    model = d / "asr.arpa"
    shutil.copy(ROOT / "samples" / "lm" / "asr.arpa", model)
    lines = (ROOT / "samples" / "lm" / "call.hyp.txt").read_text(encoding="utf-8").split("\n")[:-1]
    lines.append("the call 😀 ended 漢字 there")  # out-of-vocabulary words after astral and CJK characters
    (d / "call.hyp.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return (d / "call.hyp.txt").as_uri(), lines, model


async def _until_ppl(client, uri, version=None):
    return await scores(client, uri, version, until=lambda p: p["scores"] and "ppl" in p["scores"])


async def test_findings_hover_hints_and_scores_on_a_document_checked_alone(client):
    uri, lines, model = _sample(client)
    configure(client, metrics=["ppl"], lm={"model": "${workspaceFolder}/lm/asr.arpa"})
    open_doc(client, Path(uri[len("file://"):]))
    announced = await _until_ppl(client, uri)
    assert announced["references"] == []
    cli = subprocess.run(
        [sys.executable, "-m", "scorelens", "score", "--metrics", "ppl", "--lm", str(model), "--json", Path(uri[7:]).as_posix()],
        capture_output=True, text=True, check=True,
    )
    expected = json.loads(cli.stdout)["ppl"]
    got = announced["scores"]["ppl"]
    assert (got["perplexity"], got["log10_prob"], got["tokens"], got["oov"]) == (
        expected["perplexity"], expected["log10_prob"], expected["tokens"], expected["oov"]
    )
    diags = await diagnostics(client, uri)
    assert not [d for d in diags if str(d.code).startswith("pairing.")]
    # the planted lines, and the line added with unknown words
    assert sorted(d.range.start.line + 1 for d in by_code(diags, "lm.unlikely")) == [*PLANTED, len(lines)]
    last = len(lines) - 1
    oov = {(d.range.start.character, d.range.end.character) for d in by_code(diags, "lm.oov") if d.range.start.line == last}
    k = kenlm.Model(str(model))
    for word in ("😀", "漢字"):
        if word not in k:
            start = lines[last].index(word)
            assert (units(client, lines[last][:start]), units(client, lines[last][: start + len(word)])) in oov
    assert all(d.severity == types.DiagnosticSeverity.Information for d in by_code(diags, "lm.unlikely"))
    # hover: kenlm's own perplexity of the line
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(8, 0)))
    assert f"perplexity {k.perplexity(lines[8]):.1f}" in hover.contents.value
    assert "least likely words" in hover.contents.value
    # Markdown would take a bare </s> for an HTML tag and show nothing
    markdown = hover.contents.kind == types.MarkupKind.Markdown
    assert ("(words + `</s>`)" if markdown else "(words + </s>)") in hover.contents.value
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    assert lenses and not [lens for lens in lenses if lens.command.command == "scorelens.openReference"]  # no reference to open
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(types.TextDocumentIdentifier(uri), types.Range(types.Position(8, 0), types.Position(9, 0)))
    )
    assert [h.label for h in hints if h.position.line == 8] == [f"PPL {k.perplexity(lines[8]):.1f}"]
    # an edit re-scores the line: the word salad becomes a plain line
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=2, uri=uri),
            [types.TextDocumentContentChangePartial(range=types.Range(types.Position(8, 0), types.Position(8, len(lines[8]))), text=lines[0])],
        )
    )
    after = await _until_ppl(client, uri, version=2)
    assert after["scores"]["ppl"]["log10_prob"] != got["log10_prob"]
    assert after["change"]["scores"]["ppl"] < 0  # the corpus perplexity went down
    diags = await diagnostics(client, uri)
    assert 9 not in [d.range.start.line + 1 for d in by_code(diags, "lm.unlikely")]


async def test_lone_surrogate_does_not_break_scoring(client):
    uri, lines, _ = _sample(client)
    configure(client, metrics=["ppl"], lm={"model": "lm/asr.arpa"})
    open_doc(client, Path(uri[len("file://"):]))
    await _until_ppl(client, uri)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=2, uri=uri),
            [types.TextDocumentContentChangePartial(range=types.Range(types.Position(0, 0), types.Position(0, 0)), text="\ud83d ")],
        )
    )
    assert (await _until_ppl(client, uri, version=2))["scores"]["ppl"]["oov"] >= 1


async def test_ppl_with_other_metrics_and_a_runtime_model_change(client):
    uri, _ = write_pair(client, "news", "the cat sat on the mat\na dog ran\n", "the cat sat on a mat\na dog ran\n")
    configure(client, metrics=["bleu", "ppl"], lm={"model": "missing.arpa"})
    first = await scores(client, uri, until=lambda p: p["scores"] and "bleu" in p["scores"])
    assert "ppl" not in first["scores"]
    for _ in range(100):
        if any("missing.arpa: no such file" in m.message for m in client.messages):
            break
        await asyncio.sleep(0.05)
    assert len([m for m in client.messages if "missing.arpa" in m.message]) == 1
    (client.workspace / "toy.arpa").write_text(estimate(["the cat sat on the mat", "a dog ran"]), encoding="utf-8")
    configure(client, metrics=["bleu", "ppl"], lm={"model": "toy.arpa"})
    got = await _until_ppl(client, uri)
    assert got["scores"]["ppl"]["model"].endswith("toy.arpa") and "bleu" in got["scores"]


async def test_ppl_without_a_model_is_one_message(client):
    uri, _ = write_pair(client, "news", "the cat sat\n", "the cat sat\n")
    configure(client, metrics=["bleu", "ppl"])
    got = await scores(client, uri, until=lambda p: p["scores"] and "bleu" in p["scores"])
    assert "ppl" not in got["scores"]
    await asyncio.sleep(0.3)
    assert len([m for m in client.messages if "scorelens.lm.model is not set" in m.message]) == 1


