"""Helix is not installable here (not in Debian bookworm, PyPI or npm): its configuration in
docs/editors.md is only checked to be TOML that names the server as the others do."""

from __future__ import annotations

import tomllib

from editors_support import doc_block


def test_documented_languages_toml_parses():
    config = tomllib.loads(doc_block("toml", "languages.toml (Helix)"))
    assert config["language-server"]["scorelens"]["command"] == "scorelens"
    assert config["language-server"]["scorelens"]["args"] == ["serve"]
    assert config["language"][0]["language-servers"] == ["scorelens"]
    assert {"glob": "*.hyp.*"} in config["language"][0]["file-types"]
