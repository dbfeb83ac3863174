"""The harness itself: limits hold, a healthy server passes its checks, a hung one fails them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hostile import ADDRESS_SPACE, CPU_SECONDS, ServerGone, assert_one_line_error, run_cli


def test_a_paired_hypothesis_gets_diagnostics_and_the_server_answers(serve, workspace):
    server = serve()
    uri = server.open(workspace / "asr" / "call.hyp.txt")
    assert any(d["code"] == "wer.substitution" for d in server.diagnostics(uri, until=bool))
    server.assert_alive()
    server.assert_no_traceback()


def test_the_limits_apply_to_the_server(serve):
    server = serve()
    limits = Path(f"/proc/{server.proc.pid}/limits")
    if not limits.exists():
        pytest.skip("no /proc to read a process's limits from")
    text = limits.read_text()
    assert re.search(rf"Max address space\s+{ADDRESS_SPACE}\s+{ADDRESS_SPACE}", text), text
    assert re.search(rf"Max cpu time\s+{CPU_SECONDS}\s+{CPU_SECONDS}", text), text


def test_a_server_that_exits_fails_the_wait(serve):
    server = serve()
    server.notify("exit", None)
    with pytest.raises(ServerGone):
        server.request("scorelens/ping", {}, timeout=10)


def test_cli_usage_error_is_one_line(tmp_path):
    assert_one_line_error(run_cli("score", tmp_path / "absent.hyp.txt", "-r", tmp_path / "absent.ref.txt"), "absent.hyp.txt")
