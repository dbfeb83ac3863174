"""Additive sufficient statistics: score parts of a corpus apart (ranks, partitions, machines),
add their statistics, and get the scores of the whole corpus exactly."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..core import ScoringConfig
from ..core.fluency import fluency_score
from ..core.scores import corpus_scores, needs_records
from ..summary import fluency_dict, scores_dict
from .options import DEFAULT_METRICS, PPL, OptionError
from .results import Scores
from .scoring import Texts, evaluation_of, reference_streams


@dataclass(frozen=True)
class Statistics:
    """The summed per-segment statistics of a corpus: small (no texts) and picklable.

    ``a + b`` (and ``sum([...])``) are the statistics of the two corpora concatenated, so
    :meth:`scores` of a sum equals :func:`~scorelens.score` of the concatenated texts: BLEU,
    chrF, TER and WER/CER from summed counts exactly; ROUGE means from summed per-pair scores
    (to within float rounding of the order of addition); perplexity from a fixed-point sum of
    log probabilities, exactly. Only statistics of the same metrics, options and number of
    references add.
    """

    config: ScoringConfig
    references: int
    segments: int
    sums: dict[str, tuple]  # per metric's record field: summed statistics
    dropped: int  # segments where rouge-score's tokenizer dropped letters
    fluency: tuple[int, int, int, int] | None = None  # fixed-point log10 prob, words, OOV, segments
    model: str | None = None  # the language model's path, as given

    def __add__(self, other: Statistics) -> Statistics:
        if not isinstance(other, Statistics):
            return NotImplemented
        if (self.config, self.references, self.model) != (other.config, other.references, other.model):
            raise ValueError(
                "statistics of different metrics, options, numbers of references or language models do not add"
            )
        return Statistics(
            self.config,
            self.references,
            self.segments + other.segments,
            {key: tuple(a + b for a, b in zip(value, other.sums[key])) for key, value in self.sums.items()},
            self.dropped + other.dropped,
            None if self.fluency is None else tuple(a + b for a, b in zip(self.fluency, other.fluency)),  # type: ignore[arg-type]
            self.model,
        )

    def __radd__(self, other: Any) -> Statistics:
        if other == 0:  # sum() starts from 0
            return self
        return NotImplemented

    def scores(self) -> Scores:
        """The corpus scores of these statistics, as :func:`~scorelens.score` gives them."""
        out: dict[str, Any] = {}
        if self.config.metrics:
            out = scores_dict(corpus_scores(self.config, self.references, self.sums, self.segments, self.dropped))
        if self.fluency is not None:
            out = {PPL: fluency_dict(fluency_score(self.fluency), self.model), **out}
        out["segments"] = self.segments
        return Scores.from_dict(out)


def statistics(
    hypotheses: Texts,
    references: Texts | Sequence[Texts] | None = (),
    metrics: str | Iterable[str] = DEFAULT_METRICS,
    *,
    jobs: int = 1,
    **options: Any,
) -> Statistics:
    """The additive statistics of a corpus (arguments as :func:`~scorelens.score`)."""
    ev = evaluation_of(hypotheses, references, metrics, jobs, options)
    if ev.corpus is not None and needs_records(ev.corpus.config):
        raise OptionError("metrics", "these flavours' corpus figures read every segment, not sums that add up")
    ev.scores  # noqa: B018 -- scored once, through the pool when large
    corpus, perplexity = ev.corpus, ev.perplexity
    config = corpus.config if corpus is not None else ScoringConfig(metrics=frozenset())
    return Statistics(
        config,
        corpus.references if corpus is not None else len(reference_streams(references)),
        ev.segments,
        {key: tuple(value) for key, value in corpus.sums().items()} if corpus is not None else {},
        corpus.totals().dropped if corpus is not None else 0,
        perplexity.fluency.sums() if perplexity is not None else None,
        perplexity.model if perplexity is not None else None,
    )
