"""Tokens know where they came from: spans map back to the text, and findings agree with the peers."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from peers import config, process_words, rouge_pairs, sentence_bleu
from rouge_score import tokenize as rouge_tokenize
from texts import examples, line, line_corpus

from scorelens.core import Corpus
from scorelens.core import findings as codes
from scorelens.core.tokenizers import JiwerWords, RougeScoreTokenizer, UnicodeRougeTokenizer, bleu_tokenizer


def _ordered(text, spans):
    last = 0
    for a, b in spans:
        assert last <= a <= b <= len(text), (text, spans)
        last = b


@pytest.mark.parametrize("name", ["13a", "intl", "zh", "char", "none"])
@examples(300)
@given(text=line())
def test_bleu_spans_are_the_tokens(name, text):
    """These tokenizers only insert or remove separators: each span's text is its token."""
    if name == "13a":
        assume("&" not in text and "<skipped>" not in text)
    tokenizer = bleu_tokenizer(name)
    tokens = tokenizer.tokens(text)
    spans = tokenizer.spans(text, tokens)
    assert len(spans) == len(tokens)
    _ordered(text, spans)
    assert [text[a:b] for a, b in spans] == list(tokens)


@pytest.mark.parametrize("name", ["13a", "ja-mecab"])
@examples(200)
@given(text=line())
def test_bleu_spans_when_the_tokenizer_rewrites(name, text):
    """Entities, <skipped> and MeCab's rewriting: spans stay ordered and inside the text."""
    tokenizer = bleu_tokenizer(name)
    tokens = tokenizer.tokens(text)
    spans = tokenizer.spans(text, tokens)
    assert len(spans) == len(tokens)
    _ordered(text, spans)


def test_13a_entity_spans_cover_the_entity():
    tokenizer = bleu_tokenizer("13a")
    text = "say &quot;hi&quot; now"
    tokens = tokenizer.tokens(text)
    assert tokens == ["say", '"', "hi", '"', "now"]
    assert [text[a:b] for a, b in tokenizer.spans(text, tokens)] == ["say", "&quot;", "hi", "&quot;", "now"]


@pytest.mark.parametrize("stem", [False, True])
@examples(300)
@given(text=line())
def test_rouge_score_spans(stem, text):
    """Each span, tokenized alone, gives its token; the tokens are rouge-score's own."""
    tokenizer = RougeScoreTokenizer(stem)
    tokens = tokenizer.tokens(text)
    assert tokens == rouge_tokenize.tokenize(text, _stemmer() if stem else None)
    spans = tokenizer.spans(text, tokens)
    assert len(spans) == len(tokens)
    _ordered(text, spans)
    assert [tokenizer.tokens(text[a:b]) for a, b in spans] == [[t] for t in tokens]


def _stemmer():
    from nltk.stem import porter

    return porter.PorterStemmer()


@examples(300)
@given(text=line())
def test_unicode_rouge_spans(text):
    tokenizer = UnicodeRougeTokenizer()
    tokens = tokenizer.tokens(text)
    spans = tokenizer.spans(text, tokens)
    assert len(spans) == len(tokens)
    _ordered(text, spans)
    assert [tokenizer.tokens(text[a:b]) for a, b in spans] == [[t] for t in tokens]


def test_unicode_rouge_keeps_what_rouge_score_drops():
    assert RougeScoreTokenizer().tokens("東京 café") == ["caf"]
    assert UnicodeRougeTokenizer().tokens("東京 Café") == ["東", "京", "café"]
    assert RougeScoreTokenizer.dropped("東京") and not RougeScoreTokenizer.dropped("plain text")


@pytest.mark.parametrize("lowercase", [False, True])
@examples(300)
@given(text=line())
def test_jiwer_word_spans(lowercase, text):
    words = JiwerWords(lowercase)
    tokens = words.tokens(text)
    assert tokens == process_words(text, text, lowercase).references[0]
    spans = words.spans(text, tokens)
    _ordered(text, spans)
    want = [t for t in tokens]
    got = [text[a:b].lower() if lowercase else text[a:b] for a, b in spans]
    assert got == want


# -- findings against the peers ----------------------------------------------------------------


def _inside(spans, a, b):
    return sum(1 for s, e in spans if a <= s and e <= b and s < e)


@examples(200)
@given(data=line_corpus(min_lines=1, max_lines=3), lowercase=st.booleans())
def test_findings_agree_with_the_peers(data, lowercase):
    hyps, refs = data
    metrics = {"bleu", "rougeL", "wer"}
    c = Corpus("".join(h + "\n" for h in hyps), ["".join(r + "\n" for r in ref) for ref in refs], config(metrics, lowercase=lowercase))
    tok = bleu_tokenizer("13a")
    rouge = RougeScoreTokenizer()
    for i, hyp in enumerate(hyps):
        found = c.findings(i)
        for f in found:
            assert c.text(f.side, i)[f.start : f.end] == f.text
            if f.other_side is not None:
                assert c.text(f.other_side, i)[f.other_start : f.other_end] == f.other_text
        # BLEU: the unmatched spans hold exactly the unigrams sacreBLEU did not match
        theirs = sentence_bleu(hyp, [r[i] for r in refs], lowercase=lowercase)
        text = hyp.lower() if lowercase else hyp
        if len(text) == len(hyp):  # else findings map offsets back through the lowering
            spans = tok.spans(text, tok.tokens(text))
            unmatched = sum(_inside(spans, f.start, f.end) for f in found if f.code == codes.UNMATCHED)
            assert unmatched == theirs.sys_len - theirs.counts[0]
        # WER: one finding per jiwer chunk that is not "equal", with that chunk's words
        ref = refs[0][i]
        out = process_words(ref, hyp)
        chunks = [ch for ch in out.alignments[0] if ch.type != "equal"]
        wer_found = [f for f in found if f.code.startswith("wer.")]
        assert len(wer_found) == len(chunks)
        for f, ch in zip(wer_found, chunks):
            if ch.type == "delete":
                assert f.code == codes.DELETION and _words(f.text) == out.references[0][ch.ref_start_idx : ch.ref_end_idx]
            elif ch.type == "insert":
                assert f.code == codes.INSERTION and _words(f.text) == out.hypotheses[0][ch.hyp_start_idx : ch.hyp_end_idx]
            else:
                assert f.code == codes.SUBSTITUTION
                assert _words(f.text) == out.hypotheses[0][ch.hyp_start_idx : ch.hyp_end_idx]
                assert _words(f.other_text) == out.references[0][ch.ref_start_idx : ch.ref_end_idx]
        # ROUGE-L: tokens outside the LCS, on the hypothesis and on the reference kept by score_multi
        score = rouge_pairs([hyp], [[r[i]] for r in refs], ("rougeL",))[0]["rougeL"]
        hyp_tokens = rouge.tokens(hyp)
        lcs = round(score.precision * len(hyp_tokens))
        st = c.statistics(i)
        outside_hyp = sum(_inside(rouge.spans(hyp, hyp_tokens), f.start, f.end) for f in found if f.code == codes.OUTSIDE_LCS and f.side == 0)
        assert outside_hyp == len(hyp_tokens) - lcs
        ref_text = refs[st.rouge_ref][i]
        ref_tokens = rouge.tokens(ref_text)
        outside_ref = sum(
            _inside(rouge.spans(ref_text, ref_tokens), f.start, f.end) for f in found if f.code == codes.OUTSIDE_LCS and f.side == st.rouge_ref + 1
        )
        assert outside_ref == len(ref_tokens) - lcs
        assert st.differs == bool(found)


def _words(text):
    return JiwerWords().tokens(text)
