"""The metric flavours in the editor (NLTK's BLEU, the ``rouge`` package, ROUGE-1.5.5 with ROUGE-W/S/SU,
Whisper-normalised WER), end to end under both client profiles: the ``scorelens/scores`` notification,
hover, inlay hints, code lens and report show the numbers ``scorelens score --json`` and ``-sl --json``
print for the same files, an edit re-scores them as a fresh open of the edited text does, and settings
that do not go together give one message while the server keeps serving."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from lsp_support import diagnostics, open_doc, scores
from lsprotocol import types
from test_metrics import configure
from test_server import change, units

from scorelens.api.options import IMPL_OPTIONS
from scorelens.lsp.flavours import IMPL_SETTINGS

STOPWORDS = "the\na\nof\nto\nin\n"

# name: (settings, the same as command-line options, the hypothesis under the samples)
FLAVOURS = {
    "nltk": (
        {"metrics": ["bleu", "rougeL", "wer"], "bleu": {"impl": "nltk", "weights": [0.5, 0.5]}, "nltk": {"smoothing": 1}},
        ["-m", "bleu,rougeL,wer", "--bleu-impl", "nltk", "--bleu-weights", "0.5,0.5", "--nltk-smoothing", "1"],
        "mt/news.hyp.en",
    ),
    "nltk-method7": (
        {"metrics": ["bleu"], "bleu": {"impl": "nltk", "lowercase": True}, "nltk": {"smoothing": 7, "autoReweigh": True}},
        ["-m", "bleu", "--bleu-impl", "nltk", "-lc", "--nltk-smoothing", "7", "--nltk-auto-reweigh"],
        "mt/news.hyp.en",
    ),
    "rouge": (
        {"metrics": ["rouge1", "rouge2", "rougeL"], "rouge": {"impl": "rouge"}},
        ["-m", "rouge1,rouge2,rougeL", "--rouge-impl", "rouge"],
        "summarization/articles.hyp.txt",
    ),
    "rouge-1.5.5": (
        {
            "metrics": ["rouge1", "rougeL", "rougeW", "rougeS", "rougeSU"],
            "segmentation": "paragraph",
            "rouge": {"impl": "rouge-1.5.5", "wWeight": 1.5, "skipGap": 2, "stem": True, "stopwords": "${workspaceFolder}/stop.txt"},
        },
        ["-m", "rouge1,rougeL,rougeW,rougeS,rougeSU", "--segmentation", "paragraph", "--rouge-impl", "rouge-1.5.5",
         "--rouge-w-weight", "1.5", "--rouge-skip-gap", "2", "--stem", "--rouge-stopwords", "stop.txt"],
        "summarization/articles.hyp.txt",
    ),
    "rouge-1.5.5-best": (
        {"metrics": ["bleu", "rouge2", "rougeSU"], "rouge": {"impl": "rouge-1.5.5", "multiRef": "best", "skipGap": -1}},
        ["-m", "bleu,rouge2,rougeSU", "--rouge-impl", "rouge-1.5.5", "--rouge-multi-ref", "best", "--rouge-skip-gap", "-1"],
        "mt/news.hyp.en",
    ),
    # ROUGE-1.5.5's W, S and SU over rouge-score's tokens (an extension of the default impl)
    "rouge-score-wsu": (
        {"metrics": ["rouge1", "rougeL", "rougeW", "rougeS", "rougeSU"], "rouge": {"wWeight": 1.5, "skipGap": 2, "stem": True}},
        ["-m", "rouge1,rougeL,rougeW,rougeS,rougeSU", "--rouge-w-weight", "1.5", "--rouge-skip-gap", "2", "--stem"],
        "summarization/articles.hyp.txt",
    ),
    "whisper": (
        {"metrics": ["wer", "cer"], "wer": {"transform": "whisper-english"}},
        ["-m", "wer,cer", "--wer-transform", "whisper-english"],
        "asr/call.hyp.txt",
    ),
    # jiwer's wer_contiguous / cer_contiguous: a paragraph's lines joined by a space
    "contiguous": (
        {"metrics": ["wer", "cer"], "segmentation": "paragraph"},
        ["-m", "wer,cer", "--segmentation", "paragraph"],
        "summarization/articles.hyp.txt",
    ),
}


def cli(workspace, hypothesis: str, options: list[str], *extra: str):
    """``scorelens score HYP OPTIONS --json`` (with ``-sl``: one row per segment) in the workspace."""
    done = subprocess.run(
        [sys.executable, "-m", "scorelens", "score", hypothesis, *options, "--json", *extra],
        cwd=workspace, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    return rows if extra else rows[0]


def same(got, wanted) -> bool:
    """Equal, floats to 1e-12 (running sums and a fresh sum differ in the last bits)."""
    if isinstance(wanted, dict):
        return isinstance(got, dict) and got.keys() == wanted.keys() and all(same(got[k], wanted[k]) for k in wanted)
    if isinstance(wanted, list):
        return isinstance(got, list) and len(got) == len(wanted) and all(map(same, got, wanted))
    if isinstance(wanted, float):
        return got == pytest.approx(wanted, rel=1e-12, abs=1e-12)
    return got == wanted


def short(row: dict) -> str:
    """A segment's scores as hints and lenses write them (lsp/describe.short's order and decimals)."""
    parts = []
    if "bleu" in row:
        parts.append(f"BLEU {row['bleu']['score']:.1f}")
    rouge = [k for k in row if k[5:].isdigit()] + [k for k in ("rougeL", "rougeLsum", "rougeW", "rougeS", "rougeSU") if k in row]
    parts += [f"ROUGE-{k[5:]} {row[k]['fmeasure']:.3f}" for k in rouge]
    parts += [f"{k.upper()} {100 * row[k][k]:.1f}%" for k in ("wer", "cer") if k in row]
    return " · ".join(parts)


def text_of(hover) -> str:
    return hover.contents.value if hasattr(hover.contents, "value") else str(hover.contents)


async def hover(client, uri: str, line: int) -> str:
    return text_of(await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(line, 0))))


async def report_rows(client, uri: str) -> list[dict]:
    report = await client.protocol.send_request_async("scorelens/report", {"uri": uri})
    segments = report["segments"] if isinstance(report, dict) else report.segments
    return [r if isinstance(r, dict) else r._asdict() for r in segments]


def pair(client, name: str, hyp: str, ref: str):
    """``NAME.hyp.txt`` and ``NAME.ref.txt`` in a folder of that name in the workspace: the folder."""
    folder = client.workspace / name
    folder.mkdir()
    (folder / f"{name}.hyp.txt").write_text(hyp, encoding="utf-8")
    (folder / f"{name}.ref.txt").write_text(ref, encoding="utf-8")
    return folder


def headline(figures: dict, key: str) -> float:
    return figures["score"] if "score" in figures else figures["fmeasure"] if "fmeasure" in figures else figures[key]


@pytest.mark.parametrize("flavour", FLAVOURS)
async def test_every_feature_shows_the_clis_numbers(client, flavour):
    settings, options, hypothesis = FLAVOURS[flavour]
    (client.workspace / "stop.txt").write_text(STOPWORDS, encoding="utf-8")
    configure(client, **settings)
    uri = open_doc(client, client.workspace / hypothesis)
    wanted = cli(client.workspace, hypothesis, options)
    rows = cli(client.workspace, hypothesis, options, "-sl")
    got = await scores(client, uri, until=lambda p: p["scores"] and set(p["scores"]) == set(wanted))
    assert same(got["scores"], wanted), (got["scores"], wanted)
    assert not client.messages, [m.message for m in client.messages]

    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    titles = [lens.command.title for lens in lenses]
    assert titles[0].startswith(f"ScoreLens: {short(wanted)} (")
    signatures = {figures["signature"] for figures in wanted.values() if isinstance(figures, dict)}
    named = [s for s in signatures if "|impl:" in s or "transform:whisper" in s or "_contiguous|" in s]
    assert named, "the flavour is named in a signature"
    if any("|impl:" in s for s in named):  # and on the lens
        assert any(t.split(" ", 1)[1] in named for t in titles[1:] if t.startswith(("BLEU ", "ROUGE "))), titles

    hyp_lines = (client.workspace / hypothesis).read_text(encoding="utf-8").split("\n")
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0), types.Position(len(hyp_lines), 0)))
    )
    labels = [h.label for h in hints if isinstance(h.label, str)]
    report = await report_rows(client, uri)
    assert len(report) == len(rows)
    for row in (rows[0], rows[-1]):
        assert short(row) in labels
        text = await hover(client, uri, row["line"] - 1)
        if "bleu" in row:
            assert f"sentence BLEU {row['bleu']['score']:.2f}" in text
        for key in (k for k in row if k.startswith("rouge")):
            r = row[key]
            assert f"ROUGE-{key[5:]}{'**' if 'ScoreLens**' in text else ''} P {r['precision']:.3f} · R {r['recall']:.3f} · F {r['fmeasure']:.3f}" in text
        for key in (k for k in row if k in wanted and k != "segments"):
            assert report[row["segment"]][key] == pytest.approx(headline(row[key], key), abs=1e-12), key
        for signature in named:
            assert signature in text


@pytest.mark.parametrize("flavour", ["nltk", "rouge", "rouge-1.5.5", "whisper", "contiguous"])
async def test_an_edit_rescores_as_a_fresh_open(client, flavour, tmp_path):
    settings, options, hypothesis = FLAVOURS[flavour]
    (client.workspace / "stop.txt").write_text(STOPWORDS, encoding="utf-8")
    configure(client, **settings)
    path = client.workspace / hypothesis
    uri = open_doc(client, path)
    before = (await scores(client, uri, version=1, until=lambda p: p["scores"] is not None))["scores"]
    lines = path.read_text(encoding="utf-8").split("\n")
    # a word typed into the first line, one deleted from the second
    change(client, uri, 2, (0, 0), (0, 0), "so ")
    second = lines[1]
    cut = second.index(" ") + 1
    change(client, uri, 3, (1, 0), (1, units(client, second[:cut])), "")
    lines[0], lines[1] = "so " + lines[0], second[cut:]
    edited = (await scores(client, uri, version=3, until=lambda p: p["scores"] is not None))["scores"]
    assert not same(edited, before)

    # the edited text opened afresh, in a copy of its folder, and scored by the command line
    folder = path.parent
    copy = client.workspace / "fresh" / folder.name
    shutil.copytree(folder, copy)
    (copy / path.name).write_text("\n".join(lines), encoding="utf-8")
    fresh = open_doc(client, copy / path.name)
    assert same((await scores(client, fresh, until=lambda p: p["scores"] is not None))["scores"], edited)
    assert same(edited, cli(client.workspace, str((copy / path.name).relative_to(client.workspace)), options))


async def test_settings_that_do_not_go_together_give_one_message_and_the_rest_is_scored(client):
    # rougeLsum under ROUGE-1.5.5's ROUGE, NLTK's weights under sacreBLEU's BLEU
    configure(client, metrics=["bleu", "rougeL", "rougeLsum"], rouge={"impl": "rouge-1.5.5"}, bleu={"weights": [1, 0, 0, 0]})
    uri = open_doc(client, client.workspace / "mt" / "news.hyp.en")
    got = await scores(client, uri, until=lambda p: p["scores"] is not None)
    assert set(got["scores"]) == {"bleu", "rougeL", "segments"}
    assert same(got["scores"], cli(client.workspace, "mt/news.hyp.en", ["-m", "bleu,rougeL", "--rouge-impl", "rouge-1.5.5"]))
    told = [m.message for m in client.messages]
    assert len(told) == 1, told
    assert "scorelens.metrics" in told[0] and "rougeLsum" in told[0] and "scorelens.bleu.weights" in told[0]

    # the rouge package takes one reference, and this hypothesis has two: rouge-score's instead
    configure(client, metrics=["rouge1"], rouge={"impl": "rouge"})
    got = await scores(client, uri, until=lambda p: p["scores"] and set(p["scores"]) == {"rouge1", "segments"})
    assert same(got["scores"], cli(client.workspace, "mt/news.hyp.en", ["-m", "rouge1"]))
    assert any("one reference" in m.message or "1 reference" in m.message for m in client.messages[1:])
    hovered = await hover(client, uri, 0)
    assert "ROUGE-1" in hovered


async def test_a_stopword_list_outside_the_workspace_is_refused(client, tmp_path):
    outside = tmp_path / "stop.txt"
    outside.write_text(STOPWORDS, encoding="utf-8")
    configure(client, metrics=["rouge1"], rouge={"impl": "rouge-1.5.5", "stopwords": str(outside)})
    uri = open_doc(client, client.workspace / "summarization" / "articles.hyp.txt")
    got = await scores(client, uri, until=lambda p: p["scores"] is not None)
    assert "stop:no" in got["scores"]["rouge1"]["signature"]
    assert same(got["scores"], cli(client.workspace, "summarization/articles.hyp.txt", ["-m", "rouge1", "--rouge-impl", "rouge-1.5.5"]))
    told = [m.message for m in client.messages]
    assert len(told) == 1 and "outside the workspace" in told[0]


async def test_texts_the_oracle_fails_on_are_one_problem_until_an_edit_mends_them(client):
    # ROUGE-1.5.5.pl dies on ROUGE-W against a reference without tokens
    folder = pair(client, "dies", "the cat sat\nit was warm\n", "the cat sat down\n...\n")
    configure(client, metrics=["rougeL", "rougeW"], rouge={"impl": "rouge-1.5.5"})
    uri = open_doc(client, folder / "dies.hyp.txt")
    failed = await scores(client, uri, until=lambda p: p["scores"] is None)
    assert failed["references"]
    problems = [d for d in await diagnostics(client, uri) if d.code == "scoring.failed"]
    assert len(problems) == 1 and "ROUGE-W" in problems[0].message
    assert problems[0].range.start.line == 1  # on the segment it dies on
    assert len([m for m in client.messages if "ROUGE-W" in m.message]) == 1
    # the server keeps serving: a hover answers, and opening the reference mends it
    assert await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0))) is None
    ref = open_doc(client, folder / "dies.ref.txt")
    change(client, ref, 2, (1, 0), (1, 3), "it was hot")
    got = await scores(client, uri, until=lambda p: p["scores"] is not None)
    assert set(got["scores"]) == {"rougeL", "rougeW", "segments"}
    assert not [d for d in await diagnostics(client, uri) if d.code == "scoring.failed"]


async def test_nltk_method0_notes_are_on_the_lens_and_its_tiny_scores_in_the_hover(client):
    folder = pair(client, "notes", "the cat sat a mat on\n", "the cat sat on the mat\n")
    configure(client, metrics=["bleu"], bleu={"impl": "nltk"})
    uri = open_doc(client, folder / "notes.hyp.txt")
    got = await scores(client, uri, until=lambda p: p["scores"] is not None)
    row = cli(folder, "notes.hyp.txt", ["-m", "bleu", "--bleu-impl", "nltk"], "-sl")[0]
    assert got["scores"]["bleu"]["score"] == row["bleu"]["score"] and 0 < row["bleu"]["score"] < 1e-50
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    notes = [lens.command for lens in lenses if lens.command.title.startswith("note: NLTK's BLEU")]
    assert len(notes) == 1 and "4-gram" in notes[0].title and "SmoothingFunction()" in notes[0].tooltip
    text = await hover(client, uri, 0)
    assert f"sentence BLEU {row['bleu']['score']:.3g}" in text and "0 counts of 4-gram overlaps" in text


def test_the_settings_clash_as_the_command_lines_options_do():
    """The editor refuses what api/options refuses: the same settings of the same implementations."""
    names = {
        "bleu_weights": "bleu.weights", "nltk_smoothing": "nltk.smoothing", "nltk_auto_reweigh": "nltk.autoReweigh",
        "smooth_method": "bleu.smoothMethod", "smooth_value": "bleu.smoothValue", "max_ngram_order": "bleu.maxNgramOrder",
        "rouge_tokenizer": "rouge.tokenizer", "stem": "rouge.stem", "rouge_w_weight": "rouge.wWeight",
        "rouge_skip_gap": "rouge.skipGap", "rouge_multi_ref": "rouge.multiRef", "rouge_stopwords": "rouge.stopwords",
    }
    translated = {
        f"{impl.split('_')[0]}.impl": {names[option]: impls for option, impls in takers.items()} for impl, takers in IMPL_OPTIONS.items()
    }
    assert translated == IMPL_SETTINGS


async def test_rouge_flavours_findings_and_the_pairs_the_rouge_package_skips(client):
    folder = pair(client, "skips", "the cat sat on the mat\n.\nthe dog barked\n", "the cat lay on the mat\nsomething\nthe dog barked loudly\n")
    configure(client, metrics=["rouge1", "rouge2"], rouge={"impl": "rouge"})
    uri = open_doc(client, folder / "skips.hyp.txt")
    got = await scores(client, uri, until=lambda p: p["scores"] is not None)
    assert same(got["scores"], cli(folder, "skips.hyp.txt", ["-m", "rouge1,rouge2", "--rouge-impl", "rouge"]))
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    assert [lens.command.title for lens in lenses if lens.command.title.startswith("note: ")] == ["note: the rouge package skips 1 of 3 pairs (an empty text, or one without a sentence once split at '.'), as get_scores(ignore_empty=True) does; ROUGE is the mean over the others"]
    assert "the rouge package skips this pair" in await hover(client, uri, 1)
    # words no reference has: rouge.unmatched, at scorelens.severity.rouge
    unmatched = [d for d in await diagnostics(client, uri) if d.code == "rouge.unmatched"]
    assert [(d.range.start.line, d.range.start.character, d.severity) for d in unmatched] == [(0, units(client, "the cat "), types.DiagnosticSeverity.Hint)]
    assert unmatched[0].message == '"sat" is not in the reference (ROUGE: unmatched word)'
    configure(client, metrics=["rouge1", "rouge2"], rouge={"impl": "rouge"}, severity={"rouge": "error"})
    await scores(client, uri, until=lambda p: p["scores"] is not None)
    assert [d.severity for d in await diagnostics(client, uri) if d.code == "rouge.unmatched"] == [types.DiagnosticSeverity.Error]


async def test_a_segment_nltk_method6_fails_on_has_no_sentence_bleu_and_the_rest_is_scored(client):
    folder = pair(client, "method6", "the cat sat on the mat today\nhello there\n", "the cat sat on the mat yesterday\nhello here\n")
    configure(client, metrics=["bleu", "wer"], bleu={"impl": "nltk"}, nltk={"smoothing": 6})
    uri = open_doc(client, folder / "method6.hyp.txt")
    got = await scores(client, uri, until=lambda p: p["scores"] is not None)
    options = ["-m", "bleu,wer", "--bleu-impl", "nltk", "--nltk-smoothing", "6"]
    assert same(got["scores"], cli(folder, "method6.hyp.txt", options))
    first = sentence_bleu_of(folder, options, 0)
    assert f"sentence BLEU {first:.2f}" in await hover(client, uri, 0)
    assert "sentence BLEU**: none, NLTK's method6 requires a non-zero 3-gram precision" in await hover(client, uri, 1)
    report = await report_rows(client, uri)
    assert report[0]["bleu"] == pytest.approx(first, abs=1e-12) and report[1]["bleu"] is None
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0), types.Position(2, 0)))
    )
    assert [h.label for h in hints if isinstance(h.label, str) and h.position.line == 1 and "WER" in h.label] == ["WER 50.0%"]


def sentence_bleu_of(folder, options: list[str], segment: int) -> float:
    """NLTK's sentence_bleu × 100 of one line, as ``score -sl`` gives it for a file of that line alone."""
    lines = [(folder / n).read_text(encoding="utf-8").split("\n")[segment] for n in ("method6.hyp.txt", "method6.ref.txt")]
    (folder / "one.hyp.txt").write_text(lines[0] + "\n", encoding="utf-8")
    (folder / "one.ref.txt").write_text(lines[1] + "\n", encoding="utf-8")
    return cli(folder, "one.hyp.txt", options, "-sl")[0]["bleu"]["score"]


STEPS = "lowercase,expand-common-english-contractions,remove-punctuation,remove-multiple-spaces,strip"


async def test_jiwer_steps_findings_on_the_original_words_and_the_scored_texts_in_the_hover(client):
    from test_server import by_code

    folder = pair(client, "steps", "Hello, wrld! We're here.\nIt's  fine\n", "hello world we are here\nit is fine\n")
    configure(client, metrics=["wer", "cer"], wer={"transform": STEPS})
    uri = open_doc(client, folder / "steps.hyp.txt")
    got = await scores(client, uri, until=lambda p: p["scores"] is not None)
    assert same(got["scores"], cli(client.workspace, "steps/steps.hyp.txt", ["-m", "wer,cer", "--wer-transform", STEPS]))
    assert got["scores"]["wer"]["signature"].split("|")[2] == "transform:" + STEPS.replace(",", "+")
    assert (got["scores"]["wer"]["substitutions"], got["scores"]["wer"]["hits"]) == (1, 7)
    (sub,) = by_code(await diagnostics(client, uri), "wer.substitution")
    assert (sub.range.start.line, sub.range.start.character, sub.range.end.character) == (0, 7, 12)  # "wrld!"
    text = await hover(client, uri, 0)
    assert f"hypothesis as scored ({STEPS}): hello wrld we are here" in text
    assert f"reference as scored ({STEPS}): hello world we are here" in text
    assert not client.messages, [m.message for m in client.messages]

    # an unknown step: one message naming it, and jiwer's default transform meanwhile
    configure(client, metrics=["wer"], wer={"transform": "lowercase,remove-punct"})
    got = await scores(client, uri, until=lambda p: p["scores"] and "transform:default" in p["scores"]["wer"]["signature"])
    told = [m.message for m in client.messages]
    assert len(told) == 1 and "remove-punct" in told[0] and "scorelens.wer.transform" in told[0], told


async def test_a_word_map_in_the_editor_then_an_edited_map_and_a_bad_one(client):
    from test_server import by_code

    folder = pair(client, "wmap", "Mister Smith is okay\nwe are going to win\n", "mr smith is fine\nwe are gonna win\n")
    (client.workspace / "map.tsv").write_text("# spoken\twritten\nmister\tmr\nokay\tok\ngoing to\tgonna\n", encoding="utf-8")
    transform = "lowercase,substitute:map.tsv"  # relative: to the workspace folder, as the command line's to its working directory
    configure(client, metrics=["wer", "cer"], wer={"transform": transform})
    uri = open_doc(client, folder / "wmap.hyp.txt")
    got = await scores(client, uri, until=lambda p: p["scores"] is not None)
    assert same(got["scores"], cli(client.workspace, "wmap/wmap.hyp.txt", ["-m", "wer,cer", "--wer-transform", transform]))
    signature = got["scores"]["wer"]["signature"].split("|")[2]
    assert signature.startswith("transform:lowercase+substitute:map.tsv#"), signature
    assert (got["scores"]["wer"]["substitutions"], got["scores"]["wer"]["hits"]) == (1, 7)
    (sub,) = by_code(await diagnostics(client, uri), "wer.substitution")
    assert (sub.range.start.line, sub.range.start.character, sub.range.end.character) == (0, 16, 20)  # "okay", scored as "ok"
    assert f"hypothesis as scored ({transform}): mr smith is ok" in await hover(client, uri, 0)
    assert not client.messages, [m.message for m in client.messages]

    # the map edited on disk: picked up when the settings change (here, CER left out)
    (client.workspace / "map.tsv").write_text("mister\tmr\nokay\tfine\ngoing to\tgonna\n", encoding="utf-8")
    configure(client, metrics=["wer"], wer={"transform": transform})
    got = await scores(client, uri, until=lambda p: p["scores"] and "cer" not in p["scores"])
    assert (got["scores"]["wer"]["substitutions"], got["scores"]["wer"]["hits"]) == (0, 8)
    assert got["scores"]["wer"]["signature"].split("|")[2] != signature

    # a bad line: one message naming the file and line, and the other steps meanwhile
    (client.workspace / "bad.tsv").write_text("mister\tmr\nokay ok\n", encoding="utf-8")
    configure(client, metrics=["wer"], wer={"transform": "lowercase,strip,substitute:bad.tsv"})
    got = await scores(client, uri, until=lambda p: p["scores"] and "transform:lowercase+strip|" in p["scores"]["wer"]["signature"])
    told = [m.message for m in client.messages]
    assert len(told) == 1 and "bad.tsv:2:" in told[0] and "scorelens.wer.transform" in told[0], told
    # a missing one likewise
    configure(client, metrics=["wer"], wer={"transform": "substitute:missing.tsv,strip"})
    got = await scores(client, uri, until=lambda p: p["scores"] and "transform:strip|" in p["scores"]["wer"]["signature"])
    told = [m.message for m in client.messages]
    assert len(told) == 2 and "missing.tsv" in told[1], told
