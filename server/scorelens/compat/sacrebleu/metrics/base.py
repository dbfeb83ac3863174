"""sacreBLEU 2.6's ``Score``, ``Signature`` and ``Metric`` shapes over ScoreLens's core.

A metric's corpus score goes through a :class:`~scorelens.core.Corpus` scored cold (the core's
batch path); a sentence score, and a corpus with a missing reference (``None``) somewhere, through
the core's per-segment statistics. Either way the statistics are sacreBLEU's, summed as it sums
them, and the score is its formula over the sum.
"""

from __future__ import annotations

import json
import logging
import os
import statistics
from typing import Any, Sequence

from .... import __version__
from ....core import Corpus, ScoringConfig
from ....core import significance
from ...corpus import scored_corpus

logger = logging.getLogger(__name__)

VERSION = f"scorelens-{__version__}"

_COMMON_ABBREVIATIONS = {
    "version": "v",
    "nrefs": "#",
    "test": "t",
    "lang": "l",
    "subset": "S",
    "origlang": "o",
    "bs": "bs",
    "ar": "ar",
    "seed": "rs",
}


class Score:
    """A metric's score: ``name`` and ``score``, printed by :meth:`format` as sacreBLEU prints it."""

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        # the bootstrap's mean and 95 % half-interval, once estimated (-1: none)
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False) -> str:
        """``NAME|signature = score verbose``, the score alone, or sacreBLEU's JSON object."""
        shown = f"{self.score:.{width}f}"
        fields: dict[str, Any] = {"name": self.name, "score": float(shown), "signature": signature}
        if self._mean > 0:
            mean, ci = f"{self._mean:.{width}f}", f"{self._ci:.{width}f}"
            confidence = f"μ = {mean} ± {ci}"
            shown += f" ({confidence})"
            if is_json:
                fields.update(confidence_mean=float(mean), confidence_var=float(ci), confidence=confidence)
        line = f"{self.name}|{signature}" if signature else self.name
        line += f" = {shown}"
        if self._verbose:
            line += f" {self._verbose}"
            fields["verbose_score"] = self._verbose
        if score_only:
            return shown
        if is_json:
            fields.update(param.split(":") for param in signature.split("|"))
            return json.dumps(fields, indent=1, ensure_ascii=False)
        return line

    def estimate_ci(self, scores: Sequence[Score]) -> None:
        """Keep the mean and the 95 % half-interval of bootstrap ``scores`` (sacreBLEU's estimate:
        the exact mean, in the scores' own type, and the 1/40th from each end)."""
        self._estimate([s.score for s in scores])

    def _estimate(self, values: Sequence[float]) -> None:
        ranked = sorted(values)
        lower = len(ranked) // 40
        self._ci = 0.5 * (ranked[len(ranked) - lower - 1] - ranked[lower])
        self._mean = statistics.mean(ranked)

    def __repr__(self) -> str:
        return self.format()


class Signature:
    """A metric's reproducibility signature; its ``version`` names ScoreLens's.

    ``args`` is the metric's ``__dict__``, as sacreBLEU's signatures take it; it must have been
    scored once (``num_refs`` is known only then).
    """

    def __init__(self, args: dict[str, Any]) -> None:
        if "num_refs" not in args:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        self._abbr = dict(_COMMON_ABBREVIATIONS)
        nrefs = args["num_refs"]
        self.info: dict[str, Any] = {
            "version": VERSION,
            "nrefs": "var" if nrefs == -1 else nrefs,
            "bs": args.get("n_bootstrap"),
            "ar": None,
            "seed": args.get("seed"),
            "test": None,
            "lang": None,
            "origlang": None,
            "subset": None,
        }

    def format(self, short: bool = False) -> str:
        """``key:value|...`` (abbreviated keys if ``short``), ``None`` values left out, version last."""
        keys = [k for k in self.info if k != "version"] + ["version"]
        pairs = []
        for key in keys:
            value = self.info[key]
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            pairs.append(f"{self._abbr[key] if short else key}:{value}")
        return "|".join(pairs)

    def update(self, key: str, value: Any) -> None:
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    __repr__ = __str__


class Metric:
    """What BLEU, chrF and TER share: argument checks, the references (given, or cached at
    construction), the corpus statistics and the bootstrap estimate.

    A subclass names its core metric (``_KEY``), its core configuration (:meth:`_config`), one
    segment's statistics (:meth:`_segment_statistics`) and the score of summed statistics
    (:meth:`_compute_score_from_stats`).
    """

    _KEY: str
    _SIGNATURE_TYPE: type[Signature] = Signature

    def __init__(self) -> None:
        self._ref_cache: list[list[str | None]] | None = None
        self._force = True
        self.n_bootstrap: int | None = None
        self.seed: str | None = None

    # -- what a metric defines ------------------------------------------------------------

    def _config(self) -> ScoringConfig:
        raise NotImplementedError

    def _segment_statistics(self, hypothesis: str, references: Sequence[str]) -> list:
        raise NotImplementedError

    def _compute_score_from_stats(self, stats: Sequence[float]) -> Score:
        raise NotImplementedError

    def _corpus_sums(self, corpus: Corpus) -> list:
        """The summed statistics of a scored corpus, as sacreBLEU sums its segments'."""
        return corpus.sums()[self._KEY]

    # -- scoring ----------------------------------------------------------------------------

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> Score:
        """The score of one hypothesis against its references (sacreBLEU's ``sentence_score``)."""
        self._check_sentence_score_args(hypothesis, references)
        refs = [r for r in references if r is not None]
        if not refs:
            raise ValueError(f"{type(self).__name__}: no reference to score against")
        self.num_refs = len(refs)
        return self._compute_score_from_stats(self._segment_statistics(hypothesis, refs))

    def corpus_score(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]] | None, n_bootstrap: int = 1) -> Score:
        """The corpus score of ``hypotheses`` against reference streams (one list per reference,
        as long as the hypotheses; ``None`` uses the references given at construction), equal
        to sacreBLEU's. ``n_bootstrap`` > 1 adds sacreBLEU's bootstrap estimate of the mean and
        95 % interval (seeded by ``SACREBLEU_SEED``, 12345 by default)."""
        self._check_corpus_score_args(hypotheses, references)
        streams = self._streams(references)
        # sacreBLEU pairs them with zip: the shortest stream sets the corpus's length
        n = min(len(hypotheses), *map(len, streams))
        hyps = list(hypotheses[:n])
        streams = [list(s[:n]) for s in streams]
        self._warn_if_tokenized(hyps)
        if n_bootstrap > 1:
            self._check_resampling(streams)
        if any(None in s for s in streams):
            return self._compute_score_from_stats(self._segment_sums(hyps, streams))
        self.num_refs = len(streams)
        corpus = self._scored_corpus(hyps, streams)
        score = self._compute_score_from_stats(self._corpus_sums(corpus))
        if n_bootstrap > 1:
            seed = significance.seed_from(os.environ.get("SACREBLEU_SEED"))
            score._estimate(list(significance.bootstrap_scores(corpus, self._KEY, n_bootstrap, seed)))
            self.n_bootstrap = n_bootstrap
            self.seed = str(seed).lower()
        return score

    def _scored_corpus(self, hypotheses: list[str], streams: list[list[str]]) -> Corpus:
        """The hypotheses and reference streams as a core corpus, scored (its statistics are what
        the paired tests resample)."""
        return scored_corpus(hypotheses, streams, self._config())

    def _check_resampling(self, streams: Sequence[Sequence[str | None]]) -> None:
        """Raise for what the core's resampling (bootstrap, paired tests) does not score as
        sacreBLEU would: a missing reference in some segment."""
        if any(None in s for s in streams):
            raise NotImplementedError("resampling (n_bootstrap, paired tests) with a variable number of references")

    def _segment_sums(self, hypotheses: list[str], streams: list[list[str | None]]) -> list:
        """Summed statistics segment by segment: each segment against its references present."""
        counts = set()
        total: list = []
        for k, (hyp, refs) in enumerate(zip(hypotheses, zip(*streams))):
            present = [r for r in refs if r is not None]
            if not present:  # sacreBLEU fails on it too, with whatever error the metric meets
                raise ValueError(f"{type(self).__name__}: segment {k} has no reference (None in every stream)")
            counts.add(len(present))
            stats = self._segment_statistics(hyp, present)
            total = [a + b for a, b in zip(total, stats)] if total else list(stats)
        self.num_refs = counts.pop() if len(counts) == 1 else -1
        return total

    def _streams(self, references: Sequence[Sequence[str]] | None) -> list[Sequence[str | None]]:
        if references:
            return list(references)
        if self._ref_cache:
            return self._ref_cache
        raise RuntimeError("No references provided and the cache is empty.")

    def _warn_if_tokenized(self, hypotheses: list[str]) -> None:
        """sacreBLEU's warning for BLEU on text that looks tokenized (100 lines ending in " .")."""
        if not self._force and sum(h.endswith(" .") for h in hypotheses) >= 100:
            logger.warning("That's 100 lines that end in a tokenized period ('.')")
            logger.warning("It looks like you forgot to detokenize your test data, which may hurt your score.")
            logger.warning("If you insist your data is detokenized, or don't care, you can suppress this message with the `force` parameter.")

    def _check_sentence_score_args(self, hyp: str, refs: Sequence[str]) -> None:
        error = None
        if not isinstance(hyp, str):
            error = "The argument `hyp` should be a string."
        elif isinstance(refs, str) or not isinstance(refs, Sequence):
            error = "The argument `refs` should be a sequence of strings."
        elif refs and not isinstance(refs[0], str) and refs[0] is not None:
            error = "Each element of `refs` should be a string."
        if error:
            raise TypeError(f"{type(self).__name__}: {error}")

    def _check_corpus_score_args(self, hyps: Sequence[str], refs: Sequence[Sequence[str]] | None) -> None:
        error = None
        if not isinstance(hyps, Sequence):
            error = "`hyps` should be a sequence of strings."
        elif not isinstance(hyps[0], str):
            error = "Each element of `hyps` should be a string."
        elif any(line is None for line in hyps):
            error = "Undefined line in hypotheses stream!"
        if refs is not None:
            if not isinstance(refs, Sequence):
                error = "`refs` should be a sequence of sequence of strings."
            elif not isinstance(refs[0], Sequence):
                error = "Each element of `refs` should be a sequence of strings."
            elif not isinstance(refs[0][0], str) and refs[0][0] is not None:
                error = "`refs` should be a sequence of sequence of strings."
        if error:
            raise TypeError(f"{type(self).__name__}: {error}")

    def get_signature(self) -> Signature:
        """The signature of the last scoring (its number of references, and the bootstrap's)."""
        return self._SIGNATURE_TYPE(self.__dict__)
