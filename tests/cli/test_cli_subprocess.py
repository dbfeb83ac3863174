"""The CLI as users and CI run it: ``python -m scorelens`` in a fresh interpreter, real pipes and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU

from cli_support import ROOT, peer_lines, run_subprocess, sample

MT_HYP = sample("mt/news.hyp.en")
MT_REFS = [sample("mt/news.ref.en"), sample("mt/news.ref2.en")]


def test_score_json_equals_in_process_and_sacrebleu(run):
    result = run_subprocess("score", MT_HYP, "-r", MT_REFS[0], "-r", MT_REFS[1], "--json")
    assert result.code == 0, result.err
    out = json.loads(result.out)
    assert out == json.loads(run("score", MT_HYP, "-r", MT_REFS[0], "-r", MT_REFS[1], "--json").out)
    expected = BLEU().corpus_score(peer_lines(MT_HYP), [peer_lines(r) for r in MT_REFS])
    assert out["bleu"]["score"] == pytest.approx(expected.score, rel=1e-9)


def test_relative_paths_and_naming_convention_from_the_repository_root():
    result = run_subprocess("check", "samples/asr/call.hyp.txt", "--metrics", "wer", cwd=ROOT)
    assert result.code == 0
    assert result.err == "scorelens: samples/asr/call.hyp.txt: references found by name: samples/asr/call.ref.txt\n"
    first = result.out.splitlines()[0]
    assert first.startswith("samples/asr/call.")


def test_check_threshold_exit_code_1():
    result = run_subprocess("check", MT_HYP, "-r", MT_REFS[0], "--min-bleu", "99", "--format", "github")
    assert result.code == 1
    assert result.out.splitlines()[-1].startswith("::error title=scorelens threshold::BLEU ")
    assert "is below --min-bleu 99" in result.out.splitlines()[-1]
    assert result.out.startswith("::notice file=")


def test_stdin_pipe():
    data = Path(MT_HYP).read_bytes()
    piped = run_subprocess("score", "-", "-r", MT_REFS[0], "--json", stdin=data)
    named = run_subprocess("score", MT_HYP, "-r", MT_REFS[0], "--json")
    assert piped.code == 0, piped.err
    assert json.loads(piped.out) == json.loads(named.out)


def test_bad_input_is_one_line_without_traceback(tmp_path):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes(b"ok\ncaf\xe9\n")
    result = run_subprocess("score", bad, "-r", MT_REFS[0])
    assert result.code == 2
    assert result.out == ""
    assert result.err == f"scorelens: error: {bad}: not UTF-8: byte 0xe9 at byte offset 6 (line 2)\n"


def test_help_text():
    result = run_subprocess("score", "--help")
    assert result.code == 0
    for option in ("-tok", "--tokenize", "-lc", "--lowercase", "-s", "--smooth-method", "--smooth-value",
                   "--max-ngram-order", "--rouge-tokenizer", "--stem", "--wer-transform", "--segmentation",
                   "--metrics", "--json", "-l"):
        assert f" {option}" in result.out


def test_console_script_when_installed():
    script = Path(sys.executable).parent / ("scorelens.exe" if os.name == "nt" else "scorelens")
    if not script.exists():
        pytest.skip("the scorelens console script is not installed in this environment")
    done = subprocess.run([str(script), "score", MT_HYP, "-r", MT_REFS[0], "--json", "--metrics", "wer"],
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) == {"wer", "segments"}


def test_scoring_imports_neither_the_server_nor_pygls():
    code = (
        "import sys; from scorelens.cli import main; "
        f"rc = main(['score', {MT_HYP!r}, '-r', {MT_REFS[0]!r}, '--json']); "
        "print(rc, 'scorelens.lsp.server' in sys.modules, 'pygls' in sys.modules, file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    assert done.stderr.decode().strip() == "0 False False"


def test_a_command_imports_only_what_it_runs():
    # start-up is most of a small file's run: the package loads no command, and a command loads
    # neither the others' modules nor libraries it does not use
    code = (
        "import json, sys; import scorelens.cli; loaded = set(sys.modules); "
        "from scorelens.cli import main; "
        f"rc = main(['score', {MT_HYP!r}, '-r', {MT_REFS[0]!r}, '--json']); "
        "print(json.dumps([rc, sorted(loaded), sorted(sys.modules)]), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    rc, on_import, after_score = json.loads(done.stderr.decode().splitlines()[-1])
    assert rc == 0
    assert not {"scorelens.api", "scorelens.core", "scorelens.cli.options", "numpy", "rapidfuzz", "regex"} & set(on_import)
    others = {f"scorelens.cli.{name}" for name in ("check", "compare", "agree", "qa", "serve")}
    unused = {"scorelens.api.agreement", "scorelens.api.corpus", "scorelens.core.qa", "nltk", "translate"}
    assert not (others | unused) & set(after_score)
    assert "scorelens.cli.score" in after_score


def test_output_to_a_closed_pipe_is_quiet(tmp_path):
    # `scorelens check ... | head -1`: the reader leaves early; no BrokenPipeError traceback.
    # Far more output than a pipe buffers, so the write really fails.
    hyp, ref = tmp_path / "big.hyp.txt", tmp_path / "big.ref.txt"
    hyp.write_text("the cat sat on their mat today\n" * 5000, encoding="utf-8")
    ref.write_text("a cat sat on there mat\n" * 5000, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorelens", "check", hyp, "-r", ref],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout.readline().startswith(str(hyp).encode())
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert stderr == ""


def _lsp_message(payload: dict) -> bytes:
    body = json.dumps(payload).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read_lsp_message(stream) -> dict:
    length = None
    while True:
        header = stream.readline()
        assert header, "the server closed its output"
        if header in (b"\r\n", b"\n"):
            break
        name, _, value = header.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(stream.read(length))


def test_serve_speaks_lsp_over_stdio():
    """`python -m scorelens serve --stdio` as VS Code starts it: initialize, shutdown, exit."""
    import importlib.util

    if importlib.util.find_spec("scorelens.lsp.server") is None:
        pytest.skip("the language server is not built yet")
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorelens", "serve", "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        proc.stdin.write(
            _lsp_message(
                {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                 "params": {"processId": None, "rootUri": None, "capabilities": {}}}
            )
        )
        proc.stdin.flush()
        while True:  # skip notifications the server may send first
            reply = _read_lsp_message(proc.stdout)
            if reply.get("id") == 1:
                break
        assert "capabilities" in reply["result"]
        proc.stdin.write(_lsp_message({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
        proc.stdin.write(_lsp_message({"jsonrpc": "2.0", "method": "exit"}))
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
