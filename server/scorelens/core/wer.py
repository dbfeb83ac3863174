"""WER, MER, WIL and CER as jiwer 4 computes them.

The alignment comes from rapidfuzz's Levenshtein opcodes called exactly as jiwer calls them
(reference first), so hits/S/D/I and their positions equal jiwer's, ties included. Corpus
figures come from summed counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from rapidfuzz.distance import Levenshtein

from .. import __version__

if TYPE_CHECKING:
    import numpy as np

Opcode = tuple[str, int, int, int, int]  # tag, ref_start, ref_end, hyp_start, hyp_end


@dataclass(frozen=True, slots=True)
class ErrorCounts:
    """The sufficient statistics of the WER family; they add up over segments."""

    hits: int = 0
    substitutions: int = 0
    deletions: int = 0
    insertions: int = 0

    def __add__(self, other: ErrorCounts) -> ErrorCounts:
        return ErrorCounts(
            self.hits + other.hits,
            self.substitutions + other.substitutions,
            self.deletions + other.deletions,
            self.insertions + other.insertions,
        )

    def __sub__(self, other: ErrorCounts) -> ErrorCounts:
        return ErrorCounts(
            self.hits - other.hits,
            self.substitutions - other.substitutions,
            self.deletions - other.deletions,
            self.insertions - other.insertions,
        )

    @property
    def ref_len(self) -> int:
        return self.hits + self.substitutions + self.deletions

    @property
    def hyp_len(self) -> int:
        return self.hits + self.substitutions + self.insertions


@dataclass(frozen=True, slots=True)
class ErrorRates:
    wer: float
    mer: float
    wil: float
    wip: float


def alignment(ref: Sequence[str], hyp: Sequence[str]) -> list[Opcode]:
    return [tuple(op) for op in Levenshtein.opcodes(ref, hyp)]


def tally(ref: Sequence, hyp: Sequence) -> tuple[int, int, int, int]:
    """(hits, substitutions, deletions, insertions) of jiwer's alignment, as a plain tuple.

    Counted from rapidfuzz's edit operations, from which its opcodes (jiwer's alignment) are made,
    without a Python object per operation: applied to a reference of ones and a hypothesis of NULs,
    they put a NUL wherever a token comes from the hypothesis (a substitution or an insertion);
    with the operations' number and the lengths (D - I = |ref| - |hyp|), that gives every count.
    """
    ops = Levenshtein.editops(ref, hyp)
    from_hyp = ops.apply("\x01" * len(ref), "\x00" * len(hyp)).count("\x00")
    dels = len(ops) - from_hyp
    ins = dels - len(ref) + len(hyp)
    subs = from_hyp - ins
    return len(ref) - subs - dels, subs, dels, ins


def counts(ref: Sequence[str], hyp: Sequence[str]) -> ErrorCounts:
    return ErrorCounts(*tally(ref, hyp))


def rates(c: ErrorCounts) -> ErrorRates:
    """jiwer's formulas, with its conventions for an empty reference (WER = insertions)."""
    errors = c.substitutions + c.deletions + c.insertions
    if c.ref_len == 0:
        if c.hyp_len == 0:
            return ErrorRates(float(c.insertions), 0.0, 0.0, 1.0)
        return ErrorRates(float(c.insertions), 1.0, 1.0, 0.0)
    wip = (c.hits / c.ref_len) * (c.hits / c.hyp_len) if c.hyp_len else 0.0
    return ErrorRates(errors / c.ref_len, errors / (c.ref_len + c.insertions), 1 - wip, wip)


def wers_of(counts: np.ndarray) -> np.ndarray:
    """:func:`rates`' WER of each row of ``counts`` (hits, substitutions, deletions, insertions):
    the same floats."""
    import numpy as np

    errors = counts[:, 1] + counts[:, 2] + counts[:, 3]
    ref_len = counts[:, 0] + counts[:, 1] + counts[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(ref_len == 0, counts[:, 3].astype(float), errors / ref_len)


def signature(unit: str, transform: str, nrefs: int, rules: str = "jiwer", case: str = "ascii") -> str:
    """The family's signature; sclite's rules are named where they replace jiwer's, and their case
    table where it is not sclite's default."""
    rules_part = [f"rules:{rules}"] if rules != "jiwer" else []
    if rules != "jiwer" and case != "ascii":
        rules_part.append(f"case:{case}")
    return "|".join([f"nrefs:{min(nrefs, 1)}", f"unit:{unit}", f"transform:{transform}", *rules_part, f"version:scorelens-{__version__}"])
