"""``scorelens compare``: systems against a baseline, with sacreBLEU's paired tests."""

from __future__ import annotations

import json

import pytest
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

from cli_support import peer_lines, sample

BASELINE, SYSTEM = sample("mt/news.hyp.en"), sample("mt/news.sys2.en")
REFS = [sample("mt/news.ref.en"), sample("mt/news.ref2.en")]


def _sacrebleu(paths, test, n=0, ar_confidence=-1):
    metric = BLEU(references=[peer_lines(r) for r in REFS])
    systems = [(p, peer_lines(p)) for p in paths]
    return PairedTest(systems, {"BLEU": metric}, None, test_type=test, n_samples=n, n_ar_confidence=ar_confidence)()[1]["BLEU"]


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_json_is_sacrebleus_paired_test(run, monkeypatch, test):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    result = run("compare", BASELINE, SYSTEM, "--json", f"--paired-{test}", "-m", "bleu,wer")
    assert result.code == 0, result.err
    out = json.loads(result.out)
    assert (out["baseline"], out["test"], out["n"], out["seed"]) == (BASELINE, test, {"bs": 1000, "ar": 10000}[test], 12345)
    theirs = _sacrebleu([BASELINE, SYSTEM], test, ar_confidence=1000)
    assert [s["path"] for s in out["systems"]] == [BASELINE, SYSTEM]
    for ours, r in zip(out["systems"], theirs):
        assert ours["bleu"] == {"score": r.score, "mean": r.mean, "ci": r.ci, "p_value": r.p_value}
    assert out["systems"][0]["wer"]["p_value"] is None
    assert 0 < out["systems"][1]["wer"]["p_value"] < 1
    assert out["systems"][1]["bleu"]["p_value"] < 0.05  # the second system is much better
    assert "references found by name" in result.err


def test_text_table(run, monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    result = run("compare", BASELINE, SYSTEM, "-r", REFS[0], "-r", REFS[1], "--paired-n", "300")
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0] == f"Paired bootstrap resampling against the baseline {BASELINE}: 300 resamples, seed 12345"
    header, base_row, system_row = lines[3:6]
    assert header.split() == ["System", "BLEU", "ROUGE-L", "WER"]
    theirs = _sacrebleu([BASELINE, SYSTEM], "bs", n=300)
    assert base_row.startswith(f"{BASELINE}  ")
    assert f"{theirs[0].score:.2f} ({theirs[0].mean:.2f} ± {theirs[0].ci:.2f})" in base_row
    assert "p =" not in base_row
    assert f"{theirs[1].score:.2f} ({theirs[1].mean:.2f} ± {theirs[1].ci:.2f}) p = {theirs[1].p_value:.4f}*" in system_row
    # the segment section: three each way, each with both systems' lines
    section = result.out.split("\n\n")[2].splitlines()
    assert section[0] == f"{SYSTEM} against the baseline, segment by segment (BLEU of each segment):"
    assert section[1] == "  most improved:"
    assert section[2].startswith("    line 12: +")
    assert section[3] == "      - The exact amount is however not yet agreed."
    assert section[4] == "      + However, the exact amount has not yet been agreed."
    assert section[11] == "  most regressed:"
    assert section[12].startswith("    line 14: -")
    assert len(section) == 21


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_ter_is_sacrebleus_paired_test(run, monkeypatch, test):
    """TER with the sample's two references (average lengths in halves); lower is better."""
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    result = run("compare", BASELINE, SYSTEM, "--json", f"--paired-{test}", "--paired-n", "500", "-m", "ter")
    assert result.code == 0, result.err
    out = json.loads(result.out)
    metric = TER(references=[peer_lines(r) for r in REFS])
    systems = [(p, peer_lines(p)) for p in (BASELINE, SYSTEM)]
    theirs = PairedTest(systems, {"TER": metric}, None, test_type=test, n_samples=500, n_ar_confidence=1000)()[1]["TER"]
    for ours, r in zip(out["systems"], theirs):
        assert ours["ter"] == {"score": r.score, "mean": r.mean, "ci": r.ci, "p_value": r.p_value}
    assert out["systems"][1]["ter"]["score"] < out["systems"][0]["ter"]["score"]
    assert all(h["difference"] < 0 for h in out["segments"]["improved"])
    table = run("compare", BASELINE, SYSTEM, "--paired-n", "100", "-m", "ter,bleu").out.splitlines()
    assert table[3].split() == ["System", "TER", "BLEU"]
    assert table[5].split()[1] == f"{theirs[1].score:.2f}"


@pytest.mark.parametrize(("method", "value"), [("floor", "1.1"), ("add-k", "2"), ("add-k", "0.5")])
def test_a_fractional_smoothing_value_scores_as_sacrebleu(run, monkeypatch, tmp_path, method, value):
    """The systems' own BLEU (sacreBLEU's corpus score, in Python floats): a smoothing value of 1.1
    was truncated to 1 there and a fractional add-k value refused by NumPy (a traceback)."""
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    texts = {"base": "mat at it sat a sat cat it", "sys": "the cat sat at it", "ref": "at cat dog mat"}
    for name, text in texts.items():
        (tmp_path / f"{name}.txt").write_text(text + "\n", encoding="utf-8")
    paths = [tmp_path / "base.txt", tmp_path / "sys.txt"]
    result = run("compare", *paths, "-r", tmp_path / "ref.txt", "--json", "-m", "bleu", "-s", method, "-sv", value, "--paired-n", "20")
    assert result.code == 0, result.err
    metric = BLEU(references=[[texts["ref"]]], smooth_method=method, smooth_value=float(value))
    systems = [(str(p), peer_lines(p)) for p in paths]
    theirs = PairedTest(systems, {"BLEU": metric}, None, test_type="bs", n_samples=20)()[1]["BLEU"]
    for ours, r in zip(json.loads(result.out)["systems"], theirs):
        assert ours["bleu"] == {"score": r.score, "mean": r.mean, "ci": r.ci, "p_value": r.p_value}


def test_several_systems_and_the_best_one(run, tmp_path):
    third = tmp_path / "news.sys3.en"
    third.write_text("\n".join(peer_lines(REFS[0])) + "\n", encoding="utf-8")  # a copy of a reference: best
    args = ["-r", REFS[0], "-r", REFS[1], "--json", "--paired-n", "100", "--segments", "2", "-m", "wer,bleu"]
    out = json.loads(run("compare", BASELINE, SYSTEM, third, *args).out)
    assert [s["path"] for s in out["systems"]] == [BASELINE, SYSTEM, str(third)]
    assert out["systems"][2]["wer"]["score"] == 0.0
    # ranked on the first metric (WER: lower is better); improvements are negative there
    assert out["segments"]["system"] == str(third) and out["segments"]["metric"] == "wer"
    assert len(out["segments"]["improved"]) == 2
    assert all(h["difference"] < 0 for h in out["segments"]["improved"])
    assert out["segments"]["regressed"] == []
    theirs = _sacrebleu([BASELINE, SYSTEM, str(third)], "bs", n=100)
    assert [s["bleu"]["p_value"] for s in out["systems"]] == [r.p_value for r in theirs]


def test_systems_whose_records_hold_the_references(run, tmp_path):
    """JSONL systems holding their references (two, in a list) need no -r, as for score: each
    system pairs by id with the baseline's records and is scored against its references."""
    refs = [peer_lines(r) for r in REFS]
    for path in (BASELINE, SYSTEM):
        records = [{"id": f"s{i}", "prediction": h, "references": [a, b]} for i, (h, a, b) in enumerate(zip(peer_lines(path), *refs))]
        if path == SYSTEM:
            records.reverse()  # pairs by id, not by place
        (tmp_path / f"{path.rsplit('/', 1)[-1]}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    systems = [tmp_path / "news.hyp.en.jsonl", tmp_path / "news.sys2.en.jsonl"]
    options = ["--json", "--paired-n", "100", "-m", "bleu,ter"]
    result = run("compare", *systems, *options)
    assert result.code == 0, result.err
    plain = json.loads(run("compare", BASELINE, SYSTEM, "-r", REFS[0], "-r", REFS[1], *options).out)
    assert json.loads(result.out)["systems"] == [{**s, "path": str(p)} for s, p in zip(plain["systems"], systems)]


def test_a_paragraphs_later_lines_stay_under_its_marker(run, tmp_path):
    texts = {
        "base": "the cat sat\non the mat\n\na dog barked\nat night\n",
        "sys": "the cat sat\non a mat\n\nthe dog barked\nat night\n",
        "ref": "the cat sat\non the mat\n\nthe dog barked\nat night\n",
    }
    for name, text in texts.items():
        (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")
    out = run("compare", tmp_path / "base.txt", tmp_path / "sys.txt", "-r", tmp_path / "ref.txt", "-m", "bleu", "--segmentation", "paragraph", "--paired-n", "10").out
    shown = out.split("most improved:\n", 1)[1].splitlines()
    assert shown[1:5] == ["      - a dog barked", "        at night", "      + the dog barked", "        at night"]
    assert shown[7:11] == ["      - the cat sat", "        on the mat", "      + the cat sat", "        on a mat"]


def test_seed_from_the_environment(run, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    out = json.loads(run("compare", BASELINE, SYSTEM, "--json", "-m", "bleu", "--paired-n", "200").out)
    assert out["seed"] == 7
    theirs = _sacrebleu([BASELINE, SYSTEM], "bs", n=200)
    assert out["systems"][1]["bleu"]["mean"] == theirs[1].mean
    monkeypatch.setenv("SACREBLEU_SEED", "none")
    out = json.loads(run("compare", BASELINE, SYSTEM, "--json", "-m", "bleu", "--paired-n", "200", "--segments", "0").out)
    assert out["seed"] is None and "segments" not in out
    monkeypatch.setenv("SACREBLEU_SEED", "seven")
    result = run("compare", BASELINE, SYSTEM)
    assert result.code == 2 and "SACREBLEU_SEED must be a number, 0 or more, or 'none'" in result.err
    # NumPy's generators take no negative seed: one error line, not NumPy's traceback
    monkeypatch.setenv("SACREBLEU_SEED", "-3")
    result = run("compare", BASELINE, SYSTEM)
    assert result.code == 2 and "SACREBLEU_SEED must be a number, 0 or more, or 'none', not '-3'" in result.err


def test_refusals(run, tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    result = run("compare", BASELINE, short, "-r", REFS[0])
    assert result.code == 2 and "do not line up" in result.err
    result = run("compare", BASELINE, "-", "-r", REFS[0])
    assert result.code == 2 and "standard input" in result.err
    result = run("compare", BASELINE, "-r", REFS[0])
    assert result.code == 2 and "SYSTEM" in result.err  # at least one system besides the baseline
    result = run("compare", BASELINE, SYSTEM, "--paired-bs", "--paired-ar")
    assert result.code == 2 and "not allowed with" in result.err
    result = run("compare", BASELINE, SYSTEM, "--paired-n", "many")
    assert result.code == 2 and "expected a number" in result.err
    # no test for perplexity: a language model is not taken, rather than ignored
    result = run("compare", BASELINE, SYSTEM, "--lm", tmp_path / "model.arpa")
    assert result.code == 2 and "unrecognized arguments: --lm" in result.err
    # a file that is not text is named as such before its references are looked for by name
    for name in ("baseline.parquet", "candidate.parquet"):
        (tmp_path / name).write_bytes(b"PAR1\0\0PAR1")
    result = run("compare", tmp_path / "baseline.parquet", tmp_path / "candidate.parquet")
    assert result.code == 2 and result.err.startswith(f"scorelens: error: {tmp_path / 'baseline.parquet'}: a Parquet file, not text")


def test_chrf_plus_plus_is_sacrebleus(run, monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    result = run("compare", BASELINE, SYSTEM, "--json", "-m", "chrf", "-cw", "2", "--paired-n", "300")
    out = json.loads(result.out)
    metric = CHRF(word_order=2, references=[peer_lines(r) for r in REFS])
    systems = [(p, peer_lines(p)) for p in (BASELINE, SYSTEM)]
    theirs = PairedTest(systems, {"chrF": metric}, None, test_type="bs", n_samples=300)()[1]["chrF2++"]
    for ours, r in zip(out["systems"], theirs):
        assert ours["chrf"] == {"score": r.score, "mean": r.mean, "ci": r.ci, "p_value": r.p_value}
    text = run("compare", BASELINE, SYSTEM, "-m", "chrf,rouge2", "--paired-n", "300", "--segments", "0").out
    assert text.splitlines()[3].split() == ["System", "chrF", "ROUGE-2"]


def test_numpy_only_when_comparing():
    """significance needs NumPy; score, check and serve start without importing it."""
    import subprocess
    import sys

    code = "import sys, scorelens.cli, scorelens.lsp.server; print('numpy' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"


def test_a_negative_segment_count_is_named_as_one(run):
    for command in (["compare", BASELINE, SYSTEM], ["agree", BASELINE, SYSTEM]):
        r = run(*command, "--segments", "-1")
        assert r.code == 2 and "expected a number of segments, 0 or more, got '-1'" in r.err


def test_one_resample_is_one(run, monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    out = run("compare", BASELINE, SYSTEM, "--paired-n", "1", "--segments", "0").out
    assert ": 1 resample, seed 12345" in out.splitlines()[0]
    out = run("compare", BASELINE, SYSTEM, "--paired-ar", "--paired-n", "2", "--segments", "0").out
    assert ": 2 trials, seed 12345" in out.splitlines()[0]


def test_resamples_are_bounded(run):
    r = run("compare", BASELINE, SYSTEM, "--paired-n", "100000000")
    assert r.code == 2 and "expected a number of resamples or trials up to 1,000,000" in r.err


def test_paired_n_help_says_the_bootstraps_intervals_come_from_its_resamples(run):
    text = " ".join(run("compare", "--help").out.split())
    assert "bootstrap resamples (default: 1,000; the confidence intervals come from them)" in text


def test_systems_named_in_their_language_are_compared_with_its_tokenizer(run, tmp_path):
    """Every system is scored with the tokenizer the baseline's name implies (news.hyp.zh: zh), as
    score scores it; the systems' p-values are sacreBLEU's with -l zh."""
    zh = sample("mt/zh/news.hyp.zh")
    ref = sample("mt/zh/news.ref.zh")
    system = tmp_path / "news.sys2.zh"
    system.write_text("\n".join(line[::-1] for line in peer_lines(zh)) + "\n", encoding="utf-8")
    out = json.loads(run("compare", zh, system, "-r", ref, "-m", "bleu", "--json", "--paired-n", "50").out)
    metric = BLEU(references=[peer_lines(ref)], trg_lang="zh")
    theirs = PairedTest([(str(zh), peer_lines(zh)), (str(system), peer_lines(system))], {"BLEU": metric}, None, test_type="bs", n_samples=50)()[1]["BLEU"]
    assert [s["bleu"]["score"] for s in out["systems"]] == [r.score for r in theirs]
    assert [s["bleu"]["p_value"] for s in out["systems"]] == [r.p_value for r in theirs]
