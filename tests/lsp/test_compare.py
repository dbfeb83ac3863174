"""``scorelens/compare`` over stdio, under both client profiles: the open systems that share
references, tested as sacreBLEU's PairedTest tests them, and again after an edit; the
``scorelens/compareChanged`` notification, the "vs baseline" code lens and the hover's other systems."""

from __future__ import annotations

import pytest
from lsprotocol import types
from lsp_support import _plain, notified, open_doc, scores
from sacrebleu.metrics import BLEU
from pygls.exceptions import JsonRpcInvalidParams
from sacrebleu.significance import PairedTest
from test_server import change

REF = ["the city council approved the plan", "three new tram lines will be built", "buses will run more often", "costs are high"]
SYS1 = ["the council of the city approved the plan", "three tram lines new will be built", "the buses drive more often", "the costs are high"]
SYS2 = ["the city council approved the plan", "three new tram lines are built", "buses run more frequently", "costs are high"]
SYS3 = ["city council approved a plan", "three new tram lines will be built", "buses will run more often", "the cost is high"]


def _sacrebleu(systems, test):
    metric = BLEU(references=[REF])
    return PairedTest([(f"s{i}", s) for i, s in enumerate(systems)], {"BLEU": metric}, None, test_type=test, n_ar_confidence=1000)()[1]["BLEU"]


def _write_systems(client, systems=(("news.sys1.txt", SYS1), ("news.sys2.txt", SYS2)), reference=REF):
    folder = client.workspace / "cmp"
    folder.mkdir()
    for name, lines in (("news.ref.txt", reference), *systems):
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


async def changed(client, until, timeout: float = 30) -> dict:
    """The first ``scorelens/compareChanged`` so far that ``until`` accepts."""
    return await notified(client.compare_log, until, "scorelens/compareChanged", timeout)


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
    assert [s["lines"] for s in result["systems"]] == [[0, 1, 2, 3], [0, 1, 2, 3]]
    differences = result["systems"][1]["differences"]
    assert differences["bleu"][0] > 0 and differences["wer"][0] < 0 and differences["wer"][3] < 0

    # the second system's last line made worse: the next answer is from the edited text
    change(client, sys2, 2, (3, 0), (3, len(SYS2[3])), "nothing")
    edited = SYS2[:3] + ["nothing"]
    result = await compare(client, {"uri": sys1, "baseline": sys2, "test": "ar"})
    assert result["baseline"] == sys2 and result["versions"] == [2, 1]
    for ours, theirs in zip(result["systems"], _sacrebleu([edited, SYS1], "ar")):
        assert ours["bleu"] == {"score": theirs.score, "mean": theirs.mean, "ci": theirs.ci, "p_value": theirs.p_value}


async def test_each_system_has_its_own_lines_with_paragraph_segmentation(client):
    client.set_configuration({"scorelens": {"debounceMs": 0, "segmentation": "paragraph"}})
    # the same four paragraphs, wrapped differently: the systems' paragraphs start on different lines
    ref = [line for text in REF for line in (text, "")]
    sys1 = ["the council of the city", "approved the plan", "", SYS1[1], "", "the buses drive", "more often", "", SYS1[3]]
    sys2 = [SYS2[0], "", "three new tram lines", "are built", "", SYS2[2], "", SYS2[3]]
    folder = _write_systems(client, (("news.sys1.txt", sys1), ("news.sys2.txt", sys2)), ref)
    uri1, uri2 = open_doc(client, folder / "news.sys1.txt"), open_doc(client, folder / "news.sys2.txt")
    await scores(client, uri1)
    await scores(client, uri2)

    result = await compare(client, {"uri": uri1})
    assert [(s["uri"], s["lines"]) for s in result["systems"]] == [(uri1, [0, 3, 5, 8]), (uri2, [0, 2, 5, 7])]
    assert result["lines"] == [0, 3, 5, 8]  # the baseline's, as ever
    assert len(result["systems"][1]["differences"]["bleu"]) == 4
    await changed(client, lambda p: p["versions"] == [1, 1])

    # a blank line more after the second system's first paragraph: the same numbers, but its later
    # paragraphs start further down, so the view is told
    change(client, uri2, 2, (1, 0), (1, 0), "\n")
    told = await changed(client, lambda p: p["versions"] == [1, 2])
    assert [s["lines"] for s in told["systems"]] == [[0, 3, 5, 8], [0, 3, 6, 8]]
    assert told["systems"][1]["bleu"] == result["systems"][1]["bleu"]

    result = await compare(client, {"uri": uri1, "baseline": uri2})
    assert [(s["uri"], s["lines"]) for s in result["systems"]] == [(uri2, [0, 3, 6, 8]), (uri1, [0, 3, 5, 8])]
    assert result["lines"] == [0, 3, 6, 8]


async def test_compare_alone_and_bad_params(client):
    uri = open_doc(client, client.workspace / "mt" / "news.hyp.en")
    await scores(client, uri)
    result = await compare(client, {"uri": uri})
    assert [s["uri"] for s in result["systems"]] == [uri] and "test" not in result
    assert result["candidates"] == [uri]
    for bad in ({"nope": 1}, {"uri": uri, "test": "t"}, {"uri": uri, "n": -1}, {"uri": uri, "n": True}, {"uri": uri, "baseline": "file:///x"}):
        with pytest.raises(JsonRpcInvalidParams, match="scorelens/compare"):  # answered, and the server keeps serving
            await compare(client, bad)


async def test_compare_the_systems_chosen(client):
    folder = _write_systems(client, (("news.sys1.txt", SYS1), ("news.sys2.txt", SYS2), ("news.sys3.txt", SYS3)))
    sys1, sys2, sys3 = (open_doc(client, folder / f"news.sys{i}.txt") for i in (1, 2, 3))
    for uri in (sys1, sys2, sys3):
        await scores(client, uri)

    every = await compare(client, {"uri": sys1})
    assert every["candidates"] == [sys1, sys2, sys3] and [s["uri"] for s in every["systems"]] == [sys1, sys2, sys3]

    # the third against the second; the first, whose request it is, left out
    chosen = await compare(client, {"uri": sys1, "baseline": sys3, "systems": [sys2]})
    assert chosen["baseline"] == sys3 and [s["uri"] for s in chosen["systems"]] == [sys3, sys2]
    assert chosen["candidates"] == [sys1, sys2, sys3] and chosen["versions"] == [1, 1]
    for ours, theirs in zip(chosen["systems"], _sacrebleu([SYS3, SYS2], "bs")):
        assert ours["bleu"] == {"score": theirs.score, "mean": theirs.mean, "ci": theirs.ci, "p_value": theirs.p_value}

    # without a baseline: the first chosen by URI, whatever the order given
    chosen = await compare(client, {"uri": sys3, "systems": [sys3, sys2, sys3]})
    assert chosen["baseline"] == sys2 and [s["uri"] for s in chosen["systems"]] == [sys2, sys3]

    # another pairing's hypothesis is not one of them
    other = open_doc(client, client.workspace / "mt" / "news.hyp.en")
    await scores(client, other)
    for bad, named in (
        ({"uri": sys1, "baseline": "file:///nowhere/news.sys9.txt"}, "file:///nowhere/news.sys9.txt"),
        ({"uri": sys1, "systems": [sys2, other]}, other),
        ({"uri": sys1, "baseline": other, "systems": [sys2]}, other),
    ):
        with pytest.raises(JsonRpcInvalidParams) as raised:
            await compare(client, bad)
        message = str(raised.value)
        assert f"{named} is not an open hypothesis with the same references and settings as {sys1}" in message
        assert f"those are {sys1}, {sys2}, {sys3}" in message
    for bad in ({"uri": sys1, "systems": []}, {"uri": sys1, "systems": sys2}, {"uri": sys1, "systems": [1]}):
        with pytest.raises(JsonRpcInvalidParams, match="systems must be a non-empty list of hypothesis uris"):
            await compare(client, bad)
    assert (await compare(client, {"uri": sys2}))["candidates"] == [sys1, sys2, sys3]  # still serving


def test_request_names_the_same_tests_as_the_core():
    from scorelens.core import significance
    from scorelens.lsp import compare as feature

    assert feature.TESTS == significance.TESTS


async def test_changes_are_told_and_shown_in_lens_and_hover(client):
    folder = _write_systems(client)
    sys1, sys2 = open_doc(client, folder / "news.sys1.txt"), open_doc(client, folder / "news.sys2.txt")
    told = await changed(client, lambda p: p["versions"] == [1, 1])
    assert told["baseline"] == sys1 and [s["uri"] for s in told["systems"]] == [sys1, sys2]
    theirs = _sacrebleu([SYS1, SYS2], "bs")
    assert told["systems"][1]["bleu"]["p_value"] == theirs[1].p_value
    assert told == await compare(client, {"uri": sys1})  # the notification is the request's answer

    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(sys2)))
    versus = [lens.command.title for lens in lenses if lens.command.title.startswith("vs ")]
    difference = theirs[1].score - theirs[0].score
    mark = "*" if theirs[1].p_value < 0.05 else ""
    assert versus == [f"vs news.sys1.txt: BLEU {difference:+.2f} (p = {theirs[1].p_value:.4f}){mark}" + versus[0][versus[0].index(" · ") :]]
    assert " · ROUGE-L " in versus[0] and " · WER " in versus[0]
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(sys1)))
    assert not [lens for lens in lenses if lens.command.title.startswith("vs ")]  # the baseline's own

    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(sys2), types.Position(1, 0)))
    text = hover.contents.value
    assert hover.contents.kind == types.MarkupKind.Markdown  # both profiles list it
    # the first system's words that its alignment with the second's does not match, as one run
    (line,) = [x for x in text.splitlines() if x.startswith("- **news\\.sys1\\.txt** (BLEU ")]
    assert line.endswith("): three tram lines **new will be** built")
    assert text.endswith("\n\n**Other systems**\n" + line + "\n\n**bold**: words that differ from news\\.sys2\\.txt")
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(sys2), types.Position(3, 0)))
    assert "): **the** costs are high\n" in hover.contents.value

    # an edit to the second system: told again, with its version, numbers from the new text
    change(client, sys2, 2, (3, 0), (3, len(SYS2[3])), "nothing")
    told = await changed(client, lambda p: p["versions"] == [1, 2])
    edited = SYS2[:3] + ["nothing"]
    for ours, r in zip(told["systems"], _sacrebleu([SYS1, edited], "bs")):
        assert ours["bleu"] == {"score": r.score, "mean": r.mean, "ci": r.ci, "p_value": r.p_value}
    if client.profile == "visual-studio-code":
        assert "codeLens" in client.refreshes


async def test_plain_text_hover_of_other_systems(plain_client):
    from lsp_support import start_plain

    await start_plain(plain_client)
    folder = _write_systems(plain_client, (("news.sys1.txt", SYS1), ("news.sys2.txt", [line.replace("plan", "plan (v2)") for line in SYS2])))
    sys1, sys2 = open_doc(plain_client, folder / "news.sys1.txt"), open_doc(plain_client, folder / "news.sys2.txt")
    await scores(plain_client, sys1)
    await scores(plain_client, sys2)
    hover = await plain_client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(sys1), types.Position(0, 0)))
    assert hover.contents.kind == types.MarkupKind.PlainText
    text = hover.contents.value
    assert "**" not in text
    (line,) = [x for x in text.splitlines() if x.startswith("  news.sys2.txt (BLEU ")]
    # "of the" is what the second system leaves out: not its words, so not marked
    assert line.endswith("): the [city] council approved the plan [(v2)]")
    assert text.endswith("\n\nOther systems\n" + line + "\n\n[word]: words that differ from news.sys1.txt")


async def test_long_segments_of_other_systems_are_shown_unmarked(plain_client):
    from lsp_support import start_plain

    from scorelens.core.corpus import LONG_SEGMENT_CHARS

    await start_plain(plain_client)
    long_line = " ".join(["word"] * (LONG_SEGMENT_CHARS // 5 + 1))
    folder = _write_systems(plain_client, (("news.sys1.txt", [long_line, *SYS1[1:]]), ("news.sys2.txt", [long_line + " more", *SYS2[1:]])))
    sys1, sys2 = open_doc(plain_client, folder / "news.sys1.txt"), open_doc(plain_client, folder / "news.sys2.txt")
    await scores(plain_client, sys1)
    await scores(plain_client, sys2)
    hover = await plain_client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(sys1), types.Position(0, 0)))
    (line,) = [x for x in hover.contents.value.splitlines() if x.startswith("  news.sys2.txt (BLEU ")]
    # aligning the two long lines' words would hold the server: "more" differs but is not marked
    assert line.endswith(" word more") and "[" not in line
