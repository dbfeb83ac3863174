"""Tokenizers that rewrite a text with regular expressions give sacreBLEU's own tokenizers'
tokens, on random texts dense in what their rules act on (CJK, punctuation, digits, symbols)."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh
from texts import examples, line

from scorelens.core.ter import TerConfig
from scorelens.core.tokenizers import bleu_tokenizer

# runs of what the rules split off, glue or leave: ideographs in and out of zh's ranges, kana,
# full-width forms, ASCII punctuation, digits with separators, symbols, whitespace
PIECES = st.sampled_from(
    ["漢", "字", "東京", "𠀋", "か", "カナ", "ｶ", "。", "、", "！", "（", "１", "☺", "㍻", "⺀", "\u2001",
     ".", ",", "-", "'s", "$", "&", "@", "/", "(", ")", "0", "12", "3.5", "1,0", "a", "Ab", "&amp;", " ", " ", "\t", "\u3000"]
)
TEXTS = st.lists(PIECES, max_size=24).map("".join) | line()


@pytest.mark.parametrize("name, peer", [("zh", TokenizerZh()), ("intl", TokenizerV14International()), ("13a", Tokenizer13a())])
@examples(400)
@given(text=TEXTS)
@example(text="漢字。東京、１２ ok.  a,b 3.5-4 &")
@example(text=".5 a, (b) 5.")  # punctuation where a line has no whitespace: its first and last words
@example(text=" .5 a!! ..b $5~ 5. ")
@example(text="\u3000,,x")
def test_bleu_tokens(name, peer, text):
    """sacreBLEU's BLEU tokenizes ``line.rstrip()``; its tokens are the result's words (intl's
    taken word by word, the first and last words in their places)."""
    assert bleu_tokenizer(name).tokens(text) == peer(text.rstrip()).split()


@examples(400)
@given(text=TEXTS, lowercase=st.booleans(), asian=st.booleans(), no_punct=st.booleans())
@example(text="漢字。東京、１２ ok's.  a,b 3.5-4 かな", lowercase=False, asian=True, no_punct=False)
def test_ter_normalized_tokens(text, lowercase, asian, no_punct):
    peer = TercomTokenizer(normalized=True, no_punct=no_punct, asian_support=asian, case_sensitive=not lowercase)
    ours = TerConfig(normalized=True, no_punct=no_punct, asian_support=asian, case_sensitive=not lowercase)
    assert ours.tokens(text) == peer(text.rstrip()).split()
