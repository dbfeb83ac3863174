"""The peer libraries called the way the compatibility contract names them, plus comparison helpers.

Everything here computes its answer with sacreBLEU, rouge-score or jiwer themselves; nothing
reuses ScoreLens code, so a shared mistake cannot cancel out.
"""

from __future__ import annotations

import io
import math
from functools import lru_cache
from typing import Sequence

import jiwer
import jiwer.transforms as jt
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU, CHRF

from scorelens.core import BleuConfig, ChrfConfig, Corpus, RougeConfig, ScoringConfig
from scorelens.core.rouge import ROUGE_N

TOL = 1e-9


def file_lines(text: str) -> list[str]:
    """Lines as a file reader with universal newlines sees them (what sacreBLEU's CLI reads)."""
    lines = io.StringIO(text, newline=None).read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def document(lines: Sequence[str]) -> str:
    """Lines written as a file: each one terminated by a newline."""
    return "".join(line + "\n" for line in lines)


def read(path) -> str:
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def config(metrics, segmentation="line", wer_transform="default", rouge_tokenizer="rouge-score", stem=False, chrf=None, **bleu):
    """``chrf``: ``CHRF``'s keyword arguments (char_order, word_order, beta, lowercase, whitespace, eps_smoothing)."""
    return ScoringConfig(
        metrics=frozenset(metrics),
        bleu=BleuConfig(**bleu),
        rouge=RougeConfig(tokenizer_name=rouge_tokenizer, stem=stem),
        chrf=ChrfConfig(**(chrf or {})),
        wer_transform=wer_transform,
        segmentation=segmentation,
    )


def corpus(hyps: Sequence[str], refs: Sequence[Sequence[str]], cfg: ScoringConfig) -> Corpus:
    """A line-segmented ScoreLens corpus of these segments (every reference stream one document)."""
    return Corpus(document(hyps), [document(r) for r in refs], cfg)


# -- sacreBLEU ------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def _bleu(tokenize="13a", smooth_method="exp", smooth_value=None, lowercase=False, max_ngram_order=4, effective_order=False):
    return BLEU(
        tokenize=tokenize,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        lowercase=lowercase,
        max_ngram_order=max_ngram_order,
        effective_order=effective_order,
        force=True,
    )


def corpus_bleu(hyps, refs, **options):
    return _bleu(**options).corpus_score(list(hyps), [list(r) for r in refs])


def sentence_bleu(hyp, refs, **options):
    """``sacrebleu.sentence_bleu``: a BLEU with effective order on, one segment."""
    return _bleu(effective_order=True, **options).sentence_score(hyp, list(refs))


def sentence_bleus(hyps, refs, **options):
    """``sentence_bleu`` of every segment, batched: what ``sentence_score`` does per call
    (segment statistics, then the formula on them), with the tokenization done once per line."""
    metric = _bleu(effective_order=True, **options)
    stats = metric._extract_corpus_statistics(list(hyps), [list(r) for r in refs])
    return [metric._compute_score_from_stats(st) for st in stats]


def assert_bleu(ours, theirs, what=""):
    """Every figure of a BLEU result: score, precisions, BP, lengths, counts and totals."""
    assert ours is not None
    assert abs(ours.score - theirs.score) <= TOL, (what, ours.score, theirs.score)
    assert ours.sys_len == theirs.sys_len and ours.ref_len == theirs.ref_len, (what, ours, theirs)
    assert list(ours.counts) == list(theirs.counts), (what, ours.counts, theirs.counts)
    assert list(ours.totals) == list(theirs.totals), (what, ours.totals, theirs.totals)
    assert abs(ours.bp - theirs.bp) <= TOL, (what, ours.bp, theirs.bp)
    for a, b in zip(ours.precisions, theirs.precisions, strict=True):
        assert abs(a - b) <= TOL, (what, ours.precisions, theirs.precisions)


@lru_cache(maxsize=None)
def _chrf(**options):
    return CHRF(**options)


def chrf_metric(options=None) -> CHRF:
    return _chrf(**(options or {}))


def corpus_chrf(hyps, refs, options=None):
    return chrf_metric(options).corpus_score(list(hyps), [list(r) for r in refs])


def chrf_statistics(hyps, refs, options=None) -> list[list[int]]:
    """sacreBLEU's per-segment chrF statistics (best reference chosen), what ``sentence_score`` scores."""
    return chrf_metric(options)._extract_corpus_statistics(list(hyps), [list(r) for r in refs])


def assert_chrf(ours, theirs, what=""):
    assert ours is not None
    assert abs(ours.score - theirs.score) <= TOL, (what, ours.score, theirs.score)
    assert (ours.char_order, ours.word_order, ours.beta) == (theirs.char_order, theirs.word_order, theirs.beta), what
    assert ours.name == theirs.name, (what, ours.name, theirs.name)


# -- rouge-score ----------------------------------------------------------------------------


@lru_cache(maxsize=None)
def scorer(types: tuple[str, ...] = ("rougeL", "rougeLsum"), stem: bool = False):
    return rouge_scorer.RougeScorer(list(types), use_stemmer=stem)


def rouge_pairs(hyps, refs, types=("rougeL", "rougeLsum"), stem=False):
    """Per-pair rouge-score results; several references go through ``score_multi``."""
    s = scorer(tuple(types), stem)
    out = []
    for i, hyp in enumerate(hyps):
        targets = [r[i] for r in refs]
        out.append(s.score(targets[0], hyp) if len(targets) == 1 else s.score_multi(targets, hyp))
    return out


def rouge_mean(pairs, key):
    """The exact corpus figure: the plain mean of per-pair precision, recall and F."""
    n = len(pairs)
    if not n:
        return (0.0, 0.0, 0.0)
    return (
        math.fsum(p[key].precision for p in pairs) / n,
        math.fsum(p[key].recall for p in pairs) / n,
        math.fsum(p[key].fmeasure for p in pairs) / n,
    )


def assert_rouge(ours, theirs, what="", tol=TOL):
    assert ours is not None
    got = (ours.precision, ours.recall, ours.fmeasure)
    want = (theirs.precision, theirs.recall, theirs.fmeasure) if hasattr(theirs, "precision") else tuple(theirs)
    for a, b in zip(got, want, strict=True):
        assert abs(a - b) <= tol, (what, got, want)


# -- jiwer ----------------------------------------------------------------------------------

_LOWER_WORDS = jt.Compose([jt.ToLowerCase(), jt.RemoveMultipleSpaces(), jt.Strip(), jt.ReduceToListOfListOfWords()])
_LOWER_CHARS = jt.Compose([jt.ToLowerCase(), jt.Strip(), jt.ReduceToListOfListOfChars()])


def _listed(x):
    return x if isinstance(x, str) else list(x)


_LOWER_WORDS_CONTIGUOUS = jt.Compose(
    [jt.ToLowerCase(), jt.RemoveMultipleSpaces(), jt.Strip(), jt.ReduceToSingleSentence(), jt.ReduceToListOfListOfWords()]
)
_LOWER_CHARS_CONTIGUOUS = jt.Compose([jt.ToLowerCase(), jt.Strip(), jt.ReduceToSingleSentence(), jt.ReduceToListOfListOfChars()])


def contiguous(refs, hyps, unit="word", lowercase=False):
    """Summed counts of jiwer's ``wer_contiguous`` / ``cer_contiguous`` (lowercasing first if asked)
    of each segment's lines (a string: one segment), as paragraph and document segments are scored.
    Segments with an empty reference side are left to jiwer's default, which takes them."""
    from scorelens.core import ErrorCounts

    if unit == "word":
        process, transform = jiwer.process_words, _LOWER_WORDS_CONTIGUOUS if lowercase else jiwer.wer_contiguous
    else:
        process, transform = jiwer.process_characters, _LOWER_CHARS_CONTIGUOUS if lowercase else jiwer.cer_contiguous
    total = ErrorCounts()
    for ref, hyp in zip([refs] if isinstance(refs, str) else refs, [hyps] if isinstance(hyps, str) else hyps):
        if not (ref.strip() and hyp.strip()):  # ReduceToSingleSentence leaves no sentence: jiwer's default of the joined lines
            joined = [" ".join(line.strip() for line in text.split("\n") if line.strip()) for text in (ref, hyp)]
            o = (process_words if unit == "word" else process_characters)(*joined, lowercase)
        else:
            o = process(ref.split("\n"), hyp.split("\n"), reference_transform=transform, hypothesis_transform=transform)
        total += ErrorCounts(o.hits, o.substitutions, o.deletions, o.insertions)
    return total


def process_words(refs, hyps, lowercase=False):
    """jiwer.process_words on a string (one sentence) or a list of sentences."""
    if lowercase:
        return jiwer.process_words(_listed(refs), _listed(hyps), _LOWER_WORDS, _LOWER_WORDS)
    return jiwer.process_words(_listed(refs), _listed(hyps))


def process_characters(refs, hyps, lowercase=False):
    if lowercase:
        return jiwer.process_characters(_listed(refs), _listed(hyps), _LOWER_CHARS, _LOWER_CHARS)
    return jiwer.process_characters(_listed(refs), _listed(hyps))


def assert_counts(ours, theirs, what=""):
    """Hits, S, D, I equal to jiwer's, and the rates from them within tolerance."""
    from scorelens.core import rates

    assert ours is not None
    got = (ours.hits, ours.substitutions, ours.deletions, ours.insertions)
    want = (theirs.hits, theirs.substitutions, theirs.deletions, theirs.insertions)
    assert got == want, (what, got, want)
    r = rates(ours)
    if hasattr(theirs, "wer"):
        for name in ("wer", "mer", "wil", "wip"):
            assert abs(getattr(r, name) - getattr(theirs, name)) <= TOL, (what, name, getattr(r, name), getattr(theirs, name))
    elif hasattr(theirs, "cer"):  # (summed counts, as contiguous() gives, have no rates)
        assert abs(r.wer - theirs.cer) <= TOL, (what, r.wer, theirs.cer)


# -- a whole line-segmented corpus against all three peers ----------------------------------

BLEU_OPTIONS = ("tokenize", "smooth_method", "smooth_value", "lowercase", "max_ngram_order")


def assert_parity(hyps, refs, metrics, segments=True, stem=False, wer_transform="default", chrf=None, **bleu_options):
    """Corpus figures and, with ``segments``, every segment's figures equal the peers' on these lines.

    ``refs`` are reference streams, each as long as ``hyps``. WER and CER use the first stream
    (jiwer takes one reference). ``chrf``: ``CHRF``'s options. Returns the ScoreLens corpus for
    further checks.
    """
    assert all(len(r) == len(hyps) for r in refs)
    c = corpus(hyps, refs, config(metrics, stem=stem, wer_transform=wer_transform, chrf=chrf, **bleu_options))
    s = c.scores()
    assert s.segments == len(hyps)
    lowercase = wer_transform == "lowercase"
    if "bleu" in metrics:
        assert_bleu(s.bleu, corpus_bleu(hyps, refs, **bleu_options), "corpus BLEU")
    if "chrf" in metrics and hyps:
        assert_chrf(s.chrf, corpus_chrf(hyps, refs, chrf), "corpus chrF")
        chrf_stats = chrf_statistics(hyps, refs, chrf)
        assert c.totals().chrf == [sum(column) for column in zip(*chrf_stats)]
    rouge_n = [t for t in ROUGE_N if t in metrics]
    rouge_types = [t for t in ("rougeL", "rougeLsum", *rouge_n) if t in metrics]
    pairs = rouge_pairs(hyps, refs, rouge_types, stem) if rouge_types else []
    if "rougeL" in metrics:
        assert_rouge(s.rouge_l, rouge_mean(pairs, "rougeL"), "corpus rougeL")
    if "rougeLsum" in metrics:
        assert_rouge(s.rouge_lsum, rouge_mean(pairs, "rougeLsum"), "corpus rougeLsum")
    assert list(s.rouge_n) == rouge_n
    for t in rouge_n:
        assert_rouge(s.rouge_n[t], rouge_mean(pairs, t), f"corpus {t}")
    words = process_words(refs[0], hyps, lowercase) if "wer" in metrics and hyps else None
    if words is not None:
        assert_counts(s.wer, words, "corpus WER")
    chars = process_characters(refs[0], hyps, lowercase) if "cer" in metrics and hyps else None
    if chars is not None:
        assert_counts(s.cer, chars, "corpus CER")
    if not segments:
        return c
    if "bleu" in metrics:
        sentences = sentence_bleus(hyps, refs, **bleu_options)
        for i in range(0, len(hyps), 97):  # the batched oracle is the public call's figures
            assert_bleu(sentences[i], sentence_bleu(hyps[i], [r[i] for r in refs], **bleu_options), "oracle")
    for i, hyp in enumerate(hyps):
        seg = c.segment_scores(i)
        what = f"segment {i}: {hyp!r}"
        if "bleu" in metrics:
            assert_bleu(seg.bleu, sentences[i], what)
        if "rougeL" in metrics:
            assert_rouge(seg.rouge_l, pairs[i]["rougeL"], what)
        if "rougeLsum" in metrics:
            assert_rouge(seg.rouge_lsum, pairs[i]["rougeLsum"], what)
        for t in rouge_n:
            assert_rouge(seg.rouge_n[t], pairs[i][t], f"{what} {t}")
        if "chrf" in metrics:
            assert list(c.statistics(i).chrf) == chrf_stats[i], what
            assert_chrf(seg.chrf, chrf_metric(chrf)._compute_score_from_stats(chrf_stats[i]), what)
            if i % 97 == 0:  # the batched oracle is the public call's figures
                assert_chrf(seg.chrf, chrf_metric(chrf).sentence_score(hyp, [r[i] for r in refs]), what)
        if words is not None:
            a = words.alignments[i]
            assert _chunk_counts(a) == (seg.wer.hits, seg.wer.substitutions, seg.wer.deletions, seg.wer.insertions), what
        if chars is not None:
            a = chars.alignments[i]
            assert _chunk_counts(a) == (seg.cer.hits, seg.cer.substitutions, seg.cer.deletions, seg.cer.insertions), what
    return c


def _chunk_counts(chunks):
    """(hits, S, D, I) of one jiwer alignment."""
    h = s = d = i = 0
    for c in chunks:
        if c.type == "equal":
            h += c.ref_end_idx - c.ref_start_idx
        elif c.type == "substitute":
            s += c.ref_end_idx - c.ref_start_idx
        elif c.type == "delete":
            d += c.ref_end_idx - c.ref_start_idx
        else:
            i += c.hyp_end_idx - c.hyp_start_idx
    return h, s, d, i
