"""Drop-in modules with the call shapes of ScoreLens's peers, scored by ScoreLens's core.

- :mod:`scorelens.compat.sacrebleu`: sacreBLEU 2.6's ``corpus_bleu``, ``BLEU``, ``CHRF``, ``TER``...
- :mod:`scorelens.compat.jiwer`: jiwer 4's ``wer``, ``process_words``, ``process_characters``...
- :mod:`scorelens.compat.rouge_score`: rouge-score 0.1.2's ``rouge_scorer.RougeScorer``.

None of them imports its peer: they work without sacreBLEU, jiwer or rouge-score installed.
``docs/compat.md`` lists the peers' own tests that cannot pass here, and why.
"""
