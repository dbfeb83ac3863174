"""A hostile client and a bounded CLI run: the harness of the adversarial suite.

Every process starts under ``resource.setrlimit`` (address space, CPU seconds) and a watchdog,
so a case that would hang or grow without limit fails instead of taking the machine with it.
:class:`Server` talks raw JSON-RPC over the real ``scorelens serve`` stdio, so a test can send
what no well-behaved client library would (bad headers, wrong-typed params); it answers the
server's own requests (``workspace/configuration`` with :attr:`Server.settings`, the rest with
``null``) except the methods in :attr:`Server.unanswered`, and records everything the server
sends, for :meth:`Server.assert_never_said`.
"""

from __future__ import annotations

import json
import os
import queue
import resource
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Callable, Collection

ROOT = Path(__file__).resolve().parents[2]

ADDRESS_SPACE = 2 * 1024**3  # bytes of virtual memory a server or CLI run may map
CPU_SECONDS = 120
TIMEOUT = 60.0  # seconds any one wait may take before the case fails


def _limits(address_space: int, cpu_seconds: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))

    return apply


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONUNBUFFERED="1")


def encode(message: dict[str, Any]) -> bytes:
    """One JSON-RPC message with its header, as sent on the wire."""
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


# -- the command line -------------------------------------------------------------------------


@dataclass
class CliRun:
    code: int
    out: str
    err: str


def run_cli(
    *argv: str | Path,
    cwd: Path | None = None,
    stdin: bytes | None = None,
    timeout: float = TIMEOUT,
    address_space: int = ADDRESS_SPACE,
) -> CliRun:
    """``python -m scorelens ARGV`` under the limits; a timeout fails the calling test."""
    done = subprocess.run(
        [sys.executable, "-m", "scorelens", *map(str, argv)],
        input=stdin if stdin is not None else b"",
        capture_output=True,
        cwd=cwd or ROOT,
        env=_env(),
        timeout=timeout,
        preexec_fn=_limits(address_space, CPU_SECONDS),
    )
    return CliRun(done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"))


def assert_one_line_error(run: CliRun, *expected: str) -> None:
    """Exit status 2 and one ``scorelens: error:`` line on stderr containing each of ``expected``."""
    assert run.code == 2, run
    assert "Traceback" not in run.err, run.err
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("scorelens: error: "), run.err
    for part in expected:
        assert part in lines[0], run.err


# -- the language server ----------------------------------------------------------------------


class ServerGone(AssertionError):
    pass


class Server:
    """``scorelens serve`` (stdio) under resource limits, driven by raw JSON-RPC."""

    # the server's requests of these methods are left for the test to answer, or never answered
    unanswered: Collection[str] = frozenset()

    def __init__(
        self,
        root: Path,
        argv: tuple[str, ...] = ("serve",),
        settings: dict[str, Any] | None = None,
        address_space: int = ADDRESS_SPACE,
        cpu_seconds: int = CPU_SECONDS,
        unanswered: Collection[str] = (),
        program: tuple[str, ...] = ("-m", "scorelens"),
    ) -> None:
        self.unanswered = set(unanswered)
        self.proc = subprocess.Popen(
            [sys.executable, *program, *argv],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=root,
            env=_env(),
            preexec_fn=_limits(address_space, cpu_seconds),
        )
        self._stderr = bytearray()
        self.stderr_lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self._connect(root, settings, self.proc.stdout, self.proc.stdin)

    def _connect(self, root: Path, settings: dict[str, Any] | None, reader: BinaryIO, writer: BinaryIO) -> None:
        self.root = root
        self.settings: dict[str, Any] = {"debounceMs": 0, **(settings or {})}
        self.received: list[dict[str, Any]] = []  # every message from the server, in order
        self.raw = bytearray()  # every byte from the server, for leak checks
        self._inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._next_id = 0
        self._write_lock = threading.Lock()
        self._reader, self._writer = reader, writer
        threading.Thread(target=self._read, daemon=True).start()

    # -- wire ------------------------------------------------------------------------------

    def _read(self) -> None:
        out = self._reader
        try:
            while True:
                length = None
                while True:
                    line = out.readline()
                    if not line:
                        return
                    self.raw += line
                    if line in (b"\r\n", b"\n"):
                        break
                    name, _, value = line.decode("ascii", "replace").partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                body = out.read(length or 0)
                self.raw += body
                message = json.loads(body)
                self.received.append(message)
                if "method" in message and "id" in message and message["method"] not in self.unanswered:
                    try:
                        self._answer(message)
                    except ServerGone:
                        pass  # the reader sees the end next
                self._inbox.put(message)
        except json.JSONDecodeError:
            raise
        except (OSError, ValueError):  # our end was closed meanwhile
            return
        finally:
            self._inbox.put(None)

    def _drain_stderr(self) -> None:
        for line in self.proc.stderr:
            self._stderr += line
            self.stderr_lines.put(line.decode("utf-8", "replace"))

    @property
    def stderr(self) -> str:
        return self._stderr.decode("utf-8", "replace")

    def _answer(self, request: dict[str, Any]) -> None:
        result: Any = None
        if request["method"] == "workspace/configuration":
            result = [self.settings for _ in request["params"]["items"]]
        self.send({"jsonrpc": "2.0", "id": request["id"], "result": result})

    def send_bytes(self, data: bytes) -> None:
        with self._write_lock:
            try:
                self._writer.write(data)
                self._writer.flush()
            except (OSError, ValueError):  # ValueError: our end closed already
                raise ServerGone(f"the server exited ({self.proc.poll()}); stderr:\n{self.stderr[-4000:]}") from None

    def send(self, message: dict[str, Any]) -> None:
        self.send_bytes(encode(message))

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request_id(self, method: str, params: Any = None) -> int:
        """Send a request and return its id without waiting (see :meth:`response`)."""
        self._next_id += 1
        message = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not ...:
            message["params"] = params
        self.send(message)
        return self._next_id

    def request(self, method: str, params: Any = None, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The whole response message (``result`` or ``error``) to one request."""
        return self.response(self.request_id(method, params), timeout)

    def response(self, msg_id: int, timeout: float = TIMEOUT) -> dict[str, Any]:
        return self.wait_for(lambda m: m.get("id") == msg_id and "method" not in m, timeout, f"an answer to request {msg_id}")

    def wait_for(self, predicate: Callable[[dict], bool], timeout: float = TIMEOUT, what: str = "a message") -> dict:
        """The first message (already received or arriving within ``timeout``) that matches."""
        for message in list(self.received):
            if predicate(message):
                return message
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {what} within {timeout} s; stderr:\n{self.stderr[-4000:]}")
            try:
                message = self._inbox.get(timeout=left)
            except queue.Empty:
                continue
            if message is None:
                raise ServerGone(f"the server exited ({self.proc.poll()}) before {what}; stderr:\n{self.stderr[-4000:]}")
            if predicate(message):
                return message

    # -- LSP ---------------------------------------------------------------------------------

    def initialize(self, capabilities: dict[str, Any] | None = None, encoding: str = "utf-16") -> dict[str, Any]:
        caps = capabilities or {
            "general": {"positionEncodings": [encoding]},
            "workspace": {"configuration": True, "didChangeConfiguration": {"dynamicRegistration": True}},
            "textDocument": {"publishDiagnostics": {"versionSupport": True}},
        }
        params = {
            "processId": None,
            "rootUri": self.root.as_uri(),
            "capabilities": caps,
            "workspaceFolders": [{"uri": self.root.as_uri(), "name": "ws"}],
        }
        answer = self.request("initialize", params)
        assert "result" in answer, answer
        self.notify("initialized", {})
        return answer["result"]

    def open(self, path: Path, text: str | None = None, version: int = 1) -> str:
        uri = path.as_uri()
        if text is None:
            text = path.read_text(encoding="utf-8")
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "plaintext", "version": version, "text": text}},
        )
        return uri

    def diagnostics(self, uri: str, until: Callable[[list[dict]], bool] = lambda d: True, timeout: float = TIMEOUT) -> list[dict]:
        """The latest pushed diagnostics of ``uri`` that satisfy ``until``."""
        deadline = time.monotonic() + timeout
        while True:
            for message in reversed(self.received):
                if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
                    if until(message["params"]["diagnostics"]):
                        return message["params"]["diagnostics"]
                    break
            if time.monotonic() > deadline:
                raise TimeoutError(f"no matching diagnostics for {uri}; stderr:\n{self.stderr[-4000:]}")
            self.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics", max(deadline - time.monotonic(), 0.01))

    def messages_shown(self) -> list[str]:
        return [m["params"]["message"] for m in self.received if m.get("method") in ("window/showMessage", "window/logMessage")]

    # -- assertions --------------------------------------------------------------------------

    def assert_alive(self, timeout: float = 10.0) -> None:
        """The process runs and its loop answers a request (an unknown method: -32601)."""
        assert self.proc.poll() is None, f"the server exited with {self.proc.returncode}; stderr:\n{self.stderr[-4000:]}"
        answer = self.request("scorelens/ping", {}, timeout=timeout)
        assert answer.get("error", {}).get("code") == -32601 or "result" in answer, answer

    def assert_never_said(self, *secrets: str | bytes) -> None:
        """None of ``secrets`` (e.g. a refused file's content) appears in anything the server sent."""
        for secret in secrets:
            needle = secret.encode("utf-8") if isinstance(secret, str) else secret
            assert needle not in self.raw, f"the server sent {secret!r}"

    def assert_no_traceback(self) -> None:
        assert b"Traceback" not in self.raw and b'"traceback"' not in self.raw, "a traceback was sent to the client"

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.request("shutdown", None, timeout=10)
                self.notify("exit", None)
                self.proc.wait(10)
            except (TimeoutError, ServerGone, OSError):
                pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass


# -- serve --tcp ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Listener(Server):
    """``scorelens serve --tcp`` under the limits; :meth:`client` connects a raw client to it."""

    def __init__(self, root: Path, *options: str, address_space: int = ADDRESS_SPACE) -> None:
        self.port = free_port()
        self.root = root
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "scorelens", "serve", "--tcp", f":{self.port}", *options],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=root,
            env=_env(),
            preexec_fn=_limits(address_space, CPU_SECONDS),
        )
        self._stderr = bytearray()
        self.stderr_lines = queue.Queue()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.wait_for_log("listening on")

    def wait_for_log(self, text: str, timeout: float = TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        while True:
            if text in self.stderr:
                return self.stderr
            try:
                self.stderr_lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                raise TimeoutError(f"the listener never logged {text!r}; stderr:\n{self.stderr[-4000:]}") from None

    def client(self, settings: dict[str, Any] | None = None) -> TcpClient:
        return TcpClient(self, settings)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc.stderr.close()


class TcpClient(Server):
    """A raw client of a :class:`Listener`; :attr:`proc` is the listener's process."""

    def __init__(self, listener: Listener, settings: dict[str, Any] | None = None) -> None:
        self.listener = listener
        self.proc = listener.proc
        self.sock = socket.create_connection(("127.0.0.1", listener.port), timeout=TIMEOUT)
        self.sock.settimeout(None)
        self._connect(listener.root, settings, self.sock.makefile("rb"), self.sock.makefile("wb"))

    @property
    def stderr(self) -> str:
        return self.listener.stderr

    def closed_by_server(self, timeout: float = TIMEOUT) -> bool:
        """True once the server has closed this connection."""
        try:
            self.wait_for(lambda m: False, timeout, "the end of the connection")
        except ServerGone:
            return True
        return False

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.request("shutdown", None, timeout=10)
                self.notify("exit", None)
            except (TimeoutError, ServerGone, OSError):
                pass
        self.disconnect()

    def disconnect(self) -> None:
        try:
            # first: the reader thread sees the end (closing its file under it would wait for it)
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        for closing in (self._writer, self._reader, self.sock):
            try:
                closing.close()
            except OSError:
                pass
