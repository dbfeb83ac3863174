"""Corpus scores as one JSON object: the CLI's ``--json`` and the server's ``scorelens/scores``;
a comparison's, for ``compare --json`` and ``scorelens/compare``."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Callable

from .core import CorpusScores, FluencyScore, SegmentScores, rates
from .core.config import HUNDREDS  # noqa: F401 -- for the front ends: shown with 2 decimals, the rest with 4
from .core.wer import ErrorCounts

if TYPE_CHECKING:  # names for annotations; significance imports NumPy, which only comparing needs (startup time)
    from .core.bleu import BleuScore
    from .core.chrf import ChrfScore
    from .core.rouge import RougeScore
    from .core.significance import Comparison
    from .core.ter import TerScore


def scores_dict(s: CorpusScores) -> dict:
    """Only enabled metrics; BLEU, chrF and TER on sacreBLEU's 0-100 scale, the rest 0-1."""
    out: dict = {}
    for key, value in _families(s, ter_last=True):
        out[key] = {**figures_of(key)(value), "signature": s.signatures[key]}
    out["segments"] = s.segments
    return out


def fluency_dict(s: FluencyScore, model: str) -> dict:
    """``ppl``: the corpus perplexity (None without segments), the summed log10 probability, the tokens
    it is divided by (each segment's words + 1 for </s>), the out-of-vocabulary words, the model as named."""
    return {"perplexity": s.perplexity, "log10_prob": s.log10_prob, "tokens": s.tokens, "oov": s.oov, "model": model}


def _bleu(b: BleuScore) -> dict:
    return {"score": b.score, "precisions": list(b.precisions), "bp": b.bp, "sys_len": b.sys_len, "ref_len": b.ref_len}


def _chrf(c: ChrfScore) -> dict:
    return {"score": c.score, "char_order": c.char_order, "word_order": c.word_order, "beta": c.beta}


def _ter(t: TerScore) -> dict:
    return {"score": t.score, "num_edits": t.num_edits, "ref_length": t.ref_length}


def _rouge(r: RougeScore) -> dict:
    return {"precision": r.precision, "recall": r.recall, "fmeasure": r.fmeasure}


def _errors(key: str, value: ErrorCounts) -> dict:
    r = rates(value)
    return {
        key: r.wer,
        "hits": value.hits,
        "substitutions": value.substitutions,
        "deletions": value.deletions,
        "insertions": value.insertions,
        "mer": r.mer,
        "wil": r.wil,
    }


_FIGURES: dict[str, Callable[[Any], dict]] = {"bleu": _bleu, "chrf": _chrf, "ter": _ter, "wer": partial(_errors, "wer"), "cer": partial(_errors, "cer")}


def figures_of(key: str) -> Callable[[Any], dict]:
    """How a metric's scores (a key's, "bleu", "rouge2"...) are written: the JSON object of a
    segment's, without the corpus's signature."""
    return _FIGURES.get(key, _rouge)  # every other key is a ROUGE type's


def _families(s: CorpusScores | SegmentScores, ter_last: bool) -> list[tuple[str, Any]]:
    """The enabled metrics' scores by key, in the JSON's order: a corpus's TER comes last."""
    ter = [("ter", s.ter)]
    rouge = [("rougeL", s.rouge_l), ("rougeLsum", s.rouge_lsum), *s.rouge_n.items(), *s.rouge_wsu.items()]
    found = [("bleu", s.bleu), ("chrf", s.chrf), *([] if ter_last else ter), *rouge, ("wer", s.wer), ("cer", s.cer), *(ter if ter_last else [])]
    return [(key, value) for key, value in found if value is not None]


def segment_dict(s: SegmentScores) -> dict:
    """One segment's own figures (sentence BLEU with effective order, sentence chrF), the same keys
    as :func:`scores_dict` without the signatures."""
    return {key: figures_of(key)(value) for key, value in _families(s, ter_last=False)}


def comparison_dict(comparison: Comparison, names: list[str], key: str = "path") -> dict:
    """A paired test's results as ``compare --json`` (systems named by ``path``) and
    ``scorelens/compare`` (by ``uri``) give them: the baseline first, ``p_value`` null for it."""
    systems = []
    for name, results in zip(names, comparison.results):
        entry: dict = {key: name}
        for m in comparison.metrics:
            r = results[m]
            entry[m] = {"score": r.score, "mean": r.mean, "ci": r.ci, "p_value": r.p_value}
        systems.append(entry)
    return {"baseline": names[0], "test": comparison.test, "n": comparison.n, "seed": comparison.seed, "systems": systems}


def metric_label(key: str) -> str:
    """A metric's name as tables and lenses show it: ``BLEU``, ``chrF``, ``ROUGE-L``, ``WER``."""
    return "ROUGE-" + key[5:] if key.startswith("rouge") else {"bleu": "BLEU", "chrf": "chrF", "ter": "TER", "wer": "WER", "cer": "CER"}[key]
