"""Many segments at once (:mod:`scorelens.core.rouge155_many`, the numpy kernel
:mod:`scorelens.core.rouge155_kernel`) against one at a time (:func:`rouge155.summary_scores`,
:func:`rouge_wsu.segment_scores`, which the parity tests compare with ROUGE-1.5.5.pl and with the
definitions): the same figures, to the last bit."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from scorelens.core import rouge155, rouge155_kernel, rouge_wsu
from scorelens.core.rouge155 import Rouge155Config
from scorelens.core.rouge155_many import summary_scores_many

WORDS = ["the", "a", "cat", "sat", "on", "mat", "dogs", "running", "runs", "ran", "happily", "re-election", "U.S.", "4-3", "2,000", "café", "ÉTÉ", "don't", "--", "$5", "organization"]


def summary(rng: random.Random, lines: int) -> str:
    return "\n".join(" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 30))) for _ in range(rng.randint(0 if lines > 1 else 1, lines)))


CONFIGS = [
    Rouge155Config(),
    Rouge155Config(n_max=3, w="1.2", skip=4, su="U"),
    Rouge155Config(n_max=1, w="1.5", skip=-1, su="u", mode="B", alpha=0.8),
    Rouge155Config(n_max=2, w="1.2", skip=0, mode="B", stem=True),
    Rouge155Config(n_max=0, rouge_l=False, w="2", skip=4, su="U", stem=True, stopwords=frozenset(["the", "a", "on"])),
]


@pytest.mark.parametrize("config", CONFIGS, ids=["default", "W-S4-SU4", "best-SU*", "best-stem-S0", "stop-W2"])
@pytest.mark.parametrize("lines", [1, 4], ids=["a line", "lines"])
@pytest.mark.parametrize("references", [1, 3], ids=["a reference", "references"])
def test_many_summaries_equal_one_at_a_time(config, lines, references):
    rng = random.Random(f"{config}{lines}{references}")
    hyps = [summary(rng, lines) for _ in range(150)]
    refs = [[summary(rng, lines) for _ in range(rng.randint(1, references))] for _ in hyps]
    # a reference without tokens stops the script under ROUGE-W: tested apart
    refs = [[r if rouge155.preprocess(r, config).tokens else "a mat" for r in rs] for rs in refs]
    assert summary_scores_many(hyps, refs, config) == [rouge155.summary_scores(h, rs, config) for h, rs in zip(hyps, refs)]


def test_a_reference_without_tokens_stops_the_script_as_one_at_a_time():
    with pytest.raises(rouge155.ScriptDies):
        summary_scores_many(["the cat", "a mat"], [["the mat"], ["--- !"]], Rouge155Config(w="1.2"))


def script_marks(model, peer, weight):
    """lcs_inner / wlcs_inner as the script writes them: the whole table, its runs and its steps
    back (1 diagonal, 2 up, 3 left), up on a tie, a match always diagonal."""
    m, n = len(model), len(peer)
    c = [[0.0] * (n + 1) for _ in range(m + 1)]
    run = [[0] * (n + 1) for _ in range(m + 1)]
    back = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if model[i - 1] == peer[j - 1]:
                k = run[i - 1][j - 1]
                c[i][j] = c[i - 1][j - 1] + 1 if weight is None else c[i - 1][j - 1] + (k + 1) ** weight - k**weight
                run[i][j], back[i][j] = k + 1, 1
            elif c[i - 1][j] >= c[i][j - 1]:
                c[i][j], back[i][j] = c[i - 1][j], 2
            else:
                c[i][j], back[i][j] = c[i][j - 1], 3
    mask, i, j = [False] * m, m, n
    while i and j:
        step = back[i][j]
        i, j = i - (step != 3), j - (step != 2)
        if step == 1:
            mask[i] = True
    return mask


@pytest.mark.parametrize("weight", [None, 1.2, 2.0])
def test_lcs_marks_are_the_scripts(weight):
    """Few distinct tokens (many matches, many ties) and lengths from 0 to 70: the kernel and the
    one-pair steps against the script's table."""
    rng = random.Random(str(weight))
    for vocabulary in (2, 3, 30):
        models = [[rng.randrange(vocabulary) for _ in range(rng.choice([0, 1, 2, 5, 20, 70]))] for _ in range(300)]
        peers = [[rng.randrange(vocabulary) for _ in range(rng.choice([0, 1, 3, 20, 60]))] for _ in range(300)]
        powers = None if weight is None else np.array([k**weight for k in range(80)])
        for model, peer, marks in zip(models, peers, rouge155_kernel.lcs_marks(models, peers, powers)):
            mask = [0] * len(model)
            rouge155._mark_lcs(model, peer, mask, weight)
            expected = script_marks(model, peer, weight)
            assert marks.tolist() == expected and [bool(x) for x in mask] == expected, (model, peer)


@pytest.mark.parametrize("skip", [-1, 0, 4])
def test_skip_hits_are_the_scripts(skip):
    rng = random.Random(skip)
    peers = [[rng.randrange(4) for _ in range(rng.choice([0, 1, 2, 9, 40]))] for _ in range(100)]
    models = [[rng.randrange(4) for _ in range(rng.choice([0, 1, 2, 9, 40]))] for _ in range(250)]
    owner = np.array([rng.randrange(100) for _ in models])
    hits, unigram_hits = rouge155_kernel.skip_hits(peers, models, owner, skip, 4)
    counts, unigrams = rouge155_kernel.gram_counts(np.array([len(m) for m in models]), skip)
    for k, model in enumerate(models):
        peer_grams, model_grams = rouge155.skip_bigrams(peers[owner[k]], skip, True), rouge155.skip_bigrams(model, skip, True)
        assert hits[k] == rouge155.clipped_hits(rouge155.skip_bigrams(model, skip), rouge155.skip_bigrams(peers[owner[k]], skip))
        assert hits[k] + unigram_hits[k] == rouge155.clipped_hits(model_grams, peer_grams)
        assert counts[k] + unigrams[k] == sum(model_grams.values())


@pytest.mark.parametrize("w, skip", [(1.2, 4), (2.0, -1), (1.5, 0)])
def test_rouge_score_tokens_many_equal_one_at_a_time(w, skip):
    rng = random.Random(f"{w}{skip}")
    token = lambda: rng.choice(["the", "cat", "sat", "on", "mat", "a", "dog"])
    line = lambda: [token() for _ in range(rng.choice([0, 1, 2, 8, 30]))]
    hyps = [line() for _ in range(200)]
    refs = [[line() for _ in range(rng.randint(1, 3))] for _ in hyps]
    config = rouge_wsu.WsuConfig(("rougeW", "rougeS", "rougeSU"), w, skip)
    assert rouge_wsu.segment_scores_many(hyps, refs, config) == [rouge_wsu.segment_scores(h, rs, config) for h, rs in zip(hyps, refs)]


def test_tokens_are_the_scripts_steps():
    """The script's steps, literally: ASCII letters lowercased, "-" split off, everything outside
    [A-Za-z0-9-] a space, tokens starting with [a-z0-9] kept, stopwords dropped, longer than 3 stemmed."""

    def steps(text, config):
        sentences = []
        for line in text.split("\n"):
            if line:
                lowered = line.translate(str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"))
                raw = re.sub(r"[^A-Za-z0-9\-]", " ", lowered.replace("-", " - ")).split()
                kept = [t for t in raw if not (config.stopwords is not None and t in config.stopwords) and t[0] in "abcdefghijklmnopqrstuvwxyz0123456789"]
                sentences.append([rouge155.porter_stem(t) if config.stem and len(t) > 3 else t for t in kept])
        return sentences

    rng = random.Random(0)
    # ASCII controls and separators, and non-ASCII letters that lowercase to ASCII (Kelvin sign, dotted I)
    chars = "aAzZ09 -_\n\r\t\x0b\x0c\x1c\x85\u00a0\u2028\u212a\u0130éÉß.,'$" + "".join(map(chr, range(128)))
    configs = [Rouge155Config(), Rouge155Config(stem=True, stopwords=frozenset(["the", "a", "-", "runs"]))]
    for _ in range(3000):
        text = "".join(rng.choice(chars) for _ in range(rng.randint(0, 40))).replace("a", " the running a ")
        ascii_text = text.encode("ascii", "replace").decode("ascii")
        for config in configs:
            assert rouge155.preprocess(text, config).sentences == steps(text, config), repr(text)
            assert rouge155.preprocess(ascii_text, config).sentences == steps(ascii_text, config), repr(ascii_text)


def test_rounding_many_is_the_scripts_printf():
    """Half-way points that are exact in binary (k / 64), their neighbours a bit either side, and
    random ratios of counts."""
    from scorelens.core.rouge155_many import _r5_many

    rng = random.Random(9)
    halves = [k / 64 for k in range(65)] + [k / 2**20 for k in range(0, 2**20, 997)]
    values = halves + [np.nextafter(x, 2) for x in halves] + [np.nextafter(x, -1) for x in halves[1:]]
    values += [rng.randint(0, 500) / rng.randint(1, 500) for _ in range(5000)] + [rng.random() for _ in range(5000)]
    values = [v for v in values if 0 <= v <= 1]
    assert _r5_many(np.array(values)).tolist() == [rouge155._r5(v) for v in values]


@pytest.mark.parametrize("impl", ["rouge-1.5.5", "rouge-score"])
def test_a_pooled_cold_start_goes_in_few_large_chunks(monkeypatch, impl):
    """The kernels are faster on larger batches: a run is cut into POOL_CHUNKS_BATCHED chunks (of
    at least POOL_CHUNK segments), and the records are those of scoring in-process."""
    from scorelens.api.options import complete, scoring_config
    from scorelens.core import corpus as corpus_module
    from scorelens.core.corpus import Corpus

    monkeypatch.setattr(corpus_module, "POOL_MINIMUM", 10)
    monkeypatch.setattr(corpus_module, "POOL_CHUNK", 4)
    chunks = []

    def counting_map(function, iterable):
        for chunk in iterable:
            chunks.append(len(chunk[0]))
            yield function(chunk)

    rng = random.Random(4)
    hyps, refs = [summary(rng, 1) for _ in range(100)], [summary(rng, 1) or "a mat" for _ in range(100)]
    refs = [r if rouge155.preprocess(r).tokens else "a mat" for r in refs]
    config = scoring_config(["rouge1", "rougeW", "rougeS", "rougeSU"], complete({"rouge_impl": impl}))
    pooled = Corpus(list(hyps), [list(refs)], config)
    pooled.refresh(pool_map=counting_map)
    assert chunks == [13] * 7 + [9]
    fresh = Corpus(list(hyps), [list(refs)], config)
    assert pooled.scores() == fresh.scores()
    assert [pooled.statistics(i) for i in range(100)] == [fresh.statistics(i) for i in range(100)]


def test_long_texts_with_no_gap_limit(monkeypatch):
    """Rows of grams of texts of 300 tokens, every distance: a few a sort (the cell budget)."""
    monkeypatch.setattr(rouge155_kernel, "_CELLS", 1 << 18)
    rng = random.Random(3)
    peers = [[rng.randrange(50) for _ in range(rng.choice([5, 300]))] for _ in range(12)]
    models = [[rng.randrange(50) for _ in range(rng.choice([5, 300]))] for _ in range(12)]
    hits, unigram_hits = rouge155_kernel.skip_hits(peers, models, np.arange(12), -1, 50)
    for k, (peer, model) in enumerate(zip(peers, models)):
        assert hits[k] == rouge155.clipped_hits(rouge155.skip_bigrams(model, -1), rouge155.skip_bigrams(peer, -1))
        assert hits[k] + unigram_hits[k] == rouge155.clipped_hits(rouge155.skip_bigrams(model, -1, True), rouge155.skip_bigrams(peer, -1, True))
