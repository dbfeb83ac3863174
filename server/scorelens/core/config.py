"""What to compute and how: one frozen value shared by the CLI and the language server."""

from __future__ import annotations

from dataclasses import dataclass, field

from .bleu import BleuConfig
from .rouge import RougeConfig

METRICS = ("bleu", "rougeL", "rougeLsum", "wer", "cer")
SEGMENTATIONS = ("line", "paragraph", "document")
WER_TRANSFORMS = ("default", "lowercase")


@dataclass(frozen=True)
class ScoringConfig:
    metrics: frozenset[str] = frozenset({"bleu", "rougeL", "wer"})
    bleu: BleuConfig = field(default_factory=BleuConfig)
    rouge: RougeConfig = field(default_factory=RougeConfig)
    wer_transform: str = "default"
    segmentation: str = "line"

    def __post_init__(self) -> None:
        unknown = set(self.metrics) - set(METRICS)
        if unknown:
            raise ValueError(f"unknown metric {sorted(unknown)[0]!r}; one of {', '.join(METRICS)}")
        if self.segmentation not in SEGMENTATIONS:
            raise ValueError(f"unknown segmentation {self.segmentation!r}; one of {', '.join(SEGMENTATIONS)}")
        if self.wer_transform not in WER_TRANSFORMS:
            raise ValueError(f"unknown WER transform {self.wer_transform!r}; one of {', '.join(WER_TRANSFORMS)}")
