"""WER and CER of segments of several lines against jiwer 4's ``wer_contiguous`` / ``cer_contiguous``
(a segment's lines joined by a space), with ``--segmentation paragraph|document`` and the named transforms."""

from __future__ import annotations

import jiwer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scorelens.core import Corpus, ScoringConfig, rates
from scorelens.core.scores import signatures

SYSTEMS = ("amazon", "google")
CALLS = ("4320211", "4330115", "4341191", "4344338", "4344866")


def config(**options) -> ScoringConfig:
    return ScoringConfig(metrics=frozenset({"wer", "cer"}), **options)


def jiwer_counts(refs: list[list[str]], hyps: list[list[str]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Summed hits/S/D/I of each pair of line lists as jiwer's contiguous transforms read them."""
    words = chars = (0, 0, 0, 0)
    for ref, hyp in zip(refs, hyps):
        w = jiwer.process_words(ref, hyp, reference_transform=jiwer.wer_contiguous, hypothesis_transform=jiwer.wer_contiguous)
        c = jiwer.process_characters(ref, hyp, reference_transform=jiwer.cer_contiguous, hypothesis_transform=jiwer.cer_contiguous)
        words = tuple(a + b for a, b in zip(words, (w.hits, w.substitutions, w.deletions, w.insertions)))
        chars = tuple(a + b for a, b in zip(chars, (c.hits, c.substitutions, c.deletions, c.insertions)))
    return words, chars


def ours(c: Corpus) -> tuple[tuple[int, ...], tuple[int, ...]]:
    t = c.totals()
    return tuple((x.hits, x.substitutions, x.deletions, x.insertions) for x in (t.wer, t.cer))


def test_the_issues_example():
    """``hello / this / sentence / is fractured`` against ``this sentence``: jiwer's contiguous WER 0.6."""
    ref, hyp = "hello\nthis\nsentence\nis fractured\n", "this sentence\n"
    c = Corpus(hyp, [ref], config(segmentation="document"))
    expected = jiwer.wer(ref.split("\n")[:-1], ["this sentence"], reference_transform=jiwer.wer_contiguous, hypothesis_transform=jiwer.wer_contiguous)
    assert expected == pytest.approx(0.6)
    assert rates(c.scores().wer).wer == expected
    assert rates(c.scores().cer).wer == jiwer.cer(
        ref.split("\n")[:-1], ["this sentence"], reference_transform=jiwer.cer_contiguous, hypothesis_transform=jiwer.cer_contiguous
    )
    # jiwer's default reads "hello\nthis" as one word: the old figure
    assert jiwer.wer(ref.rstrip("\n"), "this sentence") == 1.0


def test_signatures_name_the_contiguous_transforms():
    assert "transform:wer_contiguous" in signatures(config(segmentation="paragraph"), 1)["wer"]
    assert "transform:cer_contiguous" in signatures(config(segmentation="paragraph"), 1)["cer"]
    assert "transform:lowercase+contiguous" in signatures(config(segmentation="paragraph", wer_transform="lowercase"), 1)["wer"]
    assert "transform:default" in signatures(config(), 1)["wer"]
    assert "transform:wer_contiguous" in signatures(config(wer_transform="cer_contiguous"), 1)["wer"]


def test_named_transform_joins_a_segments_lines():
    """``wer_contiguous`` named with line segmentation: a segment text with newlines (as a format's field
    may have) is read as its lines joined; jiwer's default is kept otherwise."""
    from scorelens.core.corpus import score_apart

    texts = ["this sentence", "hello\nthis\nsentence\nis fractured"]
    record, _ = score_apart(config(wer_transform="wer_contiguous"), texts)
    assert record.wer == (2, 0, 3, 0)
    record, _ = score_apart(config(), texts)
    default = jiwer.process_words(texts[1], texts[0])  # "hello\nthis\nsentence\nis" is one word
    assert record.wer == (default.hits, default.substitutions, default.deletions, default.insertions) == (0, 2, 0, 0)


def test_earnings21_documents(shared):
    """Whole earnings calls (one speaker turn a line; the sides' line counts differ), scored as documents."""
    for system in SYSTEMS:
        for call in CALLS:
            ref = shared("earnings21", "reference", f"{call}.txt").read_text(encoding="utf-8")
            hyp = shared("earnings21", system, f"{call}.txt").read_text(encoding="utf-8")
            c = Corpus(hyp, [ref], config(segmentation="document"))
            assert ours(c) == jiwer_counts([ref.splitlines()], [hyp.splitlines()]), (system, call)


def test_earnings21_paragraphs_and_findings(shared):
    """Paragraphs of a few speaker turns; each finding's text is the original characters of its words."""
    ref_lines = shared("earnings21", "reference", "4341191.txt").read_text(encoding="utf-8").splitlines()
    hyp_lines = shared("earnings21", "amazon", "4341191.txt").read_text(encoding="utf-8").splitlines()
    refs = [ref_lines[i : i + 3] for i in range(0, 60, 3)]
    hyps = [hyp_lines[i : i + 2] for i in range(0, 40, 2)]
    c = Corpus("\n\n".join(map("\n".join, hyps)) + "\n", ["\n\n".join(map("\n".join, refs)) + "\n"], config(segmentation="paragraph"))
    assert c.segment_counts() == [20, 20]
    assert ours(c) == jiwer_counts(refs, hyps)
    found = [f for i in range(20) for f in c.findings(i) if f.code.startswith("wer.")]
    assert found
    for f in found:
        assert f.text == c.text(f.side, f.segment)[f.start : f.end]
        assert "\n" not in f.text or f.code != "wer.substitution" or len(f.text.split()) > 1


WORDS = ["a", "b", "cat", "the", "Cat", "  ", "\t", "x\ty", ""]
lines = st.lists(st.lists(st.sampled_from(WORDS), max_size=4).map(" ".join), min_size=1, max_size=4)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(lines, lines), min_size=1, max_size=4), st.sampled_from(["default", "lowercase"]))
def test_random_paragraphs(pairs, transform):
    """Random paragraphs (blank and whitespace-only lines dropped, as paragraphs end at them)."""
    pairs = [tuple([line for line in side if line.strip()] or ["z"] for side in pair) for pair in pairs]
    refs, hyps = [r for r, _ in pairs], [h for _, h in pairs]
    c = Corpus("\n\n".join(map("\n".join, hyps)), ["\n\n".join(map("\n".join, refs))], config(segmentation="paragraph", wer_transform=transform))
    if transform == "lowercase":
        refs = [[line.lower() for line in r] for r in refs]
        hyps = [[line.lower() for line in h] for h in hyps]
    assert ours(c) == jiwer_counts(refs, hyps)
