"""sacreBLEU 2.6's ``CHRF`` (chrF and chrF++) over ScoreLens's core."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Sequence

from ....core import ChrfConfig, ScoringConfig, chrf
from .base import Metric, Score, Signature


class CHRFSignature(Signature):
    """chrF's signature: case, effective order, orders and whitespace after the common keys."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s"})
        self.info.update(
            {
                "case": "lc" if args["lowercase"] else "mixed",
                "eff": "yes" if not args["eps_smoothing"] else "no",
                "nc": args["char_order"],
                "nw": args["word_order"],
                "space": "yes" if args["whitespace"] else "no",
            }
        )


class CHRFScore(Score):
    """A chrF score (0-100); its name is ``chrF<beta>`` with one ``+`` per word order."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: int) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        super().__init__(f"chrF{beta}" + "+" * word_order, score)


class CHRF(Metric):
    """chrF (``word_order=2``: chrF++) equal to sacreBLEU 2.6's ``CHRF`` with the same arguments
    (orders up to 9); with several references each segment keeps its best one, as sacreBLEU."""

    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2
    _SIGNATURE_TYPE = CHRFSignature
    _KEY = "chrf"

    def __init__(
        self,
        char_order: int = CHAR_ORDER,
        word_order: int = WORD_ORDER,
        beta: int = BETA,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        references: Sequence[Sequence[str]] | None = None,
    ) -> None:
        super().__init__()
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        self.order = char_order + word_order
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing
        self.chrf_config = ChrfConfig(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
        if references is not None:
            self._ref_cache = [list(r) for r in references]

    def _config(self) -> ScoringConfig:
        return ScoringConfig(metrics=frozenset({"chrf"}), chrf=self.chrf_config)

    def _segment_statistics(self, hypothesis: str, references: Sequence[str]) -> list:
        number: defaultdict[str, int] = defaultdict(lambda: len(number))

        def side(text: str) -> tuple[str, list[int]]:
            text = text.lower() if self.lowercase else text
            words = [number[w] for w in chrf.words(text)] if self.word_order else []
            return chrf.chars(text, self.whitespace), words

        return list(chrf.statistics(*side(hypothesis), [side(r) for r in references], self.chrf_config))

    def _compute_score_from_stats(self, stats: Sequence[float]) -> CHRFScore:
        s = chrf.score(stats, self.chrf_config)
        return CHRFScore(s.score, s.char_order, s.word_order, s.beta)

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> CHRFScore:
        return super().sentence_score(hypothesis, references)  # type: ignore[return-value]

    def corpus_score(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]] | None, n_bootstrap: int = 1) -> CHRFScore:
        return super().corpus_score(hypotheses, references, n_bootstrap)  # type: ignore[return-value]
