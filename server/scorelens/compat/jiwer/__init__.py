"""jiwer 4's Python API, scored by ScoreLens's core: a drop-in for ``import jiwer``.

    from scorelens.compat import jiwer
    jiwer.wer(references, hypotheses)
    out = jiwer.process_words(references, hypotheses)
    out.substitutions, out.alignments[0][0].type

``wer``, ``mer``, ``wil``, ``wip``, ``cer``, ``process_words``, ``process_characters``, their
``WordOutput``, ``CharacterOutput`` and ``AlignmentChunk``, and the standard transformations
(``wer_default``, ``wer_contiguous``, ``cer_default``, ``cer_contiguous``) take and give what
jiwer's do, with equal numbers and alignments. jiwer's text-normalising transforms
(``Compose``...) and its printed visualisations are not part of it.
"""

from . import measures, process, transformations
from .measures import cer, mer, wer, wil, wip
from .process import AlignmentChunk, CharacterOutput, WordOutput, process_characters, process_words
from .transformations import cer_contiguous, cer_default, wer_contiguous, wer_default

__all__ = [
    "AlignmentChunk",
    "CharacterOutput",
    "WordOutput",
    "cer",
    "cer_contiguous",
    "cer_default",
    "measures",
    "mer",
    "process",
    "process_characters",
    "process_words",
    "transformations",
    "wer",
    "wer_contiguous",
    "wer_default",
    "wil",
    "wip",
]
