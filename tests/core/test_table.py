"""The report's segment table: each column equals the segment's own score, orders are stable in
both directions, filters and histograms count what they say, and a table one edit newer equals a
fresh one (values remembered by statistics are never stale)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorelens.core import Corpus, ScoringConfig, bleu, rates
from scorelens.core.table import Filter, TableBuilder, histogram

MT = Path(__file__).parents[2] / "samples" / "mt"
METRICS = ["bleu", "chrf", "ter", "rouge1", "rouge2", "rougeL", "rougeLsum", "wer"]


def mt_corpus(metrics=METRICS) -> Corpus:
    hyp = (MT / "news.hyp.en").read_text(encoding="utf-8")
    refs = [(MT / n).read_text(encoding="utf-8") for n in ("news.ref.en", "news.ref2.en")]
    return Corpus(hyp, refs, ScoringConfig(metrics=frozenset(metrics)))


def build(builder: TableBuilder, corpus: Corpus):
    *chunks, table = builder.build(corpus)
    assert all(c is None for c in chunks)
    return table


def test_columns_are_the_segments_own_scores():
    corpus = mt_corpus()
    table = build(TableBuilder(corpus.config, corpus.references), corpus)
    assert len(table) == len(corpus) > 10
    assert set(table.columns) == {"bleu", "chrf", "ter", "rouge1", "rouge2", "rougeL", "rougeLsum", "wer"}
    for i in range(len(corpus)):
        s = corpus.segment_scores(i)
        assert table.columns["bleu"][i] == s.bleu.score
        assert table.columns["chrf"][i] == s.chrf.score
        assert table.columns["ter"][i] == s.ter.score
        assert table.columns["rouge2"][i] == s.rouge_n["rouge2"].fmeasure
        assert table.columns["rougeL"][i] == s.rouge_l.fmeasure
        assert table.columns["rougeLsum"][i] == s.rouge_lsum.fmeasure
        assert table.columns["wer"][i] == rates(s.wer).wer
        assert table.edits[i] == s.wer.substitutions + s.wer.deletions + s.wer.insertions
    assert table.keys == ["line", "bleu", "chrf", "ter", "rouge1", "rouge2", "rougeL", "rougeLsum", "wer", "edits"]


def test_only_enabled_metrics_and_no_edits_without_wer():
    corpus = mt_corpus(["bleu", "ter"])
    table = build(TableBuilder(corpus.config, corpus.references), corpus)
    assert list(table.columns) == ["bleu", "ter"] and table.edits is None
    with pytest.raises(ValueError, match="no column 'edits'"):
        table.order("edits")


def test_orders_are_stable_in_both_directions():
    corpus = Corpus("a b\nx y\na b\nx\n", ["a b\na b\na b\na b\n"], ScoringConfig(metrics=frozenset({"bleu", "wer"})))
    table = build(TableBuilder(corpus.config, corpus.references), corpus)
    assert table.columns["wer"].tolist() == [0.0, 1.0, 0.0, 1.0]
    assert table.order("wer").tolist() == [0, 2, 1, 3]
    assert table.order("wer", descending=True).tolist() == [1, 3, 0, 2]
    assert table.order("line", descending=True).tolist() == [3, 2, 1, 0]
    assert table.order("edits", descending=True).tolist() == [1, 3, 0, 2]


def test_filters_select_in_the_order_asked():
    corpus = mt_corpus()
    table = build(TableBuilder(corpus.config, corpus.references), corpus)
    wer, bleu = table.columns["wer"], table.columns["bleu"]
    got = table.select("bleu", False, [Filter("wer", ">", 0.2), Filter("bleu", "<=", 50)])
    assert got.tolist() == sorted((i for i in range(len(table)) if wer[i] > 0.2 and bleu[i] <= 50), key=lambda i: (bleu[i], i))
    assert 0 < len(got) < len(table)
    assert table.select("bleu", False, [Filter("wer", ">", 0.2), Filter("bleu", "<=", 50)]) is got  # kept for paging
    with pytest.raises(ValueError, match="unknown filter operator"):
        Filter("wer", "!=", 1)
    with pytest.raises(ValueError, match="finite"):
        Filter("wer", ">", float("nan"))


def test_histogram_bins():
    h = histogram("bleu", [0, 9.99, 10, 55, 99.9, 100])
    assert h.bins == [2, 1, 0, 0, 0, 1, 0, 0, 0, 2] and h.total == 6
    assert h.mean == pytest.approx(45.815)
    assert histogram("wer", [0, 0.1, 0.25, 1, 2.5]).bins == [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 2]
    assert histogram("ter", [0, 55, 100, 250]).bins == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2]
    assert histogram("rougeL", [0.3]).bins[3] == 1  # 0.3 / 0.1 is 2.9999...
    assert histogram("rougeL", [1.0]).bins[9] == 1
    assert histogram("bleu", []).mean is None


def test_a_table_after_edits_equals_a_fresh_one():
    corpus = mt_corpus()
    builder = TableBuilder(corpus.config, corpus.references)
    build(builder, corpus)
    corpus.replace_lines(0, 1, 2, ["a completely different line", "and one more"])
    corpus.replace_lines(1, 5, 6, [])
    corpus.refresh()
    again = build(builder, corpus)
    fresh = build(TableBuilder(corpus.config, corpus.references), corpus)
    assert {k: v.tolist() for k, v in again.columns.items()} == {k: v.tolist() for k, v in fresh.columns.items()}
    assert again.edits.tolist() == fresh.edits.tolist()
    assert again.histograms() == fresh.histograms()


def test_a_table_one_edit_newer_computes_the_edited_segment_alone(monkeypatch):
    corpus = mt_corpus()
    builder = TableBuilder(corpus.config, corpus.references)
    build(builder, corpus)
    corpus.replace_lines(0, 3, 4, ["a different line"])
    corpus.refresh()
    read = []
    rows = corpus.statistic_rows
    monkeypatch.setattr(corpus, "statistic_rows", lambda field, segments: read.append((field, segments.tolist())) or rows(field, segments))
    table = build(builder, corpus)
    assert read and all(segments == [3] for _, segments in read)
    monkeypatch.undo()
    assert table.columns["bleu"][3] == corpus.segment_scores(3).bleu.score


def test_a_new_corpus_is_computed_whole():
    # its re-scorings are numbered from the start again: the last build's mark says nothing of it
    corpus = mt_corpus()
    builder = TableBuilder(corpus.config, corpus.references)
    build(builder, corpus)
    other = Corpus("a b c\n" * len(corpus), ["a b d\n" * len(corpus)], corpus.config)
    other.refresh()
    table = build(builder, other)
    assert table.columns["bleu"].tolist() == [other.segment_scores(i).bleu.score for i in range(len(other))]
