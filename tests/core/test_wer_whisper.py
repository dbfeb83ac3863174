"""core/wer_whisper's normalisers give what whisper-normalizer's ``EnglishTextNormalizer`` and
``BasicTextNormalizer`` give, for random texts made to hit every step and for every line of
the real corpora."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scorelens.core import wer_whisper
from whisper_normalizer.basic import BasicTextNormalizer, remove_symbols, remove_symbols_and_diacritics
from whisper_normalizer.english import EnglishNumberNormalizer, EnglishSpellingNormalizer, EnglishTextNormalizer

PACKAGE = {"english": EnglishTextNormalizer(), "basic": BasicTextNormalizer()}
FAST = {"english": wer_whisper.english(), "basic": wer_whisper.basic()}

PIECES = [
    # numbers as the parser reads them, and their neighbours
    *"zero o oh one ones two five six sixes eleven twelve twenty twenties twentieth thirty ninety hundred".split(),
    *"hundreds hundredth thousand million millions billion first second third fifth twelfth eighth".split(),
    *"minus negative plus positive pound pounds euro euros dollar dollars cent cents per percent".split(),
    *"and and a half double triple point a".split(),
    *"١,٢ ٣,5 ٣.٤ ³ 0 1 1s 2 7 10 21st 32nd 3rd 4th 1960s 3.5 0.5 1.2 2,345 1,000,000 $20 $0.50 $1 £10.50 €5 ¢99 5% 3.5%".split(),
    *"-3 +4 1. 1..2 .5 $ £ € ¢ % $0.5 $1.05 ¢5 a1 1a x2y".split(),
    # contractions, titles, fillers, brackets
    *"won't can't let's ain't y'all wanna gonna i'ma imma ma'am cause 's 'd 'll n't 're 've 'm 't".split(),
    *"it's we'd she'll they're i've i'm don't 'd been 's been 's got 'd done 'd gone mr mr. mrs st st. dr jr".split(),
    *"uh um hmm mm mhm mmm umm [laughter] (inaudible) <unk> [ ] ( ) < >".split(),
    # unicode: diacritics, digits of other scripts, compatibility forms, spaces, marks
    *"café naïve ß Straße æ ø ł þ İ ΣΑΣ ١٢٣ ٣ ² ½ ① １２ ｆｕｌｌ ﬁ — – … “ ” ’ ‘ ™ № ㍱ Ⅻ 🙂".split(),
    "e\u0301",
    "\u0301",
    "\u200b",
    "\u00a0",
    "\u2003",
    "\x1c",
    *", . ! ? ; : ' \" / - & * # @ _".split(),
]
SEPARATORS = [" ", " ", " ", "", "  ", "\t", "\n", "\u00a0", "-", ",", ".", "'", " '", "$", "%"]
SPELLINGS = EnglishSpellingNormalizer().mapping
WORDS = sorted(EnglishNumberNormalizer().words) + sorted(SPELLINGS)[::7] + [k for k, v in SPELLINGS.items() if " " in v]

piece = st.one_of(
    st.sampled_from(PIECES),
    st.sampled_from(PIECES).map(str.upper),
    st.sampled_from(WORDS),
    st.text(max_size=3),
)
texts = st.lists(st.tuples(piece, st.sampled_from(SEPARATORS)), max_size=24).map(lambda ts: "".join(a + b for a, b in ts))
# a few words the number parser reads, numbers and others side by side
NUMBERS = sorted(EnglishNumberNormalizer().words) + "1 20 3.5 $5 £1 ¢9 5% ٣ x".split()
SPECIALS = "and point double triple minus plus per cent percent dollars x".split()
number_texts = st.lists(st.one_of(st.sampled_from(NUMBERS), st.sampled_from(SPECIALS)), max_size=6).map(" ".join)


@settings(max_examples=3000, deadline=None)
@given(st.one_of(texts, number_texts), st.sampled_from(["english", "basic"]))
@example("point and", "english")
@example("minus and hello", "english")
@example("per cent double one triple oh", "english")
@example("one hundred and five and a half", "english")
@example("it 's, mr.st won't've ..x a.$b 5 % £1 and ¢50 $0.5 1s", "english")
@example("I'd been there; she's got it and we'd done that", "english")
@example("[a (b] c) <d> (e)", "basic")
def test_random_texts(text, name):
    assert FAST[name](text) == PACKAGE[name](text)


@pytest.mark.parametrize("name", ["english", "basic"])
def test_single_characters(name):
    """The symbol filters' tables against the package's rule, for every character. That covers
    every text: a character of an NFKD (NFKC) text is its own NFKD (NFKC) form, one of these."""
    fast = FAST[name]
    if name == "english":
        rule = lambda c: remove_symbols_and_diacritics(c, keep=".%$¢€£")  # noqa: E731
        form = "NFKD"
    else:
        rule, form = remove_symbols, "NFKC"
    wrong = [hex(i) for i in range(sys.maxunicode + 1) if unicodedata.normalize(form, chr(i)).translate(fast.symbols) != rule(chr(i))]
    assert wrong == []


CORPORA = [
    ("compare-mt", "*.eng"),
    ("compare-mt", "*.jpn"),
    ("cnndm", "*.txt"),
    ("earnings21", "*/*.txt"),
    ("en-ja-kyoto", "kyoto-test.*"),
    ("sctk-sclite", "inputs/*"),
]


@pytest.mark.shared
@pytest.mark.parametrize("name", ["english", "basic"])
@pytest.mark.parametrize("folder, pattern", CORPORA)
def test_corpora(shared, name, folder, pattern):
    """Every line of every corpus, and every earnings call whole."""
    paths = sorted(shared(folder).glob(pattern))
    assert paths
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        lines = text.split("\n") + ([text] if folder == "earnings21" else [])
        wrong = [line for line in lines if FAST[name](line) != PACKAGE[name](line)]
        assert wrong == [], path
