"""TER parity with sacreBLEU 2.6.0's ``TER`` (statistics per segment, corpus and sentence scores)."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st
from peers import TOL
from sacrebleu.metrics import TER
from sacrebleu.metrics.lib_ter import BeamEditDistance
from texts import edited_line, examples, line_pair, render, word

from scorelens.core import ter

FLAGS = ("normalized", "no_punct", "asian_support", "case_sensitive")
ALL_FLAGS = [dict(zip(FLAGS, values)) for values in itertools.product([False, True], repeat=4)]


def _flag_id(flags: dict) -> str:
    return "+".join(k for k, v in flags.items() if v) or "default"


def _lines(path) -> list[str]:
    with open(path, encoding="utf-8", newline="\n") as f:
        return f.read().split("\n")[:-1]


def assert_ter_parity(hyps: list[str], refs: list[list[str]], flags: dict) -> None:
    """Every segment's (num_edits, ref_length) and the corpus score equal sacreBLEU's."""
    theirs = TER(**flags)
    their_stats = theirs._extract_corpus_statistics(hyps, refs)
    config = ter.TerConfig(**flags)
    ours = [ter.statistics(h, [stream[i] for stream in refs], config) for i, h in enumerate(hyps)]
    for i, (a, b) in enumerate(zip(ours, their_stats)):
        assert (a[0], a[1] / len(refs)) == (b[0], b[1]), (i, hyps[i], [r[i] for r in refs])
    total = ter.score([sum(s[0] for s in ours), sum(s[1] for s in ours)], len(refs))
    expected = theirs.corpus_score(hyps, refs)
    assert abs(total.score - expected.score) <= TOL
    assert total.num_edits == expected.num_edits
    assert abs(total.ref_length - expected.ref_length) <= TOL


# -- real corpora ----------------------------------------------------------------------------


def test_ted_full_file(shared):
    hyps = _lines(shared("compare-mt", "ted.sys2.detok.eng"))
    assert_ter_parity(hyps, [_lines(shared("compare-mt", "ted.ref.detok.eng"))], {})


@pytest.mark.parametrize("flags", ALL_FLAGS, ids=_flag_id)
def test_ted_every_flag(shared, flags):
    hyps = _lines(shared("compare-mt", "ted.sys1.detok.eng"))[:80]
    refs = [_lines(shared("compare-mt", "ted.ref.detok.eng"))[:80], _lines(shared("compare-mt", "ted.sys2.detok.eng"))[:80]]
    assert_ter_parity(hyps, refs, flags)


@pytest.mark.parametrize("flags", [{}, {"normalized": True, "asian_support": True}, {"no_punct": True, "asian_support": True}], ids=_flag_id)
def test_japanese(shared, flags):
    hyps = _lines(shared("compare-mt", "multited.sys1.jpn"))[:40]
    assert_ter_parity(hyps, [_lines(shared("compare-mt", "multited.ref.jpn"))[:40]], flags)


def test_long_summaries(shared):
    """Summaries of 50-100 words: the beam leaves cells out, so candidates are scored by rows."""
    hyps = _lines(shared("cnndm", "cnndm.simcls.txt"))[:8]
    assert_ter_parity(hyps, [_lines(shared("cnndm", "cnndm.ref.txt"))[:8]], {"normalized": True})


def test_published_tercom_values(shared):
    published = json.loads(shared("golden", "sacrebleu_test_sh_wmt17_expected.json").read_text())["scores"]["TER"]
    assert published  # the values exist; their system outputs are not here
    shared("sacrebleu-wmt17-en-de")  # skips, naming the missing directory


# -- generated texts -------------------------------------------------------------------------


@st.composite
def moved(draw, words: list[str]) -> list[str]:
    """The words with a few phrases moved elsewhere: what TER's shifts are for."""
    words = list(words)
    for _ in range(draw(st.integers(0, 3))):
        if len(words) < 2:
            break
        start = draw(st.integers(0, len(words) - 1))
        length = draw(st.integers(1, min(4, len(words) - start)))
        phrase = words[start : start + length]
        del words[start : start + length]
        at = draw(st.integers(0, len(words)))
        words[at:at] = phrase
    return words


@st.composite
def shifted_corpus(draw, max_lines: int = 4, max_words: int = 14):
    nrefs = draw(st.integers(1, 4))
    hyps, refs = [], [[] for _ in range(nrefs)]
    for _ in range(draw(st.integers(1, max_lines))):
        if draw(st.integers(0, 5)) == 0:
            hyp, ref_lines = draw(line_pair(nrefs))
        else:
            base = draw(st.lists(word, max_size=max_words))
            hyp = render(draw, draw(moved(base)))
            ref_lines = [render(draw, draw(moved(base))) if k else render(draw, base) for k in range(nrefs)]
        hyps.append(hyp)
        for stream, r in zip(refs, ref_lines):
            stream.append(r)
    return hyps, refs


@examples(200)
@given(data=shifted_corpus(), flags=st.sampled_from(ALL_FLAGS))
def test_generated(data, flags):
    hyps, refs = data
    assert_ter_parity(hyps, refs, flags)


@examples(40)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(26, 90), vocabulary=st.integers(3, 30))
def test_generated_long(seed, n, vocabulary):
    """Long lines from a small vocabulary: many candidates, the beam and the candidate budget."""
    rng = random.Random(seed)
    base = [f"w{rng.randrange(vocabulary)}" for _ in range(n)]
    hyp = list(base)
    for _ in range(rng.randrange(6)):
        start = rng.randrange(len(hyp))
        phrase = hyp[start : start + rng.randint(1, 6)]
        del hyp[start : start + len(phrase)]
        at = rng.randrange(len(hyp) + 1)
        hyp[at:at] = phrase
    for _ in range(rng.randrange(n // 2)):
        del hyp[rng.randrange(len(hyp))]
    assert_ter_parity([" ".join(hyp)], [[" ".join(base)]], {})


def test_sentence_score():
    hyp, refs = "the cat sat on the mat today", ["today the cat sat on the mat", "a cat sat on a mat"]
    theirs = TER().sentence_score(hyp, refs)
    ours = ter.score(ter.statistics(hyp, refs, ter.TerConfig()), 2)
    assert (ours.score, ours.num_edits, ours.ref_length) == (theirs.score, theirs.num_edits, theirs.ref_length)


def test_empty_reference_and_hypothesis():
    config = ter.TerConfig()
    assert ter.statistics("a b c", [""], config) == (3, 0, 0)
    assert ter.score((3, 0), 1).score == 100.0
    assert ter.score((0, 0), 1).score == 0.0
    assert ter.statistics("", ["a b", "a b c"], config) == (2, 5, 0)
    assert ter.score((2, 5), 2) == (80.0, 2, 2.5)


# -- pieces ----------------------------------------------------------------------------------


@examples(60)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 80), m=st.integers(1, 80))
def test_beam_rows_join_as_full_computation(seed, n, m):
    """A candidate scored from the rows its shift changed equals the whole beam computation."""
    rng = random.Random(seed)
    hyp = [rng.randrange(6) for _ in range(n)]
    ref = [rng.randrange(6) for _ in range(m)]
    beam = ter._Beam(ref, n)
    beam.floor = beam.floor_bound = 0  # never take rapidfuzz's answer
    forward = beam.forward(hyp)
    backward = beam.backward(hyp)
    for _ in range(20):
        start = rng.randrange(n)
        length = rng.randint(1, n - start)
        target = rng.randrange(n + 1)
        shifted = ter._perform_shift(hyp, start, length, target)
        if len(shifted) != n:  # a target sacreBLEU never makes (past the end once the phrase is out)
            continue
        changed = ter._changed(start, length, target, n)
        assert hyp[: changed[0]] == shifted[: changed[0]] and hyp[changed[1] :] == shifted[changed[1] :]
        if shifted != hyp:
            assert beam.distance(shifted, changed, lambda: forward, lambda: backward) == beam._beam_trace(shifted)[0]


@examples(200)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 70), m=st.integers(1, 70), vocabulary=st.integers(1, 8))
def test_bit_trace_is_the_beam_trace_where_the_beam_cannot_matter(seed, n, m, vocabulary):
    """Read back from the bit vectors, the trace is sacreBLEU's (ties and all) wherever
    :meth:`_Beam.trace` takes it; few distinct words make many ties."""
    rng = random.Random(seed)
    hyp = [rng.randrange(vocabulary) for _ in range(n)]
    ref = [rng.randrange(vocabulary) for _ in range(m)]
    beam = ter._Beam(ref, n)
    expected = beam._beam_trace(hyp)
    if expected[0] < beam.floor:
        assert beam._bit_trace(hyp) == expected


@examples(40)
@given(seed=st.integers(0, 2**32 - 1), drift=st.floats(0, 0.4))
def test_beam_trace_is_sacrebleus(seed, drift):
    """The beam's rows, kept as their beam only, give sacreBLEU's distance and trace, also where
    the alignment wanders out of the beam (words dropped from one side: ``drift``) and where
    the lengths differ several times over (a wider beam)."""
    rng = random.Random(seed)
    m = rng.randint(1, 400)
    n = rng.choice([m, rng.randint(0, 400), rng.randint(0, 10)])
    ref = [rng.randrange(50) for _ in range(m)]
    hyp = [w for w in ref if rng.random() >= drift][:n]
    hyp += [rng.randrange(50) for _ in range(n - len(hyp))]
    beam = ter._Beam(ref, n)
    assert beam._beam_trace(hyp) == beam.trace(hyp) == BeamEditDistance(ref)(hyp)


def test_long_segment():
    """2,000 words, 200 edits: far above the beam's floor, so every distance comes from the
    rows; sacreBLEU's own statistics (it takes ~10 s)."""
    hyp, ref = edited_line(2000, 3)
    assert_ter_parity([hyp], [[ref]], {})


def test_long_line_in_bounded_memory():
    """A 20,000-word line in 1.5 GB of address space (full rows took 6 GB and failed): the rows
    are kept as their beam only."""
    script = textwrap.dedent(
        """
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
        from texts import edited_line
        from scorelens.core import ter
        hyp, ref = edited_line(20_000, 5)
        print(*ter.statistics(hyp, [ref], ter.TerConfig()))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=__file__.rsplit("/", 1)[0])
    assert done.returncode == 0, done.stderr
    edits, ref_words, shifts = map(int, done.stdout.split())
    assert ref_words == 20_000 and 1_000 <= edits <= 4_000 and 0 <= shifts <= edits


def test_beam_floor_only_when_the_beam_matters():
    assert ter._Beam(list(range(20)), 20).floor == ter._INFINITY  # the beam covers every cell
    assert ter._Beam(list(range(80)), 80).floor < ter._INFINITY


def test_a_beam_said_to_keep_every_cell_leaves_none_out():
    """The shortcut that skips the rows (first and last row whole) agrees with the rows."""
    kept = 0
    for n_h, n_r in itertools.product(range(90), range(90)):
        beam = ter._Beam(list(range(n_r)), n_h)
        assert beam.floor == beam._least_outside(), (n_h, n_r)
        kept += beam.floor == ter._INFINITY
    assert 0 < kept < 90 * 90


def test_floor_bound_is_at_most_the_floor():
    """The bound read without the rows never exceeds the floor (else the beam's distance could
    be taken for rapidfuzz's), and spares the rows where lengths are close (30 edits or more)."""
    for n_h, n_r in itertools.chain(itertools.product(range(1, 130), range(1, 130)), [(3, 200), (200, 3), (10, 400)]):
        beam = ter._Beam(list(range(n_r)), n_h)
        assert beam.floor_bound <= beam.floor, (n_h, n_r)
        if abs(n_h - n_r) <= 5:
            assert beam.floor_bound >= 30, (n_h, n_r)


def test_least_bound_is_the_least_over_the_cells():
    for n_h, n_r in [(7, 3), (3, 7), (5, 5), (1, 9)]:
        beam = ter._Beam(list(range(n_r)), n_h)
        for i, a in itertools.product(range(n_h + 1), range(n_r + 1)):
            for b in range(a, n_r + 1):
                assert beam._least(i, a, b) == min(abs(i - j) + abs((n_h - i) - (n_r - j)) for j in range(a, b + 1))


def test_alignment_keeps_the_shift():
    config = ter.TerConfig()
    number: dict[str, int] = {}
    hyp = [number.setdefault(w, len(number)) for w in config.tokens("the cat sat on the mat today")]
    ref = [number.setdefault(w, len(number)) for w in config.tokens("today the cat sat on the mat")]
    found = ter.best_alignment(hyp, [ref])
    assert found.num_edits == 1
    assert found.shifts == (ter.Shift(start=6, length=1, target=0, ref_start=0),)
    assert found.order == (6, 0, 1, 2, 3, 4, 5)
    assert found.trace == " " * 7


@examples(200)
@given(data=line_pair(), flags=st.sampled_from(ALL_FLAGS))
def test_spans_locate_the_words(data, flags):
    text = data[0]
    config = ter.TerConfig(**flags)
    tokens = config.tokens(text)
    spans = config.spans(text, tokens)
    assert len(spans) == len(tokens)
    assert all(a <= b for a, b in spans)
    assert all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:]))
    if flags["case_sensitive"] and not flags["normalized"] and not flags["no_punct"]:
        assert [text[a:b] for a, b in spans] == tokens


def test_signature():
    assert ter.signature(ter.TerConfig(), 1).startswith("nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:scorelens-")
    their = TER(normalized=True, no_punct=True, case_sensitive=True)
    their.num_refs = 2
    ours = ter.signature(ter.TerConfig(normalized=True, no_punct=True, case_sensitive=True), 2)
    assert ours.rsplit("|", 1)[0] == str(their.get_signature()).rsplit("|", 1)[0]
