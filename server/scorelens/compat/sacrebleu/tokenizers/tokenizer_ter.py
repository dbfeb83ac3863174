"""sacreBLEU 2.6's ``TercomTokenizer``: TER's normalisation, as ScoreLens's core applies it."""

from __future__ import annotations

from ....core import TerConfig


class TercomTokenizer:
    """Tercom's tokenizer with sacreBLEU's options: lowercases unless ``case_sensitive``;
    ``normalized`` splits punctuation (and, with ``asian_support``, CJK characters);
    ``no_punct`` removes punctuation. Calling it returns the words joined by single spaces."""

    def __init__(self, normalized: bool = False, no_punct: bool = False, asian_support: bool = False, case_sensitive: bool = False) -> None:
        self._config = TerConfig(normalized, no_punct, asian_support, case_sensitive)

    def __call__(self, sent: str) -> str:
        return " ".join(self._config.tokens(sent))

    def signature(self) -> str:
        return "tercom"
