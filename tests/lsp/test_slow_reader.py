"""A client slow to read a large answer (Neovim's whole-document inlay hints: 55 MB on 100,000
lines) does not stop the server: it goes on reading and handling messages while the answer waits
in the pipe, and everything reaches the client in the order it was sent, up to the answer to
``shutdown`` sent before ``exit``.

Driven over raw stdio (not pytest-lsp, which reads all the time). No timing: the server shows it
handled a message by logging a dropped notification to stderr while its output pipe is full.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

LINES = 3000  # about 1.5 MB of inlay hints: far more than a pipe holds (64 KB on Linux)


def _frame(message: dict) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def _header(stream) -> int:
    length = 0
    while (line := stream.readline()) != b"\r\n":
        assert line, "the server closed its output"
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return length


def _pair(folder: Path) -> Path:
    rng = random.Random(3)
    words = [f"w{k}" for k in range(300)]
    refs, hyps = [], []
    for _ in range(LINES):
        ref = rng.choices(words, k=20)
        refs.append(" ".join(ref))
        hyps.append(" ".join(w if rng.random() > 0.3 else rng.choice(words) for w in ref[2:]))
    (folder / "doc.ref.txt").write_text("\n".join(refs) + "\n")
    hyp = folder / "doc.hyp.txt"
    hyp.write_text("\n".join(hyps) + "\n")
    return hyp


class _Client:
    """Raw stdio to a ``scorelens serve``; its stderr lines are collected by a thread."""

    def __init__(self) -> None:
        self.server = subprocess.Popen(
            [sys.executable, "-m", "scorelens", "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.stderr: queue.Queue[bytes] = queue.Queue()
        self.stderr_reader = threading.Thread(target=lambda: [self.stderr.put(line) for line in self.server.stderr], daemon=True)
        self.stderr_reader.start()

    def send(self, *messages: dict) -> None:
        self.server.stdin.write(b"".join(map(_frame, messages)))
        self.server.stdin.flush()

    def start_of_answer(self, msg_id: int) -> tuple[int, bytes]:
        """Read messages up to the first bytes of the answer to ``msg_id``, then stop reading."""
        while True:
            length = _header(self.server.stdout)
            start = self.server.stdout.read(min(length, 40))
            if start.startswith(b'{"jsonrpc":"2.0","id":%d,' % msg_id):
                return length, start
            message = json.loads(start + self.server.stdout.read(length - len(start)))
            assert "method" in message or message["id"] < msg_id, message

    def rest_of(self, length: int, start: bytes) -> dict:
        return json.loads(start + self.server.stdout.read(length - len(start)))

    def answers(self, count: int) -> list[dict]:
        """The next ``count`` answers, in the order they arrive (notifications skipped)."""
        answers = []
        while len(answers) < count:
            message = json.loads(self.server.stdout.read(_header(self.server.stdout)))
            if "method" not in message:
                answers.append(message)
        return answers

    def wait_for_log(self, text: bytes) -> None:
        while True:
            try:
                line = self.stderr.get(timeout=60)
            except queue.Empty:
                raise AssertionError("the server handled nothing while its output was full") from None
            if text in line:
                return

    def stderr_text(self) -> str:
        self.stderr_reader.join(30)
        lines = []
        while not self.stderr.empty():
            lines.append(self.stderr.get())
        return b"".join(lines).decode()

    def kill(self) -> None:
        self.server.kill()
        self.server.wait()
        self.server.stdout.close()
        self.server.stdin.close()


@pytest.mark.timeout(120)
def test_the_server_keeps_handling_messages_while_the_client_does_not_read(tmp_path):
    hyp = _pair(tmp_path)
    uri = hyp.as_uri()
    whole = {"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": LINES, "character": 0}}}
    hover = {"textDocument": {"uri": uri}, "position": {"line": 5, "character": 0}}
    client = _Client()
    try:
        document = {"uri": uri, "languageId": "plaintext", "version": 1, "text": hyp.read_text()}
        client.send(
            # no workspace/configuration, progress or registration: the server asks the client nothing
            {"id": 1, "method": "initialize", "params": {"capabilities": {"textDocument": {"inlayHint": {}}}, "rootUri": tmp_path.as_uri()}},
            {"method": "initialized", "params": {}},
            {"method": "textDocument/didOpen", "params": {"textDocument": document}},
            {"id": 2, "method": "textDocument/inlayHint", "params": whole},
        )
        # The client reads up to the start of the hints, then stops: the server is left with the
        # rest of them to write, more than the pipe holds.
        length, start = client.start_of_answer(2)
        assert length > 1_000_000
        # A hover, two more whole-document hint requests (the first superseded by the second while
        # both wait for the client to read), and a notification with invalid params: the server
        # logs it once it has read and handled everything before it.
        client.send(
            {"id": 3, "method": "textDocument/hover", "params": hover},
            {"id": 4, "method": "textDocument/inlayHint", "params": whole},
            {"id": 5, "method": "textDocument/inlayHint", "params": whole},
            {"method": "textDocument/didClose", "params": []},
        )
        client.wait_for_log(b"dropped a textDocument/didClose notification")

        # The client reads again: the hints whole, then the hover's answer, which waited for nothing
        # but them, then the two others (either first: both waited for the output to drain).
        assert len(client.rest_of(length, start)["result"]) > 1000
        answers = client.answers(3)
        assert answers[0]["id"] == 3 and answers[0]["result"] is not None
        by_id = {a["id"]: a["result"] for a in answers[1:]}
        assert by_id[4] is None  # superseded by 5
        assert len(by_id[5]) > 1000

        # Exit while an answer is still being written: what was sent before exit is written first.
        client.send({"id": 6, "method": "textDocument/inlayHint", "params": whole})
        length, start = client.start_of_answer(6)
        client.send({"id": 7, "method": "shutdown"}, {"method": "exit"})
        client.server.stdin.close()
        assert len(client.rest_of(length, start)["result"]) > 1000
        assert client.answers(1) == [{"jsonrpc": "2.0", "id": 7, "result": None}]
        assert client.server.stdout.read() == b""
        assert client.server.wait(30) == 0
        assert "Traceback" not in client.stderr_text()
    finally:
        client.kill()


async def test_a_large_answer_is_framed_in_slices_and_drained_once_read():
    """The writing thread frames an answer of many items (joined a slice at a time, commas
    between slices too), and ``drained()`` waits until the reader has taken it."""
    from pygls.io_ import StdoutWriter
    from scorelens.lsp.writer import SLICE_ITEMS, OrderedWriter

    read_end, write_end = os.pipe()
    pipe = OrderedWriter(StdoutWriter(open(write_end, "wb")), lambda: None)
    items = [b'[%d,"%s"]' % (k, b"x" * 500) for k in range(3 * SLICE_ITEMS + 5)]  # 1.6 MB
    pipe.send(b'{"items":[', items, b"]}")
    pipe.write(b"Content-Length: 2\r\n\r\n{}")
    drained = asyncio.ensure_future(pipe.drained())
    await asyncio.sleep(0.2)
    assert not drained.done()  # nothing read yet: the thread is still writing the first message

    received = bytearray()

    def read() -> None:
        while chunk := os.read(read_end, 1 << 16):
            received.extend(chunk)

    reader = threading.Thread(target=read)
    reader.start()
    await asyncio.wait_for(drained, 30)
    pipe.close()  # closes the write end: the reader sees its end
    reader.join(30)
    os.close(read_end)
    header, rest = bytes(received).split(b"\r\n\r\n", 1)
    length = int(header.split(b":")[1])
    assert json.loads(rest[:length]) == {"items": [[k, "x" * 500] for k in range(len(items))]}
    assert rest[length:] == b"Content-Length: 2\r\n\r\n{}"


def test_items_are_joined_with_commas_across_slices():
    from scorelens.lsp.writer import SLICE_ITEMS, _chunks

    for count in (0, 1, SLICE_ITEMS, SLICE_ITEMS + 1, 2 * SLICE_ITEMS + 1):
        items = [b"%d" % k for k in range(count)]
        header, body = b"".join(_chunks((b"[", items, b"]"))).split(b"\r\n\r\n")
        assert json.loads(body) == list(range(count)) and header == b"Content-Length: %d" % len(body)


async def test_between_slices_the_loop_lets_the_threads_run(monkeypatch):
    """Work done in slices on the event loop waits a moment, without the interpreter lock, while
    the writing thread has messages to write, and at least every THREADS_TURN_EVERY_S: a yield
    alone released the lock only in a select() that does not wait, and the threads (pygls's
    reading ones, the writing one) got it when the work was done (a hover sent while the hints
    were built in the background was read 3.2-3.8 s later). Otherwise it yields twice, so a task
    woken meanwhile runs before the next slice."""
    import time

    from pygls.io_ import StdoutWriter
    from scorelens.lsp import scheduler as scheduling
    from scorelens.lsp.writer import OrderedWriter

    read_end, write_end = os.pipe()
    pipe = OrderedWriter(StdoutWriter(open(write_end, "wb")), lambda: None)
    scheduler = scheduling.Scheduler({}, None, None, lambda: pipe.waiting, None)
    # the threads' last turn in the future: not due, however slow the machine
    scheduler._threads_turn = time.perf_counter() + 3600
    waits = []

    async def sleep(delay):
        waits.append(delay)

    monkeypatch.setattr(scheduling.asyncio, "sleep", sleep)
    await scheduler.next_slice()  # nothing to write, no turn due
    message = b"Content-Length: 200000\r\n\r\n" + b" " * 200_000  # more than the pipe holds: not all written
    pipe.write(message)
    await scheduler.next_slice()
    received = 0
    while received < len(message):
        received += len(os.read(read_end, 1 << 16))
    pipe.flush()
    assert not pipe.waiting
    scheduler._threads_turn = time.perf_counter() - scheduling.THREADS_TURN_EVERY_S
    await scheduler.next_slice()  # nothing to write, but a turn is due
    monkeypatch.undo()
    assert waits == [0, 0, scheduling.THREADS_TURN_S, scheduling.THREADS_TURN_S]
    pipe.close()
    os.close(read_end)
