"""One segment: each side's text analysed once, and the segment's statistics for every metric."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from . import bleu, rouge, wer
from .config import ScoringConfig
from .tokenizers import JiwerChars, JiwerWords, RougeScoreTokenizer


class Analysis:
    """A segment text's tokens for every enabled metric; reused while its pairing shifts."""

    __slots__ = ("text", "bleu", "rouge", "rouge_sentences", "words", "chars", "dropped")

    def __init__(self, text: str, config: ScoringConfig) -> None:
        metrics = config.metrics
        self.text = text
        self.bleu = bleu.analyse(text, config.bleu) if "bleu" in metrics else None
        self.rouge = self.rouge_sentences = None
        self.dropped = False
        if "rougeL" in metrics or "rougeLsum" in metrics:
            tokenize = config.rouge.tokenizer.tokens
            if "rougeL" in metrics:
                self.rouge = tokenize(text)
            if "rougeLsum" in metrics:
                self.rouge_sentences = [tokenize(s) for s in text.split("\n") if s]
            self.dropped = config.rouge.tokenizer_name == "rouge-score" and RougeScoreTokenizer.dropped(text)
        lowercase = config.wer_transform == "lowercase"
        self.words = JiwerWords(lowercase).tokens(text) if "wer" in metrics else None
        self.chars = JiwerChars(lowercase).tokens(text) if "cer" in metrics else None


@dataclass(frozen=True, slots=True)
class SegmentStatistics:
    """Everything corpus totals are summed from; ``rouge_ref`` is the reference ROUGE-L kept."""

    bleu: list[int] | None
    rouge_l: rouge.RougeScore | None
    rouge_ref: int
    rouge_lsum: rouge.RougeScore | None
    wer: wer.ErrorCounts | None
    cer: wer.ErrorCounts | None
    dropped: bool
    differs: bool  # whether the segment has any finding


def statistics(hyp: Analysis, refs: Sequence[Analysis]) -> SegmentStatistics:
    bleu_stats = bleu.statistics(hyp.bleu, [r.bleu for r in refs]) if hyp.bleu is not None else None
    rouge_l, rouge_ref = None, 0
    if hyp.rouge is not None:
        per_ref = [rouge.rouge_l(hyp.rouge, r.rouge) for r in refs]
        rouge_ref = rouge.best(per_ref)
        rouge_l = per_ref[rouge_ref]
    rouge_lsum = None
    if hyp.rouge_sentences is not None:
        per_ref = [rouge.rouge_lsum(hyp.rouge_sentences, r.rouge_sentences) for r in refs]
        rouge_lsum = per_ref[rouge.best(per_ref)]
    # jiwer has one reference per hypothesis: the first reference is the one WER and CER use.
    word_counts = wer.counts(refs[0].words, hyp.words) if hyp.words is not None else None
    char_counts = wer.counts(refs[0].chars, hyp.chars) if hyp.chars is not None else None
    dropped = hyp.dropped or any(r.dropped for r in refs)
    differs = (
        (bleu_stats is not None and bleu_stats[2] < bleu_stats[0])  # an unmatched unigram
        or (word_counts is not None and word_counts.hits != max(word_counts.ref_len, word_counts.hyp_len))
        # a token outside the LCS: lengths differ, or equal lengths with LCS < length (F < 1)
        or (hyp.rouge is not None and (len(hyp.rouge) != len(refs[rouge_ref].rouge) or (bool(hyp.rouge) and rouge_l.fmeasure < 1)))
    )
    return SegmentStatistics(bleu_stats, rouge_l, rouge_ref, rouge_lsum, word_counts, char_counts, dropped, differs)
