"""The public API: its results equal the command line's JSON for the same texts, its options are
the command line's and fail by name, and its statistics add up to the whole corpus's scores."""

from __future__ import annotations

import math
import pickle
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorelens
from scorelens.api import OptionError

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
EVERY_METRIC = ["bleu", "chrf", "ter", "rougeL", "rougeLsum", "rouge1", "rouge2", "wer", "cer"]


def lines(relative: str) -> list[str]:
    return (SAMPLES / relative).read_text(encoding="utf-8").rstrip("\n").split("\n")


HYP, REF, REF2, SYS2 = (lines(f"mt/news.{name}") for name in ("hyp.en", "ref.en", "ref2.en", "sys2.en"))

OPTION_SETS = [
    {},
    {"tokenize": "intl", "lowercase": True, "smooth_method": "floor", "smooth_value": 0.2},
    {"chrf_word_order": 2, "rouge_tokenizer": "unicode", "stem": True, "wer_transform": "lowercase"},
    {"ter_normalized": True, "ter_case_sensitive": True, "max_ngram_order": 3, "segmentation": "paragraph"},
]


def cli_options(options: dict) -> list[str]:
    out = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is True:
            out.append(flag)
        else:
            out += [flag, str(value)]
    return out


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_score_equals_the_command_lines_json(cli_json, options):
    got = scorelens.score(HYP, [REF, REF2], metrics=EVERY_METRIC, **options).to_dict()
    assert got == cli_json("score", HYP, [REF, REF2], "-m", ",".join(EVERY_METRIC), *cli_options(options))


def test_sentence_scores_equal_the_command_lines_rows(cli_json):
    got = [s.to_dict() for s in scorelens.sentence_scores(HYP, REF, metrics=EVERY_METRIC)]
    assert got == cli_json("score", HYP, [REF], "-m", ",".join(EVERY_METRIC), "-sl")
    assert len(got) == len(HYP)


def test_perplexity_equals_the_command_line(cli_json):
    arpa = str(SAMPLES / "lm" / "asr.arpa")
    hyp = lines("lm/call.hyp.txt")
    pytest.importorskip("kenlm", reason="perplexity needs the fluency extra (kenlm)")
    got = scorelens.score(hyp, metrics=["ppl"], lm=arpa)
    assert got.to_dict() == cli_json("score", hyp, [], "-m", "ppl", "--lm", arpa)
    assert got.ppl.perplexity > 1 and got.bleu is None
    assert scorelens.score(hyp, None, metrics=["ppl"], lm=arpa).to_dict() == got.to_dict()  # None: no references


def test_numpy_numbers_are_options_as_python_numbers():
    np = pytest.importorskip("numpy")
    options = {"max_ngram_order": 3, "chrf_beta": 1, "smooth_method": "floor", "smooth_value": 0.5}
    expected = scorelens.score(HYP, REF, metrics="bleu,chrf", **options).to_dict()
    as_numpy = {**options, "max_ngram_order": np.int64(3), "chrf_beta": np.int32(1), "smooth_value": np.float32(0.5)}
    assert scorelens.score(HYP, REF, metrics="bleu,chrf", **as_numpy).to_dict() == expected
    with pytest.raises(OptionError, match="^max_ngram_order: expected int"):
        scorelens.score(HYP, REF, max_ngram_order=np.float64(3.0))


def test_paths_may_be_pathlib_paths(tmp_path):
    stopwords = tmp_path / "stop.txt"
    stopwords.write_text("the\na\n", encoding="utf-8")
    options = {"metrics": ["rougeL"], "rouge_impl": "rouge-1.5.5"}
    by_path = scorelens.score(HYP, REF, rouge_stopwords=stopwords, **options).to_dict()
    assert by_path == scorelens.score(HYP, REF, rouge_stopwords=str(stopwords), **options).to_dict()
    pytest.importorskip("kenlm", reason="perplexity needs the fluency extra (kenlm)")
    arpa = SAMPLES / "lm" / "asr.arpa"
    assert scorelens.score(HYP, metrics=["ppl"], lm=arpa).to_dict() == scorelens.score(HYP, metrics=["ppl"], lm=str(arpa)).to_dict()


def test_compare_equals_the_command_line(cli_json):
    got = scorelens.compare(HYP, [SYS2], [REF], metrics=["bleu", "chrf", "wer"], n=200, names=["hyp", "sys"])
    expected = cli_json("compare", HYP, [REF], "-m", "bleu,chrf,wer", "--paired-n", "200", systems=[SYS2])
    # the command line names systems by path
    expected["baseline"], expected["systems"][0]["path"], expected["systems"][1]["path"] = "hyp", "hyp", "sys"
    expected["segments"]["system"] = "sys"
    assert got == expected


@pytest.mark.parametrize(
    ("arguments", "named"),
    [({"seed": -3}, "seed"), ({"seed": "12345"}, "seed"), ({"seed": 1.5}, "seed"), ({"systems": []}, "systems"), ({"systems": SYS2}, "systems"), ({"names": "ab"}, "names")],
)
def test_compare_names_a_bad_seed_or_no_systems(arguments, named):
    """Also one system's texts given where a list of systems is expected, and a string as names."""
    given = {"systems": [SYS2], **arguments}
    with pytest.raises(OptionError) as caught:
        scorelens.compare(HYP, given.pop("systems"), [REF], metrics=["bleu"], n=10, **given)
    assert str(caught.value).startswith(f"{named}: ")


def test_compare_takes_systems_as_any_iterable():
    expected = scorelens.compare(HYP, [SYS2], REF, metrics=["bleu"], n=10)
    assert scorelens.compare(HYP, (s for s in [SYS2]), REF, metrics=["bleu"], n=10) == expected
    assert scorelens.compare(HYP, (tuple(SYS2),), REF, metrics=["bleu"], n=10) == expected


def test_compare_names_the_system_whose_texts_are_wrong():
    with pytest.raises(ValueError, match=r"^systems\[1\] has 2 segments, references\[0\] has 3$"):
        scorelens.compare(HYP[:3], [SYS2[:3], SYS2[:2]], REF[:3], metrics=["bleu"], n=10)
    with pytest.raises(OptionError, match=r"^systems\[0\]: item 1 is NoneType, not str$"):
        scorelens.compare(HYP[:3], [[SYS2[0], None, SYS2[2]]], REF[:3], metrics=["bleu"], n=10)
    with pytest.raises(ValueError, match=r"^baseline has 2 segments"):
        scorelens.compare(HYP[:2], [SYS2[:3]], REF[:3], metrics=["bleu"], n=10)


def test_attributes_read_as_the_peers_do():
    sacrebleu = pytest.importorskip("sacrebleu")
    jiwer = pytest.importorskip("jiwer")
    s = scorelens.score(HYP, [REF], metrics=["bleu", "rougeL", "wer"])
    assert s.bleu.score == pytest.approx(sacrebleu.corpus_bleu(HYP, [REF]).score, abs=1e-9)
    assert s.bleu.signature.startswith("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:scorelens-")
    words = jiwer.process_words(REF, HYP)
    assert (s.wer.substitutions, s.wer.deletions, s.wer.insertions) == (words.substitutions, words.deletions, words.insertions)
    assert s.wer.wer == pytest.approx(words.wer, abs=1e-12)
    assert 0 < s.rougeL.fmeasure < 1 and s.segments == len(HYP)
    assert s.chrf is None and "chrf" not in s.to_dict()


def test_references_as_one_list_or_as_streams():
    one = scorelens.score(HYP, REF).to_dict()
    assert one == scorelens.score(HYP, [REF]).to_dict()
    assert scorelens.score(HYP, [REF, REF2]).bleu.signature.startswith("nrefs:2|")


def test_references_given_per_segment_are_refused_with_the_shape_named():
    # Hugging Face's shape, [[refs of segment 1], [refs of segment 2], ...]
    with pytest.raises(ValueError, match=r"have 2 segments, references\[0\] has 3; references are one list per reference"):
        scorelens.score(HYP[:2], [[REF[0], REF2[0], SYS2[0]], [REF[1], REF2[1], SYS2[1]]])
    with pytest.raises(ValueError, match=r"have 1 segments, references\[0\] has 2; references are one list per reference"):
        scorelens.score(HYP[:1], [[REF[0], REF2[0]]])
    with pytest.raises(ValueError, match=r"^hypotheses have 3 segments, references\[0\] has 2$"):
        scorelens.score(HYP[:3], [REF[:2]])
    with pytest.raises(ValueError, match=r"^hypotheses have 2 segments, references\[1\] has 3$"):  # one stream too long
        scorelens.score(HYP[:2], [REF[:2], REF2[:3]])


def test_a_segment_with_newlines_is_summary_sentences_for_rouge_lsum():
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    hyps = ["the cat sat.\nit was happy.", "a dog ran\naway fast"]
    refs = ["the cat sat down.\nit was very happy.", "a dog ran away\nfast"]
    scorer = rouge_scorer.RougeScorer(["rougeLsum"])
    expected = sum(scorer.score(r, h)["rougeLsum"].fmeasure for h, r in zip(hyps, refs)) / 2
    assert scorelens.score(hyps, refs, metrics=["rougeLsum"]).rougeLsum.fmeasure == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    ("call", "option"),
    [
        (lambda: scorelens.score(HYP, REF, tokenize="13b"), "tokenize"),
        (lambda: scorelens.score(HYP, REF, max_ngram_order=0), "max_ngram_order"),
        (lambda: scorelens.score(HYP, REF, chrf_word_order=12, metrics="chrf"), "chrf_word_order"),
        (lambda: scorelens.score(HYP, REF, chrf_beta=-1, metrics="chrf"), "chrf_beta"),
        (lambda: scorelens.score(HYP, REF, rouge_tokenizer="nltk"), "rouge_tokenizer"),
        (lambda: scorelens.score(HYP, REF, smooth_method="expo"), "smooth_method"),
        (lambda: scorelens.score(HYP, REF, segmentation="sentence"), "segmentation"),
        (lambda: scorelens.score(HYP, REF, wer_transform="upper"), "wer_transform"),
        (lambda: scorelens.score(HYP, REF, lowercase="yes"), "lowercase"),
        (lambda: scorelens.score(HYP, REF, max_ngram_order=True), "max_ngram_order"),
        (lambda: scorelens.score(HYP, REF, tokenise="13a"), "tokenise"),
        (lambda: scorelens.score(HYP, REF, metrics=["bleu", "meteor"]), "metrics"),
        (lambda: scorelens.score(HYP, REF, metrics=None), "metrics"),
        (lambda: scorelens.score(HYP, REF, metrics="bleu", bleu_impl="nltk", bleu_weights=[]), "bleu_weights"),
        (lambda: scorelens.score(HYP, REF, metrics="bleu", bleu_impl="nltk", nltk_smoothing=9), "nltk_smoothing"),
        (lambda: scorelens.score(HYP, REF, metrics="bleu", bleu_impl="nltk", nltk_smoothing=6, bleu_weights="0.5,0.5"), "nltk_smoothing"),
        (lambda: scorelens.Corpus(HYP, REF, metrics=None), "metrics"),
        (lambda: scorelens.score(HYP, REF, metrics="ppl"), "lm"),
        (lambda: scorelens.score(HYP, metrics="ppl", lm=str(SAMPLES / "no-such.arpa")), "lm"),
        (lambda: scorelens.score(HYP, REF, wer_rules="nist"), "wer_rules"),
        (lambda: scorelens.score(HYP, REF, language="english"), "language"),  # not silently no language's tokenizer
        (lambda: scorelens.score(HYP, REF, language="en-"), "language"),
        (lambda: scorelens.score(HYP, None), "references"),
        (lambda: scorelens.score(HYP, REF, jobs=0), "jobs"),
        (lambda: scorelens.score(HYP, "a reference"), "references"),
        (lambda: scorelens.score("a hypothesis", REF), "hypotheses"),
        (lambda: scorelens.score(HYP, []), "references"),
        (lambda: scorelens.score([1, 2], REF[:2]), "hypotheses"),
        (lambda: scorelens.score(None, REF), "hypotheses"),
        (lambda: scorelens.score(HYP, 5), "references"),
        (lambda: scorelens.score(HYP, [REF, None]), "references[1]"),
        (lambda: scorelens.score(HYP[:2], [None, REF[1]]), "references[0]"),  # a missing first reference
        (lambda: scorelens.Corpus(HYP, [REF, None]), "references[1]"),
        (lambda: scorelens.compare(HYP, [SYS2], REF, metrics="bleu,ppl"), "metrics"),
        (lambda: scorelens.compare(HYP, [SYS2], REF, test="t"), "test"),
        (lambda: scorelens.compare(HYP, [SYS2], REF, n=-1), "n"),
        (lambda: scorelens.compare(HYP, [SYS2], REF, n=10**8), "n"),
        (lambda: scorelens.compare(HYP, [SYS2], REF, segments=-1), "segments"),
    ],
)
def test_a_bad_option_is_one_value_error_naming_it(call, option):
    with pytest.raises(OptionError) as caught:
        call()
    assert isinstance(caught.value, ValueError)
    assert caught.value.option == option and str(caught.value).startswith(f"{option}: ")


def test_texts_that_do_not_line_up_are_refused():
    with pytest.raises(ValueError, match=r"hypotheses have 3 segments, references\[1\] has 2"):
        scorelens.score(["a", "b", "c"], [["a", "b", "c"], ["a", "b"]])


# -- statistics ---------------------------------------------------------------------------

WORDS = st.sampled_from("the cat sat on a mat dog ran , . Über 猫 naïve".split())
SEGMENT = st.lists(WORDS, max_size=12).map(" ".join)


def _equal(got: dict, expected: dict) -> None:
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        if isinstance(value, dict):
            _equal(got[key], value)
        elif isinstance(value, float):
            assert math.isclose(got[key], value, rel_tol=1e-9, abs_tol=1e-12), key
        else:
            assert got[key] == value, key


@settings(max_examples=40, deadline=None)
@given(pairs=st.lists(st.tuples(SEGMENT, SEGMENT, SEGMENT), min_size=1, max_size=12), cuts=st.lists(st.integers(0, 12), max_size=3))
def test_statistics_of_parts_add_up_to_the_whole(pairs, cuts):
    hyps, refs, refs2 = (list(side) for side in zip(*pairs))
    bounds = sorted({0, len(pairs), *(min(c, len(pairs)) for c in cuts)})
    parts = [
        scorelens.statistics(hyps[a:b], [refs[a:b], refs2[a:b]], metrics=EVERY_METRIC, chrf_word_order=2)
        for a, b in zip(bounds, bounds[1:])
    ]
    whole = scorelens.score(hyps, [refs, refs2], metrics=EVERY_METRIC, chrf_word_order=2).to_dict()
    _equal(sum(parts).scores().to_dict(), whole)
    _equal(pickle.loads(pickle.dumps(parts[0] + parts[-1])).scores().to_dict(), (parts[0] + parts[-1]).scores().to_dict())


def test_statistics_of_paragraph_parts_are_the_parts_joined_by_a_blank_line():
    a = (["the cat sat", "on the mat"], ["the cat sat", "on a mat"])
    b = (["a dog barked", "loudly today"], ["the dog barked", "loudly today"])
    metrics = ["bleu", "chrf", "ter", "wer"]
    parts = [scorelens.statistics(h, r, metrics=metrics, segmentation="paragraph") for h, r in (a, b)]
    joined = scorelens.score([*a[0], "", *b[0]], [*a[1], "", *b[1]], metrics=metrics, segmentation="paragraph")
    assert sum(parts).scores().to_dict() == joined.to_dict()


def test_statistics_are_small_and_hold_no_texts():
    long = [" ".join(["word"] * 200)] * 50
    stats = scorelens.statistics(long, long, metrics=EVERY_METRIC)
    assert len(pickle.dumps(stats)) < 2_000
    assert "word" not in repr(stats.sums)


def test_perplexity_statistics_add_exactly():
    pytest.importorskip("kenlm", reason="perplexity needs the fluency extra (kenlm)")
    arpa = str(SAMPLES / "lm" / "asr.arpa")
    hyp = lines("lm/call.hyp.txt")
    half = len(hyp) // 2
    parts = [scorelens.statistics(part, metrics=["ppl"], lm=arpa) for part in (hyp[:half], hyp[half:])]
    assert sum(parts).scores().to_dict() == scorelens.score(hyp, metrics=["ppl"], lm=arpa).to_dict()


def test_statistics_of_other_options_do_not_add():
    a = scorelens.statistics(HYP, REF, metrics="bleu")
    with pytest.raises(ValueError, match="do not add"):
        a + scorelens.statistics(HYP, REF, metrics="bleu", lowercase=True)
    with pytest.raises(ValueError, match="do not add"):
        a + scorelens.statistics(HYP, [REF, REF2], metrics="bleu")


# -- Corpus ---------------------------------------------------------------------------------


def test_corpus_edits_equal_a_fresh_score():
    corpus = scorelens.Corpus(HYP, [REF, REF2], metrics=EVERY_METRIC)
    assert corpus.scores().to_dict() == scorelens.score(HYP, [REF, REF2], metrics=EVERY_METRIC).to_dict()
    edited = list(HYP)
    edited[3] = REF[3]
    edited[0] = "an edit of the first line"
    corpus.edit(3, REF[3])
    corpus.edit(0, "an edit of the first line")
    _equal(corpus.scores().to_dict(), scorelens.score(edited, [REF, REF2], metrics=EVERY_METRIC).to_dict())
    assert corpus.segment_scores(3).to_dict() == scorelens.sentence_scores(edited, [REF, REF2], metrics=EVERY_METRIC)[3].to_dict()
    assert corpus.text(0) == "an edit of the first line"
    assert all(f.side != 0 or f.code != "wer.substitution" for f in corpus.findings(3))
    assert any(f.code == "wer.substitution" and f.side == 0 for f in corpus.findings(0))
    for reading in (corpus.findings, corpus.segment_scores, corpus.text, lambda k: corpus.edit(k, "past the end")):
        with pytest.raises(IndexError, match=f"segment {len(HYP)} out of range"):
            reading(len(HYP))


def test_corpus_edit_of_a_segment_with_a_line_break_keeps_the_next_segments():
    # a segment is one string (ROUGE-Lsum's sentences are its lines): editing one that holds a
    # line break replaced the segments after it as well
    metrics = ["bleu", "rougeLsum", "wer"]
    hyps, refs = ["First sentence.\nSecond one.", "c d", "e f"], ["First sentence. Second one.", "c d", "e f"]
    corpus = scorelens.Corpus(hyps, refs, metrics=metrics)
    corpus.edit(0, "x")
    assert [corpus.text(k) for k in range(len(corpus))] == ["x", "c d", "e f"]
    corpus.edit(2, "y\nz")
    assert len(corpus) == 3 and corpus.text(2) == "y\nz"
    _equal(corpus.scores().to_dict(), scorelens.score(["x", "c d", "y\nz"], refs, metrics=metrics).to_dict())


def test_corpus_refuses_references_of_another_length_as_score_does():
    with pytest.raises(ValueError, match=r"hypotheses have 3 segments, references\[1\] has 2"):
        scorelens.Corpus(HYP[:3], [REF[:3], REF2[:2]], metrics="bleu")
    with pytest.raises(ValueError, match=r"hypotheses have 2 segments, references\[0\] has 3"):
        scorelens.score(HYP[:2], REF[:3], metrics="bleu")


def test_corpus_edit_names_a_bad_side_or_text():
    corpus = scorelens.Corpus(HYP[:2], [REF[:2], REF2[:2]], metrics="bleu")
    for reading in (lambda: corpus.edit(0, "x", side=3), lambda: corpus.text(0, side=3), lambda: corpus.text(0, side=-1)):
        with pytest.raises(IndexError, match="side .* out of range"):
            reading()
    with pytest.raises(TypeError, match="text: expected str, not NoneType"):
        corpus.edit(0, None)


def test_corpus_edit_of_a_paragraph_keeps_the_paragraphs_paired():
    texts = ["a b", "c d", "", "e f", "", "g h"]
    corpus = scorelens.Corpus(texts, texts, metrics=["bleu", "wer"], segmentation="paragraph")
    for text in ("x\n\ny", "", "x\n  \ny"):  # two paragraphs, or none, where one was
        with pytest.raises(ValueError, match="^text: a paragraph has no blank line"):
            corpus.edit(0, text)
    assert [corpus.text(k) for k in range(len(corpus))] == ["a b\nc d", "e f", "g h"]
    corpus.edit(1, "x y\nz")
    edited = ["a b", "c d", "", "x y", "z", "", "g h"]
    assert corpus.scores().to_dict() == scorelens.score(edited, texts, metrics=["bleu", "wer"], segmentation="paragraph").to_dict()
