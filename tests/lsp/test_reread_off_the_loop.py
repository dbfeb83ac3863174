"""#36: an edit that makes the server read a large formatted pair whole (an Enter in a JSONL)
never blocks its event loop: the documents are read in a thread by the re-score, and a request
on another document is answered meanwhile."""

from __future__ import annotations

import asyncio
import json

import pytest
from lsp_support import open_doc, scores
from lsprotocol import types
from test_server import change, write_pair

RECORDS = 60_000  # reading the pair whole takes over a second here


def _jsonl(field: str, words: str) -> str:
    return "".join(json.dumps({"id": f"r{k}", field: f"{words} {k}"}) + "\n" for k in range(RECORDS))


@pytest.mark.timeout(240)
async def test_a_request_on_a_small_document_is_answered_while_a_large_pair_is_read_again(client):
    folder = client.workspace / "big"
    folder.mkdir()
    (folder / "big.hyp.jsonl").write_text(_jsonl("prediction", "the cat sat on a mat today"), encoding="utf-8")
    (folder / "big.ref.jsonl").write_text(_jsonl("reference", "the cat sat on the mat today"), encoding="utf-8")
    big = open_doc(client, folder / "big.hyp.jsonl", "jsonl")
    await scores(client, big, until=lambda p: p["scores"] is not None, timeout=180)
    small, _ = write_pair(client, "small", "the cat sat on a mat\n", "the cat sat on the mat\n")
    await scores(client, small, until=lambda p: p["scores"] is not None)

    # Enter at the end of a record in the middle: a line more, so the pair is read whole
    middle = RECORDS // 2
    end = len(json.dumps({"id": f"r{middle}", "prediction": f"the cat sat on a mat today {middle}"}))
    change(client, big, 2, (middle, end), (middle, end), "\n")
    answered = []

    async def ask(what: str, request) -> None:
        await request
        answered.append(what)

    # the code lens of the big document waits for its re-read; the hover on the small one does not
    lens = asyncio.ensure_future(ask("big lens", client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(big)))))
    await asyncio.sleep(0)  # (sent first)
    hover = asyncio.ensure_future(
        ask("small hover", client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(small), types.Position(0, 4))))
    )
    await asyncio.gather(lens, hover)
    assert answered == ["small hover", "big lens"]
    # and then the big document is scored as edited
    await scores(client, big, version=2, until=lambda p: p["scores"] is not None, timeout=120)
