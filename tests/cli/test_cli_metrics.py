"""``scorelens score`` with chrF/chrF++ and ROUGE-N, and ``--sentence-level``: values equal to
sacreBLEU's ``CHRF`` and rouge-score's computed here."""

from __future__ import annotations

import json

import pytest
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU, CHRF

from cli_support import peer_lines, sample

MT_HYP = sample("mt/news.hyp.en")
MT_REFS = [sample("mt/news.ref.en"), sample("mt/news.ref2.en")]
SUM_HYP, SUM_REF = sample("summarization/articles.hyp.txt"), sample("summarization/articles.ref.txt")
EXACT = dict(rel=1e-9, abs=1e-9)


def refs_args(refs):
    return [a for r in refs for a in ("-r", r)]


def score_json(run, *argv) -> dict:
    result = run("score", *argv, "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)


def peer_chrf(refs, **options):
    metric = CHRF(**options)
    score = metric.corpus_score(peer_lines(MT_HYP), [peer_lines(r) for r in refs])
    return metric, score


CHRF_ARGS = [
    ([], {}),
    (["--chrf-word-order", "2"], {"word_order": 2}),
    (["-cc", "4", "-cw", "1", "--chrf-beta", "1"], {"char_order": 4, "word_order": 1, "beta": 1}),
    (["--chrf-whitespace", "--chrf-lowercase", "--chrf-eps-smoothing"], {"whitespace": True, "lowercase": True, "eps_smoothing": True}),
]


@pytest.mark.parametrize("argv, options", CHRF_ARGS)
@pytest.mark.parametrize("nrefs", [1, 2])
def test_chrf_equals_sacrebleu(run, argv, options, nrefs):
    refs = MT_REFS[:nrefs]
    out = score_json(run, MT_HYP, *refs_args(refs), "-m", "chrf", *argv)
    assert set(out) == {"chrf", "segments"}
    assert set(out["chrf"]) == {"score", "char_order", "word_order", "beta", "signature"}
    metric, expected = peer_chrf(refs, **options)
    assert out["chrf"]["score"] == pytest.approx(expected.score, **EXACT)
    assert (out["chrf"]["char_order"], out["chrf"]["word_order"], out["chrf"]["beta"]) == (
        expected.char_order,
        expected.word_order,
        expected.beta,
    )
    ours, _, version = out["chrf"]["signature"].rpartition("|version:")
    assert ours == metric.get_signature().format().rpartition("|version:")[0]
    assert version.startswith("scorelens-")


def test_chrf_text_line_is_sacrebleus(run):
    result = run("score", MT_HYP, *refs_args(MT_REFS), "-m", "chrf", "--chrf-word-order", "2")
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    _, expected = peer_chrf(MT_REFS, word_order=2)
    assert lines[0] == expected.format()  # "chrF2++ = 76.59"
    assert lines[0].startswith("chrF2++ = ")
    assert lines[1].strip() == "nrefs:2|case:mixed|eff:yes|nc:6|nw:2|space:no|version:scorelens-0.1.0"
    assert lines[2] == "segments: 30"


@pytest.mark.parametrize("stem", [False, True])
def test_rouge_n_equals_rouge_score(run, stem):
    argv = ["--stem"] if stem else []
    out = score_json(run, MT_HYP, *refs_args(MT_REFS), "-m", "rouge1,rouge2,rouge4", *argv)
    assert set(out) == {"rouge1", "rouge2", "rouge4", "segments"}
    hyps, refs = peer_lines(MT_HYP), [peer_lines(r) for r in MT_REFS]
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rouge4"], use_stemmer=stem)
    pairs = [scorer.score_multi([r[i] for r in refs], h) for i, h in enumerate(hyps)]
    for key in ("rouge1", "rouge2", "rouge4"):
        assert set(out[key]) == {"precision", "recall", "fmeasure", "signature"}
        expected = [sum(p[key][k] for p in pairs) / len(pairs) for k in range(3)]
        assert [out[key]["precision"], out[key]["recall"], out[key]["fmeasure"]] == pytest.approx(expected, **EXACT)
        assert out[key]["signature"].startswith(f"nrefs:2|tok:rouge-score|stem:{'yes' if stem else 'no'}|agg:mean|")


def test_rouge_n_text_lines(run):
    result = run("score", SUM_HYP, "-r", SUM_REF, "-m", "rouge1,rouge2")
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].startswith("ROUGE-1 = ") and lines[2].startswith("ROUGE-2 = ")


@pytest.mark.parametrize(
    "argv",
    [["-m", "bleu,chrf,rouge2"], ["-m", "bleu", "chrf", "rouge2"], ["-m", "bleu", "-m", "chrf", "--metrics", "rouge2"], ["-m", "BLEU", "CHRF,rouge2", "-m", "chrf"]],
)
def test_metrics_comma_space_or_repeated(run, argv):
    out = score_json(run, MT_HYP, *refs_args(MT_REFS), *argv)
    assert set(out) == {"bleu", "chrf", "rouge2", "segments"}


def test_metrics_before_the_hypothesis_say_where_they_go(run):
    result = run("score", "-m", "bleu", "chrf", MT_HYP, *refs_args(MT_REFS))
    assert result.code == 2
    assert "put -m after HYP" in result.err


@pytest.mark.parametrize("argv, message", [(["-cc", "0"], "character order"), (["--chrf-word-order", "-1"], "word order"), (["--chrf-beta", "-2"], "beta")])
def test_bad_chrf_options_are_clear_errors(run, argv, message):
    result = run("score", MT_HYP, *refs_args(MT_REFS), "-m", "chrf", *argv)
    assert result.code == 2
    assert message in result.err and "Traceback" not in result.err


# -- --sentence-level -----------------------------------------------------------------------


def test_sentence_level_json_lines_equal_the_peers(run):
    result = run("score", MT_HYP, *refs_args(MT_REFS), "-m", "bleu,chrf,rouge1,rougeL,wer", "-sl", "--json", "-cw", "2")
    assert result.code == 0, result.err
    rows = [json.loads(line) for line in result.out.splitlines()]
    hyps, refs = peer_lines(MT_HYP), [peer_lines(r) for r in MT_REFS]
    assert len(rows) == len(hyps) == 30
    bleu, chrf = BLEU(effective_order=True), CHRF(word_order=2)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    for i, (row, hyp) in enumerate(zip(rows, hyps)):
        mine = [r[i] for r in refs]
        assert (row["segment"], row["line"]) == (i, i + 1)
        assert set(row) == {"segment", "line", "bleu", "chrf", "rouge1", "rougeL", "wer"}
        assert row["bleu"]["score"] == pytest.approx(bleu.sentence_score(hyp, mine).score, **EXACT)
        assert row["chrf"]["score"] == pytest.approx(chrf.sentence_score(hyp, mine).score, **EXACT)
        rouge = scorer.score_multi(mine, hyp)
        assert row["rouge1"]["fmeasure"] == pytest.approx(rouge["rouge1"].fmeasure, **EXACT)
        assert row["rougeL"]["fmeasure"] == pytest.approx(rouge["rougeL"].fmeasure, **EXACT)
        assert row["wer"]["hits"] + row["wer"]["substitutions"] + row["wer"]["deletions"] == len(refs[0][i].split())


def test_sentence_level_text_one_row_per_segment(run):
    result = run("score", MT_HYP, *refs_args(MT_REFS), "-m", "chrf", "bleu", "-sl")
    assert result.code == 0, result.err
    rows = result.out.splitlines()
    assert len(rows) == 30
    hyps, refs = peer_lines(MT_HYP), [peer_lines(r) for r in MT_REFS]
    bleu = BLEU(effective_order=True).sentence_score(hyps[4], [r[4] for r in refs])
    chrf = CHRF().sentence_score(hyps[4], [r[4] for r in refs])
    assert rows[4] == f"{MT_HYP}:5\tBLEU = {bleu.score:.2f}\t{chrf.format()}"


def test_sentence_level_paragraphs_name_their_first_line(run):
    result = run("score", SUM_HYP, "-r", SUM_REF, "-m", "rouge2", "--segmentation", "paragraph", "-sl", "--json")
    assert result.code == 0, result.err
    rows = [json.loads(line) for line in result.out.splitlines()]
    text = peer_lines(SUM_HYP)
    assert len(rows) > 1
    for row in rows:
        assert text[row["line"] - 1].strip()  # a paragraph starts on a non-blank line
        assert row["line"] == 1 or not text[row["line"] - 2].strip()
