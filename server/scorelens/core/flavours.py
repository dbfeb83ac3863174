"""The flavours a family can be scored with in place of its default (DESIGN §8), by impl name.

Each flavour is a sibling module of its family (``bleu_nltk``, ``rouge_pypi``, ``rouge155``)
that is exact to its oracle; the classes here give each one the family's shape the run works
with: statistics per segment (what a :class:`~.segment.Record` keeps), a formula over their sum
(or, where the oracle's corpus figure is not one of sums, over the segments' records), the
spans findings are made of, and the signature. The default implementations (sacreBLEU's BLEU,
rouge-score's ROUGE) have their own, faster paths and no entry here.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from . import bleu_nltk
from .bleu_nltk import NltkBleuConfig, NltkBleuScore
from .tokenizers import Tokenizer


class NltkBleu:
    """BLEU as NLTK's ``corpus_bleu`` / ``sentence_bleu`` (:mod:`.bleu_nltk`)."""

    name = "nltk"

    def __init__(self, config: NltkBleuConfig) -> None:
        self.config = config
        self.order = config.order
        # methods 5-7 read the corpus's last segment (its 5-gram precision, its length)
        self.needs_last = config.smoothing >= 5

    @property
    def tokenizer(self) -> Tokenizer:
        return self.config.tokenizer

    @property
    def lowercase(self) -> bool:
        return self.config.lowercase

    def statistics(self, hyp: Sequence[Hashable], refs: Sequence[Sequence[Hashable]]) -> tuple[int, ...]:
        return bleu_nltk.statistics(hyp, refs, self.order)

    def last(self, hyp: Sequence[Hashable], refs: Sequence[Sequence[Hashable]]) -> tuple[int, int, int] | None:
        """What the smoothing reads when this segment is the last one (None: nothing)."""
        return bleu_nltk.last_segment(hyp, refs) if self.needs_last else None

    def score(self, stats: Sequence[int], last: tuple[int, int, int] | None) -> NltkBleuScore:
        """``corpus_bleu`` × 100 of summed statistics; of one segment's, ``sentence_bleu`` × 100."""
        return bleu_nltk.corpus_score(stats, self.config, last)

    def signature(self, nrefs: int | None) -> str:
        return bleu_nltk.signature(self.config, nrefs)


BLEU_FLAVOURS = {"nltk": NltkBleu}
BLEU_IMPLS = ("sacrebleu", *BLEU_FLAVOURS)
