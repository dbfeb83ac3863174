"""Writes the big-file scenario's pair: NAME.ref.en and NAME.hyp.en with LINES segments each.

Usage: python bigfile.py FOLDER [LINES] [NAME]   (defaults: 100000 lines, name "big")

The same files on every run (a seeded generator): reference segments of 8-25 words from a fixed
vocabulary, and a hypothesis that changes ~30 % of their words (substitutions, deletions,
insertions), the mix a post-editor sees. Generated at run time: 100,000 lines are not committed.
"""

import random
import sys
from pathlib import Path

SYLLABLES = "ka lo mi ne ru sa ti vo be da fe gi ho ju pe qu re so tu wa xe yo ze an el in or us".split()
CHANGE = 0.3


def vocabulary(rng: random.Random, size: int = 3000) -> list[str]:
    words = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 3))))
    return sorted(words)


def pair(lines: int, seed: int = 16) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    words = vocabulary(rng)
    references, hypotheses = [], []
    for _ in range(lines):
        reference = [rng.choice(words) for _ in range(rng.randint(8, 25))]
        hypothesis = []
        for word in reference:
            if rng.random() >= CHANGE:
                hypothesis.append(word)
                continue
            change = rng.random()
            if change < 0.6:
                hypothesis.append(rng.choice(words))
            elif change < 0.8:
                hypothesis.extend([word, rng.choice(words)])
            # else: deleted
        references.append(" ".join(reference).capitalize() + ".")
        hypotheses.append(" ".join(hypothesis).capitalize() + ".")
    return hypotheses, references


def main() -> None:
    folder = Path(sys.argv[1])
    lines = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    name = sys.argv[3] if len(sys.argv) > 3 else "big"
    hypotheses, references = pair(lines)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.hyp.en").write_text("\n".join(hypotheses) + "\n", encoding="utf-8")
    (folder / f"{name}.ref.en").write_text("\n".join(references) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
