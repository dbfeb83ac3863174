"""Hypothesis strategies: lines that exercise every tokenizer's corners, in related pairs.

Hypothesis and reference lines are drawn from one small vocabulary and derived from each
other by word edits, so n-grams, LCS and alignments actually match; the vocabulary carries
the traps (entities, ``<skipped>``, numbers with ``.`` ``,`` ``-``, CJK, emoji, combining marks,
case changes that change length, non-ASCII spaces, tabs, runs of whitespace).

Long related texts, of sizes hypothesis does not draw, come from plain random generators at the
end (:func:`randomly_edited`, :func:`edited_line`; bench/long_documents.py uses them too).

``SCORELENS_FUZZ=N`` multiplies every example count by N and draws fresh random examples
(the default is a fixed, derandomized set, so a CI run is reproducible).
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

FUZZ = int(os.environ.get("SCORELENS_FUZZ", "0") or 0)


def examples(n: int) -> settings:
    return settings(
        max_examples=n * max(FUZZ, 1),
        deadline=None,
        database=None,
        derandomize=not FUZZ,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


WORDS = [
    # plain words, shared so that n-grams match
    "the", "cat", "sat", "on", "mat", "a", "dog", "The", "CAT", "ran", "away", "and", "then",
    # apostrophes, hyphens, punctuation glued and alone
    "don't", "it's", "well-known", "state-of-the-art", ",", ".", "!", "?", ";", ":", "...", "..", ".,",
    "(x)", "[y]", "{z}", '"quoted"', "'single'", "$5", "5%", "@home", "#tag", "a/b", "x+y", "`tick`", "~", "|", "^_^",
    # numbers with separators
    "3.5", "1,000", "2-3", "-5", "10.", ".5", "1.", "5-", "3,", "1.2.3", "4,5,6", "٣", "١٢٣",
    # entities and sacreBLEU's <skipped>
    "&quot;", "&amp;", "&lt;", "&gt;", "&quot;hi&quot;", "&amp;amp;", "<skipped>", "a<skipped>b", "&", "&#39;",
    # Latin with diacritics, case changes that change length, Greek final sigma, Turkish i
    "Café", "naïve", "straße", "STRASSE", "İstanbul", "ıi", "ΟΔΟΣ", "σοφός", "\u212a", "ﬁne", "e\u0301", "n\u0303o",
    # CJK, kana, Hangul, full-width punctuation, CJK symbols
    "漢字", "日本語", "東京", "かな", "カタカナ", "ｶﾀｶﾅ", "한국어", "。", "、", "！", "「引用」", "１２３", "☺", "♫", "㍻",
    # emoji: plain, with modifiers, ZWJ sequence, flag
    "😀", "👍🏽", "👩\u200d👩\u200d👧", "🇯🇵",
    # right-to-left
    "שלום", "مرحبا",
]
SEPARATORS = [" "] * 12 + ["  ", "\t", " \t ", "\xa0", "\u3000", "\x0c", "\x85", "\u2028", "\x0b", ""]

word = st.sampled_from(WORDS)


@st.composite
def line_words(draw, max_words: int = 9) -> list[str]:
    return draw(st.lists(word, max_size=max_words))


def render(draw, words: list[str]) -> str:
    """Words joined by mostly single spaces, sometimes with odd whitespace around."""
    out = draw(st.sampled_from(["", "", "", " ", "\t", "  "]))
    for i, w in enumerate(words):
        if i:
            out += draw(st.sampled_from(SEPARATORS))
        out += w
    return out + draw(st.sampled_from(["", "", "", " ", "\t", "  "]))


@st.composite
def edited(draw, words: list[str]) -> list[str]:
    """The words after a few substitutions, insertions and deletions."""
    words = list(words)
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["sub", "ins", "del"]))
        if kind == "ins" or not words:
            words.insert(draw(st.integers(0, len(words))), draw(word))
        elif kind == "sub":
            words[draw(st.integers(0, len(words) - 1))] = draw(word)
        else:
            del words[draw(st.integers(0, len(words) - 1))]
    return words


@st.composite
def line(draw) -> str:
    """One line without line breaks: mostly vocabulary words, sometimes arbitrary text."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\r\n"), max_size=30))
    return render(draw, draw(line_words()))


@st.composite
def line_pair(draw, nrefs: int = 1) -> tuple[str, list[str]]:
    """A hypothesis line and ``nrefs`` reference lines derived from the same words."""
    base = draw(line_words())
    hyp = render(draw, draw(edited(base)))
    refs = [render(draw, draw(edited(base))) for _ in range(nrefs)]
    if draw(st.integers(0, 14)) == 0:
        hyp = draw(line())
    return hyp, refs


@st.composite
def line_corpus(draw, min_lines: int = 0, max_lines: int = 6, nrefs: int | None = None):
    """(hypothesis lines, reference streams) of equal length."""
    k = nrefs if nrefs is not None else draw(st.integers(1, 3))
    pairs = draw(st.lists(line_pair(k), min_size=min_lines, max_size=max_lines))
    return [h for h, _ in pairs], [[refs[j] for _, refs in pairs] for j in range(k)]


# -- long related texts --------------------------------------------------------------------------


def randomly_edited(rng: random.Random, words: Sequence[str], rate: float, vocabulary: Sequence[str]) -> list[str]:
    """``words`` with about ``rate`` of them edited, in equal parts substituted, dropped, and
    followed by an inserted word (new words drawn from ``vocabulary``)."""
    out: list[str] = []
    for w in words:
        x = rng.random() / rate
        if x < 1 / 3:
            out.append(rng.choice(vocabulary))
        elif x < 2 / 3:
            continue
        elif x < 1:
            out += [w, rng.choice(vocabulary)]
        else:
            out.append(w)
    return out


def edited_line(words: int, seed: int) -> tuple[str, str]:
    """(hypothesis, reference): a line of ``words`` words drawn from 5,000 and the same line with
    a tenth of its words edited."""
    rng = random.Random(seed)
    vocabulary = [f"w{k}" for k in range(5000)]
    ref = [rng.choice(vocabulary) for _ in range(words)]
    return " ".join(randomly_edited(rng, ref, 0.1, vocabulary)), " ".join(ref)
