"""Clipped n-gram matches of many segments at once, in numpy: what chrF, ROUGE-N and BLEU count.

For each order n and each segment, the size of the multiset intersection of the hypothesis's
n-grams with each reference's (every n-gram matched at most as often as the other side has it),
or, BLEU's, with the references' union (at most as often as the reference that has it most).
Made one segment at a time, those n-grams are Python objects, six orders of them per side for
chrF, and making them is most of the time (see bench/RESULTS.md). Here a batch of segments is
one array of symbol numbers per side, and each order's n-grams are int64 keys built from the
previous order's by a shift and an or: ``segment | symbol_1 | … | symbol_n``, packed. chrF's
edits match one segment's the same way (:func:`common_counts`). Matched with one reference at
a time (:func:`matches`), the keys of every order are prefixes of one key a position, sorted
once (:func:`_sorted_once`); where those do not fit, an n-gram that cannot match is dropped
before the next order (:func:`_pair_matches`).

Memory stays a few bytes a symbol: a batch of more than :data:`_PART` symbols is matched a part
of its segments at a time, a longer segment alone, and a long segment one order at a time, its
keys made and read a part at a time (:func:`_common_counts_by_order`).

Exact: a key holds the whole n-gram, never a hash of it. When the next symbol would not fit in
62 bits, the keys so far are replaced by their dense ranks over every side (equal n-grams of
one segment keep equal ranks, and ranks keep the segment's order), and packing goes on from those.
"""

from __future__ import annotations

from itertools import chain
from typing import Iterator, Sequence

import numpy as np

# 63 bits of an int64, one of them for a side's tag (see _shared)
_BITS = 62
# Up to this many bits a symbol (characters, not words), _sorted_once matches a batch: most
# n-grams of the low orders match, so _pair_matches would drop few before the next order
# (chrF's: 2x faster; BLEU's words: 5% slower).
_FEW_SYMBOLS = 8
# common_counts's keys: 58 bits, over them the order (up to 9: 4 bits) and the side's bit
_KEY_BITS = 58
# Symbols matched at once (and keys made or read at once). Matching makes some 50 (a batch) to
# 250 (common_counts's every order at once) bytes of arrays a symbol: a larger batch is matched a
# part at a time, a longer segment one order at a time, which keeps 9 bytes a symbol.
_PART = 1 << 18
# Sides longer than this together, common_counts counts one order at a time: faster from some
# 16,000 symbols (English text: 3.0 against 3.4 ms at 32,000, 22 against 51 ms at 262,000).
_LONG = 1 << 15
# Symbols below this (code points, token numbers) are numbered densely through a table of them
# all, which beats sorting; larger ones are sorted.
_TABLE = 1 << 22


class Side:
    """One side of a batch: every segment's symbols end to end, and each segment's length."""

    __slots__ = ("symbols", "lengths")

    def __init__(self, symbols: np.ndarray, lengths: np.ndarray) -> None:
        self.symbols = symbols
        self.lengths = lengths

    @classmethod
    def of_texts(cls, texts: Sequence[str]) -> Side:
        """Symbols are the texts' code points."""
        return cls(code_points("".join(texts)), np.fromiter(map(len, texts), np.int64, len(texts)))

    @classmethod
    def of_numbers(cls, sequences: Sequence[Sequence[int]]) -> Side:
        """Symbols are token numbers (equal tokens equal numbers)."""
        lengths = np.fromiter(map(len, sequences), np.int64, len(sequences))
        symbols = np.fromiter(chain.from_iterable(sequences), np.int64, int(lengths.sum()))
        return cls(symbols, lengths)


def code_points(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def common_counts(hyp: np.ndarray, ref: np.ndarray, orders: int) -> list[int]:
    """For n = 1..``orders``, how many of one hypothesis's n-grams one reference's match, clipped
    (the size of the multiset intersection); sides as symbol arrays. :func:`matches` of a single
    segment without a batch's set-up: a few dozen numpy calls, where making each order's n-grams
    as Python objects costs a few hundred microseconds a segment.

    Both sides are one array, joined by a separator symbol: the n-grams across it are unique and
    match nothing. Its keys are packed as in :func:`_keyed`, each order's tagged with its n in the
    top bits, so that one sort matches every order at once; long sides are counted one order at a
    time (:func:`_common_counts_by_order`)."""
    if not len(hyp) or not len(ref):
        return [0] * orders
    if len(hyp) + len(ref) > _LONG:
        return _common_counts_by_order(hyp, ref, orders)
    joined = np.concatenate((hyp, [-1], ref))
    joined[len(hyp)] = joined.max() + 1
    width = int(joined[len(hyp)]).bit_length()
    if width > 21:  # wider than a code point: numbered densely, so that a key always has room
        [joined], width = _ranked([joined])
    keys, used = joined, width
    found = [joined]
    for n in range(2, min(orders, len(hyp), len(ref)) + 1):
        if used + width > _KEY_BITS:
            [keys], used = _ranked([keys])
        keys = (keys[:-1] << width) | joined[n - 1 :]
        used += width
        found.append(keys)
    # an order's keys up to the separator's place are the hypothesis's, the rest the reference's;
    # over each key its order, under it the side (as _shared reads them)
    split = len(hyp) + 1
    tags = [(n << (_KEY_BITS + 1)) | side for n in range(1, len(found) + 1) for side in (0, 1)]
    merged = np.concatenate(found) << 1
    merged |= np.array(tags).repeat([size for k in found for size in (split, len(k) - split)])
    merged.sort()
    keys, common = _shared(merged)
    return np.bincount(keys >> _KEY_BITS, weights=common, minlength=orders + 1)[1:].astype(np.int64).tolist()


def _common_counts_by_order(hyp: np.ndarray, ref: np.ndarray, orders: int) -> list[int]:
    """:func:`common_counts` of long sides, one order at a time: what it keeps is the symbols (as
    few bytes each as number them) and one array of keys, each order's made into it a part at a
    time, tagged with their side and sorted."""
    symbols, count = _joined(hyp, ref)
    width = count.bit_length()
    split = len(hyp) + 1  # the first of the reference's positions
    keys = np.empty(len(symbols), np.int64)
    # an order's keys begin with the number of the n-gram of order `first` at their place in
    # `prefix` (at first the symbols themselves; ranks once the keys outgrow their bits)
    prefix, first, prefix_bits = symbols, 1, width
    found = []
    for n in range(1, min(orders, len(hyp), len(ref)) + 1):
        if prefix_bits + (n - first) * width > _BITS:  # the previous order's n-grams ranked
            distinct = _distinct(np.right_shift(tagged, 1, out=tagged))
            ranks = np.empty(len(tagged), np.min_scalar_type(len(distinct)))
            for start in range(0, len(ranks), _PART):
                stop = min(start + _PART, len(ranks))
                ranks[start:stop] = np.searchsorted(distinct, _packed(prefix, symbols, first, n - 1, width, start, stop))
            prefix, first, prefix_bits = ranks, n - 1, max(1, (len(distinct) - 1).bit_length())
            del distinct
        tagged = keys[: len(symbols) - n + 1]
        for start in range(0, len(tagged), _PART):
            stop = min(start + _PART, len(tagged))
            np.left_shift(_packed(prefix, symbols, first, n, width, start, stop), 1, out=tagged[start:stop])
        tagged[split:] |= 1
        tagged.sort()
        found.append(_sorted_common(tagged))
    return found + [0] * (orders - len(found))


def _joined(hyp: np.ndarray, ref: np.ndarray) -> tuple[np.ndarray, int]:
    """The two sides in one array of as few bytes a symbol as tell them apart, numbered densely
    (as :func:`_dense`, but a part at a time), and between them a separator: their count."""
    if max(hyp.max(), ref.max()) >= _TABLE:
        [hyp, ref], _ = _dense([hyp, ref])
    present = np.zeros(int(max(hyp.max(), ref.max())) + 1, bool)
    for side in (hyp, ref):
        for start in range(0, len(side), _PART):
            present[side[start : start + _PART]] = True
    table = np.cumsum(present) - 1
    count = int(table[-1]) + 1
    joined = np.empty(len(hyp) + 1 + len(ref), np.min_scalar_type(count))
    joined[len(hyp)] = count  # the n-grams across it are unique: they match nothing
    for side, at in ((hyp, 0), (ref, len(hyp) + 1)):
        for start in range(0, len(side), _PART):
            part = side[start : start + _PART]
            joined[at + start : at + start + len(part)] = table[part]
    return joined, count


def _packed(prefix: np.ndarray, symbols: np.ndarray, first: int, n: int, width: int, start: int, stop: int) -> np.ndarray:
    """The n-gram keys of positions ``start`` to ``stop`` - 1: the number of the n-gram of order
    ``first`` there (``prefix``), then its symbols ``first`` to n - 1, ``width`` bits each."""
    keys = prefix[start:stop].astype(np.int64)
    for k in range(first, n):
        keys <<= width
        keys |= symbols[start + k : stop + k]
    return keys


def _distinct(ordered: np.ndarray) -> np.ndarray:
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def _sorted_common(tagged: np.ndarray) -> int:
    """The size of the multiset intersection of sorted keys tagged with their side in the lowest
    bit (1: the reference's), read a part at a time; a part ends where a key's run does, so that
    what it makes is a byte a key and a few words a run."""
    total = 0
    start = 0
    while start < len(tagged):
        stop = start + _PART
        if stop < len(tagged):  # to the end of the last key's reference run
            stop = int(np.searchsorted(tagged, tagged[stop - 1] | 1, "right"))
        part = tagged[start:stop]
        starts = np.flatnonzero(np.concatenate(([True], part[1:] != part[:-1])))  # of runs of one tagged key
        counts = np.diff(starts, append=len(part))
        values = part[starts]
        # a key's runs on both sides: its hypothesis's, then its reference's (the tags differ)
        both = np.flatnonzero((values[1:] ^ values[:-1]) == 1)
        total += int(np.minimum(counts[both], counts[both + 1]).sum())
        start = stop
    return total


def matches(sides: Sequence[Side], orders: Sequence[int]) -> dict[int, list[np.ndarray]]:
    """``{n: [matches with reference 1, …]}`` for each n in ``orders``: per segment, how many of
    the hypothesis's (``sides[0]``) n-grams the reference's n-grams match, clipped."""
    sizes = sum(side.lengths for side in sides)
    if sizes.sum() > _PART:
        return _matches_in_parts(sides, orders, sizes)
    top = max(orders)
    per_ref = []
    for ref in sides[1:]:
        found = _sorted_once(sides[0], ref, top)
        per_ref.append(found if found is not None else _pair_matches(sides[0], ref, top))
    if None not in per_ref:
        return {n: [found[n - 1] for found in per_ref] for n in orders}
    segments = len(sides[0].lengths)
    return {n: [_common(keys[0], starts, ref, segments, used) for ref in keys[1:]] for n, keys, starts, used in _keyed(sides, orders)}


def _matches_in_parts(sides: Sequence[Side], orders: Sequence[int], sizes: np.ndarray) -> dict[int, list[np.ndarray]]:
    """:func:`matches` of a batch of more than :data:`_PART` symbols (``sizes``: each segment's, on
    every side), consecutive segments of at most that many at a time, a longer segment alone."""
    segments = len(sizes)
    found = {n: [np.zeros(segments, np.int64) for _ in sides[1:]] for n in orders}
    offsets = [np.concatenate(([0], np.cumsum(side.lengths))) for side in sides]
    sizes = sizes.tolist()
    start = 0
    while start < segments:
        stop = start + 1
        total = sizes[start]
        while stop < segments and total + sizes[stop] <= _PART:
            total += sizes[stop]
            stop += 1
        part = [Side(side.symbols[at[start] : at[stop]], side.lengths[start:stop]) for side, at in zip(sides, offsets)]
        if total > _PART:  # one segment
            for k, ref in enumerate(part[1:]):
                counts = common_counts(part[0].symbols, ref.symbols, max(orders))
                for n in orders:
                    found[n][k][start] = counts[n - 1]
        else:
            for n, per_ref in matches(part, orders).items():
                for k, common in enumerate(per_ref):
                    found[n][k][start:stop] = common
        start = stop
    return found


def _sorted_once(hyp: Side, ref: Side, top: int) -> list[np.ndarray] | None:
    """For n = 1..``top``, per segment, the size of the multiset intersection of the two sides'
    n-grams; None when its symbols are many (words) or its keys do not fit (see
    :func:`_pair_matches` then).

    Each position's key is its segment, the ``top`` symbols from it (numbered densely from 1,
    0 past its segment's end) and its side (1: the reference's) in the lowest bit. Sorted, equal
    n-grams of every order n are one run: the keys equal above their n-th symbol. So one sort
    serves every order, and a run's reference count is a difference of one running sum. A run
    whose n-th symbol is 0 is of positions less than n symbols from their segment's end: no n-gram.
    """
    segments = len(hyp.lengths)
    found = [np.zeros(segments, np.int64) for _ in range(top)]
    if not len(hyp.symbols) or not len(ref.symbols):
        return found
    [symbols], count = _dense([np.concatenate((hyp.symbols, ref.symbols))])
    width = count.bit_length()  # of 1..count; 0 is the padding
    symbols_shift = 1
    segment_shift = symbols_shift + top * width
    if width > _FEW_SYMBOLS or segment_shift + max(1, (segments - 1).bit_length()) > _BITS:
        return None
    # each segment's symbols, then top - 1 zeros: a window of top symbols never leaves its segment
    lengths = np.concatenate((hyp.lengths, ref.lengths))
    stride = lengths + (top - 1)
    size = int(stride.sum())
    padded = np.zeros(size + top - 1, np.int64)
    real = np.ones(size, bool)
    ends = np.cumsum(stride)
    for k in range(1, top):
        real[ends - k] = False
    padded[:size][real] = symbols + 1
    key = np.arange(segments, dtype=np.int64) << segment_shift
    key = np.repeat(np.concatenate((key, key | 1)), stride)
    for k in range(top):
        key |= padded[k : size + k] << (symbols_shift + (top - 1 - k) * width)
    key = key[real]
    key.sort()
    refs_before = np.zeros(len(key) + 1, np.int64)
    np.cumsum(key & 1, out=refs_before[1:])
    differing = key[1:] ^ key[:-1]
    last_symbol = (1 << width) - 1
    for n in range(1, top + 1):
        shift = symbols_shift + (top - n) * width
        starts = np.concatenate(([0], np.flatnonzero(differing >= 1 << shift) + 1, [len(key)]))  # of runs; the end
        from_ref = np.diff(refs_before[starts])
        common = np.diff(starts) - from_ref
        np.minimum(common, from_ref, out=common)
        shared = np.flatnonzero(common > 0)
        if not len(shared):
            break
        first = key[starts[shared]]
        whole = ((first >> shift) & last_symbol) != 0
        found[n - 1] = np.bincount(first[whole] >> segment_shift, weights=common[shared][whole], minlength=segments).astype(np.int64)
    return found


def _pair_matches(hyp: Side, ref: Side, top: int) -> list[np.ndarray] | None:
    """For n = 1..``top``, per segment, the size of the multiset intersection of the two sides'
    n-grams; None when a batch this large has no room for its keys (see :func:`_keyed` then).

    An n-gram no longer on both sides of its segment is dropped: an (n+1)-gram can match only
    where the n-grams at its start and at the next position both match. So order 1 sorts every
    token and each further order only the survivors (on TED lines about 40%, 16%, 9%). Both
    sides are one array of positions (the hypothesis's first), each segment followed by its
    side's separator, a symbol the other side never has. An n-gram's key is its segment and its
    symbol at order 1, after that the rank of its (n-1)-gram prefix and its last symbol; under
    the key its position, so that one sort groups equal n-grams with the hypothesis's first.
    """
    segments = len(hyp.lengths)
    found = [np.zeros(segments, np.int64) for _ in range(top)]
    if not len(hyp.symbols) or not len(ref.symbols):
        return found
    symbols = np.concatenate((hyp.symbols, ref.symbols))
    highest = int(symbols.max())
    size = len(symbols) + 2 * segments
    places = size.bit_length()
    if 2 * places + (highest + 2).bit_length() > _BITS:
        [symbols], count = _dense([symbols])
        highest = count - 1
        if 2 * places + (highest + 2).bit_length() > _BITS:
            return None
    width = (highest + 2).bit_length()
    lengths = np.concatenate((hyp.lengths, ref.lengths)) + 1  # with the separator
    segment = np.repeat(np.tile(np.arange(segments), 2), lengths)  # of each position
    ends = np.cumsum(lengths) - 1  # the separators' places
    joined = np.empty(size, np.int64)
    token = np.ones(size, bool)
    token[ends] = False
    joined[token] = symbols
    joined[ends[:segments]] = highest + 1
    joined[ends[segments:]] = highest + 2
    in_ref = len(hyp.symbols) + segments  # the first of the reference's positions
    low = (1 << places) - 1
    tagged = segment << (width + places)
    tagged |= joined << places
    tagged |= np.arange(size)
    for n in range(1, top + 1):
        tagged.sort()
        place = tagged & low
        new = np.empty(len(tagged), bool)  # where a run of one n-gram begins (after the first)
        new[0] = False
        np.greater(tagged[1:] ^ tagged[:-1], low, out=new[1:])
        # where a run has both sides' (its positions in order: the hypothesis's first), the
        # hypothesis's last
        in_hyp = place < in_ref
        crossing = in_hyp[:-1] > in_hyp[1:]
        crossing &= ~new[1:]
        last = np.flatnonzero(crossing)
        if not len(last):
            break
        run = np.cumsum(new, dtype=np.int32)  # each position's run: its n-gram's rank
        bounds = np.append(np.flatnonzero(new), len(tagged))  # where each run after the first begins; the end
        shared = run[last]
        first = np.where(shared > 0, bounds[shared - 1], 0)
        common = np.minimum(last + 1 - first, bounds[shared] - last - 1)
        found[n - 1] = np.bincount(segment[place[last]], weights=common, minlength=segments).astype(np.int64)
        if n == top:
            break
        # the positions of n-grams on both sides, and their n-grams' ranks
        both = np.zeros(len(bounds), bool)
        both[shared] = True
        kept = np.flatnonzero(both[run])
        at = place[kept]
        matched = np.zeros(size + 1, bool)
        matched[at] = True
        rank = np.empty(size, np.int64)
        rank[at] = run[kept]
        positions = at[np.flatnonzero(matched[at + 1])]
        if not len(positions):
            break
        tagged = rank[positions] << (width + places)
        tagged |= joined[positions + n] << places
        tagged |= positions
    return found


def clipped(sides: Sequence[Side], orders: Sequence[int]) -> dict[int, np.ndarray]:
    """``{n: matches}`` for each n in ``orders``: per segment, how many of the hypothesis's
    n-grams match, each clipped to its largest count in any one reference (BLEU's clipping)."""
    if len(sides) == 2:
        return {n: found[0] for n, found in matches(sides, orders).items()}
    segments = len(sides[0].lengths)
    return {n: _ceiling_common(keys[0], starts, keys[1:], segments) for n, keys, starts, _ in _keyed(sides, orders)}


def _keyed(sides: Sequence[Side], orders: Sequence[int]) -> Iterator[tuple[int, list[np.ndarray], np.ndarray, int]]:
    """For each n in ``orders``: n, every side's n-gram keys, where each hypothesis segment's keys
    begin, and how many low bits the keys use."""
    segments = len(sides[0].lengths)
    dense, count = _dense([s.symbols for s in sides])
    # Each segment ends with a separator, the hypothesis's another than the references': an
    # n-gram across segments has one, so it matches nothing and needs no masking out.
    width = max(1, (count + 1).bit_length())
    symbols = [_separated(x, s.lengths, count + min(i, 1)) for i, (x, s) in enumerate(zip(dense, sides))]
    keys = [np.repeat(np.arange(segments, dtype=np.int64), s.lengths + 1) for s in sides]  # order 0: the segment
    starts = np.concatenate(([0], np.cumsum(sides[0].lengths + 1)[:-1]))  # of each hypothesis segment
    used = max(1, segments.bit_length())
    for n in range(1, max(orders) + 1):
        if used + width > _BITS:
            keys, used = _ranked(keys)
        keys = [(k[: max(len(x) - n + 1, 0)] << width) | x[n - 1 :] for k, x in zip(keys, symbols)]
        used += width
        if n in orders:
            yield n, keys, starts, used


def _separated(symbols: np.ndarray, lengths: np.ndarray, separator: int) -> np.ndarray:
    out = np.full(len(symbols) + len(lengths), separator, np.int64)
    out[np.arange(len(symbols)) + np.repeat(np.arange(len(lengths)), lengths)] = symbols
    return out


def _common(hyp: np.ndarray, starts: np.ndarray, ref: np.ndarray, segments: int, used: int) -> np.ndarray:
    """Per segment, the size of the multiset intersection of its hypothesis and reference keys
    (``starts``: where each segment's keys begin in ``hyp``)."""
    if not len(hyp) or not len(ref):
        return np.zeros(segments, np.int64)
    if 1 << used <= 4 * (len(hyp) + len(ref)):
        # few possible keys (unigrams, mostly): count every one, no sorting
        space = 1 << used
        common = np.minimum(np.bincount(hyp, minlength=space), np.bincount(ref, minlength=space))
        shared = np.flatnonzero(common > 0)
        return np.bincount(_segments_of(shared, hyp, starts), weights=common[shared], minlength=segments).astype(np.int64)
    # one sort of both sides, each key tagged with its side in the lowest bit
    keys, common = _shared(np.sort(np.concatenate((hyp << 1, (ref << 1) | 1))))
    shared = common.nonzero()[0]
    return np.bincount(_segments_of(keys[shared], hyp, starts), weights=common[shared], minlength=segments).astype(np.int64)


def _shared(merged: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Of sorted keys tagged with their side in the lowest bit (1: the reference's), each
    distinct key and how many times both sides have it (the lesser of its two counts)."""
    # (array methods and operators: numpy's function wrappers cost as much as a segment's work)
    base = merged >> 1
    bounds = np.concatenate(([True], base[1:] != base[:-1], [True])).nonzero()[0]  # runs of one key
    refs_before = np.concatenate(([0], (merged & 1).cumsum()))[bounds]
    from_ref = refs_before[1:] - refs_before[:-1]
    return base[bounds[:-1]], np.minimum(bounds[1:] - bounds[:-1] - from_ref, from_ref)


def _ceiling_common(hyp: np.ndarray, starts: np.ndarray, refs: Sequence[np.ndarray], segments: int) -> np.ndarray:
    """Per segment, how many of its hypothesis keys match, each key at most as often as the
    reference that has it most often has it (``starts``: where each segment's keys begin)."""
    if not len(hyp):
        return np.zeros(segments, np.int64)
    keys, counts = np.unique(hyp, return_counts=True)
    ceiling = np.zeros_like(counts)
    for ref in map(np.sort, refs):
        ceiling = np.maximum(ceiling, np.searchsorted(ref, keys, "right") - np.searchsorted(ref, keys, "left"))
    common = np.minimum(counts, ceiling)
    shared = np.flatnonzero(common)
    return np.bincount(_segments_of(keys[shared], hyp, starts), weights=common[shared], minlength=segments).astype(np.int64)


def _dense(arrays: list[np.ndarray]) -> tuple[list[np.ndarray], int]:
    """The symbols numbered densely over the batch (so each takes as few bits as tell them
    apart), and how many there are."""
    joined = np.concatenate(arrays)
    if not len(joined):
        return arrays, 0
    top = int(joined.max())
    if top < _TABLE:
        present = np.bincount(joined, minlength=top + 1) > 0
        table = np.cumsum(present) - 1
        dense, count = table[joined], int(table[-1]) + 1
    else:
        values, dense = np.unique(joined, return_inverse=True)
        count = len(values)
    bounds = np.cumsum([0] + [len(a) for a in arrays])
    return [dense[a:b] for a, b in zip(bounds, bounds[1:])], count


def _ranked(keys: list[np.ndarray]) -> tuple[list[np.ndarray], int]:
    """Each key replaced by its rank among all sides' keys (equal keys, equal ranks; order kept)."""
    values, ranks = np.unique(np.concatenate(keys), return_inverse=True)
    bounds = np.cumsum([0] + [len(k) for k in keys])
    return [ranks[a:b].astype(np.int64) for a, b in zip(bounds, bounds[1:])], max(1, (len(values) - 1).bit_length())


def _segments_of(keys: np.ndarray, hyp: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """The segment of each of the sorted ``keys`` (keys of ``hyp``, whose segments begin at
    ``starts``). A segment is the top part of its keys, so each segment's keys are one run of
    the sorted keys, beginning with its least key."""
    starts = starts[starts < len(hyp)]  # (the last segments may have no n-gram of this order)
    least = np.minimum.reduceat(hyp, starts)
    return np.searchsorted(least, keys, side="right") - 1
