"""ROUGE-1.5.5.pl's LCS hits and skip-bigram hits of many pairs at once, in numpy.

Tokens are numbers here (any numbering, within one call). The script's weighted LCS table is
filled a diagonal at a time for a group of pairs of similar lengths; its floats are the script's,
added in its order (``(c + f(k+1)) - f(k)``, the powers computed by Python as the script's path
computes them); the path is followed back from the last cell for all pairs together. Skip-bigram
hits are clipped counts of equal pairs, found by sorting each pair's grams in a row of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np

__all__ = ["gram_counts", "lcs_marks", "run_hits", "skip_hits"]

# Cells of the LCS tables of one group of pairs (kept whole for the path back: 8 MB)
_CELLS = 1 << 20
_SLACK = 1 << 15  # padded cells a group may waste whatever its size (fewer, larger groups)
_PAD = np.iinfo(np.int64).max
_ROWS = 256  # pairs whose grams are sorted together, a row each (of similar lengths)


def _flat(sequences: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    lengths = np.fromiter(map(len, sequences), np.int64, len(sequences))
    tokens = np.fromiter(chain.from_iterable(sequences), np.int64, int(lengths.sum()))
    return tokens, lengths


def _rows(tokens: np.ndarray, starts: np.ndarray, lengths: np.ndarray, width: int, fill: int) -> np.ndarray:
    """The sequences ``tokens[starts[r] : starts[r] + lengths[r]]`` as rows of ``width``, padded."""
    columns = np.arange(width)
    inside = columns[None, :] < lengths[:, None]
    if not len(tokens):
        return np.full(inside.shape, fill, np.int64)
    return np.where(inside, tokens[np.minimum(starts[:, None] + columns[None, :], len(tokens) - 1)], fill)


def lcs_marks(models: Sequence[Sequence[int]], peers: Sequence[Sequence[int]], powers: np.ndarray | None) -> list[np.ndarray]:
    """Per pair, the model positions on the script's LCS (``powers[k] = k ** w``: its weighted
    LCS; None: the plain one), as :func:`.rouge155._mark_lcs` marks them: a bool row each."""
    (x, m_len), (y, n_len) = _flat(models), _flat(peers)
    x_start, y_start = np.cumsum(m_len) - m_len, np.cumsum(n_len) - n_len
    marks = np.zeros(len(x), bool)
    live = np.flatnonzero((m_len > 0) & (n_len > 0))
    # by model length (in steps of 8), then peer length: a group is a run of pairs in that order
    live = live[np.lexsort((n_len[live], m_len[live] // 8))]
    size = (m_len[live] + 1) * (m_len[live] + n_len[live] + 1)  # of a pair's table alone
    first = 0
    while first < len(live):
        # as many pairs as the cell budget takes, padded to the longest at little cost
        big_m = np.maximum.accumulate(m_len[live[first:]])
        big_n = np.maximum.accumulate(n_len[live[first:]])
        cells = np.arange(1, len(big_m) + 1) * (big_m + 1) * (big_m + big_n + 1)
        fits = (cells <= _CELLS) & (cells <= 1.5 * np.cumsum(size[first:]) + _SLACK)
        stop = first + 1 + int(np.flatnonzero(fits)[-1] if fits.any() else 0)
        pairs = live[first:stop]
        big_m, big_n = int(big_m[stop - first - 1]), int(big_n[stop - first - 1])
        xs = _rows(x, x_start[pairs], m_len[pairs], big_m, -1)
        ys = _rows(y, y_start[pairs], n_len[pairs], big_n, -2)
        rows, columns = np.nonzero(_marked(xs, ys, m_len[pairs], n_len[pairs], powers))
        marks[x_start[pairs][rows] + columns] = True
        first = stop
    return np.split(marks, np.cumsum(m_len)[:-1])


def _marked(x: np.ndarray, y: np.ndarray, m_len: np.ndarray, n_len: np.ndarray, powers: np.ndarray | None) -> np.ndarray:
    """:func:`lcs_marks` of a group (rows of tokens, padded). The table is kept a diagonal
    ``d = i + j`` at a time, indexed by ``i``; cells past a pair's lengths hold whatever, as no
    cell of its own reads them, and the border is 0. A cell is the larger of the cells above and
    left, save at a match (a few cells in a hundred), worked out apart; the path back reads the
    table again (a match, else up when up >= left)."""
    g, big_m = x.shape
    big_n = y.shape[1]
    diagonals = big_m + big_n + 1
    table = np.zeros((diagonals, g, big_m + 1))
    # the matches, by diagonal, as places in the flat table and in its diagonal two back: cell
    # (i, j) for x[i - 1] == y[j - 1]
    equal = x[:, :, None] == y[:, None, :]
    m_rows, m_i, m_j = np.nonzero(equal)
    m_d = m_i + m_j + 2
    by_diagonal = np.argsort(m_d, kind="stable")
    stride = g * (big_m + 1)
    at = (m_d * stride + m_rows * (big_m + 1) + m_i + 1)[by_diagonal]
    before = at - (2 * stride + 1)
    bounds = np.searchsorted(m_d[by_diagonal], np.arange(diagonals + 1))
    if powers is not None:
        # what a match adds: f(k + 1) - f(k), k the matches running up to it on its diagonal
        run = _runs(equal, m_rows, m_i, m_j)[by_diagonal]
        gain, loss = powers[run + 1], powers[run]
    flat = table.reshape(-1)
    for d in range(2, diagonals):
        lo, hi = max(1, d - big_n), min(big_m, d - 1)
        if lo > hi:
            continue
        last = table[d - 1]
        np.maximum(last[:, lo - 1 : hi], last[:, lo : hi + 1], out=table[d, :, lo : hi + 1])
        a, b = bounds[d], bounds[d + 1]
        if a == b:
            continue
        if powers is None:
            flat[at[a:b]] = flat[before[a:b]] + 1.0
        else:
            flat[at[a:b]] = (flat[before[a:b]] + gain[a:b]) - loss[a:b]
    # the path back from each pair's last cell
    marks = np.zeros((g, big_m), bool)
    i, j = m_len.copy(), n_len.copy()
    rows = np.arange(g)
    while len(rows):
        ri, rj = i[rows], j[rows]
        on = equal[rows, ri - 1, rj - 1]
        marks[rows[on], ri[on] - 1] = True
        up_wins = table[ri + rj - 1, rows, ri - 1] >= table[ri + rj - 1, rows, ri]
        i[rows] = ri - (on | up_wins)
        j[rows] = rj - (on | ~up_wins)
        rows = rows[(i[rows] > 0) & (j[rows] > 0)]
    return marks


def _runs(equal: np.ndarray, rows: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """For each match ``equal[rows, i, j]``, how many matches run up to it along its diagonal."""
    runs = np.zeros(len(rows), np.int64)
    alive = np.arange(len(rows))
    back = 1
    while len(alive):
        alive = alive[(i[alive] >= back) & (j[alive] >= back)]
        alive = alive[equal[rows[alive], i[alive] - back, j[alive] - back]]
        runs[alive] += 1
        back += 1
    return runs


def run_hits(marks: Sequence[np.ndarray], powers: np.ndarray) -> list[float]:
    """Per row of marks, the sum of ``powers[run]`` over its runs of marked positions, left to
    right (the script's ``hit += run ** w`` as each run ends)."""
    g = len(marks)
    width = max(map(len, marks), default=0)
    padded = np.zeros((g, width + 2), bool)
    for r, row in enumerate(marks):
        padded[r, 1 : 1 + len(row)] = row
    edges = np.diff(padded.view(np.int8), axis=1)
    starts_r, starts_c = np.nonzero(edges == 1)
    ends_c = np.nonzero(edges == -1)[1]
    values = powers[ends_c - starts_c]
    first = np.searchsorted(starts_r, np.arange(g))
    rank = np.arange(len(starts_r)) - first[starts_r]
    table = np.zeros((g, int(rank.max()) + 1 if len(rank) else 1))
    table[starts_r, rank] = values
    # cumsum adds left to right, as the script does (a plain sum would pair them up)
    return np.cumsum(table, axis=1)[:, -1].tolist()


def skip_hits(peers: Sequence[Sequence[int]], models: Sequence[Sequence[int]], owner: np.ndarray, skip: int, vocabulary: int) -> tuple[np.ndarray, np.ndarray]:
    """Per pair k (summary ``peers[owner[k]]``, reference ``models[k]``): the skip-bigrams they
    share (pairs ``i < j <= i + skip + 1``, any distance with ``skip < 0``), each counted as often
    as the side with fewer has it, and the same of ROUGE-SU's unigrams (every token but the last);
    tokens are below ``vocabulary``."""
    (p, p_len), (m, m_len) = _flat(peers), _flat(models)
    p_start, m_start = np.cumsum(p_len) - p_len, np.cumsum(m_len) - m_len
    hits = np.zeros((2, len(models)), np.int64)
    longer = np.maximum(p_len[owner], m_len)
    order = np.argsort(longer, kind="stable")
    # a row's grams: the unigrams and the pairs at each distance, both sides
    grams = 2 * (longer[order] + gram_counts(longer[order], skip)[0])
    bigrams = vocabulary * vocabulary  # unigram t is gram bigrams + t
    first = 0
    while first < len(order):
        # rows of similar lengths, as many as fit the cell budget (the last row is the widest)
        fits = np.arange(1, min(_ROWS, len(order) - first) + 1) * grams[first : first + _ROWS] <= _CELLS
        stop = first + 1 + int(np.flatnonzero(fits)[-1] if fits.any() else 0)
        rows = order[first:stop]
        first = stop
        lengths = p_len[owner[rows]], m_len[rows]
        width = int(max(lengths[0].max(), lengths[1].max()))
        if width == 0:
            continue
        table = np.concatenate(
            [
                _grams(_rows(p, p_start[owner[rows]], lengths[0], width, 0), lengths[0], skip, vocabulary, 0),
                _grams(_rows(m, m_start[rows], lengths[1], width, 0), lengths[1], skip, vocabulary, 1),
            ],
            axis=1,
        )
        table.sort(axis=1)  # a gram's peer copies first
        gram = table >> 1
        new = np.ones(table.shape, bool)
        new[:, 1:] = gram[:, 1:] != gram[:, :-1]
        new = new.ravel()
        run = np.cumsum(new) - 1
        valid = (table != _PAD).ravel()
        on_model = (table & 1).ravel().astype(bool)
        both = np.minimum(np.bincount(run, weights=valid & ~on_model), np.bincount(run, weights=valid & on_model))
        run_row = np.flatnonzero(new) // table.shape[1]
        unigram = gram.ravel()[new] >= bigrams
        hits[0, rows] = np.bincount(run_row, weights=np.where(unigram, 0, both), minlength=len(rows)).astype(np.int64)
        hits[1, rows] = np.bincount(run_row, weights=np.where(unigram, both, 0), minlength=len(rows)).astype(np.int64)
    return hits[0], hits[1]


def _grams(tokens: np.ndarray, lengths: np.ndarray, skip: int, vocabulary: int, side: int) -> np.ndarray:
    """The skip-bigrams and unigrams of rows of tokens, as numbers tagged with ``side`` (the
    lowest bit); past a row's length, the largest number."""
    width = tokens.shape[1]
    reach = width - 1 if skip < 0 else min(skip + 1, width - 1)
    columns = np.arange(width)
    parts = [np.where(columns[None, :] < lengths[:, None] - 1, (vocabulary * vocabulary + tokens) * 2 + side, _PAD)]
    for distance in range(1, reach + 1):
        inside = columns[None, : width - distance] + distance < lengths[:, None]
        parts.append(np.where(inside, (tokens[:, : width - distance] * vocabulary + tokens[:, distance:]) * 2 + side, _PAD))
    return np.concatenate(parts, axis=1)


def gram_counts(lengths: np.ndarray, skip: int) -> tuple[np.ndarray, np.ndarray]:
    """How many skip-bigrams, and ROUGE-SU's unigrams, sequences of these lengths have."""
    reach = lengths - 1 if skip < 0 else np.minimum(skip + 1, np.maximum(lengths - 1, 0))
    # sum over distances 1..reach of (length - distance)
    return reach * lengths - reach * (reach + 1) // 2, np.maximum(lengths - 1, 0)
