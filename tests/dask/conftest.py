"""A two-worker Dask cluster for the tests of :mod:`scorelens.dask`, and the texts they score."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
TED = SHARED / "compare-mt"
STARTUP_S = 60  # a worker that has not joined the scheduler by then gives up, failing the fixture


@pytest.fixture(scope="module")
def client():
    """A client of a LocalCluster of 2 worker processes of 1 thread each: the default scheduler
    of the module's tests, as a user's client is of their computations."""
    import distributed  # the test module has skipped when it is missing

    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", death_timeout=STARTUP_S
        ) as cluster,
        distributed.Client(cluster, timeout=STARTUP_S) as client,
    ):
        client.wait_for_workers(2, timeout=STARTUP_S)
        yield client


@pytest.fixture(scope="module")
def ted() -> dict[str, list[str]]:
    """Real MT output (compare-mt's TED talks): two systems and a reference, line-aligned."""
    if not TED.exists():
        pytest.skip(f"shared test data not found at {TED} (expected ../shared/data next to the repository)")
    return {name: (TED / f"ted.{name}.eng").read_text(encoding="utf-8").splitlines() for name in ("sys1", "sys2", "ref")}
