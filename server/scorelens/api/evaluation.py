"""One scoring run: a hypothesis's lines and its references' lines, scored with the options, as
the command line and the API's functions share it. Lines are as sacreBLEU's command line reads a
file (:func:`~scorelens.core.text.sacrebleu_lines`: the lines, then an empty last one)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import repeat
from typing import Any, Callable, Iterator, Sequence, TypeVar

from ..core import Corpus, CorpusScores, Finding, Fluency, FluencyScore
from ..core.corpus import POOL_CHUNK, POOL_MINIMUM
from ..core.fluency import SegmentFluency
from ..core.fluency import signature as fluency_signature
from ..core.text import segment_spans
from ..summary import figures_of, fluency_dict, scores_dict, segment_dict
from .options import PPL, OptionError, check_references, fluency_config, scoring_config
from .pool import worker_pool
from .results import Scores, SegmentScores

# rows made together: a column of each metric's, without holding a large file's every row
ROWS_AT_ONCE = 10_000

T = TypeVar("T")


@dataclass
class Perplexity:
    """The hypothesis's fluency under a KenLM model, segmented as the corpus is."""

    model: str  # the path as given
    fluency: Fluency
    starts: list[int]  # the hypothesis line each segment starts on
    order: int  # the model's n-gram order

    def position(self, segment: int, offset: int) -> tuple[int, int]:
        """(line, column) in code points of an offset into a segment's text."""
        text = self.fluency[segment].text
        line_start = text.rfind("\n", 0, offset) + 1
        return self.starts[segment] + text.count("\n", 0, offset), offset - line_start

    @property
    def score(self) -> FluencyScore:
        return self.fluency.score()

    def signature(self) -> str:
        return fluency_signature(self.fluency.config, self.order)


@dataclass
class Evaluation:
    """A run's corpus (None when only perplexity is asked for) and the hypothesis's perplexity
    (None unless asked for); the corpus is scored on first use of :attr:`scores`."""

    corpus: Corpus | None
    jobs: int = 1  # processes for scoring a large corpus
    perplexity: Perplexity | None = None

    @cached_property
    def scores(self) -> CorpusScores | None:
        if self.corpus is None:
            return None
        if self.jobs > 1 and len(self.corpus) >= POOL_MINIMUM:
            with worker_pool(self.jobs) as pool_map:
                self.corpus.refresh(pool_map=pool_map)
        return self.corpus.scores()

    @property
    def segments(self) -> int:
        return len(self.corpus) if self.corpus is not None else len(self.perplexity.fluency)

    def first_line(self, segment: int) -> int:
        """The hypothesis line a segment starts on (0-based)."""
        return self.corpus.first_line(0, segment) if self.corpus is not None else self.perplexity.starts[segment]

    def position(self, side: int, segment: int, offset: int) -> tuple[int, int]:
        if self.corpus is not None:
            return self.corpus.position(side, segment, offset)
        return self.perplexity.position(segment, offset)

    def span(self, side: int, segment: int, start: int, end: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """(line, column) of both ends of ``[start, end)`` of a segment's text on one side."""
        return self.position(side, segment, start), self.position(side, segment, end)

    def findings(self, segment: int) -> list[Finding]:
        """Where a segment's hypothesis and references differ, then its fluency findings."""
        found = self.corpus.findings(segment) if self.corpus is not None else []
        if self.perplexity is not None:
            found = found + self.perplexity.fluency.findings(segment)
        return found

    def over_segments(self, fn: Callable[[range], T], start: int = 0, stop: int | None = None) -> list[T]:
        """``fn`` of each run of ``POOL_CHUNK`` segments from ``start`` to ``stop`` (the last), in
        order; in ``jobs`` processes when they are many. Scored first, so that the workers fork
        with the scores: what ``fn`` returns is all that crosses between processes."""
        self.scores  # noqa: B018
        stop = self.segments if stop is None else min(stop, self.segments)
        chunks = [range(a, min(a + POOL_CHUNK, stop)) for a in range(start, stop, POOL_CHUNK)]
        if self.jobs > 1 and stop - start >= POOL_MINIMUM:
            with worker_pool(self.jobs) as pool_map:
                return list(pool_map(fn, chunks))
        return list(map(fn, chunks))

    def mismatches(self) -> list[tuple[int, int, int]]:
        """``(reference side, hypothesis count, reference count)`` for each reference that does not line up."""
        if self.corpus is None or self.corpus.config.segmentation == "document":
            return []  # one segment each, whatever the line counts
        counts = self.corpus.segment_counts()
        return [(side, counts[0], n) for side, n in enumerate(counts) if side and n != counts[0]]

    def to_dict(self) -> dict[str, Any]:
        """``score --json``'s object: only enabled metrics, BLEU, chrF and TER 0-100, the rest 0-1."""
        out = {} if self.scores is None else scores_dict(self.scores)
        if self.perplexity is not None:
            out = {PPL: fluency_dict(self.perplexity.score, self.perplexity.model), **out}
        out["segments"] = self.segments
        return out

    def results(self) -> Scores:
        return Scores.from_dict(self.to_dict())

    def head(self, segment: int) -> dict[str, Any]:
        """The fields a row starts with: the segment and the hypothesis line it starts on (1-based)."""
        return {"segment": segment, "line": self.first_line(segment) + 1}

    def segment_dict(self, segment: int) -> dict[str, Any]:
        """A ``score -sl --json`` row: the segment's own scores."""
        self.scores  # noqa: B018 -- scored once, through the pool when large
        row = self.head(segment)
        if self.perplexity is not None:
            row[PPL] = _fluency_row(self.perplexity.fluency[segment])
        if self.corpus is not None:
            row.update(segment_dict(self.corpus.segment_scores(segment)))
        return row

    def segment_results(self, segment: int) -> SegmentScores:
        return SegmentScores.from_dict(self.segment_dict(segment))

    def all_segment_results(self) -> Iterator[SegmentScores]:
        """Every segment's :meth:`segment_results`, in order, made a metric at a time for
        ``ROWS_AT_ONCE`` segments at a time (the command line prints them as they come)."""
        self.scores  # noqa: B018 -- scored once, through the pool when large
        scored = self.corpus.segment_score_columns(ROWS_AT_ONCE) if self.corpus is not None else repeat({})
        for start, scores in zip(range(0, self.segments, ROWS_AT_ONCE), scored):
            segments = range(start, min(start + ROWS_AT_ONCE, self.segments))
            columns: dict[str, list] = {}
            if self.perplexity is not None:
                columns[PPL] = [_fluency_row(self.perplexity.fluency[segment]) for segment in segments]
            for key, values in scores.items():
                figures = figures_of(key)
                columns[key] = [figures(value) if value is not None else None for value in values]
            yield from SegmentScores.from_columns(list(map(self.head, segments)), columns)


def _fluency_row(f: SegmentFluency) -> dict[str, Any]:
    """A segment's ``ppl``: its token count includes ``</s>``."""
    return {"perplexity": f.perplexity, "log10_prob": f.log10_prob, "tokens": f.words + 1, "oov": f.oov}


def evaluate(
    hypothesis: list[str], references: Sequence[list[str]], metrics: Sequence[str], options: dict[str, Any], jobs: int = 1
) -> Evaluation:
    """The run of ``metrics`` over a hypothesis's lines and its references' lines, with every
    option (see :func:`.options.complete`); a language model is loaded here when ``ppl`` is asked for."""
    config = scoring_config(metrics, options)
    check_references(config, len(references))
    corpus = Corpus(hypothesis, list(references), config) if config.metrics else None
    return Evaluation(corpus, jobs, perplexity_of(hypothesis, metrics, options))


def perplexity_of(hypothesis: list[str], metrics: Sequence[str], options: dict[str, Any]) -> Perplexity | None:
    if PPL not in metrics:
        return None
    from ..language_model import ModelUnavailable, load  # imported only when used: it needs the fluency extra

    config = fluency_config(options)
    try:
        model = load(options["lm"])
    except ModelUnavailable as exc:  # a file that is no model, or no kenlm: the option cannot be used
        raise OptionError("lm", str(exc)) from None
    spans = segment_spans(hypothesis, options["segmentation"])
    texts = ["\n".join(hypothesis[a:b]) for a, b in spans]
    return Perplexity(options["lm"], Fluency.of(model, config, texts), [a for a, _ in spans], model.order)
