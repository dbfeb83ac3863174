"""sacreBLEU's tokenizer modules that ScoreLens has a counterpart of: TER's (``tokenizer_ter``)."""
