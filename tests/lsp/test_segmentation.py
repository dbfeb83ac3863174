"""One segmentation rule everywhere, end to end under both client profiles: a document scores in the
editor as ``scorelens score`` scores its file (and sacreBLEU its lines): a segment ends only at
``\\n`` (or ``\\r\\n``) and is right-stripped, so a lone ``\\r``, U+2028, U+2029, U+0085, form feed
and vertical tab stay inside it. Positions still count LSP's lines, which a lone ``\\r`` ends: the
diagnostics land on the words' LSP line and character, and typing keeps both in step."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
import sacrebleu
from lsp_support import diagnostics, scores
from lsprotocol import types
from test_flavours import same
from test_metrics import configure
from test_server import by_code, change, units

METRICS = ["bleu", "chrf", "rougeL", "wer", "ter"]
OPTIONS = ["-m", ",".join(METRICS), "--chrf-whitespace"]
SETTINGS = {"metrics": METRICS, "chrf": {"whitespace": True}}

# the hypothesis, its reference, and the hypothesis's words WER substitutes (each once in the text)
CASES = {
    "lone CR": ("one two three\rfour five six\nthe cat sat\r\rdown\n", "one two three\rfour FIVE six\nthe dog sat\r\rdown\n", ["five", "cat"]),
    "CRLF and lone CR": ("one two three\r\nfour\rfive six\r\n", "one two three\r\nfour\rFIVE six\r\n", ["four\rfive"]),
    "U+2028 and U+2029": ("a b\u2028c d\nx\u2029y z\n", "a b\u2028C d\nx\u2029y Z\n", ["b\u2028c", "z"]),
    "form feed, vertical tab, NEL, trailing blanks": ("a b\x0c c\x0b\nd e \x85\nf g\u2028 \n", "a B\x0c c\nd e\nf G\n", ["b", "g"]),
    "lone CR at the end": ("a b c\rd e\r", "a b c\rd f\r", ["e"]),
}


def lsp_lines(text: str) -> list[str]:
    return re.split(r"\r\n|\r|\n", text)


def lsp_place(client, text: str, offset: int) -> tuple[int, int]:
    """(line, character in the client's units) of an offset into a text, lines as LSP counts them."""
    starts = [0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", text))]
    line = max(k for k, start in enumerate(starts) if start <= offset)
    return line, units(client, text[starts[line] : offset])


def places(client, text: str, words: list[str]) -> set:
    found = set()
    for word in words:
        a = text.index(word)
        (line, start), (end_line, end) = lsp_place(client, text, a), lsp_place(client, text, a + len(word))
        found.add((line, start, end_line, end))
    return found


def write(folder, name: str, hyp: str, ref: str) -> tuple:
    folder.mkdir(exist_ok=True)
    hyp_path, ref_path = folder / f"{name}.hyp.txt", folder / f"{name}.ref.txt"
    # (newline="": written as given, a "\r" not turned into anything else)
    hyp_path.write_text(hyp, encoding="utf-8", newline="")
    ref_path.write_text(ref, encoding="utf-8", newline="")
    return hyp_path, ref_path


def open_raw(client, path) -> str:
    """Opened with the text as the file holds it (lsp_support.open_doc reads with universal newlines)."""
    uri = path.as_uri()
    text = path.read_bytes().decode("utf-8")
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="plaintext", version=1, text=text)))
    return uri


def cli(cwd, hyp: str, ref: str, options: list[str] = OPTIONS) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "scorelens", "score", hyp, "-r", ref, *options, "--json"], cwd=cwd, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


async def substituted(client, uri: str) -> set:
    return {
        (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)
        for d in by_code(await diagnostics(client, uri), "wer.substitution")
    }


@pytest.mark.parametrize("case", CASES)
async def test_the_editor_scores_the_clis_segments_and_places_findings_on_lsp_lines(client, case):
    hyp, ref, words = CASES[case]
    configure(client, **SETTINGS)
    hyp_path, ref_path = write(client.workspace / "seg", re.sub(r"\W+", "-", case), hyp, ref)
    uri = open_raw(client, hyp_path)
    got = await scores(client, uri, until=lambda p: p["scores"] is not None)
    wanted = cli(hyp_path.parent, hyp_path.name, ref_path.name)
    assert same(got["scores"], wanted)
    assert got["scores"]["segments"] == len(hyp.rstrip("\n").split("\n"))
    # sacreBLEU's own command line reads the same lines
    hyp_lines, ref_lines = ([line.rstrip() for line in text.removesuffix("\n").split("\n")] for text in (hyp, ref))
    assert got["scores"]["bleu"]["score"] == pytest.approx(sacrebleu.corpus_bleu(hyp_lines, [ref_lines]).score, abs=1e-9)
    assert await substituted(client, uri) == places(client, hyp, words)


async def test_a_closed_and_an_open_reference_with_a_lone_cr_score_alike(client):
    hyp, ref, words = CASES["lone CR"]
    configure(client, **SETTINGS)
    hyp_path, ref_path = write(client.workspace / "seg", "refs", hyp, ref)
    uri = open_raw(client, hyp_path)
    closed = await scores(client, uri, until=lambda p: p["scores"] is not None)
    ref_uri = open_raw(client, ref_path)
    opened = await scores(client, uri, until=lambda p: p["scores"] is not None)
    assert same(opened["scores"], closed["scores"])
    # each substitution's related information is the reference's word, on the reference's LSP lines
    subs = by_code(await diagnostics(client, uri), "wer.substitution")
    related = {(r.range.start.line, r.range.start.character, r.range.end.line, r.range.end.character) for d in subs for r in [d.related_information[0].location]}
    assert related == places(client, ref, ["FIVE", "dog"])
    assert all(d.related_information[0].location.uri == ref_uri for d in subs)


async def test_hover_and_hints_of_a_segment_that_spans_lsp_lines(client):
    hyp, ref, _ = CASES["lone CR"]
    configure(client, **SETTINGS)
    hyp_path, _ = write(client.workspace / "seg", "hover", hyp, ref)
    uri = open_raw(client, hyp_path)
    await scores(client, uri, until=lambda p: p["scores"] is not None)
    expected = sacrebleu.sentence_bleu("one two three\rfour five six", ["one two three\rfour FIVE six"]).score
    for line in (0, 1):  # the segment's two LSP lines: the same segment
        hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(line, 0)))
        assert "segment 1" in hover.contents.value and f"sentence BLEU {expected:.2f}" in hover.contents.value
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(2, 0)))
    assert "segment 2" in hover.contents.value
    lines = lsp_lines(hyp)
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0), types.Position(len(lines), 0)))
    )
    ends = sorted((h.position.line, h.position.character) for h in hints if isinstance(h.label, str) and h.label.startswith("BLEU "))
    # each segment's scores at the end of its last LSP line
    assert ends == [(1, units(client, lines[1])), (4, units(client, lines[4]))]


async def test_typing_a_lone_cr_a_newline_after_it_and_deleting_it(client):
    configure(client, **SETTINGS)
    hyp, ref = "one two three four\nthe cat sat\n", "one two THREE four\nthe cat sat\n"
    hyp_path, ref_path = write(client.workspace / "seg", "typing", hyp, ref)
    uri = open_raw(client, hyp_path)
    await scores(client, uri, version=1, until=lambda p: p["scores"] is not None)
    text = hyp
    # (each step keeps two segments, so that the files line up for the command line)
    steps = [
        ((0, 7), (0, 8), "\r"),  # "one two\rthree four": one segment over two LSP lines
        ((1, 0), (2, 0), "\nthree four "),  # a "\n" typed after the lone "\r": one break, "\r\n", now
        ((0, 7), (1, 15), "\rthree four\nthe"),  # the "\n" deleted from "\r\n": a lone "\r" again
        ((1, 10), (1, 10), "\rand more"),  # a lone "\r" at a line's end, then text after it
        ((0, 0), (0, 0), "\r"),  # one at the very start
        ((1, 7), (2, 0), ""),  # a lone "\r" deleted
    ]
    for version, (start, end, new) in enumerate(steps, start=2):
        lines = lsp_lines(text)
        starts = [0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", text))]
        change(client, uri, version, (start[0], units(client, lines[start[0]][: start[1]])), (end[0], units(client, lines[end[0]][: end[1]])), new)
        text = text[: starts[start[0]] + start[1]] + new + text[starts[end[0]] + end[1] :]
        got = await scores(client, uri, version=version, until=lambda p: p["scores"] is not None)
        # the command line on the typed text, and the typed text opened afresh
        fresh_path, _ = write(client.workspace / f"fresh{version}", "typing", text, ref)
        assert same(got["scores"], cli(fresh_path.parent, fresh_path.name, "typing.ref.txt")), (version, repr(text))
        fresh = open_raw(client, fresh_path)
        assert same((await scores(client, fresh, until=lambda p: p["scores"] is not None))["scores"], got["scores"])
        assert await substituted(client, uri) == await substituted(client, fresh), (version, repr(text))


async def test_paragraphs_score_as_the_cli_and_jiwers_contiguous_transforms(client):
    """A paragraph's lines are joined by a space for WER and CER (jiwer's wer_contiguous): the
    editor's scores equal ``score --segmentation paragraph --json``, and a substitution next to a
    line end lands on its own word, the lines' counts differing between the sides."""
    hyp = "hello this\nsentence is\nfractured\n\nthe cat sat\ndown today\n"
    ref = "hello\nthis\nsentence\nis fractured\n\nthe dog\nsat down\ntoday\n"
    configure(client, metrics=["wer", "cer"], segmentation="paragraph")
    hyp_path, ref_path = write(client.workspace / "seg", "paragraphs", hyp, ref)
    uri = open_raw(client, hyp_path)
    got = await scores(client, uri, until=lambda p: p["scores"] is not None)
    wanted = cli(hyp_path.parent, hyp_path.name, ref_path.name, ["-m", "wer,cer", "--segmentation", "paragraph"])
    assert same(got["scores"], wanted)
    assert (wanted["wer"]["hits"], wanted["wer"]["substitutions"], wanted["wer"]["deletions"], wanted["wer"]["insertions"]) == (9, 1, 0, 0)
    assert "transform:wer_contiguous" in wanted["wer"]["signature"]
    assert await substituted(client, uri) == places(client, hyp, ["cat"])
