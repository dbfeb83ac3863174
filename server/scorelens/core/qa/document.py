"""A document's QA kept up to date through edits: each pair's checks, cached by its texts, and
the two checks that look across the document.

- inconsistent: segments whose sources are the same (case and spaces aside) and whose
  hypotheses are not (likewise). The translation most segments have is the document's; the
  others are flagged, each pointing at the first segment of the majority's (a tie goes to the
  translation that comes first in the document).
- length-ratio: ``log((len(hypothesis) + 5) / (len(source) + 5))`` (stripped, in characters)
  far from the document's, by the modified z-score, on either side (much shorter: something left
  out; much longer: something added), and 1.5 times or a 1.5th of the median at the least. The 5
  characters added, and pairs under 10 characters on both sides not flagged, keep short segments'
  ratios from standing out. Pairs with a blank side are left out.

An edit splices lists, updates an index of sources and their translations and a sorted sample of
ratios (O(log n) to ask its median and spread): a one-segment edit costs that segment's checks.
Positions, which an inserted or removed line shifts, are found again (O(n)) only when an
inconsistent segment's other segment is asked for after such an edit.
"""

from __future__ import annotations

import itertools
import math
from array import array
from collections import Counter
from dataclasses import replace
from typing import Iterable, Sequence

from ..outliers import RunningSample
from .codes import Code, check_codes
from .model import PREFIX, QAConfig, QAFinding
from .segment import BOM, check_segment
from .spans import quote

# Lengths are smoothed by this many characters (added to both), and a pair shorter than SHORT on
# both sides is counted but not flagged: a few characters ("1862" -> "1862年", "OK" -> "Gut")
# say too little for a ratio to stand out, while a sentence cut to one word still does.
SMOOTHING = 5
SHORT = 10
# A ratio is far only this far from the document's median, at the least (1.5 times or a 1.5th), however
# little the rest spread: a few segments, or many of one ratio, make a z-score alone call 1.07× far.
FAR = math.log(1.5)


def _key(text: str) -> str:
    return " ".join(text.removeprefix(BOM).casefold().split())  # a file's byte-order mark is not its first segment's text


def _ratio(source: str, target: str) -> float:
    s, t = len(source.strip()), len(target.strip())
    return math.log((t + SMOOTHING) / (s + SMOOTHING)) if s and t else math.nan


class QADocument:
    """A document's QA, kept up to date by splices (the editor re-checks only what an edit touched)."""

    def __init__(self, config: QAConfig) -> None:
        self.config = config
        self._sources: list[str] = []
        self._targets: list[str] = []
        self._ids: list[int] = []  # a pair's identity while it stands (positions shift, ids do not)
        self._next_id = itertools.count()
        self._results: list[tuple[QAFinding, ...]] = []
        # per segment, whether its own checks found something, and whether it is long enough for its
        # length ratio to count: bytes and doubles, so flagged() scans them with NumPy (the editor
        # asks after every keystroke: a Python loop over 100,000 segments took 14 ms)
        self._found = bytearray()
        self._long = bytearray()
        self._codes: Counter[str] = Counter()  # the segment checks' findings by code, kept through splices
        self._cache: dict[tuple[str, str], tuple[QAFinding, ...]] = {}
        # inconsistency: source key -> translation key -> ids (dicts keep them in insertion order)
        self._keys: list[tuple[str, str] | None] = []
        self._translations: dict[str, dict[str, dict[int, None]]] = {}
        self._conflicted: set[str] = set()  # source keys with more than one translation
        self._majority: dict[str, tuple[str, int]] = {}  # source key -> (translation key, its first segment)
        self._position: dict[int, int] | None = {}
        # length ratios
        self._ratios = array("d")
        self._sample = RunningSample()
        self._inconsistent = "inconsistent" in config.checks
        self._lengths = "length-ratio" in config.checks

    def __len__(self) -> int:
        return len(self._sources)

    def replace(
        self, start: int, stop: int, sources: Sequence[str], targets: Sequence[str], codes: Sequence[tuple[Sequence[Code], Sequence[Code]]] | None = None
    ) -> None:
        """Segments [start, stop) become these (source, target) pairs (len(sources) == len(targets); the count may change);
        ``codes``, where the texts come from a format that has them, are each pair's inline codes (:mod:`.codes`)."""
        if len(sources) != len(targets):
            raise ValueError(f"{len(sources)} sources for {len(targets)} hypotheses")
        start, stop, _ = slice(start, stop).indices(len(self._sources))
        stop = max(start, stop)
        old_ids = self._ids[start:stop]
        new_ids = [next(self._next_id) for _ in sources]
        for i, k in zip(old_ids, self._keys[start:stop]):
            self._unindex(i, k)
        keys = [self._index(i, s, t) for i, s, t in zip(new_ids, sources, targets)] if self._inconsistent else [None] * len(sources)
        ratios = [_ratio(s, t) for s, t in zip(sources, targets)] if self._lengths else [math.nan] * len(sources)
        self._sample.replace([r for r in self._ratios[start:stop] if not math.isnan(r)], [r for r in ratios if not math.isnan(r)])
        results = [self._checked(s, t) for s, t in zip(sources, targets)]
        if codes is not None and "inline-code" in self.config.checks:
            # not cached with the texts' checks: the same texts may hold other codes
            results = [r + tuple(check_codes(s, t, *c)) for r, s, t, c in zip(results, sources, targets, codes)]
        self._codes.subtract(f.code for r in self._results[start:stop] for f in r)
        self._codes.update(f.code for r in results for f in r)
        self._results[start:stop] = results
        self._found[start:stop] = bytes(bool(r) for r in results)
        self._long[start:stop] = bytes(not (len(s.strip()) < SHORT and len(t.strip()) < SHORT) for s, t in zip(sources, targets))
        self._sources[start:stop] = sources
        self._targets[start:stop] = targets
        self._ids[start:stop] = new_ids
        self._keys[start:stop] = keys
        self._ratios[start:stop] = array("d", ratios)
        if len(new_ids) != len(old_ids):
            self._position = None  # later segments moved
            self._majority.clear()
        elif self._position is not None:
            for i in old_ids:
                del self._position[i]
            self._position.update(zip(new_ids, range(start, start + len(new_ids))))
        if len(self._cache) > 2 * len(self._sources) + 1000:  # forget pairs long gone
            self._cache = {pair: self._cache[pair] for pair in zip(self._sources, self._targets)}

    def unchecked(self, pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
        """The (source, target) pairs whose findings :meth:`replace` would have to make."""
        return [pair for pair in pairs if pair not in self._cache]

    def remember(self, pairs: Sequence[tuple[str, str]], findings: Sequence[Sequence[QAFinding]]) -> None:
        """Findings of pairs made elsewhere (by :func:`check_pairs`, in another process), for
        :meth:`replace` to take."""
        self._cache.update(zip(pairs, map(tuple, findings)))

    def _checked(self, source: str, target: str) -> tuple[QAFinding, ...]:
        found = self._cache.get((source, target))
        if found is None:
            found = self._cache[(source, target)] = tuple(check_segment(source, target, self.config))
        return found

    def _index(self, i: int, source: str, target: str) -> tuple[str, str] | None:
        if not source.strip() or not target.strip():
            return None
        s, t = _key(source), _key(target)
        group = self._translations.setdefault(s, {})
        group.setdefault(t, {})[i] = None
        if len(group) > 1:
            self._conflicted.add(s)
        self._majority.pop(s, None)
        return s, t

    def _unindex(self, i: int, key: tuple[str, str] | None) -> None:
        if key is None:
            return
        s, t = key
        group = self._translations[s]
        ids = group[t]
        del ids[i]
        if not ids:
            del group[t]
            if len(group) < 2:
                self._conflicted.discard(s)
            if not group:
                del self._translations[s]
        self._majority.pop(s, None)

    def _positions(self) -> dict[int, int]:
        if self._position is None:
            self._position = dict(zip(self._ids, range(len(self._ids))))
        return self._position

    def _majority_of(self, s: str) -> tuple[str, int]:
        """The translation most segments of source key ``s`` have (ties: the one first in the
        document), and its first segment."""
        found = self._majority.get(s)
        if found is None:
            position = self._positions()
            group = self._translations[s]
            firsts = {t: min(position[i] for i in ids) for t, ids in group.items()}
            t = min(group, key=lambda t: (-len(group[t]), firsts[t]))
            found = self._majority[s] = (t, firsts[t])
        return found

    def findings(self, segment: int) -> list[QAFinding]:
        """Its segment checks (cached by (source, target) text: unchanged pairs are not re-checked) plus the document-level ones (inconsistent, length-ratio)."""
        found = [replace(f, segment=segment) for f in self._results[segment]]
        target = self._targets[segment]
        key = self._keys[segment]
        if key is not None and key[0] in self._conflicted:
            t, other = self._majority_of(key[0])
            if key[1] != t:
                a, b = len(target) - len(target.lstrip()), len(target.rstrip())
                n = len(self._translations[key[0]][t])
                message = f"the same source is translated {quote(self._targets[other].removeprefix(BOM).strip())} elsewhere ({n} segment{'s' * (n > 1)})"
                found.append(QAFinding(PREFIX + "inconsistent", segment, a, b, target[a:b], message, other_segment=other))
        z = self._z(segment)
        if z is not None:
            source = self._sources[segment]
            a, b = len(target) - len(target.lstrip()), len(target.rstrip())
            times = len(target.strip()) / len(source.strip())
            how = "shorter" if z < 0 else "longer"
            message = f"the hypothesis is far {how} for its source than the rest of the document ({times:.2f}× the source's length)"
            found.append(QAFinding(PREFIX + "length-ratio", segment, a, b, target[a:b], message, len(source) - len(source.lstrip()), len(source.rstrip())))
        return found

    def _z(self, segment: int) -> float | None:
        """The segment's modified z-score where it is an outlier, else None."""
        r = self._ratios[segment]
        if math.isnan(r) or self._short(segment):
            return None
        median, scale = self._sample.median_and_scale()
        if not scale or abs(r - median) < FAR:
            return None
        z = (r - median) / scale
        return z if abs(z) > self.config.length_z else None

    def _short(self, segment: int) -> bool:
        return len(self._sources[segment].strip()) < SHORT and len(self._targets[segment].strip()) < SHORT

    def _outliers(self):
        """Per segment, whether its length ratio is an outlier (a NumPy mask), or None."""
        import numpy as np

        if not (self._lengths and len(self._sample)):
            return None
        median, scale = self._sample.median_and_scale()
        if not scale:
            return None
        distance = np.abs(np.frombuffer(self._ratios, dtype=np.float64) - median)
        with np.errstate(invalid="ignore"):  # NaN, a pair with a blank side, is never an outlier
            return (distance / scale > self.config.length_z) & (distance >= FAR) & np.frombuffer(self._long, dtype=np.uint8).astype(bool)

    def _minority(self) -> set[int]:
        """The segments translated otherwise than the majority of their source's."""
        if not self._conflicted:
            return set()
        position = self._positions()
        return {position[i] for s in self._conflicted for t in [self._majority_of(s)[0]] for other, ids in self._translations[s].items() if other != t for i in ids}

    def flagged(self) -> list[int]:
        """Segments with at least one finding, ascending."""
        import numpy as np

        if not self._sources:
            return []
        mask = np.frombuffer(self._found, dtype=np.uint8).astype(bool)
        outliers = self._outliers()
        if outliers is not None:
            mask |= outliers
        flagged = np.flatnonzero(mask).tolist()
        minority = self._minority()
        return sorted(minority.union(flagged)) if minority else flagged

    def counts(self) -> dict[str, int]:
        """How many findings of each code the document has (what :meth:`findings` of every
        segment would give), without making them: the editor shows it after every keystroke."""
        found = {code: n for code, n in self._codes.items() if n > 0}
        minority = len(self._minority())
        if minority:
            found[PREFIX + "inconsistent"] = minority
        outliers = self._outliers()
        if outliers is not None and outliers.any():
            found[PREFIX + "length-ratio"] = int(outliers.sum())
        return found
