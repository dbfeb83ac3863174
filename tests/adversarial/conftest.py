"""Fixtures of the adversarial suite: a copy of the samples as the workspace, bounded servers.

Helpers live in :mod:`hostile` (a uniquely named module the tests import from).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hostile import ROOT, Server


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A copy of ``samples/`` as the workspace folder, with a sibling folder outside it."""
    ws = tmp_path / "ws"
    shutil.copytree(ROOT / "samples", ws)
    (tmp_path / "outside").mkdir()
    return ws


@pytest.fixture
def serve(workspace: Path):
    """``serve(settings=..., initialize=True)``: a started (and initialized) bounded server;
    every one is shut down, or killed, when the test ends."""
    started: list[Server] = []

    def start(*, root: Path | None = None, settings: dict | None = None, initialize: bool = True, **kwargs) -> Server:
        server = Server(root or workspace, settings=settings, **kwargs)
        started.append(server)
        if initialize:
            server.initialize()
        return server

    yield start
    for server in started:
        server.close()
