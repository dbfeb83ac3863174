"""ROUGE-1.5.5's printed average kept as exact integer sums (:mod:`scorelens.core.rouge155_average`)
against the script's own order of float sums (:func:`scorelens.core.rouge155.average`, which the
parity tests compare with ROUGE-1.5.5.pl)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from scorelens.api.options import complete, scoring_config
from scorelens.core import rouge155, rouge155_average
from scorelens.core.corpus import Corpus
from scorelens.core.rouge155_average import Average, averaged


def figures(rng: random.Random, kind: str) -> tuple[float, float, float]:
    if kind == "any":
        return tuple(float(format(rng.random(), "7.5f")) for _ in range(3))
    if kind == "few":
        return tuple(rng.choice([0.0, 1.0, 0.5, 0.25, 0.33333, 0.66667]) for _ in range(3))
    return tuple(rng.randint(0, 3) / 8 for _ in range(3))  # sums often half-way between 5 decimals


def scripts(per_segment, resamples):
    return list(rouge155.average([{"X": f} for f in per_segment], resamples)["X"])


@pytest.mark.parametrize("kind", ["any", "few", "eighths"])
def test_the_exact_average_is_the_scripts(kind):
    rng = random.Random(kind)
    for _ in range(60):
        n, resamples = rng.choice([1, 2, 3, 10, 37, 250, 1001]), rng.choice([1, 2, 20, 1000])
        per_segment = [figures(rng, kind) for _ in range(n)]
        assert averaged(per_segment, resamples) == scripts(per_segment, resamples), (n, resamples)


def test_near_a_half_way_point_the_scripts_order_decides(monkeypatch):
    calls = []
    scripted = rouge155_average.scripted
    monkeypatch.setattr(rouge155_average, "scripted", lambda *a: calls.append(a) or scripted(*a))
    rng = random.Random(8)
    for _ in range(200):
        n, resamples = rng.choice([1, 2, 4, 8, 16]), rng.choice([1, 2, 4, 8])
        per_segment = [figures(rng, "eighths") for _ in range(n)]
        assert averaged(per_segment, resamples) == scripts(per_segment, resamples)
    assert len(calls) > 50  # the fallback was taken, and agreed


def test_the_scripted_figure_is_the_old_computation():
    rng = random.Random(3)
    for n in (1, 5, 300):
        values = [figures(rng, "any") for _ in range(n)]
        got = [rouge155_average._r5(rouge155_average.scripted(np.array(column), 50)) for column in zip(*values)]
        assert got == scripts(values, 50)


def test_segments_put_one_at_a_time_and_a_new_count():
    rng = random.Random(5)
    per_segment = [figures(rng, "any") for _ in range(120)]
    average = Average(3, 100)
    average.resize(len(per_segment))
    average.put_all(per_segment)
    for _ in range(30):
        i = rng.randrange(len(per_segment))
        per_segment[i] = figures(rng, "any")
        average.put(i, per_segment[i])
        assert average.figures() == scripts(per_segment, 100)
    per_segment = per_segment[:77]
    average.resize(77)
    assert average.figures() == scripts(per_segment, 100)
    per_segment.append(figures(rng, "few"))
    average.resize(78)
    average.put(77, per_segment[77])
    assert average.figures() == scripts(per_segment, 100)


def test_draw_counts_add_up():
    counts = rouge155_average.draw_counts(1234, 100)
    assert counts.sum() == 1234 * 100 and (counts >= 0).all()


def test_figures_of_more_than_5_decimals_are_refused():
    with pytest.raises(ValueError):
        averaged([(0.123456, 0.0, 0.0)], 10)


def test_an_edited_corpus_equals_a_fresh_scoring():
    """Edits in place, a few at once, a line inserted and one removed: the kept average is a fresh
    corpus's."""
    rng = random.Random(11)
    words = "the cat sat on a mat dogs ran police shot gunman".split()
    line = lambda: " ".join(rng.choice(words) for _ in range(rng.randint(0, 9)))
    hyps, refs = [line() for _ in range(300)], [line() or "a mat" for _ in range(300)]
    # (no ROUGE-W: an empty reference past the shorter side stops the script there)
    config = scoring_config(["rouge1", "rougeL", "rougeS", "rougeSU"], complete({"rouge_impl": "rouge-1.5.5"}))
    corpus = Corpus(list(hyps), [list(refs)], config)
    fresh = lambda: Corpus(list(hyps), [list(refs)], config).scores()
    assert corpus.scores() == fresh()
    for start, end, new in [(10, 11, [line()]), (50, 53, [line(), line(), line()]), (40, 40, ["a cat"]), (7, 8, []), (0, 300, hyps[::-1])]:
        hyps[start:end] = new
        corpus.replace_lines(0, start, end, new)
        assert corpus.scores() == fresh(), (start, end)
