"""A corpus to edit in a notebook: change a segment, read the new scores and findings. The core
the language server uses, re-scoring only what an edit changed; no LSP types."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from ..core import Corpus as CoreCorpus
from ..core import Finding
from ..summary import scores_dict, segment_dict
from .options import DEFAULT_METRICS, PPL, OptionError, check_choices, check_references, complete, metric_names, scoring_config
from .results import Scores, SegmentScores
from .evaluation import Evaluation
from .scoring import Texts, check_lined_up, lines_of, reference_streams


class Corpus:
    """Hypotheses and references kept scored through edits (arguments as :func:`~scorelens.score`,
    without ``ppl``). Side 0 is the hypothesis, side *k* the *k*-th reference."""

    def __init__(
        self, hypotheses: Texts, references: Texts | Sequence[Texts], metrics: str | Iterable[str] = DEFAULT_METRICS, **options: Any
    ) -> None:
        names = metric_names(metrics)
        if PPL in names:
            raise OptionError("metrics", "a Corpus has no ppl; scorelens.score scores perplexity")
        o = complete(options)
        check_choices(o)
        streams = reference_streams(references)
        if not streams:
            raise OptionError("references", "no references to score against")
        config = scoring_config(names, o)
        check_references(config, len(streams))
        self._core = CoreCorpus(
            lines_of("hypotheses", hypotheses),
            [lines_of(f"references[{i}]", r) for i, r in enumerate(streams)],
            config,
        )
        # refused as score refuses it: a short side would be scored as empty segments
        check_lined_up(Evaluation(self._core))

    def __len__(self) -> int:
        return len(self._core)

    def text(self, segment: int, side: int = 0) -> str:
        self._check(segment, side)
        return self._core.text(side, segment)

    def edit(self, segment: int, text: str, side: int = 0) -> None:
        """Segment ``segment`` of ``side`` is now ``text``; the next reading re-scores it alone."""
        self._check(segment, side)
        if not isinstance(text, str):
            raise TypeError(f"text: expected str, not {type(text).__name__}")
        if self._core.config.segmentation == "line":
            # a segment is one string, line breaks and all, as the constructor takes it: one
            # line of the core's, whatever its text (line_count would span the next segments)
            self._core.replace_lines(side, segment, segment + 1, [text])
            return
        lines = text.split("\n")
        if self._core.config.segmentation == "paragraph" and not all(line.strip() for line in lines):
            # a blank line would end the paragraph there (an empty text: no paragraph), pairing
            # every later one with another paragraph of the other sides
            raise ValueError("text: a paragraph has no blank line and is not empty")
        first = self._core.first_line(side, segment)
        self._core.replace_lines(side, first, first + self._core.line_count(side, segment), lines)

    def scores(self) -> Scores:
        """The corpus scores now, as :func:`~scorelens.score` of the current texts."""
        return Scores.from_dict(scores_dict(self._core.scores()))

    def segment_scores(self, segment: int) -> SegmentScores:
        """One segment's own scores, as a :func:`~scorelens.sentence_scores` item."""
        self._check(segment)
        return SegmentScores.from_dict(
            {"segment": segment, "line": self._core.first_line(0, segment) + 1, **segment_dict(self._core.segment_scores(segment))}
        )

    def findings(self, segment: int) -> list[Finding]:
        """Where the segment's hypothesis and references differ: unmatched n-grams, edit
        operations, words outside the LCS, shifts; each a span of a side's segment text."""
        self._check(segment)
        return self._core.findings(segment)

    def _check(self, segment: int, side: int = 0) -> None:
        if not 0 <= segment < len(self._core):
            raise IndexError(f"segment {segment} out of range (0-{len(self._core) - 1})")
        if not 0 <= side <= self._core.references:
            raise IndexError(f"side {side} out of range (0: the hypothesis, 1-{self._core.references}: the references)")
