"""Findings: where a segment's hypothesis and references differ, as spans into their texts.

Sides are numbered as in :class:`~scorelens.core.corpus.Corpus`: 0 is the hypothesis, k is
reference k. Offsets are code points into that side's segment text.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Iterator, Sequence

from . import bleu, rouge, ter, wer, wer_normalizers, wer_sclite
from .config import ScoringConfig
from .segment import Analysis, SegmentStatistics
from .tokenizers import Span, contiguous_words, jiwer_words, lower

UNMATCHED = "bleu.unmatched"
SUBSTITUTION = "wer.substitution"
INSERTION = "wer.insertion"
DELETION = "wer.deletion"
OUTSIDE_LCS = "rouge.outside-lcs"
SHIFT = "ter.shift"

# Which tokens one LCS leaves out takes a bit matrix of hypothesis × reference tokens (rapidfuzz's
# editops): above this many cells (32 MB) the ROUGE-L findings of a segment are left out; its
# scores need no matrix and stay exact.
OUTSIDE_LCS_CELLS = 2**28


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    segment: int
    side: int
    start: int
    end: int
    text: str
    # the matching place on the other side: reference words of a substitution, the point
    # where an inserted word has no counterpart, the hypothesis point a deletion belongs at
    other_side: int | None = None
    other_start: int = 0
    other_end: int = 0
    other_text: str = ""
    # a shift's destination: the hypothesis offset the moved words belong at
    target: int | None = None


def _runs(indices: Sequence[int]) -> Iterator[tuple[int, int]]:
    """Consecutive indices as ``[first, last]`` pairs."""
    it = iter(indices)
    first = last = next(it, None)
    if first is None:
        return
    for i in it:
        if i != last + 1:
            yield first, last
            first = i
        last = i
    yield first, last


def _bleu_spans(text: str, config: ScoringConfig) -> list[Span]:
    """Spans of the text's BLEU tokens (lowercasing can change lengths: spans map back)."""
    tokenizer, lowercase = config.bleu_tokenizing
    if not lowercase:
        return tokenizer.spans(text, tokenizer.tokens(text))
    lowered, origin = lower(text)
    spans = tokenizer.spans(lowered, tokenizer.tokens(lowered))
    if origin is None:
        return spans
    return [(origin[a], origin[b - 1] + 1) if b > a else (origin[a],) * 2 for a, b in spans]


def _point(spans: Sequence[Span], index: int) -> int:
    """Offset of a gap before token ``index``: right after the previous token."""
    if index > 0:
        return spans[index - 1][1]
    return spans[0][0] if spans else 0


def _cover(spans: Sequence[Span], first: int, last: int) -> Span:
    return spans[first][0], spans[last][1]


def segment_findings(
    segment: int, hyp: Analysis, refs: Sequence[Analysis], st: SegmentStatistics, config: ScoringConfig
) -> list[Finding]:
    found: list[Finding] = []
    if hyp.bleu:
        spans = _bleu_spans(hyp.text, config)
        misses = bleu.unmatched(hyp.bleu, [r.bleu for r in refs])
        for first, last in _runs(misses):
            a, b = _cover(spans, first, last)
            found.append(Finding(UNMATCHED, segment, 0, a, b, hyp.text[a:b]))

    if hyp.words is not None and config.wer_rules != "jiwer":
        found.extend(_sclite_findings(segment, hyp.text, refs[0].text, config.wer_rules == "sclite-optional", config.sclite_case))
    elif hyp.words is not None:
        ref = refs[0]
        if wer_normalizers.normalizing(config.wer_transform):
            # each normalised word on the original characters it came from ("25" on "twenty five")
            spans = partial(wer_normalizers.word_spans, name=config.wer_transform, contiguous=config.wer_contiguous, maps=config.wer_word_maps)
            hyp_spans, ref_spans = spans(hyp.text), spans(ref.text)
        else:
            words = jiwer_words(config.wer_transform == "lowercase")
            # the contiguous texts have the same characters but newlines, so spans stay on the originals
            seen = contiguous_words if config.wer_contiguous else str
            hyp_spans = words.spans(seen(hyp.text), hyp.words)
            ref_spans = words.spans(seen(ref.text), ref.words)
        found.extend(_word_findings(segment, hyp, ref, hyp_spans, ref_spans))

    if config.rouge_flavour is not None:
        for code, a, b in config.rouge_flavour.spans(hyp.text, [r.text for r in refs]):
            found.append(Finding(code, segment, 0, a, b, hyp.text[a:b]))

    if hyp.ter is not None and st.ter is not None and st.ter[2]:
        found.extend(_shifts(segment, hyp, refs, config.ter))

    if hyp.rouge is not None and st.rouge_l is not None and len(hyp.rouge) * len(refs[st.rouge_ref].rouge) <= OUTSIDE_LCS_CELLS:
        side = st.rouge_ref + 1
        ref = refs[st.rouge_ref]
        tokenizer = config.rouge.tokenizer
        hyp_out, ref_out = rouge.outside_lcs(hyp.rouge, ref.rouge)
        for analysis, out, s in ((hyp, hyp_out, 0), (ref, ref_out, side)):
            if out:
                spans = tokenizer.spans(analysis.text, analysis.rouge)
                for first, last in _runs(out):
                    a, b = _cover(spans, first, last)
                    found.append(Finding(OUTSIDE_LCS, segment, s, a, b, analysis.text[a:b]))
    return found


def _word_findings(segment: int, hyp: Analysis, ref: Analysis, hyp_spans: Sequence[Span], ref_spans: Sequence[Span]) -> list[Finding]:
    """WER's substitutions, insertions and deletions from jiwer's alignment of the two sides' words."""
    found = []
    for tag, r1, r2, h1, h2 in wer.alignment(ref.words, hyp.words):
        if tag == "replace":
            a, b = _span_of(hyp_spans, h1, h2)
            c, d = _span_of(ref_spans, r1, r2)
            found.append(Finding(SUBSTITUTION, segment, 0, a, b, hyp.text[a:b], 1, c, d, ref.text[c:d]))
        elif tag == "insert":
            a, b = _span_of(hyp_spans, h1, h2)
            p = _point(ref_spans, r1)
            found.append(Finding(INSERTION, segment, 0, a, b, hyp.text[a:b], 1, p, p))
        elif tag == "delete":
            c, d = _span_of(ref_spans, r1, r2)
            p = _point(hyp_spans, h1)
            found.append(Finding(DELETION, segment, 1, c, d, ref.text[c:d], 0, p, p))
    return found


def _span_of(spans: Sequence[Span], start: int, stop: int) -> Span:
    """What tokens ``[start, stop)`` cover; a normaliser's words may share or reorder spans."""
    return min(s[0] for s in spans[start:stop]), max(s[1] for s in spans[start:stop])


def _shifts(segment: int, hyp: Analysis, refs: Sequence[Analysis], config: ter.TerConfig) -> list[Finding]:
    """TER's shifts: the moved hypothesis words, where the reference has them, and the offset
    they move to. Each shift is stated against the hypothesis text as written; a later shift
    moves words already rearranged by the earlier ones, so its words are those at its position
    then, and its destination is given as "after the word that then precedes it"."""
    best = ter.best_alignment(hyp.ter[0], [r.ter[1] for r in refs])
    ref = refs[best.reference]
    spans = config.spans(hyp.text, config.tokens(hyp.text))
    ref_spans = config.spans(ref.text, config.reference_tokens(ref.text))
    order = list(range(len(spans)))
    found = []
    for shift in best.shifts:
        moved = order[shift.start : shift.start + shift.length]
        order = ter._perform_shift(order, shift.start, shift.length, shift.target)
        a, b = min(spans[k][0] for k in moved), max(spans[k][1] for k in moved)
        c, d = ref_spans[shift.ref_start][0], ref_spans[shift.ref_start + shift.length - 1][1]
        at = order.index(moved[0])
        target = spans[order[at - 1]][1] if at else spans[order[shift.length]][0]
        found.append(Finding(SHIFT, segment, 0, a, b, hyp.text[a:b], best.reference + 1, c, d, ref.text[c:d], target))
    return found


def differing_words(text: str, other: str) -> list[Span]:
    """Spans of the words of ``text`` that the word alignment with ``other`` does not match (what
    ``text`` substitutes or inserts), consecutive words as one span: how one system's output for a
    segment differs from another's. Words as jiwer splits them, aligned as WER aligns them."""
    words = jiwer_words()
    tokens = words.tokens(text)
    changed = [j for tag, _, _, j1, j2 in wer.alignment(words.tokens(other), tokens) if tag in ("replace", "insert") for j in range(j1, j2)]
    spans = words.spans(text, tokens)
    return [_cover(spans, first, last) for first, last in _runs(changed)]


def _sclite_findings(segment: int, hyp: str, ref: str, opt_del: bool, case: str = "ascii") -> list[Finding]:
    """WER findings from sclite's own alignment (its notation, costs and ties), whose steps are
    character spans already; an insertion or deletion belongs after the last word aligned on
    the other side."""
    found = []
    hyp_at = ref_at = 0
    for step in wer_sclite.align(ref, hyp, case=case, opt_del=opt_del).steps:
        if step.tag == "replace":
            (a, b), (c, d) = step.hyp, step.ref
            found.append(Finding(SUBSTITUTION, segment, 0, a, b, hyp[a:b], 1, c, d, ref[c:d]))
        elif step.tag == "insert":
            a, b = step.hyp
            found.append(Finding(INSERTION, segment, 0, a, b, hyp[a:b], 1, ref_at, ref_at))
        elif step.tag == "delete":
            c, d = step.ref
            found.append(Finding(DELETION, segment, 1, c, d, ref[c:d], 0, hyp_at, hyp_at))
        hyp_at = step.hyp[1] if step.hyp else hyp_at
        ref_at = step.ref[1] if step.ref else ref_at
    return found
