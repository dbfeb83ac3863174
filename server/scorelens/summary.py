"""Corpus scores as one JSON object: the CLI's ``--json`` and the server's ``scorelens/scores``;
a comparison's, for ``compare --json`` and ``scorelens/compare``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .core import CorpusScores, FluencyScore, SegmentScores, rates
from .core.config import HUNDREDS  # noqa: F401 -- for the front ends: shown with 2 decimals, the rest with 4
from .core.wer import ErrorCounts

if TYPE_CHECKING:  # significance imports NumPy, which only comparing needs (it costs startup time)
    from .core.significance import Comparison


def scores_dict(s: CorpusScores) -> dict:
    """Only enabled metrics; BLEU, chrF and TER on sacreBLEU's 0-100 scale, the rest 0-1."""
    out: dict = {}
    if s.bleu is not None:
        b = s.bleu
        out["bleu"] = {
            "score": b.score,
            "precisions": list(b.precisions),
            "bp": b.bp,
            "sys_len": b.sys_len,
            "ref_len": b.ref_len,
            "signature": s.signatures["bleu"],
        }
    if s.chrf is not None:
        out["chrf"] = {
            "score": s.chrf.score,
            "char_order": s.chrf.char_order,
            "word_order": s.chrf.word_order,
            "beta": s.chrf.beta,
            "signature": s.signatures["chrf"],
        }
    for key, value in (("rougeL", s.rouge_l), ("rougeLsum", s.rouge_lsum), *s.rouge_n.items(), *s.rouge_wsu.items()):
        if value is not None:
            out[key] = {
                "precision": value.precision,
                "recall": value.recall,
                "fmeasure": value.fmeasure,
                "signature": s.signatures[key],
            }
    for key, value in (("wer", s.wer), ("cer", s.cer)):
        if value is not None:
            out[key] = {**_errors(key, value), "signature": s.signatures[key]}
    if s.ter is not None:
        out["ter"] = {
            "score": s.ter.score,
            "num_edits": s.ter.num_edits,
            "ref_length": s.ter.ref_length,
            "signature": s.signatures["ter"],
        }
    out["segments"] = s.segments
    return out


def fluency_dict(s: FluencyScore, model: str) -> dict:
    """``ppl``: the corpus perplexity (None without segments), the summed log10 probability, the tokens
    it is divided by (each segment's words + 1 for </s>), the out-of-vocabulary words, the model as named."""
    return {"perplexity": s.perplexity, "log10_prob": s.log10_prob, "tokens": s.tokens, "oov": s.oov, "model": model}


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


def segment_dict(s: SegmentScores) -> dict:
    """One segment's own figures (sentence BLEU with effective order, sentence chrF), the same keys
    as :func:`scores_dict` without the signatures."""
    out: dict = {}
    if s.bleu is not None:
        b = s.bleu
        out["bleu"] = {"score": b.score, "precisions": list(b.precisions), "bp": b.bp, "sys_len": b.sys_len, "ref_len": b.ref_len}
    if s.chrf is not None:
        out["chrf"] = {"score": s.chrf.score, "char_order": s.chrf.char_order, "word_order": s.chrf.word_order, "beta": s.chrf.beta}
    if s.ter is not None:
        out["ter"] = {"score": s.ter.score, "num_edits": s.ter.num_edits, "ref_length": s.ter.ref_length}
    for key, value in (("rougeL", s.rouge_l), ("rougeLsum", s.rouge_lsum), *s.rouge_n.items(), *s.rouge_wsu.items()):
        if value is not None:
            out[key] = {"precision": value.precision, "recall": value.recall, "fmeasure": value.fmeasure}
    for key, value in (("wer", s.wer), ("cer", s.cer)):
        if value is not None:
            out[key] = _errors(key, value)
    return out


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
