"""Property-based parity with the peers on random texts (see texts.py for what they contain)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rouge_score import rouge_scorer
from peers import (
    contiguous,
    assert_chrf,
    assert_counts,
    assert_parity,
    assert_rouge,
    config,
    corpus_chrf,
    file_lines,
    rouge_mean,
    rouge_pairs,
    scorer,
)
from texts import edited, examples, line, line_corpus, line_pair, line_words, render

from scorelens.core import Corpus
from scorelens.core.rouge import ROUGE_N
from scorelens.core.tokenizers import rouge_tokenizer

TOKENIZERS = ["13a", "intl", "zh", "char", "none", "ja-mecab"]
SMOOTHING = st.sampled_from([("exp", None), ("floor", None), ("floor", 0.01), ("add-k", None), ("add-k", 3), ("none", None)])


@pytest.mark.parametrize("tokenize", TOKENIZERS)
@examples(150)
@given(data=line_corpus(min_lines=1), smoothing=SMOOTHING, lowercase=st.booleans(), order=st.sampled_from([4, 4, 2, 5]))
def test_bleu(tokenize, data, smoothing, lowercase, order):
    hyps, refs = data
    method, value = smoothing
    assert_parity(
        hyps, refs, {"bleu"}, tokenize=tokenize, smooth_method=method, smooth_value=value, lowercase=lowercase, max_ngram_order=order
    )


CHRF_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "char_order": st.sampled_from([6, 1, 2, 4, 9]),
        "word_order": st.sampled_from([0, 2, 1, 3]),
        "beta": st.sampled_from([2, 1, 0, 3]),
        "lowercase": st.booleans(),
        "whitespace": st.booleans(),
        "eps_smoothing": st.booleans(),
    },
)


@st.composite
def tied_corpus(draw, max_refs: int = 4):
    """A line corpus with 1-4 reference streams, some of them copies (ties between references)."""
    hyps, refs = draw(line_corpus(min_lines=1, nrefs=draw(st.integers(1, max_refs))))
    if len(refs) > 1 and draw(st.booleans()):
        refs[-1] = list(refs[0])
    return hyps, refs


@examples(300)
@given(data=tied_corpus(), options=CHRF_OPTIONS)
def test_chrf(data, options):
    """chrF and chrF++ with every option: corpus score, each segment's statistics and sentence score."""
    hyps, refs = data
    assert_parity(hyps, refs, {"chrf"}, chrf=options)


@examples(300)
@given(data=tied_corpus(), stem=st.booleans(), types=st.sets(st.sampled_from(ROUGE_N), min_size=1))
def test_rouge_n(data, stem, types):
    hyps, refs = data
    assert_parity(hyps, refs, types | {"rougeL"}, stem=stem)


class _ScoreLensTokens:
    """ScoreLens's ``unicode`` ROUGE tokenizer in rouge-score's tokenizer interface: the
    n-gram counting and the choice among references stay rouge-score's."""

    def __init__(self, stem):
        self.tokens = rouge_tokenizer("unicode", stem).tokens

    def tokenize(self, text):
        return self.tokens(text)


@examples(150)
@given(data=tied_corpus(), stem=st.booleans())
def test_rouge_n_unicode_tokenizer(data, stem):
    hyps, refs = data
    types = ["rouge1", "rouge2", "rouge4"]
    s = Corpus("".join(h + "\n" for h in hyps), ["".join(x + "\n" for x in r) for r in refs], config(types, rouge_tokenizer="unicode", stem=stem)).scores()
    peer = rouge_scorer.RougeScorer(types, tokenizer=_ScoreLensTokens(stem))
    pairs = [peer.score_multi([r[i] for r in refs], hyp) for i, hyp in enumerate(hyps)]
    for t in types:
        assert_rouge(s.rouge_n[t], rouge_mean(pairs, t), t)


@examples(300)
@given(data=line_corpus(min_lines=1), stem=st.booleans())
def test_rouge_lines(data, stem):
    hyps, refs = data
    assert_parity(hyps, refs, {"rougeL", "rougeLsum"}, stem=stem)


@st.composite
def summary_pair(draw):
    """A multi-line hypothesis summary and reference summary (sentences on lines)."""
    n = draw(st.integers(0, 4))
    sentences = [draw(line_words(7)) for _ in range(n)]
    hyp = [render(draw, draw(edited(s))) for s in sentences if draw(st.integers(0, 5))]
    ref = [render(draw, draw(edited(s))) for s in sentences]
    hyp = draw(st.permutations(hyp)) if draw(st.booleans()) else hyp
    return "\n".join(hyp) + draw(st.sampled_from(["", "\n", "\n\n"])), "\n".join(ref) + draw(st.sampled_from(["", "\n"]))


@examples(300)
@given(pair=summary_pair(), stem=st.booleans())
def test_rouge_documents(pair, stem):
    """A whole file as one summary: its lines are ROUGE-Lsum's sentences."""
    hyp, ref = pair
    s = Corpus(hyp, [ref], config({"rougeL", "rougeLsum"}, segmentation="document", stem=stem)).scores()
    theirs = scorer(("rougeL", "rougeLsum"), stem).score(ref, hyp)
    assert s.segments == (1 if file_lines(hyp) or file_lines(ref) else 0)
    assert_rouge(s.rouge_l, theirs["rougeL"])
    assert_rouge(s.rouge_lsum, theirs["rougeLsum"])


@examples(100)
@given(pair=summary_pair(), options=CHRF_OPTIONS)
def test_chrf_documents(pair, options):
    """A whole file as one segment: line breaks are whitespace to chrF (kept with ``whitespace``)."""
    hyp, ref = pair
    s = Corpus(hyp, [ref], config({"chrf"}, segmentation="document", chrf=options)).scores()
    if s.segments:
        assert_chrf(s.chrf, corpus_chrf([hyp.removesuffix("\n")], [[ref.removesuffix("\n")]], options))


def _paragraphs(text: str) -> list[str]:
    """Blank-line separated paragraphs, written independently of the core."""
    out, current = [], []
    for ln in text.split("\n"):
        if ln.strip():
            current.append(ln)
        elif current:
            out.append("\n".join(current))
            current = []
    if current:
        out.append("\n".join(current))
    return out


@examples(150)
@given(pairs=st.lists(summary_pair(), min_size=1, max_size=4), stem=st.booleans())
def test_paragraphs_all_metrics(pairs, stem):
    """Summaries as paragraphs: each metric equals the peer on the paragraph texts."""
    hyp_text = "\n\n".join(h.strip("\n") for h, _ in pairs)
    ref_text = "\n\n".join(r.strip("\n") for _, r in pairs)
    hyps, refs = _paragraphs(hyp_text), _paragraphs(ref_text)
    n = max(len(hyps), len(refs))
    hyps += [""] * (n - len(hyps))
    refs += [""] * (n - len(refs))
    metrics = {"rougeL", "rougeLsum", "rouge1", "rouge2", "wer", "cer", "chrf"}
    c = Corpus(hyp_text, [ref_text], config(metrics, segmentation="paragraph", stem=stem))
    s = c.scores()
    assert s.segments == n
    pairs_ = rouge_pairs(hyps, [refs], ("rougeL", "rougeLsum", "rouge1", "rouge2"), stem)
    assert_rouge(s.rouge_l, rouge_mean(pairs_, "rougeL"))
    assert_rouge(s.rouge_lsum, rouge_mean(pairs_, "rougeLsum"))
    assert_rouge(s.rouge_n["rouge1"], rouge_mean(pairs_, "rouge1"))
    assert_rouge(s.rouge_n["rouge2"], rouge_mean(pairs_, "rouge2"))
    if n:
        assert_counts(s.wer, contiguous(refs, hyps))
        assert_counts(s.cer, contiguous(refs, hyps, "char"))
        assert_chrf(s.chrf, corpus_chrf(hyps, [refs]))


@examples(300)
@given(data=line_corpus(nrefs=1), transform=st.sampled_from(["default", "lowercase"]))
def test_wer_cer(data, transform):
    hyps, refs = data
    if hyps:
        assert_parity(hyps, refs, {"wer", "cer"}, wer_transform=transform)


@examples(200)
@given(hyp=line(), ref=line(), transform=st.sampled_from(["default", "lowercase"]))
def test_wer_cer_document(hyp, ref, transform):
    """jiwer's contiguous transforms of whole texts' lines, a single newline inside."""
    hyp, ref = hyp.replace("\t", "\n", 1), ref.replace("  ", "\n", 1)
    s = Corpus(hyp, [ref], config({"wer", "cer"}, segmentation="document", wer_transform=transform)).scores()
    lowercase = transform == "lowercase"
    if s.segments:
        assert_counts(s.wer, contiguous(ref, hyp, lowercase=lowercase))
        assert_counts(s.cer, contiguous(ref, hyp, "char", lowercase))


@examples(200)
@given(data=line_corpus(min_lines=1, nrefs=2))
def test_everything_at_once(data):
    hyps, refs = data
    assert_parity(hyps, refs, {"bleu", "rougeL", "rougeLsum", "wer", "cer", "chrf", "rouge1", "rouge2"})


@examples(100)
@given(pair=line_pair())
def test_single_line_without_newline(pair):
    """A file without a final newline still ends with a segment."""
    hyp, (ref,) = pair
    c = Corpus(hyp, [ref], config({"bleu"}))
    if hyp or ref:
        assert c.scores().segments == 1
