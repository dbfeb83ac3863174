"""scorelens.dask.compare and ``compare --dask`` on a LocalCluster of 2 worker processes: the
paired tests over statistics gathered from the partitions equal :func:`scorelens.compare` of the
same texts in one process (every figure, the highlighted segments too), however each system is
partitioned; a system whose references or rows differ from the baseline's is one clear error."""

from __future__ import annotations

import json
import os

import pytest

if os.environ.get("CI") != "true":  # as test_dask_scoring.py: the test extra installs dask
    pytest.importorskip("distributed", reason="dask is not installed (pip install -e '.[dask]'; the test extra has it)")

import dask.bag as db  # noqa: E402 -- after the check above
import dask.dataframe as dd  # noqa: E402
import pandas as pd  # noqa: E402
import scorelens  # noqa: E402
import scorelens.dask  # noqa: E402
from scorelens import OptionError  # noqa: E402

TESTED = ["bleu", "chrf", "ter", "rougeL", "rouge2", "wer"]


def frame(hyps: list[str], refs: list[str], npartitions: int) -> dd.DataFrame:
    return dd.from_pandas(pd.DataFrame({"hypothesis": hyps, "reference": refs}), npartitions=npartitions)


def test_a_bootstrap_over_partitions_equals_one_process(client, ted):
    hyps1, hyps2, refs = ted["sys1"][:1500], ted["sys2"][:1500], ted["ref"][:1500]
    got = scorelens.dask.compare(frame(hyps1, refs, 3), [frame(hyps2, refs, 7), frame(hyps1[::-1], refs, 2)], metrics=TESTED)
    assert got == scorelens.compare(hyps1, [hyps2, hyps1[::-1]], refs, metrics=TESTED)
    assert got["segments"]["improved"] and got["segments"]["regressed"]


def test_randomization_over_a_bag_of_records_with_two_references(client, ted):
    hyps1, hyps2, refs, refs2 = ted["sys1"][:800], ted["sys2"][:800], ted["ref"][:800], ted["sys2"][800:1600]

    def bag(hyps: list[str], npartitions: int) -> db.Bag:
        return db.from_sequence([{"h": h, "r1": a, "r2": b} for h, a, b in zip(hyps, refs, refs2)], npartitions=npartitions)

    options = {"test": "ar", "n": 500, "seed": 7, "segments": 2, "names": ["base", "new"], "tokenize": "intl"}
    got = scorelens.dask.compare(bag(hyps1, 4), [bag(hyps2, 5)], "h", ["r1", "r2"], ["bleu", "chrf", "wer"], **options)
    assert got == scorelens.compare(hyps1, [hyps2], [refs, refs2], ["bleu", "chrf", "wer"], **options)


def test_other_references_or_rows_than_the_baselines_are_named(client):
    refs = ["the cat is on the mat", "a dog barked", "it rained all day", "the end"]
    hyps = ["the cat sat on the mat", "a dog barks", "rain all day", "the end"]
    other = [*refs[:2], "it rained all night", refs[3]]
    with pytest.raises(ValueError, match=r"system1 has other references than the baseline baseline: row 3 is the first"):
        scorelens.dask.compare(frame(hyps, refs, 2), [frame(hyps, other, 3)], metrics="bleu")
    with pytest.raises(ValueError, match=r"system1 has 3 rows, the baseline baseline 4"):
        scorelens.dask.compare(frame(hyps, refs, 2), [frame(hyps[:3], refs[:3], 1)], metrics="bleu")
    with pytest.raises(ValueError, match="no segments to compare"):
        scorelens.dask.compare(frame([], [], 1), [frame([], [], 1)], metrics="bleu")
    with pytest.raises(OptionError, match="no significance test for ppl"):
        scorelens.dask.compare(frame(hyps, refs, 1), [frame(hyps, refs, 1)], metrics="ppl")


def _unscorable(record):
    raise RuntimeError("a partition was computed")


@pytest.mark.parametrize(
    ("arguments", "named"),
    [({"test": "t"}, "test"), ({"n": -1}, "n"), ({"seed": -1}, "seed"), ({"segments": -2}, "segments"), ({"names": ["a"]}, "names")],
)
def test_bad_test_arguments_fail_before_any_work(client, arguments, named):
    """Not after the cluster has computed every system's statistics."""
    bag = db.from_sequence([{"hypothesis": "a", "reference": "a"}]).map(_unscorable)
    with pytest.raises(OptionError, match=f"^{named}: "):
        scorelens.dask.compare(bag, [bag], metrics="bleu", **arguments)


def test_one_system_where_the_list_of_systems_goes_is_named(client):
    bag = db.from_sequence([{"hypothesis": "a", "reference": "a"}]).map(_unscorable)
    for collection in (bag, frame(["a"], ["a"], 1)):
        with pytest.raises(OptionError, match=r"^systems: expected a list of systems, each a DataFrame or Bag \(one system: \[collection\]\)"):
            scorelens.dask.compare(collection, collection, metrics="bleu")


def test_the_command_line_compares_files_on_the_cluster_as_it_compares_plain_files(client, ted, tmp_path, capsys, monkeypatch):
    from scorelens.cli import main

    refs = ted["ref"][:1000]
    (tmp_path / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    for name in ("sys1", "sys2"):
        hyps = ted[name][:1000]
        (tmp_path / f"{name}.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
        with open(tmp_path / f"{name}.jsonl", "w", encoding="utf-8") as f:
            f.writelines(json.dumps({"prediction": h, "target": r}) + "\n" for h, r in zip(hyps, refs))
    files = [str(tmp_path / "sys1.jsonl"), str(tmp_path / "sys2.jsonl")]
    plain = [str(tmp_path / "sys1.txt"), str(tmp_path / "sys2.txt"), "-r", str(tmp_path / "ref.txt")]
    on_dask = ["--dask", client.scheduler.address, "--hyp-field", "prediction", "--ref-field", "target"]
    for output in ([], ["--json"]):
        assert main(["compare", *files, *on_dask, "-m", "bleu,ter", *output]) == 0
        got = capsys.readouterr().out
        assert main(["compare", *plain, "-m", "bleu,ter", *output]) == 0
        want = capsys.readouterr().out
        assert got.split() == want.replace(".txt", ".jsonl").split()  # (the columns' widths follow the names)
    api = scorelens.dask.compare_files(files, client.scheduler.address, hypothesis="prediction", references="target", metrics="bleu,ter")
    assert api == json.loads(got)
    assert main(["compare", *files, *on_dask, "-r", str(tmp_path / "ref.txt")]) == 2
    assert "--dask does not take -r" in capsys.readouterr().err
    missing = tmp_path / "missing.jsonl"
    missing.write_text(json.dumps({"prediction": None, "target": refs[0]}) + "\n", encoding="utf-8")
    for command in (["compare", files[0], str(missing)], ["score", str(missing)]):
        assert main([*command, *on_dask]) == 2
        assert f"scorelens: error: {missing}: 'prediction' holds None, not a string" in capsys.readouterr().err
    # a system's broken record is named by its file, as score names its one file's
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps({"prediction": "a", "target": refs[0]}) + '\n{"prediction": \n', encoding="utf-8")
    for command in (["compare", files[0], str(broken)], ["score", str(broken)]):
        assert main([*command, *on_dask]) == 2
        assert capsys.readouterr().err.startswith(f"scorelens: error: {broken}: invalid JSON (Expecting value) in the line")
    # files are named as given, once
    monkeypatch.chdir(tmp_path)
    for command in (["compare", "./sys1.jsonl", "./sys2.jsonl"], ["score", "./sys1.jsonl"]):
        assert main([*command, *on_dask[:2], "--hyp-field", "nope"]) == 2
        assert capsys.readouterr().err.startswith("scorelens: error: ./sys1.jsonl: no column 'nope'")
