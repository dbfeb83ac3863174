"""#10 points 1-3 and 13, #39 point 1: special, refused and oversized files, and the byte-order mark.

The server refuses a FIFO or a device it finds before anything is read from it, and a 2 GB file
(the process limits in :mod:`hostile` would fail a case that reads or waits instead); a
reference outside the workspace is refused before it is opened, with the same message whether
it exists or not. The command line reads a pipe or a device the user names (``<(cmd)``,
``/dev/stdin``) as every Unix tool does, up to ``--max-file-bytes``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hostile import assert_one_line_error, run_cli

SECRET = "TOP-SECRET-LINE"
NOT_REGULAR = "not a regular file (a FIFO, device or socket); only files are scored"
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as f:
        f.truncate(size)
    return path


# -- the command line -------------------------------------------------------------------------


@needs_fifo
@pytest.mark.parametrize("side", ["hypothesis", "reference"])
def test_cli_reads_a_fifo_it_is_named(workspace, side):
    fifo = _fifo(workspace / "pipe.txt")
    hyp, ref = workspace / "asr" / "call.hyp.txt", workspace / "asr" / "call.ref.txt"
    piped = hyp if side == "hypothesis" else ref
    writer = subprocess.Popen(["sh", "-c", f'cat "{piped}" > "{fifo}"'])  # as a shell's <(cat FILE) writes
    try:
        argv = [fifo, "-r", ref] if side == "hypothesis" else [hyp, "-r", fifo]
        got = run_cli("score", *argv, "--json", timeout=30)
    finally:
        writer.wait(timeout=30)
    assert got.code == 0, got
    assert json.loads(got.out) == json.loads(run_cli("score", hyp, "-r", ref, "--json").out)


def test_cli_reads_process_substitution_and_dev_stdin(workspace):
    hyp, ref = workspace / "asr" / "call.hyp.txt", workspace / "asr" / "call.ref.txt"
    expected = run_cli("score", hyp, "-r", ref, "--json").out
    script = f'exec "{sys.executable}" -m scorelens score "{hyp}" -r <(cat "{ref}") --json'
    substituted = subprocess.run(["bash", "-c", script], capture_output=True, timeout=60, text=True)
    assert substituted.returncode == 0, substituted.stderr
    assert json.loads(substituted.stdout) == json.loads(expected)
    assert json.loads(run_cli("score", "/dev/stdin", "-r", ref, "--json", stdin=hyp.read_bytes()).out) == json.loads(expected)


def test_cli_reads_a_piped_hypothesis_when_none_is_named(workspace):
    hyp, ref = workspace / "asr" / "call.hyp.txt", workspace / "asr" / "call.ref.txt"
    piped = run_cli("score", "-r", ref, "--json", stdin=hyp.read_bytes())
    assert piped.code == 0, piped
    assert json.loads(piped.out) == json.loads(run_cli("score", hyp, "-r", ref, "--json").out)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_cli_reads_dev_zero_only_to_the_limit(workspace):
    # the process limits of hostile.run_cli fail a read past the limit (2 GB address space)
    assert_one_line_error(
        run_cli("check", workspace / "asr" / "call.hyp.txt", "-r", "/dev/zero", "--max-file-bytes", 1_000_000, timeout=30),
        "/dev/zero: larger than the limit of 1,000,000 bytes (--max-file-bytes)",
    )


def test_cli_refuses_a_file_over_the_default_limit_without_reading_it(workspace, tmp_path):
    big = _sparse(tmp_path / "big.ref.txt", 2 * 1024**3)  # 2 GB of holes: reading it would break the 2 GB address space
    assert_one_line_error(
        run_cli("score", workspace / "asr" / "call.hyp.txt", "-r", big, timeout=30),
        f"{big}: larger than the limit of 67,108,864 bytes (--max-file-bytes)",
    )


def test_cli_max_file_bytes(workspace):
    hyp, ref = workspace / "asr" / "call.hyp.txt", workspace / "asr" / "call.ref.txt"
    size = max(hyp.stat().st_size, ref.stat().st_size)
    assert run_cli("score", hyp, "-r", ref, "--max-file-bytes", size).code == 0
    assert_one_line_error(run_cli("score", hyp, "-r", ref, "--max-file-bytes", size - 1), "larger than the limit of")
    # standard input has the same limit
    assert_one_line_error(
        run_cli("score", "-", "-r", ref, "--max-file-bytes", 10, stdin=hyp.read_bytes()),
        "<stdin>: larger than the limit of 10 bytes (--max-file-bytes)",
    )


@pytest.mark.parametrize("value", ["0", "-5", "1e9", "lots"])
def test_cli_max_file_bytes_must_be_a_positive_count(workspace, value):
    done = run_cli("score", workspace / "asr" / "call.hyp.txt", "--max-file-bytes", value)
    assert done.code == 2 and "expected a number of bytes" in done.err and "Traceback" not in done.err


@pytest.mark.parametrize("option", ["--min-bleu", "--max-wer", "--max-cer", "--min-rouge"])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN"])
def test_cli_thresholds_are_finite_numbers(workspace, option, value):
    done = run_cli("check", workspace / "asr" / "call.hyp.txt", f"{option}={value}")
    assert done.code == 2, done
    assert f"expected a finite number, got {value!r}" in done.err and "Traceback" not in done.err


def test_cli_checks_a_long_repetitive_segment_within_the_limits(tmp_path):
    """Lines that end in a bare "\\r" are one segment, as sacreBLEU reads them: 20,000 of them,
    of a few words repeated, checked against their source. Trying every hypothesis word from
    every place its source has it (and finding each insertion place over the whole text) ran past
    five minutes; each word is now tried from a few places."""
    words = "the house garden tree water runs 12".split()
    for name, step in (("mac.src.en", 3), ("mac.hyp.de", 5)):
        lines = (" ".join(words[(k * step + w * w) % 7] for w in range(12)) + "." for k in range(20_000))
        (tmp_path / name).write_bytes("\r".join(lines).encode() + b"\r")
    run = run_cli("check", tmp_path / "mac.hyp.de", "--format", "json", timeout=60)
    assert run.code in (0, 1), run.err
    report = json.loads(run.out)
    assert report["qa"]["source"].endswith("mac.src.en") and "qa.source-words" in report["qa"]["counts"]
    assert "no partner" not in run.err  # one segment each: they pair


def test_cli_keeps_the_byte_order_mark_as_sacrebleu_does(workspace, tmp_path):
    sacrebleu = Path(sys.executable).with_name("sacrebleu")
    if not sacrebleu.exists():
        pytest.skip(f"sacreBLEU's command line not found at {sacrebleu}")
    hyp, ref = tmp_path / "bom.hyp.txt", workspace / "mt" / "news.ref.en"
    hyp.write_bytes(b"\xef\xbb\xbf" + ref.read_bytes())  # the reference itself, but for the mark
    theirs = subprocess.run(
        [str(sacrebleu), str(ref), "-i", str(hyp), "-f", "json", "-w", "12"], capture_output=True, timeout=60, check=True
    )
    ours = run_cli("score", hyp, "-r", ref, "--metrics", "bleu", "--json")
    assert ours.code == 0, ours
    assert json.loads(ours.out)["bleu"]["score"] == pytest.approx(json.loads(theirs.stdout)["score"], abs=1e-9)
    # the mark is a character of the first word, which then matches nothing
    assert 90 < json.loads(ours.out)["bleu"]["score"] < 100


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_cli_check_names_the_byte_order_mark(workspace, tmp_path, fmt):
    hyp = tmp_path / "bom.hyp.txt"
    hyp.write_bytes(b"\xef\xbb\xbf" + (workspace / "asr" / "call.hyp.txt").read_bytes())
    done = run_cli("check", hyp, "-r", workspace / "asr" / "call.ref.txt", "--format", fmt)
    assert done.code == 0, done
    if fmt == "json":
        first = json.loads(done.out)["findings"][0]
        assert (first["code"], first["line"], first["column"], first["text"]) == ("pairing.byte-order-mark", 1, 1, "\ufeff")
        assert "U+FEFF" in first["message"] and "first word" in first["message"]
    elif fmt == "text":
        assert done.out.splitlines()[0].startswith(f"{hyp}:1:1: pairing.byte-order-mark the file starts with a byte-order mark (U+FEFF)")
    else:
        assert done.out.splitlines()[0].startswith(f"::warning file={hyp},line=1,col=1,endColumn=2,title=pairing.byte-order-mark::")


# -- the language server ----------------------------------------------------------------------


def _pair(server, hyp: Path, *refs: Path | str) -> dict:
    uris = [r if isinstance(r, str) else r.as_uri() for r in refs]
    return server.request("workspace/executeCommand", {"command": "scorelens.pair", "arguments": [hyp.as_uri(), uris]})


def _pairing_messages(server, uri: str, code: str) -> list[str]:
    diags = server.diagnostics(uri, until=lambda ds: any(d["code"] == code for d in ds))
    return [d["message"] for d in diags if d["code"] == code]


@needs_fifo
def test_server_refuses_a_fifo_reference_in_the_workspace(serve, workspace):
    server = serve()
    hyp = workspace / "asr" / "call.hyp.txt"
    fifo = _fifo(workspace / "asr" / "pipe.ref.txt")
    uri = server.open(hyp)
    assert "result" in _pair(server, hyp, fifo)
    assert _pairing_messages(server, uri, "pairing.unreadable-reference") == [f"reference {fifo}: {NOT_REGULAR}"]
    server.assert_alive()


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_server_refuses_dev_zero_even_when_outside_files_are_allowed(serve, workspace):
    server = serve(settings={"allowOutsideWorkspace": True})
    hyp = workspace / "asr" / "call.hyp.txt"
    uri = server.open(hyp)
    _pair(server, hyp, Path("/dev/zero"))
    assert _pairing_messages(server, uri, "pairing.unreadable-reference") == [f"reference /dev/zero: {NOT_REGULAR}"]
    server.assert_alive()


def test_server_says_the_same_about_a_refused_file_whatever_it_holds(serve, workspace):
    """Outside the workspace: existing text, binary, non-UTF-8, a FIFO, a directory, or nothing at
    all; the message is the same (but for the name) and holds nothing of the file."""
    outside = workspace.parent / "outside"
    # neutral names: the names appear in the message, the kinds must not
    refs = {kind: outside / f"r{i}.txt" for i, kind in enumerate(["text", "binary", "latin1", "dir", "absent", "fifo"])}
    refs["text"].write_text(f"{SECRET}\n" * 25, encoding="utf-8")
    refs["binary"].write_bytes(SECRET.encode() + b"\0" * 10)
    refs["latin1"].write_bytes(SECRET.encode() + "é".encode("latin-1"))
    refs["dir"].mkdir()
    if hasattr(os, "mkfifo"):
        _fifo(refs["fifo"])
    else:
        del refs["fifo"]
    server = serve()
    hyp = workspace / "asr" / "call.hyp.txt"
    uri = server.open(hyp)
    seen = {}
    for name, ref in refs.items():
        _pair(server, hyp, ref)
        messages = _pairing_messages(server, uri, "pairing.outside-workspace")
        # nothing else is said about the pairing: no "unreadable", no "missing"
        diags = server.diagnostics(uri, until=lambda ds: any(d["code"] == "pairing.outside-workspace" for d in ds))
        assert {d["code"] for d in diags} == {"pairing.outside-workspace"}
        assert len(messages) == 1 and str(ref) in messages[0]
        seen[name] = messages[0].replace(str(ref), "REF")
        server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        uri = server.open(hyp)
    assert len(set(seen.values())) == 1, seen
    server.assert_alive()
    server.assert_never_said(SECRET, "binary", "UTF-8", "directory", "no such file", "FIFO")


def test_server_refuses_a_reference_over_the_limit(serve, workspace):
    server = serve(settings={"maxFileBytes": 1000})
    hyp = workspace / "asr" / "call.hyp.txt"
    big = workspace / "asr" / "big.ref.txt"
    big.write_text("word " * 400, encoding="utf-8")
    uri = server.open(hyp)
    _pair(server, hyp, big)
    assert _pairing_messages(server, uri, "pairing.unreadable-reference") == [
        f"reference {big}: larger than the limit of 1,000 bytes (scorelens.maxFileBytes)"
    ]
    server.assert_alive()


def test_server_refuses_a_sparse_2gb_reference_without_reading_it(serve, workspace):
    server = serve()
    hyp = workspace / "asr" / "call.hyp.txt"
    big = _sparse(workspace / "asr" / "call.ref.txt", 2 * 1024**3)
    uri = server.open(hyp)
    assert _pairing_messages(server, uri, "pairing.unreadable-reference") == [
        f"reference {big}: larger than the limit of 67,108,864 bytes (scorelens.maxFileBytes)"
    ]
    server.assert_alive()


def test_server_does_not_score_an_open_document_over_the_limit(serve, workspace):
    server = serve(settings={"maxFileBytes": 2000})
    hyp = workspace / "asr" / "call.hyp.txt"
    uri = server.open(hyp, text="a b c\n" * 500)
    diags = server.diagnostics(uri, until=bool)
    assert [(d["code"], d["message"]) for d in diags] == [
        ("pairing.unreadable-hypothesis", f"{hyp}: larger than the limit of 2,000 bytes (scorelens.maxFileBytes)")
    ]
    server.assert_alive()


def test_server_stops_scoring_a_document_edited_past_the_limit_and_resumes_below_it(serve, workspace):
    server = serve(settings={"maxFileBytes": 2000})
    hyp = workspace / "asr" / "call.hyp.txt"
    uri = server.open(hyp)
    assert server.diagnostics(uri, until=bool)[0]["code"] != "pairing.unreadable-hypothesis"

    def insert(version: int, text: str) -> list[dict]:
        at = {"line": 0, "character": 0}
        server.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"range": {"start": at, "end": at}, "text": text}]},
        )
        return server.wait_for(
            lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["version"] == version
        )["params"]["diagnostics"]

    grown = insert(2, "é" * 2000)  # 4,000 bytes more in UTF-8, on the first line
    assert [(d["code"], d["message"]) for d in grown] == [
        ("pairing.unreadable-hypothesis", f"{hyp}: larger than the limit of 2,000 bytes (scorelens.maxFileBytes)")
    ]
    server.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": 3},
            "contentChanges": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 2000}}, "text": ""}],
        },
    )
    back = server.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["version"] == 3)
    assert back["params"]["diagnostics"] and all(d["code"] != "pairing.unreadable-hypothesis" for d in back["params"]["diagnostics"])
    server.assert_alive()


def test_server_marks_the_byte_order_mark(serve, workspace):
    server = serve()
    hyp, ref = workspace / "asr" / "call.hyp.txt", workspace / "asr" / "call.ref.txt"
    ref.write_bytes(b"\xef\xbb\xbf" + ref.read_bytes())  # read from disk: the mark stays
    text = "\ufeff" + hyp.read_text(encoding="utf-8")
    uri = server.open(hyp, text=text)
    marks = [d for d in server.diagnostics(uri, until=bool) if d["code"] == "pairing.byte-order-mark"]
    assert sorted((d["range"]["start"]["character"], d["range"]["end"]["character"], d["message"][:40]) for d in marks) == [
        (0, 0, f"reference {ref}: the file starts "[:40]),
        (0, 1, "the file starts with a byte-order mark ("),
    ]
    assert all("scored as part of the first word" in d["message"] for d in marks)
    # an open reference gets it on its own first character
    ref_uri = server.open(ref, text="\ufeff" + ref.read_text(encoding="utf-8-sig"))
    marks = [d for d in server.diagnostics(ref_uri, until=bool) if d["code"] == "pairing.byte-order-mark"]
    assert [(m["range"]["start"], m["range"]["end"]) for m in marks] == [({"line": 0, "character": 0}, {"line": 0, "character": 1})]
    server.assert_alive()
