"""The scoring core: text in, numbers and spans out. No I/O, no LSP types."""

from .bleu import BleuConfig, BleuScore
from .chrf import ChrfConfig, ChrfScore
from .config import METRICS, SEGMENTATIONS, WER_TRANSFORMS, ScoringConfig
from .corpus import Corpus
from .findings import Finding
from .fluency import Fluency, FluencyConfig, FluencyScore
from .rouge import RougeConfig, RougeScore
from .scores import CorpusScores, SegmentScores
from .ter import TerConfig, TerScore
from .text import split_lines
from .tokenizers import TokenizerUnavailable
from .wer import ErrorCounts, ErrorRates, rates

__all__ = [
    "METRICS",
    "SEGMENTATIONS",
    "WER_TRANSFORMS",
    "BleuConfig",
    "BleuScore",
    "ChrfConfig",
    "ChrfScore",
    "Corpus",
    "CorpusScores",
    "ErrorCounts",
    "ErrorRates",
    "Finding",
    "Fluency",
    "FluencyConfig",
    "FluencyScore",
    "RougeConfig",
    "RougeScore",
    "ScoringConfig",
    "SegmentScores",
    "TerConfig",
    "TerScore",
    "TokenizerUnavailable",
    "rates",
    "split_lines",
]
