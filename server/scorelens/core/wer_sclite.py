"""WER as NIST sclite (SCTK 2.10) counts it: texts in sclite's notation in, counts and the
alignment out.

sclite does not align token lists: it builds a word network from each text (an alternation
``{ a / b c / @ }`` is parallel paths, ``@`` the empty one) and aligns the two networks by
dynamic programming with its own costs (``wwd_WORD`` in SCTK's word.c), summed as C floats::

    correct 0, substitution 4, insertion/deletion 3, "@" inserted/deleted 0.001,
    "@" for "@" 1, an optionally deletable word inserted/deleted 2 (only with -D)

and its own tie-breaking (``net_dp.c``): at each cell a substitution wins when it costs no
more than a deletion and an insertion, a deletion when it costs strictly less than an
insertion; among predecessor arcs (alternatives) the first listed with the least cost wins.
Those ties decide the counts (3 substitutions cost what 2 deletions + 2 insertions do), so
they are kept exactly, down to the float rounding of sums with "@" in them.

Words are compared after sclite's case folding, which is not Unicode lowercasing: by default
only ASCII A-Z fold (sclite's 8-bit default, and ``-e utf-8`` with no profile); ``-e utf-8
<profile>`` adds a profile's table of capitals (Turkish maps I to dotless ı and İ to i).
A word's ``;tag`` suffixes are dropped (``\\;`` escapes a semicolon), a trailing ``*`` is
dropped, and ``(word)`` is a plain word unless optional deletion (sclite's ``-D``) is asked
for: then deleting it is correct (and counted as such, as sclite does). Fragments (``-F``) are
not implemented.

Pure: no I/O, no formats. Spans are code-point offsets in the text given.
"""

from __future__ import annotations

from dataclasses import dataclass
from struct import pack, unpack
from typing import Sequence

from .wer import ErrorCounts

# sclite's case tables (SCTK text.c, KCC_*): the capitals each profile folds, beyond ASCII A-Z.
# Every pair is (c, c.lower()) except Turkish I -> ı and İ -> i.
_PROFILE_CAPITALS = {
    "babel_turkish": "ÇÖÜĞŞ",
    "babel_lithuanian": "ĄČĘĖĮŠŲŪŽ",
    "babel_kurmanji": "ÇÊÎÛŞ",
    "babel_cebuano": "Ñ",
    "babel_kazakh": "АӘБВГҒДЕЁЖЗИЙКҚЛМНҢОӨПРСТУҰҮФХҺЦЧШЩЪЫІЬЭЮЯ",
    "babel_mongolian": "ЁАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯҮӨ",
    "babel_vietnamese": "ĐÁÀẢÃẠĂẮẰẲẴẶÂẤẦẨẪẬÉÈẺẼẸÊẾỀỂỄỆÍÌỈĨỊÓÒỎÕỌƠỚỜỞỠỢÔỐỒỔỖỘÚÙỦŨỤƯỨỪỬỮỰÝỲỶỸỴ",
    "babel_guarani": "ÃÁẼÉĨÍÕÓŨÚỸÝÑ",
    "ukrainian": "АӐӒҼҾӠҨӨӪҠБѪІЧҶӴҸДЂЅЏЭӬФЛӅМӍНҢӇӉРҎСҪѲГӶҔҒӺҐЃХҲӼӾЪИӤЍӢЕӖЀЁѬѤѨѴѶЈКҚӃҞҜӋЌҀѮѦЉЊОӦѠѼѾПҦѰѺӘӚҌШЩҺЙҊЎЬҮҰТҬЦЋУӰӲӮѸЄВЯѢЫӸЇЮЗҘӞЖӁҖӜӔҤҴ",
}
_ASCII = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}
_FOLDS: dict[str, dict[int, int]] = {"ascii": _ASCII, "generic": _ASCII}
for _name, _capitals in _PROFILE_CAPITALS.items():
    _FOLDS[_name] = {**_ASCII, **{ord(c): ord(c.lower()) for c in _capitals}}
_FOLDS["babel_turkish"].update({ord("I"): ord("ı"), ord("İ"): ord("i")})
# not sclite: Python's Unicode lowercasing, code point by code point (so spans still hold)
FOLDS = (*_FOLDS, "unicode", "none")

_SPACE = frozenset(" \t\n\r\f\v")  # C isspace: sclite splits at these only
_NULL = "@"


def _f32(x: float) -> float:
    """``x`` rounded to a C float: sclite sums its costs in floats, and with "@" (0.001) in
    play the rounding decides ties. (A sum of two floats is exact in a double here, so
    rounding it once equals the float addition.)"""
    return unpack("f", pack("f", x))[0]


# sclite's costs: substitution, insertion/deletion, optionally deletable, "@" inserted/deleted, "@" for "@"
_COSTS = (4, 3, 2, _f32(0.001), 1)


def fold(text: str, rule: str = "ascii") -> str:
    """``text`` as sclite compares it under case rule ``rule`` (same length as ``text``)."""
    if rule == "none":
        return text
    if rule == "unicode":
        return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    try:
        return text.translate(_FOLDS[rule])
    except KeyError:
        raise ValueError(f"unknown case rule {rule!r}; one of {', '.join(FOLDS)}") from None


@dataclass(frozen=True, slots=True)
class Step:
    """One step of an alignment: ``tag`` is "equal", "replace", "delete" or "insert"; spans are
    the word's ``(start, end)`` in the reference / hypothesis text (None on the side with no word)."""

    tag: str
    ref: tuple[int, int] | None
    hyp: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class Result:
    counts: ErrorCounts
    steps: tuple[Step, ...]


class _Net:
    """A word network: arc 0 is the null head; each other arc has a word, its span, and its
    predecessor arcs in sclite's in-arc order (alternatives as listed)."""

    __slots__ = ("words", "spans", "preds", "finals", "opt")

    def __init__(self) -> None:
        self.words: list[str | None] = [None]
        self.spans: list[tuple[int, int]] = [(0, 0)]
        self.preds: list[tuple[int, ...]] = [()]
        self.finals: tuple[int, ...] = (0,)
        self.opt: list[bool] = [False]


def _tokens(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """sclite's tokens of ``text[start:end]``: words split at whitespace, and an alternation
    ``{ ... }`` (braces nested) as one token."""
    out = []
    i = start
    while i < end:
        while i < end and text[i] in _SPACE:
            i += 1
        if i >= end:
            break
        j = i
        if text[i] == "{":
            depth = 0
            while j < end:
                depth += (text[j] == "{") - (text[j] == "}")
                j += 1
                if depth <= 0:
                    break
        else:
            while j < end and text[j] not in _SPACE:
                j += 1
        out.append((i, j))
        i = j
    return out


def _alternatives(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The alternatives of the alternation ``text[start:end]`` (braces included), split at
    ``/`` outside nested braces; empty ones are skipped, as sclite skips them."""
    inner_end = text.rfind("}", start + 1, end)
    if inner_end < 0:
        inner_end = end
    out = []
    i = start + 1
    while i < inner_end:
        while i < inner_end and (text[i] in _SPACE or text[i] == "/"):
            i += 1
        if i >= inner_end:
            break
        j, depth = i, 0
        while j < inner_end:
            c = text[j]
            if depth == 0 and c in "/}" and j > i:
                break
            depth += (c == "{") - (c == "}")
            j += 1
        out.append((i, j))
        i = j
    return out


def _word(text: str, start: int, end: int) -> str:
    """A token's word as sclite keeps it: up to its first unescaped ``;`` (tags follow),
    backslashes dropped, a trailing ``*`` dropped."""
    k = start
    while True:
        k = text.find(";", k, end)
        if k < 0 or k == start or text[k - 1] != "\\":
            break
        k += 1
    word = text[start : end if k < 0 else k].replace("\\", "")
    if len(word) > 1 and word.endswith("*"):
        word = word[:-1]
    return word


def _build(net: _Net, text: str, start: int, end: int, heads: tuple[int, ...], opt_del: bool) -> tuple[int, ...]:
    """Add the words of ``text[start:end]`` after arcs ``heads``; the arcs it ends with."""
    for a, b in _tokens(text, start, end):
        if text[a] == "{":
            ends: list[int] = []
            for x, y in _alternatives(text, a, b):
                ends += _build(net, text, x, y, heads, opt_del)
            if ends:
                heads = tuple(ends)
            continue
        word = _word(text, a, b)
        net.words.append(word)
        net.spans.append((a, b))
        net.preds.append(heads)
        net.opt.append(opt_del and len(word) >= 2 and word[0] == "(" and word[-1] == ")")
        heads = (len(net.words) - 1,)
    return heads


def network(text: str, case: str = "ascii", opt_del: bool = False) -> _Net:
    """The word network sclite builds from ``text`` (words folded by ``case``)."""
    net = _Net()
    folded = fold(text, case)
    net.finals = _build(net, folded, 0, len(folded), (0,), opt_del)
    if opt_del:  # an optionally deletable word is compared without its parentheses
        net.words = [w[1:-1] if o else w for w, o in zip(net.words, net.opt)]
    return net


def _indel(word: str | None, opt: bool) -> float:
    if word == _NULL:
        return _COSTS[3]
    return _COSTS[2] if opt else _COSTS[1]


def align(ref: str, hyp: str, case: str = "ascii", opt_del: bool = False) -> Result:
    """sclite's alignment of ``hyp`` against ``ref`` (both in sclite notation)."""
    return align_networks(network(ref, case, opt_del), network(hyp, case, opt_del))


def counts(ref: str, hyp: str, case: str = "ascii", opt_del: bool = False) -> ErrorCounts:
    return align(ref, hyp, case, opt_del).counts


def tally(ref: str, hyp: str, case: str = "ascii", opt_del: bool = False) -> tuple[int, int, int, int]:
    """(hits, substitutions, deletions, insertions), as core/wer.py's ``tally``."""
    c = align(ref, hyp, case, opt_del).counts
    return c.hits, c.substitutions, c.deletions, c.insertions


def align_networks(r: _Net, h: _Net) -> Result:
    nr, nh = len(r.words), len(h.words)
    rw, hw, rp, hp = r.words, h.words, r.preds, h.preds
    # whole costs add exactly (ints); with "@" the sums are rounded as C floats
    rounded = _NULL in rw or _NULL in hw
    f32 = _f32 if rounded else int
    SUB, NULL_SUB = _COSTS[0], _COSTS[4]
    INF = float("inf")
    cost = [[INF] * nh for _ in range(nr)]
    back = [[(-1, -1)] * nh for _ in range(nr)]
    cost[0][0] = 0
    ins = [0] + [_indel(hw[b], h.opt[b]) for b in range(1, nh)]
    dele = [0] + [_indel(rw[a], r.opt[a]) for a in range(1, nr)]
    row0 = cost[0]
    for b in range(1, nh):  # margin: insertions only
        best, bb = INF, -1
        for p in hp[b]:
            if row0[p] < best:
                best, bb = row0[p], p
        row0[b] = f32(best + ins[b])
        back[0][b] = (0, bb)
    for a in range(1, nr):
        best, ba = INF, -1
        for p in rp[a]:
            if cost[p][0] < best:
                best, ba = cost[p][0], p
        cost[a][0] = f32(best + dele[a])
        back[a][0] = (ba, 0)
    for a in range(1, nr):
        wa, da, row, brow, preds_a = rw[a], dele[a], cost[a], back[a], rp[a]
        single_a = len(preds_a) == 1
        pa0 = preds_a[0]
        for b in range(1, nh):
            preds_b = hp[b]
            # insertion: from (a, b') ; deletion: from (a', b) ; substitution: from (a', b')
            if len(preds_b) == 1:
                bi = preds_b[0]
                ins_d = row[bi]
            else:
                ins_d, bi = INF, -1
                for p in preds_b:
                    if row[p] < ins_d:
                        ins_d, bi = row[p], p
            if single_a:
                ad = pa0
                del_d = cost[pa0][b]
                if len(preds_b) == 1:
                    sa, sb, sub_d = pa0, preds_b[0], cost[pa0][preds_b[0]]
                else:
                    sub_d, sa, sb = INF, -1, -1
                    prow = cost[pa0]
                    for q in preds_b:
                        if prow[q] < sub_d:
                            sub_d, sa, sb = prow[q], pa0, q
            else:
                del_d, ad = INF, -1
                for p in preds_a:
                    if cost[p][b] < del_d:
                        del_d, ad = cost[p][b], p
                sub_d, sa, sb = INF, -1, -1
                for p in preds_a:
                    prow = cost[p]
                    for q in preds_b:
                        if prow[q] < sub_d:
                            sub_d, sa, sb = prow[q], p, q
            wb = hw[b]
            if wa == wb:
                sub_d += NULL_SUB if wa == _NULL else 0
            else:
                sub_d += SUB
            del_d += da
            ins_d += ins[b]
            if rounded:
                sub_d, del_d, ins_d = _f32(sub_d), _f32(del_d), _f32(ins_d)
            if sub_d <= del_d and sub_d <= ins_d:
                row[b] = sub_d
                brow[b] = (sa, sb)
            elif del_d < ins_d:
                row[b] = del_d
                brow[b] = (ad, b)
            else:
                row[b] = ins_d
                brow[b] = (a, bi)
    # the end: the first (ref final, hyp final) pair of least cost
    best, a, b = INF, 0, 0
    for x in r.finals:
        for y in h.finals:
            if cost[x][y] < best:
                best, a, b = cost[x][y], x, y
    return _path(r, h, back, a, b)


def _path(r: _Net, h: _Net, back: list[list[tuple[int, int]]], a: int, b: int) -> Result:
    steps: list[Step] = []
    hits = subs = dels = inss = 0
    while a > 0 or b > 0:
        pa, pb = back[a][b]
        if pa == a:  # insertion
            if h.words[b] != _NULL:
                if h.opt[b]:
                    hits += 1
                    steps.append(Step("equal", None, h.spans[b]))
                else:
                    inss += 1
                    steps.append(Step("insert", None, h.spans[b]))
        elif pb == b:  # deletion
            if r.words[a] != _NULL:
                if r.opt[a]:  # an optionally deletable word deleted is correct (-D)
                    hits += 1
                    steps.append(Step("equal", r.spans[a], None))
                else:
                    dels += 1
                    steps.append(Step("delete", r.spans[a], None))
        else:
            wa, wb = r.words[a], h.words[b]
            if not (wa == _NULL and wb == _NULL):
                if wa == wb:
                    hits += 1
                    steps.append(Step("equal", r.spans[a], h.spans[b]))
                else:
                    subs += 1
                    steps.append(Step("replace", r.spans[a], h.spans[b]))
        a, b = pa, pb
    steps.reverse()
    return Result(ErrorCounts(hits, subs, dels, inss), tuple(steps))


def words(text: str, case: str = "ascii") -> list[str]:
    """The words of the first path through ``text``'s network (for display and tests)."""
    net = network(text, case)
    return [w for w in net.words[1:] if w is not None]


__all__: Sequence[str] = ("FOLDS", "Result", "Step", "align", "counts", "fold", "network", "tally", "words")
