"""rouge-score 0.1.2's tokenizer classes; ``DefaultTokenizer`` is ScoreLens's rouge-score tokenizer."""

from __future__ import annotations

import abc

from ...core.tokenizers import rouge_tokenizer
from .tokenize import ensure_str


class Tokenizer(abc.ABC):
    """What a ``RougeScorer`` takes as ``tokenizer``: ``tokenize(text)`` gives a list of tokens."""

    @abc.abstractmethod
    def tokenize(self, text: str) -> list[str]: ...


class DefaultTokenizer(Tokenizer):
    """rouge-score's default tokens: lowercased ``[a-z0-9]`` runs, Porter-stemmed (NLTK's
    stemmer, words over 3 characters) if ``use_stemmer``."""

    def __init__(self, use_stemmer: bool = False) -> None:
        self._tokens = rouge_tokenizer("rouge-score", use_stemmer).tokens

    def tokenize(self, text: str | bytes) -> list[str]:
        return self._tokens(ensure_str(text))
