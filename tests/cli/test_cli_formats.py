"""Every format through the command line: the same texts score the same as plain lines, records
pair by id whatever their order, findings name the file's own line and column, unreadable records
are named and the rest is scored."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path
from xml.sax.saxutils import escape

import pytest

from cli_support import sample

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"
METRICS = "bleu,chrf,ter,rougeL,wer,cer"


def ted(n: int = 400) -> tuple[list[str], list[str]]:
    base = SHARED / "compare-mt"
    if not base.is_dir():
        pytest.skip(f"shared test data not found at {base} (expected ../shared/data next to the repository)")
    hyp = (base / "ted.sys1.detok.eng").read_text(encoding="utf-8").split("\n")[:n]
    ref = (base / "ted.ref.detok.eng").read_text(encoding="utf-8").split("\n")[:n]
    return hyp, ref


def plain_scores(run, tmp_path: Path, hyp: list[str], ref: list[str]) -> dict:
    (tmp_path / "plain.hyp.txt").write_text("\n".join(hyp) + "\n", encoding="utf-8")
    (tmp_path / "plain.ref.txt").write_text("\n".join(ref) + "\n", encoding="utf-8")
    r = run("score", tmp_path / "plain.hyp.txt", "-m", METRICS, "--json", "-j", "1")
    assert r.code == 0, r.err
    return json.loads(r.out)


def shuffled(n: int, seed: int = 7) -> list[int]:
    order = list(range(n))
    random.Random(seed).shuffle(order)
    return order


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def xliff(ids: list[str], targets: list[str]) -> str:
    units = "".join(
        f'<trans-unit id="{i}"><source>x</source><target>{escape(t)}</target></trans-unit>\n' for i, t in zip(ids, targets)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
        f'<file source-language="sk" target-language="en" datatype="plaintext" original="t"><body>\n{units}</body></file></xliff>\n'
    )


def srt(ids: list[int], texts: list[str]) -> str:
    def stamp(k: int) -> str:
        return f"00:{k // 60:02d}:{k % 60:02d},000"

    return "\n".join(f"{k}\n{stamp(k)} --> {stamp(k + 1)}\n{t}\n" for k, t in zip(ids, texts))


@pytest.mark.shared
def test_a_real_system_scores_the_same_in_every_format(run, tmp_path):
    hyp, ref = ted()
    # cues and units cannot hold an empty text the way a line can
    keep = [k for k in range(len(hyp)) if hyp[k].strip() and ref[k].strip()]
    hyp, ref = [hyp[k] for k in keep], [ref[k] for k in keep]
    expected = plain_scores(run, tmp_path, hyp, ref)
    ids = [f"ted-{k}" for k in range(len(hyp))]
    order = shuffled(len(hyp))

    write_jsonl(tmp_path / "both.jsonl", [{"id": i, "prediction": h, "reference": r} for i, h, r in zip(ids, hyp, ref)])
    write_jsonl(tmp_path / "sys.hyp.jsonl", [{"id": i, "prediction": h} for i, h in zip(ids, hyp)])
    write_jsonl(tmp_path / "sys.ref.jsonl", [{"id": ids[k], "reference": ref[k]} for k in order])
    with open(tmp_path / "both.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id", "hypothesis", "reference"])
        w.writerows(zip(ids, hyp, ref))
    (tmp_path / "sys.hyp.xlf").write_text(xliff(ids, hyp), encoding="utf-8")
    (tmp_path / "sys.ref.xlf").write_text(xliff([ids[k] for k in order], [ref[k] for k in order]), encoding="utf-8")
    numbers = list(range(1, len(hyp) + 1))
    (tmp_path / "sys.hyp.srt").write_text(srt(numbers, hyp), encoding="utf-8")
    (tmp_path / "sys.ref.srt").write_text(srt([numbers[k] for k in order], [ref[k] for k in order]), encoding="utf-8")

    for argv in (
        ["both.jsonl"],
        ["sys.hyp.jsonl"],
        ["both.csv"],
        ["sys.hyp.xlf"],
        ["sys.hyp.srt"],
    ):
        r = run("score", tmp_path / argv[0], *argv[1:], "-m", METRICS, "--json", "-j", "1")
        assert r.code == 0, (argv, r.err)
        assert json.loads(r.out) == expected, argv


def test_jsonl_sentence_rows_carry_ids_and_record_lines(run):
    r = run("score", sample("formats/news.hyp.jsonl"), "-sl", "--json", "-m", "bleu")
    assert r.code == 0, r.err
    rows = [json.loads(line) for line in r.out.splitlines()]
    assert [row["id"] for row in rows] == [f"news-{k:02d}" for k in range(1, 7)]
    assert [row["line"] for row in rows] == list(range(1, 7))
    assert rows[2]["bleu"]["score"] == pytest.approx(100.0)  # news-03 is translated as the reference has it


def test_check_names_the_characters_inside_the_json_string(run, tmp_path):
    path = tmp_path / "eval.jsonl"
    path.write_text(
        '{"id": "a", "prediction": "the caf\\u00e9 \\"is\\" closed", "reference": "the café \\"is\\" open"}\n',
        encoding="utf-8",
    )
    r = run("check", path, "-m", "wer", "--format", "json")
    assert r.code == 0, r.err
    found = json.loads(r.out)["findings"]
    hyp = [f for f in found if f["path"] == str(path) and f["code"] == "wer.substitution"]
    assert len(hyp) == 1
    line = path.read_text(encoding="utf-8").split("\n")[0]
    assert line[hyp[0]["column"] - 1 : hyp[0]["end_column"] - 1] == "closed"
    related = hyp[0]["related"]  # the reference's word, in the same record
    assert related["line"] == 1 and line[related["column"] - 1 :].startswith("open")


def test_check_ends_a_finding_at_its_word_not_after_the_markup_that_follows(run, tmp_path):
    """A word before a closing tag ends where the editor's range ends: "dog", not "dog</i>"."""
    (tmp_path / "film.hyp.srt").write_text("1\n00:00:01,000 --> 00:00:02,000\n<i>the dog</i> sat\n", encoding="utf-8")
    (tmp_path / "film.ref.srt").write_text("1\n00:00:01,000 --> 00:00:02,000\nthe cat sat\n", encoding="utf-8")
    r = run("check", tmp_path / "film.hyp.srt", "-m", "wer", "--format", "json")
    assert r.code == 0, r.err
    [sub] = [f for f in json.loads(r.out)["findings"] if f["code"] == "wer.substitution"]
    assert (sub["line"], sub["column"], sub["end_line"], sub["end_column"]) == (3, 8, 3, 11)


def test_check_names_a_byte_order_mark_only_where_it_is_scored(run, tmp_path):
    """Subtitle files often start with U+FEFF: before the first cue's number it is no part of a
    cue's text, so check (as the editor) does not say it is scored; in a plain line it is."""
    cue = "1\n00:00:01,000 --> 00:00:02,000\nthe {} sat\n"
    (tmp_path / "film.hyp.srt").write_text("\ufeff" + cue.format("dog"), encoding="utf-8")
    (tmp_path / "film.ref.srt").write_text(cue.format("cat"), encoding="utf-8")
    (tmp_path / "plain.hyp.txt").write_text("\ufeffthe dog sat\n", encoding="utf-8")
    (tmp_path / "plain.ref.txt").write_text("the cat sat\n", encoding="utf-8")
    codes = {}
    for name in ("film.hyp.srt", "plain.hyp.txt"):
        r = run("check", tmp_path / name, "-m", "wer", "--format", "json")
        assert r.code == 0, r.err
        codes[name] = [f["code"] for f in json.loads(r.out)["findings"]]
    assert codes["film.hyp.srt"] == ["wer.substitution"]
    assert codes["plain.hyp.txt"][0] == "pairing.byte-order-mark"


def test_an_unreadable_record_is_named_and_the_rest_is_scored(run, tmp_path):
    path = tmp_path / "eval.jsonl"
    path.write_text(
        '{"id": "a", "prediction": "a b c", "reference": "a b c"}\n'
        '{"id": "b", "prediction": "a b c", "reference": \n'
        '{"id": "c", "prediction": "a b d", "reference": "a b c"}\n',
        encoding="utf-8",
    )
    r = run("score", path, "-m", "wer", "--json")
    assert r.code == 2  # not all of the file was read: what was is scored and printed
    assert f"{path}:2: error:" in r.err
    assert json.loads(r.out)["wer"]["substitutions"] == 1 and json.loads(r.out)["segments"] == 2
    assert run("check", path, "-m", "wer").code == 2


def test_ids_without_partners_are_one_error_naming_them(run, tmp_path):
    write_jsonl(tmp_path / "s.hyp.jsonl", [{"id": str(k), "prediction": "x"} for k in range(10)])
    write_jsonl(tmp_path / "s.ref.jsonl", [{"id": str(k), "reference": "x"} for k in range(3, 13)])
    r = run("score", tmp_path / "s.hyp.jsonl", "-m", "wer")
    assert r.code == 2
    assert "id '0' has no reference" in r.err and f"id '10' is not in {tmp_path / 's.hyp.jsonl'}" in r.err
    assert "more" in r.err  # five named, the rest counted


def test_columns_by_name_and_number_and_list_valued_references(run, tmp_path):
    path = tmp_path / "t.tsv"
    path.write_text("id\tout\tgold\n1\ta b c\ta b c\n2\ta b\ta c\n", encoding="utf-8")
    by_name = run("score", path, "--hyp-field", "out", "--ref-field", "gold", "-m", "wer", "--json")
    by_number = run("score", path, "--hyp-field", "2", "--ref-field", "3", "-m", "wer", "--json")
    assert by_name.code == by_number.code == 0, by_name.err + by_number.err
    assert json.loads(by_name.out) == json.loads(by_number.out)
    many = tmp_path / "m.jsonl"
    write_jsonl(many, [{"prediction": "the cat sat on the mat", "references": ["a cat sat on a mat", "the cat sat on the mat"]}])
    r = run("score", many, "-m", "bleu", "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["bleu"]["score"] == pytest.approx(100.0)


@pytest.mark.parametrize(
    "hypothesis",
    [
        "formats/eval.jsonl",
        "formats/news.hyp.jsonl",
        "formats/news.tsv",
        "formats/news.csv",
        "formats/news.hyp.xlf",
        "formats/news.hyp.po",
        "formats/news.hyp.tmx",
        "formats/call.hyp.srt",
        "formats/call.hyp.vtt",
        "formats/call.hyp.trn",
        "formats/call.hyp.ctm",
    ],
)
def test_every_sample_scores_with_every_metric(run, hypothesis):
    r = run("score", sample(hypothesis), "-m", METRICS + ",rouge1,rougeLsum", "--json")
    assert r.code == 0, r.err
    scores = json.loads(r.out)
    assert scores["segments"] >= 6
    assert 0 <= scores["wer"]["wer"] < 1
    check = run("check", sample(hypothesis), "-m", "wer,bleu", "--format", "json")
    assert check.code == 0, check.err
    assert json.loads(check.out)["findings"]


@pytest.mark.shared
@pytest.mark.parametrize(
    "hyp, ref, extra, counts",
    [
        # sclite's own totals (expected/stmctm_lvc.raw, expected/test1.raw)
        ("lvc_hyp.ctm", "lvc_ref.stm", [], (1013, 540, 226, 171, 61)),
        ("csrnab.hyp", "csrnab.ref", ["--input-format", "trn"], (1263, 131, 12, 26, 51)),
    ],
)
def test_sclite_files_count_as_sclite_counts(run, hyp, ref, extra, counts):
    base = SHARED / "sctk-sclite" / "inputs"
    if not base.is_dir():
        pytest.skip(f"shared test data not found at {base} (expected ../shared/data next to the repository)")
    r = run("score", base / hyp, "-r", base / ref, *extra, "-m", "wer", "--json")
    assert r.code == 0, r.err
    out = json.loads(r.out)
    wer = out["wer"]
    assert (wer["hits"], wer["substitutions"], wer["deletions"], wer["insertions"], out["segments"]) == counts
    assert "rules:sclite" in wer["signature"]


def test_compare_lines_up_systems_whose_records_come_in_other_orders(run, tmp_path):
    import jiwer

    refs = {f"s{k}": f"the cat number {k} sat on the mat today" for k in range(30)}
    # the baseline's errors differ from item to item, so a misaligned segment would show
    base = {i: " ".join(r.split()[: 9 - int(i[1:]) % 4]) for i, r in refs.items()}
    better = {i: (r if int(i[1:]) % 2 else r.replace("mat", "rug")) for i, r in refs.items()}
    write_jsonl(tmp_path / "t.ref.jsonl", [{"id": i, "reference": r} for i, r in refs.items()])
    write_jsonl(tmp_path / "t.hyp.jsonl", [{"id": i, "prediction": base[i]} for i in refs])
    order = list(reversed(list(refs)))
    write_jsonl(tmp_path / "t.sys2.jsonl", [{"id": i, "prediction": better[i]} for i in order])
    r = run("compare", tmp_path / "t.hyp.jsonl", tmp_path / "t.sys2.jsonl", "-m", "wer", "--json", "--paired-n", "100")
    assert r.code == 0, r.err
    found = json.loads(r.out)["segments"]
    shown = found["improved"] + found["regressed"]
    assert shown
    for h in shown:
        item = order[h["line"] - 1]  # the line is the system's own record
        expected = jiwer.wer(refs[item], better[item]) - jiwer.wer(refs[item], base[item])
        assert h["difference"] == pytest.approx(expected), item


def test_wer_rules_named_on_the_command_line_win_over_a_sclite_files_default(run):
    trn = sample("formats/call.hyp.trn")
    default = json.loads(run("score", trn, "-m", "wer", "--json").out)["wer"]
    assert "rules:sclite" in default["signature"]
    jiwer_rules = run("score", trn, "-m", "wer", "--json", "--wer-rules", "jiwer")
    assert jiwer_rules.code == 0, jiwer_rules.err
    wer = json.loads(jiwer_rules.out)["wer"]
    assert "rules:" not in wer["signature"]
    # sclite's rules let a word in parentheses go; jiwer's count it
    assert wer["deletions"] > default["deletions"]
    # and jiwer's rules take jiwer's transforms
    assert run("score", trn, "-m", "wer", "--wer-rules", "jiwer", "--wer-transform", "whisper-english").code == 0


def test_a_field_no_record_has_is_named_in_the_error(run):
    r = run("score", sample("formats/eval.jsonl"), "-m", "bleu", "--ref-field", "nope")
    assert r.code == 2
    assert "no hypothesis records could be read: line 1: no field 'nope' (and 5 more)" in r.err


def test_an_id_given_again_in_a_file_of_its_own_references_is_a_warning_and_both_are_scored(run, tmp_path):
    records = [{"id": "a", "prediction": "x y", "reference": "x y"}, {"id": "b", "prediction": "q", "reference": "q"},
               {"id": "a", "prediction": "x z", "reference": "x y"}]
    path = tmp_path / "eval.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    r = run("score", str(path), "-m", "wer", "--json")
    assert r.code == 0, r.err
    assert r.err == f"{path}:3: warning: id 'a' is given again; both are scored\n"
    assert json.loads(r.out)["wer"]["substitutions"] == 1 and json.loads(r.out)["segments"] == 3


def test_a_po_entrys_context_separator_is_escaped_in_a_segment_row(run):
    r = run("score", sample("formats/news.hyp.po"), "-m", "wer", "-sl")
    assert r.code == 0, r.err
    first = r.out.splitlines()[0]
    assert "\x04" not in first and "\tid=news-01\\x04Der Freiburger" in first
    assert len(first.split("\t")) == 3  # where, id, WER
    # JSON keeps the id as gettext's key
    row = json.loads(run("score", sample("formats/news.hyp.po"), "-m", "wer", "-sl", "--json").out.splitlines()[0])
    assert row["id"].startswith("news-01\x04Der Freiburger")


def test_records_that_lost_their_partner_to_a_broken_one_are_left_out_and_the_rest_scored(run, tmp_path):
    hyp, ref = tmp_path / "p.hyp.txt", tmp_path / "p.ref.jsonl"
    hyp.write_text("one\ntwo\nthree\nfour\n", encoding="utf-8")
    ref.write_text('{"reference": "one"}\nBROKEN\n{"reference": "three"}\n{"reference": "four"}\n', encoding="utf-8")
    r = run("score", hyp, "-r", ref, "-m", "wer", "--json")
    assert r.code == 2, r.err
    # by position, line 3 still pairs with record 3: no partner shifts past the broken one
    assert json.loads(r.out)["wer"]["hits"] == 3 and json.loads(r.out)["segments"] == 3
    assert f"{ref}:2: error: invalid JSON" in r.err and f"{hyp}:2: warning: a record has no partner at this position; left out" in r.err
    assert run("check", hyp, "-r", ref, "-m", "wer").code == 2  # not all of the files was read
    # by id: the hypothesis's record whose reference is broken is left out, the rest scored
    write_jsonl(tmp_path / "k.hyp.jsonl", [{"id": k, "prediction": t} for k, t in (("a", "x y"), ("b", "p q"), ("c", "r s"))])
    (tmp_path / "k.ref.jsonl").write_text('{"id": "a", "reference": "x y"}\n{"id": "b", "reference":\n{"id": "c", "reference": "r s"}\n', encoding="utf-8")
    r = run("score", tmp_path / "k.hyp.jsonl", "-m", "wer", "--json")
    assert r.code == 2 and json.loads(r.out)["segments"] == 2
    assert f"{tmp_path / 'k.hyp.jsonl'}:2: warning: id 'b' has no reference; left out" in r.err
    # systems compared must hold the same records: there it stays an error
    write_jsonl(tmp_path / "k.sys2.jsonl", [{"id": k, "prediction": t} for k, t in (("a", "x y"), ("b", "p q"), ("c", "r s"))])
    r = run("compare", tmp_path / "k.hyp.jsonl", tmp_path / "k.sys2.jsonl", "-m", "wer")
    assert r.code == 2 and "records do not pair by id" in r.err


def test_timed_words_need_timed_segments_and_every_channel_a_segment(run, tmp_path):
    ctm, stm = sample("formats/call.hyp.ctm"), sample("formats/call.ref.stm")
    lines = Path(ctm).read_text(encoding="utf-8").splitlines()
    plain = tmp_path / "plain.ref.txt"
    plain.write_text("hello there\n", encoding="utf-8")
    r = run("check", ctm, "-r", plain, "-m", "wer", "--max-wer", "0.1")
    assert r.code == 2 and "timed words (a CTM) are scored against one reference of timed segments (an STM)" in r.err
    stray = tmp_path / "stray.hyp.ctm"
    stray.write_text("\n".join([*lines, "elsewhere 1 0.10 0.30 hello", "elsewhere 1 0.50 0.30 there"]) + "\n", encoding="utf-8")
    r = run("score", stray, "-r", stm, "-m", "wer")
    assert r.code == 2
    assert f"{stray}:{len(lines) + 1}: id 'elsewhere-1': no segment of the reference has its file and channel" in r.err


def test_a_ctm_segments_row_points_at_the_ctm_line_its_words_start_on(run):
    r = run("score", sample("formats/call.hyp.ctm"), "-m", "wer", "-sl")
    assert r.code == 0, r.err
    rows = [row.split("\t")[:2] for row in r.out.splitlines()[:2]]
    # the second segment's words start at the CTM's line 18 ("hi"); its STM line is 3
    assert rows == [[f"{sample('formats/call.hyp.ctm')}:1", "id=call-1-0.00"], [f"{sample('formats/call.hyp.ctm')}:18", "id=call-1-6.30"]]


def test_an_xliff_not_well_formed_is_named_at_the_place_its_parser_stopped(run, tmp_path):
    hyp = tmp_path / "u.hyp.xlf"
    hyp.write_text(xliff(["1"], ["good"]).replace("good", "go<od"), encoding="utf-8")
    (tmp_path / "u.ref.xlf").write_text(xliff(["1"], ["good"]), encoding="utf-8")
    r = run("score", hyp, "-m", "wer")
    line = hyp.read_text(encoding="utf-8").split("\n")[2]
    assert r.code == 2
    assert r.err.strip().endswith(f"not well-formed (invalid token): line 3, column {line.index('</target>') + 1}")


def test_a_po_id_in_a_pairing_message_is_written_as_in_a_segment_row(run, tmp_path):
    entry = 'msgctxt "{}"\nmsgid "{}"\nmsgstr "the cat"\n\n'
    (tmp_path / "p.hyp.po").write_text(entry.format("menu", "Don't save"), encoding="utf-8")
    (tmp_path / "p.ref.po").write_text(entry.format("menu", "Save"), encoding="utf-8")
    r = run("score", tmp_path / "p.hyp.po", "-m", "wer")
    assert r.code == 2
    assert "id 'menu\\x04Don't save' has no reference" in r.err and "id 'menu\\x04Save' is not in" in r.err


def test_a_row_a_stray_quote_ran_over_lines_names_the_lines_it_took_in(run, tmp_path):
    path = tmp_path / "q.csv"
    path.write_text('id,hypothesis,reference\n1,"the cat,the cat\n2,a dog"\n3,fine,fine\n', encoding="utf-8")
    for command in ("score", "check"):
        r = run(command, path, "-m", "wer")
        assert (
            f"{path}:2: error: 2 columns, no column 'reference' (column 3); a quoted field runs over lines 2-3, "
            "so csv read line 3 as part of this record"
        ) in r.err


def tmx(units: list[dict[str, str]]) -> str:
    """A TMX memory from English, each unit's languages and their texts."""
    body = "".join(
        f'<tu tuid="{k}">' + "".join(f'<tuv xml:lang="{lang}"><seg>{escape(t)}</seg></tuv>' for lang, t in unit.items()) + "</tu>\n"
        for k, unit in enumerate(units, 1)
    )
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n<header srclang="en" datatype="plaintext"/>\n<body>\n{body}</body>\n</tmx>\n'


def test_a_tmx_with_several_target_languages_is_scored_in_the_one_named(run, tmp_path):
    hyp, ref = tmp_path / "m.hyp.tmx", tmp_path / "m.ref.tmx"
    hyp.write_text(tmx([{"en": "2 dogs ran", "de": "2 Hunde liefen", "fr": "3 chiens couraient"}]), encoding="utf-8")
    ref.write_text(tmx([{"en": "2 dogs ran", "de": "2 Hunde rannten", "fr": "3 chiens couraient"}]), encoding="utf-8")
    r = run("score", hyp, "-m", "wer")
    assert r.code == 2 and not r.out
    errors = [line for line in r.err.splitlines() if "error" in line]
    assert errors == [
        f"scorelens: error: {hyp}: line 5: which target language? units hold several besides their source: de, fr; "
        "name one with --hyp-field LANG (hypothesis_field in a [[pair]] of scorelens.toml)"
    ]
    r = run("score", hyp, "--hyp-field", "de", "-m", "wer")
    assert r.code == 2 and f"error: {ref}: line 5: which target language?" in r.err and "--ref-field LANG" in r.err
    wer = {lang: run("score", hyp, "--hyp-field", lang, "--ref-field", lang, "-m", "wer", "--json") for lang in ("de", "fr")}
    assert [json.loads(wer[lang].out)["wer"]["substitutions"] for lang in ("de", "fr")] == [1, 0]
    # check's QA reads the language scored too: the French number differs from the source's
    check = run("check", hyp, "--hyp-field", "fr", "--ref-field", "fr", "-m", "wer", "--format", "json")
    assert check.code == 0, check.err
    assert [f["code"] for f in json.loads(check.out)["findings"]] == ["qa.number"]


def test_a_tmx_with_one_target_language_needs_no_choice(run, tmp_path):
    hyp, ref = tmp_path / "o.hyp.tmx", tmp_path / "o.ref.tmx"
    hyp.write_text(tmx([{"en": "a dog ran", "de": "ein Hund lief"}, {"en": "a cat", "de": "eine Katze"}]), encoding="utf-8")
    ref.write_text(tmx([{"en": "a dog ran", "de": "ein Hund rannte"}, {"en": "a cat", "de": "eine Katze"}]), encoding="utf-8")
    r = run("score", hyp, "-m", "wer", "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["wer"]["substitutions"] == 1 and json.loads(r.out)["segments"] == 2


def test_ref_field_names_the_reference_files_field_not_one_the_hypothesis_must_have(run, tmp_path):
    hyp, ref = tmp_path / "h.jsonl", tmp_path / "r.jsonl"
    write_jsonl(hyp, [{"id": "1", "hyp": "2 dogs ran"}, {"id": "2", "hyp": "a cat"}])
    write_jsonl(ref, [{"id": "1", "gold": "2 dogs ran fast"}, {"id": "2", "gold": "a cat"}])
    r = run("score", hyp, "-r", ref, "--ref-field", "gold", "-m", "wer", "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["wer"]["deletions"] == 1
    # a multilingual TMX reference of a JSONL hypothesis: its language as the error says to name it
    german = tmp_path / "de.jsonl"
    write_jsonl(german, [{"id": "1", "hyp": "2 Hunde liefen"}, {"id": "2", "hyp": "eine Katze"}])
    memory = tmp_path / "r.tmx"
    units = [{"en": "2 dogs ran", "de": "2 Hunde liefen schnell", "fr": "2 chiens couraient"}, {"en": "a cat", "de": "eine Katze", "fr": "un chat"}]
    memory.write_text(tmx(units), encoding="utf-8")
    r = run("score", german, "-r", memory, "-m", "wer")
    assert r.code == 2 and "name one with --ref-field LANG" in r.err
    r = run("score", german, "-r", memory, "--ref-field", "de", "-m", "wer", "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["wer"]["deletions"] == 1 and json.loads(r.out)["wer"]["hits"] == 5
