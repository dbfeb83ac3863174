"""A pytest plugin for the peers' suites run in a subprocess: writes each test's outcome (and
each module that could not be collected) by node id to the JSON file ``PEER_REPORT`` names."""

from __future__ import annotations

import json
import os

_outcomes: dict[str, str] = {}


def pytest_collectreport(report) -> None:
    if report.failed:
        _outcomes[report.nodeid] = "failed"


def pytest_runtest_logreport(report) -> None:
    if report.failed:
        _outcomes[report.nodeid] = "failed"
    elif report.when == "call" or report.skipped:
        _outcomes.setdefault(report.nodeid, "skipped" if report.skipped else "passed")


def pytest_sessionfinish(session) -> None:
    with open(os.environ["PEER_REPORT"], "w", encoding="utf-8") as f:
        json.dump(_outcomes, f, indent=1, sort_keys=True)
