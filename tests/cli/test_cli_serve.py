"""``scorelens serve``: hands over to scorelens.lsp.server.main, imported only when serving."""

from __future__ import annotations

import sys
import types

import pytest


@pytest.fixture
def fake_server(monkeypatch):
    calls = []
    module = types.ModuleType("scorelens.lsp.server")
    module.main = lambda: calls.append(None)
    monkeypatch.setitem(sys.modules, "scorelens.lsp.server", module)
    return calls


@pytest.fixture
def fake_listener(monkeypatch):
    """What ``serve --tcp`` would listen on, without listening."""
    from scorelens.lsp import tcp

    calls = []
    monkeypatch.setattr(tcp, "listen", lambda host, port: (host, port))
    monkeypatch.setattr(tcp, "serve", lambda listener, once: calls.append((listener, once)))
    return calls


def test_stdio_by_default_and_stdio_flag_accepted(run, fake_server):
    assert run("serve").code == 0
    assert run("serve", "--stdio").code == 0  # what VS Code's client appends
    assert fake_server == [None, None]


@pytest.mark.parametrize(
    "value, expected",
    [("127.0.0.1:2087", ("127.0.0.1", 2087)), ("[::1]:9000", ("::1", 9000)), (":2087", ("127.0.0.1", 2087))],
)
def test_tcp(run, fake_server, fake_listener, value, expected):
    result = run("serve", "--tcp", value)
    assert result.code == 0
    assert fake_listener == [(expected, False)]
    assert fake_server == []  # each client gets its own stdio server, started by the listener
    assert result.out == ""


def test_tcp_once(run, fake_listener):
    assert run("serve", "--tcp", ":2087", "--once").code == 0
    assert fake_listener == [(("127.0.0.1", 2087), True)]


@pytest.mark.parametrize("value", ["localhost", "localhost:http", "localhost:70000"])
def test_bad_tcp_address(run, fake_server, value):
    result = run("serve", "--tcp", value)
    assert result.code == 2
    assert "expected HOST:PORT" in result.err
    assert fake_server == []


def test_not_built_yet(run, monkeypatch):
    monkeypatch.setitem(sys.modules, "scorelens.lsp.server", None)  # import fails as if absent
    result = run("serve")
    assert result.code == 2
    assert result.out == ""
    assert result.err == "scorelens: the language server is not built yet (scorelens.lsp.server.main)\n"
