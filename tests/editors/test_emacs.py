"""docs/editors.md's Emacs configuration (eglot), in a real Emacs 28 (Debian's ``emacs-nox`` and
``elpa-eglot``, installed by install.sh) run with ``-nw`` in a terminal under tmux: in ``--batch``
eglot never starts and its change notifications, sent from an idle timer, never go. One run of
the editor; each test reads one stage of it."""

from __future__ import annotations

import json
import shutil

import pytest
from editors_support import HERE, Terminal, doc_block, editor_env, first_finding, make_workspace, require


@pytest.fixture(scope="module")
def seen(installed, tmp_path_factory) -> dict:
    emacs = require(shutil.which("emacs"), "Emacs (Debian's emacs-nox)", installed)
    require(shutil.which("tmux"), "tmux (Debian's tmux)", installed)
    folder = tmp_path_factory.mktemp("emacs")
    workspace = make_workspace(folder)
    home = folder / "home"
    (home / ".emacs.d").mkdir(parents=True)
    (home / ".emacs.d" / "init.el").write_text(doc_block("elisp", "init.el"), encoding="utf-8")
    result = folder / "result.json"
    hyp = workspace / "talk.hyp.en"
    env = editor_env(home, SCORELENS_RESULT=str(result), SCORELENS_HYP=str(hyp))
    terminal = Terminal([emacs, "-nw", "-l", str(HERE / "emacs_drive.el"), str(hyp)], workspace, env)
    started = result.with_name("result.json.started")

    def poke() -> None:
        if not started.exists():
            terminal.send_keys("C-l")  # eglot starts on the first command after the file is visited

    try:
        finished = terminal.wait_until_gone(300, poke)
        screen = "" if finished else terminal.screen()
    finally:
        terminal.close()
    assert finished, f"Emacs did not finish; its screen:\n{screen}"
    seen = json.loads(result.read_text(encoding="utf-8"))
    seen["failed"] = dict(seen["failed"] or {})
    assert "start" not in seen["failed"], seen["failed"]["start"]
    return seen


def passed(seen: dict, stage: str) -> None:
    assert stage not in seen["failed"], seen["failed"].get(stage)


def test_diagnostics_at_the_right_columns(seen):
    # Emacs counts columns in characters: the substitution starts at "spoke", after the emoji and 東京.
    subs = [d for d in seen["diagnostics"] if "[wer.substitution]" in d["text"] and d["line"] == 0]
    assert [d["col"] for d in subs] == [first_finding().chars]
    assert '"spoke with"' in subs[0]["text"]
    assert any("[bleu.unmatched]" in d["text"] for d in seen["diagnostics"])


def test_hover_is_plain_text_with_the_sentence_scores(seen):
    passed(seen, "hover")
    assert "sentence BLEU" in seen["hover"] and "WER" in seen["hover"]
    assert seen["hover_kind"] == "plaintext"
    assert "**" not in seen["hover"] and "~~" not in seen["hover"] and "\\" not in seen["hover"]


def test_quick_fix_applied_and_rescored(seen):
    passed(seen, "quick fix")
    assert any(t.startswith("Replace with") for t in seen["actions"])
    assert [d for d in seen["after_fix"] if d["line"] == 1 and '"should"' in d["text"]]


def test_edit_updates_diagnostics(seen):
    passed(seen, "edit")
    assert [d for d in seen["after_edit"] if d["line"] == 1 and '"until"' in d["text"]]


def test_settings_change_without_restart(seen):
    passed(seen, "settings")
    texts = [d["text"] for d in seen["after_settings"]]
    assert any("[wer.substitution]" in t for t in texts)
    assert not any("[bleu." in t or "[rouge." in t for t in texts)
