"""``--jobs``: a large input scored in worker processes gives exactly the in-process output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_support import sample
from scorelens.api import evaluation, pool
from scorelens.cli import check
from scorelens.core.corpus import POOL_MINIMUM

MT_HYP = sample("mt/news.hyp.en")
MT_REFS = [sample("mt/news.ref.en"), sample("mt/news.ref2.en")]


@pytest.fixture(scope="module")
def large(tmp_path_factory) -> list[str]:
    """The MT sample repeated to just over ``POOL_MINIMUM`` lines: hypothesis, then two references."""
    folder = tmp_path_factory.mktemp("large")
    paths = []
    for name in [MT_HYP, *MT_REFS]:
        lines = Path(name).read_text(encoding="utf-8").splitlines()
        copies = POOL_MINIMUM // len(lines) + 1
        path = folder / Path(name).name
        path.write_text("\n".join(lines * copies) + "\n", encoding="utf-8")
        paths.append(str(path))
    return paths


@pytest.fixture
def pools(monkeypatch) -> list[int]:
    """The worker counts of the pools the CLI starts."""
    started = []
    real = evaluation.worker_pool

    def recording(jobs):
        started.append(jobs)
        return real(jobs)

    monkeypatch.setattr(evaluation, "worker_pool", recording)
    return started


def argv(paths: list[str], *options: str) -> list[str]:
    return [paths[0], "-r", paths[1], "-r", paths[2], "--metrics", "bleu,rougeL,rougeLsum,wer,cer", *options]


def test_score_in_two_processes_equals_in_process(run, large, pools):
    one = run("score", *argv(large, "--json", "-j", "1"))
    assert pools == []
    two = run("score", *argv(large, "--json", "--jobs", "2"))
    assert pools == [2]
    assert one.code == two.code == 0
    assert json.loads(one.out)["segments"] > POOL_MINIMUM
    assert two.out == one.out


def test_check_in_two_processes_equals_in_process(run, large, pools):
    one = run("check", *argv(large, "--format", "json", "-j", "1"))
    assert pools == []
    two = run("check", *argv(large, "--format", "json", "-j", "2"))
    assert pools == [2, 2]  # the scores, then the findings
    assert one.code == two.code == 0
    assert two.out == one.out
    assert len(json.loads(one.out)["findings"]) > 10_000


@pytest.mark.parametrize("limit", [0, 7, 5000])
def test_check_counts_the_findings_it_does_not_show(run, large, limit):
    """Under --max-findings the findings past the limit are only counted (in the workers): the
    first ones shown and the count are those of the whole list."""
    every = json.loads(run("check", *argv(large, "--format", "json", "-j", "1")).out)
    for jobs in ("1", "2"):
        some = json.loads(run("check", *argv(large, "--format", "json", "--max-findings", str(limit), "-j", jobs)).out)
        assert some["findings"] == every["findings"][:limit]
        assert some["findings_omitted"] == len(every["findings"]) - limit
        assert some["scores"] == every["scores"]


def test_small_input_starts_no_pool(run, pools):
    result = run("score", MT_HYP, "-r", MT_REFS[0], "-j", "4")
    assert result.code == 0
    assert pools == []


@pytest.mark.parametrize("jobs", ["0", "-1", "two"])
def test_jobs_must_be_a_positive_number(run, jobs):
    result = run("score", MT_HYP, "-r", MT_REFS[0], "--jobs", jobs)
    assert result.code == 2
    assert "expected a number of processes, 1 or more" in result.err


def test_worker_pool_map_keeps_the_order():
    """This process and the workers share the chunks; the results come back in the chunks' order."""
    with pool.worker_pool(2) as pool_map:
        assert pool_map(abs, range(-40, 0)) == list(range(40, 0, -1))
        assert pool_map(abs, []) == []


def test_check_writes_its_findings_a_run_of_segments_at_a_time(run, large, monkeypatch):
    """Made and written a run of segments at a time (memory bounded by the run, not the file),
    the findings are those made at once, in the same order."""
    whole = run("check", *argv(large, "--format", "json", "-j", "1"))
    monkeypatch.setattr(check, "_AT_ONCE", POOL_MINIMUM)  # a run in the workers, then one here
    for form in ("json", "text"):
        runs = run("check", *argv(large, "--format", form, "-j", "2"))
        assert runs.out == (whole.out if form == "json" else run("check", *argv(large, "-j", "1")).out)
