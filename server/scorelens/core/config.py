"""What to compute and how: one frozen value shared by the CLI and the language server."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .bleu import BleuConfig
from .bleu_nltk import NltkBleuConfig
from .chrf import ChrfConfig
from .flavours import (
    BLEU_FLAVOURS,
    BLEU_IMPLS,
    ROUGE_FLAVOURS,
    ROUGE_IMPLS,
    ROUGE_WSU,
    RougeScoreWsu,
)
from .rouge import ROUGE_N, RougeConfig
from .rouge155 import Rouge155Config
from .ter import TerConfig
from .wer_normalizers import NORMALIZERS, normalizing
from .wer_steps import WordMap, is_steps, map_paths, parse, signature_name

METRICS = ("bleu", "rougeL", "rougeLsum", "wer", "cer", "chrf", "ter", *ROUGE_N)
HUNDREDS = ("bleu", "chrf", "ter")  # metrics on sacreBLEU's 0-100 scale; the rest are on 0-1
# metrics whose corpus figure of a text against another is the other's against it (an F-measure:
# precision and recall swap)
SYMMETRIC = ("rougeL", *ROUGE_N)
# the metrics annotators are measured against each other by (scorelens agree and the editor alike):
# those whose default implementation has sentence-level figures to rank segments by
AGREEMENT_METRICS = ("bleu", "chrf", "ter", "rougeL", "rougeLsum", *ROUGE_N, "wer", "cer")
# ROUGE-1.5.5's measures beyond ROUGE-N and -L: computed by its flavour, and over rouge-score's
# tokens as an extension (core/rouge_wsu); kept apart, as no peer of rouge-score's computes them
FLAVOUR_METRICS = ROUGE_WSU
SEGMENTATIONS = ("line", "paragraph", "document")
# jiwer's wer_contiguous / cer_contiguous: its default, a segment's lines joined by a space (one sentence)
CONTIGUOUS = ("wer_contiguous", "cer_contiguous")
# jiwer's default transform, after lowercasing, or after a Whisper normaliser (core/wer_normalizers)
WER_TRANSFORMS = ("default", "lowercase", *CONTIGUOUS, *NORMALIZERS)
# how WER aligns words: as jiwer (plain words) or as NIST sclite (its notation, costs and ties:
# core/wer_sclite); sclite-optional is sclite -D: a word in parentheses may be left out at no cost
WER_RULES = ("jiwer", "sclite", "sclite-optional")


def wer_transform(name: str) -> str:
    """A WER transform's name, checked: one of :data:`WER_TRANSFORMS` or a comma list of jiwer's
    steps (core/wer_steps); a ValueError says which part is unknown."""
    if is_steps(name):
        parse(name)
    elif name not in WER_TRANSFORMS:
        raise ValueError(f"unknown WER transform {name!r}; one of {', '.join(WER_TRANSFORMS)}, or a comma list of jiwer's steps")
    return name


class ConfigError(ValueError):
    """Settings that do not go together; :attr:`field` names the one the message is about."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class ScoringConfig:
    metrics: frozenset[str] = frozenset({"bleu", "rougeL", "wer"})
    bleu: BleuConfig = field(default_factory=BleuConfig)
    rouge: RougeConfig = field(default_factory=RougeConfig)
    chrf: ChrfConfig = field(default_factory=ChrfConfig)
    ter: TerConfig = field(default_factory=TerConfig)
    wer_transform: str = "default"
    # the word maps the transform's substitute:PATH steps name, read by the front end
    wer_word_maps: tuple[WordMap, ...] = ()
    wer_rules: str = "jiwer"
    # how sclite's rules fold case: sclite's ASCII default, or an ``-e utf-8 PROFILE`` table
    # (core/wer_sclite FOLDS); jiwer's rules ignore it
    sclite_case: str = "ascii"
    segmentation: str = "line"
    # segments of several lines made before the texts got here (as paragraphs or documents are):
    # WER and CER read their lines as segmentation paragraph|document would
    lines_joined: bool = False
    bleu_impl: str = "sacrebleu"  # or a flavour's name (core/flavours)
    nltk_bleu: NltkBleuConfig = field(default_factory=NltkBleuConfig)  # with bleu_impl "nltk"
    rouge_impl: str = "rouge-score"  # or a flavour's name (core/flavours)
    # with rouge_impl "rouge-1.5.5": its options (w, skip, mode, stem, stopwords); which measures
    # it computes follows the metrics
    rouge155: Rouge155Config = field(default_factory=lambda: Rouge155Config(w="1.2", skip=4))

    def __post_init__(self) -> None:
        unknown = set(self.metrics) - set(METRICS) - set(FLAVOUR_METRICS)
        if unknown:
            raise ValueError(f"unknown metric {sorted(unknown)[0]!r}; one of {', '.join(METRICS + FLAVOUR_METRICS)}")
        if self.segmentation not in SEGMENTATIONS:
            raise ValueError(f"unknown segmentation {self.segmentation!r}; one of {', '.join(SEGMENTATIONS)}")
        try:
            wer_transform(self.wer_transform)
        except ValueError as e:
            raise ConfigError("wer_transform", str(e)) from None
        unread = set(map_paths(self.wer_transform)) - {m.path for m in self.wer_word_maps}
        if unread:
            raise ConfigError("wer_transform", f"the word map {min(unread)} of the WER transform was not read")
        if self.wer_rules not in WER_RULES:
            raise ValueError(f"unknown WER rules {self.wer_rules!r}; one of {', '.join(WER_RULES)}")
        if self.sclite_case != "ascii":
            from .wer_sclite import FOLDS

            if self.sclite_case not in FOLDS:
                raise ConfigError("sclite_case", f"unknown sclite case table {self.sclite_case!r}; one of {', '.join(FOLDS)}")
        if self.bleu_impl not in BLEU_IMPLS:
            raise ConfigError("bleu_impl", f"unknown BLEU implementation {self.bleu_impl!r}; one of {', '.join(BLEU_IMPLS)}")
        if self.rouge_impl not in ROUGE_IMPLS:
            raise ConfigError("rouge_impl", f"unknown ROUGE implementation {self.rouge_impl!r}; one of {', '.join(ROUGE_IMPLS)}")
        rouge_keys = sorted(k for k in self.metrics if k.startswith("rouge"))
        if self.rouge_impl in ROUGE_FLAVOURS:
            kept = ROUGE_FLAVOURS[self.rouge_impl].KEYS
            other = [k for k in rouge_keys if k not in kept]
            if other:
                raise ConfigError("metrics", f"rouge_impl {self.rouge_impl!r} has no {other[0]}; it computes {', '.join(kept)}")
        if (normalizing(self.wer_transform) or self.wer_transform in CONTIGUOUS) and self.wer_rules != "jiwer":
            # sclite reads its own notation in the texts as written; a normaliser would rewrite it
            raise ConfigError("wer_transform", f"the {self.wer_transform} transform is for jiwer's rules, not {self.wer_rules}'s")

    @property
    def wer_contiguous(self) -> bool:
        """Whether WER and CER read a segment's lines as one sentence joined by spaces, as jiwer's
        ``wer_contiguous`` / ``cer_contiguous`` (``ReduceToSingleSentence``): when asked, and for
        segments of several lines (a newline would otherwise be part of a word, as jiwer's default reads it)."""
        return self.wer_rules == "jiwer" and (self.wer_transform in CONTIGUOUS or self.segmentation != "line" or self.lines_joined)

    def wer_transform_name(self, unit: str) -> str:
        """The transform a WER (``unit`` word) or CER (char) signature names: jiwer's own
        contiguous transform's name where it is one, else ``+contiguous`` after the transform."""
        name = self.wer_transform
        if is_steps(name):
            name = signature_name(name, self.wer_word_maps)  # its steps joined by +
        if not self.wer_contiguous or name in NORMALIZERS:  # a normaliser turns a newline into a space itself
            return name
        if name in ("default", *CONTIGUOUS):
            return "wer_contiguous" if unit == "word" else "cer_contiguous"
        return f"{name}+contiguous"

    @cached_property
    def bleu_flavour(self):
        """BLEU's flavour (a :mod:`.flavours` class), None for sacreBLEU's own."""
        if self.bleu_impl == "sacrebleu":
            return None
        return BLEU_FLAVOURS[self.bleu_impl](self.nltk_bleu)

    @property
    def bleu_tokenizing(self):
        """BLEU's tokenizer, and whether it lowercases first (its flavour's, if any)."""
        flavour = self.bleu_flavour
        if flavour is not None:
            return flavour.tokenizer, flavour.lowercase
        return self.bleu.tokenizer, self.bleu.lowercase

    @property
    def bleu_order(self) -> int:
        """BLEU's n-gram order: its statistics are hyp_len, ref_len and a count and total per order."""
        flavour = self.bleu_flavour
        return flavour.order if flavour is not None else self.bleu.max_ngram_order

    @cached_property
    def rouge_flavour(self):
        """ROUGE's flavour (a :mod:`.flavours` class, set up for the enabled ROUGE metrics), None
        for rouge-score's own or without ROUGE."""
        keys = [k for k in METRICS + FLAVOUR_METRICS if k.startswith("rouge") and k in self.metrics]
        if self.rouge_impl == "rouge-score" or not keys:
            return None
        return ROUGE_FLAVOURS[self.rouge_impl](keys, self.rouge_n, self.rouge155)

    @cached_property
    def rouge_wsu_extension(self) -> RougeScoreWsu | None:
        """ROUGE-W/S/SU over rouge-score's tokens (core/rouge_wsu), where they are enabled with
        rouge-score's ROUGE; None otherwise (a flavour computes its own)."""
        if self.rouge_impl != "rouge-score" or not self.rouge_wsu:
            return None
        return RougeScoreWsu(self.rouge_wsu, self.rouge, self.rouge155)

    @cached_property
    def rouge_wsu(self) -> tuple[str, ...]:
        """The enabled ROUGE-W, ROUGE-S and ROUGE-SU, in that order."""
        return tuple(key for key in ROUGE_WSU if key in self.metrics)

    @cached_property
    def rouge_n(self) -> tuple[str, ...]:
        """The enabled ROUGE-N types, shortest n first."""
        return tuple(key for key in ROUGE_N if key in self.metrics)
