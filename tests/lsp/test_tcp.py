"""`scorelens serve --tcp`: the same server over a socket, diagnostics included."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys

from lsp_support import SAMPLES
from lsprotocol import types
from pygls.lsp.client import LanguageClient


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_diagnostics_over_tcp(tmp_path):
    client = LanguageClient("tcp-test", "0")
    published: asyncio.Queue = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        published.put_nowait(params)

    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "scorelens", "serve", "--tcp", f"127.0.0.1:{port}"])
    try:
        for _ in range(100):
            try:
                await client.start_tcp("127.0.0.1", port)
                break
            except OSError:
                await asyncio.sleep(0.1)
        await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=SAMPLES.as_uri()))
        client.initialized(types.InitializedParams())
        hyp = SAMPLES / "asr" / "call.hyp.txt"
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(hyp.as_uri(), "plaintext", 1, hyp.read_text(encoding="utf-8")))
        )
        while True:
            params = await asyncio.wait_for(published.get(), 30)
            if params.uri == hyp.as_uri():
                break
        assert any(d.code == "wer.substitution" for d in params.diagnostics)
        await client.shutdown_async(None)
        client.exit(None)
    finally:
        await client.stop()
        server.terminate()
        server.wait(10)
