"""chrF and chrF++ as sacreBLEU 2.x computes them: statistics per segment, a formula over their sum.

Segment statistics are ``(hyp, ref, match)`` counts for each character n-gram order 1..nc, then
each word n-gram order 1..nw: ``3 * (nc + nw)`` ints. Corpus chrF is :func:`score` of their
element-wise sum, sentence chrF is :func:`score` of one segment's. With several references a
segment keeps the statistics of the reference with the best sentence chrF (the first on ties).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Sequence

from .. import __version__

if TYPE_CHECKING:
    import numpy as np

    from .ngram_counts import Side

# sacreBLEU's string.punctuation, split off a word's ends for chrF++'s word n-grams
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_EPS = 1e-16


@dataclass(frozen=True)
class ChrfConfig:
    char_order: int = 6
    word_order: int = 0
    beta: int = 2
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.char_order <= 9:
            raise ValueError(f"chrF character order must be between 1 and 9, not {self.char_order}")
        if not 0 <= self.word_order <= 9:
            raise ValueError(f"chrF word order must be between 0 and 9, not {self.word_order}")
        if self.beta < 0:
            raise ValueError(f"chrF beta must not be negative, not {self.beta}")

    @property
    def order(self) -> int:
        return self.char_order + self.word_order


@dataclass(frozen=True, slots=True)
class ChrfScore:
    score: float
    char_order: int
    word_order: int
    beta: int

    @property
    def name(self) -> str:
        """sacreBLEU's name: ``chrF2``, ``chrF2++`` (one ``+`` per word order)."""
        return f"chrF{self.beta}" + "+" * self.word_order


def chars(text: str, whitespace: bool = False) -> str:
    """The characters whose n-grams count (lowercase first if asked): whitespace goes unless kept."""
    return text if whitespace else "".join(text.split())


def words(text: str) -> list[str]:
    """chrF++'s words (lowercase first if asked): split at whitespace, then one punctuation mark
    split off the end of a word, else off its start."""
    out = []
    for w in text.split():
        if len(w) > 1 and w[-1] in _PUNCTUATION:
            out += (w[:-1], w[-1])
        elif len(w) > 1 and w[0] in _PUNCTUATION:
            out += (w[0], w[1:])
        else:
            out.append(w)
    return out


def statistics(hyp_chars: str, hyp_words: Sequence[int], refs: Sequence[tuple[str, Sequence[int]]], config: ChrfConfig) -> tuple[int, ...]:
    """The segment's statistics against its best reference: each side as :func:`chars` and
    :func:`words` give it, words numbered (equal words equal numbers). Its n-grams are matched
    in numpy (:func:`.ngram_counts.common_counts`): this is what an edit re-scores."""
    # numpy is loaded only when chrF is on
    import numpy as np

    from .ngram_counts import code_points, common_counts

    hyp_codes = code_points(hyp_chars)
    hyp_numbers = np.array(hyp_words, np.int64) if config.word_order else None
    best: tuple[int, ...] = ()
    best_f = -1.0
    for ref_chars, ref_words in refs:
        common = common_counts(hyp_codes, code_points(ref_chars), config.char_order)
        if config.word_order:
            common += common_counts(hyp_numbers, np.array(ref_words, np.int64), config.word_order)
        sizes = [(n, len(hyp_chars), len(ref_chars)) for n in range(1, config.char_order + 1)]
        sizes += [(n, len(hyp_words), len(ref_words)) for n in range(1, config.word_order + 1)]
        stats: list[int] = []
        for (n, hyp_len, ref_len), matched in zip(sizes, common):
            ref_count = max(ref_len - n + 1, 0)
            # sacreBLEU counts no hypothesis n-grams of an order the reference has none of
            stats += (max(hyp_len - n + 1, 0) if ref_count else 0, ref_count, matched)
        f = f_score(stats, config)
        if f > best_f:
            best_f, best = f, tuple(stats)
    return best


def statistics_many(hyps: Sequence[tuple[str, Sequence[int]]], refs: Sequence[Sequence[tuple[str, Sequence[int]]]], config: ChrfConfig) -> list[tuple[int, ...]]:
    """:func:`statistics` of many segments at once (``refs[k]``: every segment's k-th reference),
    their n-grams matched in numpy by :mod:`.ngram_counts`: the same statistics, much faster."""
    if not hyps:
        return []
    return list(map(tuple, statistics_of(hyps, refs, config).tolist()))


def statistics_of(hyps: Sequence[tuple[str, Sequence[int]]], refs: Sequence[Sequence[tuple[str, Sequence[int]]]], config: ChrfConfig) -> np.ndarray:
    """:func:`statistics_many` as an array, a row a segment."""
    from .ngram_counts import Side  # numpy is loaded only when chrF is on

    def sides(part: int, side) -> list[Side]:
        return [side([h[part] for h in hyps]), *(side([r[part] for r in column]) for column in refs)]

    return statistics_of_sides(sides(0, Side.of_texts), sides(1, Side.of_numbers) if config.word_order else [], config)


def statistics_of_sides(chars: Sequence[Side], words: Sequence[Side], config: ChrfConfig) -> np.ndarray:
    """:func:`statistics_of` of a batch's sides (the hypothesis's, then each reference's), as
    their characters (:func:`char_side`) and, for chrF++, their words' numbers."""
    import numpy as np

    from .ngram_counts import matches

    tables: list[list[np.ndarray]] = [[] for _ in chars[1:]]  # per reference: columns, a row per segment
    for orders, sides in ((config.char_order, chars), (config.word_order, words)):
        if not orders:
            continue
        found = matches(sides, range(1, orders + 1))
        for k, ref in enumerate(sides[1:]):
            for n in range(1, orders + 1):
                ref_count = np.maximum(ref.lengths - n + 1, 0)
                # sacreBLEU counts no hypothesis n-grams of an order the reference has none of
                hyp_count = np.where(ref_count > 0, np.maximum(sides[0].lengths - n + 1, 0), 0)
                tables[k] += (hyp_count, ref_count, found[n][k])
    per_ref = np.stack([np.stack(t, axis=1) for t in tables])
    if len(per_ref) == 1:
        return per_ref[0]
    # the first reference with the best sentence chrF, as statistics() picks it (f_scores: the
    # same floats as f_score's)
    best = np.argmax(np.stack([f_scores(table, config) for table in per_ref]), axis=0)
    return per_ref[best, np.arange(len(chars[0].lengths))]


# the code points char_side keeps: not NUL (its separator) nor str.split()'s whitespace
# (str.isspace), all of it below U+3001; the last entry stands for every code point from U+3001 on
_WHITESPACE_BELOW = 0x3001


def char_side(texts: Sequence[str], config: ChrfConfig) -> Side:
    """The characters chrF counts of each text (:func:`chars`, lowercased first if asked), as one
    side of a batch: made for all the texts at once, with no Python step per text."""
    import numpy as np

    from .ngram_counts import Side

    joined = "\x00".join(texts)
    if joined.count("\x00") != len(texts) - 1:  # a text has a NUL of its own: one at a time
        return Side.of_texts([chars(text.lower() if config.lowercase else text, config.whitespace) for text in texts])
    if config.lowercase:  # lowercasing's one context rule (final sigma) stops at the NUL as at a text's end
        joined = joined.lower()
    codes = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), np.uint32)
    kept = codes != 0 if config.whitespace else _kept()[np.minimum(codes, _WHITESPACE_BELOW)]
    if not len(codes):  # one empty text
        return Side(codes, np.zeros(1, np.int64))
    # each text's characters kept: from the NUL before it (the first: from the start) to its own,
    # summed over the mask (an array of the kept places takes 8 bytes a character)
    lengths = np.add.reduceat(kept, np.concatenate(([0], np.flatnonzero(codes == 0))), dtype=np.int64)
    return Side(codes[kept], lengths)


@cache
def _kept() -> np.ndarray:
    import numpy as np

    return np.array([c != 0 and not chr(c).isspace() for c in range(_WHITESPACE_BELOW)] + [True])


def f_score(stats: Sequence[int], config: ChrfConfig) -> float:
    """sacreBLEU's ``_compute_f_score``, operation for operation (a multi-reference choice
    compares these values, so they must be the same floats)."""
    score = 0.0
    effective_order = 0
    factor = config.beta**2
    avg_prec, avg_rec = 0.0, 0.0
    for i in range(config.order):
        n_hyp, n_ref, n_match = stats[3 * i : 3 * i + 3]
        prec = n_match / n_hyp if n_hyp > 0 else _EPS
        rec = n_match / n_ref if n_ref > 0 else _EPS
        denom = factor * prec + rec
        score += ((1 + factor) * prec * rec / denom) if denom > 0 else _EPS
        if n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective_order += 1
    if config.eps_smoothing:
        return 100 * score / config.order
    if effective_order == 0:
        avg_prec = avg_rec = 0.0
    else:
        avg_prec /= effective_order
        avg_rec /= effective_order
    if avg_prec + avg_rec:
        score = (1 + factor) * avg_prec * avg_rec
        score /= (factor * avg_prec) + avg_rec
        return 100 * score
    return 0.0


def f_scores(stats: np.ndarray, config: ChrfConfig) -> np.ndarray:
    """:func:`f_score` of each row of ``stats`` (a segment's statistics), operation for
    operation: the same floats."""
    import numpy as np

    rows = len(stats)
    factor = config.beta**2
    score = np.zeros(rows)
    avg_prec, avg_rec = np.zeros(rows), np.zeros(rows)
    effective_order = np.zeros(rows, np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(config.order):
            n_hyp, n_ref, n_match = stats[:, 3 * i], stats[:, 3 * i + 1], stats[:, 3 * i + 2]
            prec = np.where(n_hyp > 0, n_match / n_hyp, _EPS)
            rec = np.where(n_ref > 0, n_match / n_ref, _EPS)
            denom = factor * prec + rec
            score = score + np.where(denom > 0, (1 + factor) * prec * rec / denom, _EPS)
            both = (n_hyp > 0) & (n_ref > 0)
            avg_prec = avg_prec + np.where(both, prec, 0.0)  # (+ 0.0 leaves a sum as it is)
            avg_rec = avg_rec + np.where(both, rec, 0.0)
            effective_order += both
        if config.eps_smoothing:
            return 100 * score / config.order
        avg_prec = np.where(effective_order > 0, avg_prec / effective_order, 0.0)
        avg_rec = np.where(effective_order > 0, avg_rec / effective_order, 0.0)
        score = (1 + factor) * avg_prec * avg_rec
        score /= (factor * avg_prec) + avg_rec
        return np.where(avg_prec + avg_rec != 0, 100 * score, 0.0)


def score(stats: Sequence[int], config: ChrfConfig) -> ChrfScore:
    """chrF from (summed) statistics, on sacreBLEU's 0-100 scale."""
    return ChrfScore(f_score(stats, config), config.char_order, config.word_order, config.beta)


def scores_of(rows: Sequence[Sequence[int]], config: ChrfConfig) -> list[ChrfScore]:
    """:func:`score` of each row (a segment's statistics), a column at a time (:func:`f_scores`)."""
    if not rows:
        return []
    import numpy as np

    orders = config.char_order, config.word_order, config.beta
    return [ChrfScore(value, *orders) for value in f_scores(np.array(rows, np.int64), config).tolist()]


def signature(config: ChrfConfig, nrefs: int | None) -> str:
    """sacreBLEU's chrF signature, with ScoreLens's version; ``nrefs=None`` means it varies."""
    return "|".join(
        [
            f"nrefs:{'var' if nrefs is None else nrefs}",
            f"case:{'lc' if config.lowercase else 'mixed'}",
            f"eff:{'no' if config.eps_smoothing else 'yes'}",
            f"nc:{config.char_order}",
            f"nw:{config.word_order}",
            f"space:{'yes' if config.whitespace else 'no'}",
            f"version:scorelens-{__version__}",
        ]
    )
