"""One segment: each side's text analysed once, and the segment's statistics for every metric."""

from __future__ import annotations

from dataclasses import dataclass
from sys import intern
from typing import Sequence

from . import bleu, rouge, wer
from .config import ScoringConfig
from .tokenizers import RougeScoreTokenizer, jiwer_words

Tokens = tuple[str, ...]


class Analysis:
    """A segment text's tokens for every enabled metric; reused while its pairing shifts.

    Tokens are interned tuples: a 100,000-line pair holds millions of them, mostly repeats.
    ``sentences`` (ROUGE-Lsum's lines) is kept only for a text with a line break; a one-line
    text is its own single sentence. ``chars`` is the text as jiwer's CER sees its characters.
    """

    __slots__ = ("text", "bleu", "rouge", "sentences", "words", "chars", "dropped")

    text: str
    bleu: Tokens | None
    rouge: Tokens | None
    sentences: list[Tokens] | None
    words: Tokens | None
    chars: str | None
    dropped: bool


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


class Analyser:
    """Analyses texts and scores segments under one configuration (tokenizers looked up once)."""

    def __init__(self, config: ScoringConfig) -> None:
        metrics = config.metrics
        self.config = config
        self.order = config.bleu.max_ngram_order
        self.bleu_tokens = config.bleu.tokenizer.tokens if "bleu" in metrics else None
        self.bleu_lower = config.bleu.lowercase
        self.rouge_l = "rougeL" in metrics
        self.rouge_lsum = "rougeLsum" in metrics
        self.rouge_tokens = config.rouge.tokenizer.tokens if self.rouge_l or self.rouge_lsum else None
        self.check_dropped = self.rouge_tokens is not None and config.rouge.tokenizer_name == "rouge-score"
        self.lower = config.wer_transform == "lowercase"
        self.word_tokens = jiwer_words(self.lower).tokens if "wer" in metrics else None
        self.cer = "cer" in metrics

    def __call__(self, text: str) -> Analysis:
        a = Analysis()
        a.text = text
        a.bleu = a.rouge = a.sentences = a.words = a.chars = None
        a.dropped = False
        if self.bleu_tokens is not None:
            a.bleu = tuple(map(intern, self.bleu_tokens(text.lower() if self.bleu_lower else text)))
        if self.rouge_tokens is not None:
            tokenize = self.rouge_tokens
            a.rouge = tuple(map(intern, tokenize(text)))
            if self.rouge_lsum and "\n" in text:
                a.sentences = [tuple(map(intern, tokenize(s))) for s in text.split("\n") if s]
            a.dropped = self.check_dropped and RougeScoreTokenizer.dropped(text)
        if self.word_tokens is not None:
            a.words = tuple(map(intern, self.word_tokens(text)))
        if self.cer:
            a.chars = text.lower().strip() if self.lower else text.strip()
        return a

    def statistics(self, hyp: Analysis, refs: Sequence[Analysis]) -> SegmentStatistics:
        bleu_stats = bleu.statistics(hyp.bleu, [r.bleu for r in refs], self.order) if hyp.bleu is not None else None
        rouge_l = rouge_lsum = None
        rouge_ref = 0
        if hyp.rouge is not None:
            per_ref = [rouge.rouge_l(hyp.rouge, r.rouge) for r in refs]
            if self.rouge_l:
                rouge_ref = rouge.best(per_ref)
                rouge_l = per_ref[rouge_ref]
            if self.rouge_lsum:
                if hyp.sentences is not None or any(r.sentences is not None for r in refs):
                    per_ref = [rouge.rouge_lsum(_sentences(hyp), _sentences(r)) for r in refs]
                # one sentence on each side: the summary-level LCS is the plain LCS
                rouge_lsum = per_ref[rouge.best(per_ref)]
        # jiwer has one reference per hypothesis: the first reference is the one WER and CER use.
        ref = refs[0]
        word_counts = wer.counts(ref.words, hyp.words) if hyp.words is not None else None
        char_counts = wer.counts(ref.chars, hyp.chars) if hyp.chars is not None else None
        dropped = hyp.dropped or any(r.dropped for r in refs)
        differs = (
            (bleu_stats is not None and bleu_stats[2] < bleu_stats[0])  # an unmatched unigram
            or (word_counts is not None and word_counts.hits != max(word_counts.ref_len, word_counts.hyp_len))
            # a token outside the LCS: lengths differ, or equal lengths with LCS < length (F < 1)
            or (rouge_l is not None and (len(hyp.rouge) != len(refs[rouge_ref].rouge) or (bool(hyp.rouge) and rouge_l.fmeasure < 1)))
        )
        return SegmentStatistics(bleu_stats, rouge_l, rouge_ref, rouge_lsum, word_counts, char_counts, dropped, differs)


def _sentences(a: Analysis) -> list[Tokens]:
    """ROUGE-Lsum's sentences: the text's non-empty lines, tokenized."""
    if a.sentences is not None:
        return a.sentences
    return [a.rouge] if a.text else []
