"""The n-gram matchers behind chrF, ROUGE-N and BLEU (batched, and chrF's one segment) against
the plain definition: the size of the multiset intersection of two segments' n-grams (Counter's
``&``), for every order asked; and the batch of characters chrF's matcher reads, against
``chrf.chars`` one text at a time."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scorelens.core import ngram_counts
from scorelens.core.ngram_counts import Side, code_points, common_counts, matches

# small alphabets make repeats (the clipping), a large one forces keys to be re-ranked
ALPHABETS = ["ab", "ab c", "日本語の文字", "".join(map(chr, range(0x4E00, 0x4E00 + 5000))) + "😀"]


def clipped(hyp, ref, n: int) -> int:
    grams = [Counter(tuple(side[i : i + n]) for i in range(len(side) - n + 1)) for side in (hyp, ref)]
    return sum((grams[0] & grams[1]).values())


@st.composite
def batches(draw):
    alphabet = draw(st.sampled_from(ALPHABETS))
    text = st.text(alphabet=alphabet, max_size=14)
    segments = draw(st.integers(0, 8))
    hyps = draw(st.lists(text, min_size=segments, max_size=segments))
    refs = draw(st.lists(st.lists(text, min_size=segments, max_size=segments), min_size=1, max_size=3))
    orders = draw(st.lists(st.integers(1, 9), min_size=1, max_size=5, unique=True))
    return hyps, refs, sorted(orders)


# matches()'s three ways: one sort for every order (few symbols), pruned order by order (many
# symbols), every n-gram of every order (no room for the pruned keys); each forced by a budget
MATCHERS = {"sorted once": {}, "pruned": {"_FEW_SYMBOLS": 0}, "every n-gram": {"_BITS": 12}}


@pytest.mark.parametrize("budgets", MATCHERS.values(), ids=MATCHERS.keys())
@settings(max_examples=200, deadline=None)
@given(batch=batches())
def test_text_matches_are_the_clipped_counts(budgets, batch):
    hyps, refs, orders = batch
    if not hyps:
        return
    with pytest.MonkeyPatch.context() as patch:
        for name, bits in budgets.items():
            patch.setattr(ngram_counts, name, bits)
        found = matches([Side.of_texts(hyps), *(Side.of_texts(r) for r in refs)], orders)
    for n in orders:
        for k, ref in enumerate(refs):
            assert found[n][k].tolist() == [clipped(h, r, n) for h, r in zip(hyps, ref)], (n, k)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 3), max_size=12), st.lists(st.sampled_from([0, 1, 2, 1 << 40]), max_size=12)), min_size=1, max_size=6))
def test_number_matches_are_the_clipped_counts(pairs):
    """Token numbers, one of them too large for the lookup table (the sorting path)."""
    hyps, refs = [p[0] for p in pairs], [p[1] for p in pairs]
    found = matches([Side.of_numbers(hyps), Side.of_numbers(refs)], [1, 2, 3])
    for n in (1, 2, 3):
        assert found[n][0].tolist() == [clipped(h, r, n) for h, r in zip(hyps, refs)]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ALPHABETS).flatmap(lambda a: st.tuples(st.text(alphabet=a, max_size=30), st.text(alphabet=a, max_size=30))), st.integers(1, 9))
def test_one_segments_text_matches_are_the_clipped_counts(pair, orders):
    """chrF's per-segment matcher; the large alphabet's keys outgrow 58 bits and are re-ranked."""
    hyp, ref = pair
    assert common_counts(code_points(hyp), code_points(ref), orders) == [clipped(hyp, ref, n) for n in range(1, orders + 1)]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=12), st.lists(st.sampled_from([0, 1, 2, (1 << 57) - 1]), max_size=12))
def test_one_segments_number_matches_are_the_clipped_counts(hyp, ref):
    """Word numbers, one of them as wide as a key may be: numbered densely before packing."""
    found = common_counts(np.array(hyp, np.int64), np.array(ref, np.int64), 4)
    assert found == [clipped(hyp, ref, n) for n in range(1, 5)]


@settings(max_examples=300, deadline=None)
@given(batches())
def test_bleu_matches_are_clipped_by_the_largest_reference_count(batch):
    """BLEU's clipping: each hypothesis n-gram matched at most as often as the one reference that
    has it most often has it (Counter's ``|`` of the references)."""
    hyps, refs, orders = batch
    if not hyps:
        return
    found = ngram_counts.clipped([Side.of_texts(hyps), *(Side.of_texts(r) for r in refs)], orders)
    for n in orders:
        expected = []
        for i, h in enumerate(hyps):
            grams = [Counter(tuple(side[j : j + n]) for j in range(len(side) - n + 1)) for side in (h, *(r[i] for r in refs))]
            ceiling = Counter()
            for ref in grams[1:]:
                ceiling |= ref
            expected.append(sum((grams[0] & ceiling).values()))
        assert found[n].tolist() == expected, n


# chrF's characters of a batch: every kind of whitespace, NULs, final sigma at a text's end,
# lowercasing that lengthens (İ), astral characters, a lone surrogate
CHAR_TEXT = st.text(alphabet=st.sampled_from(["a", "Σ", "σ", "Α", "İ", "ß", "😀", "\x00", " ", "\t", "\n", "\x1c", "\x85", "\xa0", "\u2003", "\u3000", "\u200b", "\ud800"]), max_size=12)


@given(st.lists(CHAR_TEXT, max_size=6), st.booleans(), st.booleans())
@example(["ΑΣ", "a"], True, False)  # ς, as at the end of the text, not σ as before the next one
@example(["a\x00b", " c"], False, False)
@settings(max_examples=400, deadline=None, derandomize=True, database=None)
def test_char_side_is_each_texts_characters(texts, lowercase, whitespace):
    from scorelens.core.chrf import ChrfConfig, char_side, chars

    config = ChrfConfig(lowercase=lowercase, whitespace=whitespace)
    side = char_side(texts, config)
    expected = [chars(text.lower() if lowercase else text, whitespace) for text in texts]
    assert side.lengths.tolist() == list(map(len, expected))
    assert side.symbols.tolist() == [ord(c) for c in "".join(expected)]


def test_char_sides_whitespace_table_holds_every_whitespace_character():
    from scorelens.core.chrf import _WHITESPACE_BELOW

    assert not [c for c in range(_WHITESPACE_BELOW, 0x110000) if chr(c).isspace()]
