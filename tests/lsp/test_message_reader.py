"""The server's reader of standard input (wire.MessageReader) under pygls's own message loop:
the messages pygls's reader would give, each read in one trip through the executor."""

from __future__ import annotations

import asyncio
import io
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from pygls.io_ import StdinAsyncReader, run_async

from scorelens.lsp.wire import BoundedReader, MessageReader


class _Protocol:
    """What run_async needs of a protocol: the messages it hands over, in order."""

    def __init__(self) -> None:
        self.messages: list = []

    def structure_message(self, data):
        return data

    def handle_message(self, message) -> None:
        self.messages.append(message)


class _CountingExecutor(ThreadPoolExecutor):
    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.calls = 0

    def submit(self, fn, /, *args, **kwargs):
        self.calls += 1
        return super().submit(fn, *args, **kwargs)


def _framed(body: bytes, extra: bytes = b"") -> bytes:
    return b"Content-Length: %d\r\n" % len(body) + extra + b"\r\n" + body


def _read_all(data: bytes, max_message: int = 1 << 20, reader_class=MessageReader) -> tuple[list, int]:
    protocol, executor = _Protocol(), _CountingExecutor()
    reader = reader_class(BoundedReader(io.BufferedReader(io.BytesIO(data)), max_message), executor)
    asyncio.run(asyncio.wait_for(run_async(threading.Event(), reader, protocol), 10))
    executor.shutdown()
    return protocol.messages, executor.calls


def test_each_message_is_read_in_one_trip_through_the_executor():
    bodies = [{"jsonrpc": "2.0", "id": i, "method": "textDocument/hover", "params": {"n": "é" * i}} for i in range(5)]
    data = b"".join(_framed(json.dumps(b).encode()) for b in bodies)
    messages, calls = _read_all(data)
    assert messages == bodies
    assert calls == len(bodies) + 1  # and one that finds the end of the input


@pytest.mark.parametrize(
    "data, expected",
    [
        # another header after Content-Length, as the LSP allows
        (_framed(b'{"a":1}', b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"), [{"a": 1}]),
        # a blank line before any Content-Length is skipped, as pygls skips it
        (b"\r\n" + _framed(b'{"a":1}'), [{"a": 1}]),
        # input that ends inside a body: nothing is handled, nothing hangs
        (b"Content-Length: 50\r\n\r\n{", []),
        # input that ends inside the headers
        (b"Content-Length: 5\r\n", []),
        # a message over the limit ends the input
        (_framed(b"[" + b"0," * 100 + b"0]") + _framed(b'{"a":1}'), []),
    ],
    ids=["content-type", "blank-first", "cut-body", "cut-headers", "over-limit"],
)
def test_messages_are_those_pygls_reads(data, expected):
    assert _read_all(data, max_message=100)[0] == expected == _read_all(data, 100, StdinAsyncReader)[0]
