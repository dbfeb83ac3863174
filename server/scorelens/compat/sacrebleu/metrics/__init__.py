"""sacreBLEU 2.6's metric classes, scored by ScoreLens's core."""

from .base import Metric, Score, Signature
from .bleu import BLEU, BLEUScore, BLEUSignature
from .chrf import CHRF, CHRFScore, CHRFSignature
from .ter import TER, TERScore, TERSignature

__all__ = [
    "BLEU",
    "BLEUScore",
    "BLEUSignature",
    "CHRF",
    "CHRFScore",
    "CHRFSignature",
    "Metric",
    "Score",
    "Signature",
    "TER",
    "TERScore",
    "TERSignature",
]
