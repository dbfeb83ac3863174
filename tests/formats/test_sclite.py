"""formats/sclite: TRN, STM and CTM read, CTM words placed in STM segments, and WER under
sclite's rules equal to sclite's own outputs on SCTK's test data (../shared/data/sctk-sclite:
inputs/ and expected/ .raw/.sys/.pra, commands in expected/COMMANDS.txt)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorelens.core.wer import ErrorCounts
from scorelens.core.wer_sclite import counts
from scorelens.formats import read
from scorelens.formats.sclite import CtmRecord, StmRecord, assign_words

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "sctk-sclite"


def data(*parts: str) -> Path:
    path = DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared test data not found at {path} (expected ../shared/data next to the repository)")
    return path


def sum_row(path: Path) -> tuple[int, ...]:
    """sclite's summary 'Sum' row: (#Snt, #Wrd, Corr, Sub, Del, Ins)."""
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if re.match(r"\s*\|\s*Sum(/Avg)?\s*\|", line):
            return tuple(int(float(x)) for x in re.findall(r"[\d.]+", line)[:6])
    raise AssertionError(f"no Sum row in {path}")


def pra_scores(path: Path) -> dict[str, tuple[int, int, int, int]]:
    """Per utterance '(id)' -> (#C, #S, #D, #I), from sclite's .pra."""
    scores, ident = {}, None
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("id: "):
            ident = line[4:].strip()
        elif m := re.match(r"Scores: \(#C #S #D #I\) (\d+) (\d+) (\d+) (\d+)", line):
            scores[ident] = tuple(map(int, m.groups()))
    return scores


def case_rule(test: str) -> str:
    """The case profile sclite was run with for ``test`` (``-e utf-8 <profile>``), from COMMANDS.txt."""
    text = data("expected", "COMMANDS.txt").read_text()
    command = re.search(rf"TEST={re.escape(test)}\n(.*?)(?:TEST=|$)", text, re.S).group(1)
    m = re.search(r"-e utf-8 (\w+)", command)
    return m.group(1) if m else "ascii"


def totals(items) -> tuple[ErrorCounts, int]:
    total = ErrorCounts()
    for c in items:
        total += c
    return total, total.ref_len


TRN = [
    ("test1", "csrnab.ref", "csrnab.hyp"),
    ("test15_c", "test.turkish.ref", "test.turkish.hyp"),
    ("test15_d", "test.ukranian.ref", "test.ukranian.hyp"),
    ("test17", "test.vietnamese.ref.trn", "test.vietnamese.hyp.trn"),
]


def score_trn(ref_name: str, hyp_name: str, case: str) -> dict[str, ErrorCounts]:
    ref = read(data("inputs", ref_name).read_text(encoding="utf-8"), "trn")
    hyp = read(data("inputs", hyp_name).read_text(encoding="utf-8"), "trn")
    assert ref.rules == hyp.rules == "sclite" and not ref.errors and not hyp.errors
    refs = {r.id.lower(): r for r in ref.records}  # sclite matches ids case-insensitively
    return {f"({h.id.lower()})": counts(refs[h.id.lower()].text.text, h.text.text, case) for h in hyp.records}


@pytest.mark.parametrize("test, ref_name, hyp_name", TRN)
def test_trn_pairs_equal_sclite(test, ref_name, hyp_name):
    scored = score_trn(ref_name, hyp_name, case_rule(test))
    total, words = totals(scored.values())
    expected = sum_row(data("expected", f"{test}.raw"))
    assert (len(scored), words, total.hits, total.substitutions, total.deletions, total.insertions) == expected
    assert sum_row(data("expected", f"{test}.sys"))[:2] == expected[:2]
    per_utt = {k: (c.hits, c.substitutions, c.deletions, c.insertions) for k, c in scored.items()}
    assert per_utt == pra_scores(data("expected", f"{test}.pra"))


def test_tests_pair_equals_sclite():
    # No expected output for tests.ref/.hyp is in the shared data; these figures are sclite 2.10's
    # (SCTK 9688a26, `sclite -r tests.ref -h tests.hyp -i spu_id -o rsum pra -f 0`), run by hand:
    # Sum 58 snt 266 wrd, Corr 139 Sub 79 Del 48 Ins 40 (each utterance checked against its .pra too).
    scored = score_trn("tests.ref", "tests.hyp", "ascii")
    total, words = totals(scored.values())
    assert (len(scored), words, total.hits, total.substitutions, total.deletions, total.insertions) == (58, 266, 139, 79, 48, 40)
    assert scored["(od1-2)"] == ErrorCounts(1, 2, 0, 0)  # "(c)" is a plain word without -D
    assert scored["(h_2)"] == ErrorCounts(8, 0, 0, 1)  # nested alternations in the reference
    assert scored["(i_3)"] == ErrorCounts(1, 3, 0, 1)  # alternations in the hypothesis too


STM_CTM = [
    ("stmctm_lvc", "lvc_ref.stm", "lvc_hyp.ctm", "utf-8"),
    ("stmctm_mand", "mand_ref.stm", "mand_hyp.ctm", "gb18030"),  # GB2312 texts
    ("stmctm_cantonese", "test.cantonese.stm", "test.cantonese.ctm", "utf-8"),
]


def score_stm_ctm(stm_name: str, ctm_name: str, encoding: str) -> dict[str, ErrorCounts]:
    stm = read(data("inputs", stm_name).read_text(encoding=encoding), "stm")
    ctm = read(data("inputs", ctm_name).read_text(encoding=encoding), "ctm")
    assert not stm.errors and not ctm.errors
    scored, per_speaker = {}, {}
    for record, placed in zip(stm.records, assign_words(stm, ctm)):
        if placed is None:
            continue
        speaker = record.speaker.lower()
        n = per_speaker[speaker] = per_speaker.get(speaker, -1) + 1
        scored[f"({speaker}-{n:03d})"] = counts(record.text.text, placed[0].text)  # sclite's ids
    return scored


@pytest.mark.parametrize("test, stm_name, ctm_name, encoding", STM_CTM)
def test_stm_ctm_pairs_equal_sclite(test, stm_name, ctm_name, encoding):
    scored = score_stm_ctm(stm_name, ctm_name, encoding)
    total, words = totals(scored.values())
    expected = sum_row(data("expected", f"{test}.raw"))
    assert (len(scored), words, total.hits, total.substitutions, total.deletions, total.insertions) == expected
    per_utt = {k: (c.hits, c.substitutions, c.deletions, c.insertions) for k, c in scored.items()}
    assert per_utt == pra_scores(data("expected", f"{test}.pra"))


# --- readers ------------------------------------------------------------------------------------

def test_trn_reader():
    doc = ";; a comment\nthe cat  (spk1-1)\n\nbad line\n (spk1-2)\n{ a / @ } (b) (x) (spk2_3)\r\n"
    reading = read(doc, "trn")
    assert reading.rules == "sclite"
    assert [(r.line, r.id, r.text.text) for r in reading.records] == [
        (2, "spk1-1", "the cat"), (5, "spk1-2", ""), (6, "spk2_3", "{ a / @ } (b) (x)"),
    ]
    assert [(e.line, "utterance id" in e.message) for e in reading.errors] == [(4, True)]
    cat = reading.records[0].text
    a, b = cat.map.span(4, 7)
    assert doc[a:b] == "cat"
    third = reading.records[2].text
    a, b = third.map.span(0, len(third.text))
    assert doc[a:b] == "{ a / @ } (b) (x)"


def test_stm_reader():
    doc = (
        ";; CATEGORY \"0\" \"\" \"\"\n"
        "f1 A spk 1.5 3.25 <o,f0,male> hello { um / uh } there\n"
        "f1 A spk 3.25 4 \n"
        "f1 A spk 4 x oops\n"
        "f1 A spk 5 6 IGNORE_TIME_SEGMENT_IN_SCORING\n"
        "short line\n"
    )
    reading = read(doc, "stm")
    first, empty, ignored = reading.records
    assert isinstance(first, StmRecord)
    assert (first.line, first.id, first.start, first.end, first.label, first.speaker) == (2, "f1-A-1.5", 1.5, 3.25, "<o,f0,male>", "spk")
    assert first.text.text == "hello { um / uh } there"
    a, b = first.text.map.span(0, 5)
    assert doc[a:b] == "hello"
    assert empty.text.text == "" and not empty.ignored
    assert ignored.ignored and ignored.line == 5
    assert [e.line for e in reading.errors] == [4, 6]


def test_ctm_reader():
    doc = (
        ";; comment\n"
        "f1 A 0.10 0.20 hi 0.9\n"
        "f1 A * * <ALT_BEGIN>\n"
        "f1 A 0.40 0.10 it\n"
        "f1 A * * <ALT>\n"
        "f1 A * * <ALT_END>\n"
        "f1 A zero 0.1 bad\n"
        "f1 A nan 0.1 nowhere\n"
        "f1 A 0.9 inf forever\n"
    )
    reading = read(doc, "ctm")
    hi, begin, it, alt, end = reading.records
    assert isinstance(hi, CtmRecord)
    assert (hi.id, hi.start, hi.end, hi.confidence, hi.text.text) == ("f1-A", 0.10, pytest.approx(0.30), 0.9, "hi")
    assert (begin.marker, begin.text.text, alt.marker, end.text.text) == ("begin", "{", "alt", "}")
    a, b = begin.text.map.span(0, 1)
    assert doc[a:b] == "<ALT_BEGIN>"
    assert [e.line for e in reading.errors] == [7, 8, 9]
    assert reading.errors[1].message == "begin time 'nan' is not a finite number"


def test_assign_words_as_sclite():
    stm = read(
        "f 1 s 1.0 2.0 a b\n"
        "f 1 s 3.0 4.0 IGNORE_TIME_SEGMENT_IN_SCORING\n"
        "f 1 s 5.0 6.0 c d\n"
        "g 1 s 0.0 1.0 z\n",
        "stm",
    )
    ctm_doc = (
        "f 1 0.2 0.2 early\n"  # before every segment: the first one's
        "f 1 1.5 0.2 a\n"
        "f 1 1.9 0.4 b\n"  # midpoint 2.1, past the end: the next segment's (ignored)
        "f 1 3.5 0.2 gone\n"
        "f 1 * * <ALT_BEGIN>\n"
        "f 1 5.1 0.2 c\n"
        "f 1 * * <ALT>\n"
        "f 1 * * <ALT_END>\n"
        "f 1 9.0 0.1 late\n"  # after every segment: the last one's
        "h 1 0.0 0.1 nowhere\n"  # a channel no segment has
    )
    placed = assign_words(stm, read(ctm_doc, "ctm"))
    assert [p[0].text if p is not None else None for p in placed] == ["early a", None, "{ c / @ } late", ""]
    # each text's line is the CTM's where its words start (no CTM line has channel g's: its STM line)
    assert [p[1] if p is not None else None for p in placed] == [1, None, 5, 4]
    third = placed[2][0]
    a, b = third.map.span(0, len(third.text))
    assert ctm_doc[a:b].startswith("<ALT_BEGIN>") and ctm_doc[a:b].endswith("late")
    assert counts(stm.records[2].text.text, third.text) == ErrorCounts(1, 1, 0, 0)


def test_a_segment_without_words_is_at_the_line_of_the_word_before_it():
    stm = read("f 1 s 0 1 a\nf 1 s 1 2 b\nf 1 s 2 3 c\n", "stm")
    placed = assign_words(stm, read("f 1 0.4 0.2 a\nf 1 2.4 0.2 c\n", "ctm"))
    assert [(p[0].text, p[1]) for p in placed] == [("a", 1), ("", 1), ("c", 2)]


def test_a_meeting_of_3000_segments_is_placed_and_scored():
    """3,000 segments and 20,000 words read, placed and scored (their time: bench/formats.py)."""
    stm_lines, ctm_lines = [], []
    vocab = "the a of to and in is it that was".split()
    w = 0
    for s in range(3000):
        t = s * 10.0
        n = 7 if s % 3 else 6
        words = [vocab[(s * 7 + k) % len(vocab)] for k in range(n)]
        stm_lines.append(f"file 1 spk {t:.2f} {t + 8:.2f} <o> {' '.join(words)}")
        for k, word in enumerate(words if s % 5 else words[1:] + ["extra"]):
            ctm_lines.append(f"file 1 {t + k:.2f} 0.5 {word} 0.9")
            w += 1
    stm_doc, ctm_doc = "\n".join(stm_lines), "\n".join(ctm_lines)
    assert w >= 19_000
    stm, ctm = read(stm_doc, "stm"), read(ctm_doc, "ctm")
    total = ErrorCounts()
    for record, (hyp, _) in zip(stm.records, assign_words(stm, ctm)):
        total += counts(record.text.text, hyp.text)
    assert total.ref_len == sum(7 if s % 3 else 6 for s in range(3000))
