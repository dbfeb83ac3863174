"""#10 point 12: ``serve --tcp`` serves one client at a time, each from a clean state, refuses a
second one clearly, outlives its clients (unless ``--once``), and says so in one line when the
port is taken."""

from __future__ import annotations

import socket

import pytest

from hostile import Listener, assert_one_line_error, run_cli


@pytest.fixture
def listen(workspace):
    started: list[Listener] = []

    def start(*options: str) -> Listener:
        listener = Listener(workspace, *options)
        started.append(listener)
        return listener

    yield start
    for listener in started:
        listener.close()


def _hover_first_word(client, uri: str) -> dict:
    return client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}})


def test_binds_the_loopback_address_unless_told(listen):
    listener = listen()
    assert f"listening on 127.0.0.1:{listener.port}" in listener.stderr


def test_a_second_client_is_refused_clearly_and_the_first_keeps_its_answers(listen, workspace):
    listener = listen()
    first = listener.client()
    first.initialize()
    uri = first.open(workspace / "asr" / "call.hyp.txt")
    first.diagnostics(uri, until=bool)

    second = listener.client()
    shown = second.wait_for(lambda m: m.get("method") == "window/showMessage", 20)
    assert "already serves a client" in shown["params"]["message"]
    assert second.closed_by_server(20)
    second.disconnect()

    assert _hover_first_word(first, uri).get("result") is not None
    first.assert_alive()
    # nothing of the first client's document went to the second
    assert b"call.hyp.txt" not in second.raw
    first.close()


def test_clients_leaving_do_not_end_the_listener_and_the_next_one_starts_clean(listen, workspace):
    listener = listen()
    first = listener.client()
    first.initialize()
    uri = first.open(workspace / "asr" / "call.hyp.txt")
    first.diagnostics(uri, until=bool)
    first.disconnect()  # no shutdown, no exit: the connection just goes away

    bare = socket.create_connection(("127.0.0.1", listener.port), timeout=10)
    bare.close()  # connect and close at once

    for _ in range(2):
        listener.wait_for_log("disconnected")
    nxt = listener.client()
    nxt.initialize()
    # the first client's open document is unknown to the new one's server
    assert _hover_first_word(nxt, uri).get("result") is None
    nxt.assert_alive()
    nxt.close()
    assert listener.proc.poll() is None


def test_once_ends_with_its_client(listen):
    listener = listen("--once")
    client = listener.client()
    client.initialize()
    client.close()
    assert listener.proc.wait(30) == 0


def test_a_port_in_use_is_a_one_line_error(workspace):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_cli("serve", "--tcp", f"127.0.0.1:{port}", timeout=30)
    assert_one_line_error(done, f"cannot listen on 127.0.0.1:{port}:")
