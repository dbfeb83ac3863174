"""How scores read to a person: short labels for hints and lenses, Markdown or plain text for hovers."""

from __future__ import annotations

import math
from pathlib import PurePosixPath

from ..core import CorpusScores, RougeScore, SegmentScores, rates, wer_normalizers
from ..core import findings as codes
from ..core.corpus import LONG_SEGMENT_CHARS
from ..core.findings import differing_words
from ..core.flavours import FLAVOUR_FAILURES
from ..core.scores import segment_scores
from . import fluency, qa
from .reviews import Review


def rouge_scores(scores: SegmentScores | CorpusScores) -> list[tuple[str, RougeScore]]:
    """The enabled ROUGE figures with their labels: ROUGE-1 … ROUGE-9, ROUGE-L and ROUGE-Lsum, then
    ROUGE-1.5.5's ROUGE-W, ROUGE-S and ROUGE-SU."""
    pairs = [(f"ROUGE-{key[5:]}", r) for key, r in scores.rouge_n.items()]
    pairs += [(label, r) for label, r in (("ROUGE-L", scores.rouge_l), ("ROUGE-Lsum", scores.rouge_lsum)) if r is not None]
    pairs += [(f"ROUGE-{key[5:]}", r) for key, r in scores.rouge_wsu.items()]
    return pairs


def segment_figures(corpus, segment: int) -> SegmentScores:
    """A corpus's segment's own scores (``refused`` says why BLEU is missing, if it is)."""
    return segment_scores(corpus.config, corpus.references, corpus.statistics(segment))


def bleu_figure(score: float) -> str:
    """A BLEU score with two decimals; NLTK's method0 gives scores near 1e-300 where an order has no
    match, shown as they are rather than as 0.00."""
    return f"{score:.3g}" if 0 < score < 0.005 else f"{score:.2f}"


def corpus_notes(scores: CorpusScores) -> list[str]:
    """What the flavours say about the corpus scores, as ``scorelens score`` notes them: NLTK's
    warnings (method0: an order without a match), the pairs the ``rouge`` package skips."""
    found = [f"NLTK's BLEU: {' '.join(note.split())}" for note in dict.fromkeys(getattr(scores.bleu, "notes", ()))]
    if scores.rouge_skipped:
        found.append(
            f"the rouge package skips {scores.rouge_skipped} of {scores.segments} pairs (an empty text, or one without a "
            "sentence once split at '.'), as get_scores(ignore_empty=True) does; ROUGE is the mean over the others"
        )
    return found


def short(scores: SegmentScores | CorpusScores) -> str:
    """``BLEU 23.4 · chrF2 51.0 · TER 58.1 · ROUGE-L 0.612 · WER 25.0%``: the enabled metrics, compact."""
    parts = []
    if scores.bleu is not None:
        parts.append(f"BLEU {scores.bleu.score:.1f}")
    if scores.chrf is not None:
        parts.append(f"{scores.chrf.name} {scores.chrf.score:.1f}")
    if scores.ter is not None:
        parts.append(f"TER {scores.ter.score:.1f}")
    parts += [f"{label} {r.fmeasure:.3f}" for label, r in rouge_scores(scores)]
    if scores.wer is not None:
        parts.append(f"WER {100 * rates(scores.wer).wer:.1f}%")
    if scores.cer is not None:
        parts.append(f"CER {100 * rates(scores.cer).wer:.1f}%")
    return " · ".join(parts)


def headlines(scores: CorpusScores) -> list[tuple[str, float, int]]:
    """(label, figure as shown, its decimals) of each enabled metric: BLEU, chrF and TER 0-100,
    ROUGE F-measures 0-1, error rates in percent."""
    out = []
    if scores.bleu is not None:
        out.append(("BLEU", scores.bleu.score, 1))
    if scores.chrf is not None:
        out.append((scores.chrf.name, scores.chrf.score, 1))
    out += [(label, r.fmeasure, 3) for label, r in rouge_scores(scores)]
    if scores.wer is not None:
        out.append(("WER", 100 * rates(scores.wer).wer, 1))
    if scores.cer is not None:
        out.append(("CER", 100 * rates(scores.cer).wer, 1))
    if scores.ter is not None:
        out.append(("TER", scores.ter.score, 1))
    return out


def signed(change: float, decimals: int) -> str:
    """``+0.000031``: a change with its first two significant digits (one line of 100,000 moves a
    corpus score by about 1e-5), never fewer decimals than its figure's own plus one."""
    if abs(change) < 1e-9:  # rounding noise of float sums, not a change
        return "±0"
    places = max(decimals + 1, 1 - math.floor(math.log10(abs(change))))
    return f"{'+' if change > 0 else '−'}{abs(change):.{places}f}"


def contribution(review: Review, segment: int) -> str:
    """``BLEU +0.00031 · ROUGE-L −0.0000021 · WER +0.00057 pp``: the corpus scores with this
    segment minus without it."""
    corpus = review.corpus
    if len(corpus) < 2:
        return ""
    try:
        without_it = corpus.scores_without(segment)
    except FLAVOUR_FAILURES:  # the corpus without it is one its oracle fails on
        return ""
    parts = []
    for (label, with_it, decimals), (_, without, _) in zip(headlines(corpus.scores()), headlines(without_it)):
        unit = " pp" if label in ("WER", "CER") else ""
        parts.append(f"{label} {signed(with_it - without, decimals)}{unit}")
    return " · ".join(parts)


# How a hover marks words: Markdown for clients that list it in ``hover.contentFormat``, and
# wdiff-like brackets for plain-text clients (eglot without markdown-mode, Vim ALE).
_MARKDOWN = {"changed": ("**", "**"), "missing": ("~~", "~~"), "strong": ("**", "**")}
_PLAIN = {"changed": ("[", "]"), "missing": ("[-", "-]"), "strong": ("", "")}


def _marked(text: str, spans: list[tuple[int, int, str]], markdown: bool) -> str:
    """The text with each span wrapped in its kind's marks."""
    marks = _MARKDOWN if markdown else _PLAIN
    escape = _escape if markdown else str
    out, pos = [], 0
    for a, b, kind in sorted(spans):
        if a < pos:
            continue
        out.append(escape(text[pos:a]))
        if b > a:
            left, right = marks[kind]
            out.append(f"{left}{escape(text[a:b])}{right}")
        pos = b
    out.append(escape(text[pos:]))
    return "".join(out)


def _escape(text: str) -> str:
    return "".join("\\" + ch if ch in "\\`*_{}[]<>()#+-.!|~" else ch for ch in text)


def segment_description(review: Review, segment: int, markdown: bool = True, side: int = 0) -> str:
    """The segment's scores and aligned texts, in Markdown or in plain text."""
    corpus = review.corpus
    s = segment_figures(corpus, segment)
    signatures = corpus.scores().signatures
    left, right = _MARKDOWN["strong"] if markdown else _PLAIN["strong"]
    item = "- " if markdown else "  "
    empty = "*(empty)*" if markdown else "(empty)"
    lines = [f"{left}ScoreLens{right} · segment {segment + 1}", ""]
    if s.bleu is not None:
        b = s.bleu
        precisions = "/".join(f"{p:.1f}" for p in b.precisions)
        lines.append(
            f"{item}{left}sentence BLEU {bleu_figure(b.score)}{right} — n-gram precisions {precisions}, BP {b.bp:.3f} "
            f"(hyp {b.sys_len}, ref {b.ref_len} tokens)"
        )
        lines += [f"{item}NLTK: {' '.join(note.split())}" for note in getattr(b, "notes", ())]
    if s.refused is not None:
        lines.append(f"{item}{left}sentence BLEU{right}: none, {s.refused}")
    if s.chrf is not None:
        lines.append(f"{item}{left}sentence {s.chrf.name} {s.chrf.score:.2f}{right}")
    if s.ter is not None:
        t = s.ter
        lines.append(f"{item}{left}sentence TER {t.score:.2f}{right} — {t.num_edits} edits over {t.ref_length:g} reference words")
    for label, r in rouge_scores(s):
        lines.append(f"{item}{left}{label}{right} P {r.precision:.3f} · R {r.recall:.3f} · F {r.fmeasure:.3f}")
    if corpus.statistics(segment).rouge_skipped:
        lines.append(f"{item}ROUGE: the rouge package skips this pair (an empty text, or one without a sentence once split at '.')")
    if s.wer is not None:
        c = s.wer
        lines.append(
            f"{item}{left}WER {100 * rates(c).wer:.1f}%{right} — S {c.substitutions} · D {c.deletions} · I {c.insertions} · H {c.hits}"
        )
    if s.cer is not None:
        lines.append(f"{item}{left}CER {100 * rates(s.cer).wer:.1f}%{right}")
    lines += _normalised_texts(corpus, segment, item, markdown, empty)
    share = contribution(review, segment)
    if share:
        lines.append(f"{item}{left}corpus{right} {share} — the corpus scores with this segment minus without it")
    found = corpus.findings(segment)
    for k in range(1, corpus.references + 1):
        marks = [(f.start, f.end, "missing") for f in found if f.side == k and f.code == codes.DELETION] + [(f.other_start, f.other_end, "changed") for f in found if f.other_side == k and f.code == codes.SUBSTITUTION]
        label = "Reference" if corpus.references == 1 else f"Reference {k}"
        lines += ["", f"{label}: {_marked(corpus.text(k, segment), marks, markdown) or empty}"]
    hyp_marks = [(f.start, f.end, "changed") for f in found if f.side == 0 and f.code in (codes.SUBSTITUTION, codes.INSERTION)]
    if lines[-1]:  # (no scores above: a document checked against its source alone)
        lines.append("")
    lines.append(f"Hypothesis: {_marked(corpus.text(0, segment), hyp_marks, markdown) or empty}")
    lines += fluency.description(review, side, segment, markdown)
    if side == 0:
        lines += qa.description(review, segment, markdown, _escape if markdown else str)
    if corpus.references:  # a document checked alone (fluency only) has no marks to explain
        if markdown:
            lines += ["", "**bold**: substituted or inserted words · ~~struck~~: words the hypothesis misses"]
        else:
            lines += ["", "[word]: substituted or inserted words · [-word-]: words the hypothesis misses"]
    lines.append("")
    if markdown:
        lines += [f"`{name}: {sig}`  " for name, sig in signatures.items()]
    else:
        lines += [f"{name}: {sig}" for name, sig in signatures.items()]
    return "\n".join(lines)


def _normalised_texts(corpus, segment: int, item: str, markdown: bool, empty: str) -> list[str]:
    """What WER and CER compared, where the transform rewrites the texts (a Whisper normaliser, jiwer's
    steps): the findings sit on the original words, these are the words scored."""
    config = corpus.config
    if not ({"wer", "cer"} & config.metrics and corpus.references and wer_normalizers.normalizing(config.wer_transform)):
        return []
    escape = _escape if markdown else str
    texts = [(label, corpus.text(k, segment)) for label, k in (("reference", 1), ("hypothesis", 0))]
    return [
        f"{item}{label} as scored ({config.wer_transform}): {escape(wer_normalizers.normalize(text, config.wer_transform, config.wer_contiguous, config.wer_word_maps)) or empty}"
        for label, text in texts
    ]


def systems_description(review: Review, others, segment: int, markdown: bool = True) -> str:
    """The other systems' outputs for the segment, each with its sentence scores and the words
    where it differs from ``review``'s output marked."""
    if not others:
        return ""
    versions = [(PurePosixPath(o.uri).name, short(segment_figures(o.corpus, segment)), o.corpus.text(0, segment)) for o in others]
    return "\n\n" + versions_description("Other systems", PurePosixPath(review.uri).name, review.corpus.text(0, segment), versions, markdown)


def versions_description(title: str, this: str, mine: str, versions: list[tuple[str, str, str]], markdown: bool = True) -> str:
    """Other versions of a segment (other systems' outputs, other annotators' transcripts) under
    ``title``: each ``(name, figures, text)`` with the words where the text differs from ``mine``
    (document ``this``'s) marked."""
    left, right = _MARKDOWN["strong"] if markdown else _PLAIN["strong"]
    item = "- " if markdown else "  "
    empty = "*(empty)*" if markdown else "(empty)"
    lines = [f"{left}{title}{right}"]
    for name, figures, text in versions:
        # aligning two long segments' words would hold the loop (their alignment is quadratic)
        long = max(len(text), len(mine)) > LONG_SEGMENT_CHARS
        marks = [] if long else [(a, b, "changed") for a, b in differing_words(text, mine)]
        shown = _marked(text, marks, markdown) or empty
        lines.append(f"{item}{left}{_escape(name) if markdown else name}{right} ({figures}): {shown}")
    if markdown:
        lines += ["", f"**bold**: words that differ from {_escape(this)}"]
    else:
        lines += ["", f"[word]: words that differ from {this}"]
    return "\n".join(lines)
