"""Finding a hypothesis's source by naming convention, and its language pair from the names."""

from __future__ import annotations

from pathlib import PurePosixPath

from scorelens.pairing_rules import language_pair, pick_source, source_rules

P = PurePosixPath
LANGUAGES = {"en", "de", "ja", "fr"}


def listing(names):
    return lambda folder: names


def test_a_source_in_another_language_beside_the_hypothesis():
    names = ["kyoto-test.hyp.ja", "kyoto-test.ref.ja", "kyoto-test.src.en", "other.src.en"]
    assert pick_source(P("d/kyoto-test.hyp.ja"), listing(names)) == P("d/kyoto-test.src.en")


def test_the_hypothesis_s_own_extension_first_then_by_name():
    names = ["n.src.fr", "n.src.xlf", "n.src.en"]
    assert pick_source(P("n.hyp.xlf"), listing(names)) == P("n.src.xlf")
    assert pick_source(P("n.hyp.de"), listing(names)) == P("n.src.en")


def test_a_system_finds_the_source_too():
    assert pick_source(P("d/news.sys2.de"), listing(["news.src.en"])) == P("d/news.src.en")


def test_src_folder_beside_hyp_folder_keeps_subfolders():
    seen = []

    def names(folder):
        seen.append(folder)
        return ["a.txt"] if folder == P("w/src/part") else []

    assert pick_source(P("w/hyp/part/a.txt"), names) == P("w/src/part/a.txt")
    assert P("w/src/part") in seen


def test_no_convention_no_source():
    assert source_rules(P("notes.txt")) == []
    assert pick_source(P("news.hyp.de"), listing(["news.ref.de", "news.src"])) is None
    # NAME.src.EXT must be that NAME, not a longer one
    assert pick_source(P("news.hyp.de"), listing(["news2.src.en", "xnews.src.en"])) is None


def test_language_pair_from_extensions_only_when_both_are_languages():
    assert language_pair(P("a.src.en"), P("a.hyp.ja"), LANGUAGES) == ("en", "ja")
    assert language_pair(P("a.src.EN"), P("a.hyp.De"), LANGUAGES) == ("en", "de")
    assert language_pair(P("a.src.txt"), P("a.hyp.txt"), LANGUAGES) is None
    assert language_pair(P("a.src.en"), P("a.hyp.txt"), LANGUAGES) is None
    assert language_pair(P("a.src.en"), P("a.hyp.en"), LANGUAGES) is None  # same language: not a pair
