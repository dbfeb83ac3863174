"""``scorelens.agree``: every directed pair of annotators equals ``scorelens.score`` of that pair and
the peers' (jiwer, sacreBLEU, rouge-score) on real data; segments ranked by the documented rule;
bad input fails by name; ``to_dict()`` is the command line's JSON."""

from __future__ import annotations

import json
from itertools import permutations
from pathlib import Path

import jiwer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score.rouge_scorer import RougeScorer
from sacrebleu.metrics import BLEU, CHRF, TER

import scorelens
from scorelens.api import OptionError
from scorelens.cli import main

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"
CALL = [(ROOT / "samples" / "agree" / f"call.ann{k}.txt").read_text(encoding="utf-8").rstrip("\n").split("\n") for k in (1, 2, 3)]
EVERY_METRIC = ["wer", "cer", "bleu", "chrf", "ter", "rougeL", "rougeLsum", "rouge1", "rouge2"]


def shared(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared test data not found at {path} (expected ../shared/data next to the repository)")
    return path


def ted() -> list[list[str]]:
    """compare-mt's TED reference and two systems, as three annotators of the same talks."""
    return [shared("compare-mt", f"ted.{name}.eng").read_text(encoding="utf-8").split("\n")[:-1] for name in ("ref", "sys1", "sys2")]


def figure(scores: scorelens.Scores, metric: str) -> float:
    """The figure a matrix holds for a metric, from ``score``'s result."""
    f = getattr(scores, metric)
    return f.score if metric in ("bleu", "chrf", "ter") else f.rate if metric in ("wer", "cer") else f.fmeasure


def assert_equals_score(texts: list[list[str]], metrics: list[str], **options) -> scorelens.Agreement:
    result = scorelens.agree(texts, metrics, **options)
    for metric in metrics:
        matrix = result.matrix(metric)
        assert [matrix[i][i] for i in range(len(texts))] == [None] * len(texts)
        for i, j in permutations(range(len(texts)), 2):
            expected = figure(scorelens.score(texts[j], texts[i], [metric], **options), metric)
            assert matrix[i][j] == expected, (metric, i, j)
    return result


def test_every_pair_equals_jiwer_and_sacrebleu_on_ted():
    texts = ted()
    result = scorelens.agree(texts, ["wer", "cer", "bleu", "chrf"])
    # sacreBLEU's TER takes 13 s a direction on the whole of it
    ter = scorelens.agree([t[:200] for t in texts], ["ter"])
    for i, j in permutations(range(3), 2):
        ref, hyp = texts[i], texts[j]
        assert result.matrix("wer")[i][j] == jiwer.wer(ref, hyp)
        assert result.matrix("cer")[i][j] == jiwer.cer(ref, hyp)
        assert result.matrix("bleu")[i][j] == pytest.approx(BLEU().corpus_score(hyp, [ref]).score, abs=1e-9)
        assert result.matrix("chrf")[i][j] == pytest.approx(CHRF().corpus_score(hyp, [ref]).score, abs=1e-9)
        assert ter.matrix("ter")[i][j] == pytest.approx(TER().corpus_score(hyp[:200], [ref[:200]]).score, abs=1e-9)
    # one alignment, two denominators: a pair's two cells are not one number
    assert result.matrix("wer")[0][1] != result.matrix("wer")[1][0]


def test_rouge_once_per_pair_equals_rouge_score_both_ways():
    texts = [t[:300] for t in ted()]
    result = scorelens.agree(texts, ["rougeL", "rouge2"])
    scorer = RougeScorer(["rougeL", "rouge2"])
    for i, j in permutations(range(3), 2):
        pairs = [scorer.score(r, h) for r, h in zip(texts[i], texts[j])]
        for key in ("rougeL", "rouge2"):
            assert result.matrix(key)[i][j] == pytest.approx(sum(p[key].fmeasure for p in pairs) / len(pairs), abs=1e-12)


def test_every_metric_equals_score_on_ted():
    assert_equals_score([t[:400] for t in ted()], EVERY_METRIC)


@pytest.mark.parametrize(
    "options",
    [
        {"wer_transform": "lowercase", "tokenize": "intl", "chrf_word_order": 2},
        {"wer_transform": "whisper-basic", "ter_normalized": True, "lowercase": True},
        {"wer_rules": "sclite", "segmentation": "paragraph"},
    ],
    ids=lambda o: ",".join(o),
)
def test_options_as_score_takes_them(options):
    assert_equals_score(CALL, ["wer", "cer", "bleu", "chrf", "ter"], **options)


def test_earnings21_transcripts_as_annotators():
    """Three transcripts of the same earnings calls (the human reference, Amazon's and Google's ASR),
    each call's normalised text one line: every pair's WER is jiwer's."""
    calls = ["4320211", "4330115", "4341191", "4344338", "4344866"]
    texts = [[shared("earnings21", side, f"{call}.norm.txt").read_text(encoding="utf-8").strip() for call in calls] for side in ("reference", "amazon", "google")]
    result = scorelens.agree(texts, ["wer"], top=5)
    for i, j in permutations(range(3), 2):
        assert result.matrix("wer")[i][j] == jiwer.wer(texts[i], texts[j])
    assert len(result.disagreements) == 5


def test_earnings21_turns_as_whole_documents():
    """The calls' transcripts one speaker turn a line, whose line counts differ: scored as whole documents."""
    texts = [shared("earnings21", side, "4344338.txt").read_text(encoding="utf-8").split("\n")[:-1] for side in ("reference", "amazon", "google")]
    assert len({len(t) for t in texts}) > 1
    result = assert_equals_score(texts, ["wer", "chrf"], segmentation="document")
    assert result.segments == 1


WORDS = st.sampled_from(["the", "The", "cat", "sat", "a", "mat", "naïve", "猫", "x\ty", "", " "])
SEGMENT = st.lists(WORDS, max_size=10).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.tuples(SEGMENT, SEGMENT, SEGMENT), min_size=1, max_size=10), lowercase=st.booleans())
def test_one_alignment_gives_both_directions_exactly(rows, lowercase):
    """Empty segments (jiwer counts insertions against nothing), tabs inside words, double spaces."""
    texts = [list(column) for column in zip(*rows)]
    assert_equals_score(texts, ["wer", "cer"], wer_transform="lowercase" if lowercase else "default")


def test_segments_ranked_by_the_mean_distance_of_the_first_metric():
    texts = [
        ["same words here", "one two three four", "a b c d", "x y", "same words here"],
        ["same words here", "one two three five", "a b c d", "q r", "same words here"],
        ["same words here", "one two three four", "e f g h", "x y", "same  words here"],
    ]
    result = scorelens.agree(texts, top=10)
    # segment 3: WER 1 both ways between the second annotator and each other one, 0 between those two
    # segment 2: WER 1 both ways between the third and each other; segment 1: 0.25 in four directions
    assert [(d.segment, d.disagreement) for d in result.disagreements] == [(2, 4 / 6), (3, 4 / 6), (1, 1 / 6)]
    assert result.disagreements[0].texts == ["a b c d", "a b c d", "e f g h"]
    assert result.disagreements[0].lines == [3, 3, 3] and result.disagreements[0].id is None
    # jiwer's transform removes the double space: no disagreement where the words are the same
    assert scorelens.agree(texts, top=1).disagreements == result.disagreements[:1]
    assert scorelens.agree(texts, top=0).disagreements == []


def test_a_similarity_ranks_by_its_distance_from_the_top():
    result = scorelens.agree(CALL, ["chrf", "wer"], top=3)
    rows = [scorelens.sentence_scores(CALL[j], CALL[i], ["chrf"]) for i, j in permutations(range(3), 2)]
    mean = [sum(100 - r[k].chrf.score for r in rows) / 6 for k in range(len(CALL[0]))]
    ranked = sorted(range(len(mean)), key=lambda k: -mean[k])[:3]
    assert [d.segment for d in result.disagreements] == ranked
    assert [d.disagreement for d in result.disagreements] == pytest.approx([mean[k] for k in ranked], abs=1e-9)
    assert result.to_dict()["ranked_by"] == "chrf"


@pytest.mark.parametrize("metric", ["bleu", "chrf", "rougeL", "rouge1", "wer", "ter"])
def test_annotators_who_wrote_the_same_do_not_disagree_whatever_the_metric_gives(metric):
    """Sentence BLEU and chrF of two empty texts are 0, and rouge-score's F of two Chinese ones
    too (its tokenizer drops them): no disagreement where the texts are equal."""
    texts = [["the cat sat", "", "東京", "yes"], ["the cat sat", "", "東京", "no"], ["the dog sat", "", "東京", "yes"]]
    assert {d.segment for d in scorelens.agree(texts, [metric]).disagreements} == {0, 3}


def test_a_segment_two_annotators_left_empty_disagrees_only_with_the_third():
    three = [["", "a b"], ["", "a b"], ["x", "a b"]]
    [d] = scorelens.agree(three, ["bleu"]).disagreements
    pairs = [(i, j) for i, j in permutations(range(3), 2) if 2 in (i, j)]  # the two others agree
    differing = [100 - scorelens.sentence_scores(three[j], three[i], ["bleu"])[0].bleu.score for i, j in pairs]
    assert (d.segment, d.disagreement) == (0, pytest.approx(sum(differing) / 6, abs=1e-9))


def test_to_dict_is_the_command_lines_json(tmp_path, capsys):
    paths = []
    for k, lines in enumerate(CALL, 1):
        path = tmp_path / f"ann{k}.txt"
        path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        paths.append(str(path))
    assert main(["agree", *paths, "-m", "wer,chrf,bleu", "--segments", "4", "--json", "-j", "1"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert scorelens.agree(CALL, "wer,chrf,bleu", names=paths, top=4).to_dict() == printed
    assert list(printed) == ["annotators", "segments", "wer", "chrf", "bleu", "signatures", "ranked_by", "disagreements"]


@pytest.mark.parametrize(
    "call, option",
    [
        (lambda: scorelens.agree([CALL[0]]), "annotators"),
        (lambda: scorelens.agree(CALL, "wer,ppl"), "metrics"),
        (lambda: scorelens.agree(CALL, "rougeW", rouge_impl="rouge-1.5.5"), "metrics"),
        (lambda: scorelens.agree(CALL, "bleu", bleu_impl="nltk"), "bleu_impl"),
        (lambda: scorelens.agree(CALL, tokenize="13b"), "tokenize"),
        (lambda: scorelens.agree(CALL, colour="red"), "colour"),
        (lambda: scorelens.agree(CALL, names=["a", "b"]), "names"),
        (lambda: scorelens.agree(CALL, top=-1), "top"),
        (lambda: scorelens.agree(CALL, jobs=0), "jobs"),
        (lambda: scorelens.agree([CALL[0], [1] * len(CALL[0])]), "annotators[1]"),
    ],
)
def test_a_bad_option_is_one_value_error_naming_it(call, option):
    with pytest.raises(OptionError) as caught:
        call()
    assert caught.value.option == option


def test_annotators_that_do_not_line_up_are_refused():
    with pytest.raises(ValueError, match=r"annotators\[2\] has 21 segments, annotators\[0\] has 22"):
        scorelens.agree([CALL[0], CALL[1], CALL[2][:-1]])
