from conftest import SAMPLES, diagnostics, open_doc, scores


async def test_open_hypothesis_scores_and_diagnoses(client):
    uri = open_doc(client, client.workspace / "mt" / "news.hyp.en")
    s = await scores(client, uri)
    assert s["scores"]["bleu"]["score"] > 0
    diags = await diagnostics(client, uri)
    assert diags, "expected findings"
