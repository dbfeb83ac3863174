"""``scorelens agree``: annotators' files scored pair by pair both ways, each cell what ``scorelens
score B -r A`` prints (and so jiwer's and sacreBLEU's), records of other formats paired by id, bad
input one error line, the segments they disagree on most."""

from __future__ import annotations

import json
import random
from itertools import permutations
from pathlib import Path

import jiwer
import pytest
from sacrebleu.metrics import BLEU

from cli_support import ROOT, peer_lines, sample

ANNOTATORS = [sample(f"agree/call.ann{k}.txt") for k in (1, 2, 3)]
TED = ROOT.parent / "shared" / "data" / "compare-mt"


def cell(scores: dict, metric: str) -> float:
    figures = scores[metric]
    return figures.get("score", figures.get(metric, figures.get("fmeasure")))


def agree_json(run, *argv: str) -> dict:
    r = run("agree", *argv, "--json", "-j", "1")
    assert r.code == 0, r.err
    return json.loads(r.out)


def test_every_cell_is_what_score_prints_for_the_pair(run):
    metrics = ["wer", "cer", "bleu", "chrf", "ter", "rougeL"]
    out = agree_json(run, *ANNOTATORS, "-m", ",".join(metrics))
    for i, j in permutations(range(3), 2):
        scored = run("score", ANNOTATORS[j], "-r", ANNOTATORS[i], "-m", ",".join(metrics), "--json", "-j", "1")
        assert scored.code == 0, scored.err
        for metric in metrics:
            assert out[metric][i][j] == cell(json.loads(scored.out), metric), (metric, i, j)


def test_ted_as_three_annotators_equals_jiwer_and_sacrebleu(run):
    if not TED.is_dir():
        pytest.skip(f"shared test data not found at {TED} (expected ../shared/data next to the repository)")
    paths = [TED / f"ted.{name}.eng" for name in ("ref", "sys1", "sys2")]
    out = agree_json(run, *paths, "-m", "wer,bleu", "--segments", "5")
    texts = [peer_lines(p) for p in paths]
    for i, j in permutations(range(3), 2):
        assert out["wer"][i][j] == jiwer.wer(texts[i], texts[j])
        assert out["bleu"][i][j] == pytest.approx(BLEU().corpus_score(texts[j], [texts[i]]).score, abs=1e-9)
    assert len(out["disagreements"]) == 5
    for d in out["disagreements"]:
        assert d["texts"] == [t[d["segment"]] for t in texts]


def test_json_shape(run):
    out = agree_json(run, *ANNOTATORS, "-m", "wer,chrf")
    assert list(out) == ["annotators", "segments", "wer", "chrf", "signatures", "ranked_by", "disagreements"]
    assert out["annotators"] == ANNOTATORS and out["segments"] == 22 and out["ranked_by"] == "wer"
    for metric in ("wer", "chrf"):
        assert len(out[metric]) == 3 and all(len(row) == 3 for row in out[metric])
        assert [out[metric][i][i] for i in range(3)] == [None] * 3
        assert all(isinstance(out[metric][i][j], float) for i, j in permutations(range(3), 2))
    assert out["signatures"]["wer"].startswith("nrefs:1|unit:word|transform:default|")
    first = out["disagreements"][0]
    assert list(first) == ["segment", "lines", "disagreement", "texts"]
    assert first == {
        "segment": 7,
        "lines": [8, 8, 8],
        "disagreement": pytest.approx(0.5857142857),
        "texts": ["the fourteenth of july nineteen eighty six", "fourteenth of july nineteen eighty six", "the 14th of july 1986"],
    }
    assert len(out["disagreements"]) == 3  # compare's default


def test_text_output(run):
    r = run("agree", *ANNOTATORS, "-m", "wer,chrf", "--segments", "2")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0] == "3 annotators, 22 segments; in each table row i is the reference and column j the annotator scored against it"
    assert lines[2].startswith("WER  nrefs:1|unit:word|")
    assert lines[3].split() == ["reference", "1", "2", "3"]
    out = agree_json(run, *ANNOTATORS, "-m", "wer,chrf")
    for i in range(3):
        row = lines[4 + i].split()
        assert row[:2] == [str(i + 1), ANNOTATORS[i]]
        assert row[2:] == [f"{x:.4f}" if x is not None else "-" for x in out["wer"][i]]
    assert lines[8].startswith("chrF  ")
    assert lines[10].split()[2:] == ["-", f"{out['chrf'][0][1]:.2f}", f"{out['chrf'][0][2]:.2f}"]
    section = r.out.split("\n\n")[3].splitlines()
    assert section[0].startswith("Where the annotators disagree most (the mean WER of every annotator against every other")
    assert section[1] == "  mean WER 0.5857"
    assert section[2].split(maxsplit=1) == [f"{ANNOTATORS[0]}:8", "the fourteenth of july nineteen eighty six"]
    assert section[4].split(maxsplit=1) == [f"{ANNOTATORS[2]}:8", "the 14th of july 1986"]
    assert section[5] == "  mean WER 0.3889"
    assert len(section) == 9


def test_no_segments_asked_and_none_to_show(run, tmp_path):
    r = run("agree", *ANNOTATORS, "--segments", "0")
    assert r.code == 0 and "disagree" not in r.out
    same = tmp_path / "same.txt"
    same.write_text("a b\nc\n", encoding="utf-8")
    r = run("agree", same, same)
    assert r.code == 0, r.err
    assert r.out.splitlines()[-1] == "  nowhere: WER finds every two annotators alike on every segment"


def write_jsonl(path: Path, rows: list[dict]) -> str:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def test_jsonl_in_other_orders_pairs_by_id(run, tmp_path):
    texts = [peer_lines(p) for p in ANNOTATORS]
    paths = []
    for k, lines in enumerate(texts):
        order = list(range(len(lines)))
        if k:
            random.Random(k).shuffle(order)
        paths.append(write_jsonl(tmp_path / f"ann{k}.jsonl", [{"id": f"u{n + 1}", "text": lines[n]} for n in order]))
    plain = agree_json(run, *ANNOTATORS, "-m", "wer,chrf")
    shuffled = agree_json(run, *paths, "-m", "wer,chrf", "--hyp-field", "text")
    for metric in ("wer", "chrf"):
        assert shuffled[metric] == plain[metric]
    first = shuffled["disagreements"][0]
    assert first["id"] == "u8" and first["texts"] == plain["disagreements"][0]["texts"]
    assert first["lines"][0] == 8  # each file's own line of the record
    assert [json.loads(Path(p).read_text().split("\n")[n - 1])["id"] for p, n in zip(paths, first["lines"])] == ["u8"] * 3


def test_trn_files_score_by_sclites_rules_as_score_does(run, tmp_path):
    texts = [peer_lines(p) for p in ANNOTATORS]
    paths = []
    for k, lines in enumerate(texts):
        path = tmp_path / f"ann{k}.trn"
        path.write_text("".join(f"{line} (call_{n:02d})\n" for n, line in enumerate(lines)), encoding="utf-8")
        paths.append(str(path))
    out = agree_json(run, *paths)
    assert out["signatures"]["wer"].split("|")[3] == "rules:sclite"
    scored = json.loads(run("score", paths[1], "-r", paths[0], "-m", "wer", "--json").out)
    assert out["wer"][0][1] == scored["wer"]["wer"]
    assert out["disagreements"][0]["id"] == "call_07"


def test_one_annotator_is_not_agreement(run):
    r = run("agree", ANNOTATORS[0])
    assert r.code == 2
    assert "agree needs two or more annotators' files" in r.err


def test_files_that_do_not_line_up(run, tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("".join(f"{line}\n" for line in peer_lines(ANNOTATORS[2])[:20]), encoding="utf-8")
    r = run("agree", ANNOTATORS[0], ANNOTATORS[1], short)
    assert r.code == 2
    assert r.err == (
        f"scorelens: error: the files do not line up: {ANNOTATORS[0]} has 22 lines, {short} has 20 "
        f"(from {ANNOTATORS[0]}:21 on without a partner); segment i of every annotator's file is the same item\n"
    )


def test_records_without_ids_that_do_not_pair_by_position(run, tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", [{"text": "x"}, {"text": "y"}])
    b = write_jsonl(tmp_path / "b.jsonl", [{"text": "x"}])
    r = run("agree", a, b, "--hyp-field", "text")
    assert r.code == 2
    assert f"records do not pair by position: {a}:2: warning: a record has no partner at this position" in r.err


def test_a_broken_record_is_named_the_rest_scored_and_the_exit_status_2(run, tmp_path):
    """As check: the figures are printed, but not all of the files could be read."""
    rows = [{"id": f"u{n}", "text": t} for n, t in enumerate(["a b c", "a b d", "e f g", "h i"])]
    a = write_jsonl(tmp_path / "a.jsonl", rows)
    b = tmp_path / "b.jsonl"
    b.write_text('{"id": "u0", "text": "a b c"}\n{"id": "u1", "text": \n{"id": "u2", "text": "e f"}\n{"id": "u3", "text": "h i"}\n', encoding="utf-8")
    r = run("agree", a, b, "--hyp-field", "text", "--json")
    assert r.code == 2, r.err
    assert f"{b}:2: error: invalid JSON" in r.err
    assert f"{a}:2: warning: id 'u1' is not in {b}; left out" in r.err
    out = json.loads(r.out)
    assert out["segments"] == 3
    assert out["wer"] == [[None, 1 / 8], [1 / 7, None]]  # "g" deleted against a, inserted against b
    text = run("agree", a, b, "--hyp-field", "text")
    assert text.code == 2 and text.out.startswith("2 annotators, 3 segments")


def test_an_item_missing_from_a_file_is_left_out_without_failing(run, tmp_path):
    """Every record read, one file without an item: a warning, as documented, not an error."""
    rows = [{"id": f"u{n}", "text": t} for n, t in enumerate(["a b c", "a b d", "e f g"])]
    a = write_jsonl(tmp_path / "a.jsonl", rows)
    b = write_jsonl(tmp_path / "b.jsonl", [rows[2], rows[0]])
    r = run("agree", a, b, "--json")
    assert r.code == 0, r.err
    assert r.err == f"{a}:2: warning: id 'u1' is not in {b}; left out\n"
    assert json.loads(r.out)["segments"] == 2


@pytest.mark.parametrize(
    "argv, message",
    [
        (["-", ANNOTATORS[1]], "standard input (-) is not one"),
        ([*ANNOTATORS, "-m", "wer,ppl"], "annotators are scored against each other by bleu,chrf,ter,rougeL,rougeLsum,rouge1"),
        ([*ANNOTATORS, "-m", "bleu", "--bleu-impl", "nltk"], "agree ranks segments by the default implementation (sacrebleu) only"),
        ([*ANNOTATORS, "-r", ANNOTATORS[0]], "unrecognized arguments: -r"),
        ([*ANNOTATORS, "--segmentation", "paragraph", "--input-format", "jsonl"], "--segmentation is for plain text"),
        ([*ANNOTATORS, "-tok", "13b"], "invalid choice"),
    ],
)
def test_bad_usage_is_one_error(run, argv, message):
    r = run("agree", *argv)
    assert r.code == 2
    assert message in r.err


@pytest.mark.parametrize("metric", ["bleu", "chrf", "rougeL", "wer"])
def test_the_segments_ranked_show_the_mean_of_the_metric_itself(run, metric):
    """A higher-is-better metric ranks by its distance (100 - BLEU), but shows the mean BLEU."""
    r = run("agree", *ANNOTATORS, "-m", metric, "--segments", "1")
    data = json.loads(run("agree", *ANNOTATORS, "-m", metric, "--segments", "1", "--json").out)
    distance = data["disagreements"][0]["disagreement"]
    [shown] = [line.split()[-1] for line in r.out.splitlines() if line.startswith("  mean ")]
    scale = {"bleu": 100, "chrf": 100, "rougeL": 1, "wer": None}[metric]
    expected = distance if scale is None else scale - distance
    assert float(shown) == pytest.approx(expected, abs=0.01)


def test_one_segment_is_said_in_the_singular(run, tmp_path):
    for name, text in (("a.txt", "the cat\n"), ("b.txt", "a cat\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = run("agree", tmp_path / "a.txt", tmp_path / "b.txt")
    assert result.code == 0 and result.out.startswith("2 annotators, 1 segment; ")


def test_a_byte_order_mark_is_scored_as_score_scores_it_and_said(run, tmp_path):
    """Kept in the first word as sacreBLEU (and score) keep it, so the cells stay score's; but no
    text shows it, so it is named, once, as check names it."""
    paths = [tmp_path / name for name in ("a.txt", "b.txt", "c.txt")]
    paths[0].write_bytes("\ufeffhello world\nfoo bar\n".encode("utf-8"))
    paths[1].write_text("hello world\nfoo bar\n", encoding="utf-8")
    paths[2].write_text("hello world\nfoo baz\n", encoding="utf-8")
    r = run("agree", *paths, "--json")
    assert r.code == 0, r.err
    assert r.err == f"{paths[0]}:1: note: the file starts with a byte-order mark (U+FEFF); it is scored as part of the first word, as sacreBLEU's command line scores it\n"
    scored = json.loads(run("score", paths[1], "-r", paths[0], "-m", "wer", "--json").out)
    assert json.loads(r.out)["wer"][0][1] == scored["wer"]["wer"] == 0.25
    assert run("agree", *paths).err == r.err
    rows = [{"id": "u1", "text": "hello world"}]
    jsonl = [tmp_path / "a.jsonl", write_jsonl(tmp_path / "b.jsonl", rows)]
    jsonl[0].write_bytes(b"\xef\xbb\xbf" + Path(jsonl[1]).read_bytes())  # the reader skips it: nothing to say
    r = run("agree", *jsonl, "--json")
    assert r.code == 0 and r.err == "" and json.loads(r.out)["wer"][0][1] == 0.0


def test_the_traps_score_notes_are_noted(run, tmp_path):
    """Japanese annotators: rouge-score's tokenizer drops every letter (ROUGE-L 0 for near-equal
    texts), 13a and WER see whole clauses as words; each said as score says it."""
    paths = [tmp_path / "a.txt", tmp_path / "b.txt"]
    paths[0].write_text("東京は大きい都市です。\n今日は晴れです。\n", encoding="utf-8")
    paths[1].write_text("東京は大きな都市です。\n今日は晴れ。\n", encoding="utf-8")
    said = [
        "note: rouge-score's tokenizer dropped non-ASCII letters in 2 of 2 segments (as rouge-score does); --rouge-tokenizer unicode keeps them",
        "note: the annotators' text is mostly Chinese, Japanese or Korean, which BLEU's 13a tokenizer leaves unsegmented; -l zh, -l ja or -l ko picks the tokenizer sacreBLEU would",
        "note: WER splits words at spaces only, so unsegmented text counts whole phrases as words; CER (--metrics cer) is the usual measure there",
    ]
    r = run("agree", *paths, "-m", "wer,bleu,rougeL", "--segments", "0")
    assert r.code == 0 and r.out.splitlines()[-4:] == ["", *said]
    r = run("agree", *paths, "-m", "wer,bleu,rougeL", "--json")
    assert r.err.splitlines() == said and json.loads(r.out)["rougeL"] == [[None, 0.0], [0.0, None]]
    scored = run("score", paths[1], "-r", paths[0], "-m", "wer,bleu,rougeL")
    assert [line for line in scored.out.splitlines() if line.startswith("note: ")][0] == said[0]
    assert run("agree", *paths, "-m", "cer,rougeL", "-l", "ja", "--rouge-tokenizer", "unicode", "--json").err == ""


def test_annotators_named_in_their_language_get_its_tokenizer_as_score_does(run, tmp_path):
    """Files named .zh are scored with sacreBLEU's zh tokenizer, as score scores them, with the note."""
    first, second = sample("mt/zh/news.hyp.zh"), sample("mt/zh/news.ref.zh")
    result = run("agree", first, second, "-m", "bleu", "--json")
    assert result.code == 0, result.err
    expected = BLEU(trg_lang="zh").corpus_score(peer_lines(second), [peer_lines(first)]).score
    assert json.loads(result.out)["bleu"][0][1] == pytest.approx(expected, abs=1e-9)
    assert f"note: BLEU's tokenizer is zh, sacreBLEU's for that target language, as {first}'s name ends in .zh" in result.err
