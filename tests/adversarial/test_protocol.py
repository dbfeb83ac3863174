"""#10 point 11: malformed protocol input is answered, or refused, and never ends the server
by surprise; no traceback ever reaches the client."""

from __future__ import annotations

import json
import time
from concurrent.futures import Future

import pytest

from hostile import ServerGone

INVALID_PARAMS = -32602


def _position(line, character=0) -> dict:
    return {"line": line, "character": character}


@pytest.fixture
def opened(serve, workspace):
    server = serve()
    uri = server.open(workspace / "asr" / "call.hyp.txt")
    server.diagnostics(uri, until=bool)
    return server, uri


@pytest.mark.parametrize(
    "method, params, where",
    [
        ("textDocument/hover", {"position": _position("x")}, "position.line"),
        ("textDocument/hover", {"position": _position(-1)}, "position"),
        ("textDocument/hover", {"position": _position(2**31)}, "position"),
        ("textDocument/hover", {"position": _position(0, 2**31)}, "position"),
        ("textDocument/hover", [], "params"),
        ("textDocument/hover", None, "params"),
        ("textDocument/hover", ..., "params"),
        ("textDocument/inlayHint", {"range": "all"}, "range"),
        ("textDocument/codeAction", {"range": "all", "context": {"diagnostics": []}}, "range"),
        ("textDocument/codeLens", {"textDocument": 5}, "text_document"),
        ("textDocument/hover", {"textDocument": {"uri": 7}, "position": _position(0)}, "uri"),
        ("workspace/executeCommand", {"command": "scorelens.pair", "arguments": {"a": 1}}, "arguments must be an array"),
    ],
)
def test_wrong_typed_params_are_answered_with_invalid_params(opened, method, params, where):
    server, uri = opened
    if isinstance(params, dict) and "textDocument" not in params:
        params = {"textDocument": {"uri": uri}, **params}
    answer = server.request(method, params, timeout=10)
    error = answer.get("error")
    assert error is not None and error["code"] == INVALID_PARAMS, answer
    assert error["message"].startswith(f"invalid params for {method}: ") and where in error["message"], error
    assert "data" not in error or error["data"] is None
    server.assert_alive()
    server.assert_no_traceback()


def test_notifications_with_wrong_typed_params_are_dropped(opened, workspace):
    server, uri = opened
    server.notify("textDocument/didOpen", {"textDocument": 5})
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": "x"}, "contentChanges": "all"})
    server.notify("textDocument/didClose", [])
    server.notify("workspace/didChangeConfiguration", None)
    server.assert_alive()
    # the document is still there, unchanged: a hover on its first word answers
    answer = server.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": _position(0, 1)})
    assert answer.get("result") is not None, answer
    server.assert_no_traceback()


@pytest.mark.parametrize(
    "arguments, message",
    [
        ("notalist", "arguments must be an array"),
        (["HYP", "notalist"], "references must be a list of URIs"),
        (["HYP", [5]], "references must be a list of URIs"),
        (["HYP", []], "at least one reference"),
        ([5, ["REF"]], "hypothesis must be a URI"),
        (["HYP"], "Expected 2 arguments, got 1"),
        (["HYP", ["REF"], "extra"], "Expected 2 arguments, got 3"),
    ],
)
def test_pair_arguments_are_validated(opened, workspace, arguments, message):
    server, uri = opened
    ref = (workspace / "asr" / "call.ref.txt").as_uri()
    if isinstance(arguments, list):
        arguments = [uri if a == "HYP" else [ref if r == "REF" else r for r in a] if isinstance(a, list) else a for a in arguments]
    answer = server.request("workspace/executeCommand", {"command": "scorelens.pair", "arguments": arguments}, timeout=10)
    assert answer.get("error", {}).get("code") == INVALID_PARAMS, answer
    assert message in answer["error"]["message"], answer
    server.assert_alive()
    server.assert_no_traceback()


@pytest.mark.parametrize(
    "command, arguments, message",
    [
        ("scorelens.unpair", [5], "hypothesis must be a URI"),
        ("scorelens.report", [{"uri": "x"}], "hypothesis must be a URI"),
        ("scorelens.openReference", ["file:///not/paired.txt"], "is not a paired hypothesis"),
        ("scorelens.applyFix", ["x"], "a fix's data"),
        ("scorelens.applyFix", [{"fix": "replace", "uri": "file:///a", "range": "all", "text": "x"}], "a fix's data"),
        ("scorelens.setRougeTokenizer", ["nltk"], "unknown ROUGE tokenizer"),
        ("scorelens.nothing", [], "is not defined"),
    ],
)
def test_other_command_arguments_are_validated(opened, command, arguments, message):
    server, _ = opened
    answer = server.request("workspace/executeCommand", {"command": command, "arguments": arguments}, timeout=10)
    assert answer.get("error", {}).get("code") == INVALID_PARAMS, answer
    assert message in answer["error"]["message"], answer
    server.assert_alive()
    server.assert_no_traceback()
    # an answer the protocol expects, not a failure of the server: no "internal error" in the
    # client's log, no traceback in the server's
    assert not any(m.get("method") == "window/logMessage" and "internal error" in m["params"]["message"] for m in server.received)
    server.request("shutdown", None, timeout=10)  # stderr is written before this is answered
    assert "Traceback" not in server.stderr


def test_a_failing_handler_answers_internal_error_without_a_traceback():
    """An unexpected exception in a request handler: -32603 with a short message; the traceback
    stays in the log. (In process: no handler of ours fails on purpose.)"""
    from scorelens.lsp.server import ScoreLensServer

    sent: list[bytes] = []

    class Writer:
        def write(self, data: bytes) -> None:
            sent.append(data)

        def close(self) -> None:
            pass

    ls = ScoreLensServer()
    ls.protocol.set_writer(Writer())
    failed: Future = Future()
    try:
        raise ValueError("x" * 1000)
    except ValueError as exc:
        failed.set_exception(exc)
    ls.protocol._send_handler_result(failed, msg_id=7)
    answers = [json.loads(m.split(b"\r\n\r\n", 1)[1]) for m in sent]
    answer = next(a for a in answers if a.get("id") == 7)
    assert answer["error"]["code"] == -32603
    assert answer["error"]["message"].startswith("ScoreLens internal error: ValueError: xxx")
    assert len(answer["error"]["message"]) < 400 and answer["error"].get("data") is None
    assert not any(b"Traceback" in m or b"traceback" in m for m in sent)


def test_a_huge_content_length_is_refused_without_reading(serve):
    server = serve()
    server.send_bytes(b"Content-Length: 100000000000000\r\n\r\n{}")
    with pytest.raises(ServerGone):
        server.request("scorelens/ping", {}, timeout=20)
    assert server.proc.wait(20) is not None
    assert "over the limit of 268435456; closing the connection" in server.stderr
    assert "MemoryError" not in server.stderr


def test_an_endless_header_line_is_refused(serve):
    server = serve()
    with pytest.raises(ServerGone):  # while writing the line, or waiting for the answer
        server.send_bytes(b"X-Junk: " + b"a" * 100_000)
        server.request("scorelens/ping", {}, timeout=20)
    assert server.proc.wait(20) is not None
    assert "a header line longer than 8192 bytes; closing the connection" in server.stderr


@pytest.mark.parametrize("error", [-40, -10, 10, 40])
def test_a_wrong_content_length_loses_one_message_not_the_connection(serve, error):
    server = serve()
    body = json.dumps({"jsonrpc": "2.0", "id": 99, "method": "scorelens/ping", "params": {}}).encode()
    # a body shorter than its header says takes the start of the next message with it: two follow
    server.send_bytes(b"Content-Length: %d\r\n\r\n%s" % (len(body) + error, body))
    server.send_bytes(b"Content-Length: %d\r\n\r\n%s" % (len(body), body.replace(b"99", b"98")))
    assert server.request("scorelens/ping", {}, timeout=20) is not None
    deadline = time.monotonic() + 10  # stderr is read by a thread of its own
    while "did not end where its Content-Length said" not in server.stderr and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.stderr.count("did not end where its Content-Length said") == 1
    server.assert_alive()


def test_garbage_between_messages_is_skipped(opened):
    server, _ = opened
    server.send_bytes(b"Content-Length: 5\r\n\r\nnot j")  # not JSON
    server.send_bytes(b"Content-Length: 2\r\n\r\n[]")  # JSON, not a message
    server.send_bytes(b'Content-Length: 17\r\n\r\n{"jsonrpc":"2.0"}')  # neither request nor notification
    server.assert_alive()
    server.assert_no_traceback()
