"""The n-gram matchers behind chrF, ROUGE-N and BLEU (batched, and chrF's one segment) against
the plain definition: the size of the multiset intersection of two segments' n-grams (Counter's
``&``), for every order asked; the batch of characters chrF's matcher reads, against
``chrf.chars`` one text at a time; and the memory chrF's statistics of a long segment take."""

from __future__ import annotations

import subprocess
import sys
import textwrap
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


# matches()'s ways: one sort for every order (few symbols), pruned order by order (many symbols),
# every n-gram of every order (no room for the pruned keys), a part of the batch at a time (a
# large batch; a long segment alone, as common_counts counts it); each forced by a budget
MATCHERS = {"sorted once": {}, "pruned": {"_FEW_SYMBOLS": 0}, "every n-gram": {"_BITS": 12}, "in parts": {"_PART": 16, "_LONG": 0}}
# common_counts's ways: every order in one sort; one order at a time (a long segment), its
# sorted keys read a few at a time, and re-ranked as soon as they outgrow a small budget
ONE_SEGMENT = {"every order at once": {}, "an order at a time": {"_LONG": 0, "_PART": 4}, "re-ranked": {"_LONG": 0, "_PART": 4, "_BITS": 12}}


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


@pytest.mark.parametrize("budgets", ONE_SEGMENT.values(), ids=ONE_SEGMENT.keys())
@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ALPHABETS).flatmap(lambda a: st.tuples(st.text(alphabet=a, max_size=30), st.text(alphabet=a, max_size=30))), st.integers(1, 9))
def test_one_segments_text_matches_are_the_clipped_counts(budgets, pair, orders):
    """chrF's per-segment matcher; the large alphabet's keys outgrow their bits and are re-ranked."""
    hyp, ref = pair
    with pytest.MonkeyPatch.context() as patch:
        for name, bits in budgets.items():
            patch.setattr(ngram_counts, name, bits)
        found = common_counts(code_points(hyp), code_points(ref), orders)
    assert found == [clipped(hyp, ref, n) for n in range(1, orders + 1)]


@pytest.mark.parametrize("budgets", ONE_SEGMENT.values(), ids=ONE_SEGMENT.keys())
@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=12), st.lists(st.sampled_from([0, 1, 2, (1 << 57) - 1]), max_size=12))
def test_one_segments_number_matches_are_the_clipped_counts(budgets, hyp, ref):
    """Word numbers, one of them as wide as a key may be: numbered densely before packing."""
    with pytest.MonkeyPatch.context() as patch:
        for name, bits in budgets.items():
            patch.setattr(ngram_counts, name, bits)
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


# A pair of lines of 350,000 words (2 MB each, a tenth of the words edited) in a fresh process:
# chrF++'s statistics of it as one segment (chrf.statistics: a corpus of a few lines, an edit) or
# cut into a batch of four (what scoring many lines runs). It prints the characters and how far
# its peak memory rose above what it held before (its own: ru_maxrss would count the memory of
# the process it was forked from). Matching every order's n-grams of the whole line at once
# took 200 (one segment) and 50-80 (a batch) bytes a character of the pair.
LONG_LINE = """
    import sys
    from texts import edited_line
    from scorelens.core import chrf
    from scorelens.core.ngram_counts import Side

    def status(field):
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith(field + ":"))

    config = chrf.ChrfConfig(word_order=2)
    hyp, ref = edited_line(350_000, 7)
    numbers = {}
    hyp_words, ref_words = ([numbers.setdefault(w, len(numbers)) for w in chrf.words(text)] for text in (hyp, ref))
    quarters = lambda whole: [whole[k * len(whole) // 4 : (k + 1) * len(whole) // 4] for k in range(4)]
    one = sys.argv[1] == "one segment"
    chars = (chrf.chars(hyp), chrf.chars(ref)) if one else (quarters(hyp), quarters(ref))
    words = None if one else [Side.of_numbers(quarters(w)) for w in (hyp_words, ref_words)]
    held = status("VmRSS")
    if one:
        chrf.statistics(chars[0], hyp_words, [(chars[1], ref_words)], config)
    else:
        chrf.statistics_of_sides([chrf.char_side(texts, config) for texts in chars], words, config)
    print(len(hyp) + len(ref), status("VmHWM") - held)
"""
# what the statistics may add, a character of the pair (they take 8-12)
LONG_LINE_BYTES = 25


@pytest.mark.parametrize("way", ["one segment", "a batch"])
def test_a_long_lines_chrf_statistics_take_a_few_bytes_a_character(way):
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(LONG_LINE), way], capture_output=True, text=True, timeout=120, cwd=__file__.rsplit("/", 1)[0]
    )
    assert done.returncode == 0, done.stderr
    characters, grown = map(int, done.stdout.split())
    assert grown <= LONG_LINE_BYTES * characters, f"{grown / characters:.0f} bytes a character"
