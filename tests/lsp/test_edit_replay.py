"""Random edit sequences replayed through the server give the diagnostics of a fresh review.

Each sequence edits an open hypothesis and its open reference with random insertions and
deletions (words, spaces, line breaks, emoji, CJK) at random places; afterwards the final texts
are written to a new pair of files, opened (a review built from scratch), and both documents'
diagnostics must be equal.
"""

from __future__ import annotations

import random
import re

import pytest

from lsp_support import diagnostics, open_doc, scores
from lsprotocol import types

PIECES = ["the", "cat", "sat", " ", " ", "\n", "on", "mat", "😀", "東京", "é", ".", ","]


def _units(client, text: str) -> int:
    if client.profile == "neovim":
        return len(text.encode("utf-8"))
    return len(text.encode("utf-16-le")) // 2


def _position(client, text: str, offset: int) -> types.Position:
    before = text[:offset]
    line = before.count("\n")
    return types.Position(line, _units(client, before[before.rfind("\n") + 1 :]))


def _random_edit(rng: random.Random, text: str) -> tuple[int, int, str]:
    a = rng.randint(0, len(text))
    if rng.random() < 0.4 and text:
        b = min(len(text), a + rng.randint(1, 8))
        return a, b, ""
    return a, a, "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 4)))


def _shape(diags):
    return sorted(
        (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.code, re.sub(r"[rf]\d+\.ref", "REF", d.message))
        for d in diags
    )


@pytest.mark.parametrize("sync", ["incremental", "full"])
@pytest.mark.parametrize("segmentation", ["line", "paragraph"])
async def test_random_edits_equal_a_fresh_review(client, segmentation, sync):
    # paragraphs: an edit in one segment moves the lines of the segments after it, whose
    # texts (and cached diagnostics) stay the same
    client.set_configuration({"scorelens": {"debounceMs": 0, "segmentation": segmentation}})
    folder = client.workspace / "replay"
    folder.mkdir()
    for seed in range(12):
        rng = random.Random(seed)
        texts = [
            "the cat sat on the mat\nsome words here\n\n😀 東京 é\n\nlast one here\n",
            "the cat sat on a mat\nsome other words\n\n東京 é\n\nlast here\n",
        ]
        paths = [folder / f"r{seed}.hyp.txt", folder / f"r{seed}.ref.txt"]
        for p, t in zip(paths, texts):
            p.write_text(t, encoding="utf-8")
        uris = [open_doc(client, p) for p in paths]
        versions = [1, 1]
        for _ in range(15):
            side = rng.randrange(2)
            a, b, new = _random_edit(rng, texts[side])
            start, end = _position(client, texts[side], a), _position(client, texts[side], b)
            texts[side] = texts[side][:a] + new + texts[side][b:]
            versions[side] += 1
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uris[side], version=versions[side]),
                    content_changes=[
                        types.TextDocumentContentChangePartial(range=types.Range(start, end), text=new)
                        if sync == "incremental"
                        # as Vim ALE sends every change: the whole text
                        else types.TextDocumentContentChangeWholeDocument(text=texts[side])
                    ],
                )
            )
        await scores(client, uris[0], version=versions[0])
        replayed = [_shape(await diagnostics(client, u)) for u in uris]

        fresh_paths = [folder / f"f{seed}.hyp.txt", folder / f"f{seed}.ref.txt"]
        for p, t in zip(fresh_paths, texts):
            p.write_text(t, encoding="utf-8")
        fresh_uris = [open_doc(client, p) for p in reversed(fresh_paths)][::-1]
        await scores(client, fresh_uris[0])
        fresh = [_shape(await diagnostics(client, u)) for u in fresh_uris]
        assert replayed == fresh, f"seed {seed}: {texts!r}"
