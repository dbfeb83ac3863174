"""chrF/chrF++ and ROUGE-N through the real server: settings, scorelens/scores, the report, hover,
inlay line scores and the code lens, under both client profiles."""

from __future__ import annotations

import pytest
from lsp_support import open_doc, scores
from lsprotocol import types
from rouge_score import rouge_scorer
from sacrebleu.metrics import CHRF, TER

METRICS = ["bleu", "chrf", "rouge1", "rouge2", "rougeL", "wer"]


def configure(client, **settings) -> None:
    client.set_configuration({"scorelens": {"debounceMs": 0, **settings}})
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))


def mt_lines(client):
    mt = client.workspace / "mt"
    hyp = (mt / "news.hyp.en").read_text(encoding="utf-8").splitlines()
    refs = [(mt / n).read_text(encoding="utf-8").splitlines() for n in ("news.ref.en", "news.ref2.en")]
    return mt, hyp, refs


async def test_chrf_plus_plus_and_rouge_n_in_scores_and_report(client):
    configure(client, metrics=METRICS, chrf={"wordOrder": 2, "lowercase": True})
    mt, hyp, refs = mt_lines(client)
    uri = open_doc(client, mt / "news.hyp.en")
    s = await scores(client, uri, until=lambda p: p["scores"] and "chrf" in p["scores"])
    got = s["scores"]
    assert set(got) == {*METRICS, "segments"}
    chrf = CHRF(word_order=2, lowercase=True)
    assert got["chrf"]["score"] == pytest.approx(chrf.corpus_score(hyp, refs).score, abs=1e-9)
    assert (got["chrf"]["char_order"], got["chrf"]["word_order"], got["chrf"]["beta"]) == (6, 2, 2)
    assert got["chrf"]["signature"] == "nrefs:2|case:lc|eff:yes|nc:6|nw:2|space:no|version:scorelens-0.1.0"
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2"])
    pairs = [scorer.score_multi([r[i] for r in refs], h) for i, h in enumerate(hyp)]
    for key in ("rouge1", "rouge2"):
        assert got[key]["fmeasure"] == pytest.approx(sum(p[key].fmeasure for p in pairs) / len(pairs), abs=1e-9)

    report = await client.protocol.send_request_async("scorelens/report", {"uri": uri})
    rows = [r if isinstance(r, dict) else r._asdict() for r in (report["segments"] if isinstance(report, dict) else report.segments)]
    assert len(rows) == len(hyp)
    for i in (0, 7, len(hyp) - 1):
        mine = [r[i] for r in refs]
        assert rows[i]["chrf"] == pytest.approx(chrf.sentence_score(hyp[i], mine).score, abs=1e-9)
        assert rows[i]["rouge2"] == pytest.approx(pairs[i]["rouge2"].fmeasure, abs=1e-9)


async def test_hover_hints_and_lens_show_the_enabled_metrics(client):
    configure(client, metrics=["chrf", "rouge2"])
    mt, hyp, refs = mt_lines(client)
    uri = open_doc(client, mt / "news.hyp.en")
    await scores(client, uri, until=lambda p: p["scores"] and set(p["scores"]) == {"chrf", "rouge2", "segments"})
    chrf = CHRF().sentence_score(hyp[0], [r[0] for r in refs])

    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0)))
    text = hover.contents.value if hasattr(hover.contents, "value") else str(hover.contents)
    assert f"sentence chrF2 {chrf.score:.2f}" in text
    assert "ROUGE-2" in text and "BLEU" not in text.replace("nrefs", "")

    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0), types.Position(1, 0)))
    )
    assert any(h.label.startswith(f"chrF2 {chrf.score:.1f} · ROUGE-2 ") for h in hints if isinstance(h.label, str))

    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    assert lenses[0].command.title.startswith("ScoreLens: chrF2 ")


async def test_invalid_chrf_setting_falls_back_with_one_message(client):
    configure(client, metrics=["chrf"], chrf={"charOrder": 0, "beta": 1})
    mt, hyp, refs = mt_lines(client)
    uri = open_doc(client, mt / "news.hyp.en")
    s = await scores(client, uri, until=lambda p: p["scores"] and "chrf" in p["scores"])
    # charOrder falls back to 6, beta 1 still applies
    assert s["scores"]["chrf"]["score"] == pytest.approx(CHRF(beta=1).corpus_score(hyp, refs).score, abs=1e-9)
    assert any("scorelens.chrf.charOrder" in m.message for m in client.messages)


async def test_ter_in_the_report_hover_hints_and_lens(client):
    configure(client, metrics=["chrf", "ter"])
    mt, hyp, refs = mt_lines(client)
    uri = open_doc(client, mt / "news.hyp.en")
    s = await scores(client, uri, until=lambda p: p["scores"] and set(p["scores"]) == {"chrf", "ter", "segments"})
    ter = TER()
    corpus = ter.corpus_score(hyp, refs)
    assert s["scores"]["ter"]["score"] == pytest.approx(corpus.score, abs=1e-9)
    first = ter.sentence_score(hyp[0], [r[0] for r in refs])

    report = await client.protocol.send_request_async("scorelens/report", {"uri": uri})
    rows = [r if isinstance(r, dict) else r._asdict() for r in (report["segments"] if isinstance(report, dict) else report.segments)]
    for i in (0, 7, len(hyp) - 1):
        assert rows[i]["ter"] == pytest.approx(ter.sentence_score(hyp[i], [r[i] for r in refs]).score, abs=1e-9)

    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0)))
    text = hover.contents.value if hasattr(hover.contents, "value") else str(hover.contents)
    assert f"sentence TER {first.score:.2f}" in text

    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0), types.Position(1, 0)))
    )
    assert any(h.label.endswith(f" · TER {first.score:.1f}") for h in hints if isinstance(h.label, str))
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    assert lenses[0].command.title.startswith("ScoreLens: chrF2 ") and f" · TER {corpus.score:.1f} (" in lenses[0].command.title
