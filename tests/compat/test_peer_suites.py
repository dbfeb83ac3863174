"""The peers' own test suites (sacreBLEU 2.6.0, jiwer 4.0.0, rouge-score 0.1.2, fetched from
PyPI) run against the compat modules: the tests that fail must be exactly those listed, with
their reasons, in peer_exceptions.toml.

Without PyPI the suites are skipped, saying why; under CI=true that is a failure.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from peer_exceptions import CATEGORIES, DOCS_END, DOCS_START, load, markdown
from peer_suites import PEERS, ROOT, SHARED, Unreachable, download, extract, link_shared_data, run

EXCEPTIONS = load()


@pytest.fixture(scope="session")
def sources() -> None:
    try:
        download(list(PEERS.values()))
    except Unreachable as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and the peers' suites cannot be fetched: {exc}")
        pytest.skip(f"PyPI cannot be reached, so the peers' test suites are not run: {exc}")


@pytest.mark.parametrize("name", list(PEERS))
def test_peer_suite_fails_only_the_listed_tests(name: str, sources: None) -> None:
    peer = PEERS[name]
    tests = extract(peer)
    if peer.shared_data and link_shared_data(peer, tests) is None:
        pytest.skip(f"shared test data not found at {SHARED / peer.shared_data[1]} (the {name} suite reads it)")
    outcomes = run(peer, tests)
    failing = {test for test, outcome in outcomes.items() if outcome == "failed"}
    expected = set(EXCEPTIONS.get(name, {}))
    counts = Counter(outcomes.values())
    print(f"{name} {peer.version}: {len(outcomes)} ids, {dict(counts)}")
    assert not failing - expected, f"{name}: tests failing that peer_exceptions.toml does not list: {sorted(failing - expected)}"
    assert not expected - failing, f"{name}: listed tests that no longer fail (take them off the list): {sorted(expected - failing)}"
    assert counts["passed"], f"{name}: no test passed"


def test_every_exception_has_a_category_and_a_reason() -> None:
    for peer, tests in EXCEPTIONS.items():
        assert peer in PEERS
        for test, entry in tests.items():
            assert entry["category"] in CATEGORIES, f"{peer} {test}: unknown category {entry['category']!r}"
            assert entry["reason"].strip(), f"{peer} {test}: no reason"


def test_docs_list_the_exceptions() -> None:
    docs = (ROOT / "docs" / "compat.md").read_text(encoding="utf-8")
    block = docs[docs.index(DOCS_START) : docs.index(DOCS_END) + len(DOCS_END)]
    assert block == markdown(EXCEPTIONS), "docs/compat.md's list differs: paste `python tests/compat/peer_exceptions.py`'s output"
