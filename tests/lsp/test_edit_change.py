"""The corpus change of the last edit (``change`` in scorelens/scores) and what a line contributes
to the corpus score (hover, inlay hint tooltip)."""

from __future__ import annotations

import re

import pytest
import sacrebleu
from lsp_support import scores
from lsprotocol import types
from test_server import change, write_pair

HYP = ["the cat sat on the mat", "a dog barked at the postman", "hello world"]
REF = ["the cat sat on a mat", "the dog barked at the postman", "hello there world"]


async def test_change_is_measured_from_before_the_lines_edits_began(client):
    uri, _ = write_pair(client, "chg", "\n".join(HYP) + "\n", "\n".join(REF) + "\n")
    opened = await scores(client, uri)
    assert opened["change"] is None, "no edit yet"

    # Two keystrokes on line 2: both measured from the scores before the first.
    change(client, uri, 2, (1, 0), (1, 1), "the")
    first = await scores(client, uri, version=2)
    change(client, uri, 3, (1, 3), (1, 3), "!")
    second = await scores(client, uri, version=3)
    for s in (first, second):
        assert s["change"]["line"] == 1 and s["change"]["uri"] == uri
        assert s["change"]["scores"]["bleu"] == pytest.approx(s["scores"]["bleu"]["score"] - opened["scores"]["bleu"]["score"], abs=1e-12)
        assert s["change"]["scores"]["wer"] == pytest.approx(s["scores"]["wer"]["wer"] - opened["scores"]["wer"]["wer"], abs=1e-12)
        assert s["change"]["scores"]["rougeL"] == pytest.approx(
            s["scores"]["rougeL"]["fmeasure"] - opened["scores"]["rougeL"]["fmeasure"], abs=1e-12
        )
    assert first["change"]["scores"]["bleu"] > 0, '"a" → "the" matches the reference'

    # Another line: measured from the scores its first keystroke found.
    change(client, uri, 4, (2, 5), (2, 5), " there")
    third = await scores(client, uri, version=4)
    assert third["change"]["line"] == 2
    assert third["change"]["scores"]["bleu"] == pytest.approx(third["scores"]["bleu"]["score"] - second["scores"]["bleu"]["score"], abs=1e-12)
    edited = [HYP[0], "the! dog barked at the postman", "hello there world"]
    assert third["scores"]["bleu"]["score"] == pytest.approx(sacrebleu.BLEU().corpus_score(edited, [REF]).score, abs=1e-9)


async def test_hover_says_what_the_line_contributes_to_the_corpus(client):
    uri, _ = write_pair(client, "share", "\n".join(HYP) + "\n", "\n".join(REF) + "\n")
    await scores(client, uri)
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0)))
    text = hover.contents.value
    found = re.search(r"corpus\W+BLEU ([+−]\d+\.\d+) · ROUGE-L ([+−]\d+\.\d+) · WER ([+−]\d+\.\d+) pp", text)
    assert found, text
    with_it = sacrebleu.BLEU().corpus_score(HYP, [REF]).score
    without = sacrebleu.BLEU().corpus_score(HYP[1:], [REF[1:]]).score
    shown = float(found.group(1).replace("−", "-"))
    assert shown == pytest.approx(with_it - without, rel=0.05)
    assert "with this segment minus without it" in text
