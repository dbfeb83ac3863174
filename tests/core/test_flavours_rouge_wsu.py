"""ROUGE-W, ROUGE-S and ROUGE-SU over rouge-score's tokens (``impl:rouge-score``, core/rouge_wsu): no
oracle computes them, so they are checked against a slow computation written here from ROUGE-1.5.5's
definitions (its weighted LCS with f(k) = k^w, skip-bigrams within the gap, SU adding unigrams) on
rouge-score's own tokenizer, on hand cases and random texts, and against the rouge-1.5.5 impl's
per-segment figures where the two tokenizers agree (lowercase ASCII words)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
import scorelens
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score.tokenizers import DefaultTokenizer

KEYS = ("rougeW", "rougeS", "rougeSU")


def _f(p: float, r: float) -> float:
    return p * r / (0.5 * p + 0.5 * r) if p + r > 0 else 0.0


def script_wlcs(ref: list[str], hyp: list[str], w: float) -> float:
    """ROUGE-1.5.5's WLCS hit: the table of Lin's weighted LCS (a match always extends the diagonal
    run, else the larger of up and left, up on ties), its path backtracked from the last cell, and
    each run of consecutive reference positions on it scoring run^w."""
    m, n = len(ref), len(hyp)
    c = [[0.0] * (n + 1) for _ in range(m + 1)]
    k = [[0] * (n + 1) for _ in range(m + 1)]
    move = [[""] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if ref[i - 1] == hyp[j - 1]:
                run = k[i - 1][j - 1]
                c[i][j], k[i][j], move[i][j] = c[i - 1][j - 1] + (run + 1) ** w - run**w, run + 1, "diagonal"
            elif c[i - 1][j] >= c[i][j - 1]:
                c[i][j], move[i][j] = c[i - 1][j], "up"
            else:
                c[i][j], move[i][j] = c[i][j - 1], "left"
    on_path = set()
    i, j = m, n
    while i and j:
        if move[i][j] == "diagonal":
            i, j = i - 1, j - 1
            on_path.add(i)
        elif move[i][j] == "up":
            i -= 1
        else:
            j -= 1
    hit, run = 0.0, 0
    for position in range(m + 1):
        if position in on_path:
            run += 1
        elif run:
            hit, run = hit + run**w, 0
    return hit


def reference_wsu(hyp: list[str], ref: list[str], key: str, w: float, gap: int) -> tuple[float, float, float]:
    """(P, R, F) of one pair from the definitions."""
    if not hyp or not ref:
        return 0.0, 0.0, 0.0
    if key == "rougeW":
        hit = script_wlcs(ref, hyp, w)
        # the script's recall denominator weighs the reference's length twice: f(f(m))
        p, r = (hit / len(hyp) ** w) ** (1 / w), (hit / (len(ref) ** w) ** w) ** (1 / w)
        return p, r, _f(p, r)

    def grams(tokens):
        pairs = Counter((tokens[i], tokens[j]) for i, j in combinations(range(len(tokens)), 2) if gap < 0 or j - i <= gap + 1)
        if key == "rougeSU":
            pairs.update((t,) for t in tokens[:-1])  # every unigram but the last, as the script counts them
        return pairs

    h, rf = grams(hyp), grams(ref)
    if not h or not rf:
        return 0.0, 0.0, 0.0
    hits = sum((h & rf).values())
    p, r = hits / sum(h.values()), hits / sum(rf.values())
    return p, r, _f(p, r)


def reference_row(hyp: str, refs: list[str], w: float, gap: int, stem: bool) -> dict:
    tokens = DefaultTokenizer(use_stemmer=stem).tokenize
    row = {}
    for key in KEYS:
        per_ref = [reference_wsu(tokens(hyp), tokens(r), key, w, gap) for r in refs]
        top = max(range(len(per_ref)), key=lambda i: (per_ref[i][2], -i))  # best F, the first on ties
        row[key] = per_ref[top]
    return row


def ours(hyps: list[str], refs: list[list[str]], **options) -> list[dict]:
    rows = scorelens.sentence_scores(hyps, refs, ",".join(KEYS), **options)
    return [{k: (getattr(row, k).precision, getattr(row, k).recall, getattr(row, k).fmeasure) for k in KEYS} for row in rows]


def close(got: dict, wanted: dict, tolerance: float = 1e-12) -> bool:
    return all(g == pytest.approx(x, abs=tolerance) for k in wanted for g, x in zip(got[k], wanted[k]))


def test_lins_examples():
    # the ROUGE paper's skip-bigram example (no gap limit): S2, S3, S4 against S1
    s1 = "police killed the gunman"
    figures = ours(["police kill the gunman", "the gunman kill police", "the gunman police killed"], [[s1] * 3], rouge_skip_gap=-1)
    assert [round(row["rougeS"][2], 12) for row in figures] == [round(3 / 6, 12), round(1 / 6, 12), round(2 / 6, 12)]
    # its weighted LCS example, Y1 with a run of 4, Y2 with four runs of 1 in Lin's definition; the
    # script counts runs of consecutive reference positions, so Y2's a, b, c, d are one run there too
    (y1, y2) = ours(["a b c d h i k", "a h b k c i d"], [["a b c d e f g"] * 2], rouge_w_weight=2)
    assert y1["rougeW"][0] == pytest.approx((16 / 7**2) ** 0.5) and y2["rougeW"] == y1["rougeW"]
    (y3,) = ours(["a b x c d"], [["a b c d"]], rouge_w_weight=2)  # ... but a gap in the reference splits a run
    (y4,) = ours(["a b c d"], [["a b x c d"]], rouge_w_weight=2)
    assert y3["rougeW"][0] == pytest.approx((16 / 5**2) ** 0.5) and y4["rougeW"][0] == pytest.approx((8 / 4**2) ** 0.5)
    assert y1["rougeW"][1] == pytest.approx((16 / 7**4) ** 0.5)  # the script's recall denominator
    # SU: skip-bigrams plus unigrams (gap 4), the last unigram left out on both sides
    (row,) = ours(["the cat sat"], [["the cat sat"]])
    assert row["rougeSU"] == (1.0, 1.0, 1.0) and row["rougeS"] == (1.0, 1.0, 1.0)


def test_hand_cases_match_the_definitions():
    hyps = ["The cat sat on the mat!", "A quick brown fox", "", "Running dogs ran", "only"]
    refs = [["the cat was on the mat", "a cat on a mat"], ["the quick brown dog jumps", "quick brown foxes"], ["x y", ""], ["the dog runs", "dogs running"], ["only", "only only"]]
    for stem in (False, True):
        for w, gap in ((1.2, 4), (1.5, 0), (2.0, -1)):
            got = ours(hyps, list(map(list, zip(*refs))), rouge_w_weight=w, rouge_skip_gap=gap, stem=stem)
            for row, hyp, rs in zip(got, hyps, refs):
                assert close(row, reference_row(hyp, rs, w, gap, stem)), (hyp, rs, stem, w, gap)


def test_corpus_is_the_mean_and_the_signature_names_the_impl():
    hyps, refs = ["the cat sat on the mat", "police shot the gunman"], ["the cat is on the mat", "the gunman was shot by police"]
    got = scorelens.score(hyps, refs, ",".join(KEYS), rouge_skip_gap=2)
    rows = ours(hyps, [refs], rouge_skip_gap=2)
    for key in KEYS:
        mean = [sum(row[key][i] for row in rows) / 2 for i in range(3)]
        figures = getattr(got, key)
        assert (figures.precision, figures.recall, figures.fmeasure) == pytest.approx(mean, abs=1e-15)
        assert "impl:rouge-score" in figures.signature and "tok:rouge-score" in figures.signature
    assert "w:1.2" in got.rougeW.signature and "skip:2" in got.rougeS.signature and "skip:2" in got.rougeSU.signature
    # a mean adds up: the statistics of two parts sum to the whole's
    parts = scorelens.statistics(hyps[:1], refs[:1], ",".join(KEYS), rouge_skip_gap=2) + scorelens.statistics(hyps[1:], refs[1:], ",".join(KEYS), rouge_skip_gap=2)
    assert parts.scores().rougeSU == got.rougeSU and parts.scores().rougeW == got.rougeW
    # an edit re-scores as a fresh run
    corpus = scorelens.Corpus(hyps, refs, ",".join(KEYS))
    corpus.scores()
    corpus.edit(1, "police killed the gunman")
    assert corpus.scores() == scorelens.score([hyps[0], "police killed the gunman"], refs, ",".join(KEYS))


WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "The", "Cat!", "running", "runs", "—", "l'eau", "42", "x-y"]
texts = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(texts, texts, texts), min_size=1, max_size=3),
    st.sampled_from([1.2, 1.5, 2.0]),
    st.sampled_from([-1, 0, 1, 4]),
    st.booleans(),
)
def test_random_texts_match_the_definitions(triples, w, gap, stem):
    hyps = [h for h, _, _ in triples]
    refs = [[r for _, r, _ in triples], [r for _, _, r in triples]]
    for row, (hyp, r1, r2) in zip(ours(hyps, refs, rouge_w_weight=w, rouge_skip_gap=gap, stem=stem), triples):
        assert close(row, reference_row(hyp, [r1, r2], w, gap, stem)), (hyp, r1, r2)


LOWER = st.lists(st.sampled_from(["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "to", "it"]), min_size=1, max_size=12).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(LOWER, LOWER), min_size=1, max_size=4), st.sampled_from([1.2, 1.5]), st.sampled_from([-1, 0, 4]))
def test_equal_to_the_rouge155_impl_where_the_tokenizers_agree(pairs, w, gap):
    """Lowercase ASCII words, one reference: the script's per-segment figures are these, rounded
    (R and P to 5 decimals, F from the rounded ones)."""
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    ours_rows = ours(hyps, [refs], rouge_w_weight=w, rouge_skip_gap=gap)
    script_rows = ours(hyps, [refs], rouge_w_weight=w, rouge_skip_gap=gap, rouge_impl="rouge-1.5.5")
    for mine, script in zip(ours_rows, script_rows):
        for key in KEYS:
            p, r, f = mine[key]
            assert script[key][:2] == (round(p, 5), round(r, 5)) or (abs(script[key][0] - p) <= 5e-6 and abs(script[key][1] - r) <= 5e-6)
            assert script[key][2] == pytest.approx(f, abs=2e-5)
