"""Fluency (ppl) through the real server: findings, hover, hints, scorelens/scores, edits, problems."""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import signal
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lsp_support import diagnostics, open_doc, scores, start_plain
from lsprotocol import types
from test_report import request
from test_server import by_code, change, units, write_pair

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


async def _until_ppl(client, uri, version=None, timeout: float = 20):
    return await scores(client, uri, version, until=lambda p: p["scores"] and "ppl" in p["scores"], timeout=timeout)


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
    assert "substituted or inserted" not in hover.contents.value  # nothing is marked without a reference
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




def _descendants(pid: int) -> dict[int, tuple[int, str]]:
    """The processes under ``pid``: their parent and command line."""
    found, parents = {}, [pid]
    while parents:
        parent = parents.pop()
        for d in filter(str.isdigit, os.listdir("/proc")):
            try:
                ppid = int(Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()[1])
                cmdline = Path(f"/proc/{d}/cmdline").read_text().replace("\0", " ")
            except (OSError, IndexError, ValueError):
                continue
            if ppid == parent:
                found[int(d)] = (ppid, cmdline)
                parents.append(int(d))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the worker process in /proc")
async def test_a_killed_model_process_starts_again_with_the_next_edit(client):
    async def body():
        uri, _, _ = _sample(client)
        configure(client, metrics=["ppl"], lm={"model": "${workspaceFolder}/lm/asr.arpa"})
        open_doc(client, Path(uri[len("file://") :]))
        await _until_ppl(client, uri, timeout=8)
        server = client._server.pid
        procs = _descendants(server)
        forkservers = {p for p, (ppid, cmd) in procs.items() if ppid == server and "forkserver" in cmd}
        workers = [p for p, (ppid, _) in procs.items() if ppid in forkservers]
        assert len(workers) == 1, procs
        os.kill(workers[0], signal.SIGKILL)  # as the OOM killer would, while the process is idle
        while Path(f"/proc/{workers[0]}").exists():  # reaped by the fork server: its exit is told
            await asyncio.sleep(0.02)
        change(client, uri, 2, (8, 0), (8, 0), "zzqx ")
        after = await _until_ppl(client, uri, version=2, timeout=8)
        assert after["scores"]["ppl"]["oov"] >= 1
        restarted = [p for p, (ppid, _) in _descendants(server).items() if ppid in forkservers]
        assert restarted and workers[0] not in restarted
        assert len([m for m in client.messages if "language model process ended" in m.message]) <= 1
        # the server exits (it hung once a worker had been killed); the fixture's own shutdown is then skipped
        await asyncio.wait_for(client.shutdown_session(), 5)
        assert client._server.returncode is not None
        client.capabilities = None

    await asyncio.wait_for(body(), 20)


def _kenlm_lines(uri: str) -> list[str]:
    return Path(uri[len("file://") :]).read_text(encoding="utf-8").split("\n")[:-1]


async def test_report_ppl_column_sort_filter_and_histogram(client):
    uri, lines, model = _sample(client)
    configure(client, metrics=["ppl"], lm={"model": "lm/asr.arpa"})
    open_doc(client, Path(uri[len("file://") :]))
    await _until_ppl(client, uri)
    k = kenlm.Model(str(model))
    expected = [k.perplexity(line) for line in lines]

    everything = await request(client, uri=uri)
    assert everything["columns"] == ["line", "ppl"]
    assert [r["ppl"] for r in everything["segments"]] == expected  # kenlm's own numbers, exactly
    worst = await request(client, uri=uri, sort="ppl", descending=True, limit=3)
    assert [r["line"] for r in worst["segments"]] == sorted(range(len(lines)), key=lambda i: -expected[i])[:3]
    bound = sorted(expected)[len(expected) // 2]
    high = await request(client, uri=uri, sort="ppl", filters=[{"key": "ppl", "op": ">=", "value": bound}])
    assert [r["line"] for r in high["segments"]] == sorted((i for i, x in enumerate(expected) if x >= bound), key=lambda i: expected[i])
    assert high["total"] == len(high["segments"]) < len(lines)

    h = everything["histograms"]["ppl"]
    logs = [-k.score(line) / (len(line.split()) + 1) for line in lines]
    lo, hi = math.floor(min(logs)), math.ceil(max(logs))
    hi = max(hi, lo + 1)
    assert h["scale"] == "log10" and h["edges"] == [10.0 ** (lo + j * (hi - lo) / 10) for j in range(11)]
    assert sum(h["bins"]) == h["total"] == len(lines) and len(h["bins"]) == 10
    assert h["bins"] == [sum(1 for x in expected if h["edges"][j] <= x < h["edges"][j + 1] or (j == 9 and x == h["edges"][10])) for j in range(10)]
    assert h["mean"] == pytest.approx(sum(expected) / len(expected))

    # an edit: the column follows it
    change(client, uri, 2, (0, 0), (0, len(lines[0])), "zebra " * 5)
    after = await request(client, uri=uri, limit=1)
    assert after["version"] == 2 and after["segments"][0]["ppl"] == k.perplexity("zebra " * 5)


async def test_plain_text_hover_fluency_part(plain_client):
    uri, lines, model = _sample(plain_client)
    await start_plain(plain_client, {"debounceMs": 0, "metrics": ["ppl"], "lm": {"model": "lm/asr.arpa"}})
    open_doc(plain_client, Path(uri[len("file://") :]))
    await _until_ppl(plain_client, uri)
    hover = await plain_client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(8, 0)))
    assert hover.contents.kind == types.MarkupKind.PlainText
    text = hover.contents.value
    assert "Fluency (asr.arpa)" in text
    assert f"perplexity {kenlm.Model(str(model)).perplexity(lines[8]):.1f}" in text
    assert "least likely words" in text and '"' in text
    assert "**" not in text and "`" not in text and "- " not in text


async def test_a_reference_opened_alone_with_ppl_only(client):
    d = client.workspace / "lm"
    d.mkdir(exist_ok=True)
    shutil.copy(ROOT / "samples" / "lm" / "asr.arpa", d / "asr.arpa")
    shutil.copy(ROOT / "samples" / "lm" / "call.hyp.txt", d / "call.ref.txt")
    configure(client, metrics=["ppl"], lm={"model": "lm/asr.arpa"})
    uri = open_doc(client, d / "call.ref.txt")
    got = await _until_ppl(client, uri)
    assert got["references"] == []
    diags = await diagnostics(client, uri)
    assert not [d for d in diags if str(d.code).startswith("pairing.")]
    assert sorted(d.range.start.line + 1 for d in by_code(diags, "lm.unlikely")) == PLANTED


async def test_an_open_reference_gets_its_own_lm_findings(client):
    d = client.workspace / "lm"
    d.mkdir(exist_ok=True)
    shutil.copy(ROOT / "samples" / "lm" / "asr.arpa", d / "asr.arpa")
    lines = (ROOT / "samples" / "lm" / "call.hyp.txt").read_text(encoding="utf-8").split("\n")[:-1]
    clean = [line for i, line in enumerate(lines) if i + 1 not in PLANTED]
    (d / "call.hyp.txt").write_text("\n".join(clean[: len(lines)] + clean[: len(lines) - len(clean)]) + "\n", encoding="utf-8")
    (d / "call.ref.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")  # the planted lines are the reference's
    configure(client, metrics=["bleu", "ppl"], lm={"model": "lm/asr.arpa"})
    ref = open_doc(client, d / "call.ref.txt")
    hyp = open_doc(client, d / "call.hyp.txt")
    got = await _until_ppl(client, hyp)
    assert got["references"] == [ref] and "bleu" in got["scores"]
    for _ in range(100):
        ref_diags = await diagnostics(client, ref)
        if by_code(ref_diags, "lm.unlikely"):
            break
        await asyncio.sleep(0.05)
    unlikely = sorted(by_code(ref_diags, "lm.unlikely"), key=lambda d: d.range.start.line)
    assert [(d.range.start.line + 1, d.range.end.character) for d in unlikely] == [(n, units(client, lines[n - 1])) for n in PLANTED]


def big_arpa(unigrams: int, bigrams: int) -> str:
    """A bigram ARPA of made-up words, megabytes of it: a load that takes a while."""
    rng = random.Random(1)
    lines = ["\\data\\", f"ngram 1={unigrams + 3}", f"ngram 2={bigrams}", "", "\\1-grams:"]
    lines += ["-1.0\t<unk>\t0", "-99\t<s>\t-0.5", "-1.5\t</s>\t0"]
    lines += [f"-{rng.uniform(3, 6):.4f}\tw{i}\t-{rng.uniform(0.1, 1):.4f}" for i in range(unigrams)]
    lines += ["", "\\2-grams:"]
    pairs = set()
    while len(pairs) < bigrams:
        pairs.add((rng.randrange(unigrams), rng.randrange(unigrams)))
    lines += [f"-{rng.uniform(0.5, 3):.4f}\tw{a} w{b}" for a, b in sorted(pairs)]
    return "\n".join([*lines, "", "\\end\\", ""])


def _loading(client) -> list:
    return [r for r in client.progress_reports.values() if r and r[0].kind == "begin" and r[0].title == "ScoreLens: loading language model"]


async def _until_loading(client, before: int = 0) -> list:
    """The reports of the first model load to begin after ``before`` loads."""
    for _ in range(400):
        if len(_loading(client)) > before:
            return _loading(client)[before]
        await asyncio.sleep(0.01)
    raise TimeoutError("no model load began")


async def test_the_loop_answers_while_a_model_loads(client):
    (client.workspace / "big.arpa").write_text(big_arpa(100_000, 200_000), encoding="utf-8")
    a, _ = write_pair(client, "a", "w1 w2 w3\nw4 w5\n", "w1 w2 w3\nw4 w6\n")
    b, _ = write_pair(client, "b", "the cat sat\n", "the cat sat down\n")
    configure(client, metrics=["bleu", "ppl"], lm={"model": "big.arpa"})
    reports = await _until_loading(client)
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(b), types.Position(0, 4)))
    assert "BLEU" in hover.contents.value
    assert reports[-1].kind != "end"  # answered while the model was still loading
    await _until_ppl(client, a)
    assert reports[-1].kind == "end"
