"""sacreBLEU 2.6's ``TER`` over ScoreLens's core (Tercom's shifts and beam, as sacreBLEU)."""

from __future__ import annotations

from typing import Any, Sequence

from ....core import Corpus, ScoringConfig, TerConfig, ter
from ..tokenizers.tokenizer_ter import TercomTokenizer
from .base import Metric, Score, Signature


class TERSignature(Signature):
    """TER's signature: case, tokenizer, normalisation, punctuation and Asian support."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as"})
        self.info.update(
            {
                "case": "mixed" if args["case_sensitive"] else "lc",
                "tok": args["tokenizer_signature"],
                "norm": args["normalized"],
                "punct": not args["no_punct"],
                "asian": args["asian_support"],
            }
        )


class TERScore(Score):
    """A TER score (edits per 100 reference words): the corpus's ``num_edits`` and
    ``ref_length`` (the sum of each segment's average reference length)."""

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


class TER(Metric):
    """TER equal to sacreBLEU 2.6's ``TER`` with the same arguments."""

    _SIGNATURE_TYPE = TERSignature
    _KEY = "ter"

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        references: Sequence[Sequence[str]] | None = None,
    ) -> None:
        super().__init__()
        self.no_punct = no_punct
        self.normalized = normalized
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self.tokenizer = TercomTokenizer(normalized, no_punct, asian_support, case_sensitive)
        self.tokenizer_signature = self.tokenizer.signature()
        self.ter_config = TerConfig(normalized, no_punct, asian_support, case_sensitive)
        if references is not None:
            self._ref_cache = [list(r) for r in references]

    def _config(self) -> ScoringConfig:
        return ScoringConfig(metrics=frozenset({"ter"}), ter=self.ter_config)

    def _segment_statistics(self, hypothesis: str, references: Sequence[str]) -> list:
        """sacreBLEU's ``[edits to the closest reference, average reference length]``."""
        edits, ref_words, _ = ter.statistics(hypothesis, references, self.ter_config)
        return [edits, ref_words / len(references)]

    def _corpus_sums(self, corpus: Corpus) -> list:
        # the average reference lengths summed segment by segment, as sacreBLEU's floats add up
        nrefs = corpus.references
        edits = length = 0
        for e, ref_words, _ in corpus.segment_statistics("ter"):
            edits += e
            length += ref_words / nrefs
        return [edits, length]

    def _compute_score_from_stats(self, stats: Sequence[float]) -> TERScore:
        # the core's score takes summed reference words and their count: the sum here is of
        # averages already
        s = ter.score([stats[0], stats[1]], 1)
        return TERScore(s.score, stats[0], stats[1])

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> TERScore:
        return super().sentence_score(hypothesis, references)  # type: ignore[return-value]

    def corpus_score(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]] | None, n_bootstrap: int = 1) -> TERScore:
        return super().corpus_score(hypotheses, references, n_bootstrap)  # type: ignore[return-value]
