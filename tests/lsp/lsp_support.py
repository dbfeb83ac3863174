"""End-to-end fixtures: the real ``scorelens serve`` over stdio, as VS Code and as Neovim.

The VS Code profile is pytest-lsp's recorded VS Code 1.65 capabilities plus what that version
lacked and today's VS Code has (inlay hints, dynamic watched-file registration); it negotiates
UTF-16 and gets pushed diagnostics. The Neovim 0.11 profile negotiates UTF-8 and pulls.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def capabilities(profile: str) -> types.ClientCapabilities:
    if profile == "neovim":
        caps = client_capabilities("neovim")
        # Neovim 0.11 cannot be told to re-pull diagnostics, so the server pushes to it (the
        # real Neovim is driven in test_neovim.py); with refresh support this profile pulls.
        caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
        return caps
    caps = client_capabilities("visual-studio-code")
    caps.text_document.inlay_hint = types.InlayHintClientCapabilities(
        dynamic_registration=True, resolve_support=types.ClientInlayHintResolveOptions(properties=["tooltip"])
    )
    caps.workspace.inlay_hint = types.InlayHintWorkspaceClientCapabilities(refresh_support=True)
    return caps


def plain_capabilities(profile: str) -> types.ClientCapabilities:
    """A profile as Vim ALE and eglot without markdown-mode ask: plain-text hovers, and settings
    pushed rather than pulled (no ``workspace/configuration``)."""
    caps = capabilities(profile)
    caps.text_document.hover.content_format = [types.MarkupKind.PlainText]
    caps.workspace.configuration = False
    caps.workspace.did_change_configuration = types.DidChangeConfigurationClientCapabilities(dynamic_registration=False)
    return caps


SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "scorelens", "serve"])


@pytest_lsp.fixture(params=["visual-studio-code", "neovim"], config=SERVER)
async def client(request, lsp_client: LanguageClient, tmp_path: Path):
    _prepare(lsp_client, request.param, tmp_path)
    await _initialize(lsp_client, [lsp_client.workspace])
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(params=["visual-studio-code", "neovim"], config=SERVER)
async def two_folder_client(request, lsp_client: LanguageClient, tmp_path: Path):
    """Two workspace folders, ``ws/left`` and ``ws/right`` (its ``folders``), for settings per folder."""
    _prepare(lsp_client, request.param, tmp_path)
    lsp_client.folders = [lsp_client.workspace / name for name in ("left", "right")]
    for folder in lsp_client.folders:
        folder.mkdir()
    await _initialize(lsp_client, lsp_client.folders)
    yield
    await lsp_client.shutdown_session()


async def _initialize(client: LanguageClient, folders: list[Path]) -> None:
    await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities(client.profile),
            workspace_folders=[types.WorkspaceFolder(uri=f.as_uri(), name=f.name) for f in folders],
            root_uri=client.workspace.as_uri(),
        )
    )


@pytest_lsp.fixture(params=["visual-studio-code", "neovim"], config=SERVER)
async def plain_client(request, lsp_client: LanguageClient, tmp_path: Path):
    """Not initialized yet: a test starts it with :func:`start_plain` and its own initializationOptions."""
    _prepare(lsp_client, request.param, tmp_path)
    yield
    await lsp_client.shutdown_session()


async def start_plain(client: LanguageClient, initialization_options=None) -> None:
    await client.initialize_session(
        types.InitializeParams(
            capabilities=plain_capabilities(client.profile),
            workspace_folders=[types.WorkspaceFolder(uri=client.workspace.as_uri(), name="ws")],
            root_uri=client.workspace.as_uri(),
            initialization_options=initialization_options,
        )
    )


def _prepare(lsp_client: LanguageClient, profile: str, tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    shutil.copytree(SAMPLES, workspace)
    lsp_client.profile = profile
    lsp_client.workspace = workspace
    lsp_client.settings = {"debounceMs": 0}
    lsp_client.set_configuration({"scorelens": lsp_client.settings})
    lsp_client.registrations = []
    lsp_client.scores_log = []
    lsp_client.scores_seen = {}
    lsp_client.refreshes = []
    lsp_client.compare_log = []
    lsp_client.agreement_log = []

    @lsp_client.feature("scorelens/compareChanged")
    def on_compare_changed(params) -> None:
        lsp_client.compare_log.append(_plain(params))

    @lsp_client.feature("scorelens/agreementChanged")
    def on_agreement_changed(params) -> None:
        lsp_client.agreement_log.append(_plain(params))

    @lsp_client.feature(types.WORKSPACE_INLAY_HINT_REFRESH)
    def inlay_hint_refresh(params) -> None:
        lsp_client.refreshes.append("inlayHint")

    @lsp_client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def code_lens_refresh(params) -> None:
        lsp_client.refreshes.append("codeLens")

    @lsp_client.feature("scorelens/scores")
    def on_scores(params) -> None:
        lsp_client.scores_log.append(_plain(params))

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        lsp_client.registrations.extend(params.registrations)


def open_doc(client: LanguageClient, path: Path, language_id: str = "plaintext") -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id=language_id, version=1, text=path.read_text(encoding="utf-8"))
        )
    )
    return uri


async def scores(client: LanguageClient, uri: str, version: int | None = None, until=None, timeout: float = 20) -> dict:
    """A ``scorelens/scores`` for ``uri`` that arrived since the last one a test looked at and
    matches ``version`` and ``until`` (a predicate), if given. Notifications are logged as they
    arrive, so one sent before the test starts waiting is not missed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        start = client.scores_seen.get(uri, 0)
        fresh = [(i, p) for i, p in enumerate(client.scores_log) if i >= start and p["uri"] == uri]
        for i, p in reversed(fresh):
            if (version is None or p["version"] == version) and (until is None or until(p)):
                client.scores_seen[uri] = i + 1
                return p
        if loop.time() > deadline:
            raise TimeoutError(f"no matching scorelens/scores for {uri}; last: {fresh[-1][1] if fresh else None}")
        await asyncio.sleep(0.02)


async def notified(log: list, until, what: str, timeout: float = 30) -> dict:
    """The first notification logged so far (``client.compare_log``, ``client.agreement_log``) that
    ``until`` accepts, waiting for it."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        for p in log:
            if until(p):
                return p
        if loop.time() > deadline:
            raise TimeoutError(f"no matching {what}; got versions {[p.get('versions') for p in log]}")
        await asyncio.sleep(0.02)


def _plain(obj):
    """pygls hands custom messages over as namedtuples; tests want plain JSON values."""
    if hasattr(obj, "_asdict"):
        return {k: _plain(v) for k, v in obj._asdict().items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(x) for x in obj]
    return obj


async def diagnostics(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    """The document's diagnostics the way this client gets them: pulled (Neovim) or pushed."""
    if client.profile == "neovim":
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri))
        )
        return list(report.items)
    return list(client.diagnostics.get(uri, ()))
