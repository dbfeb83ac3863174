"""#39 point 5: a hover on a document still being scored is answered at once, with how far the
scoring is and the segment's own scores, not after the whole first scoring."""

from __future__ import annotations

import asyncio
import re

from lsp_support import scores
from lsprotocol import types
from test_server import write_pair

LINES = 150_000  # seconds of a first scoring, where a hover takes milliseconds


async def test_a_hover_during_the_first_scoring_is_answered_with_the_segments_scores(client):
    client.set_configuration({"scorelens": {"debounceMs": 0}})
    hyp = "".join(f"the cat {i} sat on a mat today\n" for i in range(LINES))
    ref = "".join(f"the cat {i} sat on the mat today\n" for i in range(LINES))
    uri, _ = write_pair(client, "big", hyp, ref)
    at = types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(7, 2))
    # none until the server has the document's settings and pairing (a round trip to the client)
    hover = None
    for _ in range(200):
        if (hover := await client.text_document_hover_async(at)) is not None:
            break
        await asyncio.sleep(0.01)
    assert all(p["uri"] != uri for p in client.scores_log), "answered before the scores"
    text = hover.contents.value
    assert re.match(r"ScoreLens is still scoring this document \(\d+ % done\); segment 8: BLEU ", text), text
    # the segment's own scores, as the hover gives them once the document is scored
    await scores(client, uri, timeout=120)
    settled = await client.text_document_hover_async(at)
    early_bleu = float(re.search(r"segment 8: BLEU ([\d.]+)", text).group(1))
    settled_bleu = float(re.search(r"sentence BLEU ([\d.]+)", settled.contents.value.replace("**", "")).group(1))
    assert abs(early_bleu - settled_bleu) <= 0.05, (text, settled.contents.value)
