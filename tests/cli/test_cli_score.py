"""``scorelens score``: values equal to sacreBLEU, rouge-score and jiwer computed here."""

from __future__ import annotations

import json
from pathlib import Path

import jiwer
import pytest
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU, TER

from cli_support import peer_lines, sample

MT_HYP = sample("mt/news.hyp.en")
MT_REFS = [sample("mt/news.ref.en"), sample("mt/news.ref2.en")]
ASR_HYP, ASR_REF = sample("asr/call.hyp.txt"), sample("asr/call.ref.txt")
ZH_HYP, ZH_REF = sample("mt/zh/news.hyp.zh"), sample("mt/zh/news.ref.zh")
SUM_HYP, SUM_REF = sample("summarization/articles.hyp.txt"), sample("summarization/articles.ref.txt")

EXACT = dict(rel=1e-9, abs=1e-9)


def score_json(run, *argv) -> dict:
    result = run("score", *argv, "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)


def refs_args(refs):
    return [a for r in refs for a in ("-r", r)]


def sacrebleu_score(hyp, refs, **options):
    return BLEU(**options).corpus_score(peer_lines(hyp), [peer_lines(r) for r in refs])


def rouge_means(hyps: list[str], refs: list[list[str]], keys=("rougeL",), **options) -> dict:
    """rouge-score per pair (score_multi with several references), then the plain mean."""
    scorer = rouge_scorer.RougeScorer(list(keys), **options)
    sums = {k: [0.0, 0.0, 0.0] for k in keys}
    for i, h in enumerate(hyps):
        scores = scorer.score_multi([r[i] for r in refs], h)
        for k in keys:
            for j, v in enumerate(scores[k]):
                sums[k][j] += v
    return {k: [v / len(hyps) for v in s] for k, s in sums.items()}


def assert_bleu(got: dict, expected) -> None:
    assert got["score"] == pytest.approx(expected.score, **EXACT)
    assert got["precisions"] == pytest.approx(expected.precisions, **EXACT)
    assert got["bp"] == pytest.approx(expected.bp, **EXACT)
    assert (got["sys_len"], got["ref_len"]) == (expected.sys_len, expected.ref_len)


def assert_rouge(got: dict, expected: list[float]) -> None:
    assert [got["precision"], got["recall"], got["fmeasure"]] == pytest.approx(expected, **EXACT)


# -- the samples ----------------------------------------------------------------------------


def test_mt_sample_two_references_equals_the_peers(run):
    out = score_json(run, MT_HYP, *refs_args(MT_REFS), "--metrics", "bleu,rougeL,rougeLsum,wer,cer")
    assert set(out) == {"bleu", "rougeL", "rougeLsum", "wer", "cer", "segments"}
    assert out["segments"] == 30
    assert_bleu(out["bleu"], sacrebleu_score(MT_HYP, MT_REFS))
    assert out["bleu"]["signature"].startswith("nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:")

    hyps, refs = peer_lines(MT_HYP), [peer_lines(r) for r in MT_REFS]
    rouge = rouge_means(hyps, refs, keys=("rougeL", "rougeLsum"))
    assert_rouge(out["rougeL"], rouge["rougeL"])
    assert_rouge(out["rougeLsum"], rouge["rougeLsum"])

    # jiwer takes one reference per hypothesis: the first
    words = jiwer.process_words(refs[0], hyps)
    assert out["wer"]["wer"] == pytest.approx(words.wer, **EXACT)
    assert out["wer"]["mer"] == pytest.approx(words.mer, **EXACT)
    assert out["wer"]["wil"] == pytest.approx(words.wil, **EXACT)
    assert [out["wer"][k] for k in ("hits", "substitutions", "deletions", "insertions")] == [
        words.hits,
        words.substitutions,
        words.deletions,
        words.insertions,
    ]
    chars = jiwer.process_characters(refs[0], hyps)
    assert out["cer"]["cer"] == pytest.approx(chars.cer, **EXACT)
    assert [out["cer"][k] for k in ("hits", "substitutions", "deletions", "insertions")] == [
        chars.hits,
        chars.substitutions,
        chars.deletions,
        chars.insertions,
    ]


def test_text_output_has_sacrebleus_line_and_signatures(run):
    result = run("score", MT_HYP, *refs_args(MT_REFS))
    assert result.code == 0
    lines = result.out.splitlines()
    expected = sacrebleu_score(MT_HYP, MT_REFS)
    assert lines[0] == expected.format()  # e.g. "BLEU = 60.20 84.8/66.8/53.4/43.4 (BP = 1.000 ...)"
    assert lines[1].strip().startswith("nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:scorelens-")

    hyps, refs = peer_lines(MT_HYP), [peer_lines(r) for r in MT_REFS]
    p, r, f = rouge_means(hyps, refs)["rougeL"]
    assert lines[2] == f"ROUGE-L = {f:.4f} (P = {p:.4f} R = {r:.4f} F = {f:.4f})"
    assert lines[3].strip().startswith("nrefs:2|tok:rouge-score|stem:no")

    w = jiwer.process_words(refs[0], hyps)
    assert lines[4] == (
        f"WER = {w.wer:.4f} (H = {w.hits} S = {w.substitutions} D = {w.deletions} I = {w.insertions} "
        f"MER = {w.mer:.4f} WIL = {w.wil:.4f})"
    )
    assert lines[5].strip().startswith("nrefs:1|unit:word|transform:default")
    assert lines[6] == "segments: 30"
    assert len(lines) == 7


def test_asr_sample_wer_and_cer(run):
    out = score_json(run, ASR_HYP, "-r", ASR_REF, "--metrics", "wer,cer")
    assert set(out) == {"wer", "cer", "segments"}
    hyps, refs = peer_lines(ASR_HYP), peer_lines(ASR_REF)
    words = jiwer.process_words(refs, hyps)
    assert out["wer"]["wer"] == pytest.approx(words.wer, **EXACT)
    assert out["wer"]["substitutions"] == words.substitutions > 0
    assert out["wer"]["insertions"] == words.insertions > 0
    assert out["wer"]["deletions"] == words.deletions > 0
    assert out["cer"]["cer"] == pytest.approx(jiwer.cer(refs, hyps), **EXACT)
    assert out["segments"] == 25


def _paragraphs(path: str) -> list[str]:
    blocks, current = [], []
    for line in peer_lines(path):
        if line.strip():
            current.append(line)
        elif current:
            blocks.append("\n".join(current))
            current = []
    if current:
        blocks.append("\n".join(current))
    return blocks


def test_summaries_by_paragraph_rouge_l_and_lsum(run):
    out = score_json(run, SUM_HYP, "-r", SUM_REF, "--segmentation", "paragraph", "--metrics", "rougeL,rougeLsum")
    assert set(out) == {"rougeL", "rougeLsum", "segments"}
    hyps, refs = _paragraphs(SUM_HYP), _paragraphs(SUM_REF)
    assert out["segments"] == len(hyps) == 6
    expected = rouge_means(hyps, [refs], keys=("rougeL", "rougeLsum"))
    assert_rouge(out["rougeL"], expected["rougeL"])
    assert_rouge(out["rougeLsum"], expected["rougeLsum"])
    # one sentence per line: summary-level LCS differs from the flat LCS here
    assert out["rougeLsum"]["fmeasure"] != pytest.approx(out["rougeL"]["fmeasure"])


def test_summaries_as_one_document(run):
    out = score_json(run, SUM_HYP, "-r", SUM_REF, "--segmentation", "document", "--metrics", "rougeLsum")
    expected = rouge_means(
        [Path(SUM_HYP).read_text().rstrip("\n")], [[Path(SUM_REF).read_text().rstrip("\n")]], keys=("rougeLsum",)
    )
    assert out["segments"] == 1
    assert_rouge(out["rougeLsum"], expected["rougeLsum"])


def test_default_metrics_and_exact_json_keys(run):
    out = score_json(run, ASR_HYP, "-r", ASR_REF)
    assert set(out) == {"bleu", "rougeL", "wer", "segments"}
    assert set(out["bleu"]) == {"score", "precisions", "bp", "sys_len", "ref_len", "signature"}
    assert set(out["rougeL"]) == {"precision", "recall", "fmeasure", "signature"}
    assert set(out["wer"]) == {"wer", "hits", "substitutions", "deletions", "insertions", "mer", "wil", "signature"}
    assert len(out["bleu"]["precisions"]) == 4
    assert 0 <= out["bleu"]["score"] <= 100 and out["bleu"]["score"] > 1  # sacreBLEU's 0-100 scale
    assert 0 <= out["rougeL"]["fmeasure"] <= 1


def test_metric_names_are_case_insensitive_and_deduplicated(run):
    out = score_json(run, ASR_HYP, "-r", ASR_REF, "--metrics", "ROUGEL,wer,rougeL")
    assert set(out) == {"rougeL", "wer", "segments"}


def test_unknown_metric_is_a_usage_error(run):
    result = run("score", ASR_HYP, "-r", ASR_REF, "--metrics", "bleu,meteor")
    assert result.code == 2
    assert "unknown metric 'meteor'" in result.err


# -- sacreBLEU's options --------------------------------------------------------------------


@pytest.mark.parametrize("language", ["zh", "en-zh", "zh-TW", "en-US-zh-Hant"])  # a region or script stays with its language
def test_language_zh_picks_the_zh_tokenizer(run, language):
    out = score_json(run, ZH_HYP, "-r", ZH_REF, "-l", language, "--metrics", "bleu")
    expected = sacrebleu_score(ZH_HYP, [ZH_REF], trg_lang="zh")
    assert_bleu(out["bleu"], expected)
    assert "|tok:zh|" in out["bleu"]["signature"]
    # sacreBLEU's default, 13a, leaves Chinese unsegmented: a different, much lower score
    plain = score_json(run, ZH_HYP, "-r", ZH_REF, "-tok", "13a", "--metrics", "bleu")
    assert "|tok:13a|" in plain["bleu"]["signature"]
    assert plain["bleu"]["score"] < out["bleu"]["score"]


def test_a_hypothesis_named_in_its_language_picks_its_tokenizer_with_a_note(run):
    """news.hyp.zh is scored as -l zh scores it (the editor picks the tokenizer by the name too),
    and a note says why; -tok or -l name another."""
    result = run("score", ZH_HYP, "-r", ZH_REF, "--metrics", "bleu", "--json")
    assert result.code == 0, result.err
    assert_bleu(json.loads(result.out)["bleu"], sacrebleu_score(ZH_HYP, [ZH_REF], trg_lang="zh"))
    assert f"note: BLEU's tokenizer is zh, sacreBLEU's for that target language, as {ZH_HYP}'s name ends in .zh" in result.err
    assert "unsegmented" not in result.err
    told = run("score", ZH_HYP, "-r", ZH_REF, "--metrics", "bleu", "-l", "en")
    assert "|tok:13a|" in told.out and "BLEU's tokenizer is" not in told.err


def test_a_declared_target_language_picks_the_tokenizer(run, tmp_path):
    """An XLIFF's target-language chooses BLEU's tokenizer as -l would (zh-CN: zh)."""
    hyp_text, ref_text = "我们今天去了学校。", "我们昨天去了学校。"
    paths = []
    for name, target in (("d.hyp.xlf", hyp_text), ("d.ref.xlf", ref_text)):
        path = tmp_path / name
        path.write_text(
            '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" '
            f'target-language="zh-CN" datatype="plaintext" original="d"><body><trans-unit id="1"><source>We went.</source>'
            f"<target>{target}</target></trans-unit></body></file></xliff>",
            encoding="utf-8",
        )
        paths.append(path)
    result = run("score", paths[0], "-r", paths[1], "--metrics", "bleu", "--json")
    assert result.code == 0, result.err
    expected = BLEU(trg_lang="zh").corpus_score([hyp_text], [[ref_text]])
    assert json.loads(result.out)["bleu"]["score"] == pytest.approx(expected.score, abs=1e-9)
    assert "declares the target language zh-CN" in result.err


def test_japanese_named_without_mecab_is_tokenized_by_character(run, tmp_path, monkeypatch):
    """Where MeCab is missing, a name's Japanese gets char (13a would keep whole sentences as one
    token), and the note says how to install ja-mecab; -l ja still asks for ja-mecab itself."""
    from scorelens.core.tokenizers import TokenizerJaMecab

    monkeypatch.setattr(TokenizerJaMecab, "installed", classmethod(lambda cls: False))
    hyp, ref = tmp_path / "t.hyp.ja", tmp_path / "t.ref.ja"
    hyp.write_text("今日は学校に行きました\n", encoding="utf-8")
    ref.write_text("昨日は学校に行きました\n", encoding="utf-8")
    result = run("score", hyp, "-r", ref, "--metrics", "bleu", "--json")
    assert result.code == 0, result.err
    assert "|tok:char|" in json.loads(result.out)["bleu"]["signature"]
    assert "sacreBLEU's ja-mecab needs MeCab" in result.err and "pip install" in result.err


def test_explicit_tokenizer_wins_over_language(run):
    out = score_json(run, ZH_HYP, "-r", ZH_REF, "-l", "zh", "-tok", "char", "--metrics", "bleu")
    assert_bleu(out["bleu"], sacrebleu_score(ZH_HYP, [ZH_REF], tokenize="char"))
    assert "|tok:char|" in out["bleu"]["signature"]


@pytest.mark.parametrize("tokenize", ["intl", "none", "char", "13a"])
def test_tokenizers(run, tokenize):
    out = score_json(run, MT_HYP, *refs_args(MT_REFS), "-tok", tokenize, "--metrics", "bleu")
    assert_bleu(out["bleu"], sacrebleu_score(MT_HYP, MT_REFS, tokenize=tokenize))


def test_language_ja_uses_mecab(run, tmp_path):
    pytest.importorskip("MeCab")
    pytest.importorskip("ipadic")
    hyp, ref = tmp_path / "a.hyp.ja", tmp_path / "a.ref.ja"
    hyp.write_text("今日は良い天気ですね。\n私は学校に行きました。\n", encoding="utf-8")
    ref.write_text("今日はいい天気ですね。\n私は学校へ行きました。\n", encoding="utf-8")
    out = score_json(run, hyp, "-r", ref, "-l", "en-ja", "--metrics", "bleu")
    assert_bleu(out["bleu"], sacrebleu_score(hyp, [ref], tokenize="ja-mecab"))
    assert "|tok:ja-mecab-" in out["bleu"]["signature"]


def test_lowercase(run, tmp_path):
    hyp = tmp_path / "upper.txt"
    hyp.write_text(Path(MT_HYP).read_text().upper(), encoding="utf-8")
    out = score_json(run, hyp, *refs_args(MT_REFS), "-lc", "--metrics", "bleu")
    expected = sacrebleu_score(hyp, MT_REFS, lowercase=True)
    assert_bleu(out["bleu"], expected)
    assert expected.score > 50
    assert "|case:lc|" in out["bleu"]["signature"]


@pytest.mark.parametrize(
    "argv, options",
    [
        (["-s", "floor"], {"smooth_method": "floor"}),
        (["-s", "floor", "-sv", "0.5"], {"smooth_method": "floor", "smooth_value": 0.5}),
        (["--smooth-method", "add-k", "--smooth-value", "2"], {"smooth_method": "add-k", "smooth_value": 2}),
        (["-s", "none"], {"smooth_method": "none"}),
        (["--max-ngram-order", "2"], {"max_ngram_order": 2}),
        (["--max-ngram-order", "6", "-s", "exp"], {"max_ngram_order": 6}),
    ],
)
def test_smoothing_and_order(run, tmp_path, argv, options):
    # short lines, so high orders have zero matches and smoothing matters
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("the cat sat on a mat\nhello there\na b c d e f g\n", encoding="utf-8")
    ref.write_text("the cat sat on the mat\nhello world\na b x d e y g\n", encoding="utf-8")
    out = score_json(run, hyp, "-r", ref, "--metrics", "bleu", *argv)
    expected = BLEU(**options).corpus_score(peer_lines(hyp), [peer_lines(ref)])
    assert_bleu(out["bleu"], expected)
    assert len(out["bleu"]["precisions"]) == options.get("max_ngram_order", 4)


def test_bad_ngram_order_is_a_clear_error(run):
    result = run("score", ASR_HYP, "-r", ASR_REF, "--max-ngram-order", "0")
    assert result.code == 2
    assert result.err.strip() == "scorelens: error: --max-ngram-order: max n-gram order must be between 1 and 9, not 0"


# -- ROUGE and WER options ------------------------------------------------------------------


def test_stemming(run):
    out = score_json(run, MT_HYP, *refs_args(MT_REFS), "--stem", "--metrics", "rougeL")
    hyps, refs = peer_lines(MT_HYP), [peer_lines(r) for r in MT_REFS]
    stemmed = rouge_means(hyps, refs, use_stemmer=True)["rougeL"]
    assert_rouge(out["rougeL"], stemmed)
    assert stemmed != pytest.approx(rouge_means(hyps, refs)["rougeL"])
    assert "|stem:yes|" in out["rougeL"]["signature"]


def test_rouge_score_tokenizer_drops_chinese_and_says_so(run):
    result = run("score", ZH_HYP, "-r", ZH_REF, "--metrics", "rougeL")
    assert result.code == 0
    # as rouge-score: every Chinese letter is deleted, only digits and Latin letters are left
    p, r, f = rouge_means(peer_lines(ZH_HYP), [peer_lines(ZH_REF)])["rougeL"]
    assert result.out.splitlines()[0] == f"ROUGE-L = {f:.4f} (P = {p:.4f} R = {r:.4f} F = {f:.4f})"
    assert f < 0.2
    assert "note: rouge-score's tokenizer dropped non-ASCII letters in 8 of 8 segments" in result.out
    assert "--rouge-tokenizer unicode" in result.out
    unicode = score_json(run, ZH_HYP, "-r", ZH_REF, "--metrics", "rougeL", "--rouge-tokenizer", "unicode")
    assert unicode["rougeL"]["fmeasure"] > 0.5 > f
    assert "|tok:unicode|" in unicode["rougeL"]["signature"]
    # --json keeps stdout one object; the note goes to stderr
    json_run = run("score", ZH_HYP, "-r", ZH_REF, "--metrics", "rougeL", "--json")
    assert json.loads(json_run.out)["rougeL"]["fmeasure"] == pytest.approx(f, **EXACT)
    assert "dropped non-ASCII letters" in json_run.err


def test_wer_transform_lowercase(run, tmp_path):
    hyp = tmp_path / "h.txt"
    hyp.write_text(Path(ASR_HYP).read_text().title(), encoding="utf-8")
    lowercase = jiwer.Compose(
        [jiwer.ToLowerCase(), jiwer.RemoveMultipleSpaces(), jiwer.Strip(), jiwer.ReduceToListOfListOfWords()]
    )
    hyps, refs = peer_lines(hyp), peer_lines(ASR_REF)
    expected = jiwer.process_words(refs, hyps, reference_transform=lowercase, hypothesis_transform=lowercase)
    out = score_json(run, hyp, "-r", ASR_REF, "--wer-transform", "lowercase", "--metrics", "wer")
    assert out["wer"]["wer"] == pytest.approx(expected.wer, **EXACT)
    assert out["wer"]["hits"] == expected.hits
    default = score_json(run, hyp, "-r", ASR_REF, "--metrics", "wer")
    assert default["wer"]["wer"] == pytest.approx(jiwer.wer(refs, hyps), **EXACT)
    assert default["wer"]["wer"] > out["wer"]["wer"]
    assert "transform:lowercase" in out["wer"]["signature"]


def test_empty_reference_wer_counts_insertions_as_jiwer(run, tmp_path):
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("one two three\n", encoding="utf-8")
    ref.write_text("\n", encoding="utf-8")
    result = run("score", hyp, "-r", ref, "--metrics", "wer")
    assert result.code == 0
    assert result.out.splitlines()[0].startswith("WER = 3.0000 (H = 0 S = 0 D = 0 I = 3")
    assert "the reference is empty" in result.out


# -- input forms ----------------------------------------------------------------------------


def test_stdin_hypothesis(run):
    from_file = score_json(run, MT_HYP, *refs_args(MT_REFS))
    from_stdin = run("score", "-", *refs_args(MT_REFS), "--json", stdin=Path(MT_HYP).read_bytes())
    assert from_stdin.code == 0
    assert json.loads(from_stdin.out) == from_file


def test_stdin_needs_a_reference(run):
    result = run("score", "-", stdin=b"hello\n")
    assert result.code == 2
    assert "standard input (-) needs -r REF" in result.err


def test_mismatched_line_counts_name_both_files(run, tmp_path):
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("a\nb\nc\n", encoding="utf-8")
    ref.write_text("a\nb\n", encoding="utf-8")
    result = run("score", hyp, "-r", ref)
    assert result.code == 2
    assert result.out == ""
    assert f"{hyp} has 3 lines, {ref} has 2" in result.err
    assert result.err.count("\n") == 1


def test_mismatch_with_second_reference_only(run, tmp_path):
    hyp, ref, ref2 = tmp_path / "h.txt", tmp_path / "r.txt", tmp_path / "r2.txt"
    hyp.write_text("a\nb\n", encoding="utf-8")
    ref.write_text("a\nb\n", encoding="utf-8")
    ref2.write_text("a\nb\nc\nd\n", encoding="utf-8")
    result = run("score", hyp, "-r", ref, "-r", ref2)
    assert result.code == 2
    assert f"{hyp} has 2 lines, {ref2} has 4" in result.err
    assert f"{ref} has" not in result.err


def test_trailing_newline_does_not_add_a_segment(run, tmp_path):
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("a b c\nd e f", encoding="utf-8")  # no final newline
    ref.write_text("a b c\nd e f\n", encoding="utf-8")
    out = score_json(run, hyp, "-r", ref)
    assert out["segments"] == 2
    assert out["wer"]["wer"] == 0


def test_only_lf_cr_crlf_split_lines(run, tmp_path):
    # a form feed and U+2028 are inside a line for LSP and for ScoreLens (str.splitlines would split)
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("a\fb\u2028c\nd\n", encoding="utf-8")
    ref.write_text("x\ny\n", encoding="utf-8")
    assert score_json(run, hyp, "-r", ref)["segments"] == 2


def test_empty_files_score_zero_segments(run, tmp_path):
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_bytes(b"")
    ref.write_bytes(b"")
    out = score_json(run, hyp, "-r", ref)
    assert out["segments"] == 0
    assert out["bleu"]["score"] == 0


def test_unsegmented_script_notes(run):
    result = run("score", ZH_HYP, "-r", ZH_REF, "-tok", "13a")
    notes = [line for line in result.out.splitlines() if line.startswith("note:")]
    assert len(notes) == 3
    assert "BLEU's 13a tokenizer leaves unsegmented; -l zh, -l ja or -l ko" in notes[1]
    assert "CER (--metrics cer)" in notes[2]
    # with a fitting tokenizer and CER there is nothing to warn about
    quiet = run("score", ZH_HYP, "-r", ZH_REF, "-l", "zh", "--metrics", "bleu,cer")
    assert "note:" not in quiet.out
    english = run("score", MT_HYP, *refs_args(MT_REFS))
    assert "note:" not in english.out


def test_every_signature_is_written_the_same_way(run):
    """One format for every metric (docs/cli.md): sacreBLEU's key:value|..., then ScoreLens's version."""
    out = json.loads(run("score", MT_HYP, *refs_args(MT_REFS), "--metrics", "bleu,rougeL,rougeLsum,wer,cer", "--json").out)
    signatures = {key: out[key]["signature"] for key in ("bleu", "rougeL", "rougeLsum", "wer", "cer")}
    for key, signature in signatures.items():
        *pairs, version = signature.split("|")
        assert version.startswith("version:scorelens-"), (key, signature)
        assert pairs[0] == ("nrefs:1" if key in ("wer", "cer") else "nrefs:2"), (key, signature)
        assert all(p.count(":") == 1 and p.split(":")[0].isalpha() for p in pairs), (key, signature)
    assert signatures["rougeL"] == signatures["rougeLsum"] == f"nrefs:2|tok:rouge-score|stem:no|agg:mean|{version}"
    assert signatures["wer"].replace("unit:word", "unit:char") == signatures["cer"]


@pytest.mark.parametrize(
    "argv, options",
    [
        ([], {}),
        (["--ter-case-sensitive", "--ter-no-punct"], {"case_sensitive": True, "no_punct": True}),
        (["--ter-normalized", "--ter-asian-support"], {"normalized": True, "asian_support": True}),
    ],
)
def test_ter_equals_sacrebleu(run, argv, options):
    got = score_json(run, MT_HYP, *refs_args(MT_REFS), "--metrics", "ter", *argv)["ter"]
    expected = TER(**options).corpus_score(peer_lines(MT_HYP), [peer_lines(r) for r in MT_REFS])
    assert got["score"] == pytest.approx(expected.score, **EXACT)
    assert got["num_edits"] == expected.num_edits
    assert got["ref_length"] == pytest.approx(expected.ref_length, **EXACT)
    signature = TER(**options)
    signature.num_refs = 2
    assert got["signature"].rsplit("|", 1)[0] == signature.get_signature().format().rsplit("|", 1)[0]


def test_ter_text_line_and_shift_findings(run, tmp_path):
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("the cat sat on the mat today\n", encoding="utf-8")
    ref.write_text("today the cat sat on the mat\n", encoding="utf-8")
    result = run("score", str(hyp), "-r", str(ref), "--metrics", "ter")
    assert result.out.splitlines()[0] == "TER = 14.29 (edits = 1 ref_length = 7)"
    result = run("check", str(hyp), "-r", str(ref), "--metrics", "ter")
    assert f'{hyp}:1:24: ter.shift "today" is in another place in the reference (a TER shift), at {ref}:1:1' in result.out


def test_a_long_reference_length_is_printed_whole():
    from scorelens.api.results import Ter
    from scorelens.cli.scores_text import format_ter

    assert format_ter(Ter(1.0, 10, 1_000_000.0)) == "TER = 1.00 (edits = 10 ref_length = 1000000)"
    assert format_ter(Ter(1.0, 1, 1060 / 3)) == "TER = 1.00 (edits = 1 ref_length = 353.333)"
