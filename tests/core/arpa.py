"""A small n-gram language model estimator that writes ARPA text, for tests and the sample model.

Interpolated absolute discounting (discount D): for an n-gram ``h w`` seen ``c(h w)`` times,

    p(w | h) = max(c(h w) - D, 0) / c(h ·) + D * N(h ·) / c(h ·) * p(w | h[1:])

with ``c(h ·)`` the count of ``h`` followed by anything and ``N(h ·)`` the number of distinct words
that follow it; unigrams interpolate with a uniform distribution over the vocabulary and ``<unk>``.
Written as a backoff model, ``h``'s backoff weight is its interpolation weight ``D * N(h ·) / c(h ·)``,
so the ARPA file gives the interpolated probability of every n-gram, seen or not.

``python tests/core/arpa.py`` writes samples/lm/asr.arpa from the samples' own text.
"""

from __future__ import annotations

import math
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Iterable

BOS, EOS, UNK = "<s>", "</s>", "<unk>"


def require_kenlm():
    """The kenlm module; a skip when it is not installed, a failure under CI=true (the test extra installs it)."""
    import pytest

    if os.environ.get("CI") == "true":
        import kenlm

        return kenlm
    return pytest.importorskip("kenlm", reason="kenlm is not installed (pip install -e '.[test]' builds it)")


def estimate(sentences: Iterable[str], order: int = 3, discount: float = 0.5) -> str:
    """ARPA text of an ``order``-gram model of whitespace-tokenized ``sentences``."""
    counts: list[Counter] = [Counter() for _ in range(order + 1)]
    for sentence in sentences:
        words = [BOS, *sentence.split(), EOS]
        for n in range(1, order + 1):
            for i in range(len(words) - n + 1):
                counts[n][tuple(words[i : i + n])] += 1
    del counts[1][(BOS,)]  # <s> is context only, never predicted

    # c(h ·) and N(h ·) of every context h
    following: Counter = Counter()
    distinct: Counter = Counter()
    for n in range(2, order + 1):
        for gram, c in counts[n].items():
            following[gram[:-1]] += c
            distinct[gram[:-1]] += 1

    total = sum(counts[1].values())
    uniform = 1 / (len(counts[1]) + 1)  # the seen words and <unk>
    unseen = discount * len(counts[1]) / total
    probs: list[dict] = [{}, {gram: max(c - discount, 0) / total + unseen * uniform for gram, c in counts[1].items()}]
    probs[1][(UNK,)] = unseen * uniform
    for n in range(2, order + 1):
        lower = probs[n - 1]
        probs.append(
            {
                gram: max(c - discount, 0) / following[gram[:-1]]
                + discount * distinct[gram[:-1]] / following[gram[:-1]] * lower[gram[1:]]
                for gram, c in counts[n].items()
            }
        )

    def backoff(gram: tuple[str, ...]) -> str:
        return f"\t{math.log10(discount * distinct[gram] / following[gram]):.7g}" if gram in following else ""

    sections = [{(BOS,): -99.0, **{g: math.log10(p) for g, p in probs[1].items()}}]
    sections += [{g: math.log10(p) for g, p in probs[n].items()} for n in range(2, order + 1)]
    out = ["\\data\\", *(f"ngram {n}={len(s)}" for n, s in enumerate(sections, 1)), ""]
    for n, section in enumerate(sections, 1):
        out.append(f"\\{n}-grams:")
        for gram, logprob in sorted(section.items()):
            out.append(f"{logprob:.7g}\t{' '.join(gram)}" + (backoff(gram) if n < order else ""))
        out.append("")
    out.append("\\end\\")
    return "\n".join(out) + "\n"


def sample_sentences(root: Path) -> list[str]:
    """The lowercased lines of the ASR and MT samples: the sample model's training text."""
    lines = []
    for pattern in ("asr/*.txt", "mt/*.en"):
        for path in sorted(root.glob(pattern)):
            lines += [line.lower() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return lines


if __name__ == "__main__":
    samples = Path(__file__).resolve().parents[2] / "samples"
    target = samples / "lm" / "asr.arpa"
    target.write_text(estimate(sample_sentences(samples)), encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)
