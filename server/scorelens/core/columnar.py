"""Texts to token-number arrays, a batch of texts at a time: what scoring from texts reads.

A cold scoring (the command line, a worker process, re-pairing after a line count changed)
needs each segment's statistics, not the per-text analyses an editor keeps for its findings.
Here a batch's texts are split at whitespace once, each word is looked up in a table of the
distinct words met so far (made the first time a word is met: its tokens in every stream, BLEU's,
ROUGE's, jiwer's), and each stream of the batch is gathered from that table by numpy, with no
Python step per token. A stream whose tokens are not always its words' (13a unescapes entities,
jiwer keeps a tab inside a word) takes the tokens of such a text from the text itself.
"""

from __future__ import annotations

from itertools import chain
from typing import Callable, Mapping, Sequence

import numpy as np

from .ngram_counts import Side

Numbers = Callable[[str], Sequence[int]]  # a word's or a text's token numbers


class _Growing:
    """A list of ints that only grows, and its numpy copy, updated by copying only what was
    appended since: a batch adds a few new words to a table of tens of thousands."""

    def __init__(self) -> None:
        self.items: list[int] = []
        self._array = np.empty(1024, np.int64)
        self._copied = 0

    def array(self) -> np.ndarray:
        size = len(self.items)
        if size > self._copied:
            if size > len(self._array):
                grown = np.empty(max(size, 2 * len(self._array)), np.int64)
                grown[: self._copied] = self._array[: self._copied]
                self._array = grown
            self._array[self._copied : size] = self.items[self._copied : size]
            self._copied = size
        return self._array[:size]


class _Tokens:
    """Each word's tokens in one stream, end to end (a word has none, one or several)."""

    def __init__(self, of_word: Numbers) -> None:
        self.of_word = of_word
        self.flat = _Growing()
        self.first = _Growing()  # where each word's tokens begin in ``flat``
        self.count = _Growing()

    def add(self, word: str) -> None:
        tokens = self.of_word(word)
        self.first.items.append(len(self.flat.items))
        self.count.items.append(len(tokens))
        self.flat.items.extend(tokens)

    def gather(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The tokens of the words ``ids``, end to end, and how many each word gave."""
        counts = self.count.array()[ids]
        ends = np.cumsum(counts)
        # a token's place in ``flat``: its word's first, plus how far into the word it is
        places = np.repeat(self.first.array()[ids] - ends + counts, counts) + np.arange(ends[-1] if len(ends) else 0)
        return self.flat.array()[places], counts


class Columns(dict):
    """Token streams of a batch of texts (:meth:`side`), from a table of the words met so far
    (this dict: a word's id).

    ``by_word`` gives a word's tokens in each word-local stream; ``by_text`` a text's tokens in
    the other streams, and in the word-local ones for a text that ``plain`` (text, its words)
    rejects.
    """

    def __init__(self, by_word: Mapping[str, Numbers], by_text: Mapping[str, Numbers], plain: Callable[[str, list[str]], bool]) -> None:
        self.streams = {name: _Tokens(of_word) for name, of_word in by_word.items()}
        self.by_text = by_text
        self.plain = plain
        self.checked = [name for name in by_word if name in by_text]

    def __missing__(self, word: str) -> int:
        for tokens in self.streams.values():
            tokens.add(word)
        number = self[word] = len(self)
        return number

    def side(self, texts: Sequence[str]) -> dict[str, Side]:
        """Each stream's tokens of ``texts``: one :class:`Side` per stream name."""
        words = list(map(str.split, texts))
        counts = np.fromiter(map(len, words), np.int64, len(words))
        ids = np.fromiter(map(self.__getitem__, chain.from_iterable(words)), np.int64, int(counts.sum()))
        bounds = np.concatenate(([0], np.cumsum(counts)))
        found = {}
        for name, tokens in self.streams.items():
            symbols, per_word = tokens.gather(ids)
            found[name] = Side(symbols, np.diff(np.concatenate(([0], np.cumsum(per_word)))[bounds]))
        if self.checked and not _all_plain(texts, words):
            odd = [i for i, (text, w) in enumerate(zip(texts, words)) if not self.plain(text, w)]
            for name in self.checked:
                found[name] = _spliced(found[name], odd, [self.by_text[name](texts[i]) for i in odd])
        for name, of_text in self.by_text.items():
            if name not in found:
                found[name] = Side.of_numbers(list(map(of_text, texts)))
        return found


def _all_plain(texts: Sequence[str], words: list[list[str]]) -> bool:
    """Whether every text is its words joined by single spaces, with no ``&`` or ``<``: the
    batch at once (the joined words hold no line break, so no text may hold one either)."""
    joined = "\n".join(texts)
    return "&" not in joined and "<" not in joined and joined == "\n".join(map(" ".join, words))


def _spliced(side: Side, rows: list[int], tokens: list[Sequence[int]]) -> Side:
    """``side`` with the tokens of texts ``rows`` (ascending) replaced by ``tokens``."""
    lengths = side.lengths.copy()
    lengths[rows] = list(map(len, tokens))
    kept = np.ones(len(lengths), bool)
    kept[rows] = False
    symbols = side.symbols[np.repeat(kept, side.lengths)]
    # each new token goes after the kept tokens of the texts before its own
    before = np.concatenate(([0], np.cumsum(np.where(kept, lengths, 0))))[rows]
    places = np.repeat(before, lengths[rows])
    return Side(np.insert(symbols, places, np.fromiter(chain.from_iterable(tokens), np.int64, len(places))), lengths)
