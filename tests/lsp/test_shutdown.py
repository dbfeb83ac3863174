"""Shutdown as editors do it: requests after ``shutdown``, and a pipe closed without ``exit``;
what an ordinary session leaves on stderr; and what the process sets up before it serves.

Driven over raw stdio (not pytest-lsp): the point is what the server writes to a pipe and to
stderr once the client has gone.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from collections.abc import Iterator

import pytest
from lsp_support import SAMPLES

HYP = SAMPLES / "asr" / "call.hyp.txt"


def _frame(message: dict) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def _read(stream) -> dict:
    length = 0
    while True:
        line = stream.readline()
        assert line, "the server closed its output"
        if line == b"\r\n":
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(stream.read(length))


@contextlib.contextmanager
def _server() -> Iterator[subprocess.Popen]:
    """The server over stdio, killed and its pipes closed however the test ends."""
    server = subprocess.Popen(
        [sys.executable, "-m", "scorelens", "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        yield server
    finally:
        server.kill()
        server.wait()
        server.stdout.close()
        server.stderr.close()


def _session_start() -> list[bytes]:
    text_document = {"uri": HYP.as_uri(), "languageId": "plaintext", "version": 1, "text": HYP.read_text(encoding="utf-8")}
    return [
        _frame({"id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": SAMPLES.as_uri()}}),
        _frame({"method": "initialized", "params": {}}),
        _frame({"method": "textDocument/didOpen", "params": {"textDocument": text_document}}),
    ]


def _inlay_hints(msg_id: int) -> bytes:
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 100, "character": 0}}
    return _frame({"id": msg_id, "method": "textDocument/inlayHint", "params": {"textDocument": {"uri": HYP.as_uri()}, "range": whole}})


@pytest.mark.timeout(30)  # without an answer the read below would wait for ever
def test_requests_after_shutdown_get_invalid_request():
    with _server() as server:
        server.stdin.write(b"".join(_session_start()) + _frame({"id": 2, "method": "shutdown"}) + _inlay_hints(3))
        server.stdin.flush()
        answers = {}
        while 3 not in answers:
            message = _read(server.stdout)
            if "id" in message and "method" not in message:
                answers[message["id"]] = message
        assert answers[2]["result"] is None
        assert answers[3]["error"]["code"] == -32600  # InvalidRequest
        server.stdin.write(_frame({"method": "exit"}))
        server.stdin.close()
        assert server.wait(20) == 0


@pytest.mark.timeout(30)
def test_shutdown_while_an_open_waits_for_the_clients_settings():
    # The server asks workspace/configuration on open; the client shuts down before answering.
    with _server() as server:
        start = _session_start()
        start[0] = _frame(
            {"id": 1, "method": "initialize", "params": {"capabilities": {"workspace": {"configuration": True}}, "rootUri": SAMPLES.as_uri()}}
        )
        server.stdin.write(b"".join(start))
        server.stdin.flush()
        while _read(server.stdout).get("method") != "workspace/configuration":
            pass
        server.stdin.write(_frame({"id": 2, "method": "shutdown"}))
        server.stdin.flush()
        while "id" not in (answer := _read(server.stdout)) or answer["id"] != 2:
            pass
        assert answer.get("result", "missing") is None, answer
        server.stdin.write(_frame({"method": "exit"}))
        server.stdin.close()
        assert server.wait(20) == 0


def test_a_closed_pipe_ends_the_server_without_tracebacks():
    # As Neovim closes: shutdown, two more requests, then both pipes closed without reading the answers.
    with _server() as server:
        server.stdout.close()
        server.stdin.write(b"".join(_session_start()) + _frame({"id": 2, "method": "shutdown"}) + _inlay_hints(3) + _inlay_hints(4))
        server.stdin.close()
        assert server.wait(20) == 0
        stderr = server.stderr.read().decode()
        assert "Traceback" not in stderr and "BrokenPipeError" not in stderr, stderr


@pytest.mark.timeout(30)
def test_a_cancellation_that_crossed_its_answer_leaves_nothing_on_stderr():
    # VS Code cancels requests whose answers are already on their way, several a second while
    # the user types; pygls warns of each, and VS Code shows stderr as error lines.
    with _server() as server:
        server.stdin.write(b"".join(_session_start()) + _inlay_hints(2))
        server.stdin.flush()
        while _read(server.stdout).get("id") != 2:
            pass
        server.stdin.write(_frame({"method": "$/cancelRequest", "params": {"id": 2}}) + _frame({"id": 3, "method": "shutdown"}))
        server.stdin.flush()
        while _read(server.stdout).get("id") != 3:
            pass
        server.stdin.write(_frame({"method": "exit"}))
        server.stdin.close()
        assert server.wait(20) == 0
        stderr = server.stderr.read().decode()
        assert "Cancel notification" not in stderr, stderr


def test_what_the_imports_made_is_frozen_before_serving():
    # ~60,000 objects that live as long as the process: left in the collector's generations,
    # each full collection walked them again, holding the event loop 50-85 ms
    code = "import gc; from scorelens.lsp import server as s; s.server.start_io = lambda: print(gc.get_freeze_count()); s.main()"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert int(run.stdout) > 30_000
