"""core/wer_sclite: WER as NIST sclite aligns it.

Each expectation below is sclite's own (SCTK 2.10 built from commit 9688a26, run on the same
texts); the figures from the shared test files are checked in tests/formats/test_sclite.py.
With a sclite binary on hand (``SCLITE=/path/to/sclite``, or ``sclite`` on PATH) random texts
are checked against it too.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess

import pytest

from scorelens.core.config import ScoringConfig
from scorelens.core.segment import Analyser
from scorelens.core.wer import ErrorCounts
from scorelens.core.wer_sclite import align, counts, fold, tally, words


def c(hits, subs, dels, ins):
    return ErrorCounts(hits, subs, dels, ins)


def test_plain_words_and_sclite_costs():
    assert counts("a b c", "a b c") == c(3, 0, 0, 0)
    assert counts("a b c", "a x c") == c(2, 1, 0, 0)
    assert counts("a b c", "a c") == c(2, 0, 1, 0)
    assert counts("", "a b") == c(0, 0, 0, 2)
    assert counts("a b", "") == c(0, 0, 2, 0)


def test_ties_break_as_sclite():
    # 3 substitutions cost what 2 deletions + 2 insertions do (12): sclite keeps the substitutions
    # when they are no dearer, and deletes the first of equal candidates (od2 cases of tests.ref)
    assert counts("(a) (c) b d e", "s s s") == c(0, 3, 2, 0)
    assert counts("a c (b) (d) e", "s s s") == c(0, 3, 2, 0)
    assert [s.tag for s in align("(a) (c) b d e", "s s s").steps] == ["delete", "delete", "replace", "replace", "replace"]


def test_alternations():
    assert counts("a b { c d / c / e } e f g", "a b c d e f g") == c(7, 0, 0, 0)
    assert counts("a b { c / e / c d } f g", "a b c d e f g") == c(6, 0, 0, 1)
    assert counts("a { c / @ } d", "a d") == c(2, 0, 0, 0)  # @: the empty alternative, no word
    assert counts("a { c / @ } d", "a c d") == c(3, 0, 0, 0)
    assert counts("a { c / @ } d", "a c i d") == c(3, 0, 0, 1)
    # nested alternations, and alternations in the hypothesis too
    ref = "a { b / cd / { g h i / gh i / g ih} bd } { e { i n / th } f / ef }"
    assert counts(ref, "a gh i bd e i th f") == c(7, 0, 0, 1)
    assert counts(ref, "a gh i bd e i n th f") == c(8, 0, 0, 1)
    assert counts("a { b / cd } { e f / ef }", "a {bc / b } { e d / ef}") == c(3, 0, 0, 0)
    # empty alternatives are skipped, as sclite skips them
    assert counts("{ a / / b }", "b") == c(1, 0, 0, 0)


def test_optional_words_are_plain_words_by_default():
    # sclite without -D: "(c)" is a word like any other
    assert counts("b (c) d", "b c e") == c(1, 2, 0, 0)
    assert counts("b (c) d", "b e") == c(1, 1, 1, 0)
    # with -D: deleting it is correct, and a hypothesis "c" matches it
    assert align("b (c) d", "b e", opt_del=True).counts == c(2, 1, 0, 0)
    assert align("b (c) d", "b c d", opt_del=True).counts == c(3, 0, 0, 0)


def test_tags_and_trailing_star():
    assert counts("b;reftag1 c;;reftag2 aa\\;a", "b;x c aa\\;a;y") == c(3, 0, 0, 0)
    assert words("aa\\;a b;t1;t2 go*") == ["aa;a", "b", "go"]
    assert words("*") == ["*"]


def test_case_folding_is_sclites_not_unicodes():
    assert counts("Fund A", "fund a") == c(2, 0, 0, 0)
    # sclite's default folds ASCII only: É and é differ, as do Cyrillic cases
    assert counts("École", "école") == c(0, 1, 0, 0)
    assert counts("Привіт", "привіт") == c(0, 1, 0, 0)
    assert counts("Привіт", "привіт", case="ukrainian") == c(1, 0, 0, 0)
    assert counts("ĐƯỜNG", "đường", case="babel_vietnamese") == c(1, 0, 0, 0)
    # Turkish: I folds to dotless ı, İ to i
    assert fold("IİÇ", "babel_turkish") == "ıiç"
    assert counts("IŞIK", "ışık", case="babel_turkish") == c(1, 0, 0, 0)
    assert counts("IŞIK", "işik", case="babel_turkish") == c(0, 1, 0, 0)
    assert counts("École", "école", case="unicode") == c(1, 0, 0, 0)
    assert counts("Fund", "fund", case="none") == c(0, 1, 0, 0)
    with pytest.raises(ValueError, match="unknown case rule"):
        fold("a", "klingon")


def test_steps_mark_the_words_in_each_text():
    ref, hyp = "the { cat / dog } sat;t", "a dog  sat here"
    steps = align(ref, hyp).steps
    seen = [(s.tag, s.ref and ref[slice(*s.ref)], s.hyp and hyp[slice(*s.hyp)]) for s in steps]
    assert seen == [("replace", "the", "a"), ("equal", "dog", "dog"), ("equal", "sat;t", "sat"), ("insert", None, "here")]
    assert tally(ref, hyp) == (2, 1, 0, 1)


def test_config_flavour():
    assert ScoringConfig().wer_rules == "jiwer"
    with pytest.raises(ValueError, match="unknown WER rules"):
        ScoringConfig(wer_rules="nist")
    hyp, ref = "a B c d", "a { b / x } c (d)"
    jiwer = Analyser(ScoringConfig(metrics=frozenset({"wer"})))
    sclite = Analyser(ScoringConfig(metrics=frozenset({"wer"}), wer_rules="sclite"))
    assert jiwer.records([[hyp], [ref]])[0].wer != (3, 1, 0, 0)
    record = sclite.records([[hyp], [ref]])[0]
    assert record.wer == (3, 1, 0, 0) and record.differs
    assert not sclite.records([["A c"], ["a { b / @ } c"]])[0].differs


# --- against a sclite binary, when there is one ---------------------------------------------

def _sclite() -> str:
    path = os.environ.get("SCLITE") or shutil.which("sclite")
    if not path:
        pytest.skip("no sclite binary (set SCLITE=/path/to/sclite to check random texts against it)")
    return path


def _random_text(rng: random.Random, depth: int = 0) -> str:
    vocab = ["a", "b", "c", "A", "d", "(a)", "(b)", "e", "b;t"]
    out = []
    for _ in range(rng.randint(0, 6)):
        if depth < 2 and rng.random() < 0.15:
            alts = [_random_text(rng, depth + 1) or "@" for _ in range(rng.randint(2, 3))]
            if rng.random() < 0.3:
                alts.append("@")
            out.append("{ " + " / ".join(alts) + " }")
        else:
            out.append(rng.choice(vocab))
    return " ".join(out)


def test_random_texts_against_sclite(tmp_path):
    binary = _sclite()
    rng = random.Random(20240601)
    pairs = [(_random_text(rng), " ".join(rng.choice(["a", "b", "c", "d", "e", "B"]) for _ in range(rng.randint(0, 7)))) for _ in range(400)]
    (tmp_path / "r.trn").write_text("".join(f"{r} (s-{i})\n" for i, (r, _) in enumerate(pairs)))
    (tmp_path / "h.trn").write_text("".join(f"{h} (s-{i})\n" for i, (_, h) in enumerate(pairs)))
    subprocess.run([binary, "-r", "r.trn", "trn", "-h", "h.trn", "trn", "-i", "spu_id", "-o", "pra", "-f", "0", "-n", "out"],
                   cwd=tmp_path, check=True, capture_output=True)
    expected = {}
    ident = None
    for line in (tmp_path / "out.pra").read_text().splitlines():
        if line.startswith("id: "):
            ident = line[4:].strip()
        elif m := re.match(r"Scores: \(#C #S #D #I\) (\d+) (\d+) (\d+) (\d+)", line):
            expected[ident] = tuple(map(int, m.groups()))
    assert len(expected) == len(pairs)
    wrong = [(r, h, tally(r, h), expected[f"(s-{i})"]) for i, (r, h) in enumerate(pairs) if tally(r, h) != expected[f"(s-{i})"]]
    assert not wrong
