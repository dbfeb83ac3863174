"""The ScoreLens language server: the one server instance, its state, and how it serves.

The server holds the open documents, the pairings, the settings and a review per hypothesis
(tracked, loaded and dropped here). The rest has a module of its own: the wire
(:mod:`.wire` reads and guards the input, :mod:`.writer` writes the output in order,
:mod:`.protocol` patches pygls's protocol), the schedule of re-scores (:mod:`.scheduler`) and
what a re-score does (:mod:`.rescore`), the server's own handlers (:mod:`.handlers`), and the
features (diagnostics, hover, inlay hints, code lens, code actions, commands, report, compare),
which register their handlers on the server in :func:`main` and only translate core results
into LSP types.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import threading
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInternalError
from pygls.io_ import StdoutWriter, run_async
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from .. import __version__
from ..core import Corpus, TokenizerUnavailable
from ..formats import FormatError
from ..textfile import MissingFile, UnreadableText
from . import agreement, code_actions, code_lens, commands, compare, diagnostics, handlers, hover, inlay_hints, qa, report
from .agreement import Agreements
from .compare import Comparisons
from .documents import Documents, segment_lines, split_breaks
from .flavours import checked, configured
from .fluency import Models, attach
from .formatted import NO_REFERENCES, UnreadableDocument, is_formatted, read_sides, reread_lines, update
from .layout import LineMap
from .pairing import Pairing, Pairings, files_in, named_like_reference
from .positions import Columns
from .protocol import ScoreLensProtocol
from .rescore import rescore
from .reviews import Problem, Reading, Review
from .scheduler import Scheduler
from .settings import Settings, in_language, language_of, parse
from .wire import BoundedReader, MessageReader, strict_converter
from .worker import Worker

log = logging.getLogger(__name__)

SWITCH_INTERVAL_S = 0.0005  # the interpreter's switch interval while serving (see main)


class ScoreLensServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "scorelens",
            __version__,
            protocol_cls=ScoreLensProtocol,
            converter_factory=strict_converter,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            max_workers=2,
        )
        self.documents = Documents()
        self.worker = Worker()
        self.models = Models()
        self.pairings = Pairings()
        self.reviews: dict[str, Review] = {}
        self.scheduler = Scheduler(
            self.reviews,
            partial(rescore, self),
            partial(diagnostics.looked_elsewhere, self),
            lambda: self.protocol.writer is not None and self.protocol.writer.waiting,
            self.report_server_error,
        )
        self.columns = Columns(None)
        self.overrides: dict[str, Any] = {}  # session-only settings set by commands
        # settings layers under workspace/configuration's (see settings_for)
        self.initial_settings: dict[str, Any] = {}
        self.pushed_settings: dict[str, Any] = {}
        self.pull_diagnostics = False
        self._settings_raw: dict[str | None, Any] = {}
        # per document, what was last said about settings that do not go with its pairing
        self._config_told: dict[str, tuple[str, ...]] = {}
        # per document, the scoring failure last said (see rescore.SCORING_FAILED)
        self.failures_told: dict[str, str] = {}
        # the latest track() of each document: an earlier one still waiting for settings gives way
        self._tracking: dict[str, object] = {}
        # the last diagnostics notification sent per document, so an identical one is not sent
        # again (for a pulling client: the items it last pulled)
        self.published: dict[str, str] = {}
        # for a pulling client, the resultId of what ``published`` holds: a pull that names it is
        # answered "unchanged", and the client keeps its diagnostics as they are
        self.result_ids: dict[str, str] = {}
        self.comparisons = Comparisons()
        self.agreements = Agreements()  # the groups of open annotators' documents
        # per document, the line ranges the client shows (scorelens/visibleRanges)
        self.visible: dict[str, list[tuple[int, int]]] = {}

    def start_io(self, stdin: BoundedReader | None = None, stdout=None) -> None:
        """pygls's, but reading each message in one trip through a thread (:class:`.MessageReader`)."""
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        reader = MessageReader(stdin or BoundedReader(sys.stdin.buffer), self.thread_pool)
        try:
            asyncio.run(run_async(self._stop_event, reader, self.protocol, log, self.report_server_error))
        except BrokenPipeError:
            log.error("the connection to the client is lost; stopping")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    # -- reporting -------------------------------------------------------------------------

    def report_server_error(self, error: Exception, source) -> None:
        if _answer(error):
            return
        # A failing notification handler or re-score is logged, not popped up on every keystroke.
        log.error("ScoreLens %s failed", source if isinstance(source, str) else "handler", exc_info=error)
        self.log(f"internal error ({type(error).__name__}): {error}", types.MessageType.Error)

    def log(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        self.window_log_message(types.LogMessageParams(type=kind, message=message))

    def notify_json(self, method: str, params: str) -> None:
        """Send a notification whose params are JSON text already (see :mod:`.diagnostics`)."""
        self.protocol.write_json(f'{{"jsonrpc":"2.0","method":"{method}","params":{params}}}')

    def tell(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None:
        self.window_show_message(types.ShowMessageParams(type=kind, message=f"ScoreLens: {message}"))

    # -- settings --------------------------------------------------------------------------

    def client_supports(self, *path: str) -> bool:
        node: Any = self.client_capabilities
        for name in path:
            node = getattr(node, name, None)
            if node is None:
                return False
        return bool(node)

    async def settings_for(self, uri: str) -> Settings:
        """Layered, each over the one before: defaults, ``initializationOptions``, the settings
        pushed in ``workspace/didChangeConfiguration`` (by clients without
        ``workspace/configuration``), the document's folder's ``workspace/configuration``, and
        what commands set for this session."""
        raw = _merge({}, self.initial_settings)
        if self.client_supports("workspace", "configuration"):
            try:
                result = await self.workspace_configuration_async(
                    types.ConfigurationParams(items=[types.ConfigurationItem(scope_uri=uri, section="scorelens")])
                )
                pulled = result[0] if result else None
                raw = _merge(raw, pulled if isinstance(pulled, dict) else {})
            except Exception as exc:  # a client that fails the request still gets the other layers
                self.log(f"workspace/configuration failed: {exc}", types.MessageType.Warning)
        else:
            raw = _merge(raw, self.pushed_settings)
        raw = _merge(raw, self.overrides)
        settings, problems = parse(raw)
        settings, clashes = checked(settings)
        problems += clashes
        key = repr(raw)
        if problems and self._settings_raw.get(uri) != key:
            self.tell("invalid settings, defaults used instead: " + "; ".join(problems))
        self._settings_raw[uri] = key
        return settings

    # -- reviews ---------------------------------------------------------------------------

    async def track(self, uri: str, reuse: bool = False) -> None:
        """(Re)build the review of a document if it is a hypothesis, or drop it. With ``reuse``
        (settings changed), a review whose pairing and settings are the same is kept as it is:
        eglot sends its settings right after ``didOpen``, while the first score is under way."""
        pairing = self.pairings.resolve(uri, files_in(self.documents.open.keys()))
        source = pairing.source if pairing is not None else None
        alone = Pairing(uri, (), "checked alone", source=source) if pairing is not None or self._is_reference(uri) else None
        if alone is not None and pairing is None:
            # a reference has a review only when ppl alone is on: its settings decide
            settings = await self.settings_for(uri)
            pairing = alone if settings.fluency_only else None
        if pairing is None:
            self._tracking.pop(uri, None)
            self.drop(uri)
            return
        ticket = self._tracking[uri] = object()
        settings = await self.settings_for(uri)
        if self._tracking.get(uri) is not ticket:
            return  # a later call has newer settings or pairing
        del self._tracking[uri]
        if settings.fluency_only:
            pairing = alone  # fluency needs no reference
        doc = self.documents.open.get(uri)
        language = language_of(to_fs_path(uri) or uri, doc.language_id if doc else None)
        config, problems = configured(self, uri, settings, language, len(pairing.references))
        if problems and self._config_told.get(uri) != tuple(problems):
            self.tell("settings that do not go together, defaults used instead: " + "; ".join(problems))
        self._config_told[uri] = tuple(problems)
        if is_formatted(pairing):
            config = replace(config, segmentation="line")  # each record is a segment, whatever the setting
        if not pairing.references:
            config = replace(config, metrics=frozenset())  # checked alone: for fluency, or against its source
        old = self.reviews.pop(uri, None)
        if reuse and old is not None and (old.pairing, old.settings, old.config) == (pairing, settings, config):
            self.reviews[uri] = old
            return
        if old is not None and old.task is not None:
            old.task.cancel()
        review = Review(uri, pairing, settings, config, None, language=language)
        self.reviews[uri] = review
        self.load(review)
        self.scheduler.schedule(review, delay=0)

    def _is_reference(self, uri: str) -> bool:
        """Named like a reference, or named as one by an open hypothesis."""
        if named_like_reference(Path(to_fs_path(uri) or uri)):
            return True
        names = files_in(self.documents.open.keys())
        return any(uri in p.references for h in self.documents.open if h != uri and (p := self.pairings.resolve(h, names)) is not None)

    def load(self, review: Review) -> None:
        """Read the texts and build the corpus; problems become diagnostics, never exceptions."""
        review.problems = []
        review.cache.clear()
        review.hints.clear()
        review.table = review.table_of = None
        review.views_stale = True
        review.layouts = review.line_maps = None
        review.record_problems = []
        review.readings = {}
        review.last_read = None
        review.edited_lines = {}
        review.unread_edits, review.reading = 0, None
        pairing = review.pairing
        # (a source outside is the QA checks' to refuse: the scores do not need it)
        refused = () if review.settings.allow_outside_workspace else tuple(r for r in pairing.outside if r in pairing.references)
        for ref in refused:
            review.problems.append(
                Problem(
                    "pairing.outside-workspace",
                    f"reference {to_fs_path(ref)} is outside the workspace folders; "
                    "set scorelens.allowOutsideWorkspace to use it",
                    ref,
                )
            )
        max_bytes = review.settings.max_file_bytes
        # a formatted document's reader takes its text; plain text is scored as sacreBLEU's lines of it
        read = self.documents.text if is_formatted(pairing) else self.documents.read
        texts = []
        for ref in dict.fromkeys(pairing.references):  # (a document holding two reference fields is named twice)
            if ref in refused:
                continue  # never opened: the message above cannot tell anything about it
            try:
                texts.append(read(ref, max_bytes))
            except UnreadableText as exc:
                code = "pairing.missing-reference" if isinstance(exc, MissingFile) else "pairing.unreadable-reference"
                review.problems.append(Problem(code, f"reference {exc}", ref))
        # the versions read, that what is published says it is of, even when they cannot be scored
        review.versions = {
            uri: self.documents.open[uri].version for uri in (review.uri, *pairing.references) if uri in self.documents.open
        }
        if review.problems:
            for p in review.problems:
                self.log(f"{to_fs_path(review.uri)}: {p.message}", types.MessageType.Warning)
            review.corpus = None
            return
        try:
            hypothesis = read(review.uri, max_bytes)
            if is_formatted(pairing):
                texts = dict(zip(dict.fromkeys(pairing.references), texts))
                review.corpus = self._formatted_corpus(review, {**texts, review.uri: hypothesis})
            else:
                sides = [hypothesis, *texts]
                hypothesis_lines, *reference_lines = (segment_lines(side.lines, side.breaks) for side in sides)
                review.corpus = Corpus(hypothesis_lines, reference_lines, review.config)
                review.line_maps = [LineMap(side) for side in sides]
        except UnreadableText as exc:
            review.problems.append(Problem("pairing.unreadable-hypothesis", str(exc)))
            review.corpus = None
        except FormatError as exc:
            at = None
            if isinstance(exc, UnreadableDocument) and exc.uri == review.uri and exc.line is not None:
                # the place its parser stopped at (an XML error), where the user is typing
                place = self.columns.position(split_breaks(hypothesis)[0], exc.line - 1, exc.column - 1)
                at = (place.line, place.character)
            review.problems.append(Problem("format.unreadable", str(exc), at=at))
            review.corpus = None
        except (TokenizerUnavailable, ValueError) as exc:
            review.problems.append(Problem("scoring.unavailable", str(exc)))
            review.corpus = None
        attach(self, review)
        qa.attach(self, review)

    def _formatted_corpus(self, review: Review, texts: dict[str, str]) -> Corpus | None:
        """The corpus of a formatted pairing: one text per paired record, and each side's layout."""
        sides = read_sides(review.pairing, texts, review.readings)
        if not sides.references and (review.pairing.source is not None or sides.layouts[0].sources() is not None):
            # no reference, but a source: a source document, or the sources the records hold (XLIFF, PO, TMX units)
            review.config = replace(review.config, metrics=frozenset())
        elif not sides.references:
            review.problems.append(
                Problem(
                    NO_REFERENCES,
                    "no record holds a reference field: name the fields (reference_fields in a [[pair]] of "
                    "scorelens.toml), or give the file a reference (NAME.hyp.EXT with NAME.ref.EXT)",
                )
            )
            return None
        # a side per reference stream: a document holding two reference fields is two sides
        review.pairing = replace(review.pairing, references=sides.references)
        review.last_read = sides
        review.layouts, review.record_problems = sides.layouts, sides.problems
        config = review.config
        if review.language is None and sides.languages[1]:  # the target language it declares picks BLEU's tokenizer
            config = in_language(config, review.settings, sides.languages[1])
        if sides.rules == "sclite" and config.wer_rules == "jiwer":
            config = replace(config, wer_rules="sclite")  # sclite's files are scored by sclite's rules
        # a trailing empty line ends each list of texts, as the core's line lists end
        return Corpus(sides.texts[0] + [""], [t + [""] for t in sides.texts[1:]], config)

    def reread(self, review: Review) -> bool:
        """A document of a formatted review changed: hand the corpus the texts that changed.
        False if the review had to be loaded again instead (a document that could not be read
        may be readable now).

        Typing within lines of one-line records (JSONL, TRN, STM) reads only the edited lines,
        here (:func:`.formatted.reread_lines`). Any other edit leaves the documents to be read
        whole by the re-score, in a thread (:meth:`read_again`): that takes seconds on a large
        pair, and the event loop is never blocked. Until then the review keeps what it last read."""
        edited, review.edited_lines = review.edited_lines, {}
        if review.corpus is None:
            # an edit can make a document readable, or give its records reference fields
            if any(p.code.startswith("format.") for p in review.problems):
                self.load(review)
                return False
            return True
        if (
            not review.unread_edits
            and review.last_read is not None
            and self._as_read(review, edited)
            and reread_lines(review.last_read, review.readings, edited, {uri: self.documents.open[uri].lines for uri in edited}, review.corpus)
        ):
            review.record_problems = review.last_read.problems
            review.versions.update((uri, self.documents.open[uri].version) for uri in edited)
            return True
        review.unread_edits += 1
        return True

    async def read_again(self, review: Review) -> None:
        """Read a formatted review's documents whole after the edits :meth:`reread` left unread,
        in a thread on a snapshot of their texts, and put the result in place on the event loop
        (the corpus is handed only the texts that changed, :func:`.formatted.update`). An edit
        while the thread reads makes its result stale: the documents are read again. One thread
        reads at a time: a re-score cancelled by an edit leaves its thread's reading to the next."""
        while review.unread_edits and review.corpus is not None and self.reviews.get(review.uri) is review:
            job = review.reading
            if job is not None and job.edits != review.unread_edits and not job.future.done():
                await asyncio.shield(job.future)  # a stale reading still under way: not two at once
                continue
            if job is None or job.edits != review.unread_edits:
                uris = dict.fromkeys((review.uri, *review.pairing.references))
                try:
                    texts = {uri: self.documents.text(uri, review.settings.max_file_bytes) for uri in uris}
                except UnreadableText:
                    self.load(review)
                    return
                readings = dict(review.readings)  # the thread adds to its own copy
                versions = {uri: self.documents.open[uri].version for uri in uris if uri in self.documents.open}
                future = asyncio.ensure_future(asyncio.to_thread(read_sides, review.pairing, texts, readings))
                _uncollected_until(future)
                job = review.reading = Reading(review.unread_edits, future, readings, versions)
            try:
                sides = await asyncio.shield(job.future)
            except FormatError:
                sides = None
            if review.reading is not job or job.edits != review.unread_edits or self.reviews.get(review.uri) is not review:
                continue  # edited (or loaded again) meanwhile: its texts are stale
            review.reading, review.unread_edits = None, 0
            if sides is None or sides.references != review.pairing.references or sides.languages[1] != review.last_read.languages[1]:
                # a reference field came or went, a document can no longer be read, or the target
                # language it declares changed (BLEU's tokenizer may follow it)
                self.load(review)
                return
            update(review.corpus, sides)
            review.readings, review.last_read = job.readings, sides
            review.layouts, review.record_problems = sides.layouts, sides.problems
            review.versions.update(job.versions)

    def _as_read(self, review: Review, edited: dict) -> bool:
        """Whether the review's documents are as last read but for the ``edited`` ones, which
        are open: an open document changes only by the edits noted, a closed one on disk."""
        for uri in dict.fromkeys(review.last_read.uris):
            if uri in edited:
                if uri not in self.documents.open:
                    return False
            elif uri not in self.documents.open:
                try:
                    text = self.documents.text(uri, review.settings.max_file_bytes)
                except UnreadableText:
                    return False
                done = review.readings.get(uri)
                if done is None or done.text != text:
                    return False
        return True

    def drop(self, uri: str) -> None:
        """Stop reviewing a document: its re-score cancelled, its diagnostics and scores cleared."""
        review = self.reviews.pop(uri, None)
        if review is None:
            return
        if review.task is not None:
            review.task.cancel()
        diagnostics.clear(self, review)
        report.notify_scores(self, review.uri, None)

    def reviews_of(self, uri: str) -> list[Review]:
        """Reviews in which a document is the hypothesis or a reference."""
        return [r for r in self.reviews.values() if r.uri == uri or uri in r.pairing.references or r.pairing.source == uri]

    async def refresh_all(self, reuse: bool = False) -> None:
        """Settings or pairing rules changed: rebuild every review of an open document (with
        ``reuse``, only those whose settings did change)."""
        self._settings_raw.clear()
        self._config_told.clear()
        self.models.told.clear()
        for uri in list(self.documents.open):
            await self.track(uri, reuse)
        await agreement.rebuild(self)


def _uncollected_until(future: asyncio.Future) -> None:
    """No garbage collection while a thread reads documents whole: the collector holds the
    interpreter lock while it walks every object, and the reading makes hundreds of thousands,
    so a full collection in the thread would block the event loop (up to 0.7 s at 100,000
    records). They are acyclic (reference counting frees them) and frozen once made, as the
    re-score's (see Review.refresh)."""
    if not gc.isenabled():
        return

    def collect(_) -> None:
        gc.freeze()
        gc.enable()

    gc.disable()
    future.add_done_callback(collect)


def _merge(base: dict, override: dict) -> dict:
    merged = dict(base)
    for key, value in override.items():
        merged[key] = _merge(merged.get(key) or {}, value) if isinstance(value, dict) else value
    return merged


server = ScoreLensServer()


def _answer(error: BaseException | None) -> bool:
    """Whether an error is an answer the protocol expects (ContentModified after an edit,
    InvalidParams for bad arguments, ...), not a failure of the server: only InternalError is."""
    return isinstance(error, JsonRpcException) and not isinstance(error, JsonRpcInternalError)


class _AnswersAreNotFailures(logging.Filter):
    """pygls logs a traceback for every error it answers with; a report overtaken by edits is
    answered ContentModified while the user types, and a traceback for each would bury real ones.
    It also warns of each ``$/cancelRequest`` for a request already answered: VS Code sends
    several a second while the user types (the answer and the cancellation cross), and shows
    each as an error line in the server's log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == 'Cancel notification for unknown message id "%s"':
            return False
        return not (record.exc_info and _answer(record.exc_info[1]))


def main() -> None:
    """Serve one client over standard input and output (``serve --tcp`` runs one of these per client)."""
    for module in (handlers, agreement, code_actions, code_lens, commands, compare, diagnostics, hover, inlay_hints, report):
        module.register(server)
    logging.basicConfig(level=logging.WARNING)
    # The threads that read the input and write the output wait for the interpreter's lock this
    # long at most while the event loop works (CPython's default is 5 ms, at each of a message's
    # hops: a hover sent during a background build took 16-22 ms with it, 5-7 ms with this).
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    logging.getLogger("pygls.protocol.json_rpc").addFilter(_AnswersAreNotFailures())
    # What the imports made (~60,000 objects, lsprotocol's attrs classes above all: costly to
    # walk) lives as long as the process: frozen, out of the collector's generations, or each
    # full collection walks it again, holding the event loop 50-85 ms.
    gc.freeze()
    try:
        server.start_io()
    finally:
        if server.protocol.writer is not None:
            server.protocol.writer.flush()  # the input ended (no exit): what is queued is still sent

