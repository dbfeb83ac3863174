"""ROUGE-1.5.5.pl's LCS hits and skip-bigram hits of many pairs at once, in numpy.

Tokens are numbers here (any numbering, within one call). The script's weighted LCS table is
filled a diagonal at a time for a bucket of pairs of similar lengths; its floats are the script's,
added in its order (``(c + f(k+1)) - f(k)``, the powers computed by Python as the script's path
computes them); the path is followed back from the last cell for all pairs together. Skip-bigram
hits are clipped counts of equal pairs, found by sorting each pair's grams in a row of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np

__all__ = ["clipped_hits", "lcs_marks", "run_hits", "skip_grams", "unigrams"]

# Cells of the LCS tables of one bucket (the table of back steps is kept whole for the path)
_CELLS = 1 << 23
_LENGTH_STEP = 16  # pairs are bucketed by lengths rounded up to this
_PAD = np.iinfo(np.int64).max
_ROWS = 1024  # pairs whose grams are sorted together, a row each


def _flat(sequences: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    lengths = np.fromiter(map(len, sequences), np.int64, len(sequences))
    tokens = np.fromiter(chain.from_iterable(sequences), np.int64, int(lengths.sum()))
    return tokens, lengths


def _rows(tokens: np.ndarray, starts: np.ndarray, lengths: np.ndarray, width: int, fill: int) -> np.ndarray:
    """The sequences ``tokens[starts[r] : starts[r] + lengths[r]]`` as rows of ``width``, padded."""
    columns = np.arange(width)
    inside = columns[None, :] < lengths[:, None]
    return np.where(inside, tokens[np.minimum(starts[:, None] + columns[None, :], len(tokens) - 1)], fill)


def lcs_marks(models: Sequence[Sequence[int]], peers: Sequence[Sequence[int]], powers: np.ndarray | None) -> list[np.ndarray]:
    """Per pair, the model positions on the script's LCS (``powers[k] = k ** w``: its weighted
    LCS; None: the plain one), as :func:`.rouge155._mark_lcs` marks them: a bool row each."""
    (x, m_len), (y, n_len) = _flat(models), _flat(peers)
    x_start, y_start = np.cumsum(m_len) - m_len, np.cumsum(n_len) - n_len
    marks = np.zeros(len(x), bool)
    live = np.flatnonzero((m_len > 0) & (n_len > 0))
    key = (m_len[live] + _LENGTH_STEP - 1) // _LENGTH_STEP * 4096 + (n_len[live] + _LENGTH_STEP - 1) // _LENGTH_STEP
    order = live[np.argsort(key, kind="stable")]
    key = np.sort(key, kind="stable")
    for bucket in np.split(order, np.flatnonzero(np.diff(key)) + 1):
        if not len(bucket):
            continue
        big_m, big_n = int(m_len[bucket].max()), int(n_len[bucket].max())
        per = max(1, _CELLS // ((big_m + 1) * (big_m + big_n + 1)))
        for first in range(0, len(bucket), per):
            pairs = bucket[first : first + per]
            xs = _rows(x, x_start[pairs], m_len[pairs], big_m, -1)
            ys = _rows(y, y_start[pairs], n_len[pairs], big_n, -2)
            rows, columns = np.nonzero(_marked(xs, ys, m_len[pairs], n_len[pairs], powers))
            marks[x_start[pairs][rows] + columns] = True
    return np.split(marks, np.cumsum(m_len)[:-1])


def _marked(x: np.ndarray, y: np.ndarray, m_len: np.ndarray, n_len: np.ndarray, powers: np.ndarray | None) -> np.ndarray:
    """:func:`lcs_marks` of a bucket (rows of tokens, padded): the tables a diagonal ``d = i + j``
    at a time, indexed by ``i``; cells past a pair's lengths hold whatever, as no cell of its own
    reads them. A match is rare: its cells are worked out apart."""
    g, big_m = x.shape
    big_n = y.shape[1]
    # the peer reversed, with room either side: cell (i, d - i) compares x[i - 1] with y[d - i - 1]
    y_rev = np.full((g, big_n + 2 * (big_m + 1)), -2, np.int64)
    y_rev[:, big_m + 1 : big_m + 1 + big_n] = y[:, ::-1]
    diagonals = big_m + big_n + 1
    back = np.zeros((diagonals, g, big_m + 1), np.int8)  # 1 diagonal, 2 up, 3 left
    c = [np.zeros((g, big_m + 1)) for _ in range(3)]
    k = [np.zeros((g, big_m + 1), np.int64) for _ in range(3)]
    for d in range(2, diagonals):
        lo, hi = max(1, d - big_n), min(big_m, d - 1)
        cur, last, two = c[d % 3], c[(d - 1) % 3], c[(d - 2) % 3]
        k_cur, k_two = k[d % 3], k[(d - 2) % 3]
        cur[:, 0] = 0.0
        k_cur[:, 0] = 0
        if d <= big_m:
            cur[:, d] = 0.0  # (d, 0)
            k_cur[:, d] = 0
        if lo > hi:
            continue
        start = big_m + 1 + big_n - d + lo  # y_rev's index of y[d - lo - 1]
        rows, at = np.nonzero(x[:, lo - 1 : hi] == y_rev[:, start : start + hi - lo + 1])
        up, left = last[:, lo - 1 : hi], last[:, lo : hi + 1]
        up_wins = up >= left
        np.maximum(up, left, out=cur[:, lo : hi + 1])  # up on a tie: the same value
        np.subtract(3, up_wins, out=back[d, :, lo : hi + 1], casting="unsafe")
        back[d, rows, lo + at] = 1
        if powers is None:
            cur[rows, lo + at] = two[rows, lo - 1 + at] + 1.0
        else:
            k_cur[:, lo : hi + 1] = 0
            run = k_two[rows, lo - 1 + at]
            cur[rows, lo + at] = (two[rows, lo - 1 + at] + powers[run + 1]) - powers[run]
            k_cur[rows, lo + at] = run + 1
    # the path back from each pair's last cell
    marks = np.zeros((g, big_m), bool)
    i, j = m_len.copy(), n_len.copy()
    rows = np.arange(g)
    while len(rows):
        step = back[i[rows] + j[rows], rows, i[rows]]
        on = step == 1
        marks[rows[on], i[rows[on]] - 1] = True
        i[rows] -= step != 3
        j[rows] -= step != 2
        rows = rows[(i[rows] > 0) & (j[rows] > 0)]
    return marks


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


def skip_grams(sequences: Sequence[Sequence[int]], skip: int, vocabulary: int) -> tuple[np.ndarray, np.ndarray]:
    """The skip-bigrams of each sequence as numbers (``a * vocabulary + b``), flat, and the
    sequence each comes from: pairs ``i < j <= i + skip + 1`` (any distance with ``skip < 0``)."""
    tokens, lengths = _flat(sequences)
    owner = np.repeat(np.arange(len(sequences)), lengths)
    position = np.arange(len(tokens)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    left = lengths[owner] - 1 - position  # tokens after each one in its sequence
    reach = int(lengths.max(initial=1)) - 1 if skip < 0 else skip + 1
    codes, owners = [], []
    for distance in range(1, reach + 1):
        at = np.flatnonzero(left >= distance)
        codes.append(tokens[at] * vocabulary + tokens[at + distance])
        owners.append(owner[at])
    if not codes:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(codes), np.concatenate(owners)


def unigrams(sequences: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """ROUGE-SU's unigrams: every token but each sequence's last, and the sequence it is in."""
    tokens, lengths = _flat([s[:-1] for s in sequences])
    return tokens, np.repeat(np.arange(len(sequences)), lengths)


def clipped_hits(peer: tuple[np.ndarray, np.ndarray], model: tuple[np.ndarray, np.ndarray], peer_of: np.ndarray, model_of: np.ndarray) -> np.ndarray:
    """Per pair (peer sequence ``peer_of[p]``, model sequence ``model_of[p]``), the grams they share,
    each counted as often as the side with fewer has it (``peer``, ``model``: grams and the
    sequence each is in, from :func:`skip_grams` or :func:`unigrams`)."""
    hits = np.zeros(len(peer_of), np.int64)
    sides = []
    for (codes, owners), of, side in ((peer, peer_of, 0), (model, model_of, 1)):
        order = np.argsort(owners, kind="stable")
        counts = np.bincount(owners, minlength=int(of.max(initial=-1)) + 1)
        # each gram tagged with its side, so that sorting puts a gram's peer copies first
        sides.append((codes[order] * 2 + side, np.cumsum(counts) - counts, counts, of))
    width = sides[0][2][peer_of] + sides[1][2][model_of]
    order = np.argsort(width, kind="stable")
    for start in range(0, len(order), _ROWS):
        rows = order[start : start + _ROWS]
        w = int(width[rows].max(initial=0))
        if w == 0:
            continue
        table = np.full((len(rows), w), _PAD, np.int64)
        offset = np.zeros(len(rows), np.int64)
        for codes, starts, counts, of in sides:
            n = counts[of[rows]]
            row = np.repeat(np.arange(len(rows)), n)
            inner = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
            table[row, offset[row] + inner] = codes[np.repeat(starts[of[rows]], n) + inner]
            offset = n
        table.sort(axis=1)
        gram = table >> 1
        new = np.ones(table.shape, bool)
        new[:, 1:] = gram[:, 1:] != gram[:, :-1]
        run = np.cumsum(new.ravel()) - 1
        valid = (table != _PAD).ravel()
        side = (table & 1).ravel().astype(bool)
        both = np.minimum(np.bincount(run, weights=valid & ~side), np.bincount(run, weights=valid & side))
        hits[rows] = np.bincount(np.flatnonzero(new.ravel()) // w, weights=both, minlength=len(rows)).astype(np.int64)
    return hits
