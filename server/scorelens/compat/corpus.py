"""A core corpus scored cold for the compat modules' corpus-level calls: through the core's batch
path, in worker processes when it is large (2,000 segments or more and more than one CPU), as
``scorelens score`` scores one."""

from __future__ import annotations

from typing import Sequence

from ..api.pool import available_cpus, worker_pool
from ..core import Corpus, ScoringConfig
from ..core.corpus import POOL_MINIMUM


def scored_corpus(hypotheses: Sequence[str], references: Sequence[Sequence[str]], config: ScoringConfig) -> Corpus:
    """The segments (one string each) against their reference streams, scored."""
    # lists of lines ending with an empty one, as the core reads a file: an empty last segment
    # stays a segment
    corpus = Corpus([*hypotheses, ""], [[*r, ""] for r in references], config)
    jobs = available_cpus()
    if jobs > 1 and len(hypotheses) >= POOL_MINIMUM:
        with worker_pool(jobs) as pool_map:
            corpus.refresh(pool_map=pool_map)
    else:
        corpus.refresh()
    return corpus
