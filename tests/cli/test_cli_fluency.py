"""``--metrics ppl --lm PATH``: perplexity under a KenLM model in ``score`` and ``check``, against kenlm itself."""

from __future__ import annotations

import builtins
import json
import math
import os

import pytest

from cli_support import peer_lines, sample
from scorelens import language_model

if os.environ.get("CI") == "true":
    import kenlm  # the test extra installs it: missing is a failure under CI
else:
    kenlm = pytest.importorskip("kenlm", reason="kenlm is not installed (pip install -e '.[test]' builds it)")

LM = sample("lm/asr.arpa")
LM_HYP = sample("lm/call.hyp.txt")
ASR_HYP, ASR_REF = sample("asr/call.hyp.txt"), sample("asr/call.ref.txt")

# a bigram model with backoffs, written out: p(a|<s>) etc. as in the file, the rest backs off
TOY_ARPA = """\\data\\
ngram 1=5
ngram 2=3

\\1-grams:
-1.0\t<unk>\t0
-99\t<s>\t-0.30103
-0.69897\t</s>\t0
-0.39794\ta\t-0.176091
-0.522879\tb\t-0.30103

\\2-grams:
-0.30103\t<s> a
-0.221849\ta b
-0.154902\tb </s>

\\end\\
"""


def kenlm_figures(model_path: str, lines: list[str]) -> tuple[float, int, int]:
    """kenlm's corpus figures: summed log10 probability, words + 1 per line, OOV words."""
    model = kenlm.Model(model_path)
    log10_prob = math.fsum(model.score(line) for line in lines)
    tokens = sum(len(line.split()) + 1 for line in lines)
    oov = sum(oov for line in lines for _, _, oov in model.full_scores(line))
    return log10_prob, tokens, oov


def test_score_json_equals_kenlm(run):
    result = run("score", LM_HYP, "--metrics", "ppl", "--lm", LM, "--json")
    assert result.code == 0, result.err
    got = json.loads(result.out)
    log10_prob, tokens, oov = kenlm_figures(LM, peer_lines(LM_HYP))
    assert got == {
        "ppl": {"perplexity": 10.0 ** (-log10_prob / tokens), "log10_prob": log10_prob, "tokens": tokens, "oov": oov, "model": LM},
        "segments": 25,
    }
    assert result.err == ""  # no reference looked for, no kenlm progress bar


def test_score_text_line(run, tmp_path):
    hyp, model = tmp_path / "toy.txt", tmp_path / "toy.arpa"
    hyp.write_text("a b\nb a c\n", encoding="utf-8")
    model.write_text(TOY_ARPA, encoding="utf-8")
    result = run("score", hyp, "--metrics", "ppl", "--lm", model)
    assert result.code == 0, result.err
    log10_prob, tokens, _ = kenlm_figures(str(model), ["a b", "b a c"])
    assert result.out.splitlines() == [
        f"PPL = {10 ** (-log10_prob / tokens):.2f} (log10 prob = {log10_prob:.2f} tokens = 7 OOV = 1 model = {model})",
        "  tok:none|order:2|bos:yes|eos:yes|version:scorelens-0.1.0",
        "segments: 2",
    ]


def test_ppl_with_other_metrics_and_sentence_level(run):
    both = run("score", ASR_HYP, "-r", ASR_REF, "--metrics", "wer,ppl", "--lm", LM, "--json")
    assert both.code == 0, both.err
    got = json.loads(both.out)
    assert set(got) == {"ppl", "wer", "segments"}
    assert got["ppl"]["log10_prob"] == kenlm_figures(LM, peer_lines(ASR_HYP))[0]

    rows = run("score", ASR_HYP, "-r", ASR_REF, "--metrics", "wer,ppl", "--lm", LM, "-sl", "--json")
    assert rows.code == 0, rows.err
    model = kenlm.Model(LM)
    for row, line in zip(map(json.loads, rows.out.splitlines()), peer_lines(ASR_HYP), strict=True):
        assert row["ppl"] == {
            "perplexity": model.perplexity(line),
            "log10_prob": model.score(line),
            "tokens": len(line.split()) + 1,
            "oov": sum(oov for _, _, oov in model.full_scores(line)),
        }
        assert "wer" in row
    text = run("score", LM_HYP, "--metrics", "ppl", "--lm", LM, "-sl")
    assert text.out.splitlines()[0] == f"{LM_HYP}:1\tPPL = {model.perplexity(peer_lines(LM_HYP)[0]):.2f}"


def test_tokenizer_option(run, tmp_path):
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("Thank you, I'll check.\n", encoding="utf-8")
    got = json.loads(run("score", hyp, "--metrics", "ppl", "--lm", LM, "--lm-tokenize", "13a", "--json").out)
    sentence = "Thank you , I'll check ."
    assert got["ppl"]["log10_prob"] == kenlm.Model(LM).score(sentence)
    assert got["ppl"]["tokens"] == 7


def test_check_findings_text(run):
    result = run("check", LM_HYP, "--metrics", "ppl", "--lm", LM)
    assert result.code == 0, result.err
    findings = result.out.split("\n\n")[0].splitlines()
    unlikely = [f for f in findings if " lm.unlikely " in f]
    assert [f.split(": lm.")[0] for f in unlikely] == [f"{LM_HYP}:9:1", f"{LM_HYP}:15:1", f"{LM_HYP}:21:1"]
    assert "modified z-score" in unlikely[0] and "> 3.5" in unlikely[0]
    assert f'{LM_HYP}:1:52: lm.oov "tom" is out of the language model\'s vocabulary' in findings
    # a higher threshold flags none
    higher = run("check", LM_HYP, "--metrics", "ppl", "--lm", LM, "--lm-outlier-z", "10")
    assert " lm.unlikely " not in higher.out


def test_check_findings_json_and_github(run):
    report = json.loads(run("check", LM_HYP, "--metrics", "ppl", "--lm", LM, "--format", "json").out)
    codes = [f["code"] for f in report["findings"]]
    assert codes.count("lm.unlikely") == 3 and codes.count("lm.oov") == report["scores"]["ppl"]["oov"] == 4
    first = next(f for f in report["findings"] if f["code"] == "lm.unlikely")
    line = peer_lines(LM_HYP)[8]
    assert (first["line"], first["column"], first["end_line"], first["end_column"], first["text"]) == (9, 1, 9, len(line) + 1, line)
    github = run("check", LM_HYP, "--metrics", "ppl", "--lm", LM, "--format", "github").out.splitlines()
    assert f"::notice file={LM_HYP},line=9,col=1,endColumn={len(line) + 1},title=lm.unlikely::" in "\n".join(github)
    assert sum(x.startswith("::notice") and "title=lm.oov" in x for x in github) == 4


def test_check_max_ppl(run):
    log10_prob, tokens, _ = kenlm_figures(LM, peer_lines(LM_HYP))
    ppl = 10 ** (-log10_prob / tokens)
    argv = ["check", LM_HYP, "--metrics", "ppl", "--lm", LM, "--max-ppl"]
    passing = run(*argv, f"{ppl + 0.01}")
    assert passing.code == 0 and f"PASS: PPL {ppl:.2f} meets --max-ppl" in passing.out
    failing = run(*argv, f"{ppl - 0.01}")
    assert failing.code == 1 and f"FAIL: PPL {ppl:.2f} is above --max-ppl" in failing.out
    for bad in ("inf", "nan", "x"):
        assert run(*argv, bad).code == 2
    assert run("check", LM_HYP, "--metrics", "wer", "--max-ppl", "5").code == 2
    # with the default metrics beside it, and no reference, the error says how to score perplexity alone
    alone = run("check", LM_HYP, "--lm", LM, "--max-ppl", "5")
    assert alone.code == 2 and alone.err.rstrip().endswith("-m ppl scores perplexity alone, without one")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--metrics", "ppl"], "scorelens: error: --metrics ppl needs --lm PATH, the KenLM language model to score with\n"),
        (["--metrics", "ppl", "--lm", "no/such.arpa"], "scorelens: error: --lm: no/such.arpa: no such file\n"),
        (["--metrics", "wer", "--lm", LM], "scorelens: error: --lm is used by the ppl metric: add ppl to --metrics\n"),
    ],
)
def test_usage_errors(run, argv, message):
    result = run("score", LM_HYP, *argv)
    assert (result.code, result.out, result.err) == (2, "", message)


@pytest.mark.parametrize("content", [b"", b"hello world\n", TOY_ARPA[:60].encode(), bytes(range(256)) * 20])
def test_invalid_model_is_one_line(run, tmp_path, content):
    model = tmp_path / "bad.arpa"
    model.write_bytes(content)
    result = run("score", LM_HYP, "--metrics", "ppl", "--lm", model)
    assert result.code == 2
    assert result.err.startswith(f"scorelens: error: --lm: {model}: not a KenLM language model (ARPA or KenLM binary)")
    assert result.err.count("\n") == 1 and "hello world" not in result.err and ".cc:" not in result.err


def test_directory_is_not_a_model(run, tmp_path):
    result = run("score", LM_HYP, "--metrics", "ppl", "--lm", tmp_path)
    assert (result.code, result.err) == (2, f"scorelens: error: --lm: {tmp_path}: is a directory, not a language model file\n")


def test_missing_extra(run, monkeypatch, tmp_path):
    model = tmp_path / "fresh.arpa"  # not loaded before, so the import is needed
    model.write_text(TOY_ARPA, encoding="utf-8")
    real_import = builtins.__import__

    def no_kenlm(name, *args, **kwargs):
        if name == "kenlm":
            raise ModuleNotFoundError("No module named 'kenlm'", name="kenlm")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_kenlm)
    result = run("score", LM_HYP, "--metrics", "ppl", "--lm", model)
    assert result.code == 2
    assert result.err.startswith(
        "scorelens: error: --lm: the fluency extra is not installed: run `.venv/bin/pip install -e '.[fluency]'` from the checkout"
    )


def test_model_loaded_once_until_the_file_changes(tmp_path):
    model = tmp_path / "toy.arpa"
    model.write_text(TOY_ARPA, encoding="utf-8")
    first = language_model.load(str(model))
    assert language_model.load(str(tmp_path / "." / "toy.arpa")) is first
    model.write_text(TOY_ARPA.replace("-0.39794\ta", "-0.4\ta"), encoding="utf-8")
    os.utime(model, ns=(0, 0))  # a different modification time, whatever the clock's resolution
    second = language_model.load(str(model))
    assert second is not first
    assert second.score("a", bos=False, eos=False) == pytest.approx(-0.4)
