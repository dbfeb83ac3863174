"""The ``cli_json`` fixture: ``scorelens`` run in-process on texts written to files, its JSON read
back, for comparing the API with the command line it must equal."""

from __future__ import annotations

import json

import pytest

from scorelens.cli import main


@pytest.fixture
def cli_json(tmp_path, capsys):
    """``cli_json(command, hypotheses, references, *options)``: the parsed ``--json`` output of
    ``scorelens COMMAND`` on the texts as files (one line each); a list of rows with ``-sl``."""

    def write(name: str, lines: list[str]) -> str:
        path = tmp_path / name
        path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        return str(path)

    def run(command: str, hypotheses, references, *options: str, systems=()):
        refs = [r for ref in references for r in ("-r", write(f"ref{len(list(tmp_path.iterdir()))}.txt", ref))]
        argv = [command, write("hyp.txt", hypotheses)]
        argv += [write(f"sys{i}.txt", s) for i, s in enumerate(systems, 1)]
        code = main([*argv, *refs, *options, "--json", "-j", "1"])
        out = capsys.readouterr().out
        assert code == 0, out
        if "-sl" in options:
            return [json.loads(line) for line in out.splitlines()]
        return json.loads(out)

    return run
