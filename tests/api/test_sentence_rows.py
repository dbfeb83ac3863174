"""``sentence_scores`` makes its rows a metric at a time; each row equals the one made for its
segment alone (``Evaluation.segment_results``, what ``Corpus.segment_scores`` serves), for every
implementation and the metrics only some of them have."""

from __future__ import annotations

from pathlib import Path

import pytest

import scorelens
from scorelens.api import evaluation
from scorelens.api.scoring import evaluation_of

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def lines(relative: str) -> list[str]:
    return (SAMPLES / relative).read_text(encoding="utf-8").rstrip("\n").split("\n")


HYP, REF, REF2 = (lines(f"mt/news.{name}") for name in ("hyp.en", "ref.en", "ref2.en"))
# an empty pair and one the PyPI rouge package skips (no words on one side), beside the news
HYP_ODD = [*HYP, "", "...", "the same words"]
REF_ODD = [*REF, "", "a reference", "the same words"]

CASES = [
    ("every metric, two references", ["bleu", "chrf", "ter", "rougeL", "rougeLsum", "rouge1", "rouge2", "wer", "cer"], {}, 2),
    ("chrF++, floor smoothing, order 3", ["bleu", "chrf"], {"chrf_word_order": 2, "smooth_method": "floor", "max_ngram_order": 3}, 1),
    ("add-k smoothing", ["bleu"], {"smooth_method": "add-k"}, 1),
    ("NLTK's BLEU", ["bleu"], {"bleu_impl": "nltk"}, 1),
    ("the rouge package", ["rougeL", "rouge1", "rouge2"], {"rouge_impl": "rouge"}, 1),
    # (ROUGE-W dies on the empty reference, as the script does)
    ("ROUGE-1.5.5", ["rougeL", "rouge2", "rougeS", "rougeSU"], {"rouge_impl": "rouge-1.5.5", "stem": True}, 2),
    ("ROUGE-W/S/SU beside rouge-score's", ["rouge1", "rougeW", "rougeSU"], {}, 1),
    ("Whisper-normalised WER and CER", ["wer", "cer"], {"wer_transform": "whisper-english"}, 1),
]


@pytest.mark.parametrize(("metrics", "options", "nrefs"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_rows_equal_each_segments_own(metrics, options, nrefs, monkeypatch):
    monkeypatch.setattr(evaluation, "ROWS_AT_ONCE", 4)  # rows made in several parts, the last one short
    refs = [REF_ODD, [*REF2, "", "a reference", "same words"]][:nrefs]
    rows = scorelens.sentence_scores(HYP_ODD, refs, metrics, **options)
    ev = evaluation_of(HYP_ODD, refs, metrics, 1, options)
    alone = [ev.segment_results(segment) for segment in range(ev.segments)]
    assert [r.to_dict() for r in rows] == [r.to_dict() for r in alone]
    assert rows == alone  # every field, as the dataclasses compare them
    assert len(rows) == len(HYP_ODD) and len(rows) % 4
    assert all(getattr(rows[0], key) is not None for key in metrics)


def test_rows_carry_perplexity():
    pytest.importorskip("kenlm", reason="perplexity needs the fluency extra (kenlm)")
    hyp = lines("lm/call.hyp.txt")
    options = {"lm": str(SAMPLES / "lm" / "asr.arpa")}
    rows = scorelens.sentence_scores(hyp, hyp, ["ppl", "wer"], **options)
    ev = evaluation_of(hyp, hyp, ["ppl", "wer"], 1, options)
    assert rows == [ev.segment_results(segment) for segment in range(ev.segments)]
    assert rows[0].ppl.tokens == len(hyp[0].split()) + 1


def test_a_row_of_an_unknown_field_is_refused():
    from scorelens.api.results import SegmentScores

    with pytest.raises(TypeError, match="nonsense"):
        SegmentScores.from_columns([{"segment": 0, "line": 1}], {"bleu": [{"score": 1.0, "nonsense": 2}]})
