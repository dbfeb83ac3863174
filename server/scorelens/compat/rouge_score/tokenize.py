"""rouge-score 0.1.2's ``tokenize``: lowercase, keep ``[a-z0-9]`` runs, optionally stem."""

from __future__ import annotations

import re
from typing import Any

from ...core.tokenizers import rouge_tokenizer

_VALID = re.compile(r"^[a-z0-9]+$")


def ensure_str(text: str | bytes) -> str:
    """A text as rouge-score takes it: bytes (TensorFlow's strings) are UTF-8 (its six.ensure_str)."""
    return text.decode("utf-8") if isinstance(text, bytes) else text


def tokenize(text: str | bytes, stemmer: Any) -> list[str]:
    """The tokens of ``text`` as rouge-score makes them; ``stemmer`` (an object with ``stem``,
    such as NLTK's ``PorterStemmer``, or None) stems the tokens longer than 3 characters, and
    tokens that stemming leaves invalid are dropped."""
    tokens = rouge_tokenizer("rouge-score").tokens(ensure_str(text))
    if stemmer is None:
        return tokens
    stemmed = (stemmer.stem(t) if len(t) > 3 else t for t in tokens)
    return [t for t in stemmed if _VALID.match(t)]
