"""Real editors driven headless, each loading exactly the configuration docs/editors.md gives for
it (helpers and the ``installed`` fixture, in a uniquely named module the tests import from).

Every editor gets the same small pair, whose first line has an emoji (two UTF-16 units, four
UTF-8 bytes) and a CJK word (one unit, three bytes) before its first finding, so a column
counted in the wrong unit lands on the wrong word. ``install.sh`` installs the Debian editors
once per session; an editor that is still missing skips its test with the reason, or fails it
under ``CI=true``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EDITORS_DOC = ROOT / "docs" / "editors.md"
BIN = Path(sys.executable).parent  # `scorelens` as docs/editors.md's configurations start it: from PATH

HYPOTHESIS = (
    "The mayor 😀 visited 東京 on Monday and spoke with the press.\n"
    "Three new tram lines should be built until 2032.\n"
    "The tickets stay cheap.\n"
)
REFERENCE = (
    "The mayor 😀 visited 東京 on Monday and talked to the press.\n"
    "Three new tram lines will be built by 2032.\n"
    "The tickets stay cheap.\n"
)
FIRST_FINDING = "spoke with"  # a substitution: "talked to"


@dataclass(frozen=True)
class Finding:
    """Where FIRST_FINDING starts on line 0, in each unit an editor may count columns in."""

    chars: int
    utf16: int
    utf8: int


def first_finding() -> Finding:
    line = HYPOTHESIS.splitlines()[0]
    before = line[: line.index(FIRST_FINDING)]
    return Finding(len(before), len(before.encode("utf-16-le")) // 2, len(before.encode("utf-8")))


def doc_block(language: str, first_line: str) -> str:
    """docs/editors.md's fenced ``language`` block whose first line contains ``first_line``."""
    for block in re.findall(rf"```{language}\n(.*?)```", EDITORS_DOC.read_text(encoding="utf-8"), re.S):
        if first_line in block.splitlines()[0]:
            return block
    raise AssertionError(f"docs/editors.md has no {language} block starting with {first_line!r}")


@pytest.fixture(scope="session")
def installed() -> str:
    """Runs install.sh once; what it says is still missing ("" when nothing)."""
    try:
        done = subprocess.run([str(HERE / "install.sh")], capture_output=True, text=True, timeout=1500)
    except subprocess.TimeoutExpired:
        return "install.sh timed out"
    return "; ".join(line for line in done.stdout.splitlines() if line.startswith("missing:"))


def require(program: str | None, what: str, installed: str) -> str:
    """The program's path, or a skip (a failure under CI=true) naming what is missing."""
    if program:
        return program
    reason = f"{what} not found" + (f" (tests/editors/install.sh: {installed})" if installed else "")
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI=true: the editor tests must run")
    pytest.skip(reason)


def make_workspace(folder: Path) -> Path:
    """The pair, in ``folder``/ws."""
    ws = folder / "ws"
    ws.mkdir()
    (ws / "talk.hyp.en").write_text(HYPOTHESIS, encoding="utf-8")
    (ws / "talk.ref.en").write_text(REFERENCE, encoding="utf-8")
    return ws


def editor_env(home: Path, **extra: str) -> dict[str, str]:
    """A private HOME and XDG folders, and ScoreLens on PATH."""
    return {
        **os.environ,
        "PATH": os.pathsep.join([str(BIN), os.environ.get("PATH", "")]),
        "HOME": str(home),
        **{f"XDG_{kind}_HOME": str(home / kind.lower()) for kind in ("CONFIG", "DATA", "STATE", "CACHE")},
        **extra,
    }


class Terminal:
    """One program in a detached tmux session of its own (a private server socket)."""

    def __init__(self, command: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.tmux = [shutil.which("tmux") or "tmux", "-L", f"scorelens-{uuid.uuid4().hex[:8]}"]
        subprocess.run(
            [*self.tmux, "-f", "/dev/null", "new-session", "-d", "-x", "200", "-y", "50", "-c", str(cwd), *command],
            env=env, check=True, timeout=30,
        )

    def alive(self) -> bool:
        return subprocess.run([*self.tmux, "has-session"], capture_output=True, timeout=30).returncode == 0

    def send_keys(self, *keys: str) -> None:
        subprocess.run([*self.tmux, "send-keys", *keys], capture_output=True, timeout=30)

    def screen(self) -> str:
        done = subprocess.run([*self.tmux, "capture-pane", "-p"], capture_output=True, text=True, timeout=30)
        return done.stdout

    def wait_until_gone(self, timeout: float, poke=None) -> bool:
        """Waits for the program to exit, calling ``poke`` every second meanwhile."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                return True
            if poke is not None:
                poke()
            time.sleep(1)
        return False

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True, timeout=30)
