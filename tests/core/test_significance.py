"""Paired significance tests: exactly sacreBLEU 2.6.0's ``PairedTest`` for BLEU, chrF and TER, and the same
tests for ROUGE and WER (ScoreLens's extension) against a plain loop over the same draws."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from peers import config, corpus, file_lines, read
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest
from texts import examples, line, line_corpus

from scorelens.core import Corpus, ErrorCounts, ScoringConfig, rates
from scorelens.core.chrf import ChrfConfig
from scorelens.core.ter import TerConfig
from scorelens.core.significance import (
    DEFAULT_SEED,
    Result,
    estimate_ci,
    paired_test,
    seed_from,
    segment_differences,
)


def _sacrebleu(systems, refs, test, n=0, seed=DEFAULT_SEED, ar_confidence=-1, monkeypatch=None, **bleu_options):
    """sacreBLEU's results per system (baseline first); its seed comes from the environment."""
    if monkeypatch is not None:
        monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    metric = BLEU(references=[list(r) for r in refs], **bleu_options)
    named = [(f"s{i}", list(hyps)) for i, hyps in enumerate(systems)]
    _, scores = PairedTest(named, {"BLEU": metric}, None, test_type=test, n_samples=n, n_ar_confidence=ar_confidence)()
    return scores["BLEU"]


def _assert_same(ours: list[Result], theirs) -> None:
    """Bit for bit: score, mean, CI and p-value of every system."""
    assert len(ours) == len(theirs)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert (a.score, a.mean, a.ci, a.p_value) == (b.score, b.mean, b.ci, b.p_value), f"system {i}: {a} != {b}"


def _ours(systems, refs, cfg, metrics=("bleu",), **options):
    comparison = paired_test([corpus(hyps, refs, cfg) for hyps in systems], list(metrics), **options)
    return comparison, [r for r in comparison.results]


# -- sacreBLEU on real systems ----------------------------------------------------------------------

CORPORA = {
    "ted": (("ted.sys1.detok.eng", "ted.sys2.detok.eng"), "ted.ref.detok.eng", "13a"),
    "multited": (("multited.sys1.jpn", "multited.sys2.jpn"), "multited.ref.jpn", "none"),
    "headlines": (("sum.sys1.eng", "sum.sys2.eng"), "sum.ref.eng", "13a"),
}


@pytest.mark.shared
@pytest.mark.parametrize("name", CORPORA)
@pytest.mark.parametrize("test, n, ar_confidence", [("bs", 0, -1), ("ar", 0, 0)])
def test_compare_mt_as_sacrebleu(shared, monkeypatch, name, test, n, ar_confidence):
    files, ref_file, tokenize = CORPORA[name]
    systems = [file_lines(read(shared("compare-mt", f))) for f in files]
    refs = [file_lines(read(shared("compare-mt", ref_file)))]
    if name != "ted":
        n = {"bs": 300, "ar": 1000}[test]  # the defaults once (TED); fewer draws keep the rest quick
    comparison, ours = _ours(systems, refs, config({"bleu"}, tokenize=tokenize), test=test, n=n, ar_confidence=ar_confidence)
    theirs = _sacrebleu(systems, refs, test, n, ar_confidence=ar_confidence, monkeypatch=monkeypatch, tokenize=tokenize)
    _assert_same([r["bleu"] for r in ours], theirs)
    assert comparison.n == (n or {"bs": 1000, "ar": 10000}[test])
    assert ours[1]["bleu"].p_value < 0.05 or name != "ted"  # TED's sys2 is known better


@pytest.mark.shared
@pytest.mark.parametrize("seed", [7, 0])
def test_seed_as_sacrebleu(shared, monkeypatch, seed):
    """Another seed; seed 0 seeds only the baseline's interval (sacreBLEU's ``seed if seed else None``)."""
    files, ref_file, tokenize = CORPORA["ted"]
    systems = [file_lines(read(shared("compare-mt", f)))[:500] for f in files]
    refs = [file_lines(read(shared("compare-mt", ref_file)))[:500]]
    _, ours = _ours(systems, refs, config({"bleu"}), test="bs", n=200, seed=seed)
    theirs = _sacrebleu(systems, refs, "bs", 200, seed=seed, monkeypatch=monkeypatch)
    if seed:
        _assert_same([r["bleu"] for r in ours], theirs)
    else:
        _assert_same([ours[0]["bleu"]], theirs[:1])
        assert ours[1]["bleu"].score == theirs[1].score


@pytest.mark.shared
@pytest.mark.parametrize("test, n", [("bs", 300), ("ar", 1000)])
def test_a_long_corpus_drawn_a_few_rows_at_a_time_as_sacrebleu(shared, monkeypatch, test, n):
    """A long corpus is drawn a few resamples (trials: 32) at a time; the draws go on as
    sacreBLEU's one draw does. 3,000 draws a block: one resample of TED's lines, or 32 trials."""
    from scorelens.core import significance

    files, ref_file, _ = CORPORA["ted"]
    systems = [file_lines(read(shared("compare-mt", f))) for f in files]
    refs = [file_lines(read(shared("compare-mt", ref_file)))]
    assert 1500 < len(refs[0]) <= 3000
    monkeypatch.setattr(significance, "_BLOCK_DRAWS", 3000)
    assert significance._block_rows(len(refs[0])) == 1 and significance._block_rows(len(refs[0]), 32) == 32
    _, ours = _ours(systems, refs, config({"bleu"}), test=test, n=n, ar_confidence=0)
    _assert_same([r["bleu"] for r in ours], _sacrebleu(systems, refs, test, n, ar_confidence=0, monkeypatch=monkeypatch))


@pytest.mark.shared
@pytest.mark.parametrize("test", ["bs", "ar"])
@pytest.mark.parametrize("word_order", [0, 2])
def test_chrf_as_sacrebleu(shared, test, word_order):
    """chrF and chrF++: sacreBLEU's bootstrap scores them in float32 (means and intervals too)."""
    files, ref_file, _ = CORPORA["ted"]
    systems = [file_lines(read(shared("compare-mt", f)))[:600] for f in files]
    refs = [file_lines(read(shared("compare-mt", ref_file)))[:600]]
    cfg = ScoringConfig(metrics=frozenset({"chrf"}), chrf=ChrfConfig(word_order=word_order))
    n = {"bs": 300, "ar": 2000}[test]
    ours = paired_test([corpus(h, refs, cfg) for h in systems], ["chrf"], test=test, n=n, ar_confidence=100).results
    metric = CHRF(word_order=word_order, references=[list(r) for r in refs])
    named = [(f"s{i}", list(h)) for i, h in enumerate(systems)]
    _, scores = PairedTest(named, {"chrF": metric}, None, test_type=test, n_samples=n, n_ar_confidence=100)()
    assert list(scores) == ["System", "chrF2++" if word_order else "chrF2"]
    _assert_same([r["chrf"] for r in ours], list(scores.values())[1])


def _sacrebleu_ter(systems, refs, test, n, ar_confidence, **flags):
    metric = TER(references=[list(r) for r in refs], **flags)
    named = [(f"s{i}", list(h)) for i, h in enumerate(systems)]
    _, scores = PairedTest(named, {"TER": metric}, None, test_type=test, n_samples=n, n_ar_confidence=ar_confidence)()
    assert list(scores) == ["System", "TER"]
    return scores["TER"]


@pytest.mark.shared
@pytest.mark.parametrize("name, test, n", [("ted", "bs", 0), ("ted", "ar", 0), ("multited", "bs", 300), ("headlines", "ar", 1000)])
def test_ter_as_sacrebleu(shared, name, test, n):
    """TER: float32 bootstrap scores like chrF's; lower is better (TED's sys2 scores lower)."""
    files, ref_file, _ = CORPORA[name]
    lines = {"ted": 700, "multited": 25, "headlines": 600}[name]  # sacreBLEU's TER is slow on long lines
    systems = [file_lines(read(shared("compare-mt", f)))[:lines] for f in files]
    refs = [file_lines(read(shared("compare-mt", ref_file)))[:lines]]
    cfg = ScoringConfig(metrics=frozenset({"ter"}))
    ours = paired_test([corpus(h, refs, cfg) for h in systems], ["ter"], test=test, n=n, ar_confidence=0).results
    _assert_same([r["ter"] for r in ours], _sacrebleu_ter(systems, refs, test, n, 0))
    if name == "ted":
        assert ours[1]["ter"].score < ours[0]["ter"].score


@examples(25)
@given(
    data=line_corpus(min_lines=1, max_lines=10),
    others=st.data(),
    test=st.sampled_from(["bs", "ar"]),
    flags=st.fixed_dictionaries({k: st.booleans() for k in ("normalized", "no_punct", "case_sensitive")}),
)
def test_random_ter_as_sacrebleu(data, others, test, flags):
    """Up to three references, so average reference lengths are fractions (summed in float32 in
    sacreBLEU's draw order, or by its float64 products) and empty references score 100 or 0."""
    hyps, refs = data
    more = others.draw(st.lists(st.lists(line(), min_size=len(hyps), max_size=len(hyps)), min_size=1, max_size=3))
    systems = [hyps, *more]
    cfg = ScoringConfig(metrics=frozenset({"ter"}), ter=TerConfig(**flags))
    ours = paired_test([corpus(h, refs, cfg) for h in systems], ["ter"], test=test, n=64, ar_confidence=40).results
    _assert_same([r["ter"] for r in ours], _sacrebleu_ter(systems, refs, test, 64, 40, **flags))


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_ter_thirds_as_sacrebleu(test):
    """Three references of few words: reference lengths in thirds, and randomized sides whose TER
    equals the observed one's only when summed in sacreBLEU's own order."""
    rng = random.Random(3)

    def text():
        return " ".join(rng.choice("abcdefgh") for _ in range(rng.randint(1, 7)))

    cfg = ScoringConfig(metrics=frozenset({"ter"}))
    for _ in range(40):
        n = rng.randint(2, 12)
        refs = [[text() for _ in range(n)] for _ in range(3)]
        systems = [[text() for _ in range(n)] for _ in range(2)]
        ours = paired_test([corpus(h, refs, cfg) for h in systems], ["ter"], test=test, n=200, ar_confidence=50).results
        _assert_same([r["ter"] for r in ours], _sacrebleu_ter(systems, refs, test, 200, 50))


# -- sacreBLEU on random systems ----------------------------------------------------------------------

SMOOTHING = st.sampled_from([("exp", None), ("floor", None), ("floor", 0.5), ("add-k", None), ("none", None)])


@examples(40)
@given(
    data=line_corpus(min_lines=1, max_lines=12),
    others=st.data(),
    smoothing=SMOOTHING,
    test=st.sampled_from(["bs", "ar"]),
    order=st.sampled_from([4, 2]),
)
def test_random_as_sacrebleu(data, others, smoothing, test, order):
    hyps, refs = data
    more = others.draw(st.lists(st.lists(line(), min_size=len(hyps), max_size=len(hyps)), min_size=1, max_size=3))
    systems = [hyps, *more]
    method, value = smoothing
    options = dict(smooth_method=method, smooth_value=value, max_ngram_order=order)
    cfg = config({"bleu", "chrf"}, **options)
    _, ours = _ours(systems, refs, cfg, metrics=("bleu", "chrf"), test=test, n=60, ar_confidence=30)
    # the default seed, so no environment change inside hypothesis's loop
    theirs = _sacrebleu(systems, refs, test, 60, ar_confidence=30, **options)
    _assert_same([r["bleu"] for r in ours], theirs)
    chrf = CHRF(references=[list(r) for r in refs])
    named = [(f"s{i}", list(h)) for i, h in enumerate(systems)]
    _, scores = PairedTest(named, {"chrF": chrf}, None, test_type=test, n_samples=60, n_ar_confidence=30)()
    _assert_same([r["chrf"] for r in ours], scores["chrF2"])


# -- ROUGE and WER: the same tests, against a plain loop over the same draws -------------------------------


def _reference_bootstrap(stats_bl, stats_sys, formula, n, tol=0.0, seed=DEFAULT_SEED):
    """The bootstrap written out: one resample at a time, statistics summed in Python.

    Returns the mean and CI, and the range of p-values that samples within ``tol`` of the
    observed difference allow (float statistics summed in another order may land either side).
    """
    rng = np.random.default_rng(seed)
    idxs = rng.choice(len(stats_bl), size=(n, len(stats_bl)), replace=True)
    bl = np.array([formula([stats_bl[i] for i in row]) for row in idxs])
    sys = np.array([formula([stats_sys[i] for i in row]) for row in idxs])
    diffs = np.abs(sys - bl)
    observed = abs(formula(stats_bl) - formula(stats_sys))
    return estimate_ci(sys), _p_range(diffs - diffs.mean(), observed, tol)


def _p_range(samples, observed, tol):
    above = sum(1 for d in samples if d > observed + tol)
    maybe = sum(1 for d in samples if d > observed - tol)
    return (above + 1) / (len(samples) + 1), (maybe + 1) / (len(samples) + 1)


def _reference_randomization(stats_bl, stats_sys, formula, n, tol=0.0, seed=DEFAULT_SEED):
    rng = np.random.default_rng(seed)
    swap = rng.integers(2, size=(n, len(stats_bl)), dtype=bool)
    observed = abs(formula(stats_bl) - formula(stats_sys))
    samples = []
    for row in swap:
        side_a = [x if s else y for s, x, y in zip(row, stats_bl, stats_sys)]
        side_b = [y if s else x for s, x, y in zip(row, stats_bl, stats_sys)]
        samples.append(abs(formula(side_a) - formula(side_b)))
    return _p_range(samples, observed, tol)


def _wer(counts):
    return rates(sum(counts, ErrorCounts())).wer


def _assert_p(ours: Result, p_range):
    low, high = p_range
    assert low <= ours.p_value <= high


def _assert_close(ours: Result, ci, p_range):
    assert ours.mean == pytest.approx(ci[0], abs=1e-12)
    assert ours.ci == pytest.approx(ci[1], abs=1e-12)
    _assert_p(ours, p_range)


@pytest.mark.shared
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_earnings21_wer(shared, test):
    """Two ASR systems on five earnings calls, each call one segment."""
    calls = sorted(p.name for p in shared("earnings21", "reference").glob("*.norm.txt"))
    assert len(calls) == 5

    def document(folder):
        return "\n".join(read(shared("earnings21", folder, c)).strip() for c in calls)

    refs = [document("reference")]
    systems = [Corpus(document(s), refs, config({"wer"})) for s in ("amazon", "google")]
    stats = [[ErrorCounts(*c) for c in s.segment_statistics("wer")] for s in systems]
    result = paired_test(systems, ["wer"], test=test, n=300, ar_confidence=100).results[1]["wer"]
    assert result.score == _wer(stats[1]) == rates(systems[1].scores().wer).wer
    if test == "bs":
        ci, p = _reference_bootstrap(stats[0], stats[1], _wer, 300)
        _assert_close(result, ci, p)
    else:
        _assert_p(result, _reference_randomization(stats[0], stats[1], _wer, 300))
        assert result.mean is not None and result.ci is not None


@pytest.mark.shared
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_headlines_rouge(shared, test):
    files, ref_file, _ = CORPORA["headlines"]
    systems = [file_lines(read(shared("compare-mt", f)))[:400] for f in files]
    refs = [file_lines(read(shared("compare-mt", ref_file)))[:400]]
    corpora = [corpus(hyps, refs, config({"rougeL", "rouge1", "rouge2"})) for hyps in systems]
    results = paired_test(corpora, ["rougeL", "rouge2"], test=test, n=200).results[1]

    def mean_f(fs):
        return sum(fs) / len(fs)

    assert results["rougeL"].score == pytest.approx(corpora[1].scores().rouge_l.fmeasure, abs=1e-12)
    assert results["rouge2"].score == pytest.approx(corpora[1].scores().rouge_n["rouge2"].fmeasure, abs=1e-12)
    # rouge2's (P, R, F) follow rouge1's in each segment's statistics
    for key, f_of in (("rougeL", lambda c: [f for _, _, f in c.segment_statistics("rouge_l")]), ("rouge2", lambda c: [r[5] for r in c.segment_statistics("rouge_n")])):
        stats = [f_of(c) for c in corpora]
        if test == "bs":
            ci, p = _reference_bootstrap(stats[0], stats[1], mean_f, 200, tol=1e-12)
            _assert_close(results[key], ci, p)
        else:
            _assert_p(results[key], _reference_randomization(stats[0], stats[1], mean_f, 200, tol=1e-12))


@examples(15)
@given(data=line_corpus(min_lines=1, max_lines=10, nrefs=1), others=st.data(), test=st.sampled_from(["bs", "ar"]))
def test_random_wer_and_rouge(data, others, test):
    hyps, refs = data
    other = others.draw(st.lists(line(), min_size=len(hyps), max_size=len(hyps)))
    cfg = config({"wer", "rougeL"})
    corpora = [corpus(h, refs, cfg) for h in (hyps, other)]
    result = paired_test(corpora, ["wer", "rougeL"], test=test, n=40).results[1]
    wer = [[ErrorCounts(*c) for c in k.segment_statistics("wer")] for k in corpora]
    fs = [[f for _, _, f in k.segment_statistics("rouge_l")] for k in corpora]
    # WER's integer counts sum exactly; ROUGE's F values may tie with the observed difference
    for key, stats, formula, tol in (("wer", wer, _wer, 0.0), ("rougeL", fs, lambda f: sum(f) / len(f), 1e-12)):
        if test == "bs":
            ci, p = _reference_bootstrap(stats[0], stats[1], formula, 40, tol)
            _assert_close(result[key], ci, p)
        else:
            _assert_p(result[key], _reference_randomization(stats[0], stats[1], formula, 40, tol))


# -- per-segment differences, seeds, refusals -----------------------------------------------------------


def test_segment_differences():
    refs = [["the cat sat on the mat", "a dog barked twice", "nothing here"]]
    base = corpus(["the cat sat on a mat", "a dog barked", "nothing"], refs, config({"bleu", "wer", "rougeL"}))
    system = corpus(["the cat sat on the mat", "one dog barked twice", "nothing"], refs, config({"bleu", "wer", "rougeL"}))
    for metric, value in (
        ("bleu", lambda c, i: c.segment_scores(i).bleu.score),
        ("wer", lambda c, i: rates(c.segment_scores(i).wer).wer),
        ("rougeL", lambda c, i: c.segment_scores(i).rouge_l.fmeasure),
    ):
        expected = [value(system, i) - value(base, i) for i in range(3)]
        assert segment_differences(base, system, metric).tolist() == expected
    assert segment_differences(base, system, "bleu")[0] > 0
    assert segment_differences(base, system, "wer")[0] < 0
    assert segment_differences(base, system, "bleu")[2] == 0


def test_seed_from_environment_values():
    assert seed_from(None) == 12345
    assert seed_from("7") == 7
    assert seed_from("None") is None and seed_from("none") is None
    with pytest.raises(ValueError):
        seed_from("seven")


def test_unseeded_draws_differ():
    refs = [[f"word {i} and {i % 7} more" for i in range(50)]]
    systems = [corpus([f"word {i} or {i % 5} more" for i in range(50)], refs, config({"bleu"})) for _ in range(2)]
    means = {paired_test(systems, ["bleu"], n=100, seed=None).results[1]["bleu"].mean for _ in range(4)}
    assert len(means) > 1


def test_refusals():
    cfg = config({"bleu"})
    a = corpus(["a b c"], [["a b c"]], cfg)
    b = corpus(["a b c", "d"], [["a b c", "d"]], cfg)
    with pytest.raises(ValueError, match="different numbers of segments"):
        paired_test([a, b], ["bleu"])
    with pytest.raises(ValueError, match="unknown test"):
        paired_test([a, a], ["bleu"], test="t")
    with pytest.raises(ValueError, match="no significance test"):
        paired_test([a, a], ["meteor"])
    with pytest.raises(ValueError, match="not enabled"):
        paired_test([a, a], ["wer"])
    with pytest.raises(ValueError, match="no segments"):
        paired_test([corpus([], [[]], cfg)] * 2, ["bleu"])
