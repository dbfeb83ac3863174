"""Writing a benchmark's own section of bench/RESULTS.md: each benchmark that writes there
replaces its section (appended if absent) and leaves the rest as it is. The sections stay below
``## Notes``, which bench/core.py keeps when it rewrites what is above."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path


def write_section(path: Path, heading: str, section: str) -> None:
    """Replace the section under ``heading`` (a ``## `` line) with ``section`` (which starts with it)."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    before, found, after = old.partition(f"\n{heading}\n")
    following = after.partition("\n## ")
    rest = "\n## " + following[2] if found and following[1] else ""
    path.write_text(before.rstrip("\n") + "\n\n" + section + rest, encoding="utf-8")


def publish(heading: str, script: str, argv: list[str] | None, about: str, table: str, write: str | None) -> None:
    """Print a run's table and what it measured; with ``write``, also write them as the section
    under ``heading`` of that file, with the command (``script`` and its arguments) that made them."""
    print(table, about, sep="\n\n")
    if write:
        command = shlex.join(argv if argv is not None else sys.argv[1:])
        write_section(Path(write), heading, f"{heading}\n\n`.venv/bin/python {script} {command}`\n\n{about}\n\n{table}\n")
