"""Agreement between annotators in the editor, over stdio under both client profiles (VS Code's
UTF-16, Neovim's UTF-8): annotators' files of the same items (samples/agree: call.ann1.txt …
call.ann3.txt, or an ``[[agree]]`` group in scorelens.toml) get a code lens with their agreement
with each other annotator, whose numbers are ``scorelens agree --json``'s matrix cells; a hover
with the other annotators' versions of the segment, the words that differ marked; the
``scorelens/agreement`` request, which is ``agree --json``'s matrices and disagreements; and all
of it follows typing in any of them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from lsp_support import _plain, notified, open_doc
from lsprotocol import types
from test_server import change

NAMES = ("ann1", "ann2", "ann3")


def _agree(paths: list[Path], *args: str) -> dict:
    """``scorelens agree --json`` of the files."""
    out = subprocess.run([sys.executable, "-m", "scorelens", "agree", *map(str, paths), "--json", *args], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _samples(client) -> list[Path]:
    return [client.workspace / "agree" / f"call.{name}.txt" for name in NAMES]


async def _told(client, until, timeout: float = 30) -> dict:
    """The first ``scorelens/agreementChanged`` so far that ``until`` accepts."""
    return await notified(client.agreement_log, until, "scorelens/agreementChanged", timeout)


async def _lenses(client, uri: str) -> list[str]:
    found = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    return [lens.command.title for lens in found]


async def _agreement(client, uri: str, **params) -> dict | None:
    return _plain(await client.protocol.send_request_async("scorelens/agreement", {"uri": uri, **params}))


def _lens(label: str, matrix, k: int, value, names=NAMES) -> str:
    """The lens of annotator k: itself as the hypothesis, each other annotator as the reference."""
    return f"Agreement: {label} " + " · ".join(f"vs {names[i]} {value(matrix[i][k])}" for i in range(len(names)) if i != k)


def _wer_lens(matrix, k: int, names=NAMES) -> str:
    return _lens("WER", matrix, k, lambda x: f"{100 * x:.1f} %", names)


def _assert_matrices(result: dict, expected: dict, metrics) -> None:
    """The matrices equal agree's: exactly, but for ROUGE, whose corpus figure is a mean of
    F-measures kept as a running sum while segments change (in the last digit or so)."""
    assert list(result["matrices"]) == list(metrics)
    for m in metrics:
        if m.startswith("rouge"):
            flat = [(x, y) for row, other in zip(result["matrices"][m], expected[m]) for x, y in zip(row, other)]
            assert all((x is None and y is None) or x == pytest.approx(y, rel=1e-12, abs=0) for x, y in flat), m
        else:
            assert result["matrices"][m] == expected[m], m


async def test_lens_and_request_equal_agree_on_the_samples(client):
    paths = _samples(client)
    # scorelens.metrics as they are by default: BLEU, ROUGE-L and WER, BLEU ranking the segments
    expected = _agree(paths, "-m", "bleu,rougeL,wer", "--segments", "10")
    uris = [open_doc(client, p) for p in paths[:2]]  # the third is read from disk
    await _told(client, lambda p: p["versions"] == [1, 1, None])

    for k, uri in enumerate(uris):
        assert await _lenses(client, uri) == [
            _lens("BLEU", expected["bleu"], k, lambda x: f"{x:.1f}"),
            _lens("ROUGE-L", expected["rougeL"], k, lambda x: f"{x:.3f}"),
            _wer_lens(expected["wer"], k),
        ]
    result = await _agreement(client, uris[1])
    assert result["uri"] == uris[1] and result["annotators"] == [p.as_uri() for p in paths]
    assert (result["names"], result["rule"], result["versions"]) == (list(NAMES), "NAME.annK.EXT", [1, 1, None])
    _assert_matrices(result, expected, ("bleu", "rougeL", "wer"))
    assert result["signatures"] == expected["signatures"]
    assert (result["segments"], result["ranked_by"], result["problems"]) == (22, "bleu", [])
    # the same segments, in the same order, with the same texts; lines 0-based
    ours = [(d["segment"], d["disagreement"], d["texts"], [line + 1 for line in d["lines"]]) for d in result["disagreements"]]
    assert ours == [(d["segment"], d["disagreement"], d["texts"], d["lines"]) for d in expected["disagreements"]]
    top = await _agreement(client, uris[0], top=1)
    assert [d["segment"] for d in top["disagreements"]] == [expected["disagreements"][0]["segment"]]

    # an annotator's file is no hypothesis: no scores, no diagnostics of a pairing
    assert not [p for p in client.scores_log if p["uri"] in uris and p["scores"] is not None]


async def test_every_metric_agree_supports_has_its_lens(client):
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["bleu", "chrf", "rougeL", "wer", "ppl"]}})
    paths = _samples(client)
    expected = _agree(paths, "-m", "bleu,chrf,rougeL,wer")
    uri = open_doc(client, paths[2])
    await _told(client, lambda p: p["versions"] == [None, None, 1])
    result = await _agreement(client, uri)
    assert result["metrics"] == ["bleu", "chrf", "rougeL", "wer"] and result["ranked_by"] == "bleu"
    _assert_matrices(result, expected, ("bleu", "chrf", "rougeL", "wer"))
    ours = [(d["segment"], d["disagreement"]) for d in result["disagreements"][:3]]
    assert ours == [(d["segment"], d["disagreement"]) for d in expected["disagreements"]]
    assert await _lenses(client, uri) == [
        _lens("BLEU", expected["bleu"], 2, lambda x: f"{x:.1f}"),
        _lens("chrF", expected["chrf"], 2, lambda x: f"{x:.1f}"),
        _lens("ROUGE-L", expected["rougeL"], 2, lambda x: f"{x:.3f}"),
        _wer_lens(expected["wer"], 2),
    ]


async def test_other_implementations_and_metrics_are_measured_as_agree_measures_them(client):
    # agree refuses NLTK's BLEU and does not measure ROUGE-W: the editor measures BLEU by
    # sacreBLEU, leaves ROUGE-W out, and says so
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["bleu", "rougeW", "wer"], "bleu": {"impl": "nltk"}}})
    paths = _samples(client)
    expected = _agree(paths, "-m", "bleu,wer")
    uri = open_doc(client, paths[0])
    await _told(client, lambda p: p["versions"] == [1, None, None])
    result = await _agreement(client, uri)
    assert result["metrics"] == ["bleu", "wer"] and result["ranked_by"] == "bleu"
    _assert_matrices(result, expected, ("bleu", "wer"))
    assert result["signatures"] == expected["signatures"]
    ours = [(d["segment"], d["disagreement"]) for d in result["disagreements"][:3]]
    assert ours == [(d["segment"], d["disagreement"]) for d in expected["disagreements"]]
    problems = [
        "ROUGE-W not measured: scorelens agree does not measure annotators by it",
        "BLEU measured by sacrebleu, not by scorelens.bleu.impl nltk: scorelens agree measures by the default implementations only",
    ]
    assert result["problems"] == problems
    assert await _lenses(client, uri) == [
        _lens("BLEU", expected["bleu"], 0, lambda x: f"{x:.1f}"),
        _wer_lens(expected["wer"], 0),
        *(f"Agreement: {p}" for p in problems),
    ]


async def test_a_wer_transform_with_a_word_map_is_measured_as_agree_measures_it(client):
    # the map is read as a review reads it; the agreement config was refused without it
    (client.workspace / "agree" / "numbers.tsv").write_text("14th\tfourteenth\n1986\tnineteen eighty six\n", encoding="utf-8")
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["wer"], "wer": {"transform": "substitute:agree/numbers.tsv"}}})
    paths = _samples(client)
    expected = _agree(paths, "-m", "wer", "--wer-transform", f"substitute:{client.workspace / 'agree' / 'numbers.tsv'}")
    uri = open_doc(client, paths[0])
    await _told(client, lambda p: p["versions"] == [1, None, None])
    result = await _agreement(client, uri)
    _assert_matrices(result, expected, ("wer",))
    assert result["problems"] == []
    assert expected["wer"] != _agree(paths, "-m", "wer")["wer"]  # the map changed what was measured


async def test_hover_shows_the_other_annotators_versions_marked(client):
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["wer"]}})
    paths = _samples(client)
    uri = open_doc(client, paths[0])
    await _told(client, lambda p: p["versions"] == [1, None, None])
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(7, 3)))
    assert hover.contents.kind == types.MarkupKind.Markdown
    # segment 8: "the fourteenth of july nineteen eighty six" here; ann2 leaves out "the" (nothing of
    # its own to mark), ann3 writes the numbers as digits
    assert hover.contents.value == (
        "**ScoreLens** · segment 8\n\n**Other annotators**\n"
        "- **ann2** (WER 16.7%): fourteenth of july nineteen eighty six\n"
        "- **ann3** (WER 80.0%): the **14th** of july **1986**\n\n"
        "**bold**: words that differ from ann1"
    )


async def test_typing_in_one_annotator_changes_the_others_lens(client):
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["wer", "chrf"]}})
    paths = _samples(client)
    uris = [open_doc(client, p) for p in paths]
    await _told(client, lambda p: p["versions"] == [1, 1, 1])
    lines = [p.read_text(encoding="utf-8").split("\n") for p in paths]

    # ann3's 14th of july written out as ann1 wrote it; then a line of ann2 emptied
    change(client, uris[2], 2, (7, 0), (7, len(lines[2][7])), lines[0][7])
    lines[2][7] = lines[0][7]
    told = await _told(client, lambda p: p["versions"] == [1, 1, 2])
    change(client, uris[1], 2, (3, 0), (3, len(lines[1][3])), "")
    lines[1][3] = ""
    edited = client.workspace / "edited"
    edited.mkdir()
    for name, text in zip(NAMES, lines):
        (edited / f"call.{name}.txt").write_text("\n".join(text), encoding="utf-8")
    fresh = _agree([edited / f"call.{name}.txt" for name in NAMES], "-m", "wer,chrf")

    # the lens of the one not edited, asked at once: from both edits, as a fresh agree says
    assert await _lenses(client, uris[0]) == [_wer_lens(fresh["wer"], 0), _lens("chrF", fresh["chrf"], 0, lambda x: f"{x:.1f}")]
    result = await _agreement(client, uris[0])
    assert result["versions"] == [1, 2, 2]
    _assert_matrices(result, fresh, ("wer", "chrf"))
    assert [(d["segment"], d["disagreement"], d["texts"]) for d in result["disagreements"][:3]] == [
        (d["segment"], d["disagreement"], d["texts"]) for d in fresh["disagreements"]
    ]
    told = await _told(client, lambda p: p["versions"] == [1, 2, 2])
    assert told["matrices"] == result["matrices"] and "disagreements" not in told
    if client.profile == "visual-studio-code":
        assert "codeLens" in client.refreshes  # the others' lenses are asked for again

    # a line added to one of them: the files no longer line up, which the lens says; the numbers stay
    change(client, uris[0], 2, (22, 0), (22, 0), "one more line\n")
    titles = await _lenses(client, uris[1])
    assert titles[-1] == "Agreement: the annotators' files do not line up (ann1 has 23, ann2 has 22, ann3 has 22 lines); segment i of each is the same item"
    assert titles[0].startswith("Agreement: WER vs ann1 ")


async def test_closing_an_annotator_reads_its_file_again(client):
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["wer"]}})
    paths = _samples(client)
    uris = [open_doc(client, p) for p in paths[:2]]
    await _told(client, lambda p: p["versions"] == [1, 1, None])
    before = await _lenses(client, uris[0])
    change(client, uris[1], 2, (0, 0), (0, 0), "unsaved words ")
    assert await _lenses(client, uris[0]) != before
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uris[1])))
    assert await _lenses(client, uris[0]) == before  # the file on disk, not the unsaved text
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uris[0])))
    assert await _agreement(client, uris[0]) is None  # no document of the group open: dropped


async def test_an_agree_group_in_scorelens_toml_and_a_missing_annotator(client):
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["wer"]}})
    paths = _samples(client)
    folder = client.workspace / "team"
    for who, source in zip(("alice", "bob"), paths):
        (folder / who).mkdir(parents=True)
        (folder / who / "call.txt").write_bytes(source.read_bytes())
    # carol's transcript is not there yet
    (client.workspace / "scorelens.toml").write_text(
        '[[agree]]\nannotators = ["team/alice/{stem}.txt", "team/bob/{stem}.txt", "team/carol/{stem}.txt"]\n', encoding="utf-8"
    )
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams([types.FileEvent((client.workspace / "scorelens.toml").as_uri(), types.FileChangeType.Created)])
    )
    names = ("team/alice/call.txt", "team/bob/call.txt", "team/carol/call.txt")
    uri = open_doc(client, folder / "bob" / "call.txt")
    told = await _told(client, lambda p: p["versions"] == [None, 1, None])
    expected = _agree(paths[:2])
    assert told["rule"] == "scorelens.toml agree[0]" and told["names"] == list(names)
    carol = folder / "carol" / "call.txt"
    assert told["problems"] == ["team/carol/call.txt: not compared: no such file"]
    assert told["matrices"]["wer"] == [[None, expected["wer"][0][1], None], [expected["wer"][1][0], None, None], [None, None, None]]
    assert await _lenses(client, uri) == [
        f"Agreement: WER vs team/alice/call.txt {100 * expected['wer'][0][1]:.1f} %",
        "Agreement: team/carol/call.txt: not compared: no such file",
    ]
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(1, 0)))
    assert "**team/alice/call\\.txt** (WER 11.1%): hi **um** i think" in hover.contents.value

    # carol's file arrives: all three compared
    carol.parent.mkdir()
    carol.write_bytes(paths[2].read_bytes())
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams([types.FileEvent(carol.as_uri(), types.FileChangeType.Created)]))
    told = await _told(client, lambda p: p["problems"] == [])
    assert told["matrices"]["wer"] == _agree(paths)["wer"]
    titles = await _lenses(client, uri)
    assert titles == [_wer_lens(told["matrices"]["wer"], 1, names)]


async def test_plain_text_hover_of_other_annotators(plain_client):
    from lsp_support import start_plain

    await start_plain(plain_client, {"scorelens": {"metrics": ["wer"], "debounceMs": 0}})
    uri = open_doc(plain_client, _samples(plain_client)[2])
    await _told(plain_client, lambda p: p["versions"] == [None, None, 1])
    hover = await plain_client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(9, 0)))
    assert hover.contents.kind == types.MarkupKind.PlainText
    assert hover.contents.value == (
        "ScoreLens · segment 10\n\nOther annotators\n"
        "  ann1 (WER 50.0%): [twenty two] mill lane\n"
        "  ann2 (WER 50.0%): [twenty two] mill lane\n\n"
        "[word]: words that differ from ann3"
    )


async def test_settings_change_the_metrics_without_restart(client):
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["wer"]}})
    paths = _samples(client)
    uri = open_doc(client, paths[1])
    await _told(client, lambda p: p["versions"] == [None, 1, None])
    assert [t.split(" vs ")[0] for t in await _lenses(client, uri)] == ["Agreement: WER"]
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["cer", "ter", "ppl"]}})
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    told = await _told(client, lambda p: p["metrics"] == ["cer", "ter"])  # perplexity scores a text alone
    expected = _agree(paths, "-m", "cer,ter")
    _assert_matrices(told, expected, ("cer", "ter"))
    assert await _lenses(client, uri) == [
        _lens("CER", expected["cer"], 1, lambda x: f"{100 * x:.1f} %"),
        _lens("TER", expected["ter"], 1, lambda x: f"{x:.1f}"),
    ]


async def test_formatted_annotators_are_named_not_misread(client):
    folder = client.workspace / "records"
    folder.mkdir()
    for k in (1, 2):
        (folder / f"calls.ann{k}.jsonl").write_text('{"text": "hello there"}\n', encoding="utf-8")
    uri = open_doc(client, folder / "calls.ann1.jsonl", "json")
    told = await _told(client, lambda p: p["versions"] == [1, None])
    problem = "not compared: a jsonl file; the editor compares plain-text files (scorelens agree reads the others)"
    assert told["problems"] == [f"ann1: {problem}", f"ann2: {problem}"]
    assert await _lenses(client, uri) == [f"Agreement: ann1: {problem}", f"Agreement: ann2: {problem}"]


async def test_an_annotator_paired_as_a_hypothesis_gets_both(client):
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["wer"]}})
    paths = _samples(client)
    uri = open_doc(client, paths[0])
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="scorelens.pair", arguments=[uri, [paths[1].as_uri()]])
    )
    await _told(client, lambda p: p["versions"] == [1, None, None])
    titles = await _lenses(client, uri)
    assert titles[0].startswith("ScoreLens: WER 3.6%") and titles[-1].startswith("Agreement: WER vs ann2 3.6 % · vs ann3 ")
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(1, 0)))
    text = hover.contents.value
    # the segment's scores against its reference, then the other annotators' versions
    assert text.index("Reference: ") < text.index("**Other annotators**")
    assert "- **ann3** (WER 11.1%): hi um i think **i** lost my debit card" in text


async def test_lines_are_read_as_agree_reads_the_files(client):
    """sacreBLEU's lines: trailing blanks stripped, a lone carriage return no line break (the editor's
    lines, and so the hover's line numbers, still break there)."""
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["wer"]}})
    folder = client.workspace / "cr"
    folder.mkdir()
    (folder / "t.ann1.txt").write_bytes(b"one two three   \nfour five\rsix\nseven eight\n")
    (folder / "t.ann2.txt").write_bytes(b"one two three\nfour five six\nseven eight nine\n")
    paths = [folder / "t.ann1.txt", folder / "t.ann2.txt"]
    expected = _agree(paths)
    uri = paths[0].as_uri()
    text = paths[0].read_bytes().decode()  # (read_text would turn the lone \r into \n)
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "plaintext", 1, text)))
    told = await _told(client, lambda p: p["versions"] == [1, None])
    assert told["matrices"]["wer"] == expected["wer"] and told["segments"] == expected["segments"] == 3
    assert await _lenses(client, uri) == [_wer_lens(expected["wer"], 0, ("ann1", "ann2"))]
    # LSP line 3 ("seven eight") is the third scored line
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(3, 0)))
    assert hover.contents.value.startswith("**ScoreLens** · segment 3\n\n**Other annotators**\n- **ann2** (WER 33.3%): seven eight **nine**")
    result = await _agreement(client, uri)
    assert [d["lines"] for d in result["disagreements"]] == [[1, 1], [3, 2]]  # each file's own (LSP) lines


@pytest.mark.parametrize(
    ("name", "body", "problem"),
    [
        ("scorelens.toml", "agree = 3\n", "scorelens.toml: agree: must be an array of tables ([[agree]]); ignored"),
        ("scorelens.toml", "[[agree]]\nannotator = ['a/{stem}.txt']\n", "scorelens.toml: agree[0].annotators: must be a list of paths or globs"),
        ("scorelens.toml", "[[agree]]\nannotators = ['a/{stem}.txt', 5]\n", "scorelens.toml: agree[0].annotators[1]: must be a path or glob"),
        ("scorelens.toml", "[[agree]]\nannotators = ['a/{stem}.txt', 'b/{foo}.txt']\n", "scorelens.toml: agree[0].annotators[1]: unknown placeholder {foo}"),
        ("scorelens.toml", "[[agree]]\nannotators = ['a/{name}', 'b/{name}']\n", "scorelens.toml: agree[0].annotators[0]: {name} has no value here"),
        ("scorelens.toml", "[[agree]]\nannotators = ['a/{stem}.txt', 'gold.txt']\n", "scorelens.toml: agree[0].annotators: either every path has {stem}"),
        ("scorelens.toml", "[[agree]]\nannotators = ['/abs/{stem}.txt', 'b/{stem}.txt']\n", "scorelens.toml: agree[0].annotators[0]: must be relative"),
        ("scorelens.toml", "[[agree]]\nannotators = ['a/{stem}.txt']\n", "scorelens.toml: agree[0].annotators: name two or more annotators' files"),
        ("pyproject.toml", "[[tool.scorelens.agree]]\nannotators = 'x'\n", "pyproject.toml: tool.scorelens.agree[0].annotators: name two or more annotators' files"),
    ],
)
def test_a_bad_agree_entry_is_one_problem_naming_the_file_and_key(tmp_path, name, body, problem):
    from scorelens.lsp.pairing import _read_config

    pair = "[[pair]]" if name == "scorelens.toml" else "[[tool.scorelens.pair]]"
    (tmp_path / name).write_text(body + f"{pair}\nhypothesis = '*.hyp'\nreferences = ['{{stem}}.ref']\n", encoding="utf-8")
    pairs, groups, problems = _read_config(tmp_path)
    assert len(problems) == 1 and problems[0].startswith(f"{tmp_path / name}: ") and problem in problems[0], problems
    assert groups == [] and len(pairs) == 1  # the pairing rules still read


def test_groups_by_template_glob_and_name(tmp_path):
    from scorelens.lsp.pairing import Pairings

    for path in ("a/call.txt", "b/call.txt", "ann1/x/q.txt", "ann2/x/q.txt", "ann3/x/r.txt", "n/t.ann2.txt", "n/t.ann10.txt", "n/t.ann1.txt"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("x\n", encoding="utf-8")
    (tmp_path / "scorelens.toml").write_text(
        '[[agree]]\nannotators = ["a/{stem}.txt", "b/{stem}.txt", "c/{stem}.txt"]\n[[agree]]\nannotators = ["ann*/x/{stem}.txt"]\n', encoding="utf-8"
    )
    pairings = Pairings()
    pairings.set_folders([tmp_path])
    assert pairings.problems == []
    group = pairings.annotators((tmp_path / "b/call.txt").as_uri(), [])
    assert group.names == ("a/call.txt", "b/call.txt", "c/call.txt") and group.rule == "scorelens.toml agree[0]"  # c/: missing, named
    assert pairings.annotators((tmp_path / "ann2/x/q.txt").as_uri(), []).names == ("ann1/x/q.txt", "ann2/x/q.txt")
    assert pairings.annotators((tmp_path / "ann3/x/r.txt").as_uri(), []) is None  # alone
    # an open document not saved yet counts
    opened = (tmp_path / "ann1/x/r.txt").as_uri()
    assert pairings.annotators((tmp_path / "ann3/x/r.txt").as_uri(), [opened]).annotators[0] == opened
    by_name = pairings.annotators((tmp_path / "n/t.ann2.txt").as_uri(), [])
    assert by_name.names == ("ann1", "ann2", "ann10") and by_name.rule == "NAME.annK.EXT"
    assert pairings.annotators((tmp_path / "n/t.hyp.txt").as_uri(), []) is None


async def test_a_byte_order_mark_scored_in_a_closed_annotator_is_a_problem(client):
    """A file on disk keeps its leading U+FEFF in its first word, as ``scorelens agree`` scores
    (and names) it; no text shows it, so the lens says it. Opened, VS Code and Neovim have dropped it."""
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["wer"]}})
    folder = client.workspace / "bom"
    folder.mkdir()
    paths = [folder / f"t.ann{k}.txt" for k in (1, 2, 3)]
    paths[0].write_bytes("\ufeffhello world\nfoo bar\n".encode("utf-8"))
    paths[1].write_text("hello world\nfoo bar\n", encoding="utf-8")
    paths[2].write_text("hello world\nfoo baz\n", encoding="utf-8")
    expected = _agree(paths)
    uri = open_doc(client, paths[1])
    told = await _told(client, lambda p: p["versions"] == [None, 1, None])
    assert told["matrices"]["wer"] == expected["wer"]
    note = "ann1: the file starts with a byte-order mark (U+FEFF); it is scored as part of the first word, as sacreBLEU's command line scores it"
    assert told["problems"] == [note]
    assert await _lenses(client, uri) == [_wer_lens(expected["wer"], 1), f"Agreement: {note}"]
    opened = paths[0].as_uri()  # as VS Code and Neovim give it: without the mark
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(opened, "plaintext", 1, "hello world\nfoo bar\n")))
    told = await _told(client, lambda p: p["versions"] == [1, 1, None])
    assert told["problems"] == [] and told["matrices"]["wer"][0][1] == 0.0


async def test_files_that_do_not_line_up_are_ranked_by_position(client):
    """Mid-edit, one annotator has a line more: the segments are ranked paired by position, a
    missing one empty (the request failed on the pairs' unequal numbers of segments)."""
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["wer"]}})
    paths = _samples(client)
    uris = [open_doc(client, p) for p in paths[:2]]
    await _told(client, lambda p: p["versions"] == [1, 1, None])
    change(client, uris[0], 2, (22, 0), (22, 0), "one more line\n")
    result = await _agreement(client, uris[1])
    first = result["disagreements"][0]
    assert (first["segment"], first["texts"]) == (22, ["one more line", "", ""])
    # against nothing, three insertions (jiwer's WER 3); nothing against it, WER 1; ann2 and ann3 agree
    assert first["disagreement"] == pytest.approx((3 + 1) * 2 / 6)


async def test_annotators_who_wrote_the_same_do_not_disagree_as_agree_ranks_them(client):
    """Sentence BLEU of two empty lines is 0; no disagreement, as ``scorelens agree`` has none."""
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["bleu"]}})
    folder = client.workspace / "blank"
    folder.mkdir()
    paths = [folder / f"t.ann{k}.txt" for k in (1, 2)]
    paths[0].write_text("the cat sat\n\nhello there\n", encoding="utf-8")
    paths[1].write_text("the cat sat\n\nhello here\n", encoding="utf-8")
    expected = _agree(paths, "-m", "bleu", "--segments", "10")
    uri = open_doc(client, paths[0])
    await _told(client, lambda p: p["versions"] == [1, None])
    result = await _agreement(client, uri)
    assert [(d["segment"], d["disagreement"]) for d in result["disagreements"]] == [(2, expected["disagreements"][0]["disagreement"])]
    assert [d["segment"] for d in expected["disagreements"]] == [2]


async def test_an_annotator_deleted_while_open_leaves_the_group_when_closed(client):
    """Deleted while open, its live text is still compared; closed, it is neither open nor on disk,
    so no longer one of NAME.annK.EXT's group (as a file deleted while closed), not a problem."""
    client.set_configuration({"scorelens": {"debounceMs": 0, "metrics": ["wer"]}})
    paths = _samples(client)
    uris = [open_doc(client, p) for p in paths[:2]]
    await _told(client, lambda p: p["versions"] == [1, 1, None])
    before = await _lenses(client, uris[0])
    paths[1].unlink()
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams([types.FileEvent(uris[1], types.FileChangeType.Deleted)]))
    assert await _lenses(client, uris[0]) == before
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uris[1])))
    told = await _told(client, lambda p: p["names"] == ["ann1", "ann3"])
    assert told["problems"] == [] and told["matrices"]["wer"] == _agree([paths[0], paths[2]])["wer"]
    assert await _lenses(client, uris[0]) == [_wer_lens(told["matrices"]["wer"], 0, ("ann1", "ann3"))]
