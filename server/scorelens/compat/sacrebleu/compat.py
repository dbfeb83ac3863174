"""sacreBLEU 2.6's functions (``sacrebleu.corpus_bleu`` and the rest): one metric object per
call, with the same arguments and defaults as sacreBLEU's.

``references`` is sacreBLEU's shape: a list of reference streams, each as long as the
hypotheses (``[refs]`` for one reference). Corpus functions score through the core's batch path.
"""

from __future__ import annotations

from typing import Sequence

from .metrics import BLEU, CHRF, TER, BLEUScore, CHRFScore, TERScore


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = False,
) -> BLEUScore:
    """Corpus BLEU, equal to ``sacrebleu.corpus_bleu`` with the same arguments."""
    metric = BLEU(lowercase, force, tokenize, smooth_method, smooth_value, effective_order=use_effective_order)
    return metric.corpus_score(hypotheses, references)


def raw_corpus_bleu(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], smooth_value: float | None = BLEU.SMOOTH_DEFAULTS["floor"]
) -> BLEUScore:
    """Corpus BLEU of untokenized text (tokenizer ``none``), floor smoothing and effective order,
    equal to ``sacrebleu.raw_corpus_bleu``."""
    return corpus_bleu(
        hypotheses, references, smooth_method="floor", smooth_value=smooth_value, force=True, tokenize="none", use_effective_order=True
    )


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = True,
) -> BLEUScore:
    """BLEU of one hypothesis against its references, equal to ``sacrebleu.sentence_bleu``."""
    metric = BLEU(lowercase, False, tokenize, smooth_method, smooth_value, effective_order=use_effective_order)
    return metric.sentence_score(hypothesis, references)


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """Corpus chrF (chrF++ with ``word_order=2``), equal to ``sacrebleu.corpus_chrf``."""
    return _chrf(char_order, word_order, beta, remove_whitespace, eps_smoothing).corpus_score(hypotheses, references)


def sentence_chrf(
    hypothesis: str,
    references: Sequence[str],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """chrF of one hypothesis against its references, equal to ``sacrebleu.sentence_chrf``."""
    return _chrf(char_order, word_order, beta, remove_whitespace, eps_smoothing).sentence_score(hypothesis, references)


def _chrf(char_order: int, word_order: int, beta: int, remove_whitespace: bool, eps_smoothing: bool) -> CHRF:
    return CHRF(char_order=char_order, word_order=word_order, beta=beta, whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)


def corpus_ter(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """Corpus TER, equal to ``sacrebleu.corpus_ter`` with the same arguments."""
    return TER(normalized, no_punct, asian_support, case_sensitive).corpus_score(hypotheses, references)


def sentence_ter(
    hypothesis: str,
    references: Sequence[str],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """TER of one hypothesis against its references, equal to ``sacrebleu.sentence_ter``."""
    return TER(normalized, no_punct, asian_support, case_sensitive).sentence_score(hypothesis, references)
