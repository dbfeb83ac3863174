"""rouge-score 0.1.2's Python API, scored by ScoreLens's core: a drop-in for ``import rouge_score``.

    from scorelens.compat.rouge_score import rouge_scorer
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    scorer.score(target, prediction)["rougeL"].fmeasure

``rouge_scorer``, ``scoring`` (``Score``), ``tokenizers`` and ``tokenize`` have rouge-score's
shapes and numbers. ``scoring.BootstrapAggregator`` (random resampling) is not part of it.
"""

from . import rouge_scorer, scoring, tokenize, tokenizers

__all__ = ["rouge_scorer", "scoring", "tokenize", "tokenizers"]
