"""``scorelens/compare`` over stdio, under both client profiles: the open systems that share
references, tested as sacreBLEU's PairedTest tests them, and again after an edit."""

from __future__ import annotations

from lsp_support import _plain, open_doc, scores
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest
from test_server import change

REF = ["the city council approved the plan", "three new tram lines will be built", "buses will run more often", "costs are high"]
SYS1 = ["the council of the city approved the plan", "three tram lines new will be built", "the buses drive more often", "the costs are high"]
SYS2 = ["the city council approved the plan", "three new tram lines are built", "buses run more frequently", "costs are high"]


def _sacrebleu(systems, test):
    metric = BLEU(references=[REF])
    return PairedTest([(f"s{i}", s) for i, s in enumerate(systems)], {"BLEU": metric}, None, test_type=test, n_ar_confidence=1000)()[1]["BLEU"]


async def compare(client, params) -> dict:
    return _plain(await client.protocol.send_request_async("scorelens/compare", params))


async def test_compare_two_open_systems_and_follow_an_edit(client):
    folder = client.workspace / "cmp"
    folder.mkdir()
    for name, lines in (("news.ref.txt", REF), ("news.sys1.txt", SYS1), ("news.sys2.txt", SYS2)):
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    sys1, sys2 = open_doc(client, folder / "news.sys1.txt"), open_doc(client, folder / "news.sys2.txt")
    await scores(client, sys1)
    await scores(client, sys2)

    result = await compare(client, {"uri": sys2})
    assert result["baseline"] == sys1 and [s["uri"] for s in result["systems"]] == [sys1, sys2]
    assert (result["test"], result["n"], result["seed"], result["versions"]) == ("bs", 1000, 12345, [1, 1])
    for ours, theirs in zip(result["systems"], _sacrebleu([SYS1, SYS2], "bs")):
        assert ours["bleu"] == {"score": theirs.score, "mean": theirs.mean, "ci": theirs.ci, "p_value": theirs.p_value}
    assert result["lines"] == [0, 1, 2, 3]
    differences = result["systems"][1]["differences"]
    assert differences["bleu"][0] > 0 and differences["wer"][0] < 0 and differences["wer"][3] < 0

    # the second system's last line made worse: the next answer is from the edited text
    change(client, sys2, 2, (3, 0), (3, len(SYS2[3])), "nothing")
    edited = SYS2[:3] + ["nothing"]
    result = await compare(client, {"uri": sys1, "baseline": sys2, "test": "ar"})
    assert result["baseline"] == sys2 and result["versions"] == [2, 1]
    for ours, theirs in zip(result["systems"], _sacrebleu([edited, SYS1], "ar")):
        assert ours["bleu"] == {"score": theirs.score, "mean": theirs.mean, "ci": theirs.ci, "p_value": theirs.p_value}


async def test_compare_alone_and_bad_params(client):
    uri = open_doc(client, client.workspace / "mt" / "news.hyp.en")
    await scores(client, uri)
    result = await compare(client, {"uri": uri})
    assert [s["uri"] for s in result["systems"]] == [uri] and "test" not in result
    for bad in ({"nope": 1}, {"uri": uri, "test": "t"}, {"uri": uri, "n": -1}, {"uri": uri, "baseline": "file:///x"}):
        try:
            await compare(client, bad)
        except Exception as exc:  # the server answers an error and keeps serving
            assert "compare" in str(exc) or "hypothesis" in str(exc)
        else:
            raise AssertionError(f"{bad} was accepted")


def test_request_names_the_same_tests_as_the_core():
    from scorelens.core import significance
    from scorelens.lsp import compare as feature

    assert feature.TESTS == significance.TESTS
