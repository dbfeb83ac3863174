"""Helpers for the command-line tests (a module of its own: every test folder has a ``conftest``)."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


@dataclass
class Result:
    code: int
    out: str
    err: str


def sample(relative: str) -> str:
    return str(SAMPLES / relative)


def peer_lines(path: str | Path) -> list[str]:
    """A file's segments as sacreBLEU reads them: split at newlines, no segment after the last one."""
    text = Path(path).read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def run_subprocess(*argv: str, stdin: bytes | None = None, cwd: Path | None = None, env: dict[str, str | None] | None = None) -> Result:
    """``python -m scorelens ...`` in a fresh interpreter, as a user or CI runs it; ``env``'s
    variables set (None: removed) for it."""
    changes = env or {}
    env = {k: v for k, v in {**os.environ, "PYTHONIOENCODING": "utf-8", **changes}.items() if v is not None}
    done = subprocess.run(
        [sys.executable, "-m", "scorelens", *map(str, argv)],
        input=stdin,
        capture_output=True,
        cwd=cwd or ROOT,
        env=env,
        timeout=120,
    )
    return Result(done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8"))
