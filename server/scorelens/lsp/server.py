"""The ScoreLens language server: documents, pairing, settings and the re-scoring schedule.

Feature modules (diagnostics, hover, inlay hints, code lens, code actions, commands, report)
register their handlers on the one server instance made here and only translate core results
into LSP types.
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import json
import logging
import os
import queue
import sys
import threading
import time
import uuid
from functools import partial
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcContentModified, JsonRpcException, JsonRpcInternalError, JsonRpcInvalidRequest
from pygls.io_ import StdoutWriter, run_async
from pygls.lsp.server import LanguageServer
from pygls.protocol import default_converter, lsp_method
from pygls.protocol.json_rpc import RPCRequest
from pygls.uris import to_fs_path

from .. import __version__
from ..core import Corpus, TokenizerUnavailable
from ..textfile import MissingFile, UnreadableText
from .compare import Comparisons
from .diagnostics import VISIBLE_RANGES, VisibleRangesNotification
from .fluency import Models, attach
from .documents import Documents, OpenDocument
from .pairing import Pairing, Pairings, files_in, named_like_reference
from .positions import Columns
from .reviews import LARGE_SEGMENTS, STAY_S, Problem, Review
from .settings import Settings, language_of, parse, scoring_config
from .wire import BoundedReader, GuardedProtocol, MessageReader
from .worker import Worker

log = logging.getLogger(__name__)

# Re-scoring that takes longer than this shows work-done progress.
PROGRESS_AFTER_S = 0.5
# Progress is reported at most this often: each report redraws the client's status bar (one per
# 4 ms slice cost VS Code 1.4 s of its main thread while a 100,000-line pair was re-paired).
PROGRESS_EVERY_S = 0.25
# A request scores up to this many dirty segments itself rather than wait for the re-score
# (a keystroke dirties one; scoring one takes well under a millisecond).
SCORE_IN_REQUEST = 64
# A request the server sends (configuration, refreshes, progress) that the client leaves this
# long unanswered is forgotten: pygls would keep it in its pending table for ever.
CLIENT_ANSWER_S = 30.0


class ScoreLensProtocol(GuardedProtocol):
    """pygls's protocol (guarded against malformed input, :mod:`.wire`) without its own copy of
    the open documents.

    The server keeps open documents in its line model (:mod:`.documents`); pygls's copy would
    split and re-join a whole 100,000-line text on every keystroke.
    """

    def get_message_type(self, method: str):
        return VisibleRangesNotification if method == VISIBLE_RANGES else super().get_message_type(method)

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        yield self.fm.features[types.TEXT_DOCUMENT_DID_OPEN], (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        yield self.fm.features[types.TEXT_DOCUMENT_DID_CHANGE], (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        yield self.fm.features[types.TEXT_DOCUMENT_DID_CLOSE], (params,), None

    def _execute_handler(self, msg_id, handler, callback, args=None, kwargs=None):
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        # pygls files a notification's future (async or generator handler: didOpen, didChange, ...),
        # and that of each handler a generator handler waits on (ScoreLensServer.settling), among
        # the pending requests and never takes it out: one entry more per keystroke. Only a
        # request's own is taken out, when it is answered; the others are taken out here, on the
        # loop's next turn: pygls's shutdown cancels the pending futures while it walks the table,
        # and a generator's future calls back at once.
        # A generator whose request was cancelled never looks at what its sub-handler raised
        # (ContentModified once the document closed): taken here, or asyncio logs each as never
        # retrieved.
        future = self._request_futures.get(msg_id)
        answer = isinstance(callback, partial) and callback.func == self._send_handler_result
        if future is not None and not answer:
            loop = asyncio.get_running_loop()

            def done(future) -> None:
                if not future.cancelled():
                    future.exception()
                loop.call_soon_threadsafe(self._request_futures.pop, msg_id, None)

            future.add_done_callback(done)

    def send_request(self, method, params=None, callback=None, msg_id=None):
        """Send a request to the client, forgotten if it is not answered in ``CLIENT_ANSWER_S``.
        ``callback`` is called with a result only: pygls would call it on an error or a timeout
        too, and log a traceback for each (one per progress a silent client never created)."""
        msg_id = msg_id if msg_id is not None else str(uuid.uuid4())
        future = super().send_request(method, params, None, msg_id)
        if callback is not None:

            def answered(done) -> None:
                if not done.cancelled() and done.exception() is None:
                    callback(done.result())

            future.add_done_callback(answered)
        try:
            timer = asyncio.get_running_loop().call_later(CLIENT_ANSWER_S, self._unanswered, method, msg_id)
        except RuntimeError:  # no loop running (not serving yet): nothing can wait for it either
            return future
        # an error answer leaves its expected result type behind in pygls
        future.add_done_callback(lambda _: (timer.cancel(), self._result_types.pop(msg_id, None)))
        return future

    def _unanswered(self, method: str, msg_id) -> None:
        self._result_types.pop(msg_id, None)
        future = self._request_futures.pop(msg_id, None)
        if future is not None and not future.done():
            future.set_exception(TimeoutError(f"the client did not answer {method} within {CLIENT_ANSWER_S:.0f} s"))

    def _send_response(self, msg_id, result=None, error=None):
        if error is None and isinstance(result, RawResult):
            # tens of thousands of inlay hints, encoded once: not converted to objects and back
            self._result_types.pop(msg_id, None)
            head = f'{{"jsonrpc":"2.0","id":{json.dumps(msg_id)},"result":'.encode() + result.head
            self.writer.send(head, result.items, result.tail + b"}")
            return
        super()._send_response(msg_id, result, error)

    def write_json(self, body: str) -> None:
        """Send one message already encoded as JSON text."""
        self.writer.send(body.encode())

    def handle_message(self, message):
        # pygls drops requests after shutdown unanswered; the client would wait for them forever
        # (Neovim asks inlay hints while it closes). LSP: answer them InvalidRequest.
        if self._shutdown and isinstance(message, RPCRequest) and message.method != types.EXIT:
            self._send_response(message.id, None, JsonRpcInvalidRequest("the server is shut down").to_response_error())
            return
        super().handle_message(message)

    def set_writer(self, writer, include_headers: bool = True) -> None:
        super().set_writer(_Pipe(writer, self._server), include_headers)


class RawResult:
    """A request's result already encoded: the items of a JSON array, each as UTF-8 JSON text,
    between ``head`` and ``tail`` (by default the array's brackets; an object whose last member
    is the array ends it with its own)."""

    def __init__(self, items: list[bytes], head: bytes = b"[", tail: bytes = b"]") -> None:
        self.items = items
        self.head = head
        self.tail = tail


class _Pipe:
    """The connection to the client.

    Standard output is written by a thread of its own, in the order messages are sent: writing
    blocks until the client reads, and a whole 100,000-line document's inlay hints are 55 MB
    (Neovim asks them after every change), which held the event loop, and every request behind
    them, until the client had read nearly all of it. The queue holds the messages' bytes as built,
    not copies. Other writers (pygls's TCP and WebSocket ones, tests' sinks) are written directly.

    Once the client has closed the connection, writes are dropped and the server stops at the end
    of its input, quietly: pygls would log a BrokenPipeError traceback for every later write.
    """

    def __init__(self, writer, server) -> None:
        self._writer = writer
        self._server = server
        self.closed = False
        self._queue: queue.Queue | None = None
        self._queued = self._written = 0  # messages given to the thread, and those it is done with
        if isinstance(writer, StdoutWriter):
            self._queue = queue.Queue()
            threading.Thread(target=self._write_queued, name="scorelens-stdout", daemon=True).start()

    def write(self, data: bytes):
        """Send one message, framed (pygls's messages)."""
        if self.closed:
            return None
        if self._queue is not None:
            self._put(data)
            return None
        return self._write_now(data)

    def send(self, head: bytes, items: list[bytes] | None = None, tail: bytes = b"") -> None:
        """Send one message whose body is ``head``, then ``items`` joined by commas, then ``tail``:
        framed and joined by the writing thread, a slice at a time, as 55 MB joined at once held
        the loop 60 ms and doubled the answer in memory."""
        if self.closed:
            return
        message = (head, items or [], tail)
        if self._queue is not None:
            self._put(message)
            return
        sent = self._write_now(b"".join(_chunks(message)))
        if inspect.isawaitable(sent):  # the TCP and WebSocket writers
            asyncio.ensure_future(sent)

    def _put(self, message) -> None:
        self._queued += 1
        self._queue.put(message)

    def _write_queued(self) -> None:
        while True:
            message = self._queue.get()
            try:
                for chunk in () if self.closed else _chunks(message):
                    if self._write_now(chunk) is False:
                        break
            except Exception:  # a bug here would otherwise stop all output, silently
                log.exception("writing to the client failed")
            finally:
                self._written += 1
                self._queue.task_done()

    def _write_now(self, data: bytes):
        """Write, or return False if the client has closed the connection."""
        try:
            return self._writer.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.closed = True
            log.info("the client closed the connection; stopping")
            if isinstance(self._writer, StdoutWriter):
                # what is left in stdout's buffer would fail again, loudly, when Python exits
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            if self._server._stop_event is not None:
                self._server._stop_event.set()  # the reader ends at the end of input
            return False

    @property
    def waiting(self) -> bool:
        """Whether the writing thread has messages not yet written."""
        return self._queue is not None and self._written < self._queued

    async def drained(self) -> None:
        """Until what was sent so far is written (the client has read all but the pipe's buffer):
        a request about to build a large answer waits for the one before it rather than queue
        another 55 MB beside it while the client is slow to read."""
        sent = self._queued
        while self._written < sent:
            await asyncio.sleep(DRAIN_POLL_S)

    def flush(self) -> None:
        """Wait until what is queued is written (or dropped, the client gone)."""
        if self._queue is not None:
            self._queue.join()

    def close(self):
        """On ``exit``: what was sent before (the answer to ``shutdown``) is written first."""
        self.flush()
        if self.closed:
            return None
        self.closed = True  # nothing after exit
        try:
            return self._writer.close()
        except (BrokenPipeError, ConnectionResetError):
            return None


SLICE_ITEMS = 1024  # a message's items joined at a time by the writing thread (~0.5 MB of hints)
DRAIN_POLL_S = 0.005
# How long the event loop waits between two slices of work to let the threads run, and how much
# work it does at most without that wait (see ScoreLensServer.next_slice).
THREADS_TURN_S = 0.001
THREADS_TURN_EVERY_S = 0.02
SWITCH_INTERVAL_S = 0.0005


def _chunks(message: bytes | tuple[bytes, list[bytes], bytes]):
    """The bytes of a message given to :class:`_Pipe`, in chunks: a framed message as it is;
    ``(head, items, tail)`` framed, with its items joined by commas ``SLICE_ITEMS`` at a time (each
    join holds the interpreter's lock, so a short one leaves it to the event loop soon)."""
    if isinstance(message, bytes):
        yield message
        return
    head, items, tail = message
    slices = range(0, len(items), SLICE_ITEMS)
    length = len(head) + max(len(items) - 1, 0) + len(tail)
    for k in slices:
        length += sum(map(len, items[k : k + SLICE_ITEMS]))
    yield b"Content-Length: %d\r\n\r\n" % length + head
    for k in slices:
        yield b",".join([b""] * (k > 0) + items[k : k + SLICE_ITEMS])  # the comma before, after the first
    if tail:
        yield tail


def _text(value: Any, _type: type) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__}")
    return value


def _strict_converter():
    """pygls's converter, except that a number is not taken for a string (``"uri": 7`` would be
    the document "7")."""
    converter = default_converter()
    converter.register_structure_hook(str, _text)
    return converter


class ScoreLensServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "scorelens",
            __version__,
            protocol_cls=ScoreLensProtocol,
            converter_factory=_strict_converter,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            max_workers=2,
        )
        self.documents = Documents()
        self._threads_turn = time.perf_counter()  # when next_slice last let the threads run
        self.worker = Worker()
        self.models = Models()
        self.pairings = Pairings()
        self.reviews: dict[str, Review] = {}
        self.columns = Columns(None)
        self.overrides: dict[str, Any] = {}  # session-only settings set by commands
        # settings layers under workspace/configuration's (see settings_for)
        self.initial_settings: dict[str, Any] = {}
        self.pushed_settings: dict[str, Any] = {}
        self.pull_diagnostics = False
        self._settings_raw: dict[str | None, Any] = {}
        # the latest track() of each document: an earlier one still waiting for settings gives way
        self._tracking: dict[str, object] = {}
        # the last diagnostics notification sent per document, so an identical one is not sent
        # again (for a pulling client: the items it last pulled)
        self.published: dict[str, str] = {}
        # for a pulling client, the resultId of what ``published`` holds: a pull that names it is
        # answered "unchanged", and the client keeps its diagnostics as they are
        self.result_ids: dict[str, str] = {}
        self.comparisons = Comparisons()
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
        alone = Pairing(uri, (), "checked alone") if pairing is not None or self._is_reference(uri) else None
        if alone is not None and pairing is None:
            # a reference has a review only when ppl alone is on: its settings decide
            settings = await self.settings_for(uri)
            pairing = alone if settings.fluency_only else None
        if pairing is None:
            self._tracking.pop(uri, None)
            old = self.reviews.pop(uri, None)
            if old is not None:
                if old.task is not None:
                    old.task.cancel()
                self.forget(old)
            return
        ticket = self._tracking[uri] = object()
        settings = await self.settings_for(uri)
        if self._tracking.get(uri) is not ticket:
            return  # a later call has newer settings or pairing
        del self._tracking[uri]
        if settings.fluency_only:
            pairing = alone  # fluency needs no reference
        doc = self.documents.open.get(uri)
        config = scoring_config(settings, language_of(to_fs_path(uri) or uri, doc.language_id if doc else None))
        old = self.reviews.pop(uri, None)
        if reuse and old is not None and (old.pairing, old.settings, old.config) == (pairing, settings, config):
            self.reviews[uri] = old
            return
        if old is not None and old.task is not None:
            old.task.cancel()
        review = Review(uri, pairing, settings, config, None)
        self.reviews[uri] = review
        self.load(review)
        self.schedule(review, delay=0)

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
        pairing = review.pairing
        refused = () if review.settings.allow_outside_workspace else pairing.outside
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
        texts = []
        for ref in pairing.references:
            if ref in refused:
                continue  # never opened: the message above cannot tell anything about it
            try:
                texts.append(self.documents.text(ref, max_bytes))
            except UnreadableText as exc:
                code = "pairing.missing-reference" if isinstance(exc, MissingFile) else "pairing.unreadable-reference"
                review.problems.append(Problem(code, f"reference {exc}", ref))
        if review.problems:
            for p in review.problems:
                self.log(f"{to_fs_path(review.uri)}: {p.message}", types.MessageType.Warning)
            review.corpus = None
            return
        review.versions = {
            uri: self.documents.open[uri].version for uri in (review.uri, *pairing.references) if uri in self.documents.open
        }
        try:
            review.corpus = Corpus(self.documents.text(review.uri, max_bytes), texts, review.config)
        except UnreadableText as exc:
            review.problems.append(Problem("pairing.unreadable-hypothesis", str(exc)))
            review.corpus = None
        except (TokenizerUnavailable, ValueError) as exc:
            review.problems.append(Problem("scoring.unavailable", str(exc)))
            review.corpus = None
        attach(self, review)

    def forget(self, review: Review) -> None:
        from . import diagnostics, report

        diagnostics.clear(self, review)
        report.notify_scores(self, review.uri, None)

    def reviews_of(self, uri: str) -> list[Review]:
        """Reviews in which a document is the hypothesis or a reference."""
        return [r for r in self.reviews.values() if r.uri == uri or uri in r.pairing.references]

    def schedule(self, review: Review, delay: float | None = None) -> None:
        """Re-score after ``delay`` seconds; by default the debounce: scorelens.debounceMs if set,
        else the review's measured pace."""
        rescoring = review.task is not None and not review.task.done()
        if review.task is not None:
            review.task.cancel()
        review.done.clear()
        review.pausing = False
        if delay is None:
            fixed = review.settings.debounce_ms
            large = review.corpus is not None and len(review.corpus) > LARGE_SEGMENTS
            pause = review.settings.typing_pause_ms / 1000 if large else 0.0
            delay = fixed / 1000 if fixed is not None else review.pace.delay(time.monotonic(), rescoring, pause)
            review.pausing = fixed is None and bool(pause) and delay >= pause
        review.task = asyncio.ensure_future(self._rescore(review, delay))
        review.task.add_done_callback(self._rescore_ended)

    def _rescore_ended(self, task: asyncio.Task) -> None:
        # nobody awaits a re-score but requests, which are cancelled or gone: its failure would go unseen
        if not task.cancelled() and task.exception() is not None:
            self.report_server_error(task.exception(), "re-score")

    async def _rescore(self, review: Review, delay: float) -> None:
        from . import diagnostics, fluency, inlay_hints, report

        if delay:
            await asyncio.sleep(delay)
        began = time.perf_counter()
        cold = False
        # The diagnostics are built in slices too (after a cold re-score or at a new place, up to
        # maxProblems of them). That yields, and an edit meanwhile that does not cancel this task
        # (run on save) leaves the corpus dirty again: it is scored again before they are sent.
        while True:
            started = time.monotonic()
            progress = _Progress(self, review)
            try:
                sliced = await review.refresh(lambda done, total: progress.report(done, total, started), self.worker, self.next_slice)
            finally:
                progress.end()  # also when an edit cancels this re-score: the client shows it until told
            cold |= sliced
            if review.lm is not None:
                # publishes the other metrics first if the model process keeps it waiting
                await fluency.refresh(self, review, lambda: self._publish(review))
            if await diagnostics.publish(self, review) or self.reviews.get(review.uri) is not review:
                break
        if cold and self.reviews.get(review.uri) is review:
            # after the diagnostics, whose slices these would share the event loop with
            inlay_hints.prepare_soon(self, review)
            report.prepare_soon(self, review)
        self._announce(review)
        if not cold:  # an edit's cost, not a cold start's
            review.pace.measured(time.perf_counter() - began)
        review.done.set()

    async def _publish(self, review: Review) -> None:
        from . import diagnostics

        if await diagnostics.publish(self, review):
            self._announce(review)

    def _announce(self, review: Review) -> None:
        from . import report

        if review.views_stale:  # asked before the scores are announced, so a client that reacts
            review.views_stale = False  # to them finds its views already asked for again
            self.refresh_views()
        report.notify_scores(self, review.uri, review)
        self.comparisons.rescored(self, review)

    def refresh_views(self) -> None:
        # The client re-requests hints and lenses of the document it edits, not of the others.
        if self.client_supports("workspace", "inlay_hint", "refresh_support"):
            self.workspace_inlay_hint_refresh(None)
        if self.client_supports("workspace", "code_lens", "refresh_support"):
            self.workspace_code_lens_refresh(None)

    async def next_slice(self) -> None:
        """Between two slices of work on the event loop. Yielding to the loop alone releases the
        interpreter lock only for an instant, in a select() that does not wait, and CPython counts
        that as the lock changing hands: a thread woken meanwhile never gets to ask for it, and
        pygls reads the input, and ScoreLens writes its output, in threads. While the inlay hints
        were built in the background a hover was read 3.2-3.8 s after it was sent, and a hint
        answer queued 0.26 s after its request was written after 1.1-5.3 s, both once the build
        was done. So the loop waits a moment without the lock while output waits, and at least
        every THREADS_TURN_EVERY_S of work (input cannot be seen waiting: the reading thread has
        taken it from the pipe).

        Otherwise it yields twice. A task woken while a slice ran (the reader's, by a message
        read) is queued behind the slicing task, which queued itself again as it yielded: one
        yield would run another slice before it."""
        writer = self.protocol.writer
        if (writer is not None and writer.waiting) or time.perf_counter() - self._threads_turn >= THREADS_TURN_EVERY_S:
            await asyncio.sleep(THREADS_TURN_S)
            self._threads_turn = time.perf_counter()
        else:
            await asyncio.sleep(0)
            await asyncio.sleep(0)

    def settle_now(self, review: Review, scored: bool = False) -> bool:
        """Score what is left of the review's latest edit here and now if it is little (a
        keystroke's segments); whether nothing is left to wait for. ContentModified if the review
        was replaced (settings or pairing changed), or, ``scored``, lost its corpus."""
        if self.reviews.get(review.uri) is not review or (scored and review.corpus is None):
            raise JsonRpcContentModified("the document's pairing or settings changed; ask again")
        corpus, task = review.corpus, review.task
        if corpus is None:
            return True
        if (corpus.pending <= SCORE_IN_REQUEST and not corpus.long_pending()) or task is None or task.done():
            corpus.refresh()
            return True
        return False

    async def settled(self, review: Review, pause: bool = False) -> None:
        """Wait until the review's latest edit is scored, for a request to answer from.

        Little left to score is scored at once (:meth:`settle_now`), so requests are answered
        while edits keep coming; more, or a long segment, is waited for through the re-score's
        slices and its worker. An edit meanwhile restarts the re-score and the wait goes on: the
        answer is from the newest text. Only the client's own cancellation cancels the request;
        a review replaced meanwhile (settings or pairing changed) answers ContentModified.

        ``pause``: while a burst of typing is held for scorelens.typingPauseMs, wait for its
        re-score instead: a pulled diagnostics or inlay-hint answer replaces every marker or hint
        the client draws in its range, so once a burst, as a push does.
        """
        scored = review.corpus is not None
        while (pause and review.pausing and review.task is not None and not review.task.done()) or not self.settle_now(review, scored):
            try:
                await asyncio.shield(review.task)
            except asyncio.CancelledError:
                if asyncio.current_task().cancelling():
                    raise  # the client cancelled

    def settling(self, review: Review):
        """:meth:`settled` for a request handler written as a generator, ``yield from
        ls.settling(review)``: pygls answers such a handler in the call that reads the request when
        it does not wait, where an ``async`` one is started, and answered, each on a later turn
        of the event loop, both behind any slice of background work (an inlay-hint build, a
        re-score) that turn has first."""
        if not self.settle_now(review):
            yield self.settled, (review,), {}

    # -- document events -------------------------------------------------------------------

    def apply_changes(self, doc: OpenDocument, changes: list) -> None:
        reviews = self.reviews_of(doc.uri)
        over = [doc.larger_than(r.settings.max_file_bytes) for r in reviews]
        for change in changes:
            edit = doc.apply(change, self.columns)
            for review in reviews:
                review.views_stale |= review.uri != doc.uri
                if review.corpus is not None:
                    for side in review.sides(doc.uri):
                        review.corpus.replace_lines(side, edit.start, edit.end, edit.lines)
                        review.edited(side, edit.start)
                    review.versions[doc.uri] = doc.version
        for review, was_over in zip(reviews, over):
            self._follow_soon(review)
            if doc.larger_than(review.settings.max_file_bytes) != was_over:
                self.load(review)  # grown past scorelens.maxFileBytes, or back under it
                self.schedule(review, delay=0)
            elif review.settings.run == "onType":
                self.schedule(review)

    def _follow_soon(self, review: Review) -> None:
        """Follow the newest edit's place with the diagnostics if no edit comes for ``STAY_S``
        (one edited twice in a row is followed already)."""
        if review.stay is not None:
            review.stay.cancel()
        if review.edits and review.edits[0] not in review.followed:
            review.stay = asyncio.ensure_future(self._follow(review))

    async def _follow(self, review: Review) -> None:
        from . import diagnostics

        await asyncio.sleep(STAY_S)
        if self.reviews.get(review.uri) is review:
            review.follow()
            await diagnostics.looked_elsewhere(self, review)

    async def refresh_all(self, reuse: bool = False) -> None:
        """Settings or pairing rules changed: rebuild every review of an open document (with
        ``reuse``, only those whose settings did change)."""
        self._settings_raw.clear()
        self.models.told.clear()
        for uri in list(self.documents.open):
            await self.track(uri, reuse)


class _Progress:
    """Work-done progress for a long re-score, begun only once it has taken a while."""

    def __init__(self, server: ScoreLensServer, review: Review) -> None:
        self.server = server
        self.review = review
        self.token: str | None = None
        self.reported = 0.0  # time.monotonic() of the last begin or report

    def report(self, done: int, total: int, started: float) -> None:
        if not self.server.client_supports("window", "work_done_progress"):
            return
        percentage = int(100 * done / max(total, 1))
        now = time.monotonic()
        if now - self.reported < PROGRESS_EVERY_S:
            return
        if self.token is None:
            if now - started < PROGRESS_AFTER_S:
                return
            self.token = f"scorelens-{id(self.review)}-{time.monotonic_ns()}"
            self.server.work_done_progress.create(self.token)
            self.server.work_done_progress.begin(
                self.token, types.WorkDoneProgressBegin(title="ScoreLens: scoring", percentage=percentage, cancellable=False)
            )
        else:
            self.server.work_done_progress.report(
                self.token, types.WorkDoneProgressReport(message=f"{done}/{total} segments", percentage=percentage)
            )
        self.reported = now

    def end(self) -> None:
        if self.token is not None:
            self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd())


def settings_section(value: Any) -> dict:
    """The ``scorelens`` section from ``{"scorelens": {...}}``, or the bare section itself."""
    if not isinstance(value, dict):
        return {}
    section = value.get("scorelens", value)
    return section if isinstance(section, dict) else {}


def _merge(base: dict, override: dict) -> dict:
    merged = dict(base)
    for key, value in override.items():
        merged[key] = _merge(merged.get(key) or {}, value) if isinstance(value, dict) else value
    return merged


server = ScoreLensServer()


@server.feature(types.INITIALIZE)
def initialize(ls: ScoreLensServer, params: types.InitializeParams) -> None:
    # a folder that is not a file: URI (untitled:, http:) holds no files to pair
    folders = [Path(p) for p in (to_fs_path(f.uri) for f in params.workspace_folders or []) if p]
    if not folders and params.root_uri and to_fs_path(params.root_uri):
        folders = [Path(to_fs_path(params.root_uri))]
    ls.pairings.set_folders(folders)
    ls.initial_settings = settings_section(params.initialization_options)
    from . import diagnostics, report

    ls.reports_wanted = report.shows_reports(params.capabilities)
    diagnostics.offer_pull(ls)


@server.feature(types.INITIALIZED)
async def initialized(ls: ScoreLensServer, params: types.InitializedParams) -> None:
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


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: ScoreLensServer, params: types.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    ls.documents.open[item.uri] = OpenDocument.of(item.uri, item.version, item.language_id, item.text)
    # an open reference's live text replaces what was read from disk
    for review in ls.reviews_of(item.uri):
        if review.uri != item.uri:
            ls.load(review)
            ls.schedule(review, delay=0)
    await ls.track(item.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: ScoreLensServer, params: types.DidChangeTextDocumentParams) -> None:
    doc = ls.documents.open.get(params.text_document.uri)
    if doc is None:
        return
    doc.version = params.text_document.version
    ls.apply_changes(doc, params.content_changes)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: ScoreLensServer, params: types.DidSaveTextDocumentParams) -> None:
    for review in ls.reviews_of(params.text_document.uri):
        if review.settings.run == "onSave":
            ls.schedule(review, delay=0)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: ScoreLensServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.documents.open.pop(uri, None)
    ls.visible.pop(uri, None)
    if ls.pull_diagnostics:  # the client drops a closed document's pulled diagnostics
        ls.published.pop(uri, None)
        ls.result_ids.pop(uri, None)
    review = ls.reviews.pop(uri, None)
    if review is not None:
        if review.task is not None:
            review.task.cancel()
        ls.forget(review)
    # a closed reference is scored from its file again
    for other in ls.reviews_of(uri):
        ls.documents.forget(uri)
        ls.load(other)
        ls.schedule(other, delay=0)


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: ScoreLensServer, params: types.DidChangeConfigurationParams) -> None:
    if params.settings is not None:  # VS Code sends null and is asked with workspace/configuration
        ls.pushed_settings = settings_section(params.settings)
    await ls.refresh_all(reuse=True)


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
async def did_change_watched_files(ls: ScoreLensServer, params: types.DidChangeWatchedFilesParams) -> None:
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
    for review in list(ls.reviews.values()):
        closed_refs = [r for r in review.pairing.references if r not in ls.documents.open]
        if review.problems or any(r in touched for r in closed_refs):
            # a created file can complete a pairing by convention: resolve it again
            await ls.track(review.uri)


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
    from . import code_actions, code_lens, commands, compare, diagnostics, hover, inlay_hints, report

    for feature in (code_actions, code_lens, commands, compare, diagnostics, hover, inlay_hints, report):
        feature.register(server)
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
