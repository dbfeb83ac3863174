"""ScoreLens on the oldest NumPy it declares (pyproject.toml: ``numpy>=1.24``).

NumPy 1 promotes a float32 scalar met with a Python number to float64 (NumPy 2 keeps float32,
NEP 50), which changes sacreBLEU's bootstrap arithmetic, and with it the means and intervals
``compare`` must equal. So the significance tests and the random-text parity tests run again in
a venv of that NumPy (cached under ``.cache/oldest-numpy/``), with ScoreLens's other dependencies
and the peers as pinned for the tests. Without PyPI this is skipped, saying why; under CI=true
that is a failure.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".cache" / "oldest-numpy"
TESTS = ("tests/core/test_significance.py", "tests/core/test_random_parity.py")


def _requirements() -> tuple[str, list[str]]:
    """The declared NumPy floor as a pin, and every other dependency and test peer to install."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    floor = next(d for d in project["dependencies"] if re.match(r"numpy\b", d))
    others = [d for d in project["dependencies"] if d is not floor]
    wanted = ("pytest", "pytest-asyncio", "pytest-timeout", "hypothesis", "sacrebleu", "rouge-score", "jiwer", "mecab-python3", "ipadic")
    tests = [d for d in project["optional-dependencies"]["test"] if re.match(r"[A-Za-z0-9_.-]+", d)[0] in wanted]
    return floor.replace(">=", "==") + ".*", others + tests


def _python() -> Path:
    """The venv's interpreter, made (or remade, when the requirements changed) at first use."""
    pin, others = _requirements()
    python = VENV / "bin" / "python"
    stamp = VENV / "requirements.txt"
    wanted = "\n".join([pin, *others]) + "\n"
    if python.exists() and stamp.exists() and stamp.read_text() == wanted:
        return python
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True, timeout=120)
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "--retries", "1", "--timeout", "20", pin, *others],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if install.returncode:
        message = f"pip could not install {pin} and the rest: {install.stdout[-300:]}{install.stderr[-600:]}"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {message}")
        pytest.skip(message)
    stamp.write_text(wanted)
    return python


@pytest.mark.timeout(1200)
def test_significance_and_parity_on_the_oldest_numpy():
    python = _python()
    version = subprocess.run([str(python), "-c", "import numpy; print(numpy.__version__)"], capture_output=True, text=True, check=True).stdout
    assert version.startswith(_requirements()[0].split("==")[1].removesuffix("*"))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "server"), "PYTHONDONTWRITEBYTECODE": "1"}
    run = subprocess.run(
        [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1100,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert re.search(r"\d+ passed", run.stdout) and " failed" not in run.stdout
