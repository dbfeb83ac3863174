"""scorelens/report paged through the real server, under both client profiles: the summary and
histograms with no rows, a page of rows sorted by any column and filtered, and params that do
not fit answered with an error naming them."""

from __future__ import annotations

import pytest
import sacrebleu
from lsp_support import _plain, open_doc, scores
from test_server import change


async def request(client, **params) -> dict:
    return _plain(await client.protocol.send_request_async("scorelens/report", params))


async def test_summary_first_then_pages_sorted_and_filtered(client):
    mt = client.workspace / "mt"
    uri = open_doc(client, mt / "news.hyp.en")
    await scores(client, uri)
    hyp = (mt / "news.hyp.en").read_text(encoding="utf-8").splitlines()
    refs = [(mt / n).read_text(encoding="utf-8").splitlines() for n in ("news.ref.en", "news.ref2.en")]
    bleu = [sacrebleu.sentence_bleu(h, [r[i] for r in refs]).score for i, h in enumerate(hyp)]

    summary = await request(client, uri=uri, limit=0)
    assert summary["segments"] == [] and summary["total"] == len(hyp)
    assert summary["columns"] == ["line", "bleu", "rougeL", "wer", "edits"]
    assert summary["scores"]["segments"] == len(hyp)
    h = summary["histograms"]["bleu"]
    assert sum(h["bins"]) == h["total"] == len(hyp) and len(h["bins"]) == 10
    assert h["mean"] == pytest.approx(sum(bleu) / len(bleu), abs=1e-9)
    assert len(summary["histograms"]["wer"]["bins"]) == 11

    worst = sorted(range(len(hyp)), key=lambda i: (round(bleu[i], 9), i))
    page = await request(client, uri=uri, sort="bleu", offset=2, limit=3)
    assert [r["line"] for r in page["segments"]] == worst[2:5]
    assert page["segments"][0]["bleu"] == pytest.approx(bleu[worst[2]], abs=1e-9)
    assert page["segments"][0]["hypothesis"] == hyp[worst[2]]
    assert (page["offset"], page["total"], page["sort"], page["descending"]) == (2, len(hyp), "bleu", False)

    by_wer = await request(client, uri=uri, sort="wer", descending=True, filters=[{"key": "wer", "op": ">", "value": 0.3}])
    rates = [r["wer"] for r in by_wer["segments"]]
    assert rates == sorted(rates, reverse=True) and all(w > 0.3 for w in rates)
    assert by_wer["total"] == len(rates) and 0 < len(rates) < len(hyp)


async def test_pages_follow_edits(client):
    lines = [f"line {i} the cat sat" for i in range(50)]
    d = client.workspace / "t"
    d.mkdir(exist_ok=True)
    (d / "ed.hyp.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (d / "ed.ref.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    uri = open_doc(client, d / "ed.hyp.txt")
    await scores(client, uri)
    first = await request(client, uri=uri, sort="wer", descending=True, limit=1)
    assert first["segments"][0]["wer"] == 0.0 and first["segments"][0]["line"] == 0
    change(client, uri, 2, (30, 0), (30, 4), "lime")
    after = await request(client, uri=uri, sort="wer", descending=True, limit=1)
    assert after["version"] == 2
    assert after["segments"][0]["line"] == 30 and after["segments"][0]["wer"] == pytest.approx(0.2)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"sort": "nope"}, "no column 'nope'"),
        ({"limit": -1}, "limit must be a whole number"),
        ({"offset": "1"}, "offset must be a whole number"),
        ({"filters": [{"key": "wer", "op": "!", "value": 1}]}, "unknown filter operator"),
        ({"filters": [{"key": "wer", "op": ">"}]}, "a filter is"),
        ({"descending": "yes"}, "descending must be true or false"),
    ],
)
async def test_params_that_do_not_fit_are_named(client, params, message):
    uri = open_doc(client, client.workspace / "mt" / "news.hyp.en")
    await scores(client, uri)
    with pytest.raises(Exception, match=message):
        await request(client, uri=uri, **params)
