"""The server's protocol: pygls's, guarded against malformed input (:mod:`.wire`), writing through
the ordered writer (:mod:`.writer`), and patched where pygls would keep, lose or wait for things.

- No copy of the open documents: the server keeps them in its line model (:mod:`.documents`);
  pygls's copy would split and re-join a whole 100,000-line text on every keystroke.
- Futures pygls files among the pending requests and never takes out are taken out.
- A request sent to the client that is not answered in :data:`CLIENT_ANSWER_S` is forgotten.
- An answer already encoded (:class:`.RawResult`) is written as it is.
- A request after ``shutdown`` is answered InvalidRequest, not dropped.
- Custom messages can be typed (:attr:`ScoreLensProtocol.message_types`), so their malformed
  params are dropped at the edge as LSP's own are.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from functools import partial

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidRequest
from pygls.protocol import lsp_method
from pygls.protocol.json_rpc import RPCRequest

from .wire import GuardedProtocol
from .writer import OrderedWriter, RawResult

# A request the server sends (configuration, refreshes, progress) that the client leaves this
# long unanswered is forgotten: pygls would keep it in its pending table for ever.
CLIENT_ANSWER_S = 30.0


class ScoreLensProtocol(GuardedProtocol):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # the params type of each custom message, by method (features add theirs)
        self.message_types: dict[str, type] = {}

    def get_message_type(self, method: str):
        return self.message_types.get(method) or super().get_message_type(method)

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
        # and that of each handler a generator handler waits on (Scheduler.settling), among
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
        super().set_writer(OrderedWriter(writer, self._client_left), include_headers)

    def _client_left(self) -> None:
        if self._server._stop_event is not None:
            self._server._stop_event.set()  # the reader ends at the end of input
