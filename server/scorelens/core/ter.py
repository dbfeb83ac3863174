"""TER as sacreBLEU 2.x computes it (Tercom's shifts, beam edit distance, its tokenizer).

Segment statistics are ``(num_edits, ref_words)``: the fewest edits (shifts + insertions,
deletions, substitutions) to any reference, and the references' summed length (sacreBLEU keeps
their average; :func:`score` divides). Corpus TER is :func:`score` of their sum, sentence TER
:func:`score` of one segment's.

sacreBLEU's ``lib_ter`` searches shifts greedily: each round takes the shift candidate that
lowers the edit distance most and stops when none does or after 1,000 candidates in all.
Every candidate's distance is a beam-limited Levenshtein distance computed in Python; here it
comes from rapidfuzz whenever the beam provably cannot change it (see :class:`_Beam`), and
from the same beam computation otherwise. The search itself (candidates, their order, the
ranking, the candidate budget) follows sacreBLEU step by step.
"""

from __future__ import annotations

import math
import re
from array import array
from bisect import bisect_left, bisect_right
from collections import defaultdict
from dataclasses import dataclass
from functools import cache, cached_property
from operator import add
from typing import TYPE_CHECKING, NamedTuple, Sequence

from rapidfuzz.distance import Levenshtein

from .. import __version__
from .tokenizers import Rule, Span, applied, replaced, spaced

if TYPE_CHECKING:
    import numpy as np

_MAX_SHIFT_SIZE = 10
_MAX_SHIFT_DIST = 50
_BEAM_WIDTH = 25
_MAX_SHIFT_CANDIDATES = 1000
_INFINITY = int(1e16)
_BIT_CELLS = 1 << 25

# -- Tercom's normaliser, as sacreBLEU's TercomTokenizer ----------------------------------------

_ASIAN_PUNCT = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
_FULL_WIDTH_PUNCT = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"
_ENTITIES = {"&quot;": '"', "&amp;": "&", "&lt;": "<", "&gt;": ">"}


@cache
def _rules() -> tuple[list[Rule], list[Rule], re.Pattern, tuple[re.Pattern, re.Pattern]]:
    """The normaliser's patterns (western, asian, punctuation, asian punctuation), compiled when
    first used: 3 ms that every command's start would pay, TER on or not."""
    western = [
        spaced(re.compile(r"([{-~[-` -&(-+:-@/])")),
        replaced(re.compile(r"'s "), r" 's "),
        replaced(re.compile(r"'s$"), r" 's"),
        replaced(re.compile(r"([^0-9])([\.,])"), r"\1 \2 ", needs=".,"),
        replaced(re.compile(r"([\.,])([^0-9])"), r" \1 \2", needs=".,"),
        replaced(re.compile(r"([0-9])(-)"), r"\1 \2 ", needs="-"),
    ]
    asian = [
        spaced(re.compile(r"([\u4e00-\u9fff\u3400-\u4dbf])")),
        spaced(re.compile(r"([\u31c0-\u31ef\u2e80-\u2eff])")),
        spaced(re.compile(r"([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])")),
        spaced(re.compile(r"([\u3200-\u3f22])")),
        # sacreBLEU's patterns as written: the second ``^`` never matches mid-text, so kana are
        # split off only at the very start of the text
        replaced(re.compile(r"(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])"), r"\1 \2 "),
        replaced(re.compile(r"(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])"), r"\1 \2 "),
        replaced(re.compile(r"(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])"), r"\1 \2 "),
        spaced(re.compile(_ASIAN_PUNCT)),
        spaced(re.compile(_FULL_WIDTH_PUNCT)),
    ]
    return western, asian, re.compile(r"[\.,\?:;!\"\(\)]"), (re.compile(_ASIAN_PUNCT), re.compile(_FULL_WIDTH_PUNCT))


@dataclass(frozen=True)
class TerConfig:
    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    def tokens(self, text: str) -> list[str]:
        """The segment's TER words: sacreBLEU's ``tokenizer(text.rstrip()).split()``."""
        sent = text.rstrip()
        if not self.case_sensitive:
            sent = sent.lower()
        western, asian, punct, asian_puncts = _rules()
        if self.normalized:
            sent = sent.replace("\n-", "").replace("\n", " ")
            for entity, char in _ENTITIES.items():
                sent = sent.replace(entity, char)
            sent = f" {sent} "
            sent = applied(western, sent)
            if self.asian_support:
                sent = applied(asian, sent)
        if self.no_punct:
            sent = punct.sub("", sent)
            if self.asian_support:
                for pattern in asian_puncts:
                    sent = pattern.sub("", sent)
        return sent.split()

    def reference_tokens(self, text: str) -> list[str]:
        """A reference's TER words: sacreBLEU tokenizes references twice (``_cache_references``
        pre-processes them, then ``_extract_reference_info`` again), and normalising is not
        idempotent (``plc's ,`` becomes ``plc 's ,``)."""
        tokens = self.tokens(text)
        return self.tokens(" ".join(tokens)) if self.normalized else tokens

    def spans(self, text: str, tokens: Sequence[str]) -> list[Span]:
        """Where each TER word of ``text`` lies in it.

        The tokenizer only lowercases, decodes four XML entities, removes punctuation and moves
        spaces, so the words' characters appear in the text in order: each word is matched
        greedily, character by character, against the text's (lowered, decoded) characters. A
        word that cannot be placed (none is known) gets an empty span where the search stands.
        """
        units: list[tuple[str, int, int]] = []  # (character as the tokenizer sees it, start, end)
        i = 0
        while i < len(text):
            if self.normalized and text[i] == "&":
                entity = next((e for e in _ENTITIES if text.startswith(e, i)), None)
                if entity:
                    units.append((_ENTITIES[entity], i, i + len(entity)))
                    i += len(entity)
                    continue
            ch = text[i] if self.case_sensitive else text[i].lower()
            units.extend((c, i, i + 1) for c in ch)
            i += 1
        spans: list[Span] = []
        u = 0
        for token in tokens:
            start = end = None
            v = u
            for c in token:
                while v < len(units) and units[v][0] != c:
                    v += 1
                if v == len(units):
                    break
                if start is None:
                    start = units[v][1]
                end = units[v][2]
                v += 1
            else:
                u = v
                spans.append((start, end))  # type: ignore[arg-type]
                continue
            point = units[u][1] if u < len(units) else len(text)
            spans.append((point, point))
        return spans


class TerScore(NamedTuple):
    score: float
    num_edits: int
    ref_length: float


class Shift(NamedTuple):
    """One shift sacreBLEU made: hypothesis words ``[start, start + length)`` of the word order
    at that round moved before word ``target`` (sacreBLEU's ``_perform_shift``); ``ref_start``
    is where the reference has them (the first such place the search met)."""

    start: int
    length: int
    target: int
    ref_start: int


@dataclass(frozen=True, slots=True)
class Alignment:
    """How TER turned the hypothesis into its best reference.

    ``shifts`` in the order made; ``order[k]`` is the original index of the word at position k
    after them; ``trace`` is sacreBLEU's edit trace of the shifted words against the reference
    (' ' match, 's' substitution, 'i' a reference word to insert, 'd' a hypothesis word to delete).
    """

    reference: int
    num_edits: int
    shifts: tuple[Shift, ...]
    order: tuple[int, ...]
    trace: str


class _Beam:
    """sacreBLEU's ``BeamEditDistance`` against one reference, for hypotheses of one length
    (shifts keep the length, so the beam, the cells around the pseudo-diagonal each row keeps,
    is fixed). Its cache only saves time; here a candidate's distance comes either from
    rapidfuzz or from the rows its shift changed, joined to the unchanged rest.

    A row is kept as its beam only, ``rows[i]`` saying which cells those are (about
    ``2 * width``; the first and last rows run to the table's edge): a segment's rows grow with
    its length, not with its square. A cell outside the beam is infinite, as sacreBLEU's.

    The beam only removes paths, so its distance is at least the full Levenshtein distance, and
    equal when no path through a cell outside the beam could be as short. Any path through
    cell (i, j) costs at least ``|i - j| + |(n_h - i) - (n_r - j)|``; ``floor`` is the least of
    that over the cells the beam leaves out. A full distance below it is the beam's distance.
    """

    def __init__(self, ref: Sequence[int], n_h: int) -> None:
        self.ref = ref
        self.n_h = n_h
        n_r = self.n_r = len(ref)
        # The bit-vector trace holds n_r bits for each row and for each distinct reference word:
        # only for tables of up to _BIT_CELLS cells (33 million: a 5,000-word line has 25), beyond
        # which the beam's rows are smaller.
        self.bits = n_r * max(n_h, n_r) <= _BIT_CELLS
        self.where: dict[int, int] = {}  # word: the bits of its places in the reference
        if self.bits:
            for j, word in enumerate(ref):
                self.where[word] = self.where.get(word, 0) | 1 << j
        self.ratio = n_r / n_h if n_h else 1
        self.width = math.ceil(self.ratio / 2 + _BEAM_WIDTH) if _BEAM_WIDTH < self.ratio / 2 else _BEAM_WIDTH
        # The pseudo-diagonal floor(i * ratio) grows with i: when the beam around it holds the
        # whole first and last rows it holds every cell (references of up to ~25 words), and no
        # row's range need be made for the distance or the trace.
        self.keeps_all = math.floor(n_h * self.ratio) <= self.width and (n_h < 2 or math.floor(self.ratio) + self.width > n_r)
        # ``floor`` without the rows, for the usual distances far below it: a cell left out lies
        # ``width`` or more from the pseudo-diagonal, itself less than |n_r - n_h| + 1 from the
        # diagonal, and a cell at a from the diagonal is bounded by |a| + |a - (n_r - n_h)|
        gap = abs(n_r - n_h)
        self.floor_bound = _INFINITY if self.keeps_all else max(0, 2 * (self.width - gap - 1) - gap)
        self._forward: tuple[tuple[int, ...], list[array]] = ((), [])  # the words last asked for, their rows
        self._backward: tuple[tuple[int, ...], list[array]] = ((), [])

    @cached_property
    def floor(self) -> int:
        """The least path-cost bound over the cells the beam leaves out."""
        return _INFINITY if self.keeps_all else self._least_outside()

    def kept(self, words: Sequence[int], slack: int = 0) -> int | None:
        """The full Levenshtein distance of ``words`` if below ``floor + slack``, else None: with
        no slack, the distance if the beam leaves it as it is.

        rapidfuzz is asked for a distance below the bound only: its time then grows with the
        bound (a band of the table), where a whole 180,000-word table takes seconds."""
        if self.floor_bound + slack > 0:
            distance = Levenshtein.distance(words, self.ref, score_cutoff=self.floor_bound + slack - 1)
            if distance < self.floor_bound + slack:
                return distance
        if self.floor > self.floor_bound:
            distance = Levenshtein.distance(words, self.ref, score_cutoff=self.floor + slack - 1)
            if distance < self.floor + slack:
                return distance
        return None

    @cached_property
    def rows(self) -> list[tuple[int, int]]:
        """Row i's cells in the beam: ``range(*rows[i])``."""
        n_h, n_r = self.n_h, self.n_r
        rows = [(0, n_r + 1)]
        for i in range(1, n_h + 1):
            diag = math.floor(i * self.ratio)
            rows.append((max(0, diag - self.width), n_r + 1 if i == n_h else min(n_r + 1, diag + self.width)))
        return rows

    def _least_outside(self) -> int:
        """The least path-cost bound over the cells the beam leaves out (``floor``)."""
        floor = _INFINITY
        for i, (lo, hi) in enumerate(self.rows):
            if lo > 0:
                floor = min(floor, self._least(i, 0, lo - 1))
            if hi <= self.n_r:
                floor = min(floor, self._least(i, hi, self.n_r))
        return floor

    def _least(self, i: int, a: int, b: int) -> int:
        """Least path-cost bound over cells (i, a..b): ``|j - p| + |j - q|``, p and q being i and
        i - n_h + n_r in order, is least (``q - p``) between them and grows away from them."""
        p, q = sorted((i, i - self.n_h + self.n_r))
        if b < p:
            return (p - b) + (q - b)
        if a > q:
            return (a - p) + (a - q)
        return q - p

    def _cells(self, row: Sequence[int], i: int, a: int, b: int) -> list[int]:
        """Cells a..b-1 of row i, given as its beam ``row``: infinite outside the beam."""
        lo, hi = self.rows[i]
        start, stop = max(a, lo), min(b, hi)
        inside = list(row[start - lo : stop - lo]) if start < stop else []
        return [_INFINITY] * max(0, min(lo, b) - a) + inside + [_INFINITY] * max(0, b - max(hi, a))

    def _row(self, prev: list[int], i: int, word: int) -> list[int]:
        """Row i's beam from row i - 1's, ``word`` being hypothesis word i."""
        inf = _INFINITY
        plo = self.rows[i - 1][0]
        lo, hi = self.rows[i]
        # above[k], above[k + 1]: cells j - 1 and j of the row above (lo >= plo: the beam only
        # moves right), infinite outside its beam
        above = prev[lo - 1 - plo : hi - plo] if lo > plo else [inf, *prev[: hi - plo]]
        above += [inf] * (hi - lo + 1 - len(above))
        row = []
        left = inf
        if lo == 0:
            left = above[1] + 1
            row.append(left)
        start = max(lo, 1)
        cells = iter(above[start - lo :])
        diagonal = next(cells)
        for r, up in zip(self.ref[start - 1 : hi - 1], cells):
            best = diagonal if word == r else diagonal + 1
            if up + 1 < best:
                best = up + 1
            if left + 1 < best:
                best = left + 1
            if best > inf:
                best = inf
            row.append(best)
            left = best
            diagonal = up
        return row

    def trace(self, words: Sequence[int]) -> tuple[int, str]:
        """The distance and sacreBLEU's trace: ties to match/substitution, then deletion, then
        insertion, read back from the last cell.

        When the beam cannot matter (rapidfuzz's distance is below ``floor``), the trace is read
        back from the full table's true values (:meth:`_bit_trace`) if that table is small
        enough: every cell the read-back visits lies on a shortest path, and so do the best paths
        into it, so the beam gives them their true values; a neighbour that is no shortest path's
        could not have won the comparison with its true value either, nor with the beam's (never
        lower).
        """
        # (a beam covering every cell, the usual case, needs no distance to decide)
        if self.bits and (self.keeps_all or self.kept(words) is not None):
            return self._bit_trace(words)
        return self._beam_trace(words)

    def _bit_trace(self, words: Sequence[int]) -> tuple[int, str]:
        """The full table's trace, its rows kept as bit vectors of the differences between
        neighbouring cells (Hyyrö's form of Myers's algorithm: a row in a dozen integer
        operations; two unrelated 25-word segments take 28 µs, cell by cell 120 µs)."""
        n_r = self.n_r
        mask = (1 << n_r) - 1
        where = self.where
        vp, vn = mask, 0  # bit j-1: cell (i, j) is one more / one less than cell (i, j - 1)
        rows = [(vp, vn, 0, 0)]  # and hp/hn bit j: cell (i, j) against (i - 1, j)
        for word in words:
            eq = where.get(word, 0)
            xv = eq | vn
            # (the carry out of the sum reaches no kept bit: hp is masked, and hn and vn are
            # anded with masked values)
            xh = (((eq & vp) + vp) ^ vp) | eq
            hp = vn | (mask & ~(xh | vp))
            hn = vp & xh
            hp = (hp << 1) | 1
            hn <<= 1
            vp = (hn | ~(xv | hp)) & mask
            vn = hp & xv
            rows.append((vp, vn, hp, hn))
        ref = self.ref
        i, j = len(words), n_r
        distance = i + vp.bit_count() - vn.bit_count()
        trace = []
        while i and j:
            if words[i - 1] == ref[j - 1]:
                # Neighbouring cells differ by at most one, so a match's diagonal neighbour has the
                # cell's value and wins: nothing to read.
                trace.append(" ")
                i -= 1
                j -= 1
                continue
            # A mismatch is one more than the least of its three neighbours, ties going to the
            # diagonal, then up: the cell's differences from the diagonal and from the cell above
            # tell which neighbour that is, and the differences are the bits.
            _, _, hp, hn = rows[i]
            vp, vn, _, _ = rows[i - 1]
            bit = 1 << j
            above = 1 if hp & bit else -1 if hn & bit else 0
            bit >>= 1
            if above + (1 if vp & bit else -1 if vn & bit else 0) == 1:
                trace.append("s")
                i -= 1
                j -= 1
            elif above == 1:
                trace.append("d")
                i -= 1
            else:
                trace.append("i")
                j -= 1
        trace.append("d" * i + "i" * j)
        return distance, "".join(reversed(trace))

    def _beam_trace(self, words: Sequence[int]) -> tuple[int, str]:
        """sacreBLEU's computation within the beam: its rows (:meth:`forward`, kept for the
        candidates' distances), and the trace read back from them, each cell's operation being
        the one its recurrence took."""
        ref, spans = self.ref, self.rows
        rows = self.forward(words)

        def cell(i: int, j: int) -> int:
            lo, hi = spans[i]
            return rows[i][j - lo] if lo <= j < hi else _INFINITY

        trace = []
        i, j = len(words), self.n_r
        while i > 0 and j > 0:
            best, op = (cell(i - 1, j - 1), " ") if words[i - 1] == ref[j - 1] else (cell(i - 1, j - 1) + 1, "s")
            up = cell(i - 1, j) + 1
            if up < best:
                best, op = up, "d"
            if cell(i, j - 1) + 1 < best:
                op = "i"
            trace.append(op)
            if op in " s":
                i -= 1
                j -= 1
            elif op == "i":
                j -= 1
            else:
                i -= 1
        trace.append("d" * i + "i" * j)
        return rows[-1][-1], "".join(reversed(trace))

    def forward(self, words: Sequence[int]) -> list[array]:
        """Row i: the beam's least costs from the start to the cells of row i's beam (arrays:
        a quarter of a list's memory). The rows of the words last asked for are kept, and those
        before the first word that differs (where a shift starts) reused."""
        last, rows = self._forward
        rows = rows[: _same_start(last, words) + 1] or [array("q", range(self.n_r + 1))]
        row = rows[-1].tolist()
        for i in range(len(rows), len(words) + 1):
            row = self._row(row, i, words[i - 1])
            rows.append(array("q", row))
        self._forward = (tuple(words), rows)
        return rows

    def backward(self, words: Sequence[int]) -> list[array]:
        """Row i: the least costs from the cells of row i's beam to the end through the beam.
        Kept as :meth:`forward`'s, those after the last word that differs reused."""
        ref, n_r, n_h = self.ref, self.n_r, self.n_h
        last, back = self._backward  # rows n_h, n_h - 1, ...
        back = back[: _same_start(last[::-1], words[::-1]) + 1] or [array("q", range(n_r - self.rows[n_h][0], -1, -1))]
        nxt = back[-1].tolist()
        for i in range(n_h - len(back), -1, -1):
            lo, hi = self.rows[i]
            below = self._cells(nxt, i + 1, lo, hi + 1)  # below[k], below[k + 1]: cells j, j + 1
            row = [_INFINITY] * (hi - lo)
            right = _INFINITY
            word = words[i]
            for k in range(hi - lo - 1, -1, -1):
                best = below[k] + 1
                j = lo + k
                if j < n_r:
                    diagonal = below[k + 1] if word == ref[j] else below[k + 1] + 1
                    if diagonal < best:
                        best = diagonal
                    if right + 1 < best:
                        best = right + 1
                if best > _INFINITY:
                    best = _INFINITY
                row[k] = right = best
            back.append(array("q", row))
            nxt = row
        self._backward = (tuple(words), back)
        return back[::-1]

    def distance(self, words: Sequence[int], changed: tuple[int, int], forward, backward, full: bool = True) -> int:
        """The beam distance of ``words``, which differ from the words whose ``forward`` and
        ``backward`` rows are given only at positions ``changed = [a, b)``; ``full=False`` when
        their full distance is known to reach ``floor`` (rapidfuzz is not asked)."""
        d = self.kept(words) if full else None
        if d is not None:
            return d
        a, b = changed
        row = forward()[a].tolist()
        for i in range(a + 1, b + 1):
            row = self._row(row, i, words[i - 1])
        return min(map(add, row, backward()[b]))


def _same_start(a: Sequence[int], b: Sequence[int]) -> int:
    """How many words ``a`` and ``b`` share before the first that differs."""
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def _changed(start: int, length: int, target: int, n: int) -> tuple[int, int]:
    """The positions :func:`_perform_shift` rearranges in ``n`` words."""
    if target < start:
        return target, start + length
    if target > start + length:
        return start, target
    return start, min(length + target, n)


def _perform_shift(words: list, start: int, length: int, target: int) -> list:
    if target < start:
        return words[:target] + words[start : start + length] + words[target:start] + words[start + length :]
    if target > start + length:
        return words[:start] + words[start + length : target] + words[start : start + length] + words[target:]
    return words[:start] + words[start + length : length + target] + words[start : start + length] + words[length + target :]


def _alignment(trace: str) -> tuple[list[int], list[int], list[int]]:
    """sacreBLEU's ``trace_to_alignment`` of the flipped trace: per reference word, one more than
    the hypothesis position aligned to it (every reference word has one); and per prefix of the
    hypothesis and of the reference, how many of its words are errors."""
    at = errors_h = errors_r = 0
    after: list[int] = []
    hyp_err = [0]
    ref_err = [0]
    for op in trace:
        if op == " ":
            at += 1
            after.append(at)
            hyp_err.append(errors_h)
            ref_err.append(errors_r)
        elif op == "s":
            at += 1
            errors_h += 1
            errors_r += 1
            after.append(at)
            hyp_err.append(errors_h)
            ref_err.append(errors_r)
        elif op == "d":  # flipped: an insertion into the hypothesis
            at += 1
            errors_h += 1
            hyp_err.append(errors_h)
        else:
            errors_r += 1
            after.append(at)
            ref_err.append(errors_r)
    return after, hyp_err, ref_err


def _lazy(function, *args):
    """``function(*args)``, computed on the first call only."""
    kept: list = []

    def value():
        if not kept:
            kept.append(function(*args))
        return kept[0]

    return value


def _edit_rate(hyp: Sequence[int], ref: Sequence[int]) -> Alignment:
    """sacreBLEU's ``translation_edit_rate`` for one reference, with what it did."""
    n_h, n_r = len(hyp), len(ref)
    if not n_r:
        return Alignment(0, n_h, (), tuple(range(n_h)), "d" * n_h)
    beam = _Beam(ref, n_h)
    where = defaultdict(list)
    for j, w in enumerate(ref):
        where[w].append(j)
    words = list(hyp)
    order = list(range(n_h))
    shifts: list[Shift] = []
    checked = 0
    while True:
        pre_score, trace = beam.trace(words)
        forward, backward = _lazy(beam.forward, words), _lazy(beam.backward, words)
        # A shift of L words changes the full distance by 2L at most: from words whose distance
        # is that far above the floor, no candidate's full distance is the beam's.
        full = beam.keeps_all or beam.kept(words, 2 * _MAX_SHIFT_SIZE) is not None
        after, hyp_err, ref_err = _alignment(trace)
        best: tuple | None = None
        best_shift = None
        tried: dict[tuple[int, int, int], int] = {}
        stop = False
        for start_h in range(n_h):
            places = where.get(words[start_h], ())
            if len(places) > 8:  # a long segment's frequent word: only its places within reach
                places = places[bisect_left(places, start_h - _MAX_SHIFT_DIST) : bisect_right(places, start_h + _MAX_SHIFT_DIST)]
            for start_r in places:
                if abs(start_r - start_h) > _MAX_SHIFT_DIST:
                    continue
                length = 0
                while words[start_h + length] == ref[start_r + length] and length < _MAX_SHIFT_SIZE:
                    length += 1
                    if (
                        hyp_err[start_h + length] != hyp_err[start_h]
                        and ref_err[start_r + length] != ref_err[start_r]
                        and not start_h < after[start_r] <= start_h + length
                    ):
                        prev_idx = -1
                        for offset in range(-1, length):
                            idx = after[start_r + offset] if start_r + offset >= 0 else 0
                            if idx == prev_idx:
                                continue
                            prev_idx = idx
                            key = (start_h, length, idx)
                            gain = tried.get(key)
                            if gain is None:
                                shifted = _perform_shift(words, start_h, length, idx)
                                changed = _changed(start_h, length, idx, n_h)
                                gain = tried[key] = pre_score - beam.distance(shifted, changed, forward, backward, full)
                            checked += 1
                            candidate = (gain, length, -start_h, -idx)
                            if best is None or candidate > best:
                                best = candidate
                                best_shift = Shift(start_h, length, idx, start_r)
                        if checked >= _MAX_SHIFT_CANDIDATES:
                            stop = True
                            break
                    if n_h == start_h + length or n_r == start_r + length:
                        break
                if stop:
                    break
            if stop:
                break
        if stop or best is None or best[0] <= 0:
            return Alignment(0, len(shifts) + pre_score, tuple(shifts), tuple(order), trace)
        assert best_shift is not None
        shifts.append(best_shift)
        words = _perform_shift(words, best_shift.start, best_shift.length, best_shift.target)
        order = _perform_shift(order, best_shift.start, best_shift.length, best_shift.target)


def best_alignment(hyp: Sequence[int], refs: Sequence[Sequence[int]]) -> Alignment:
    """The alignment to the reference needing fewest edits (the first such, as sacreBLEU)."""
    best = None
    for k, ref in enumerate(refs):
        found = _edit_rate(hyp, ref)
        if best is None or found.num_edits < best.num_edits:
            best = Alignment(k, found.num_edits, found.shifts, found.order, found.trace)
    assert best is not None
    return best


def numbered_statistics(hyp: Sequence[int], refs: Sequence[Sequence[int]]) -> tuple[int, int, int]:
    """``(num_edits, ref_words, shifts)`` of a segment whose words are numbered (equal words
    equal numbers): the fewest edits to any reference, the references' summed length, and how
    many of those edits are shifts (the segment's ``ter.shift`` findings).

    sacreBLEU keeps the average reference length per segment; the sum keeps a corpus's running
    totals exact integers, and :func:`score` divides by the number of references."""
    best = best_alignment(hyp, refs)
    return best.num_edits, sum(map(len, refs)), len(best.shifts)


def statistics(hyp: str, refs: Sequence[str], config: TerConfig) -> tuple[int, int, int]:
    """A segment's ``(num_edits, ref_words, shifts)`` from its texts."""
    number: defaultdict[str, int] = defaultdict(lambda: len(number))
    return numbered_statistics(
        [number[w] for w in config.tokens(hyp)], [[number[w] for w in config.reference_tokens(r)] for r in refs]
    )


def score(stats: Sequence[int], nrefs: int) -> TerScore:
    """TER from (summed) statistics, as sacreBLEU's ``_compute_score_from_stats`` of summed
    ``(num_edits, ref_words / nrefs)``."""
    num_edits, ref_length = stats[0], stats[1] / nrefs
    if ref_length > 0:
        value = num_edits / ref_length
    elif num_edits > 0:
        value = 1.0  # empty reference(s), non-empty hypothesis
    else:
        value = 0.0
    return TerScore(100 * value, int(num_edits), ref_length)


def scores_of(stats: np.ndarray, nrefs: int) -> np.ndarray:
    """:func:`score` of each row of ``stats`` (a segment's statistics): the same floats."""
    import numpy as np

    num_edits, ref_length = stats[:, 0], stats[:, 1] / nrefs
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(ref_length > 0, num_edits / ref_length, np.where(num_edits > 0, 1.0, 0.0))
    return 100 * value


def signature(config: TerConfig, nrefs: int | None) -> str:
    """sacreBLEU's TER signature string, with ScoreLens's version; ``nrefs=None`` means it varies."""
    return "|".join(
        [
            f"nrefs:{'var' if nrefs is None else nrefs}",
            f"case:{'mixed' if config.case_sensitive else 'lc'}",
            "tok:tercom",
            f"norm:{'yes' if config.normalized else 'no'}",
            f"punct:{'no' if config.no_punct else 'yes'}",
            f"asian:{'yes' if config.asian_support else 'no'}",
            f"version:scorelens-{__version__}",
        ]
    )
