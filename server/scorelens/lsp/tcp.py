"""``scorelens serve --tcp``: one client at a time, each served by a fresh server process.

The listener accepts a connection and hands the socket to a new ``scorelens serve`` as its
standard input and output, so every client starts from a clean state (no documents, pairings or
answers left over from the one before) and a client that disconnects ends only its own server.
While a client is served, further connections get one ``window/showMessage`` saying so and are
closed. The listener runs until interrupted, or until its first client leaves with ``--once``.
"""

from __future__ import annotations

import json
import logging
import select
import socket
import subprocess
import sys

log = logging.getLogger(__name__)

BUSY = "ScoreLens: this server already serves a client (one at a time); try again when it disconnects"
POLL_SECONDS = 0.2


class ListenError(Exception):
    """The address cannot be listened on (in use, not ours, no such host)."""


def _busy_message() -> bytes:
    body = json.dumps(
        {"jsonrpc": "2.0", "method": "window/showMessage", "params": {"type": 1, "message": BUSY}}
    ).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def _refuse(conn: socket.socket) -> None:
    with conn:
        try:
            conn.sendall(_busy_message())
        except OSError:
            pass  # it left already


def listen(host: str, port: int) -> socket.socket:
    try:
        return socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    except OSError as exc:
        raise ListenError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def serve(listener: socket.socket, once: bool = False) -> None:
    """Accept clients one at a time until interrupted (or after the first with ``once``)."""
    host, port = listener.getsockname()[:2]
    log.info("listening on %s:%d (one client at a time)", host, port)
    with listener:
        while True:
            conn, address = listener.accept()
            log.info("client %s connected", address)
            with conn:
                child = subprocess.Popen([sys.executable, "-m", "scorelens", "serve"], stdin=conn, stdout=conn)
            try:
                while child.poll() is None:
                    ready, _, _ = select.select([listener], [], [], POLL_SECONDS)
                    if ready:
                        other, other_address = listener.accept()
                        log.warning("refused %s: a client is being served", other_address)
                        _refuse(other)
            finally:
                if child.poll() is None:
                    child.terminate()
                    child.wait()
            log.info("client %s disconnected", address)
            if once:
                return
