"""Fluency: each segment's log10 probability and perplexity under an n-gram language model, as the
``kenlm`` package computes them, and the segments and words the model finds unlikely.

The model is any object with ``kenlm.Model``'s interface (``score``, ``full_scores``, ``order``);
this module never imports kenlm nor opens a file (``scorelens.language_model`` loads one).

A segment's text is tokenized (``none`` by default: split at whitespace, as KenLM models are
trained on tokenized text; any BLEU tokenizer name otherwise) and the tokens joined by single
spaces are the sentence the model scores, with sentence boundaries on:

- log10 probability: ``model.score(sentence, bos=True, eos=True)`` itself. kenlm sums the word
  probabilities in a C ``float`` (float32); summing ``full_scores`` in doubles gives another number.
- perplexity: ``10.0 ** (-log10_prob / (words + 1))``, as ``Model.perplexity`` (the ``+ 1`` is ``</s>``).
- corpus perplexity: ``10.0 ** (-sum(log10_prob) / sum(words + 1))`` over the segments, the sum of
  log10 probabilities exact (correctly rounded, as :func:`math.fsum`), so it does not depend on the
  order edits came in. ``tokens`` is that ``sum(words + 1)``: what the perplexity divides by.
- out-of-vocabulary words: those ``full_scores`` flags (the model's ``<unk>`` probability scores them).

Outliers: a segment whose log10 perplexity is far above the rest of its document's, by the modified
z-score (:mod:`scorelens.core.outliers`); blank segments are neither counted nor flagged.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Callable, Iterable, Protocol, Sequence

if TYPE_CHECKING:  # NumPy is imported where it is used: score, check and serve start without it
    import numpy as np

from .. import __version__
from .findings import Finding
from .outliers import Outliers, find_outliers
from .text import common_ends
from .tokenizers import BLEU_TOKENIZERS, Tokenizer, bleu_tokenizer

UNLIKELY = "lm.unlikely"
OOV = "lm.oov"

# Log10 probabilities are summed as integers in units of 2**-1074 (the smallest double): exact, so
# running totals after any edits equal a fresh sum.
_FIXED_BITS = 1074
# A str may hold lone UTF-16 halves (an LSP client can send them); kenlm encodes its argument as
# UTF-8, which they have none of. Each is scored as U+FFFD: one character for one, spans unchanged.
_SURROGATE = re.compile("[\ud800-\udfff]")


class LanguageModel(Protocol):
    """What the scorer needs of a model: ``kenlm.Model``'s interface."""

    @property
    def order(self) -> int: ...

    def score(self, sentence: str, bos: bool = True, eos: bool = True) -> float: ...

    def full_scores(self, sentence: str, bos: bool = True, eos: bool = True) -> Iterable[tuple[float, int, bool]]: ...


@dataclass(frozen=True)
class FluencyConfig:
    tokenize: str = "none"
    outlier_z: float = 3.5  # a segment is unlikely above this modified z-score

    def __post_init__(self) -> None:
        if self.tokenize not in BLEU_TOKENIZERS:
            raise ValueError(f"unknown tokenizer {self.tokenize!r}; one of {', '.join(BLEU_TOKENIZERS)}")
        if not (math.isfinite(self.outlier_z) and self.outlier_z > 0):
            raise ValueError(f"the outlier threshold must be a positive number, not {self.outlier_z!r}")

    @property
    def tokenizer(self) -> Tokenizer:
        return bleu_tokenizer(self.tokenize)


@dataclass(frozen=True, slots=True)
class SegmentFluency:
    text: str
    tokens: tuple[str, ...]  # the words the model scores, in order
    log10_prob: float  # log10 p(tokens </s> | <s>), exactly model.score's
    # full_scores: (log10 probability, n-gram length, out of vocabulary) of each token, then of </s>
    token_scores: tuple[tuple[float, int, bool], ...]

    @property
    def words(self) -> int:
        return len(self.tokens)

    @property
    def perplexity(self) -> float:
        """As ``Model.perplexity``: the model's average surprise per word and ``</s>``."""
        return 10.0 ** (-self.log10_prob / (len(self.tokens) + 1))

    @property
    def log10_perplexity(self) -> float:
        return -self.log10_prob / (len(self.tokens) + 1)

    @property
    def oov(self) -> int:
        return sum(1 for _, _, oov in self.token_scores if oov)


@dataclass(frozen=True, slots=True)
class TokenFluency:
    """A word of a segment: where it is (code points into the segment text) and how likely it is."""

    token: str
    start: int
    end: int
    log10_prob: float
    ngram_length: int  # the longest n-gram the model had for it (1: it backed off to the unigram)
    oov: bool


@dataclass(frozen=True, slots=True)
class FluencyScore:
    """A document's fluency: ``perplexity`` is None when it has no segments."""

    perplexity: float | None
    log10_prob: float
    tokens: int  # sum of words + 1 (</s>) over the segments: what the perplexity divides by
    words: int
    oov: int
    segments: int


Scorer = Callable[[str], SegmentFluency]


def score_segment(model: LanguageModel, tokenizer: Tokenizer, text: str) -> SegmentFluency:
    tokens = tuple(tokenizer.tokens(text))
    sentence = _SURROGATE.sub("\ufffd", " ".join(tokens))
    return SegmentFluency(text, tokens, model.score(sentence), tuple(model.full_scores(sentence)))


def _fixed(x: float) -> int:
    numerator, denominator = x.as_integer_ratio()
    return numerator << (_FIXED_BITS + 1 - denominator.bit_length())


class Fluency:
    """One document's fluency, segment by segment, kept up to date through edits.

    :meth:`update` (the document's segments after an edit) or :meth:`replace` (segments
    ``[start, end)`` became these) re-score only texts not seen before: every scored text is
    cached, so unchanged, moved and repeated segments cost a lookup. Totals are kept running and
    per-segment figures in arrays spliced by the edit's range, so an edit costs its segments plus
    outliers' vectorised medians (found when asked, kept until the next change).
    """

    def __init__(self, scorer: Scorer, config: FluencyConfig | None = None, segments: Sequence[str] = ()) -> None:
        """``scorer`` scores a text not seen before: :func:`score_segment` with a model (see
        :meth:`of`), or results computed elsewhere (the language server's model process)."""
        import numpy as np
        self.scorer = scorer
        self.config = config or FluencyConfig()
        self._tokenizer = self.config.tokenizer
        self._texts: list[str] = []
        self._segments: list[SegmentFluency] = []
        # per segment: log10 perplexity, perplexity, blank (outliers leave those out), OOV words
        self._log10_ppl = np.empty(0)
        self._ppl = np.empty(0)
        self._blank = np.empty(0, dtype=bool)
        self._oovs = np.empty(0, dtype=np.int64)
        self._cache: dict[str, SegmentFluency] = {}
        self._log10_prob = 0  # in units of 2**-_FIXED_BITS
        self._words = 0
        self._oov = 0
        self._outliers: Outliers | None = None
        self.replace(0, 0, segments)

    @classmethod
    def of(cls, model: LanguageModel, config: FluencyConfig | None = None, segments: Sequence[str] = ()) -> Fluency:
        """Scored by ``model`` itself, synchronously."""
        config = config or FluencyConfig()
        return cls(partial(score_segment, model, config.tokenizer), config, segments)

    def known(self, text: str) -> bool:
        """Whether ``text`` is scored already (the scorer will not be asked for it)."""
        return text in self._cache

    def __len__(self) -> int:
        return len(self._segments)

    def __getitem__(self, segment: int) -> SegmentFluency:
        return self._segments[segment]

    def update(self, segments: Sequence[str]) -> None:
        """The document's segments are now ``segments``; those between the unchanged ends are re-scored."""
        prefix, suffix = common_ends(self._texts, segments)
        self.replace(prefix, len(self._texts) - suffix, segments[prefix : len(segments) - suffix])

    def replace(self, start: int, end: int, texts: Sequence[str]) -> None:
        """Segments ``[start, end)`` became ``texts`` (as many or not)."""
        new = [self._scored(t) for t in texts]
        for s, sign in ((self._segments[start:end], -1), (new, 1)):
            for f in s:
                self._log10_prob += sign * _fixed(f.log10_prob)
                self._words += sign * f.words
                self._oov += sign * f.oov
        self._segments[start:end] = new
        self._texts[start:end] = texts
        self._log10_ppl = _splice(self._log10_ppl, start, end, [f.log10_perplexity for f in new])
        # Python's own power, per new segment: exactly Model.perplexity's number (NumPy's may round otherwise)
        self._ppl = _splice(self._ppl, start, end, [f.perplexity for f in new])
        self._blank = _splice(self._blank, start, end, [not f.tokens for f in new])
        self._oovs = _splice(self._oovs, start, end, [f.oov for f in new])
        self._outliers = None
        if len(self._cache) > 2 * len(self._segments) + 1000:
            self._cache = {f.text: f for f in self._segments}  # forget texts long gone

    def _scored(self, text: str) -> SegmentFluency:
        found = self._cache.get(text)
        if found is None:
            found = self._cache[text] = self.scorer(text)
        return found

    def score(self) -> FluencyScore:
        return fluency_score(self.sums())

    def sums(self) -> tuple[int, int, int, int]:
        """The summed statistics :func:`fluency_score` needs: the log10 probability in fixed point
        (sums exactly in any order), words, out-of-vocabulary words, segments."""
        return self._log10_prob, self._words, self._oov, len(self._segments)

    def outliers(self) -> Outliers:
        import numpy as np
        if self._outliers is None:
            self._outliers = find_outliers(np.where(self._blank, np.nan, self._log10_ppl), self.config.outlier_z)
        return self._outliers

    def log10_perplexities(self) -> np.ndarray:
        """Each segment's log10 perplexity (blank ones included; not to be changed)."""
        return self._log10_ppl

    def perplexities(self) -> np.ndarray:
        """Each segment's perplexity, ``Model.perplexity``'s number (not to be changed)."""
        return self._ppl

    def flagged(self) -> np.ndarray:
        """Per segment, whether it has findings: an outlier, or out-of-vocabulary words."""
        return self.outliers().mask | (self._oovs > 0)

    def tokens(self, segment: int) -> list[TokenFluency]:
        """The segment's words with their spans and scores (``</s>`` is ``self[segment].token_scores[-1]``)."""
        f = self._segments[segment]
        spans = self._tokenizer.spans(f.text, f.tokens)
        return [TokenFluency(t, a, b, *s) for t, (a, b), s in zip(f.tokens, spans, f.token_scores)]

    def least_likely(self, segment: int, count: int = 3) -> list[TokenFluency]:
        """The segment's ``count`` least likely words, least likely first (ties in text order)."""
        return sorted(self.tokens(segment), key=lambda t: t.log10_prob)[:count]

    def findings(self, segment: int, side: int = 0) -> list[Finding]:
        """``lm.unlikely`` over the segment's non-blank text when it is an outlier, then an
        ``lm.oov`` for each out-of-vocabulary word. ``side`` is the document's side in the caller's
        numbering (0, the hypothesis, by default; fluency needs no pairing)."""
        f = self._segments[segment]
        found = []
        if self.outliers().mask[segment]:
            start = len(f.text) - len(f.text.lstrip())
            end = len(f.text.rstrip())
            found.append(Finding(UNLIKELY, segment, side, start, end, f.text[start:end]))
        if any(oov for _, _, oov in f.token_scores):
            found += [Finding(OOV, segment, side, t.start, t.end, f.text[t.start : t.end]) for t in self.tokens(segment) if t.oov]
        return found

    def all_findings(self, side: int = 0) -> list[Finding]:
        """Every segment's :meth:`findings`, in segment order."""
        import numpy as np
        return [x for i in np.flatnonzero(self.flagged()).tolist() for x in self.findings(i, side)]


def _splice(array: np.ndarray, start: int, end: int, values: list) -> np.ndarray:
    """``array[start:end] = values``, a new array when the length changes."""
    import numpy as np
    if end - start == len(values):
        array[start:end] = values
        return array
    return np.concatenate((array[:start], np.array(values, dtype=array.dtype), array[end:]))


def fluency_score(sums: Sequence[int]) -> FluencyScore:
    """A document's fluency from :meth:`Fluency.sums` (of one document, or added over several)."""
    fixed, words, oov, segments = sums
    tokens = words + segments  # each segment's words and its </s>
    log10_prob = fixed / (1 << _FIXED_BITS)
    perplexity = 10.0 ** (-log10_prob / tokens) if tokens else None
    return FluencyScore(perplexity, log10_prob, tokens, words, oov, segments)


def signature(config: FluencyConfig, order: int) -> str:
    """The settings a perplexity depends on besides the model itself."""
    return f"tok:{config.tokenize}|order:{order}|bos:yes|eos:yes|version:scorelens-{__version__}"
