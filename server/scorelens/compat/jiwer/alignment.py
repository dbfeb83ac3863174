"""jiwer 4's printed reports of an output's alignments and errors, character for character:
``visualize_alignment``, ``collect_error_counts`` and ``visualize_error_counts``."""

from __future__ import annotations

from collections import defaultdict
from typing import Iterator

from .process import AlignmentChunk, CharacterOutput, WordOutput

Output = WordOutput | CharacterOutput
_MARKS = {"equal": " ", "substitute": "S", "delete": "D", "insert": "I"}


def visualize_alignment(output: Output, show_measures: bool = True, skip_correct: bool = True, line_width: int | None = None) -> str:
    """Each sentence's alignment as REF, HYP and a line of marks (S, D, I; ``*`` fills a gap),
    wrapped at ``line_width`` if given; sentences aligned without error are left out if
    ``skip_correct``; then, if ``show_measures``, the counts and measures."""
    is_characters = isinstance(output, CharacterOutput)
    text = ""
    for k, (ref, hyp, chunks) in enumerate(zip(output.references, output.hypotheses, output.alignments)):
        if skip_correct and (not chunks or (len(chunks) == 1 and chunks[0].type == "equal")):
            continue
        text += f"=== SENTENCE {k + 1} ===\n\n" + _rows(ref, hyp, chunks, "" if is_characters else " ", line_width) + "\n"
    if not show_measures:
        return text[:-1]
    text += (
        f"=== SUMMARY ===\nnumber of sentences: {len(output.alignments)}\n"
        f"substitutions={output.substitutions} deletions={output.deletions} insertions={output.insertions} hits={output.hits}\n"
    )
    if isinstance(output, CharacterOutput):
        return text + f"\ncer={output.cer * 100:.2f}%\n"
    return text + "".join(f"\n{name}={getattr(output, name) * 100:.2f}%" for name in ("mer", "wil", "wip", "wer")) + "\n"


def _cells(ref: list[str], hyp: list[str], chunks: list[AlignmentChunk]) -> Iterator[tuple[str, str, str]]:
    """(reference unit, hypothesis unit, mark) of each aligned position, padded to one width."""
    for chunk in chunks:
        refs = ref[chunk.ref_start_idx : chunk.ref_end_idx]
        hyps = hyp[chunk.hyp_start_idx : chunk.hyp_end_idx]
        if chunk.type == "delete":
            hyps = ["*"] * len(refs)
        elif chunk.type == "insert":
            refs = ["*"] * len(hyps)
        for r, h in zip(refs, hyps):
            width = max(len(r), len(h), 1)
            # a gap (or a unit that is a lone "*") is drawn as a run of stars over the width
            if r == "*":
                r = "*" * width
            elif h == "*":
                h = "*" * width
            yield r.rjust(width), h.rjust(width), _MARKS[chunk.type].rjust(width)


def _rows(ref: list[str], hyp: list[str], chunks: list[AlignmentChunk], separator: str, line_width: int | None) -> str:
    """The REF, HYP and marks lines, in blocks of at most ``line_width`` characters where they fit."""
    blocks = []
    lines = ["REF: ", "HYP: ", "     "]
    for cells in _cells(ref, hyp, chunks):
        if line_width is not None and len(lines[0]) + len(cells[0]) > line_width:
            blocks.append(lines)
            lines = ["REF: ", "HYP: ", "     "]
        lines = [line + cell + separator for line, cell in zip(lines, cells)]
    blocks.append(lines)
    # each line without the separator after its last unit
    return "\n".join("".join(line[: len(line) - len(separator)] + "\n" for line in block) for block in blocks)


def collect_error_counts(output: Output) -> tuple[dict[tuple[str, str], int], dict[str, int], dict[str, int]]:
    """How often each substitution (reference units, hypothesis units), insertion and deletion
    occurs, units joined by a space (words) or nothing (characters)."""
    substitutions: defaultdict[tuple[str, str], int] = defaultdict(int)
    insertions: defaultdict[str, int] = defaultdict(int)
    deletions: defaultdict[str, int] = defaultdict(int)
    joiner = " " if isinstance(output, WordOutput) else ""
    for ref, hyp, chunks in zip(output.references, output.hypotheses, output.alignments):
        for chunk in chunks:
            refs = joiner.join(ref[chunk.ref_start_idx : chunk.ref_end_idx])
            hyps = joiner.join(hyp[chunk.hyp_start_idx : chunk.hyp_end_idx])
            if chunk.type == "insert":
                insertions[hyps] += 1
            elif chunk.type == "delete":
                deletions[refs] += 1
            elif chunk.type == "substitute":
                substitutions[(refs, hyps)] += 1
    return substitutions, insertions, deletions


def visualize_error_counts(
    output: Output, show_substitutions: bool = True, show_insertions: bool = True, show_deletions: bool = True, top_k: int | None = None
) -> str:
    """The substitutions, insertions and deletions with their counts, most frequent first (the
    ``top_k`` most frequent of each if given)."""
    substitutions, insertions, deletions = collect_error_counts(output)
    sections = [
        ("SUBSTITUTIONS", substitutions, show_substitutions),
        ("INSERTIONS", insertions, show_insertions),
        ("DELETIONS", deletions, show_deletions),
    ]
    text = ""
    for title, errors, shown in sections:
        if shown:
            text += ("\n" if text else "") + f"=== {title} ===\n" + _counts(errors, top_k)
    return text[:-1] if text.endswith("\n") else text


def _counts(errors: dict, top_k: int | None) -> str:
    if not errors:
        return "none"
    ranked = sorted(errors.items(), key=lambda item: item[1], reverse=True)[:top_k]
    width = max(max(map(len, key)) if isinstance(key, tuple) else len(key) for key, _ in ranked)
    return "".join(
        (f"{key[0]:<{width}} --> {key[1]:<{width}}" if isinstance(key, tuple) else f"{key:<{width}}") + f" = {count}x\n" for key, count in ranked
    )
