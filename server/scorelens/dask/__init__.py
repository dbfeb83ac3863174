"""ScoreLens on Dask: score a collection (:func:`score`, :func:`statistics`) or compare systems
(:func:`compare`) where the partitions are, then add or gather the few numbers each partition
yields; :func:`score_files` and :func:`compare_files` do the same for JSONL, Parquet and TSV files
on a cluster. The results equal :func:`scorelens.score` and :func:`scorelens.compare` of all the
texts in one process.

Needs the ``dask`` extra: ``pip install 'scorelens[dask]'``.
"""

# absolute imports: this package is scorelens.dask, the library is dask
import dask

from .comparing import compare, compare_files
from .scoring import score, score_files, statistics

__all__ = ["compare", "compare_files", "dask", "score", "score_files", "statistics"]
