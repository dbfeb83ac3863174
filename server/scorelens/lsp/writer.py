"""The ordered writer: every message to the client, framed and written in the order it was sent.

Standard output is written by a thread of its own: writing blocks until the client reads, and a
whole 100,000-line document's inlay hints are 55 MB (Neovim asks them after every change), which
held the event loop, and every request behind them, until the client had read nearly all of it.
An answer already encoded (:class:`RawResult`) is framed and joined by that thread, a slice of its
items at a time.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
import queue
import sys
import threading
from collections.abc import Callable

from pygls.io_ import StdoutWriter

log = logging.getLogger(__name__)

SLICE_ITEMS = 1024  # a message's items joined at a time by the writing thread (~0.5 MB of hints)
DRAIN_POLL_S = 0.005


class RawResult:
    """A request's result already encoded: the items of a JSON array, each as UTF-8 JSON text,
    between ``head`` and ``tail`` (by default the array's brackets; an object whose last member
    is the array ends it with its own)."""

    def __init__(self, items: list[bytes], head: bytes = b"[", tail: bytes = b"]") -> None:
        self.items = items
        self.head = head
        self.tail = tail


class OrderedWriter:
    """The connection to the client.

    Standard output is written by a thread of its own, in the order messages are sent. The queue
    holds the messages' bytes as built, not copies. Other writers (pygls's TCP and WebSocket ones,
    tests' sinks) are written directly.

    Once the client has closed the connection, writes are dropped and ``on_closed()`` is called
    (the server stops at the end of its input), quietly: pygls would log a BrokenPipeError
    traceback for every later write.
    """

    def __init__(self, writer, on_closed: Callable[[], None]) -> None:
        self._writer = writer
        self._on_closed = on_closed
        self.closed = False
        self._queue: queue.Queue | None = None
        self._queued = self._written = 0  # messages given to the thread, and those it is done with
        if isinstance(writer, StdoutWriter):
            self._queue = queue.Queue()
            threading.Thread(target=self._write_queued, name="scorelens-stdout", daemon=True).start()

    def write(self, data: bytes):
        """Send one message, framed (pygls's messages)."""
        if self.closed:
            return None
        if self._queue is not None:
            self._put(data)
            return None
        return self._write_now(data)

    def send(self, head: bytes, items: list[bytes] | None = None, tail: bytes = b"") -> None:
        """Send one message whose body is ``head``, then ``items`` joined by commas, then ``tail``:
        framed and joined by the writing thread, a slice at a time, as 55 MB joined at once held
        the loop 60 ms and doubled the answer in memory."""
        if self.closed:
            return
        message = (head, items or [], tail)
        if self._queue is not None:
            self._put(message)
            return
        sent = self._write_now(b"".join(_chunks(message)))
        if inspect.isawaitable(sent):  # the TCP and WebSocket writers
            asyncio.ensure_future(sent)

    def _put(self, message) -> None:
        self._queued += 1
        self._queue.put(message)

    def _write_queued(self) -> None:
        while True:
            message = self._queue.get()
            try:
                for chunk in () if self.closed else _chunks(message):
                    if self._write_now(chunk) is False:
                        break
            except Exception:  # a bug here would otherwise stop all output, silently
                log.exception("writing to the client failed")
            finally:
                self._written += 1
                self._queue.task_done()

    def _write_now(self, data: bytes):
        """Write, or return False if the client has closed the connection."""
        try:
            return self._writer.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.closed = True
            log.info("the client closed the connection; stopping")
            if isinstance(self._writer, StdoutWriter):
                # what is left in stdout's buffer would fail again, loudly, when Python exits
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            self._on_closed()
            return False

    @property
    def waiting(self) -> bool:
        """Whether the writing thread has messages not yet written."""
        return self._queue is not None and self._written < self._queued

    async def drained(self) -> None:
        """Until what was sent so far is written (the client has read all but the pipe's buffer):
        a request about to build a large answer waits for the one before it rather than queue
        another 55 MB beside it while the client is slow to read."""
        sent = self._queued
        while self._written < sent:
            await asyncio.sleep(DRAIN_POLL_S)

    def flush(self) -> None:
        """Wait until what is queued is written (or dropped, the client gone)."""
        if self._queue is not None:
            self._queue.join()

    def close(self):
        """On ``exit``: what was sent before (the answer to ``shutdown``) is written first."""
        self.flush()
        if self.closed:
            return None
        self.closed = True  # nothing after exit
        try:
            return self._writer.close()
        except (BrokenPipeError, ConnectionResetError):
            return None


def _chunks(message: bytes | tuple[bytes, list[bytes], bytes]):
    """The bytes of a message given to :class:`OrderedWriter`, in chunks: a framed message as it
    is; ``(head, items, tail)`` framed, with its items joined by commas ``SLICE_ITEMS`` at a time
    (each join holds the interpreter's lock, so a short one leaves it to the event loop soon)."""
    if isinstance(message, bytes):
        yield message
        return
    head, items, tail = message
    slices = range(0, len(items), SLICE_ITEMS)
    length = len(head) + max(len(items) - 1, 0) + len(tail)
    for k in slices:
        length += sum(map(len, items[k : k + SLICE_ITEMS]))
    yield b"Content-Length: %d\r\n\r\n" % length + head
    for k in slices:
        yield b",".join([b""] * (k > 0) + items[k : k + SLICE_ITEMS])  # the comma before, after the first
    if tail:
        yield tail
