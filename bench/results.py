"""Writing a benchmark's own section of bench/RESULTS.md: each benchmark that writes there
replaces its section (appended if absent) and leaves the rest as it is. The sections stay below
``## Notes``, which bench/core.py keeps when it rewrites what is above."""

from __future__ import annotations

import datetime
import os
import platform
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


def measured(load_before: tuple[float, ...], load_after: tuple[float, ...]) -> str:
    """When and on what a run was measured, and the machine's load around it."""
    return (
        f"Measured {datetime.date.today().isoformat()} on {os.cpu_count()} cores ({platform.machine()}, "
        f"{platform.python_implementation()} {platform.python_version()}); load average {load_before[0]:.1f} before, "
        f"{load_after[0]:.1f} after (a shared machine)."
    )


def publish(write: str | None, heading: str, script: str, argv: list[str] | None, about: str, table: str) -> None:
    """Print a benchmark's table and what it was measured on; with ``write``, also into its section."""
    print(table, about, sep="\n\n")
    if write:
        command = shlex.join(argv if argv is not None else sys.argv[1:])
        write_section(Path(write), heading, f"{heading}\n\n`.venv/bin/python bench/{script} {command}`\n\n{about}\n\n{table}\n")
