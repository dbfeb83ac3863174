"""One segment: each side's text analysed once, and the segment's statistics for every metric.

Both are plain tuples (``Analysis``, ``Record``): a 100,000-line corpus makes hundreds of
thousands of them, and a frozen dataclass costs a microsecond apiece to build. The public
:class:`SegmentStatistics` is made from a record when asked for.

Tokens are kept as numbers: the analyser numbers every distinct token it meets. Equal tokens
then share one small int (a 100,000-line pair holds millions of tokens, mostly repeats), and
rapidfuzz compares such ints by value, where it compares strings by their hash.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property, lru_cache, partial
from itertools import accumulate, chain, count, repeat
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, NamedTuple, Sequence

from . import bleu, chrf, rouge, ter, wer, wer_normalizers
from .config import ScoringConfig
from .rouge import ROUGE_N
from .tokenizers import RougeScoreTokenizer, contiguous_chars, contiguous_words, jiwer_words

if TYPE_CHECKING:
    import numpy as np

    from .columnar import Columns
    from .ngram_counts import Side

Tokens = tuple[int, ...]  # token numbers from the analyser's vocabulary
# Segments whose chrF and ROUGE-N n-grams are matched together: measured fastest around 100
# (their arrays stay in the CPU caches).
BATCH = 100
# Segments scored together from their texts (see Analyser.records). ROUGE-1+2's matching
# measured 6.3 µs a line in batches of 100, 4.7 at 500, 4.6 at 1,000; BLEU's 7.9 at 100, 6.9 at
# 500, 7.3 at 1,000; chrF's 21 at 100 and 500 alike (23 at 50).
TEXT_BATCH = 500
# int64s in a block made and freed before scoring from texts. A batch makes and frees a few MB
# of arrays; glibc gives freed memory at the top of its heap back to the system once more than
# twice its mmap threshold is free, and the next batch faults it in again (a third of BLEU's
# matching time on 100,000 lines). Freeing a mapped block raises that threshold to the block's
# size, so after this one (8 MB) the batches' memory stays in the heap.
HEAP_BLOCK = 1 << 20
# Segments whose ROUGE flavour's statistics are computed together (its numpy kernel's tables)
FLAVOUR_BATCH = 2000
# Fewer segments than this are scored one at a time (by a corpus, or in statistics_many): the
# batch paths' set-up (some hundred numpy calls, 0.3-0.6 ms) outweighs what they save on so few
# (measured even at 4 to 8 segments).
FEW_SEGMENTS = 5
# The metrics scored from texts (the others need a text's analysis: its sentences, TER's words).
FROM_TEXTS = frozenset({"bleu", "cer", "chrf", "rougeL", "rougeLsum", "wer", *ROUGE_N})
Triple = tuple[float, float, float]  # precision, recall, F
Counts = tuple[int, int, int, int]  # hits, substitutions, deletions, insertions


class Analysis(NamedTuple):
    """A segment text's tokens for every enabled metric; reused while its pairing shifts.

    ``sentences`` (ROUGE-Lsum's lines) is kept only for a text with a line break; a one-line
    text is its own single sentence. ``chars`` is the text as jiwer's CER sees its characters;
    ``chrf`` the characters whose n-grams chrF counts and chrF++'s words.
    """

    text: str
    bleu: Tokens | None
    rouge: Tokens | None
    sentences: list[Tokens] | None
    words: Tokens | None
    chars: str | None
    dropped: bool
    chrf: tuple[str, Tokens] | None = None
    ter: tuple[Tokens, Tokens] | None = None  # TER's words as a hypothesis, as a reference


class Record(NamedTuple):
    """A segment's statistics as raw numbers: what corpus totals are summed from."""

    bleu: tuple[int, ...] | None
    rouge_l: Triple | None
    rouge_ref: int
    rouge_lsum: Triple | None
    wer: Counts | None
    cer: Counts | None
    dropped: bool
    differs: bool
    rouge_n: tuple[float, ...] | None = None  # (P, R, F) of each enabled ROUGE-N, shortest n first
    chrf: tuple[int, ...] | None = None  # chrF's (hyp, ref, match) counts per order
    ter: tuple[int, int, int] | None = None  # (num_edits, ref_words, shifts)
    # what BLEU's flavour reads of the segment when it is the corpus's last (NLTK's methods 5-7)
    bleu_last: tuple[int, ...] | None = None
    rouge_wsu: tuple[float, ...] | None = None  # (P, R, F) of each enabled ROUGE-W, -S, -SU (ROUGE-1.5.5's)
    rouge_skipped: tuple[int] | None = None  # (1,) where ROUGE's flavour skips the pair (the rouge package)


class RecordColumns:
    """Records of many segments as columns of numbers in arrays (a row a segment; None for a
    metric that is off), iterated as the records. What a worker process sends back: an array
    pickles in one piece, where records pickle one at a time (on 100,000 segments of ROUGE-1+2,
    0.15 s to pickle and 0.07 s to unpickle), and only the fields scored from texts are kept.
    """

    __slots__ = ("bleu", "rouge_l", "rouge_ref", "wer", "rouge_n", "dropped", "differs", "bleu_last", "chrf", "cer", "rouge_lsum")

    def __init__(
        self,
        bleu_: np.ndarray | None,
        rouge_l: np.ndarray | None,
        rouge_ref: np.ndarray,
        wer_: np.ndarray | None,
        rouge_n: np.ndarray | None,
        dropped: np.ndarray,
        differs: np.ndarray,
        bleu_last: np.ndarray | None = None,
        chrf_: np.ndarray | None = None,
        cer: np.ndarray | None = None,
        rouge_lsum: np.ndarray | None = None,
    ) -> None:
        self.bleu = bleu_
        self.rouge_l = rouge_l
        self.rouge_ref = rouge_ref
        self.wer = wer_
        self.rouge_n = rouge_n
        self.dropped = dropped
        self.differs = differs
        self.bleu_last = bleu_last
        self.chrf = chrf_
        self.cer = cer
        self.rouge_lsum = rouge_lsum

    @classmethod
    def joined(cls, parts: Sequence[RecordColumns]) -> RecordColumns:
        """The segments of ``parts``, one after another."""
        import numpy as np

        columns = ([getattr(part, name) for part in parts] for name in cls.__slots__)
        return cls(*(None if column[0] is None else np.concatenate(column) for column in columns))

    def __len__(self) -> int:
        return len(self.differs)

    def __getitem__(self, rows: slice) -> RecordColumns:
        """Some of the segments (views of the same arrays)."""
        columns = (getattr(self, name) for name in self.__slots__)
        return RecordColumns(*(None if column is None else column[rows] for column in columns))

    def __iter__(self) -> Iterator[Record]:
        def rows(column: np.ndarray | None) -> Iterable:
            return repeat(None) if column is None else map(tuple, column.tolist())

        fields = zip(
            rows(self.bleu),
            rows(self.rouge_l),
            self.rouge_ref.tolist(),
            rows(self.rouge_lsum),
            rows(self.wer),
            rows(self.cer),
            self.dropped.tolist(),
            self.differs.tolist(),
            rows(self.rouge_n),
            rows(self.chrf),
            repeat(None),
            rows(self.bleu_last),
            repeat(None),
            repeat(None),
        )
        # tuple.__new__ makes each record in C; Record(...) would run its __new__ in Python
        return map(tuple.__new__, repeat(Record), fields)


@dataclass(frozen=True, slots=True)
class SegmentStatistics:
    """A segment's statistics; ``rouge_ref`` is the reference whose ROUGE-L was kept."""

    bleu: list[int] | None
    rouge_l: rouge.RougeScore | None
    rouge_ref: int
    rouge_lsum: rouge.RougeScore | None
    wer: wer.ErrorCounts | None
    cer: wer.ErrorCounts | None
    dropped: bool
    differs: bool  # whether the segment has any finding
    rouge_n: tuple[rouge.RougeScore, ...] | None = None  # each enabled ROUGE-N, shortest n first
    chrf: list[int] | None = None
    ter: tuple[int, int, int] | None = None
    bleu_last: tuple[int, ...] | None = None  # see Record
    rouge_wsu: tuple[rouge.RougeScore, ...] | None = None
    rouge_skipped: bool = False

    @classmethod
    def of(cls, r: Record) -> SegmentStatistics:
        return cls(
            list(r.bleu) if r.bleu is not None else None,
            rouge.RougeScore(*r.rouge_l) if r.rouge_l is not None else None,
            r.rouge_ref,
            rouge.RougeScore(*r.rouge_lsum) if r.rouge_lsum is not None else None,
            wer.ErrorCounts(*r.wer) if r.wer is not None else None,
            wer.ErrorCounts(*r.cer) if r.cer is not None else None,
            r.dropped,
            r.differs,
            _triples(r.rouge_n) if r.rouge_n is not None else None,
            list(r.chrf) if r.chrf is not None else None,
            r.ter,
            r.bleu_last,
            _triples(r.rouge_wsu) if r.rouge_wsu is not None else None,
            bool(r.rouge_skipped and r.rouge_skipped[0]),
        )


def _triples(flat: tuple[float, ...]) -> tuple[rouge.RougeScore, ...]:
    return tuple(rouge.RougeScore(*flat[i : i + 3]) for i in range(0, len(flat), 3))


class _WordNumbers(dict):
    """Token numbers of each distinct word, for a tokenizer whose tokens never cross words."""

    def __init__(self, word_tokens: Callable[[str], list[str]], number: Callable[[str], int]) -> None:
        self.word_tokens = word_tokens
        self.number = number

    def __missing__(self, word: str) -> Tokens:
        numbers = self[word] = tuple(map(self.number, self.word_tokens(word)))
        return numbers


def _lowered(tokens: Callable[[str], Tokens]) -> Callable[[str], Tokens]:
    return lambda text: tokens(text.lower())


def _numberers(tokenizer, number: Callable[[str], int], lower: bool):
    """(text -> its tokens' numbers, word -> its tokens' numbers), lowercasing first if asked.

    Words repeat, so word-local tokenizers run once per distinct word of a text, and those
    whose words' tokens depend on their place in the line (intl) once per word and place. The
    word function is None for a tokenizer that is not word-local.
    """
    word_tokens = getattr(tokenizer, "word_tokens", None)
    places = getattr(tokenizer, "places", None)
    of_word = None
    if word_tokens is not None:
        words, numbers = tokenizer.words, _WordNumbers(word_tokens, number).__getitem__
        of_text = lambda text: tuple(chain.from_iterable(map(numbers, words(text))))
        of_word = lambda word: tuple(map(number, word_tokens(word)))
    elif places is not None:
        in_place = _WordNumbers(tokenizer.place_tokens, number).__getitem__
        of_text = lambda text: tuple(chain.from_iterable(map(in_place, places(text))))
    else:
        tokens = tokenizer.tokens
        of_text = lambda text: tuple(map(number, tokens(text)))
    if lower:
        return _lowered(of_text), of_word and _lowered(of_word)
    return of_text, of_word


def _nothing(word: str) -> Tokens:
    return ()


class _WordEntries(dict):
    """Each distinct word's (BLEU token numbers, ROUGE token numbers, number as jiwer's word)."""

    def __init__(self, bleu_: Callable[[str], Tokens], rouge_: Callable[[str], Tokens], number: Callable[[str], int]) -> None:
        self.bleu = bleu_
        self.rouge = rouge_
        self.number = number

    def __missing__(self, word: str) -> tuple[Tokens, Tokens, int]:
        entry = self[word] = (self.bleu(word), self.rouge(word), self.number(word))
        return entry


def _outside_lcs(hyp: Tokens, ref: Tokens, f: float) -> bool:
    """Whether a token lies outside the LCS: lengths differ, or equal lengths with LCS < length (F < 1)."""
    return len(hyp) != len(ref) or (bool(hyp) and f < 1)


def _plain(text: str, words: list[str]) -> bool:
    """Whether ``words`` (``text.split()``) are the text's words for every word-local tokenizer:
    single spaces only (jiwer splits at spaces only), nothing 13a unescapes (entities, <skipped>)."""
    return "&" not in text and "<" not in text and " ".join(words) == text


class Analyser:
    """Analyses texts and scores segments under one configuration (tokenizers looked up once).

    A text has up to three token streams: BLEU's, ROUGE's and jiwer's words. When two or more
    are on and BLEU's tokenizer is word-local (13a) or BLEU is off, a plain text is split once
    and each of its words looked up for all three at once (a word's entry is made the first time
    it is met); other texts go through each tokenizer. Lowercasing is word-local too: its one context rule
    (Greek final sigma) stops at whitespace. Segments scored for BLEU, ROUGE-L, ROUGE-N and WER
    alone go from texts to records without analyses, a batch at a time (:meth:`records`).
    """

    def __init__(self, config: ScoringConfig) -> None:
        metrics = config.metrics
        self.vocabulary: defaultdict[str, int] = defaultdict(count().__next__)
        number = self.vocabulary.__getitem__
        self.order = config.bleu_order
        # BLEU's flavour scores a segment's token numbers its own way (sacreBLEU's are batched)
        self.bleu_flavour = config.bleu_flavour
        self.bleu = "bleu" in metrics
        self.rouge_l = "rougeL" in metrics
        self.rouge_lsum = "rougeLsum" in metrics
        self.rouge_n = [int(key[5:]) for key in config.rouge_n]
        # ROUGE's flavour scores a segment's texts its own way: rouge-score's tokens are not made
        self.rouge_flavour = config.rouge_flavour
        if self.rouge_flavour is not None:
            self.rouge_l = self.rouge_lsum = False
            self.rouge_n = []
        self.rouge = self.rouge_l or self.rouge_lsum or bool(self.rouge_n)
        # ROUGE-W/S/SU beside rouge-score's own ROUGE: on their own tokens of the texts
        self.rouge_wsu = config.rouge_wsu_extension
        # whether ROUGE's flavour or extension scores a batch of segments together (statistics_many)
        self.batched = any(getattr(r, "batched", False) for r in (self.rouge_flavour, self.rouge_wsu))
        self.wer = "wer" in metrics
        self.check_dropped = self.rouge and config.rouge.tokenizer_name == "rouge-score"
        self.lower = config.wer_transform == "lowercase"
        # a Whisper normaliser rewrites across words ("twenty five" -> "25"): jiwer's words, and
        # CER's characters, come from the whole normalised text, never word by word
        self.normalize = None
        if wer_normalizers.normalizing(config.wer_transform):
            self.normalize = partial(
                wer_normalizers.normalize, name=config.wer_transform, contiguous=config.wer_contiguous, maps=config.wer_word_maps
            )
            split_normalized = partial(wer_normalizers.split, name=config.wer_transform)
            self.normalized_words = lambda normalized: tuple(map(number, split_normalized(normalized)))
            self.normalized_chars = partial(wer_normalizers.chars, name=config.wer_transform)
        self.words_by_word = self.wer and self.normalize is None
        self.cer = "cer" in metrics
        self.chrf = config.chrf if "chrf" in metrics else None
        self.ter = config.ter if "ter" in metrics else None
        self.ter_words = lambda words: tuple(map(number, words))
        self.bleu_tokens, bleu_word = None, _nothing
        if self.bleu:
            tokenizer, lowercase = config.bleu_tokenizing
            self.bleu_tokens, bleu_word = _numberers(tokenizer, number, lowercase)
        self.rouge_tokens, rouge_word = _numberers(config.rouge.tokenizer, number, False)
        jiwer = jiwer_words(self.lower).tokens
        # a newline is part of a word to jiwer's default, a space between sentences to its
        # contiguous transforms; a text with one is not plain, so its words always come this way
        self.contiguous = config.wer_contiguous
        if self.contiguous:
            self.word_numbers = lambda text: tuple(map(number, jiwer(contiguous_words(text))))
        else:
            self.word_numbers = lambda text: tuple(map(number, jiwer(text)))
        self.chrf_words = lambda text: tuple(map(number, chrf.words(text)))
        word_number = (lambda word: number(word.lower())) if self.lower else number
        self.by_word = None
        if bleu_word is not None and self.bleu + self.rouge + self.words_by_word > 1:  # one stream is as fast alone
            self.by_word = _WordEntries(bleu_word, rouge_word if self.rouge else _nothing, word_number).__getitem__
        # Scored from texts (see records): each stream's tokens of a word, for the word-local
        # ones (for a plain text), and of a text (the others, and a text that is not plain).
        # With several streams, a word's tokens are those of its entry, made once for both ways:
        # an edit after a cold start from texts finds its words' entries.
        # sclite's rules align each segment's texts as written (its notation), never token arrays
        self.sclite = None
        if config.wer_rules != "jiwer":
            from .wer_sclite import tally as sclite_tally

            self.sclite = partial(sclite_tally, case=config.sclite_case, opt_del=config.wer_rules == "sclite-optional")
        self.from_texts = (
            bool(metrics)
            and metrics <= FROM_TEXTS
            and self.sclite is None
            and self.normalize is None
            and self.rouge_flavour is None
        )
        self.word_streams: dict[str, Callable[[str], Tokens]] = {}
        self.text_streams: dict[str, Callable[[str], Tokens]] = {}
        entry = self.by_word
        if self.bleu:
            if bleu_word is not None:
                self.word_streams["bleu"] = (lambda word: entry(word)[0]) if entry else bleu_word
            # words split as the batch splits them (NLTK's whitespace): any text's tokens are its
            # words', so no text needs its own tokenizing (and none is checked for being plain)
            if bleu_word is None or config.bleu_tokenizing[0].words is not str.split:
                self.text_streams["bleu"] = self.bleu_tokens
        self.split = str.split
        if self.rouge:
            self.word_streams["rouge"] = (lambda word: entry(word)[1]) if entry else rouge_word
            tokenizer = config.rouge.tokenizer
            if not (self.bleu or self.wer) and isinstance(tokenizer, RougeScoreTokenizer):
                # ROUGE alone: rouge-score's unstemmed tokens are the units, looked up as bytes
                self.split = tokenizer.ascii_words
                self.word_streams["rouge"] = lambda token: rouge_word(token.decode("ascii"))
        # jiwer's words the only stream: each text's word numbers, a tuple per text, cost less
        # than token arrays, which pay for themselves when streams share a text's split
        self.words_alone = self.wer and not (self.bleu or self.rouge)
        if self.wer:
            self.word_streams["words"] = (lambda word: (entry(word)[2],)) if entry else (lambda word: (word_number(word),))
            self.text_streams["words"] = self.word_numbers

    def __call__(self, text: str) -> Analysis:
        bleu_tokens = rouge_tokens = word_numbers = None
        normalized = self.normalize(text) if self.normalize is not None and (self.wer or self.cer) else None
        if self.by_word is not None and _plain(text, words := text.split()):
            bleu_column, rouge_column, numbers = zip(*map(self.by_word, words)) if words else ((), (), ())
            if self.bleu:
                bleu_tokens = tuple(chain.from_iterable(bleu_column))
            if self.rouge:
                rouge_tokens = tuple(chain.from_iterable(rouge_column))
            if self.words_by_word:
                word_numbers = numbers
        else:
            if self.bleu:
                bleu_tokens = self.bleu_tokens(text)
            if self.rouge:
                rouge_tokens = self.rouge_tokens(text)
            if self.words_by_word:
                word_numbers = self.word_numbers(text)
        if normalized is not None and self.wer:
            word_numbers = self.normalized_words(normalized)
        sentences = None
        if self.rouge_lsum and "\n" in text:
            sentences = [self.rouge_tokens(s) for s in text.split("\n") if s]
        dropped = self.check_dropped and RougeScoreTokenizer.dropped(text)
        chars = None
        if self.cer:
            if normalized is not None:
                chars = self.normalized_chars(normalized)  # jiwer's CER of the normalised text
            else:
                chars = self.cer_chars(text)
        chrf_text = self.chrf_of(text) if self.chrf is not None else None
        ter_words = None
        if self.ter is not None:
            words = self.ter.tokens(text)
            as_hyp = self.ter_words(words)
            # a reference is tokenized twice, as sacreBLEU does (see TerConfig.reference_tokens)
            as_ref = self.ter_words(self.ter.tokens(" ".join(words))) if self.ter.normalized else as_hyp
            ter_words = (as_hyp, as_ref)
        return Analysis(text, bleu_tokens, rouge_tokens, sentences, word_numbers, chars, dropped, chrf_text, ter_words)

    def chrf_of(self, text: str) -> tuple[str, Tokens]:
        """What chrF counts of a text: its characters, and its words' numbers (chrF++)."""
        cased = text.lower() if self.chrf.lowercase else text
        return chrf.chars(cased, self.chrf.whitespace), self.chrf_words(cased) if self.chrf.word_order else ()

    def cer_chars(self, text: str) -> str:
        """The characters jiwer's CER compares of a text (no Whisper normaliser)."""
        cased = text.lower() if self.lower else text
        return contiguous_chars(cased) if self.contiguous else cased.strip()

    def units(self, texts: Sequence[str]) -> list[Sequence[int] | str]:
        """Each text as jiwer aligns it, for rapidfuzz: its words' numbers with WER on (as a
        string of one code point a word where they fit), else its characters as CER sees them."""
        if not self.wer:
            return [self(text).chars for text in texts]
        if self.from_texts:
            # a batch at a time, as records are scored: its arrays stay in the CPU caches
            return [unit for start in range(0, len(texts), TEXT_BATCH) for unit in _sequences(self._columns.side(texts[start : start + TEXT_BATCH])["words"])]
        return [self(text).words for text in texts]

    def records(self, columns: Sequence[Sequence[str]]) -> list[Record]:
        """Records of segments given by their texts, one column of texts per side (hypothesis
        first); no analysis is kept (a corpus makes the few it needs later on demand)."""
        return list(self.scored(columns))

    def scored(self, columns: Sequence[Sequence[str]]) -> Iterable[Record]:
        """:meth:`records`, as a :class:`RecordColumns` where the metrics are scored from texts."""
        if self.from_texts:
            return self._scored_from_texts(columns) if len(columns[0]) else []
        hyps = list(map(self, columns[0]))
        refs = list(zip(*[map(self, column) for column in columns[1:]]))
        return self.statistics_many(hyps, refs)

    @cached_property
    def _columns(self) -> Columns:
        from .columnar import Columns  # numpy is loaded only when scoring from texts

        return Columns(self.word_streams, self.text_streams, split=self.split)

    def _scored_from_texts(self, columns: Sequence[Sequence[str]]) -> RecordColumns:
        """:meth:`scored` of :data:`FROM_TEXTS` metrics: a batch's texts made into token
        arrays together (:mod:`.columnar`), BLEU's, chrF's and ROUGE-N's n-grams matched for the
        whole batch, ROUGE-L, WER and CER one rapidfuzz call per segment (no analyses kept)."""
        import numpy as np

        np.empty(HEAP_BLOCK, np.int64)  # made and freed at once (see HEAP_BLOCK)
        parts = []
        for start in range(0, len(columns[0]), TEXT_BATCH):
            batch = [column[start : start + TEXT_BATCH] for column in columns]
            if self.bleu or self.rouge:  # (WER alone reads its words itself; chrF its characters)
                hyp, *refs = map(self._columns.side, batch)
            # whether the segment has a finding, as statistics() has it
            differs = np.zeros(len(batch[0]), bool)
            bleu_stats = bleu_last = rouge_l = rouge_lsum = word_counts = rouge_n = None
            rouge_ref = np.zeros(len(batch[0]), np.int64)
            if self.bleu:
                bleu_stats, bleu_last = self._bleu_statistics(hyp["bleu"], [r["bleu"] for r in refs])
                differs |= bleu_stats[:, 2] < bleu_stats[:, 0]  # an unmatched unigram
            if self.rouge_n:
                rouge_n = rouge.ngram_scores_of([hyp["rouge"], *(r["rouge"] for r in refs)], self.rouge_n)
            if self.rouge_l or self.rouge_lsum:
                best, top, outside = _best_lcs_many([hyp["rouge"], *(r["rouge"] for r in refs)])
                if self.rouge_l:
                    rouge_l, rouge_ref = best, top
                    differs |= outside  # a token outside the LCS
                if self.rouge_lsum:
                    rouge_lsum = self._lsum_of(batch, best)
            chrf_stats = char_counts = None
            if self.chrf is not None:
                chrf_stats = self._chrf_statistics(batch)
            # jiwer has one reference per hypothesis: the first
            if self.words_alone:
                word_counts = _tallies(map(self.word_numbers, batch[1]), map(self.word_numbers, batch[0]))
                differs |= word_counts[:, 1:].any(axis=1)  # a word error
            elif self.wer:
                hyp_words, ref_words = hyp["words"], refs[0]["words"]
                word_counts = _tallies(_sequences(ref_words), _sequences(hyp_words))
                hits = word_counts[:, 0]
                differs |= (hits != hyp_words.lengths) | (hits != ref_words.lengths)  # a word error
            if self.cer:
                char_counts = _tallies(map(self.cer_chars, batch[1]), map(self.cer_chars, batch[0]))
            dropped = np.zeros(len(batch[0]), bool)
            if self.check_dropped:
                for texts in batch:
                    if not "".join(texts).isascii():  # one call for an ASCII column
                        dropped[[i for i, text in enumerate(texts) if not text.isascii() and RougeScoreTokenizer.dropped(text)]] = True
            parts.append(RecordColumns(bleu_stats, rouge_l, rouge_ref, word_counts, rouge_n, dropped, differs, bleu_last, chrf_stats, char_counts, rouge_lsum))
        return RecordColumns.joined(parts)

    def _lsum_of(self, batch: Sequence[Sequence[str]], best: np.ndarray) -> np.ndarray:
        """ROUGE-Lsum of a batch's segments, a row each, from ROUGE-L's ``best``: a segment with
        one sentence on each side (no newline in its texts) has ROUGE-L's figures (the
        summary-level LCS is the plain LCS), the others their sentences' summary-level LCS."""
        figures = best.copy()
        if not any("\n" in "".join(column) for column in batch):
            return figures
        for i, texts in enumerate(zip(*batch)):
            if any("\n" in text for text in texts):
                hyp, *refs = ([self.rouge_tokens(line) for line in text.split("\n") if line] for text in texts)
                per_ref = [rouge.summary_scores(hyp, ref) for ref in refs]
                figures[i] = per_ref[rouge.best(per_ref)]
        return figures

    def _chrf_statistics(self, batch: Sequence[Sequence[str]]) -> np.ndarray:
        """chrF's statistics of a batch's segments, a row each."""
        from .ngram_counts import Side

        config = self.chrf
        words = []
        if config.word_order:
            cased = (lambda text: text.lower()) if config.lowercase else (lambda text: text)
            words = [Side.of_numbers([self.chrf_words(cased(text)) for text in texts]) for texts in batch]
        return chrf.statistics_of_sides([chrf.char_side(texts, config) for texts in batch], words, config)

    def _bleu_statistics(self, hyp: Side, refs: Sequence[Side]) -> tuple[np.ndarray, np.ndarray | None]:
        """BLEU's statistics of a batch, a row a segment, sacreBLEU's or the flavour's (and what
        the flavour reads of a segment that is the corpus's last, or None)."""
        if self.bleu_flavour is not None:
            return self.bleu_flavour.statistics_of(hyp, refs)
        return bleu.statistics_of(hyp, refs, self.order), None

    def statistics_many(self, hyps: Sequence[Analysis], refs: Sequence[Sequence[Analysis]]) -> list[Record]:
        """:meth:`statistics` of many segments (``refs[i]``: segment i's references): BLEU's,
        chrF's and ROUGE-N's n-grams matched for all of them at once, a batch at a time."""
        if len(hyps) < FEW_SEGMENTS:
            return list(map(self.statistics, hyps, refs))
        records: list[Record] = []
        flavoured = wsu = repeat(None)
        if self.rouge_flavour is not None:
            flavoured = self._batched(self.rouge_flavour.statistics_of, hyps, refs)
        if self.rouge_wsu is not None:
            wsu = self._batched(self.rouge_wsu.statistics_of, hyps, refs)
        for start in range(0, len(hyps), BATCH):
            hyp_batch = hyps[start : start + BATCH]
            ref_batch = refs[start : start + BATCH]
            columns = list(zip(*ref_batch))  # every segment's k-th reference
            bleu_stats = bleu_last = chrf_stats = rouge_n = repeat(None)
            if self.bleu:
                from .ngram_counts import Side

                stats, last = self._bleu_statistics(Side.of_numbers([h.bleu for h in hyp_batch]), [Side.of_numbers([r.bleu for r in c]) for c in columns])
                bleu_stats = map(tuple, stats.tolist())
                if last is not None:
                    bleu_last = map(tuple, last.tolist())
            if self.chrf is not None:
                chrf_stats = iter(chrf.statistics_many([h.chrf for h in hyp_batch], [[r.chrf for r in c] for c in columns], self.chrf))
            if self.rouge_n:
                rouge_n = iter(rouge.ngram_scores_many([h.rouge for h in hyp_batch], [[r.rouge for r in c] for c in columns], self.rouge_n))
            records += map(self.statistics, hyp_batch, ref_batch, bleu_stats, chrf_stats, rouge_n, bleu_last, flavoured, wsu)
        return records

    @staticmethod
    def _batched(statistics_of, hyps: Sequence[Analysis], refs: Sequence[Sequence[Analysis]]) -> Iterator:
        """A ROUGE flavour's (or extension's) statistics of the segments' texts, ``FLAVOUR_BATCH``
        segments at a time."""
        for start in range(0, len(hyps), FLAVOUR_BATCH):
            hyp_texts = [h.text for h in hyps[start : start + FLAVOUR_BATCH]]
            yield from statistics_of(hyp_texts, [[r.text for r in rs] for rs in refs[start : start + FLAVOUR_BATCH]])

    def statistics(
        self,
        hyp: Analysis,
        refs: Sequence[Analysis],
        bleu_stats: tuple[int, ...] | None = None,
        chrf_stats: tuple[int, ...] | None = None,
        rouge_n: tuple[float, ...] | None = None,
        bleu_last: tuple[int, ...] | None = None,
        flavoured: tuple | None = None,
        wsu: tuple[float, ...] | None = None,
    ) -> Record:
        """The segment's record; ``bleu_stats`` (and its flavour's ``bleu_last``), ``chrf_stats``,
        ``rouge_n``, ROUGE's flavour's statistics (``flavoured``) and ROUGE-W/S/SU's beside
        rouge-score's (``wsu``) when :meth:`statistics_many` has them already."""
        if hyp.bleu is not None and self.bleu_flavour is not None and bleu_stats is None:
            bleu_stats = self.bleu_flavour.statistics(hyp.bleu, [r.bleu for r in refs])
            bleu_last = self.bleu_flavour.last(hyp.bleu, [r.bleu for r in refs])
        elif hyp.bleu is not None and bleu_stats is None:
            bleu_stats = bleu.numbered_statistics(hyp.bleu, [r.bleu for r in refs], self.order)
        rouge_l = rouge_lsum = None
        rouge_ref = 0
        if hyp.rouge is not None and (self.rouge_l or self.rouge_lsum):
            per_ref = [rouge.lcs_scores(hyp.rouge, r.rouge) for r in refs]
            if self.rouge_l:
                rouge_ref = rouge.best(per_ref)
                rouge_l = per_ref[rouge_ref]
            if self.rouge_lsum:
                if hyp.sentences is not None or any(r.sentences is not None for r in refs):
                    per_ref = [rouge.summary_scores(_sentences(hyp), _sentences(r)) for r in refs]
                # (else one sentence on each side: the summary-level LCS is the plain LCS)
                rouge_lsum = per_ref[rouge.best(per_ref)]
        rouge_wsu = rouge_skipped = None
        rouge_differs = False
        if self.rouge_flavour is not None:
            if flavoured is None:
                flavoured = self.rouge_flavour.statistics(hyp.text, [r.text for r in refs])
            rouge_l, rouge_n, rouge_wsu, rouge_skipped, rouge_differs = flavoured
        elif self.rouge_n and rouge_n is None:
            best: list[float] = []
            for n in self.rouge_n:
                per_ref = [rouge.ngram_scores(hyp.rouge, r.rouge, n) for r in refs]
                best += per_ref[rouge.best(per_ref)]
            rouge_n = tuple(best)
        if self.rouge_wsu is not None:
            rouge_wsu = wsu if wsu is not None else self.rouge_wsu.statistics(hyp.text, [r.text for r in refs])
        if hyp.chrf is not None and chrf_stats is None:
            chrf_stats = chrf.statistics(*hyp.chrf, [r.chrf for r in refs], self.chrf)
        # jiwer has one reference per hypothesis: the first reference is the one WER and CER use.
        ref = refs[0]
        if hyp.words is None:
            word_counts = None
        elif self.sclite is not None:
            word_counts = self.sclite(ref.text, hyp.text)
        else:
            word_counts = wer.tally(ref.words, hyp.words)
        char_counts = wer.tally(ref.chars, hyp.chars) if hyp.chars is not None else None
        dropped = hyp.dropped or any(r.dropped for r in refs)
        differs = (
            (bleu_stats is not None and bleu_stats[2] < bleu_stats[0])  # an unmatched unigram
            # any error: hits fall short of a side's length
            or (word_counts is not None and (
                sum(word_counts[1:]) > 0 if self.sclite is not None  # sclite's words are not jiwer's
                else word_counts[0] != len(hyp.words) or word_counts[0] != len(ref.words)
            ))
            or (rouge_l is not None and hyp.rouge is not None and _outside_lcs(hyp.rouge, refs[rouge_ref].rouge, rouge_l[2]))
        )
        ter_stats = ter.numbered_statistics(hyp.ter[0], [r.ter[1] for r in refs]) if hyp.ter is not None else None
        differs = differs or (ter_stats is not None and ter_stats[2] > 0) or rouge_differs
        return Record(
            bleu_stats, rouge_l, rouge_ref, rouge_lsum, word_counts, char_counts, dropped, differs, rouge_n, chrf_stats, ter_stats, bleu_last, rouge_wsu, rouge_skipped
        )


def _tallies(refs: Iterable[Sequence], hyps: Iterable[Sequence]) -> np.ndarray:
    """:func:`.wer.tally` of each pair, a row each."""
    import numpy as np

    return np.array(list(map(wer.tally, refs, hyps)), np.int64).reshape(-1, 4)


def _sequences(side: Side) -> Sequence[Sequence[int]]:
    """Each segment's tokens of a side, for rapidfuzz: a string of one code point a token when
    the numbers fit (rapidfuzz reads a str in C, where it converts a list element by element),
    else a list. Token n is code point n."""
    if not len(side.symbols) or side.symbols.max() <= 0x10FFFF:
        joined = side.symbols.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")
    else:
        joined = side.symbols.tolist()
    ends = list(accumulate(side.lengths.tolist()))
    return [joined[a:b] for a, b in zip([0, *ends], ends)]


def _best_lcs_many(sides: Sequence[Side]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per segment, ROUGE-L's kept (P, R, F) (a row each), the reference it was kept from, and
    whether a token lies outside the LCS, as :meth:`Analyser.statistics` has them."""
    import numpy as np

    hyps, *refs = map(_sequences, sides)
    figures, top = rouge.lcs_scores_many(hyps, refs)
    hyp_len = sides[0].lengths
    ref_len = np.choose(top, [s.lengths for s in sides[1:]])
    outside = (hyp_len != ref_len) | ((hyp_len > 0) & (figures[:, 2] < 1))  # as _outside_lcs
    return figures, top, outside


@lru_cache(maxsize=1)
def _analyser(config: ScoringConfig) -> Analyser:
    """One analyser per process and configuration: its vocabulary and word caches warm up over
    the chunks a worker scores."""
    return Analyser(config)


def score_texts(config: ScoringConfig, columns: Sequence[Sequence[str]]) -> Iterable[Record]:
    """Records of segments given by their texts, one column of texts per side (hypothesis first).

    Pure and picklable: what a corpus hands to worker processes. Tokens are numbered from this
    process's own vocabulary; records hold only counts and scores, which depend on which tokens
    are equal and not on their numbers, so they equal those of the corpus's own analyser.
    """
    return _analyser(config).scored(columns)


def _sentences(a: Analysis) -> list[Tokens]:
    """ROUGE-Lsum's sentences: the text's non-empty lines, tokenized."""
    if a.sentences is not None:
        return a.sentences
    return [a.rouge] if a.text else []
