"""What the API returns: corpus and segment scores whose attributes read as the peers' do
(``s.bleu.score``, ``s.wer.substitutions``, ``s.rougeL.fmeasure``) and whose ``to_dict()`` is the
command line's JSON (``score --json``, a ``score -sl --json`` row) key for key, in its order."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from functools import lru_cache
from itertools import repeat
from typing import Any, ClassVar, TypeVar

T = TypeVar("T")
ROUGE_N_KEYS = tuple(f"rouge{n}" for n in range(1, 10))
ROUGE_WSU_KEYS = ("rougeW", "rougeS", "rougeSU")  # ROUGE-1.5.5's (rouge_impl "rouge-1.5.5")
# the order metrics are printed and serialised in, whatever order they were asked for in
FAMILY_ORDER = ("ppl", "bleu", "chrf", "ter", "rougeL", "rougeLsum", *ROUGE_N_KEYS, *ROUGE_WSU_KEYS, "wer", "cer")


class _Figures:
    def to_dict(self) -> dict[str, Any]:
        """The JSON object of this metric (a segment's has no ``signature``)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]
        if out.get("signature", "") is None:
            del out["signature"]
        return out


@dataclass(frozen=True)
class Bleu(_Figures):
    """BLEU on sacreBLEU's 0-100 scale: ``BLEU().corpus_score`` for a corpus, ``sentence_bleu``
    (effective order) for a segment."""

    score: float
    precisions: list[float]
    bp: float
    sys_len: int
    ref_len: int
    signature: str | None = None


@dataclass(frozen=True)
class Chrf(_Figures):
    """chrF (chrF++ with ``word_order=2``) on sacreBLEU's 0-100 scale, as ``CHRF(...)`` scores it."""

    score: float
    char_order: int
    word_order: int
    beta: int
    signature: str | None = None

    @property
    def name(self) -> str:
        """sacreBLEU's name: ``chrF2``, ``chrF2++`` (one ``+`` per word order)."""
        return f"chrF{self.beta}" + "+" * self.word_order


@dataclass(frozen=True)
class Ter(_Figures):
    """TER on sacreBLEU's scale (edits per 100 reference words), as ``TER(...)`` scores it."""

    score: float
    num_edits: int
    ref_length: float
    signature: str | None = None


@dataclass(frozen=True)
class Rouge(_Figures):
    """A ROUGE type's precision, recall and F-measure (0-1): rouge-score's ``Score`` for a pair,
    the mean over the pairs for a corpus."""

    precision: float
    recall: float
    fmeasure: float
    signature: str | None = None


@dataclass(frozen=True)
class Wer(_Figures):
    """Word error rate and its counts, as jiwer's ``process_words`` (counts summed over segments)."""

    wer: float
    hits: int
    substitutions: int
    deletions: int
    insertions: int
    mer: float
    wil: float
    signature: str | None = None

    @property
    def rate(self) -> float:
        return self.wer


@dataclass(frozen=True)
class Cer(_Figures):
    """Character error rate and its counts, as jiwer's ``process_characters``."""

    cer: float
    hits: int
    substitutions: int
    deletions: int
    insertions: int
    mer: float
    wil: float
    signature: str | None = None

    @property
    def rate(self) -> float:
        return self.cer


@dataclass(frozen=True)
class Perplexity(_Figures):
    """Perplexity under a KenLM model (``kenlm.Model.perplexity`` over the corpus's tokens); for a
    corpus also the model as named, for a segment its token count includes ``</s>``."""

    perplexity: float | None
    log10_prob: float
    tokens: int
    oov: int
    model: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.model is None:
            del out["model"]
        return out


_FAMILIES: dict[str, type[_Figures]] = {
    "ppl": Perplexity,
    "bleu": Bleu,
    "chrf": Chrf,
    "ter": Ter,
    "rougeL": Rouge,
    "rougeLsum": Rouge,
    **{key: Rouge for key in (*ROUGE_N_KEYS, *ROUGE_WSU_KEYS)},
    "wer": Wer,
    "cer": Cer,
}


@lru_cache(maxsize=None)
def _field_names(cls: type) -> tuple[frozenset[str], frozenset[str]]:
    """A dataclass's field names, and those without a default."""
    every = fields(cls)
    return frozenset(f.name for f in every), frozenset(f.name for f in every if f.default is MISSING)


def _made(cls: type[T], values: dict[str, Any]) -> T:
    """``cls(**values)`` for a frozen dataclass of these results, with its fields set at once:
    its ``__init__`` sets each through ``object.__setattr__`` (a segment's row, 23 fields, took
    3 µs that way, a third of making the row). The fields left out read the class's defaults."""
    names, required = _field_names(cls)
    if not (values.keys() <= names and required <= values.keys()):
        return cls(**values)  # the TypeError that names the field
    made = object.__new__(cls)
    made.__dict__.update(values)
    return made


def _made_alike(cls: type[T], rows: list[dict[str, Any] | None]) -> list[T | None]:
    """:func:`_made` of each row (None stays None), rows made alike, by the same code, so that the
    first one's fields stand for all: only that one is checked."""
    first = next((values for values in rows if values is not None), None)
    if first is not None:
        _made(cls, first)
    new = object.__new__
    made = []
    for values in rows:
        if values is None:
            made.append(None)
            continue
        one = new(cls)
        one.__dict__.update(values)
        made.append(one)
    return made


class _Scores:
    KEYS: ClassVar[tuple[str, ...]] = FAMILY_ORDER  # the metrics in the order the command line prints them
    _HEAD: ClassVar[tuple[str, ...]] = ()  # fields printed before the metrics

    @classmethod
    def from_dict(cls, data: dict[str, Any]):
        """From the command line's JSON object (see :meth:`to_dict`)."""
        made = {key: _made(_FAMILIES[key], value) if key in _FAMILIES else value for key, value in data.items()}
        return _made(cls, made)

    @classmethod
    def from_columns(cls, heads: list[dict[str, Any]], columns: dict[str, list[dict[str, Any] | None]]) -> list:
        """:meth:`from_dict` of each row: ``heads[i]`` and every column's i-th metric object (None
        where the segment has none), each metric's made a column at a time."""
        made = {key: _made_alike(_FAMILIES[key], values) for key, values in columns.items()}
        keys = list(made)
        rows = zip(*made.values()) if made else repeat(())
        return _made_alike(cls, [{**head, **dict(zip(keys, values))} for head, values in zip(heads, rows)])

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {key: getattr(self, key) for key in self._HEAD}
        for key in self.KEYS:
            value = getattr(self, key)
            if value is not None:
                out[key] = value.to_dict()
        return out

    def metrics(self) -> dict[str, _Figures]:
        """The metrics computed, by key, in the command line's order."""
        return {key: getattr(self, key) for key in self.KEYS if getattr(self, key) is not None}


@dataclass(frozen=True)
class Scores(_Scores):
    """A corpus's scores: one attribute per metric key (None unless computed), each with its
    ``signature``; ``to_dict()`` equals ``scorelens score --json`` for the same texts."""

    segments: int
    ppl: Perplexity | None = None
    bleu: Bleu | None = None
    chrf: Chrf | None = None
    rougeL: Rouge | None = None
    rougeLsum: Rouge | None = None
    rouge1: Rouge | None = None
    rouge2: Rouge | None = None
    rouge3: Rouge | None = None
    rouge4: Rouge | None = None
    rouge5: Rouge | None = None
    rouge6: Rouge | None = None
    rouge7: Rouge | None = None
    rouge8: Rouge | None = None
    rouge9: Rouge | None = None
    rougeW: Rouge | None = None
    rougeS: Rouge | None = None
    rougeSU: Rouge | None = None
    wer: Wer | None = None
    cer: Cer | None = None
    ter: Ter | None = None

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "segments": self.segments}


@dataclass(frozen=True)
class SegmentScores(_Scores):
    """One segment's own scores (sentence BLEU with effective order, sentence chrF, the pair's
    ROUGE, its WER counts); ``to_dict()`` equals a ``scorelens score -sl --json`` row."""

    segment: int  # 0-based
    line: int  # 1-based: the line of the hypothesis the segment (its record) starts on
    id: str | None = None  # the record's id, where the file's format has ids
    ppl: Perplexity | None = None
    bleu: Bleu | None = None
    chrf: Chrf | None = None
    ter: Ter | None = None
    rougeL: Rouge | None = None
    rougeLsum: Rouge | None = None
    rouge1: Rouge | None = None
    rouge2: Rouge | None = None
    rouge3: Rouge | None = None
    rouge4: Rouge | None = None
    rouge5: Rouge | None = None
    rouge6: Rouge | None = None
    rouge7: Rouge | None = None
    rouge8: Rouge | None = None
    rouge9: Rouge | None = None
    rougeW: Rouge | None = None
    rougeS: Rouge | None = None
    rougeSU: Rouge | None = None
    wer: Wer | None = None
    cer: Cer | None = None

    _HEAD: ClassVar[tuple[str, ...]] = ("segment", "id", "line")

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.id is None:
            del out["id"]
        return out
