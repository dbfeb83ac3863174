"""WER and CER after a user word map (``--wer-transform lowercase,substitute:map.tsv``) against jiwer 4's
``Compose`` of the same steps with ``SubstituteWords(mapping)`` in the map's place; the map's format."""

from __future__ import annotations

import jiwer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scorelens.core import Corpus, ScoringConfig
from scorelens.core.config import ConfigError
from scorelens.core.scores import signatures
from scorelens.core.wer_steps import SUBSTITUTE, word_map

from test_flavours_wer_steps import JIWER

# spoken forms to written ones, a filler dropped, a phrase to a word: what ASR maps are made of
MAP = "# spoken\twritten\nokay\tok\npercent\t%\nuh\t\num\t\ngoing to\tgonna\none\t1\ntwo\t2\nthree\t3\nmister\tmr\nit's\tit is\n"


def jiwer_transform(steps: str, found, unit: str = "word"):
    """jiwer's Compose of the steps, SubstituteWords of the map's pairs for the substitute step."""
    last = jiwer.ReduceToListOfListOfWords() if unit == "word" else jiwer.ReduceToListOfListOfChars()
    made = [jiwer.SubstituteWords(dict(found.pairs)) if s.startswith(SUBSTITUTE) else JIWER[s]() for s in steps.split(",")]
    return jiwer.Compose([*made, last])


def jiwer_counts(steps: str, found, refs: list[str], hyps: list[str], unit: str = "word"):
    transform = jiwer_transform(steps, found, unit)
    process = jiwer.process_words if unit == "word" else jiwer.process_characters
    o = process(refs, hyps, reference_transform=transform, hypothesis_transform=transform)
    return o.hits, o.substitutions, o.deletions, o.insertions


def ours(hyps: list[str], refs: list[str], steps: str, found, **options):
    config = ScoringConfig(metrics=frozenset({"wer", "cer"}), wer_transform=steps, wer_word_maps=(found,), **options)
    c = Corpus("\n".join(hyps) + "\n", ["\n".join(refs) + "\n"], config)
    t = c.totals()
    return c, tuple((x.hits, x.substitutions, x.deletions, x.insertions) for x in (t.wer, t.cer))


def scored(steps: str, found, refs: list[str], hyps: list[str]) -> tuple[list[str], list[str]]:
    keep = [i for i in range(len(refs)) if jiwer_counts(steps, found, [refs[i]], [refs[i]])[0]]  # jiwer refuses an empty reference
    return [refs[i] for i in keep], [hyps[i] for i in keep]


LISTS = [
    "lowercase,substitute:map.tsv",
    "lowercase,substitute:map.tsv,remove-punctuation,remove-multiple-spaces,strip",
    "substitute:map.tsv,lowercase,expand-common-english-contractions",
]


def test_hand_cases_are_jiwers():
    found = word_map(MAP, "map.tsv")
    assert found.pairs[0] == ("okay", "ok") and ("uh", "") in found.pairs and len(found.pairs) == 10
    steps = LISTS[1]
    hyps = ["Okay, it's one percent uh", "going to the store", "mister smith two three", "okayish one-two"]
    refs = ["ok it is 1 %", "gonna the store", "mr smith 2 3", "okayish 1 2"]
    _, (words, chars) = ours(hyps, refs, steps, found)
    assert words == jiwer_counts(steps, found, refs, hyps)
    assert chars == jiwer_counts(steps, found, refs, hyps, "char")
    # whole words only, in the file's order: "okayish" stays, "one-two" is two words to \b
    assert jiwer_transform(steps, found)(["okayish one-two"]) == [["okayish", "12"]]
    assert words == (12, 1, 1, 0)  # "okayish 12" against "okayish 1 2"


@pytest.mark.parametrize("steps", LISTS)
def test_ted(shared, steps):
    found = word_map(MAP, "map.tsv")
    refs = shared("compare-mt", "ted.ref.detok.eng").read_text(encoding="utf-8").split("\n")[:-1][:600]
    hyps = shared("compare-mt", "ted.sys1.detok.eng").read_text(encoding="utf-8").split("\n")[:-1][:600]
    refs, hyps = scored(steps, found, refs, hyps)
    _, (words, chars) = ours(hyps, refs, steps, found)
    assert words == jiwer_counts(steps, found, refs, hyps)
    assert chars == jiwer_counts(steps, found, refs, hyps, "char")
    # the map changes something on these texts, so the parity above is not the steps' alone
    assert words != ours(hyps, refs, steps.replace(",substitute:map.tsv", "").replace("substitute:map.tsv,", ""), found)[1][0]


def test_earnings21_speaker_turns(shared):
    steps = LISTS[1]
    found = word_map(MAP, "map.tsv")
    for call in ("4320211", "4344338"):
        refs = shared("earnings21", "reference", f"{call}.txt").read_text(encoding="utf-8").splitlines()
        hyps = shared("earnings21", "google", f"{call}.txt").read_text(encoding="utf-8").splitlines()
        refs, hyps = scored(steps, found, refs[: len(hyps)], hyps[: len(refs)])
        _, (words, _chars) = ours(hyps, refs, steps, found)
        assert words == jiwer_counts(steps, found, refs, hyps)


def test_findings_land_on_the_original_words():
    found = word_map("okay\tok\ngoing to\tgonna\n", "map.tsv")
    # "ok" on "Okay", "gonna" on both words of "going to"
    c, _ = ours(["Okay we're going to go"], ["fine we're wanna go"], "lowercase,substitute:map.tsv", found)
    got = sorted((f.code, f.text) for f in c.findings(0) if f.code.startswith("wer."))
    assert got == [("wer.substitution", "Okay"), ("wer.substitution", "going to")]
    for f in c.findings(0):
        assert f.text == c.text(f.side, f.segment)[f.start : f.end]


def test_signature_names_the_map_and_its_digest():
    one, other = word_map("okay\tok\n", "maps/a.tsv"), word_map("okay\tfine\n", "maps/a.tsv")
    steps = "lowercase,substitute:maps/a.tsv"
    first = signatures(ScoringConfig(metrics=frozenset({"wer"}), wer_transform=steps, wer_word_maps=(one,)), 1)["wer"].split("|")[2]
    second = signatures(ScoringConfig(metrics=frozenset({"wer"}), wer_transform=steps, wer_word_maps=(other,)), 1)["wer"].split("|")[2]
    assert first == f"transform:lowercase+substitute:a.tsv#{one.digest[:8]}" and first != second
    assert one != other and one == word_map("okay\tok\n", "maps/a.tsv") and len({one, other}) == 2
    with pytest.raises(ConfigError, match="word map maps/a.tsv .*not read"):
        ScoringConfig(metrics=frozenset({"wer"}), wer_transform=steps)
    with pytest.raises(ConfigError, match="names no word map"):
        ScoringConfig(metrics=frozenset({"wer"}), wer_transform="lowercase,substitute:")


def test_the_format():
    # CRLF line ends, a byte-order mark, comments and blank lines; an empty replacement deletes
    found = word_map("\ufeff# comment\r\nokay\tok\r\n\r\nuh\t\r\ngoing to\tgonna", "m.tsv")
    assert found.pairs == (("okay", "ok"), ("uh", ""), ("going to", "gonna"))
    with pytest.raises(ValueError) as bad:
        word_map("okay\tok\nno tab here\n\tempty\nx\ta\\1\nokay\tfine\na\tb\tc\n", "bad.tsv")
    message = str(bad.value)
    for line, reason in ((2, "one tab"), (3, "empty"), (4, "backslash"), (5, "already replaced on line 1"), (6, "one tab")):
        assert f"bad.tsv:{line}: " in message and reason in message, (line, message)
    assert "bad.tsv:1:" not in message


WORDS = ["okay", "Okay", "uh", "going", "to", "one", "it's", "percent", "okayish", "mister", "a", "b", "—", "x-one"]
texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=10).map(" ".join)
pairs_ = st.lists(st.tuples(st.sampled_from(WORDS + ["going to", "it"]), st.sampled_from(["", "ok", "a b", "gonna", "1", "mr."])), max_size=5)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(texts, texts), min_size=1, max_size=4), pairs_, st.sampled_from(LISTS))
def test_random(pairs, mapping, steps):
    mapping = list(dict(mapping).items())
    found = word_map("".join(f"{a}\t{b}\n" for a, b in mapping), "map.tsv")
    refs, hyps = scored(steps, found, [r for r, _ in pairs], [h for _, h in pairs])
    pairs = [(r, h) for r, h in zip(refs, hyps) if r.strip() == r and h.strip() == h]
    if not pairs:
        return
    refs, hyps = [r for r, _ in pairs], [h for _, h in pairs]
    _, (words, chars) = ours(hyps, refs, steps, found)
    assert words == jiwer_counts(steps, found, refs, hyps)
    assert chars == jiwer_counts(steps, found, refs, hyps, "char")
