"""sacreBLEU 2.6's Python API, scored by ScoreLens's core: a drop-in for ``import sacrebleu``.

    from scorelens.compat import sacrebleu
    bleu = sacrebleu.corpus_bleu(hypotheses, [references])
    bleu.score, bleu.counts, bleu.precisions, bleu.bp
    sacrebleu.BLEU(tokenize="intl").corpus_score(hypotheses, [references])

The functions, the ``BLEU``, ``CHRF`` and ``TER`` classes and their score objects take and give
what sacreBLEU's do, with equal numbers; signatures name ScoreLens's version. Test sets and
their downloads (``sacrebleu.dataset``, ``sacrebleu.utils``) are not part of it; see
``docs/compat.md`` for what else is not.
"""

from . import compat, metrics, significance, tokenizers
from .compat import corpus_bleu, corpus_chrf, corpus_ter, raw_corpus_bleu, sentence_bleu, sentence_chrf, sentence_ter
from .metrics import BLEU, CHRF, TER, BLEUScore, CHRFScore, TERScore

__all__ = [
    "BLEU",
    "BLEUScore",
    "CHRF",
    "CHRFScore",
    "TER",
    "TERScore",
    "compat",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "metrics",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
    "significance",
    "tokenizers",
]
