"""scorelens.dask on a LocalCluster of 2 worker processes: a DataFrame's rows and a Bag's records
score as :func:`scorelens.score` of the same texts in one process (counts and the metrics made
of them exactly, ROUGE means to 1e-9), whatever the partitions, and still so when a worker is
killed mid-job and Dask runs its tasks again."""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

# Dask is the optional dask extra: without it these tests skip, saying so, except under CI=true,
# where the test extra installs it and its absence is a failure
if os.environ.get("CI") != "true":
    pytest.importorskip("distributed", reason="dask is not installed (pip install -e '.[dask]'; the test extra has it)")

import dask  # noqa: E402 -- after the check above
import dask.bag as db  # noqa: E402
import dask.dataframe as dd  # noqa: E402
import pandas as pd  # noqa: E402
import scorelens  # noqa: E402
import scorelens.dask  # noqa: E402
from scorelens import OptionError  # noqa: E402

EVERY_FAMILY = ["bleu", "chrf", "ter", "rougeL", "rouge2", "rougeLsum", "wer", "cer"]
ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "dask.md"
SAMPLES = ROOT / "samples" / "mt"


def assert_same(got: scorelens.Scores, want: scorelens.Scores) -> None:
    """Equal key for key: ROUGE's means (sums of floats, added in another order) to 1e-9, all else exactly."""
    got_d, want_d = got.to_dict(), want.to_dict()
    assert got_d.keys() == want_d.keys()
    for key, value in want_d.items():
        if key.startswith("rouge"):
            assert got_d[key].keys() == value.keys()
            for field, number in value.items():
                assert got_d[key][field] == (pytest.approx(number, rel=0, abs=1e-9) if isinstance(number, float) else number), (key, field)
        else:
            assert got_d[key] == value, key


def records(hypotheses: list[str], *references: list[str]) -> list[dict]:
    names = ["reference", *(f"reference{i}" for i in range(2, len(references) + 1))]
    return [{"id": i, "hypothesis": h, **dict(zip(names, refs))} for i, (h, *refs) in enumerate(zip(hypotheses, *references))]


def test_module_is_scorelens_dask_and_imports_the_real_dask():
    assert scorelens.dask.__name__ == "scorelens.dask"
    assert scorelens.dask.dask is dask and hasattr(dask, "compute")
    assert Path(dask.__file__).parent.name == "dask" and "scorelens" not in dask.__file__


def test_dataframe_of_two_references_every_family(client, ted):
    frame = pd.DataFrame({"hypothesis": ted["sys1"], "reference": ted["ref"], "other": ted["sys2"], "unused": 0})
    got = scorelens.dask.score(dd.from_pandas(frame, npartitions=7), references=["reference", "other"], metrics=EVERY_FAMILY)
    assert_same(got, scorelens.score(ted["sys1"], [ted["ref"], ted["sys2"]], metrics=EVERY_FAMILY))
    assert got.segments == len(ted["sys1"])


def test_bag_of_records_every_family(client, ted):
    bag = db.from_sequence(records(ted["sys2"], ted["ref"]), npartitions=5)
    got = scorelens.dask.score(bag, references="reference", metrics=EVERY_FAMILY)
    assert_same(got, scorelens.score(ted["sys2"], ted["ref"], metrics=EVERY_FAMILY))


@pytest.mark.parametrize(
    "options",
    [
        {"tokenize": "intl", "lowercase": True, "smooth_method": "floor"},
        {"chrf_word_order": 2, "chrf_lowercase": True, "ter_normalized": True},
        {"stem": True, "rouge_tokenizer": "unicode", "wer_transform": "lowercase"},
    ],
)
def test_options_as_in_one_process(client, ted, options):
    hyps, refs = ted["sys1"][:600], ted["ref"][:600]
    frame = dd.from_pandas(pd.DataFrame({"hypothesis": hyps, "reference": refs}), npartitions=3)
    assert_same(scorelens.dask.score(frame, metrics=EVERY_FAMILY, **options), scorelens.score(hyps, refs, metrics=EVERY_FAMILY, **options))


def test_empty_partitions_and_an_empty_collection(client, ted):
    hyps, refs = ted["sys1"][:300], ted["ref"][:300]
    frame = dd.from_pandas(pd.DataFrame({"hypothesis": hyps, "reference": refs, "keep": [i < 100 or i >= 250 for i in range(300)]}), npartitions=6)
    kept = [i for i in range(300) if i < 100 or i >= 250]
    want = scorelens.score([hyps[i] for i in kept], [refs[i] for i in kept], metrics=EVERY_FAMILY)
    assert_same(scorelens.dask.score(frame[frame.keep], metrics=EVERY_FAMILY), want)  # partitions 3 and 4 are empty

    pieces = [[], records(hyps[:100], refs[:100]), [], [], records(hyps[100:], refs[100:])]
    bag = db.from_delayed([dask.delayed(piece) for piece in pieces])
    assert_same(scorelens.dask.score(bag, metrics=EVERY_FAMILY), scorelens.score(hyps, refs, metrics=EVERY_FAMILY))

    nothing = scorelens.dask.score(frame[frame.keep & ~frame.keep], metrics=EVERY_FAMILY)
    assert_same(nothing, scorelens.statistics([], [[]], metrics=EVERY_FAMILY).scores())
    assert nothing.segments == 0


def test_statistics_add_across_collections(client, ted):
    first = db.from_sequence(records(ted["sys1"][:1000], ted["ref"][:1000]), npartitions=3)
    rest = dd.from_pandas(pd.DataFrame({"hypothesis": ted["sys1"][1000:], "reference": ted["ref"][1000:]}), npartitions=2)
    total = scorelens.dask.statistics(first, metrics="bleu,wer,rougeL") + scorelens.dask.statistics(rest, metrics="bleu,wer,rougeL")
    assert_same(total.scores(), scorelens.score(ted["sys1"], ted["ref"], metrics="bleu,wer,rougeL"))


def _computed(record):
    raise RuntimeError("a partition was computed")


def test_bad_arguments_fail_before_any_work(client):
    frame = dd.from_pandas(pd.DataFrame({"hypothesis": ["a b"], "reference": ["a c"]}), npartitions=1)
    with pytest.raises(OptionError, match="tokenize"):
        scorelens.dask.score(frame, tokenize="nonesuch")
    with pytest.raises(OptionError, match="segmentation"):
        scorelens.dask.score(frame, segmentation="paragraph")
    with pytest.raises(KeyError):
        scorelens.dask.score(frame, references=["nonesuch"])
    unscorable = db.from_sequence([{"hypothesis": "a", "reference": "a"}]).map(_computed)
    for none in ([], None):
        with pytest.raises(OptionError, match="^references: no reference column named"):
            scorelens.dask.score(unscorable, references=none)
    with pytest.raises(TypeError, match="DataFrame or Bag"):
        scorelens.dask.score([{"hypothesis": "a", "reference": "a"}])
    with_missing = dd.from_pandas(pd.DataFrame({"hypothesis": ["a b", None], "reference": ["a c", "d"]}), npartitions=1)
    with pytest.raises(TypeError, match="'hypothesis' holds"):  # raised on a worker, named by its column
        scorelens.dask.score(with_missing)
    # a JSON list of references, as score reads one in a JSONL file: not a missing value
    listed = db.from_sequence([{"hypothesis": "a b", "references": ["a c", "a b"]}])
    with pytest.raises(TypeError, match="^'references' holds a list of 2 texts, not a string: on Dask each reference is a column"):
        scorelens.dask.score(listed, references="references")


def write_formats(folder: Path, hyps: list[str], refs: list[str]) -> list[Path]:
    """The same pairs as JSONL, Parquet (row groups of 200) and TSV (a header; quoted as csv, and pandas, write it)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    jsonl, parquet, tsv = folder / "pairs.jsonl", folder / "pairs.parquet", folder / "pairs.tsv"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in records(hyps, refs)), encoding="utf-8")
    pq.write_table(pa.table({"hypothesis": hyps, "reference": refs}), parquet, row_group_size=200)
    with open(tsv, "w", encoding="utf-8", newline="") as f:
        csv.writer(f, dialect="excel-tab", lineterminator="\n").writerows([("hypothesis", "reference"), *zip(hyps, refs)])
    return [jsonl, parquet, tsv]


def test_files_by_extension_on_a_scheduler_address(client, ted, tmp_path):
    # texts a CSV reader could take for quoting or missing values must come back as they were
    hyps = ['he said "yes" and left', "NA", "", "null", *ted["sys1"][:700]]
    refs = ['he said "no"', "N/A", "nothing", "#N/A", *ted["ref"][:700]]
    want = scorelens.score(hyps, refs, metrics=EVERY_FAMILY)
    paths = write_formats(tmp_path, hyps, refs)
    for path in paths:
        assert_same(scorelens.dask.score_files([path], client.scheduler.address, metrics=EVERY_FAMILY), want)
    both = scorelens.dask.score_files(paths[1:], client.scheduler.address, metrics=EVERY_FAMILY)
    assert_same(both, scorelens.score(hyps * 2, refs * 2, metrics=EVERY_FAMILY))
    with pytest.raises(ValueError, match="expected a .jsonl"):
        scorelens.dask.score_files(tmp_path / "pairs.txt", client.scheduler.address)


def test_files_columns_are_found_as_the_format_readers_find_them(client, tmp_path):
    """Unnamed, the columns are the first of the readers' default names (``prediction`` before
    ``hypothesis``, ``target`` among the references'); a named or needed column that a file lacks,
    and a broken JSON line, are one ValueError naming the file or the line."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    address = client.scheduler.address
    hyps, refs = ["the cat sat on the mat", "a dog"], ["the cat is on the mat", "the dog"]
    decoy = ["x y z"] * 2
    jsonl, parquet, tsv = tmp_path / "p.jsonl", tmp_path / "p.parquet", tmp_path / "p.tsv"
    jsonl.write_text("".join(json.dumps({"id": k, "hypothesis": d, "prediction": h, "target": r}) + "\n" for k, (h, r, d) in enumerate(zip(hyps, refs, decoy))), encoding="utf-8")
    pq.write_table(pa.table({"prediction": hyps, "target": refs}), parquet)
    tsv.write_text("output\tgold\n" + "".join(f"{h}\t{r}\n" for h, r in zip(hyps, refs)), encoding="utf-8")
    want = scorelens.score(hyps, refs, metrics="bleu,wer")
    for path in (jsonl, parquet, tsv):
        assert_same(scorelens.dask.score_files(path, address, metrics="bleu,wer"), want)
    for path in (parquet, tsv):
        with pytest.raises(ValueError, match=rf"{re.escape(str(path))}: no column 'nope' \(the columns are: "):
            scorelens.dask.score_files(path, address, hypothesis="nope", metrics="bleu")
    no_reference = tmp_path / "h.jsonl"
    no_reference.write_text('{"prediction": "a"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="h.jsonl: no reference column: none of reference, references"):
        scorelens.dask.score_files(no_reference, address, metrics="bleu")
    later = tmp_path / "later.jsonl"
    later.write_text('{"prediction": "a", "reference": "a"}\n{"prediction": "b", "ref": "b"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="a record has no field 'reference': {'prediction': 'b', 'ref': 'b'}"):
        scorelens.dask.score_files(later, address, metrics="bleu")
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"prediction": "a", "reference": "a"}\n{"prediction": \n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"invalid JSON \(Expecting value\) in the line '{\"prediction\": \\n'"):
        scorelens.dask.score_files(broken, address, metrics="bleu")


def test_a_leading_byte_order_mark_is_left_out_as_without_dask(client, tmp_path):
    """A file written with one (utf-8-sig, as Windows tools write) scores as the command line's
    JSONL and TSV readers score it: the mark is no JSON, and no part of the first column's name."""
    hyps, refs = ["the cat sat on the mat", "a dog"], ["the cat is on the mat", "the dog"]
    jsonl, tsv = tmp_path / "bom.jsonl", tmp_path / "bom.tsv"
    jsonl.write_text("".join(json.dumps({"hypothesis": h, "reference": r}) + "\n" for h, r in zip(hyps, refs)), encoding="utf-8-sig")
    tsv.write_text("hypothesis\treference\n" + "".join(f"{h}\t{r}\n" for h, r in zip(hyps, refs)), encoding="utf-8-sig")
    want = scorelens.score(hyps, refs, metrics="bleu,wer")
    for path in (jsonl, tsv):
        assert_same(scorelens.dask.score_files(path, client.scheduler.address, metrics="bleu,wer"), want)


def test_csv_files_as_the_command_line_reads_them(client, tmp_path):
    """A .csv with a comma, or with semicolons where the header has no comma (a spreadsheet where
    the comma is the decimal mark), scores as scorelens.score of its texts."""
    hyps = ['he said "yes", then left', "3,5 kg", "NA", *["the cat sat on the mat"] * 20]
    refs = ['he said "no"', "3,4 kg", "N/A", *["the cat is on the mat"] * 20]
    want = scorelens.score(hyps, refs, metrics="bleu,chrf,wer")
    for delimiter, name in ((",", "comma.csv"), (";", "semicolon.csv")):
        path = tmp_path / name
        with open(path, "w", encoding="utf-8", newline="") as f:
            csv.writer(f, delimiter=delimiter, lineterminator="\n").writerows([("hypothesis", "reference"), *zip(hyps, refs)])
        assert_same(scorelens.dask.score_files(path, client.scheduler.address, metrics="bleu,chrf,wer"), want)


def doc_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)


def test_the_docs_example_runs_and_scores_as_one_process(client, tmp_path, monkeypatch):
    """docs/dask.md's examples, run as they are: on this module's client, then (score_files) on
    a LocalCluster of their own."""
    monkeypatch.chdir(tmp_path)
    blocks = doc_blocks()
    assert len(blocks) == 2
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(DOCS), "exec"), namespace)
    hyps, refs = namespace["pairs"]["hypothesis"].tolist(), namespace["pairs"]["reference"].tolist()
    assert_same(namespace["scores"], scorelens.score(hyps, refs, metrics=["bleu", "chrf", "rougeL", "wer"]))
    assert_same(namespace["file_scores"], scorelens.score(hyps, refs, metrics="bleu,ter,cer"))


def test_a_worker_killed_mid_job_is_replaced_and_the_scores_are_exact(client, tmp_path):
    """One worker's process is killed (SIGKILL) while it scores a partition: the nanny starts
    another, the scheduler runs the lost tasks again, and the scores are those of one process.
    The texts are the repository's own samples (two references), so this runs on any clone."""
    log = tmp_path / "partitions.log"
    hyps, refs, refs2 = (
        (SAMPLES / name).read_text(encoding="utf-8").splitlines() * 20 for name in ("news.hyp.en", "news.ref.en", "news.ref2.en")
    )

    def slow(part):  # defined here: cloudpickle sends it by value to workers that cannot import this module
        line = f"{part[0]['id']} {os.getpid()}"
        with open(log, "a") as f:
            f.write(f"start {line}\n")
        time.sleep(0.5)
        with open(log, "a") as f:
            f.write(f"end {line}\n")
        return part

    bag = db.from_sequence(records(hyps, refs, refs2), npartitions=12).map_partitions(slow)
    pids = client.run(os.getpid)
    victim = pids[sorted(pids)[0]]
    with ThreadPoolExecutor(1) as pool:
        job = pool.submit(scorelens.dask.score, bag, references=["reference", "reference2"], metrics=EVERY_FAMILY, scheduler=client)
        deadline = time.monotonic() + 60
        while not re.search(rf"^start (\d+) {victim}$", log.read_text() if log.exists() else "", re.M):
            assert time.monotonic() < deadline, "the victim worker started no partition"
            time.sleep(0.05)
        os.kill(victim, signal.SIGKILL)
        assert not job.done()
        got = job.result(timeout=120)
    assert_same(got, scorelens.score(hyps, [refs, refs2], metrics=EVERY_FAMILY))
    starts = re.findall(r"^start (\d+) (\d+)$", log.read_text(), re.M)
    again = {first for first, pid in starts if int(pid) == victim} & {first for first, pid in starts if int(pid) != victim}
    assert again, "no partition of the killed worker ran again elsewhere"
    client.wait_for_workers(2, timeout=60)
    assert victim not in client.run(os.getpid).values()


def test_the_command_line_scores_a_file_on_the_cluster(client, tmp_path, capsys):
    from scorelens.cli import main

    hyps = ["the cat sat on the mat", "a dog barked", "", "rain fell all day"] * 50
    refs = ["the cat is on the mat", "a dog was barking", "nothing", "it rained all day"] * 50
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps({"prediction": h, "target": r}) + "\n" for h, r in zip(hyps, refs)), encoding="utf-8")
    argv = ["score", str(path), "--dask", client.scheduler.address, "--hyp-field", "prediction", "--ref-field", "target"]
    assert main([*argv, "-m", "bleu,chrf,wer", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got == scorelens.score(hyps, refs, metrics=["bleu", "chrf", "wer"]).to_dict()
    assert main([*argv, "-m", "bleu"]) == 0
    assert capsys.readouterr().out.startswith("BLEU = ")
    assert main([*argv, "-sl"]) == 2
    assert "--dask does not take -sl" in capsys.readouterr().err
    assert main(["score", str(path), "--dask", client.scheduler.address, "--hyp-field", "missing"]) == 2
    assert capsys.readouterr().err == f"scorelens: error: {path}: no column 'missing' (the columns are: prediction, target)\n"
    # the fields unnamed, found as without --dask; the same scores
    assert main(["score", str(path), "--dask", client.scheduler.address, "-m", "bleu,chrf,wer", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == got


def test_a_quoted_tsv_scores_on_the_cluster_as_without_it(client, tmp_path, capsys):
    """The command line's TSV reader takes quotes off as csv does (pandas writes TSV so); --dask reads alike."""
    from scorelens.cli import main

    path = tmp_path / "q.tsv"
    path.write_text('id\thypothesis\treference\n1\t"a, b"\t"a, b"\n2\t"He said ""hi"""\tHe said "hi"\n3\tNA\t\n4\ta "b" c\ta "b" c\n', encoding="utf-8")
    assert main(["score", str(path), "-m", "wer,chrf", "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert alone["wer"]["hits"] == 8 and alone["wer"]["insertions"] == 1  # "NA" against an empty reference
    assert main(["score", str(path), "--dask", client.scheduler.address, "-m", "wer,chrf", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == alone
