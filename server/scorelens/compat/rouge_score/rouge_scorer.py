"""rouge-score 0.1.2's ``RougeScorer`` over ScoreLens's core ROUGE (:mod:`scorelens.core.rouge`)."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Sequence

from ...core import rouge
from . import scoring, tokenizers
from .tokenize import ensure_str

_ROUGE_N = re.compile(r"rouge[0-9]$")


class RougeScorer(scoring.BaseScorer):
    """ROUGE-N (``rouge1`` .. ``rouge9``), ROUGE-L and ROUGE-Lsum of a prediction against a
    target, equal to rouge-score 0.1.2's with the same arguments.

    ``use_stemmer`` Porter-stems the default tokens; ``tokenizer``, an object with
    ``tokenize(text)``, replaces them. ``rougeLsum`` takes the texts' lines as sentences, or
    NLTK's ``sent_tokenize``'s with ``split_summaries`` (which needs NLTK's punkt data).
    An invalid type raises ValueError when scoring, as rouge-score's does.
    """

    def __init__(self, rouge_types: Sequence[str], use_stemmer: bool = False, split_summaries: bool = False, tokenizer: tokenizers.Tokenizer | None = None) -> None:
        self.rouge_types = rouge_types
        self._tokenizer = tokenizer if tokenizer else tokenizers.DefaultTokenizer(use_stemmer)
        self._split_summaries = split_summaries

    def score_multi(self, targets: Sequence[str], prediction: str) -> dict[str, scoring.Score]:
        """Each type's score against the target with the best F-measure (the first of equals)."""
        per_target = [self.score(t, prediction) for t in targets]
        if not per_target:  # rouge-score's argmax of nothing is a ValueError too
            raise ValueError("score_multi needs at least one target")
        return {key: per_target[rouge.best([s[key] for s in per_target])][key] for key in self.rouge_types}

    def score(self, target: str, prediction: str) -> dict[str, scoring.Score]:
        """Each of the scorer's types' ``Score(precision, recall, fmeasure)`` for one pair."""
        tokenize = self._tokenizer.tokenize
        numbers: tuple[list[int], list[int]] | None = None
        result = {}
        for key in self.rouge_types:
            if key == "rougeLsum":
                found = rouge.summary_scores(
                    [tokenize(s) for s in self._sentences(prediction)], [tokenize(s) for s in self._sentences(target)]
                )
            elif key == "rougeL" or _ROUGE_N.match(key):
                if numbers is None:
                    numbers = _numbered(tokenize(prediction), tokenize(target))
                if key == "rougeL":
                    found = rouge.lcs_scores(*numbers)
                elif int(key[5:]) <= 0:
                    raise ValueError(f"rougen requires positive n: {key}")
                else:
                    found = rouge.ngram_scores(*numbers, int(key[5:]))
            else:
                raise ValueError(f"Invalid rouge type: {key}")
            result[key] = scoring.Score(*found)
        return result

    def _sentences(self, text: str | bytes) -> list[str]:
        """rougeLsum's sentences: the non-empty lines, or NLTK's sentences."""
        if self._split_summaries:
            import nltk  # loaded only for this option, as it needs NLTK's data

            sentences = nltk.sent_tokenize(text)
        else:
            sentences = ensure_str(text).split("\n")
        return [s for s in sentences if s]


def _numbered(*sides: list[str]) -> tuple[list[int], ...]:
    """The sides' tokens as numbers, equal tokens equal numbers (the core compares numbers)."""
    number: defaultdict[str, int] = defaultdict(lambda: len(number))
    return tuple([number[t] for t in side] for side in sides)
