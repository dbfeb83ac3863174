"""What a misbehaving client can send, answered at the edge of pygls rather than in every handler.

- Params that do not fit the method's type (``line: "x"``, ``-1``, ``2**31``, params ``[]`` or
  ``null``, ``range: "all"``): pygls fails to structure the message while decoding it, before it
  knows the request's id, and the request is never answered. :meth:`GuardedProtocol.structure_message`
  turns such a request into an :class:`_Invalid` that is answered with -32602 InvalidParams naming
  the offending fields; a notification with bad params is logged and dropped.
- A number is not taken for a string (``"uri": 7`` would be the document "7"):
  :func:`strict_converter`.
- Internal errors (-32603) go to the client as a short message; the traceback pygls puts in
  ``data`` stays in the log.
- Standard input is read a whole message per trip through a thread (:class:`MessageReader`),
  which finds the next ``Content-Length:`` header again after a body of another length than its
  header said (the message is lost, those after it are read).
- A ``Content-Length`` over :data:`MAX_MESSAGE_BYTES` (or a header line over
  :data:`MAX_HEADER_LINE` bytes) is not read: :class:`BoundedReader` logs one line and ends the
  connection, as nothing after it can be trusted to be a message boundary.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import deque
from concurrent.futures import Executor
from typing import Any, Awaitable, BinaryIO

import attrs
import cattrs
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol, default_converter

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 256 * 1024 * 1024
MAX_HEADER_LINE = 8192
MAX_ERROR_MESSAGE = 300  # characters of an internal error's message sent to the client


@attrs.define
class _Invalid:
    """A message whose params could not be structured."""

    jsonrpc: str
    method: str
    id: Any
    reason: str


def describe(error: Exception) -> str:
    """``expected int @ $.params.position.line; ...``: where structuring failed, without a traceback."""
    if isinstance(error, cattrs.BaseValidationError):
        return "; ".join(cattrs.transform_error(error))
    return str(error) or type(error).__name__


def _text(value: Any, _type: type) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__}")
    return value


def strict_converter():
    """pygls's converter, except that a number is not taken for a string."""
    converter = default_converter()
    converter.register_structure_hook(str, _text)
    return converter


class GuardedProtocol(LanguageServerProtocol):
    def structure_message(self, data: dict[str, Any]):
        if "jsonrpc" not in data:
            return data  # a nested object; the message itself comes last
        method = data.get("method")
        if method == types.WORKSPACE_EXECUTE_COMMAND:
            # cattrs would take a string as a sequence of one-letter arguments
            params = data.get("params")
            arguments = params.get("arguments") if isinstance(params, dict) else None
            if arguments is not None and not isinstance(arguments, list):
                return _Invalid(data["jsonrpc"], method, data.get("id"), "arguments must be an array")
        try:
            return super().structure_message(data)
        except Exception as exc:
            if not isinstance(method, str):
                raise
            return _Invalid(data["jsonrpc"], method, data.get("id"), describe(exc.__cause__ or exc))

    def handle_message(self, message):
        if not isinstance(message, _Invalid):
            return super().handle_message(message)
        if message.id is None:
            log.warning("dropped a %s notification with invalid params: %s", message.method, message.reason)
        elif isinstance(message.id, (int, str)) and not isinstance(message.id, bool):
            error = JsonRpcInvalidParams(f"invalid params for {message.method}: {message.reason}")
            self._send_response(message.id, error=error.to_response_error())
        else:
            log.warning("dropped a %s request with an invalid id %r", message.method, message.id)

    def _send_response(self, msg_id, result=None, error: types.ResponseError | None = None):
        # The one place every answer passes: internal errors lose pygls's traceback (logged already).
        if error is not None and error.code == types.ErrorCodes.InternalError:
            message = error.message if len(error.message) <= MAX_ERROR_MESSAGE else error.message[:MAX_ERROR_MESSAGE] + "…"
            error = types.ResponseError(code=error.code, message=f"ScoreLens internal error: {message}")
        super()._send_response(msg_id, result, error)


class BoundedReader:
    """Standard input for pygls's reader, refusing headers and bodies over the limits."""

    def __init__(self, stream: BinaryIO, max_message: int = MAX_MESSAGE_BYTES) -> None:
        self.stream = stream
        self.max_message = max_message

    def readline(self) -> bytes:
        line = self.stream.readline(MAX_HEADER_LINE)
        if len(line) == MAX_HEADER_LINE and not line.endswith(b"\n"):
            log.error("a header line longer than %d bytes; closing the connection", MAX_HEADER_LINE)
            return b""
        return line

    def read(self, size: int) -> bytes:
        if size > self.max_message:
            log.error(
                "a message of %d bytes (Content-Length) is over the limit of %d; closing the connection",
                size,
                self.max_message,
            )
            return b""
        return self.stream.read(size)


class MessageReader:
    """pygls's asynchronous reader of standard input (``readline``, ``readexactly``), reading each
    message whole, its header lines and its body, in one call in the executor's thread, and
    answering pygls's calls for the rest of it from what was read.

    pygls's own reader makes one such call per header line and one for the body. Each is a trip
    into a thread, which waits for the interpreter's lock, and back into the event loop, which
    waits for the slice of work in progress: three of each per message, and a hover sent while
    inlay hints were built in the background was answered after ~20 ms.
    """

    # pygls's own header parsing, which this mirrors to know where a message ends
    _CONTENT_LENGTH = re.compile(rb"^Content-Length: (\d+)\r\n$")

    def __init__(self, stream: BoundedReader, executor: Executor) -> None:
        self.stream = stream
        self.executor = executor
        self._lines: deque[bytes] = deque()  # header lines read, not yet asked for
        self._body: bytes | None = None

    def readline(self) -> Awaitable[bytes]:
        if self._lines:
            return _done(self._lines.popleft())
        return asyncio.get_running_loop().run_in_executor(self.executor, self._read_message)

    def readexactly(self, n: int) -> Awaitable[bytes]:
        body, self._body = self._body, None
        if body is not None:
            return _done(body)
        return asyncio.get_running_loop().run_in_executor(self.executor, self.stream.read, n)

    def _read_message(self) -> bytes:
        """(In the executor's thread) read up to the end of the next message, or of the input;
        the first header line, the others and the body kept for the calls that follow."""
        length = 0
        while True:
            line = self.stream.readline()
            if not length and (start := line.find(b"Content-Length: ")) > 0:
                # The last body did not end where its Content-Length said, so a header follows the
                # rest of it on one line; without this cut no header would ever match again.
                log.warning("a message did not end where its Content-Length said; read on from the next header")
                line = line[start:]
            self._lines.append(line)
            if not line:
                break
            if not length and (match := self._CONTENT_LENGTH.fullmatch(line)):
                length = int(match.group(1))
            elif length and not line.strip():
                self._body = self.stream.read(length)
                break
        return self._lines.popleft()


def _done(value: bytes) -> asyncio.Future[bytes]:
    """An awaitable that has ``value`` already: awaiting it does not go round the event loop."""
    future = asyncio.get_running_loop().create_future()
    future.set_result(value)
    return future
