"""The ``run`` fixture: the CLI in-process, with its exit code and captured output."""

from __future__ import annotations

import io
import sys

import pytest

from cli_support import Result
from scorelens.cli import main


@pytest.fixture
def run(capsys, monkeypatch):
    """``run(*argv, stdin=b"...")``: the CLI's exit code and captured output."""

    def _run(*argv: str, stdin: bytes | None = None) -> Result:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
        code = main([str(a) for a in argv])
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return _run
