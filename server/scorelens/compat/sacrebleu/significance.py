"""sacreBLEU 2.6's paired significance tests (``PairedTest``, ``Result``) over ScoreLens's core
(:mod:`scorelens.core.significance`, which draws sacreBLEU's very resamples)."""

from __future__ import annotations

import os
from typing import Mapping, Sequence

from ...core import significance
from .metrics.base import Metric, Signature


class Result:
    """One system's figures for one metric: ``score``; ``p_value`` against the baseline (None for
    the baseline); the bootstrap's ``mean`` and 95 % half-interval ``ci`` where estimated."""

    def __init__(self, score: float, p_value: float | None = None, mean: float | None = None, ci: float | None = None) -> None:
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def __repr__(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.__dict__.items())


class PairedTest:
    """Compare each system with the first (the baseline), as sacreBLEU's ``PairedTest``: paired
    bootstrap resampling (``test_type="bs"``, 1,000 resamples by default) or approximate
    randomization (``"ar"``, 10,000 trials), seeded by ``SACREBLEU_SEED`` (12345 by default).

    ``named_systems`` is a list of ``(name, hypotheses)``, ``metrics`` maps names to metric
    objects (BLEU, CHRF, TER), ``references`` the reference streams (None: each metric's own,
    given at its construction). ``n_jobs`` is accepted; the core's tests run in one process.
    Calling the test returns ``(signatures, scores)``: per score name (``BLEU``, ``chrF2``...)
    its signature, and ``scores["System"]`` the names, ``scores[name]`` a :class:`Result` per system.
    """

    _DEFAULT_SAMPLES = dict(significance.DEFAULT_SAMPLES)

    def __init__(
        self,
        named_systems: list[tuple[str, Sequence[str]]],
        metrics: Mapping[str, Metric],
        references: Sequence[Sequence[str]] | None,
        test_type: str = "ar",
        n_samples: int = 0,
        n_ar_confidence: int = -1,
        n_jobs: int = 1,
    ) -> None:
        if test_type not in significance.TESTS:
            raise ValueError(f"Unknown test type {test_type!r}")
        self.test_type = test_type
        self._seed = significance.seed_from(os.environ.get("SACREBLEU_SEED"))
        self.n_jobs = n_jobs
        self.references = references
        self.named_systems = named_systems
        self.n_ar_confidence = n_ar_confidence if n_ar_confidence != 0 else self._DEFAULT_SAMPLES["bs"]
        self.n_samples = n_samples if n_samples > 0 else self._DEFAULT_SAMPLES[test_type]
        self.n_systems = len(named_systems) - 1
        self.metrics = dict(metrics)

    def __call__(self) -> tuple[dict[str, Signature], dict[str, list]]:
        scores: dict[str, list] = {"System": [name for name, _ in self.named_systems]}
        signatures: dict[str, Signature] = {}
        for metric in self.metrics.values():
            streams = [list(s) for s in metric._streams(self.references)]
            metric._check_resampling(streams)
            corpora = [metric._scored_corpus(list(hyps), streams) for _, hyps in self.named_systems]
            metric.num_refs = len(streams)
            comparison = significance.paired_test(
                corpora, [metric._KEY], self.test_type, self.n_samples, self._seed, self.n_ar_confidence
            )
            name = metric._compute_score_from_stats(metric._corpus_sums(corpora[0])).name
            scores[name] = [self._result(r[metric._KEY]) for r in comparison.results]
            signature = metric.get_signature()
            signature.update("seed", str(self._seed).lower())
            signature.update(self.test_type, self.n_samples)
            if self.n_ar_confidence > 0:
                signature.update("bs", self.n_ar_confidence)
            signatures[name] = signature
        return signatures, scores

    @staticmethod
    def _result(r: significance.Result) -> Result:
        return Result(r.score, r.p_value, r.mean, r.ci)
