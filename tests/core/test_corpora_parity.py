"""Parity with sacreBLEU, rouge-score and jiwer on every real corpus in ../shared/data.

Corpus figures and every segment's figures must equal the peers' to 1e-9 (counts exactly).
"""

from __future__ import annotations

import json
import re

import pytest
from peers import (
    contiguous,
    assert_chrf,
    assert_counts,
    assert_parity,
    assert_rouge,
    config,
    corpus,
    corpus_chrf,
    file_lines,
    read,
    rouge_mean,
    rouge_pairs,
)

from scorelens.core import Corpus, rates

ALL = {"bleu", "rougeL", "rougeLsum", "wer", "cer", "chrf", "rouge1", "rouge2"}
# chrF++, lowercased; and chrF with whitespace and eps smoothing
CHRF_VARIANTS = [{"word_order": 2, "lowercase": True}, {"whitespace": True, "eps_smoothing": True, "beta": 1}]


def _lines(shared, *parts):
    return file_lines(read(shared(*parts)))


def _expected(shared, folder):
    return json.loads(shared(folder, "expected_scores.computed.json").read_text())["results"]


# -- compare-mt: TED sk->en, multi-TED ->ja, headlines ---------------------------------------


@pytest.mark.parametrize("system", ["sys1", "sys2"])
@pytest.mark.parametrize("suffix, tokenize", [(".detok.eng", "13a"), (".eng", "none")])
def test_ted(shared, system, suffix, tokenize):
    hyps = _lines(shared, "compare-mt", f"ted.{system}{suffix}")
    refs = _lines(shared, "compare-mt", f"ted.ref{suffix}")
    assert len(hyps) == len(refs) == 2445
    c = assert_parity(hyps, [refs], ALL, tokenize=tokenize)
    expected = _expected(shared, "compare-mt")[f"ted.{system}{suffix}|{tokenize}"]
    assert abs(c.scores().bleu.score - expected["score"]) <= 1e-9


@pytest.mark.parametrize("system", ["sys1", "sys2"])
@pytest.mark.parametrize("options", CHRF_VARIANTS)
def test_ted_chrf_variants(shared, system, options):
    hyps = _lines(shared, "compare-mt", f"ted.{system}.detok.eng")
    refs = _lines(shared, "compare-mt", "ted.ref.detok.eng")
    assert_parity(hyps, [refs], {"chrf"}, chrf=options)


@pytest.mark.parametrize("system", ["sys1", "sys2"])
@pytest.mark.parametrize("tokenize", ["none", "char", "ja-mecab"])
def test_multited_japanese(shared, system, tokenize):
    hyps = _lines(shared, "compare-mt", f"multited.{system}.jpn")
    refs = _lines(shared, "compare-mt", "multited.ref.jpn")
    assert len(hyps) == len(refs) == 3446
    c = assert_parity(hyps, [refs], {"bleu", "wer", "cer", "chrf"}, tokenize=tokenize)
    if tokenize == "none":
        expected = _expected(shared, "compare-mt")[f"multited.{system}.jpn|none"]
        assert abs(c.scores().bleu.score - expected["score"]) <= 1e-9


@pytest.mark.parametrize("system", ["sys1", "sys2"])
@pytest.mark.parametrize("stem", [False, True])
def test_headlines(shared, system, stem):
    hyps = _lines(shared, "compare-mt", f"sum.{system}.eng")
    refs = _lines(shared, "compare-mt", "sum.ref.eng")
    assert len(hyps) == len(refs) == 2000
    c = assert_parity(hyps, [refs], {"rougeL", "rougeLsum", "rouge1", "rouge2", "rouge3"}, stem=stem)
    if not stem:
        s = c.scores()
        for key, got in (("rougeL", s.rouge_l), ("rouge1", s.rouge_n["rouge1"]), ("rouge2", s.rouge_n["rouge2"])):
            expected = _expected(shared, "compare-mt")[f"sum.{system}.eng|rouge"][key]
            assert abs(got.precision - expected["mean_precision"]) <= 1e-9
            assert abs(got.recall - expected["mean_recall"]) <= 1e-9
            assert abs(got.fmeasure - expected["mean_fmeasure"]) <= 1e-9


# -- CNN/DM: multi-sentence summaries ---------------------------------------------------------


def _sentence_split(summary: str) -> str:
    """One sentence per line, as ROUGE-Lsum wants: the data separates sentences by " . "."""
    return summary.replace(" . ", " .\n")


@pytest.fixture(scope="module")
def cnndm(shared):
    hyps = _lines(shared, "cnndm", "cnndm.simcls.txt")
    refs = _lines(shared, "cnndm", "cnndm.ref.txt")
    assert len(hyps) == len(refs) == 3000
    # A fair ROUGE-Lsum comparison gives both sides the very same newline-split texts: the
    # peer scores each split summary pair, ScoreLens reads them as blank-line separated paragraphs.
    hyps = [_sentence_split(h) for h in hyps]
    refs = [_sentence_split(r) for r in refs]
    assert all(line.strip() for text in hyps + refs for line in text.split("\n"))
    return hyps, refs, rouge_pairs(hyps, [refs], ("rougeL", "rougeLsum", "rouge1", "rouge2"))


def test_cnndm_paragraphs(cnndm):
    hyps, refs, pairs = cnndm
    metrics = {"rougeL", "rougeLsum", "rouge1", "rouge2", "chrf"}
    c = Corpus("\n\n".join(hyps) + "\n", ["\n\n".join(refs) + "\n"], config(metrics, segmentation="paragraph"))
    s = c.scores()
    assert s.segments == 3000
    assert_rouge(s.rouge_l, rouge_mean(pairs, "rougeL"), "rougeL")
    assert_rouge(s.rouge_lsum, rouge_mean(pairs, "rougeLsum"), "rougeLsum")
    assert_rouge(s.rouge_n["rouge1"], rouge_mean(pairs, "rouge1"), "rouge1")
    assert_rouge(s.rouge_n["rouge2"], rouge_mean(pairs, "rouge2"), "rouge2")
    assert_chrf(s.chrf, corpus_chrf(hyps, [refs]), "chrF")
    # summary-level LCS really differs from the flat one here
    assert abs(s.rouge_lsum.fmeasure - s.rouge_l.fmeasure) > 1e-3
    for i in range(3000):
        seg = c.segment_scores(i)
        assert_rouge(seg.rouge_l, pairs[i]["rougeL"], i)
        assert_rouge(seg.rouge_lsum, pairs[i]["rougeLsum"], i)
        assert_rouge(seg.rouge_n["rouge2"], pairs[i]["rouge2"], i)


def test_cnndm_documents(cnndm):
    """One summary per file, segmentation "document": the file is the summary."""
    hyps, refs, pairs = cnndm
    for i in range(0, 3000, 97):
        c = Corpus(hyps[i] + "\n", [refs[i] + "\n"], config({"rougeL", "rougeLsum"}, segmentation="document"))
        s = c.scores()
        assert s.segments == 1
        assert_rouge(s.rouge_l, pairs[i]["rougeL"], i)
        assert_rouge(s.rouge_lsum, pairs[i]["rougeLsum"], i)


def test_cnndm_unsplit_lines(shared):
    """Unsplit one-line summaries, line segmentation: rouge-score then has one sentence per side."""
    hyps = _lines(shared, "cnndm", "cnndm.simcls.txt")[:1000]
    refs = _lines(shared, "cnndm", "cnndm.ref.txt")[:1000]
    assert_parity(hyps, [refs], {"rougeL", "rougeLsum", "rouge1", "rouge2", "chrf"}, segments=True)


# -- Earnings-21: whole transcripts as single segments ---------------------------------------

CALLS = ["4320211", "4330115", "4341191", "4344338", "4344866"]


@pytest.mark.parametrize("system", ["amazon", "google"])
@pytest.mark.parametrize("call", CALLS)
def test_earnings21_documents(shared, system, call):
    ref = read(shared("earnings21", "reference", f"{call}.txt"))
    hyp = read(shared("earnings21", system, f"{call}.txt"))
    c = Corpus(hyp, [ref], config({"wer", "cer"}, segmentation="document"))
    s = c.scores()
    assert s.segments == 1
    # jiwer's contiguous transforms of the two files' lines
    assert_counts(s.wer, contiguous(ref, hyp), f"{system}/{call} WER")
    assert_counts(s.cer, contiguous(ref, hyp, "char"), f"{system}/{call} CER")


@pytest.mark.parametrize("system", ["amazon", "google"])
def test_earnings21_normalised(shared, system):
    """The one-line lowercased .norm.txt files, all five calls as one line-segmented corpus."""
    refs = [read(shared("earnings21", "reference", f"{call}.norm.txt")).strip("\n") for call in CALLS]
    hyps = [read(shared("earnings21", system, f"{call}.norm.txt")).strip("\n") for call in CALLS]
    assert_parity(hyps, [refs], {"wer"})


@pytest.mark.parametrize("call", CALLS[:2])
def test_earnings21_lowercase_transform(shared, call):
    ref = read(shared("earnings21", "reference", f"{call}.txt"))
    hyp = read(shared("earnings21", "google", f"{call}.txt"))
    s = Corpus(hyp, [ref], config({"wer", "cer"}, segmentation="document", wer_transform="lowercase")).scores()
    assert_counts(s.wer, contiguous(ref, hyp, lowercase=True))
    assert_counts(s.cer, contiguous(ref, hyp, "char", lowercase=True))


# -- NIST SCTK sclite utterances ---------------------------------------------------------------

_TRN_ID = re.compile(r"\s*\(([^()]*)\)\s*$")


def _trn(text: str) -> dict[str, str]:
    """A trn file: ``words (utterance-id)`` per line; ``;;`` lines are comments.

    Keyed by the lowercased id: csrnab's reference and hypothesis spell some ids in different case.
    """
    out = {}
    for line in file_lines(text):
        m = _TRN_ID.search(line)
        if line.startswith(";;") or not m:
            continue
        out[m.group(1).lower()] = line[: m.start()]
    return out


TRN = [
    ("csrnab.ref", "csrnab.hyp"),
    ("csrnab1.ref", "csrnab1.hyp"),
    ("demo.ref.txt", "demo.hyp.txt"),
    ("test.turkish.ref", "test.turkish.hyp"),
    ("test.ukranian.ref", "test.ukranian.hyp"),
    ("test.vietnamese.ref.trn", "test.vietnamese.hyp.trn"),
    ("tests.ref", "tests.hyp"),
    ("tests.ref.utf8-3bytes", "tests.hyp.utf8-3bytes"),
]


def _trn_pairs(shared, ref_name, hyp_name):
    refs = _trn(read(shared("sctk-sclite", "inputs", ref_name)))
    hyps = _trn(read(shared("sctk-sclite", "inputs", hyp_name)))
    ids = [u for u in refs if u in hyps]
    assert ids
    return [hyps[u] for u in ids], [refs[u] for u in ids]


@pytest.mark.parametrize("ref_name, hyp_name", TRN)
@pytest.mark.parametrize("transform", ["default", "lowercase"])
def test_sclite_utterances(shared, ref_name, hyp_name, transform):
    hyps, refs = _trn_pairs(shared, ref_name, hyp_name)
    assert_parity(hyps, [refs], {"wer", "cer"}, wer_transform=transform)


def test_sclite_csrnab_expected(shared):
    """The computed jiwer figures in sctk-sclite/expected_scores.computed.json."""
    expected = _expected(shared, "sctk-sclite")
    hyps, refs = _trn_pairs(shared, "csrnab.ref", "csrnab.hyp")
    raw = corpus(hyps, [refs], config({"wer"})).scores().wer
    want = next(v for k, v in expected.items() if k.startswith("csrnab (utt-id stripped"))
    assert (raw.hits, raw.substitutions, raw.deletions, raw.insertions) == (want["hits"], want["sub"], want["dele"], want["ins"])
    assert abs(rates(raw).wer - want["wer"]) <= 1e-12

    def first_alternative(text):
        return re.sub(r"\{\s*([^/{}]*?)\s*/[^{}]*\}", r"\1", text)

    folded_refs = [first_alternative(r) for r in refs]
    folded = corpus(hyps, [folded_refs], config({"wer"}, wer_transform="lowercase")).scores().wer
    want = next(v for k, v in expected.items() if k.startswith("csrnab lowercased"))
    assert (folded.hits, folded.substitutions, folded.deletions, folded.insertions) == (
        want["hits"],
        want["sub"],
        want["dele"],
        want["ins"],
    )
    assert folded.ref_len == want["ref_words"]
    assert abs(rates(folded).wer - want["wer"]) <= 1e-12


def _stm_ctm(stm_text: str, ctm_text: str) -> tuple[list[str], list[str]]:
    """Reference segments of an STM file and, for each, the CTM words whose midpoint falls inside it."""
    segments = []
    for line in file_lines(stm_text):
        if line.startswith(";;") or not line.strip():
            continue
        f = line.split(None, 5)
        words = f[5] if len(f) > 5 else ""
        if "IGNORE_TIME_SEGMENT_IN_SCORING" in words:
            continue
        words = re.sub(r"^<[^>]*>\s*", "", words)  # optional <O,...> label column
        segments.append((f[0], float(f[3]), float(f[4]), words))
    hyps = [[] for _ in segments]
    for line in file_lines(ctm_text):
        if line.startswith(";;") or not line.strip():
            continue
        f = line.split()
        mid = float(f[2]) + float(f[3]) / 2
        for k, (name, start, end, _) in enumerate(segments):
            if name == f[0] and start <= mid < end:
                hyps[k].append(f[4])
                break
    return [" ".join(h) for h in hyps], [s[3] for s in segments]


@pytest.mark.parametrize(
    "stm, ctm, encoding",
    [("mand_ref.stm", "mand_hyp.ctm", "gb18030"), ("test.cantonese.stm", "test.cantonese.ctm", "utf-8")],
)
def test_sclite_chinese(shared, stm, ctm, encoding):
    stm_text = shared("sctk-sclite", "inputs", stm).read_bytes().decode(encoding)
    ctm_text = shared("sctk-sclite", "inputs", ctm).read_bytes().decode(encoding)
    hyps, refs = _stm_ctm(stm_text, ctm_text)
    assert len(refs) >= 3 and any(hyps)
    assert_parity(hyps, [refs], {"wer", "cer", "bleu"}, tokenize="zh")
