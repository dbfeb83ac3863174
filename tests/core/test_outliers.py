"""The modified z-score (core/outliers.py): the batch routine against the plain formula, and the
running sample kept through edits against the batch routine, to the last bit."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorelens.core.outliers import RunningSample, find_outliers


def test_modified_z_score():
    values = [1.0, 1.1, 0.9, 1.0, 3.0]
    o = find_outliers(values, 3.5)
    assert o.median == 1.0
    assert o.scale == pytest.approx(0.1 / 0.6745)
    assert o.z_scores[4] == pytest.approx(0.6745 * 2.0 / 0.1)
    assert o.segments == [4]
    assert find_outliers(values, 14.0).segments == []


def test_z_score_falls_back_to_mean_absolute_deviation():
    # more than half alike: the median absolute deviation is 0
    values = [1.0, 1.0, 1.0, 1.0, 2.0]
    o = find_outliers(values, 3.5)
    assert o.scale == pytest.approx(1.2533 * 0.2)
    assert o.segments == [4]  # z = 1 / 0.25066 ~ 3.99


def test_no_outliers_when_every_segment_is_alike():
    o = find_outliers([2.0, 2.0, 2.0], 3.5)
    assert o.scale == 0 and o.segments == [] and o.z_scores.tolist() == [0.0] * 3
    assert find_outliers([], 3.5).segments == []


def test_blank_segments_are_left_out_of_outliers():
    values = [1.0, math.nan, 1.1, 0.9, 1.0, 3.0]
    o = find_outliers(values, 3.5)
    assert (o.median, o.scale) == (find_outliers([1.0, 1.1, 0.9, 1.0, 3.0], 3.5).median, pytest.approx(0.1 / 0.6745))
    assert math.isnan(o.z_scores[1]) and o.segments == [5]
    assert np.isnan(find_outliers([math.nan], 3.5).z_scores).all()


def test_outliers_equal_the_statistics_module_formula():
    # the NumPy version must give exactly what the plain formula gives, ties and even counts included
    import statistics

    rng = random.Random(4)
    for n in (1, 2, 7, 10, 101):
        values = [rng.choice([1.0, 1.5, rng.uniform(0, 4)]) for _ in range(n)]
        median = statistics.median(values)
        deviations = [abs(x - median) for x in values]
        mad = statistics.median(deviations)
        scale = mad / 0.6745 if mad else 1.2533 * statistics.fmean(deviations)
        o = find_outliers(values, 3.5)
        assert (o.median, o.scale) == (median, scale)
        assert o.z_scores.tolist() == [(x - median) / scale if scale else 0.0 for x in values]


def test_two_sided_outliers_count_low_scores_too():
    values = [1.0, 1.1, 0.9, 1.0, 3.0, -1.0]
    assert find_outliers(values, 3.5).segments == [4]
    assert find_outliers(values, 3.5, two_sided=True).segments == [4, 5]


def _sample(values):
    running = RunningSample()
    for v in values:
        running.add(v)
    return running


@given(st.lists(st.one_of(st.sampled_from([0.0, 1.0, 1.5, -2.0]), st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False)), max_size=60))
def test_running_sample_equals_find_outliers(values):
    running = _sample(values)
    expected = find_outliers(values, 3.5)
    assert running.median_and_scale() == ((expected.median, expected.scale) if values else (0.0, 0.0))


def test_running_sample_through_additions_and_removals():
    rng = random.Random(7)
    running, kept = RunningSample(), []
    for _ in range(400):
        if kept and rng.random() < 0.4:
            v = kept.pop(rng.randrange(len(kept)))
            running.remove(v)
        else:
            v = rng.choice([0.5, 2.0, rng.gauss(0, 1)])
            kept.append(v)
            running.add(v)
        expected = find_outliers(kept, 3.5)
        assert len(running) == len(kept)
        assert running.median_and_scale() == ((expected.median, expected.scale) if kept else (0.0, 0.0))
