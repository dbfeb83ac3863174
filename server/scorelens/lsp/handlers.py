"""The server's own handlers: the session's lifecycle (``initialize``, ``initialized``), the open
documents' synchronization (open, change, save, close) and the workspace's notifications
(configuration, watched files). Each keeps the reviews in step and schedules their re-scores;
what is shown of the scores is the features' (diagnostics, hover, inlay hints, ...).
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls.uris import to_fs_path

from . import agreement, diagnostics, qa, report
from .documents import OpenDocument
from .formatted import is_formatted, note_edit
from .positions import Columns
from .rescore import SCORING_FAILED
from .settings import settings_section


def register(server) -> None:
    for method, handler in (
        (types.INITIALIZE, initialize),
        (types.INITIALIZED, initialized),
        (types.TEXT_DOCUMENT_DID_OPEN, did_open),
        (types.TEXT_DOCUMENT_DID_CHANGE, did_change),
        (types.TEXT_DOCUMENT_DID_SAVE, did_save),
        (types.TEXT_DOCUMENT_DID_CLOSE, did_close),
        (types.WORKSPACE_DID_CHANGE_CONFIGURATION, did_change_configuration),
        (types.WORKSPACE_DID_CHANGE_WATCHED_FILES, did_change_watched_files),
    ):
        server.feature(method)(handler)


def initialize(ls, params: types.InitializeParams) -> None:
    # a folder that is not a file: URI (untitled:, http:) holds no files to pair
    folders = [Path(p) for p in (to_fs_path(f.uri) for f in params.workspace_folders or []) if p]
    if not folders and params.root_uri and to_fs_path(params.root_uri):
        folders = [Path(to_fs_path(params.root_uri))]
    ls.pairings.set_folders(folders)
    ls.initial_settings = settings_section(params.initialization_options)
    ls.reports_wanted = report.shows_reports(params.capabilities)
    diagnostics.offer_pull(ls)


async def initialized(ls, params: types.InitializedParams) -> None:
    ls.columns = Columns(ls.workspace.position_encoding)
    registrations = []
    if ls.client_supports("workspace", "did_change_configuration", "dynamic_registration"):
        registrations.append(
            types.Registration(id="scorelens-config", method=types.WORKSPACE_DID_CHANGE_CONFIGURATION, register_options={"section": "scorelens"})
        )
    if ls.client_supports("workspace", "did_change_watched_files", "dynamic_registration"):
        registrations.append(
            types.Registration(
                id="scorelens-files",
                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(
                    watchers=[types.FileSystemWatcher(glob_pattern="**/*")]
                ),
            )
        )
    if registrations:
        try:
            await ls.client_register_capability_async(types.RegistrationParams(registrations=registrations))
        except Exception as exc:
            ls.log(f"dynamic registration failed: {exc}", types.MessageType.Warning)
    for problem in ls.pairings.problems:
        ls.tell(problem)


async def did_open(ls, params: types.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    ls.documents.open[item.uri] = OpenDocument.of(item.uri, item.version, item.language_id, item.text)
    # an open reference's live text replaces what was read from disk
    for review in ls.reviews_of(item.uri):
        if review.uri != item.uri:
            ls.load(review)
            ls.scheduler.schedule(review, delay=0)
    await ls.track(item.uri)
    await agreement.opened(ls, item.uri)


def did_change(ls, params: types.DidChangeTextDocumentParams) -> None:
    doc = ls.documents.open.get(params.text_document.uri)
    if doc is None:
        return
    doc.version = params.text_document.version
    reviews = ls.reviews_of(doc.uri)
    over = [doc.larger_than(r.settings.max_file_bytes) for r in reviews]
    # reviews the document is the source of: their QA re-checks what changed at the re-score
    sourced = [r for r in reviews if r.pairing.source == doc.uri and r.uri != doc.uri]
    for change in params.content_changes:
        edit, scored = doc.apply_lines(change, ls.columns)
        agreement.edited(ls, doc.uri, scored)
        for review in reviews:
            if review in sourced:
                continue
            review.views_stale |= review.uri != doc.uri
            if review.corpus is not None:
                for side in review.sides(doc.uri):
                    if review.layouts is None:  # plain text: the corpus holds sacreBLEU's lines of it
                        review.corpus.replace_lines(side, scored.start, scored.end, scored.lines)
                    review.edited(side, edit.start)
                if review.layouts is not None:  # a formatted document: read again below (reread), its version with it
                    note_edit(review.edited_lines, doc.uri, edit)
                else:
                    review.versions[doc.uri] = doc.version
    for review, was_over in zip(reviews, over):
        if review in sourced:
            if not qa.source_changed(review, doc.uri, doc.text):
                ls.load(review)  # it could not be read before: perhaps now
            ls.scheduler.schedule(review, delay=0 if review.qa is None else None)
            continue
        ls.scheduler.follow_soon(review)
        if doc.larger_than(review.settings.max_file_bytes) != was_over or _failed(review):
            ls.load(review)  # grown past scorelens.maxFileBytes, or back under it
            ls.scheduler.schedule(review, delay=0)
        elif is_formatted(review.pairing) and not ls.reread(review):
            ls.scheduler.schedule(review, delay=0)  # loaded again from scratch
        elif review.settings.run == "onType" or review.unread_edits:
            # (run on save too: until the documents are read again, the segments' places are stale)
            ls.scheduler.schedule(review)
    agreement.changed(ls, doc.uri)


def _failed(review) -> bool:
    """Whether the review's texts failed to score (see rescore.SCORING_FAILED): an edit may mend them."""
    return review.corpus is None and any(p.code == SCORING_FAILED for p in review.problems)


def did_save(ls, params: types.DidSaveTextDocumentParams) -> None:
    for review in ls.reviews_of(params.text_document.uri):
        if review.settings.run == "onSave":
            ls.scheduler.schedule(review, delay=0)
    agreement.saved(ls, params.text_document.uri)


def did_close(ls, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.documents.open.pop(uri, None)
    ls.visible.pop(uri, None)
    if ls.pull_diagnostics:  # the client drops a closed document's pulled diagnostics
        ls.published.pop(uri, None)
        ls.result_ids.pop(uri, None)
    ls.drop(uri)
    agreement.closed(ls, uri)
    # a closed reference is scored from its file again
    for other in ls.reviews_of(uri):
        ls.documents.forget(uri)
        ls.load(other)
        ls.scheduler.schedule(other, delay=0)


async def did_change_configuration(ls, params: types.DidChangeConfigurationParams) -> None:
    if params.settings is not None:  # VS Code sends null and is asked with workspace/configuration
        ls.pushed_settings = settings_section(params.settings)
    await ls.refresh_all(reuse=True)


async def did_change_watched_files(ls, params: types.DidChangeWatchedFilesParams) -> None:
    rules_changed = False
    touched = set()
    for change in params.changes:
        ls.documents.forget(change.uri)
        path = Path(to_fs_path(change.uri) or change.uri)
        if ls.pairings.is_config_file(path):
            rules_changed = True
        touched.add(change.uri)
    if rules_changed:
        ls.pairings.reload_config()
        for problem in ls.pairings.problems:
            ls.tell(problem)
        await ls.refresh_all()
        return
    await agreement.files_changed(ls, touched)
    for review in list(ls.reviews.values()):
        closed_refs = [r for r in (*review.pairing.references, review.pairing.source) if r is not None and r not in ls.documents.open]
        if review.problems or any(r in touched for r in closed_refs):
            # a created file can complete a pairing by convention: resolve it again
            await ls.track(review.uri)
