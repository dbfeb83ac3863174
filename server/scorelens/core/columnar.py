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

from itertools import chain, repeat
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
        self.count = _Growing()
        self.single = True  # whether every word so far has exactly one token

    def add(self, word: str) -> None:
        tokens = self.of_word(word)
        self.count.items.append(len(tokens))
        self.flat.items.extend(tokens)
        self.single = self.single and len(tokens) == 1

    def gather(self, ids: np.ndarray, counts: np.ndarray, ends: np.ndarray) -> Side:
        """The tokens of texts whose words are ``ids``: ``counts`` words a text, ending at
        ``ends``."""
        if self.single:  # jiwer's words, rouge-score's tokens as units (see Columns)
            return Side(self.flat.array()[ids], counts)
        count = self.count.array()
        first = np.cumsum(count) - count  # where each word's tokens begin in ``flat``
        per_word = count[ids]
        word_ends = np.cumsum(per_word)
        # a token's place in ``flat``: its word's first, plus how far into the word it is
        places = np.repeat(first[ids] - word_ends + per_word, per_word) + np.arange(word_ends[-1] if len(ids) else 0)
        return Side(self.flat.array()[places], _per_text(word_ends, ends))


class Columns(dict):
    """Token streams of a batch of texts (:meth:`side`), from a table of the words met so far
    (this dict: a word's id).

    ``by_word`` gives a word's tokens in each word-local stream; ``by_text`` a text's tokens in
    the other streams, and in the word-local ones (``checked``) for a text that is not plain: its
    words joined by single spaces, without ``&`` or ``<`` (13a unescapes entities and drops
    ``<skipped>``; jiwer splits at spaces only). ``split`` makes a text's words (when no stream
    is checked, any units its streams are local to).
    """

    def __init__(
        self,
        by_word: Mapping[str, Numbers],
        by_text: Mapping[str, Numbers],
        split: Callable[[str], list] = str.split,
    ) -> None:
        self.streams = {name: _Tokens(of_word) for name, of_word in by_word.items()}
        self.split = split
        self.by_text = by_text
        self.checked = [name for name in by_word if name in by_text]
        self.length = _Growing()  # of each word

    def __missing__(self, word: str) -> int:
        for tokens in self.streams.values():
            tokens.add(word)
        self.length.items.append(len(word))
        number = self[word] = len(self)
        return number

    def side(self, texts: Sequence[str]) -> dict[str, Side]:
        """Each stream's tokens of ``texts``: one :class:`Side` per stream name."""
        words = list(map(self.split, texts))
        counts = np.fromiter(map(len, words), np.int64, len(words))
        ends = np.cumsum(counts)  # of each text's words
        ids = np.fromiter(map(self.__getitem__, chain.from_iterable(words)), np.int64, int(ends[-1]) if len(ends) else 0)
        found = {name: tokens.gather(ids, counts, ends) for name, tokens in self.streams.items()}
        if self.checked:
            odd = self._odd(texts, counts, ends, ids)
            if odd:
                for name in self.checked:
                    found[name] = _spliced(found[name], odd, [self.by_text[name](texts[i]) for i in odd])
        for name, of_text in self.by_text.items():
            if name not in found:
                found[name] = Side.of_numbers(list(map(of_text, texts)))
        return found

    def _odd(self, texts: Sequence[str], counts: np.ndarray, ends: np.ndarray, ids: np.ndarray) -> list[int]:
        """The texts that are not plain. A text is its words (no whitespace in them) and
        whitespace: it is its words joined by single spaces exactly when it has as many
        characters as its words and one more for each gap between two, and that many spaces."""
        gaps = np.maximum(counts - 1, 0)
        size = np.fromiter(map(len, texts), np.int64, len(texts))
        spaces = np.fromiter(map(str.count, texts, repeat(" ")), np.int64, len(texts))
        odd = (size != _per_text(np.cumsum(self.length.array()[ids]), ends) + gaps) | (spaces != gaps)
        joined = "".join(texts)
        for char in "&<":
            if char in joined:
                odd |= np.fromiter(map(str.__contains__, texts, repeat(char)), bool, len(texts))
        return np.flatnonzero(odd).tolist()


def _per_text(cumulative: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Per text, the sum of its words' values, from their running sum and where each text's
    words end."""
    return np.diff(np.concatenate(([0], cumulative))[ends], prepend=0)


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
