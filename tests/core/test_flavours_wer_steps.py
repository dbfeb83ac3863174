"""WER and CER after a comma list of jiwer's named steps (``--wer-transform lowercase,remove-punctuation``)
against jiwer 4's ``Compose`` of the transforms of those names (then ``ReduceToListOfListOfWords``)."""

from __future__ import annotations

import jiwer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scorelens.core import Corpus, ScoringConfig
from scorelens.core.config import ConfigError
from scorelens.core.scores import signatures
from scorelens.core.wer_steps import STEPS

JIWER = {
    "lowercase": jiwer.ToLowerCase,
    "remove-punctuation": jiwer.RemovePunctuation,
    "remove-multiple-spaces": jiwer.RemoveMultipleSpaces,
    "strip": jiwer.Strip,
    "expand-common-english-contractions": jiwer.ExpandCommonEnglishContractions,
    "remove-kaldi-non-words": jiwer.RemoveKaldiNonWords,
}
LISTS = [
    "lowercase,remove-punctuation",
    "remove-punctuation,lowercase,remove-multiple-spaces,strip",
    "expand-common-english-contractions,remove-kaldi-non-words,remove-multiple-spaces,strip",
    "remove-kaldi-non-words",
    ",".join(STEPS),
]


def jiwer_counts(steps: str, refs: list[str], hyps: list[str], unit: str = "word"):
    last = jiwer.ReduceToListOfListOfWords() if unit == "word" else jiwer.ReduceToListOfListOfChars()
    transform = jiwer.Compose([JIWER[s]() for s in steps.split(",")] + [last])
    process = jiwer.process_words if unit == "word" else jiwer.process_characters
    o = process(refs, hyps, reference_transform=transform, hypothesis_transform=transform)
    return o.hits, o.substitutions, o.deletions, o.insertions


def ours(hyps: list[str], refs: list[str], steps: str, **options):
    c = Corpus("\n".join(hyps) + "\n", ["\n".join(refs) + "\n"], ScoringConfig(metrics=frozenset({"wer", "cer"}), wer_transform=steps, **options))
    t = c.totals()
    return c, tuple((x.hits, x.substitutions, x.deletions, x.insertions) for x in (t.wer, t.cer))


def test_steps_are_jiwers_transforms_of_those_names():
    assert set(STEPS) == set(JIWER)


@pytest.mark.parametrize("steps", LISTS)
def test_ted(shared, steps):
    refs = shared("compare-mt", "ted.ref.detok.eng").read_text(encoding="utf-8").split("\n")[:-1][:600]
    hyps = shared("compare-mt", "ted.sys1.detok.eng").read_text(encoding="utf-8").split("\n")[:-1][:600]
    keep = [i for i in range(len(refs)) if jiwer_counts(steps, [refs[i]], [refs[i]])[0]]  # jiwer refuses an empty reference
    refs, hyps = [refs[i] for i in keep], [hyps[i] for i in keep]
    _, (words, chars) = ours(hyps, refs, steps)
    assert words == jiwer_counts(steps, refs, hyps)
    assert chars == jiwer_counts(steps, refs, hyps, "char")


def test_earnings21_calls_as_documents(shared):
    """Whole calls, one speaker turn a line: the steps, then jiwer's ReduceToSingleSentence."""
    steps = "lowercase,remove-punctuation,remove-multiple-spaces,strip"
    transform = jiwer.Compose([JIWER[s]() for s in steps.split(",")] + [jiwer.ReduceToSingleSentence(), jiwer.ReduceToListOfListOfWords()])
    for call in ("4320211", "4344338"):
        ref = shared("earnings21", "reference", f"{call}.txt").read_text(encoding="utf-8")
        hyp = shared("earnings21", "google", f"{call}.txt").read_text(encoding="utf-8")
        c = Corpus(hyp, [ref], ScoringConfig(metrics=frozenset({"wer"}), wer_transform=steps, segmentation="document"))
        o = jiwer.process_words(ref.splitlines(), hyp.splitlines(), reference_transform=transform, hypothesis_transform=transform)
        t = c.totals().wer
        assert (t.hits, t.substitutions, t.deletions, t.insertions) == (o.hits, o.substitutions, o.deletions, o.insertions)
        assert "transform:lowercase+remove-punctuation+remove-multiple-spaces+strip+contiguous" in c.scores().signatures["wer"]


def test_findings_land_on_the_original_words():
    c, _ = ours(["Hello, wrld! We're  <unk> here."], ["hello world we are here"], "lowercase,expand-common-english-contractions,remove-kaldi-non-words,remove-punctuation")
    found = {(f.code, f.text) for f in c.findings(0) if f.code.startswith("wer.")}
    assert found == {("wer.substitution", "wrld!")}
    for f in c.findings(0):
        assert f.text == c.text(f.side, f.segment)[f.start : f.end]


def test_signature_and_bad_names():
    config = ScoringConfig(metrics=frozenset({"wer"}), wer_transform="lowercase,remove-punctuation")
    assert signatures(config, 1)["wer"].split("|")[2] == "transform:lowercase+remove-punctuation"
    with pytest.raises(ConfigError, match="unknown WER transform step 'remove-punct'"):
        ScoringConfig(metrics=frozenset({"wer"}), wer_transform="lowercase,remove-punct")
    with pytest.raises(ConfigError, match="jiwer's rules"):
        ScoringConfig(metrics=frozenset({"wer"}), wer_transform="strip,lowercase", wer_rules="sclite")


PIECES = ["Hello,", "world!", "we're", "won't", "<unk>", "[laugh]", "  ", "\t", "Ça", "va?", "—", "it's", "a", "A", "'s", "can't"]
texts = st.lists(st.sampled_from(PIECES), min_size=1, max_size=10).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(texts, texts), min_size=1, max_size=4), st.lists(st.sampled_from(list(STEPS)), min_size=1, max_size=5))
def test_random(pairs, steps):
    steps = ",".join(steps) if steps != ["lowercase"] else "lowercase,lowercase"  # alone, the older transform
    pairs = [(r, h) for r, h in pairs if jiwer_counts(steps, [r], [r])[0] and r.strip() == r and h.strip() == h]
    if not pairs:
        return
    refs, hyps = [r for r, _ in pairs], [h for _, h in pairs]
    _, (words, chars) = ours(hyps, refs, steps)
    assert words == jiwer_counts(steps, refs, hyps)
    assert chars == jiwer_counts(steps, refs, hyps, "char")
