"""#39 point 10: the small surprises of the command line's texts."""

from __future__ import annotations

from pathlib import Path

from cli_support import sample

ROOT = Path(__file__).resolve().parents[2]
MT_HYP, MT_REF = sample("mt/news.hyp.en"), sample("mt/news.ref.en")


def test_compare_help_says_95_percent_once(run):
    out = run("compare", "--help").out
    assert "95% confidence" in " ".join(out.split()) and "%%" not in out


def test_top_level_help_names_every_metric(run):
    out = " ".join(run("--help").out.split())
    for name in ("BLEU", "chrF", "TER", "ROUGE-1..9", "ROUGE-Lsum", "WER", "CER", "perplexity"):
        assert name in out, name


def test_no_command_lists_the_commands(run):
    r = run()
    assert r.code == 2 and r.out == ""
    assert "score     corpus scores" in r.err and "agree" in r.err and "required" not in r.err


def test_reference_names_agree_in_help_and_readme(run):
    help_text = " ".join(run("score", "--help").out.split())
    assert "NAME.ref1.EXT, NAME.ref2.EXT" in help_text
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(+ `NAME.ref1.EXT`, `NAME.ref2.EXT`, …)" in readme


def test_the_cer_line_has_no_word_measures(run):
    out = run("score", MT_HYP, "-r", MT_REF, "-m", "cer,wer").out.splitlines()
    [cer] = [line for line in out if line.startswith("CER = ")]
    [wer] = [line for line in out if line.startswith("WER = ")]
    assert "MER" not in cer and "WIL" not in cer
    assert "MER = " in wer and "WIL = " in wer


def test_metrics_print_in_one_family_order_whatever_the_order_asked(run):
    def printed(metrics: str) -> list[str]:
        out = run("score", MT_HYP, "-r", MT_REF, "-m", metrics).out.splitlines()
        return [line.split(" = ")[0] for line in out if " = " in line and not line.startswith(" ")]

    expected = ["BLEU", "chrF2", "TER", "ROUGE-L", "ROUGE-2", "WER", "CER"]
    assert printed("cer,wer,rouge2,rougeL,ter,chrf,bleu") == expected
    assert printed("bleu,chrf,ter,rougeL,rouge2,wer,cer") == expected


def test_files_in_another_encoding_are_read_with_encoding(run, tmp_path):
    hyp, ref = tmp_path / "l1.hyp.txt", tmp_path / "l1.ref.txt"
    hyp.write_bytes("café crème brûlée\n".encode("latin-1"))
    ref.write_bytes("café crème brulée\n".encode("latin-1"))
    refused = run("score", hyp, "-r", ref, "-m", "cer")
    assert refused.code == 2 and "not UTF-8: byte 0xe9" in refused.err
    read = run("score", hyp, "-r", ref, "-m", "cer", "-e", "latin-1", "--json")
    assert read.code == 0, read.err
    assert '"substitutions": 1' in read.out and '"hits": 16' in read.out
    unknown = run("score", hyp, "-r", ref, "--encoding", "klingon")
    assert unknown.code == 2 and "unknown encoding 'klingon'" in unknown.err
