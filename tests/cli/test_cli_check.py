"""``scorelens check``: findings as path:line:col lines, JSON and GitHub annotations; thresholds."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jiwer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU, CHRF, TER

from cli_support import peer_lines, sample
from scorelens.cli.check import _indented

MT_HYP = sample("mt/news.hyp.en")
MT_REFS = [sample("mt/news.ref.en"), sample("mt/news.ref2.en")]
ASR_HYP, ASR_REF = sample("asr/call.hyp.txt"), sample("asr/call.ref.txt")
SUM_HYP, SUM_REF = sample("summarization/articles.hyp.txt"), sample("summarization/articles.ref.txt")


@pytest.fixture
def asr_pair(tmp_path):
    """One substitution, one insertion after an emoji (columns count code points), one deletion."""
    hyp, ref = tmp_path / "talk.hyp.txt", tmp_path / "talk.ref.txt"
    hyp.write_text("I see their car\n😀 yes uh I can\nopen door\n", encoding="utf-8")
    ref.write_text("I see there car\n😀 yes I can\nopen the door\n", encoding="utf-8")
    return str(hyp), str(ref)


def findings_of(out: str) -> list[str]:
    """The finding lines of a text report (everything before the blank line)."""
    return out.split("\n\n")[0].splitlines()


def test_wer_findings_text(run, asr_pair):
    hyp, ref = asr_pair
    result = run("check", hyp, "-r", ref, "--metrics", "wer")
    assert result.code == 0
    assert findings_of(result.out) == [
        f'{hyp}:1:7: wer.substitution "their" should be "there"',
        f'{hyp}:2:7: wer.insertion "uh" is not in the reference',
        f'{ref}:3:6: wer.deletion missing "the" (belongs at {hyp}:3:5)',
    ]
    summary = result.out.split("\n\n")[1].splitlines()
    assert summary[0] == "3 findings"
    w = jiwer.process_words(peer_lines(ref), peer_lines(hyp))
    assert (w.hits, w.substitutions, w.deletions, w.insertions) == (9, 1, 1, 1)
    assert summary[1] == f"WER = {w.wer:.4f} (H = 9 S = 1 D = 1 I = 1 MER = {w.mer:.4f} WIL = {w.wil:.4f})"
    assert summary[-1] == "segments: 3"


def test_bleu_unmatched_runs_are_merged(run, tmp_path):
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("a foo bar d\n", encoding="utf-8")
    ref.write_text("a b c d\n", encoding="utf-8")
    result = run("check", hyp, "-r", ref, "--metrics", "bleu")
    assert findings_of(result.out) == [f'{hyp}:1:3: bleu.unmatched not in any reference: "foo bar"']


def test_bleu_unmatched_needs_every_reference_to_miss(run, tmp_path):
    hyp, ref, ref2 = tmp_path / "h.txt", tmp_path / "r.txt", tmp_path / "r2.txt"
    hyp.write_text("a foo bar d\n", encoding="utf-8")
    ref.write_text("a b c d\n", encoding="utf-8")
    ref2.write_text("a foo d\n", encoding="utf-8")
    result = run("check", hyp, "-r", ref, "-r", ref2, "--metrics", "bleu")
    assert findings_of(result.out) == [f'{hyp}:1:7: bleu.unmatched not in any reference: "bar"']


def test_rouge_outside_lcs_on_both_sides(run, tmp_path):
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("the quick fox jumps\n", encoding="utf-8")
    ref.write_text("the brown fox jumps\n", encoding="utf-8")
    result = run("check", hyp, "-r", ref, "--metrics", "rougeL")
    assert findings_of(result.out) == [
        f'{hyp}:1:5: rouge.outside-lcs "quick" is outside the ROUGE-L longest common subsequence',
        f'{ref}:1:5: rouge.outside-lcs "brown" is outside the ROUGE-L longest common subsequence',
    ]


@pytest.mark.parametrize(
    "hyp, refs, argv",
    [
        (MT_HYP, MT_REFS, []),
        (ASR_HYP, [ASR_REF], ["--metrics", "bleu,rougeL,wer,cer"]),
        (SUM_HYP, [SUM_REF], ["--segmentation", "paragraph", "--metrics", "rougeL,rougeLsum"]),
    ],
)
def test_every_finding_points_at_its_text(run, hyp, refs, argv):
    """On the samples, each finding's path:line:col..end_column is exactly the quoted text."""
    result = run("check", hyp, *[a for r in refs for a in ("-r", r)], *argv, "--format", "json")
    assert result.code == 0
    report = json.loads(result.out)
    findings = report["findings"]
    assert len(findings) > 10
    files = {p: peer_lines(p) for p in [hyp, *refs]}
    codes = set()
    for f in findings:
        codes.add(f["code"])
        lines = files[f["path"]]
        if f["line"] == f["end_line"]:
            assert lines[f["line"] - 1][f["column"] - 1 : f["end_column"] - 1] == f["text"], f
        else:
            assert lines[f["line"] - 1][f["column"] - 1 :] == f["text"].split("\n")[0], f
            assert lines[f["end_line"] - 1][: f["end_column"] - 1] == f["text"].split("\n")[-1], f
    expected = {"rouge.outside-lcs"}
    if "bleu" in report["scores"]:
        expected.add("bleu.unmatched")
    if "wer" in report["scores"]:
        expected |= {"wer.substitution", "wer.insertion", "wer.deletion"}
    assert codes == expected


def test_mt_sample_text_report(run):
    result = run("check", MT_HYP, "-r", MT_REFS[0], "-r", MT_REFS[1])
    assert result.code == 0
    findings, summary = result.out.split("\n\n")
    lines = findings.splitlines()
    # line 20 has the wrong number (see samples/README.md)
    assert any(line.startswith(f"{MT_HYP}:20:") and "wer.substitution" in line for line in lines)
    assert all(line.startswith((MT_HYP + ":", MT_REFS[0] + ":", MT_REFS[1] + ":")) for line in lines)
    summary_lines = summary.splitlines()
    assert summary_lines[0] == f"{len(lines)} findings"
    bleu = BLEU().corpus_score(peer_lines(MT_HYP), [peer_lines(r) for r in MT_REFS])
    assert summary_lines[1] == bleu.format()


# -- thresholds -----------------------------------------------------------------------------


def test_min_bleu_crossed_exits_1_and_says_which(run):
    bleu = BLEU().corpus_score(peer_lines(MT_HYP), [peer_lines(r) for r in MT_REFS]).score  # 60.20
    result = run("check", MT_HYP, "-r", MT_REFS[0], "-r", MT_REFS[1], "--min-bleu", "70", "--max-wer", "0.5")
    assert result.code == 1
    lines = result.out.splitlines()
    assert f"FAIL: BLEU {bleu:.2f} is below --min-bleu 70" in lines
    assert any(line.startswith("PASS: WER 0.3143 meets --max-wer 0.5") for line in lines)


def test_thresholds_met_exit_0(run):
    result = run("check", MT_HYP, "-r", MT_REFS[0], "-r", MT_REFS[1], "--min-bleu", "60", "--min-rouge", "0.75")
    assert result.code == 0
    assert "PASS: BLEU 60.20 meets --min-bleu 60" in result.out
    assert "PASS: ROUGE-L F 0.7862 meets --min-rouge 0.75" in result.out
    assert "FAIL" not in result.out


def test_max_wer_crossed(run):
    result = run("check", ASR_HYP, "-r", ASR_REF, "--max-wer", "0.1")
    assert result.code == 1
    assert "FAIL: WER 0.1349 is above --max-wer 0.1" in result.out


def test_max_cer_and_min_rouge_on_lsum(run):
    result = run("check", ASR_HYP, "-r", ASR_REF, "--metrics", "cer", "--max-cer", "0.01")
    assert result.code == 1
    assert "FAIL: CER" in result.out and "is above --max-cer 0.01" in result.out
    summary = run(
        "check", SUM_HYP, "-r", SUM_REF, "--segmentation", "paragraph", "--metrics", "rougeLsum", "--min-rouge", "0.99"
    )
    assert summary.code == 1
    assert "FAIL: ROUGE-Lsum F" in summary.out and "is below --min-rouge 0.99" in summary.out


def test_chrf_ter_and_rouge_n_thresholds(run):
    """Each gate compares the same number score prints, on its own scale; the peers give it."""
    hyp, refs = peer_lines(MT_HYP), [peer_lines(r) for r in MT_REFS]
    chrf = CHRF(word_order=2).corpus_score(hyp, refs).score
    ter = TER().corpus_score(hyp, refs).score
    scorer = rouge_scorer.RougeScorer(["rouge2"])
    rouge2 = sum(scorer.score_multi([r[i] for r in refs], h)["rouge2"].fmeasure for i, h in enumerate(hyp)) / len(hyp)
    argv = ["check", MT_HYP, "-r", MT_REFS[0], "-r", MT_REFS[1], "-m", "chrf,ter,rouge2", "--chrf-word-order", "2"]
    passing = run(*argv, "--min-chrf", f"{chrf - 0.01}", "--max-ter", f"{ter + 0.01}", "--min-rouge2", f"{rouge2 - 0.0001}")
    assert passing.code == 0, passing.out
    assert f"PASS: chrF {chrf:.2f} meets --min-chrf {chrf - 0.01:g}" in passing.out
    assert f"PASS: TER {ter:.2f} meets --max-ter {ter + 0.01:g}" in passing.out
    assert f"PASS: ROUGE-2 F {rouge2:.4f} meets --min-rouge2 {rouge2 - 0.0001:g}" in passing.out
    failing = run(*argv, "--format", "json", "--min-chrf", f"{chrf + 0.01}", "--max-ter", f"{ter - 0.01}", "--min-rouge2", f"{rouge2 + 0.0001}")
    assert failing.code == 1
    verdicts = {v["option"]: v for v in json.loads(failing.out)["thresholds"]}
    assert set(verdicts) == {"--min-chrf", "--max-ter", "--min-rouge2"}
    assert not any(v["passed"] for v in verdicts.values())
    assert verdicts["--min-chrf"]["value"] == pytest.approx(chrf, abs=1e-9)
    assert verdicts["--max-ter"]["value"] == pytest.approx(ter, abs=1e-9)
    assert verdicts["--min-rouge2"]["value"] == pytest.approx(rouge2, abs=1e-9)


@pytest.mark.parametrize(
    "argv, turned_on",
    [
        (["--metrics", "wer", "--min-bleu", "10"], ("--min-bleu", "bleu")),
        (["--metrics", "bleu", "--min-chrf", "10"], ("--min-chrf", "chrf")),
        (["--metrics", "bleu", "--max-ter", "10"], ("--max-ter", "ter")),
        (["--metrics", "rouge1", "--min-rouge2", "0.1"], ("--min-rouge2", "rouge2")),
        (["--metrics", "bleu", "--max-wer", "0.3"], ("--max-wer", "wer")),
        (["--metrics", "bleu", "--min-rouge", "0.3"], ("--min-rouge", "rougeL")),
    ],
)
def test_a_threshold_turns_its_metric_on_and_says_so(run, argv, turned_on):
    option, metric = turned_on
    result = run("check", ASR_HYP, "-r", ASR_REF, *argv, "--format", "json")
    assert result.code in (0, 1), result.err
    assert f"scorelens: note: {option} turns {metric} on (not among --metrics)" in result.err
    report = json.loads(result.out)
    assert metric in report["scores"]
    assert [v["option"] for v in report["thresholds"]] == [option]


def test_bad_max_findings_is_an_error(run):
    result = run("check", ASR_HYP, "-r", ASR_REF, "--max-findings", "-1")
    assert result.code == 2
    assert result.err.strip() == "scorelens: error: --max-findings must be 0 or more"


# -- formats ---------------------------------------------------------------------------------


def test_json_format(run, asr_pair):
    hyp, ref = asr_pair
    result = run("check", hyp, "-r", ref, "--metrics", "wer", "--format", "json", "--max-wer", "0.2")
    assert result.code == 1
    report = json.loads(result.out)
    assert set(report) == {"findings", "findings_omitted", "scores", "qa", "notes", "thresholds", "passed"}
    assert report["qa"] is None  # no source: no QA
    assert report["findings"][0] == {
        "path": hyp,
        "line": 1,
        "column": 7,
        "end_line": 1,
        "end_column": 12,
        "code": "wer.substitution",
        "message": '"their" should be "there"',
        "text": "their",
        "related": {"path": ref, "line": 1, "column": 7},
    }
    assert [f["code"] for f in report["findings"]] == ["wer.substitution", "wer.insertion", "wer.deletion"]
    assert report["findings"][2]["path"] == ref
    assert report["findings_omitted"] == 0
    score = run("score", hyp, "-r", ref, "--metrics", "wer", "--json")
    assert report["scores"] == json.loads(score.out)
    assert report["thresholds"] == [
        {"option": "--max-wer", "metric": "wer", "value": 3 / 11, "limit": 0.2, "passed": False}
    ]
    assert report["passed"] is False


def test_github_format(run, asr_pair):
    hyp, ref = asr_pair
    result = run("check", hyp, "-r", ref, "--metrics", "wer", "--format", "github", "--max-wer", "0.2")
    assert result.code == 1
    lines = result.out.splitlines()
    assert lines[:3] == [
        f'::notice file={hyp},line=1,col=7,endColumn=12,title=wer.substitution::"their" should be "there"',
        f'::notice file={hyp},line=2,col=7,endColumn=9,title=wer.insertion::"uh" is not in the reference',
        f'::notice file={ref},line=3,col=6,endColumn=9,title=wer.deletion::missing "the" (belongs at {hyp}:3:5)',
    ]
    assert lines[3].startswith("WER = 0.2727")
    assert lines[-1] == "::error title=scorelens threshold::WER 0.2727 is above --max-wer 0.2"
    passing = run("check", hyp, "-r", ref, "--metrics", "wer", "--format", "github", "--max-wer", "0.3")
    assert passing.code == 0
    assert passing.out.splitlines()[-1] == "PASS: WER 0.2727 meets --max-wer 0.3"
    assert "::error" not in passing.out


def test_github_escapes_and_multiline_spans(run, tmp_path):
    hyp, ref = tmp_path / "a,b%.txt", tmp_path / "r.txt"
    # paragraph segments: the unmatched run "extra\nwords" crosses a line break
    hyp.write_text("one two extra\nwords three\n", encoding="utf-8")
    ref.write_text("one two\nthree\n", encoding="utf-8")
    result = run("check", hyp, "-r", ref, "--metrics", "bleu", "--segmentation", "paragraph", "--format", "github")
    first = result.out.splitlines()[0]
    escaped = str(hyp).replace("%", "%25").replace(",", "%2C").replace(":", "%3A")
    assert first == (
        f"::notice file={escaped},line=1,endLine=2,title=bleu.unmatched::"
        'not in any reference: "extra\\nwords"'
    )


def test_max_findings_is_never_silent(run, asr_pair):
    hyp, ref = asr_pair
    result = run("check", hyp, "-r", ref, "--metrics", "wer", "--max-findings", "1")
    assert result.code == 0
    lines = findings_of(result.out)
    assert lines == [
        f'{hyp}:1:7: wer.substitution "their" should be "there"',
        "... 2 more findings not shown (--max-findings)",
    ]
    assert "3 findings" in result.out.splitlines()
    report = json.loads(run("check", hyp, "-r", ref, "--metrics", "wer", "--max-findings", "0", "--format", "json").out)
    assert report["findings"] == [] and report["findings_omitted"] == 3


# -- files that do not line up ---------------------------------------------------------------


@pytest.mark.parametrize("command", ["score", "check"])
def test_files_that_do_not_line_up_are_refused_alike(run, tmp_path, command):
    """One rule (docs/cli.md): score and check both stop with exit 2 and the same one-line message."""
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("a b c\nd e f\ng h i\n", encoding="utf-8")
    ref.write_text("a b c\nd x f\n", encoding="utf-8")
    result = run(command, hyp, "-r", ref)
    assert (result.code, result.out) == (2, "")
    assert result.err == (
        f"scorelens: error: the files do not line up: {hyp} has 3 lines, {ref} has 2 "
        f"(from {hyp}:3 on without a partner); segment i of the hypothesis pairs with segment i of each reference\n"
    )


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_longer_reference_is_where_the_mismatch_is_reported(run, tmp_path, fmt):
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("a\n", encoding="utf-8")
    ref.write_text("a\nb\nc\n", encoding="utf-8")
    result = run("check", hyp, "-r", ref, "--metrics", "wer", "--format", fmt)
    assert (result.code, result.out) == (2, "")
    assert f"{hyp} has 1 line, {ref} has 3 (from {ref}:2 on without a partner)" in result.err


def test_paragraph_mismatch_counts_paragraphs(run, tmp_path):
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("a b\nc d\n\ne f\n", encoding="utf-8")
    ref.write_text("a b\nc d\n", encoding="utf-8")
    for command in ("score", "check"):
        result = run(command, hyp, "-r", ref, "--segmentation", "paragraph", "--metrics", "rougeL")
        assert result.code == 2
        assert f"{hyp} has 2 paragraphs, {ref} has 1 (from {hyp}:4 on without a partner)" in result.err
    # one segment each, whatever the line counts
    assert run("check", hyp, "-r", ref, "--segmentation", "document").code == 0


def test_stdin_check(run, asr_pair):
    hyp, ref = asr_pair
    result = run("check", "-", "-r", ref, "--metrics", "wer", stdin=Path(hyp).read_bytes())
    assert findings_of(result.out)[0] == '<stdin>:1:7: wer.substitution "their" should be "there"'


def test_rouge_155s_unmatched_words_have_a_message_and_counts_agree_in_number(run, tmp_path):
    r = run(
        "check", sample("summarization/articles.hyp.txt"), "-m", "rougeL", "--rouge-impl", "rouge-1.5.5", "--segmentation", "paragraph"
    )
    [first, *_] = [line for line in r.out.splitlines() if " rouge.unmatched " in line]
    assert first.endswith('rouge.unmatched not in any reference: "has"')
    hyp, ref = tmp_path / "one.hyp.txt", tmp_path / "one.ref.txt"
    hyp.write_text("the cat sat\n", encoding="utf-8")
    ref.write_text("the cat sit\n", encoding="utf-8")
    lines = run("check", hyp, "-m", "bleu", "--max-findings", "0").out.splitlines()
    assert "... 1 more finding not shown (--max-findings)" in lines and "1 finding" in lines


def test_a_lone_surrogate_in_a_text_is_printed_as_its_escape(tmp_path):
    """JSON may escape a lone surrogate ("\\ud800"), which UTF-8 cannot encode: check prints it
    as that escape (the real process, whose standard output is a UTF-8 file)."""
    import subprocess
    import sys

    path = tmp_path / "s.jsonl"
    path.write_text('{"id": "s1", "prediction": "a\\\\ud800", "reference": "a"}\n{"id": "s2", "prediction": "b", "reference": "b"}\n', encoding="utf-8")
    for fmt in ("text", "json"):
        done = subprocess.run(
            [sys.executable, "-m", "scorelens", "check", str(path), "-m", "wer", "--format", fmt],
            capture_output=True, env={**os.environ, "PYTHONIOENCODING": "utf-8"}, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr.decode()
        assert b"\\ud800" in done.stdout and b"Traceback" not in done.stderr
    json.loads(done.stdout)  # the escape is JSON's own


def test_check_reads_a_pipe_once_for_its_qa_and_its_scores(run, tmp_path):
    """A FIFO (as ``<(cmd)`` gives) yields its text once: check's QA and scores share that reading."""
    fifo = tmp_path / "news.hyp.en"
    os.mkfifo(fifo)
    # a reader held open lets the writer's open return; the text fits the pipe's buffer, so it is
    # all written (and the writer gone) before check reads: no race between the two
    held = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        fifo.write_text(Path(MT_HYP).read_text(encoding="utf-8"), encoding="utf-8")
        r = run("check", fifo, "-r", MT_REFS[0], "-m", "bleu", "--glossary", sample("qa/glossary.tsv"), "--source", MT_REFS[0])
    finally:
        os.close(held)
    assert "segments: 30" in r.out, r.err


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(value=_JSON_VALUES, depth=st.integers(0, 3))
def test_json_report_pieces_are_what_json_writes(value, depth):
    """check --format json writes its findings without json's indenting encoder: the same text."""
    indent = " " * depth
    assert _indented(value, indent) == json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n" + indent)


def test_json_report_written_in_pieces_is_one_json_object(run, asr_pair):
    hyp, ref = asr_pair
    out = run("check", hyp, "-r", ref, "--metrics", "wer", "--format", "json").out
    assert out == json.dumps(json.loads(out), ensure_ascii=False, indent=1) + "\n"
    assert len(json.loads(out)["findings"]) == 3
