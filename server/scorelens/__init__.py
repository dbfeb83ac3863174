"""ScoreLens: live BLEU, ROUGE-L and WER for paired hypothesis/reference documents."""

__version__ = "0.1.0"
