"""Finding references by naming convention: the pure rules, the file-system wrapper, and the CLI without -r."""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

import pytest

from cli_support import sample
from scorelens.pairing_rules import NoReferences, find_references, pick, rules

P = PurePosixPath


# -- the pure part --------------------------------------------------------------------------


def test_hyp_ref_names_with_numbered_extras_in_order():
    (rule,) = rules(P("data/news.hyp.en"))
    assert rule.directory == P("data")
    assert rule.expected == "news.ref.en"
    names = ["news.ref10.en", "news.ref2.en", "news.hyp.en", "news.ref.en", "news.ref1.en", "other.ref.en",
             "news.ref.de", "news.refx.en", "xnews.ref.en", "news.ref.en.bak"]
    assert rule.select(names) == [P("data/news.ref.en"), P("data/news.ref1.en"), P("data/news.ref2.en"),
                                  P("data/news.ref10.en")]


def test_extra_references_without_the_main_one():
    (rule,) = rules(P("news.hyp.en"))
    assert rule.select(["news.ref2.en"]) == [P("news.ref2.en")]


def test_name_and_extension_with_dots():
    (rule,) = rules(P("a.b.hyp.en.txt"))
    assert rule.expected == "a.b.ref.en.txt"
    assert rule.select(["a.b.ref.en.txt", "a.b.ref3.en.txt", "b.ref.en.txt"]) == [
        P("a.b.ref.en.txt"),
        P("a.b.ref3.en.txt"),
    ]


def test_regex_characters_in_names_are_literal():
    (rule,) = rules(P("x+y (1).hyp.en"))
    assert rule.select(["x+y (1).ref.en", "xxy (1).ref.en"]) == [P("x+y (1).ref.en")]


def test_system_outputs_share_the_reference():
    (rule,) = rules(P("out/news.sys3.de"))
    assert rule.convention == "NAME.sysN.EXT -> NAME.ref.EXT"
    assert rule.select(["news.ref.de", "news.sys1.de", "news.sys3.de"]) == [P("out/news.ref.de")]
    assert rules(P("news.sys.de")) == []  # N is a number


def test_hyp_directory_to_ref_directory():
    (rule,) = rules(P("exp/hyp/talk.txt"))
    assert rule.convention == "hyp/NAME -> ref/NAME"
    assert rule.directory == P("exp/ref")
    assert rule.select(["talk.txt", "talk2.txt"]) == [P("exp/ref/talk.txt")]
    # the nearest enclosing hyp/ directory, keeping what lies below it
    (nested,) = rules(P("hyp/a/hyp/dev/talk.txt"))
    assert nested.directory == P("hyp/a/ref/dev")
    assert rules(P("hyp")) == []  # a file named hyp is not in a hyp/ directory
    # a CTM's reference is an STM, in ref/ as beside it
    (ctm,) = rules(P("asr/hyp/call.ctm"))
    assert ctm.select(["call.ctm", "call.stm"]) == [P("asr/ref/call.stm")]


def test_no_convention():
    assert rules(P("notes.txt")) == []
    assert rules(P("news.ref.en")) == []


def test_pick_tries_conventions_in_order():
    listing = {P("hyp"): ["news.hyp.en"], P("ref"): ["news.hyp.en"]}
    rule, refs = pick(P("hyp/news.hyp.en"), lambda d: listing.get(d, []))
    assert rule.convention == "hyp/NAME -> ref/NAME"  # no hyp/news.ref.en, so the next rule
    assert refs == [P("ref/news.hyp.en")]
    listing[P("hyp")].append("news.ref.en")
    rule, refs = pick(P("hyp/news.hyp.en"), lambda d: listing.get(d, []))
    assert rule.convention == "NAME.hyp.EXT -> NAME.ref.EXT"
    assert refs == [P("hyp/news.ref.en")]
    assert pick(P("hyp/other.hyp.en"), lambda d: listing.get(d, [])) is None


# -- the file system ------------------------------------------------------------------------


def test_find_references_on_disk(tmp_path):
    (tmp_path / "news.hyp.en").write_text("a\n")
    (tmp_path / "news.ref.en").write_text("a\n")
    (tmp_path / "news.ref2.en").write_text("a\n")
    (tmp_path / "news.ref3.en").mkdir()  # a folder is not a reference
    assert find_references(tmp_path / "news.hyp.en") == [tmp_path / "news.ref.en", tmp_path / "news.ref2.en"]


def test_find_references_says_where_it_looked(tmp_path):
    with pytest.raises(NoReferences) as info:
        find_references(tmp_path / "news.hyp.en")
    assert str(info.value) == (
        "no reference given and none found; looked for "
        f"{tmp_path / 'news.ref.en'} (NAME.hyp.EXT -> NAME.ref.EXT)"
    )


# -- the CLI without -r ---------------------------------------------------------------------


def _write_pair(hyp: Path, refs: list[Path]) -> None:
    for p in (hyp, *refs):
        p.parent.mkdir(parents=True, exist_ok=True)
    hyp.write_text("the cat sat on the mat\nhello world\n", encoding="utf-8")
    for i, ref in enumerate(refs):
        ref.write_text(f"the cat sat on a mat\nhello there world {i}\n", encoding="utf-8")


@pytest.mark.parametrize(
    "hyp, refs",
    [
        ("news.hyp.en", ["news.ref.en"]),
        ("news.hyp.en", ["news.ref.en", "news.ref1.en", "news.ref2.en"]),
        ("news.sys2.en", ["news.ref.en", "news.ref2.en"]),
        ("hyp/talk.txt", ["ref/talk.txt"]),
        ("exp/hyp/dev/talk.txt", ["exp/ref/dev/talk.txt"]),
    ],
)
@pytest.mark.parametrize("command", ["score", "check"])
def test_cli_finds_references_by_name(run, tmp_path, hyp, refs, command):
    hyp_path, ref_paths = tmp_path / hyp, [tmp_path / r for r in refs]
    _write_pair(hyp_path, ref_paths)
    explicit_args = [a for r in ref_paths for a in ("-r", r)]
    if command == "score":
        found = run("score", hyp_path, "--json")
        explicit = run("score", hyp_path, *explicit_args, "--json")
        assert found.code == 0, found.err
        assert json.loads(found.out) == json.loads(explicit.out)
        assert json.loads(found.out)["bleu"]["signature"].startswith(f"nrefs:{len(refs)}|")
    else:
        found = run("check", hyp_path, "--format", "json")
        explicit = run("check", hyp_path, *explicit_args, "--format", "json")
        assert found.code == 0, found.err
        assert json.loads(found.out) == json.loads(explicit.out)
        paths = {f["path"] for f in json.loads(found.out)["findings"]}
        assert paths <= {str(hyp_path), *map(str, ref_paths)} and str(ref_paths[0]) in paths
    assert found.err == f"scorelens: {hyp_path}: references found by name: {', '.join(map(str, ref_paths))}\n"


def test_cli_with_no_reference_found(run, tmp_path):
    hyp = tmp_path / "news.sys1.en"
    hyp.write_text("a\n")
    result = run("score", hyp)
    assert result.code == 2
    assert result.err == (
        f"scorelens: error: {hyp}: no reference given and none found; looked for "
        f"{tmp_path / 'news.ref.en'} (NAME.sysN.EXT -> NAME.ref.EXT)\n"
    )


def test_cli_with_a_name_that_follows_no_convention(run, tmp_path):
    hyp = tmp_path / "notes.txt"
    hyp.write_text("a\n")
    result = run("check", hyp)
    assert result.code == 2
    assert "follows no convention (NAME.hyp.EXT, NAME.sysN.EXT or hyp/NAME); pass -r REF" in result.err


def test_cli_missing_hypothesis_without_references(run, tmp_path):
    result = run("score", tmp_path / "gone.hyp.en")
    assert result.code == 2
    assert result.err == f"scorelens: error: {tmp_path / 'gone.hyp.en'}: no such file\n"


def test_samples_pair_by_name(run):
    result = run("score", sample("mt/news.hyp.en"), "--json")
    assert result.code == 0
    assert json.loads(result.out)["bleu"]["signature"].startswith("nrefs:2|")
    assert "news.ref.en, " in result.err and result.err.rstrip().endswith("news.ref2.en")


def test_discovery_does_not_depend_on_how_the_path_is_written(run, tmp_path, monkeypatch):
    hyp, ref = tmp_path / "d" / "hyp" / "news.txt", tmp_path / "d" / "ref" / "news.txt"
    _write_pair(hyp, [ref])
    expected = json.loads(run("score", hyp, "-r", ref, "--json").out)
    for cwd, written, named in [
        (hyp.parent, "news.txt", "../ref/news.txt"),
        (hyp.parent, "./news.txt", "../ref/news.txt"),
        (tmp_path, "d/hyp/news.txt", "d/ref/news.txt"),
        (tmp_path / "d" / "ref", "../hyp/news.txt", "news.txt"),
        (tmp_path, str(hyp), str(ref)),
    ]:
        monkeypatch.chdir(cwd)
        result = run("score", written, "--json")
        assert result.code == 0, (written, result.err)
        assert json.loads(result.out) == expected
        assert result.err == f"scorelens: {written}: references found by name: {named}\n"
