"""A core corpus scored cold for the compat modules' corpus-level calls: through the core's batch
path, in this process. A drop-in for a peer's function must not start processes behind its
caller's back (a fork beside a training loop's threads can hang); ``scorelens.score(jobs=N)``
is the way to use several cores."""

from __future__ import annotations

from typing import Sequence

from ..core import Corpus, ScoringConfig


def scored_corpus(hypotheses: Sequence[str], references: Sequence[Sequence[str]], config: ScoringConfig) -> Corpus:
    """The segments (one string each) against their reference streams, scored."""
    # lists of lines ending with an empty one, as the core reads a file: an empty last segment
    # stays a segment
    corpus = Corpus([*hypotheses, ""], [[*r, ""] for r in references], config)
    corpus.refresh()
    return corpus
