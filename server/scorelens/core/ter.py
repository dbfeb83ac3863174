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
from collections import defaultdict
from dataclasses import dataclass
from functools import cache, cached_property
from typing import NamedTuple, Sequence

from rapidfuzz.distance import Levenshtein

from .. import __version__
from .tokenizers import Span

_MAX_SHIFT_SIZE = 10
_MAX_SHIFT_DIST = 50
_BEAM_WIDTH = 25
_MAX_SHIFT_CANDIDATES = 1000
_INFINITY = int(1e16)

# -- Tercom's normaliser, as sacreBLEU's TercomTokenizer ----------------------------------------

_ASIAN_PUNCT = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
_FULL_WIDTH_PUNCT = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"
_ENTITIES = {"&quot;": '"', "&amp;": "&", "&lt;": "<", "&gt;": ">"}


@cache
def _rules() -> tuple[list, list, re.Pattern, tuple[re.Pattern, re.Pattern]]:
    """The normaliser's patterns (western, asian, punctuation, asian punctuation), compiled when
    first used: 3 ms that every command's start would pay, TER on or not."""
    western = [
        (re.compile(r"([{-~[-` -&(-+:-@/])"), r" \1 "),
        (re.compile(r"'s "), r" 's "),
        (re.compile(r"'s$"), r" 's"),
        (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
        (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
        (re.compile(r"([0-9])(-)"), r"\1 \2 "),
    ]
    asian = [
        (re.compile(r"([\u4e00-\u9fff\u3400-\u4dbf])"), r" \1 "),
        (re.compile(r"([\u31c0-\u31ef\u2e80-\u2eff])"), r" \1 "),
        (re.compile(r"([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])"), r" \1 "),
        (re.compile(r"([\u3200-\u3f22])"), r" \1 "),
        # sacreBLEU's patterns as written: the second ``^`` never matches mid-text, so kana are
        # split off only at the very start of the text
        (re.compile(r"(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])"), r"\1 \2 "),
        (re.compile(r"(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])"), r"\1 \2 "),
        (re.compile(r"(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])"), r"\1 \2 "),
        (re.compile(_ASIAN_PUNCT), r" \1 "),
        (re.compile(_FULL_WIDTH_PUNCT), r" \1 "),
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
            for pattern, repl in western:
                sent = pattern.sub(repl, sent)
            if self.asian_support:
                for pattern, repl in asian:
                    sent = pattern.sub(repl, sent)
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

    The beam only removes paths, so its distance is at least the full Levenshtein distance, and
    equal when no path through a cell outside the beam could be as short. Any path through
    cell (i, j) costs at least ``|i - j| + |(n_h - i) - (n_r - j)|``; ``floor`` is the least of
    that over the cells the beam leaves out. A full distance below it is the beam's distance.
    """

    def __init__(self, ref: Sequence[int], n_h: int) -> None:
        self.ref = ref
        self.where: dict[int, int] = {}  # word: the bits of its places in the reference
        for j, word in enumerate(ref):
            self.where[word] = self.where.get(word, 0) | 1 << j
        self.n_h = n_h
        n_r = self.n_r = len(ref)
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

    @cached_property
    def floor(self) -> int:
        """The least path-cost bound over the cells the beam leaves out."""
        return _INFINITY if self.keeps_all else self._least_outside()

    def keeps(self, distance: int) -> bool:
        """Whether the beam leaves a full Levenshtein distance as it is."""
        return distance < self.floor_bound or distance < self.floor

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

    def _row(self, prev: list[int], i: int, word: int) -> list[int]:
        ref = self.ref
        lo, hi = self.rows[i]
        row = [_INFINITY] * (self.n_r + 1)
        for j in range(lo, hi):
            if j == 0:
                row[0] = prev[0] + 1
                continue
            best = prev[j - 1] if word == ref[j - 1] else prev[j - 1] + 1
            if prev[j] + 1 < best:
                best = prev[j] + 1
            if row[j - 1] + 1 < best:
                best = row[j - 1] + 1
            if best < _INFINITY:
                row[j] = best
        return row

    def trace(self, words: Sequence[int]) -> tuple[int, str]:
        """The distance and sacreBLEU's trace: ties to match/substitution, then deletion, then
        insertion, read back from the last cell.

        When the beam cannot matter (rapidfuzz's distance ``d`` is below ``floor``), the trace is
        read back from the full table's true values (:meth:`_bit_trace`): every cell the read-back
        visits lies on a shortest path, and so do the best paths into it, so the beam gives them
        their true values; a neighbour that is no shortest path's could not have won the
        comparison with its true value either, nor with the beam's (never lower).
        """
        # (a beam covering every cell, the usual case, needs no distance to decide)
        if not self.keeps_all and not self.keeps(Levenshtein.distance(words, self.ref)):
            return self._beam_trace(words)
        return self._bit_trace(words)

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
        """sacreBLEU's computation, cell by cell within the beam."""
        ref, n_r, ranges = self.ref, self.n_r, self.rows
        prev = list(range(n_r + 1))
        ops_rows = [["i"] * (n_r + 1)]
        for i in range(1, len(words) + 1):
            lo, hi = ranges[i]
            row = [_INFINITY] * (n_r + 1)
            ops = ["x"] * (n_r + 1)
            word = words[i - 1]
            for j in range(lo, hi):
                if j == 0:
                    row[0] = prev[0] + 1
                    ops[0] = "d"
                    continue
                if word == ref[j - 1]:
                    best, op = prev[j - 1], " "
                else:
                    best, op = prev[j - 1] + 1, "s"
                if prev[j] + 1 < best:
                    best, op = prev[j] + 1, "d"
                if row[j - 1] + 1 < best:
                    best, op = row[j - 1] + 1, "i"
                if best < _INFINITY:
                    row[j], ops[j] = best, op
            prev = row
            ops_rows.append(ops)
        trace = []
        i, j = len(words), n_r
        while i > 0 or j > 0:
            op = ops_rows[i][j]
            trace.append(op)
            if op in " s":
                i -= 1
                j -= 1
            elif op == "i":
                j -= 1
            else:
                i -= 1
        return prev[n_r], "".join(reversed(trace))

    def forward(self, words: Sequence[int]) -> list[list[int]]:
        """Row i: the beam's least costs from the start to the cells of row i."""
        rows = [list(range(self.n_r + 1))]
        for i in range(1, len(words) + 1):
            rows.append(self._row(rows[-1], i, words[i - 1]))
        return rows

    def backward(self, words: Sequence[int]) -> list[list[int]]:
        """Row i, cell j: the least cost from cell (i, j) to the end through the beam."""
        ref, n_r, n_h = self.ref, self.n_r, self.n_h
        lo, _ = self.rows[n_h]
        nxt = [_INFINITY] * lo + [n_r - j for j in range(lo, n_r + 1)]
        back = [nxt]
        for i in range(n_h - 1, -1, -1):
            lo, hi = self.rows[i]
            row = [_INFINITY] * (n_r + 2)
            word = words[i]
            for j in range(hi - 1, lo - 1, -1):
                best = nxt[j] + 1
                if j < n_r:
                    diagonal = nxt[j + 1] if word == ref[j] else nxt[j + 1] + 1
                    if diagonal < best:
                        best = diagonal
                    if row[j + 1] + 1 < best:
                        best = row[j + 1] + 1
                if best < _INFINITY:
                    row[j] = best
            back.append(row)
            nxt = row
        back.reverse()
        return back

    def distance(self, words: Sequence[int], changed: tuple[int, int], forward, backward) -> int:
        """The beam distance of ``words``, which differ from the words whose ``forward`` and
        ``backward`` rows are given only at positions ``changed = [a, b)``."""
        d = Levenshtein.distance(words, self.ref)
        if self.keeps(d):
            return d
        a, b = changed
        row = forward()[a]
        for i in range(a + 1, b + 1):
            row = self._row(row, i, words[i - 1])
        back = backward()[b]
        lo, hi = self.rows[b]
        return min(row[j] + back[j] for j in range(lo, hi))


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
        after, hyp_err, ref_err = _alignment(trace)
        best: tuple | None = None
        best_shift = None
        tried: dict[tuple[int, int, int], int] = {}
        stop = False
        for start_h in range(n_h):
            for start_r in where.get(words[start_h], ()):
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
                                gain = tried[key] = pre_score - beam.distance(shifted, changed, forward, backward)
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
