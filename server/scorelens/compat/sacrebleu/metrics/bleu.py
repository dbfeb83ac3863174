"""sacreBLEU 2.6's ``BLEU`` over ScoreLens's core: the same arguments, defaults and results."""

from __future__ import annotations

from functools import cached_property
from typing import Any, Sequence

from ....core import ScoringConfig, bleu
from ....core.bleu import SMOOTH_DEFAULTS, BleuConfig
from ....core.tokenizers import BLEU_TOKENIZERS, LANGUAGE_TOKENIZERS
from .base import Metric, Score, Signature, logger

MAX_NGRAM_ORDER = 4
# sacreBLEU's tokenizers that need a sentencepiece model it downloads
_DOWNLOADED_TOKENIZERS = ("spm", "flores101", "flores200", "spBLEU-1K")


class BLEUSignature(Signature):
    """BLEU's signature: case, effective order, tokenizer and smoothing after the common keys."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "eff": "e", "tok": "tok", "smooth": "s"})
        smooth = args["smooth_method"]
        default = BLEU.SMOOTH_DEFAULTS[smooth]
        if default is not None:
            value = args["smooth_value"] if args["smooth_value"] is not None else default
            smooth += f"[{value:.2f}]"
        self.info.update(
            {
                "case": "lc" if args["lowercase"] else "mixed",
                "eff": "yes" if args["effective_order"] else "no",
                "tok": args["tokenizer_signature"],
                "smooth": smooth,
            }
        )


class BLEUScore(Score):
    """A BLEU score (0-100) with its n-gram ``counts`` (matched) and ``totals``, ``precisions``
    (percentages), brevity penalty ``bp``, and the corpus's ``sys_len`` and ``ref_len``."""

    def __init__(self, score: float, counts: list[int], totals: list[int], precisions: list[float], bp: float, sys_len: int, ref_len: int) -> None:
        super().__init__("BLEU", score)
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.prec_str = "/".join(f"{p:.1f}" for p in precisions)
        self.ratio = sys_len / ref_len if ref_len else 0
        self._verbose = f"{self.prec_str} (BP = {bp:.3f} ratio = {self.ratio:.3f} hyp_len = {sys_len:d} ref_len = {ref_len:d})"


def _score(stats: Sequence[float], config: BleuConfig, effective_order: bool) -> BLEUScore:
    s = bleu.score(stats, config, effective_order)
    return BLEUScore(s.score, s.counts, s.totals, s.precisions, s.bp, s.sys_len, s.ref_len)


class BLEU(Metric):
    """BLEU equal to sacreBLEU 2.6's ``BLEU`` with the same arguments.

    ``tokenize`` is one of ``13a`` (the default), ``intl``, ``zh``, ``char``, ``none``,
    ``ja-mecab``, ``ko-mecab`` (None: by ``trg_lang``, as sacreBLEU picks it); ``spm`` and the
    ``flores`` tokenizers need a model download and raise NotImplementedError.
    ``max_ngram_order`` goes up to 9. ``references`` are kept for ``corpus_score(hyps, None)``.
    """

    SMOOTH_DEFAULTS: dict[str, float | None] = dict(SMOOTH_DEFAULTS)
    TOKENIZERS = (*BLEU_TOKENIZERS, *_DOWNLOADED_TOKENIZERS)
    TOKENIZER_DEFAULT = "13a"
    _TOKENIZER_MAP = dict(LANGUAGE_TOKENIZERS)
    _SIGNATURE_TYPE = BLEUSignature
    _KEY = "bleu"

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: str | None = None,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = MAX_NGRAM_ORDER,
        effective_order: bool = False,
        trg_lang: str = "",
        references: Sequence[Sequence[str]] | None = None,
    ) -> None:
        super().__init__()
        self._force = force
        self.trg_lang = trg_lang
        self.lowercase = lowercase
        self.smooth_value = smooth_value
        self.smooth_method = smooth_method
        self.max_ngram_order = max_ngram_order
        self.effective_order = effective_order
        if tokenize is None:
            tokenize = self._TOKENIZER_MAP.get(trg_lang, self.TOKENIZER_DEFAULT)
        else:
            for language, best in self._TOKENIZER_MAP.items():
                if trg_lang == language and tokenize != best:
                    logger.warning(f"Consider using the {best!r} or 'spm' tokenizer for this language ({language}).")
        if tokenize in _DOWNLOADED_TOKENIZERS:
            raise NotImplementedError(f"the {tokenize!r} tokenizer needs a sentencepiece model download, which ScoreLens does not do")
        self.bleu_config = BleuConfig(tokenize, smooth_method, smooth_value, lowercase, max_ngram_order)
        self.tokenizer = self.bleu_config.tokenizer
        self.tokenizer_signature = self.tokenizer.name
        if references is not None:
            self._ref_cache = [list(r) for r in references]

    @staticmethod
    def compute_bleu(
        correct: list[int],
        total: list[int],
        sys_len: int,
        ref_len: int,
        smooth_method: str = "none",
        smooth_value: float | None = None,
        effective_order: bool = False,
        max_ngram_order: int = MAX_NGRAM_ORDER,
    ) -> BLEUScore:
        """BLEU from sufficient statistics: matched and total n-grams per order, the system's and
        the (closest) references' lengths, as sacreBLEU's ``compute_bleu``."""
        config = BleuConfig(smooth_method=smooth_method, smooth_value=smooth_value, max_ngram_order=max_ngram_order)
        return _score([sys_len, ref_len, *correct, *total], config, effective_order)

    def _config(self) -> ScoringConfig:
        return ScoringConfig(metrics=frozenset({"bleu"}), bleu=self.bleu_config)

    @cached_property
    def _tokens(self):
        tokens = self.tokenizer.tokens
        return (lambda text: tokens(text.lower())) if self.lowercase else tokens

    def _segment_statistics(self, hypothesis: str, references: Sequence[str]) -> list:
        return bleu.statistics(self._tokens(hypothesis), [self._tokens(r) for r in references], self.max_ngram_order)

    def _compute_score_from_stats(self, stats: Sequence[float]) -> BLEUScore:
        return _score(stats, self.bleu_config, self.effective_order)

    def _check_resampling(self, streams) -> None:
        super()._check_resampling(streams)
        if self.effective_order:
            raise NotImplementedError("resampling (n_bootstrap, paired tests) of BLEU with effective_order=True")

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> BLEUScore:
        """Sentence BLEU of one hypothesis (sacreBLEU recommends ``effective_order=True`` for it)."""
        if not self.effective_order:
            logger.warning("It is recommended to enable `effective_order` for sentence-level BLEU.")
        return super().sentence_score(hypothesis, references)  # type: ignore[return-value]

    def corpus_score(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]] | None, n_bootstrap: int = 1) -> BLEUScore:
        return super().corpus_score(hypotheses, references, n_bootstrap)  # type: ignore[return-value]
