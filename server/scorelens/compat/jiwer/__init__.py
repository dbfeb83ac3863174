"""jiwer 4's Python API, scored by ScoreLens's core: a drop-in for ``import jiwer``.

    from scorelens.compat import jiwer
    jiwer.wer(references, hypotheses)
    out = jiwer.process_words(references, hypotheses)
    out.substitutions, out.alignments[0][0].type

``wer``, ``mer``, ``wil``, ``wip``, ``cer``, ``process_words``, ``process_characters``, their
``WordOutput``, ``CharacterOutput`` and ``AlignmentChunk``, the transforms (``Compose``,
``ToLowerCase``...) and standard transformations (``wer_default``...), and the printed reports
(``visualize_alignment``, ``visualize_error_counts``) take and give what jiwer's do, with equal
numbers, alignments and text.
"""

from . import alignment, measures, process, transformations, transforms
from .alignment import collect_error_counts, visualize_alignment, visualize_error_counts
from .measures import cer, mer, wer, wil, wip
from .process import AlignmentChunk, CharacterOutput, WordOutput, process_characters, process_words
from .transformations import cer_contiguous, cer_default, wer_contiguous, wer_default, wer_standardize, wer_standardize_contiguous
from .transforms import *  # noqa: F403 -- jiwer's top level has every transform
from .transforms import __all__ as _transforms

__all__ = [
    *_transforms,
    "AlignmentChunk",
    "CharacterOutput",
    "WordOutput",
    "cer",
    "cer_contiguous",
    "cer_default",
    "alignment",
    "collect_error_counts",
    "measures",
    "mer",
    "process",
    "process_characters",
    "process_words",
    "transformations",
    "transforms",
    "visualize_alignment",
    "visualize_error_counts",
    "wer",
    "wer_contiguous",
    "wer_default",
    "wer_standardize",
    "wer_standardize_contiguous",
    "wil",
    "wip",
]
