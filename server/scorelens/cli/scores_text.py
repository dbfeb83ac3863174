"""Scores as the text commands print them: sacreBLEU's score lines, the other metrics' in the
same manner, each with its signature, and the notes on known traps."""

from __future__ import annotations

import regex

from ..api.results import Bleu, Cer, Chrf, Perplexity, Rouge, Scores, Ter, Wer
from .documents import Run


def format_bleu(b: Bleu) -> str:
    """sacreBLEU's own score line."""
    precisions = "/".join(f"{p:.1f}" for p in b.precisions)
    ratio = b.sys_len / b.ref_len if b.ref_len else 0
    return (
        f"BLEU = {b.score:.2f} {precisions} (BP = {b.bp:.3f} ratio = {ratio:.3f} "
        f"hyp_len = {b.sys_len:d} ref_len = {b.ref_len:d})"
    )


def format_chrf(c: Chrf) -> str:
    """sacreBLEU's score line: ``chrF2 = 58.66``, ``chrF2++ = 56.24``."""
    return f"{c.name} = {c.score:.2f}"


def rouge_label(key: str) -> str:
    """``ROUGE-L``, ``ROUGE-Lsum``, ``ROUGE-1`` for rougeL, rougeLsum, rouge1."""
    return "ROUGE-" + key[5:]


def format_rouge(label: str, r: Rouge) -> str:
    return f"{label} = {r.fmeasure:.4f} (P = {r.precision:.4f} R = {r.recall:.4f} F = {r.fmeasure:.4f})"


def format_errors(label: str, c: Wer | Cer) -> str:
    # MER and WIL are word measures: jiwer's character output has neither
    measures = f" MER = {c.mer:.4f} WIL = {c.wil:.4f}" if label == "WER" else ""
    line = f"{label} = {c.rate:.4f} (H = {c.hits} S = {c.substitutions} D = {c.deletions} I = {c.insertions}{measures})"
    if c.hits + c.substitutions + c.deletions == 0:
        line += f"; the reference is empty, so {label} counts insertions as jiwer does"
    return line


def format_ter(t: Ter) -> str:
    # six significant digits, as many as its whole part has past that: 353.333, 1000000, never 1e+06
    digits = max(6, len(str(int(t.ref_length))))
    return f"TER = {t.score:.2f} (edits = {t.num_edits} ref_length = {t.ref_length:.{digits}g})"


def format_perplexity(p: Perplexity) -> str:
    value = "n/a (no segments)" if p.perplexity is None else f"{p.perplexity:.2f}"
    return f"PPL = {value} (log10 prob = {p.log10_prob:.2f} tokens = {p.tokens} OOV = {p.oov} model = {p.model})"


_FORMATS = {"bleu": format_bleu, "chrf": format_chrf, "ter": format_ter, "ppl": format_perplexity}


def score_lines(scores: Scores, ppl_signature: str | None = None) -> list[str]:
    """The readable summary: one line per metric, its signature indented under it (the language
    model's signature, not part of the JSON, is given apart)."""
    out = []
    for key, value in scores.metrics().items():
        if key in _FORMATS:
            line = _FORMATS[key](value)
        elif key in ("wer", "cer"):
            line = format_errors(key.upper(), value)
        else:
            line = format_rouge(rouge_label(key), value)
        out += [line, f"  {ppl_signature if key == 'ppl' else value.signature}"]
    out.append(f"segments: {scores.segments}")
    return out


def summary_lines(ev: Run) -> list[str]:
    """:func:`score_lines` of a run."""
    return score_lines(ev.results(), ev.perplexity.signature() if ev.perplexity is not None else None)


# Scripts written without spaces between words: whitespace tokenizers see whole clauses as one token.
_UNSPACED_SCRIPT = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]")
_SPACE_TOKENIZERS = ("13a", "intl", "none")


def _mostly_unspaced(text: str) -> bool:
    text = text[:100_000]  # enough to tell the script of a long file
    visible = len("".join(text.split()))
    # each letter of those scripts is 3 or 4 bytes in UTF-8: a text with fewer bytes beyond one a
    # character than that (any in Latin script) has too few of them, told without looking
    if len(text.encode("utf-8", "surrogatepass")) - len(text) <= 2 * visible / 3:
        return False
    return len(_UNSPACED_SCRIPT.findall(text)) > visible / 3


def notes(ev: Run) -> list[str]:
    """Known traps (DESIGN §2) this run fell into, so they are never silent."""
    if ev.corpus is None:
        return []
    s, config = ev.scores, ev.corpus.config
    found = []
    if s.dropped_segments and config.rouge.tokenizer_name == "rouge-score":
        found.append(dropped_note(s.dropped_segments, s.segments))
    if s.rouge_skipped:
        found.append(
            f"note: the rouge package skips {s.rouge_skipped} of {s.segments} pairs (an empty text, or one without "
            "a sentence once split at '.'), as get_scores(ignore_empty=True) does; ROUGE is the mean over the others"
        )
    # NLTK warns where its BLEU is ~0 for want of smoothing; said once a warning
    for note in dict.fromkeys(getattr(s.bleu, "notes", ())):
        found.append(f"note: NLTK's BLEU: {' '.join(note.split())}")
    bleu_tokenize = config.bleu.tokenize if s.bleu is not None else None
    if bleu_tokenize is not None and ev.tokenizer_note is not None:
        found.append(ev.tokenizer_note)
    return found + unspaced_notes(ev.documents[0].text, "the hypothesis", bleu_tokenize, s.wer is not None)


def dropped_note(dropped: int, segments: int) -> str:
    return (
        f"note: rouge-score's tokenizer dropped non-ASCII letters in {dropped} of {segments} "
        "segments (as rouge-score does); --rouge-tokenizer unicode keeps them"
    )


def unspaced_notes(text: str, what: str, bleu_tokenize: str | None, wer: bool) -> list[str]:
    """Where ``text`` (``what`` names it) is mostly in scripts written without spaces: notes on
    BLEU's tokenizer (``bleu_tokenize``, None when BLEU is not scored) and on WER (``wer``)."""
    if (bleu_tokenize is None and not wer) or not _mostly_unspaced(text):
        return []
    found = []
    if bleu_tokenize in _SPACE_TOKENIZERS:
        found.append(
            f"note: {what} is mostly Chinese, Japanese or Korean, which BLEU's {bleu_tokenize} "
            "tokenizer leaves unsegmented; -l zh, -l ja or -l ko picks the tokenizer sacreBLEU would"
        )
    if wer:
        found.append(
            "note: WER splits words at spaces only, so unsegmented text counts whole phrases as words; "
            "CER (--metrics cer) is the usual measure there"
        )
    return found
