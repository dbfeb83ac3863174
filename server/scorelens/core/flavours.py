"""The flavours a family can be scored with in place of its default (DESIGN §8), by impl name.

Each flavour is a sibling module of its family (``bleu_nltk``, ``rouge_pypi``, ``rouge155``)
that is exact to its oracle; the classes here give each one the family's shape the run works
with: statistics per segment (what a :class:`~.segment.Record` keeps), a formula over their sum
(or, where the oracle's corpus figure is not one of sums, over the segments' records), the
spans findings are made of, and the signature. The default implementations (sacreBLEU's BLEU,
rouge-score's ROUGE) have their own, faster paths and no entry here.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from itertools import chain
from typing import TYPE_CHECKING

from . import bleu_nltk, rouge, rouge155, rouge_pypi, rouge_wsu
from .bleu_nltk import NltkBleuConfig, NltkBleuScore
from .rouge import ROUGE_N, RougeConfig, RougeScore
from .rouge155 import Rouge155Config
from .tokenizers import Tokenizer

if TYPE_CHECKING:
    import numpy as np

    from .rouge155_average import Average

    from .ngram_counts import Side
    from .segment import Record

# ROUGE-1.5.5's measures beyond ROUGE-N and ROUGE-L, as metric keys
ROUGE_WSU = ("rougeW", "rougeS", "rougeSU")
# a finding of a flavour's: a hypothesis word no reference has (without ROUGE-L's LCS to go by)
ROUGE_UNMATCHED = "rouge.unmatched"
Triple = tuple[float, float, float]  # (precision, recall, F), as RougeScore


class NltkBleu:
    """BLEU as NLTK's ``corpus_bleu`` / ``sentence_bleu`` (:mod:`.bleu_nltk`)."""

    name = "nltk"

    def __init__(self, config: NltkBleuConfig) -> None:
        self.config = config
        self.order = config.order
        # methods 5-7 read the corpus's last segment (its 5-gram precision, its length)
        self.needs_last = config.smoothing >= 5

    @property
    def tokenizer(self) -> Tokenizer:
        return self.config.tokenizer

    @property
    def lowercase(self) -> bool:
        return self.config.lowercase

    def statistics(self, hyp: Sequence[Hashable], refs: Sequence[Sequence[Hashable]]) -> tuple[int, ...]:
        return bleu_nltk.statistics(hyp, refs, self.order)

    def statistics_of(self, hyp: Side, refs: Sequence[Side]) -> tuple[np.ndarray, np.ndarray | None]:
        """:meth:`statistics` of many segments, a row each, and :meth:`last`'s figures (a row
        each; None: nothing)."""
        return bleu_nltk.statistics_of(hyp, refs, self.order, self.needs_last)

    def last(self, hyp: Sequence[Hashable], refs: Sequence[Sequence[Hashable]]) -> tuple[int, int, int] | None:
        """What the smoothing reads when this segment is the last one (None: nothing)."""
        return bleu_nltk.last_segment(hyp, refs) if self.needs_last else None

    def score(self, stats: Sequence[int], last: tuple[int, int, int] | None) -> NltkBleuScore:
        """``corpus_bleu`` × 100 of summed statistics; of one segment's, ``sentence_bleu`` × 100."""
        return bleu_nltk.corpus_score(stats, self.config, last)

    def signature(self, nrefs: int | None) -> str:
        return bleu_nltk.signature(self.config, nrefs)


def _flat(triples: Sequence[Triple]) -> tuple[float, ...]:
    return tuple(x for t in triples for x in t)


def _unmatched(triples: Sequence[Triple]) -> bool:
    return any(p < 1 for p, _, _ in triples)


class PypiRouge:
    """ROUGE as the PyPI ``rouge`` package's ``get_scores(avg=True, ignore_empty=True)`` (:mod:`.rouge_pypi`):
    per pair its raw figures, for the corpus their mean over the pairs it does not skip."""

    name = "rouge"
    KEYS = ("rougeL", *ROUGE_N[:5])  # rouge-l, rouge-1 .. rouge-5
    needs_records = False
    skips = True  # pairs it cannot score are left out of the mean
    max_references = 1  # the package scores a pair

    def __init__(self, keys: Sequence[str], rouge_n: Sequence[str], config: Rouge155Config) -> None:
        self.keys, self.rouge_n = tuple(keys), tuple(rouge_n)
        self.rouge_l = "rougeL" in keys
        names = (["rouge-l"] if self.rouge_l else []) + [f"rouge-{key[5:]}" for key in rouge_n]
        self.config = rouge_pypi.RougePypiConfig(tuple(names))

    def statistics(self, hyp: str, refs: Sequence[str]):
        """(rouge_l, rouge_n, rouge_wsu, skipped, unmatched) of one pair."""
        scores = rouge_pypi.pair_scores(hyp, refs[0], self.config)
        if isinstance(scores, str):  # skipped: nothing to the sums, one to the count of skipped pairs
            zero = (0.0, 0.0, 0.0)
            return (zero if self.rouge_l else None), (_flat([zero] * len(self.rouge_n)) or None), None, (1,), False
        rouge_n = [scores.scores[f"rouge-{key[5:]}"] for key in self.rouge_n]
        rouge_l = scores.scores["rouge-l"] if self.rouge_l else None
        return rouge_l, (_flat(rouge_n) or None), None, (0,), _unmatched(rouge_n + ([rouge_l] if rouge_l else []))

    def statistics_of(self, hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> list:
        return list(map(self.statistics, hyps, refs))

    def corpus(self, sums, n: int, records: Sequence[Record] | None) -> dict[str, RougeScore]:
        """The mean over the pairs scored (every figure 0 when none is: the package raises)."""
        scored = n - (sums["rouge_skipped"][0] if "rouge_skipped" in sums else 0)
        mean = (lambda t: RougeScore(*(x / scored for x in t))) if scored > 0 else (lambda t: RougeScore(0.0, 0.0, 0.0))
        found = {"rougeL": mean(sums["rouge_l"])} if self.rouge_l else {}
        for i, key in enumerate(self.rouge_n):
            found[key] = mean(sums["rouge_n"][3 * i : 3 * i + 3])
        return found

    def spans(self, hyp: str, refs: Sequence[str]) -> list[tuple[str, int, int]]:
        """Hypothesis words outside the LCS union (with ROUGE-L), else words not in the reference."""
        if isinstance(rouge_pypi.pair_scores(hyp, refs[0], self.config), str):
            return []  # a pair the package skips has no findings, as it has no scores
        if self.rouge_l:
            return [("rouge.outside-lcs", a, b) for a, b in rouge_pypi.unmatched_spans(hyp, refs[0], "rouge-l")]
        return [(ROUGE_UNMATCHED, a, b) for a, b in rouge_pypi.unmatched_spans(hyp, refs[0], "rouge-1")]

    def signature(self, key: str, nrefs: int | None) -> str:
        return rouge_pypi.signature(self.config, nrefs)


class Rouge155:
    """ROUGE as ROUGE-1.5.5.pl (:mod:`.rouge155`): per summary its rounded figures; for the corpus
    the average the script prints, its bootstrap's mean, which reads every summary's figures."""

    name = "rouge-1.5.5"
    KEYS = ("rougeL", *ROUGE_N, *ROUGE_WSU)
    needs_records = True
    batched = True  # statistics_of scores segments together (numpy)
    skips = False
    max_references = None

    def __init__(self, keys: Sequence[str], rouge_n: Sequence[str], config: Rouge155Config) -> None:
        self.keys, self.rouge_n = tuple(keys), tuple(rouge_n)
        self.wsu = tuple(k for k in ROUGE_WSU if k in keys)
        s, su = "rougeS" in keys, "rougeSU" in keys
        self.config = replace(
            config,
            n_max=max((int(k[5:]) for k in rouge_n), default=0),
            rouge_l="rougeL" in keys,
            w=config.w if "rougeW" in keys else None,
            skip=config.skip if s or su else None,
            su="U" if s and su else "u" if su else "",
        )
        d = "*" if self.config.skip is None or self.config.skip < 0 else str(self.config.skip)
        # each key's name in the script's output
        self.names = {"rougeL": "ROUGE-L", "rougeW": f"ROUGE-W-{self.config.w}", "rougeS": f"ROUGE-S{d}", "rougeSU": f"ROUGE-SU{d}"}
        self.names.update({key: f"ROUGE-{key[5:]}" for key in ROUGE_N})
        # the script's stems of the words met (a word is stemmed once)
        self._stems: dict[str, str] = {}
        # the keys averaged, in a record's order
        self.averaged = (("rougeL",) if "rougeL" in keys else ()) + self.rouge_n + self.wsu

    def _triples(self, scores: dict[str, Triple], keys: Sequence[str]) -> list[Triple]:
        """(P, R, F) of each key from the script's (R, P, F)."""
        return [(p, r, f) for r, p, f in (scores[self.names[k]] for k in keys)]

    def statistics(self, hyp: str, refs: Sequence[str]):
        return self._statistics(rouge155.summary_scores(hyp, refs, self.config, self._stems))

    def statistics_of(self, hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> list:
        """:meth:`statistics` of many segments (``refs[i]``: segment i's references), together."""
        from .rouge155_many import summary_scores_many  # numpy is loaded only for these

        return list(map(self._statistics, summary_scores_many(hyps, refs, self.config, self._stems)))

    def _statistics(self, scores: dict[str, rouge155.Figures]):
        rouge_n, wsu = self._triples(scores, self.rouge_n), self._triples(scores, self.wsu)
        rouge_l = self._triples(scores, ["rougeL"])[0] if "rougeL" in self.keys else None
        unmatched = _unmatched(rouge_n + wsu + ([rouge_l] if rouge_l else []))
        return rouge_l, (_flat(rouge_n) or None), (_flat(wsu) or None), None, unmatched

    def running(self) -> Average:
        """The printed average kept a segment at a time, of each segment's :meth:`figures`."""
        from .rouge155_average import Average

        return Average(3 * len(self.averaged), self.config.resamples)

    def figures(self, r: Record) -> tuple[float, ...]:
        """A segment's (P, R, F) of each key of :attr:`averaged`, flat."""
        return tuple(chain(r.rouge_l or (), r.rouge_n or (), r.rouge_wsu or ()))

    def corpus(self, sums, n: int, records: Sequence[Record] | None, running: Average | None = None) -> dict[str, RougeScore]:
        """The script's printed average over the summaries, numbered 1..n in segment order: kept
        by the caller (``running``) or of the segments' ``records``."""
        if running is None:
            records = records or ()
            running = self.running()
            running.resize(len(records))
            running.put_all(map(self.figures, records))
        found = running.figures()
        if not found:
            return {k: RougeScore(0.0, 0.0, 0.0) for k in self.keys}
        return {k: RougeScore(*found[3 * i : 3 * i + 3]) for i, k in enumerate(self.averaged)}

    def spans(self, hyp: str, refs: Sequence[str]) -> list[tuple[str, int, int]]:
        """The hypothesis's words none of whose tokens a reference has (ROUGE-1's misses)."""
        return [(ROUGE_UNMATCHED, a, b) for a, b in rouge155.unmatched_spans(hyp, refs, self.config)]

    def signature(self, key: str, nrefs: int | None) -> str:
        """The script's settings; ROUGE-W's weight and ROUGE-S/SU's skip distance with their keys."""
        own = {"rougeW": f"w:{self.config.w}", "rougeS": f"skip:{self.names['rougeS'][7:]}", "rougeSU": f"skip:{self.names['rougeSU'][8:]}"}
        parts = rouge155.signature(self.config, nrefs).split("|")
        if key in own:
            parts.insert(-1, own[key])
        return "|".join(parts)


class RougeScoreWsu:
    """ROUGE-W, -S and -SU beside rouge-score's own ROUGE (:mod:`.rouge_wsu`): not a flavour of the
    family (rouge-score's N and L keep their own path) but its extension, the mean of per-segment
    figures over its tokens."""

    batched = True  # statistics_of scores segments together (numpy)

    def __init__(self, keys: Sequence[str], tokens: RougeConfig, config: Rouge155Config) -> None:
        self.rouge = tokens
        self.config = rouge_wsu.WsuConfig(tuple(keys), float(config.w or 1.2), 4 if config.skip is None else config.skip)
        self.w = config.w
        self.tokenizer = tokens.tokenizer

    def statistics(self, hyp: str, refs: Sequence[str]) -> tuple[float, ...]:
        tokens = self.tokenizer.tokens
        return rouge_wsu.segment_scores(tokens(hyp), [tokens(r) for r in refs], self.config)

    def statistics_of(self, hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> list[tuple[float, ...]]:
        """:meth:`statistics` of many segments (``refs[i]``: segment i's references), together."""
        tokens = self.tokenizer.tokens
        return rouge_wsu.segment_scores_many(list(map(tokens, hyps)), [list(map(tokens, rs)) for rs in refs], self.config)

    def corpus(self, sums, n: int) -> dict[str, RougeScore]:
        """The mean over segments."""
        totals = sums["rouge_wsu"]
        return {k: RougeScore(*(x / n if n else 0.0 for x in totals[3 * i : 3 * i + 3])) for i, k in enumerate(self.config.keys)}

    def signature(self, key: str, nrefs: int | None) -> str:
        """rouge-score's, with the impl named and ROUGE-W's weight or ROUGE-S/SU's skip distance."""
        skip = "*" if self.config.skip < 0 else str(self.config.skip)
        parts = rouge.signature(self.rouge, nrefs).split("|")
        parts.insert(1, "impl:rouge-score")
        parts.insert(-1, f"w:{self.w}" if key == "rougeW" else f"skip:{skip}")
        return "|".join(parts)


BLEU_FLAVOURS = {"nltk": NltkBleu}
BLEU_IMPLS = ("sacrebleu", *BLEU_FLAVOURS)
ROUGE_FLAVOURS = {"rouge": PypiRouge, "rouge-1.5.5": Rouge155}
ROUGE_IMPLS = ("rouge-score", *ROUGE_FLAVOURS)
# where a flavour's oracle stops with an error instead of a number, and so does the flavour
FLAVOUR_FAILURES = (bleu_nltk.SmoothingError, rouge155.ScriptDies)
