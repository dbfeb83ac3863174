"""``scorelens serve`` whose requests to the client are forgotten after ``argv[1]`` seconds
(``CLIENT_ANSWER_S``, 30 s in production: too long to wait for in a test), with one request
more for the test, ``test/pendingRequests``: the methods of the requests the server sent that
pygls still holds in its pending tables.

Run as ``python short_answer_server.py SECONDS serve``. The scoring worker's processes import
this file as their main module too: only the guarded part runs the server.
"""

import sys
import uuid

from scorelens.cli import main
from scorelens.lsp import protocol
from scorelens.lsp import server as lsp

sent: dict[str, str] = {}  # the id of every request the server sent, and its method
send_request = protocol.ScoreLensProtocol.send_request


def recorded(self, method, params=None, callback=None, msg_id=None):
    msg_id = msg_id if msg_id is not None else str(uuid.uuid4())
    sent[msg_id] = method
    return send_request(self, method, params, callback, msg_id)


def pending_requests(ls, params) -> list[str]:
    held = ls.protocol._request_futures.keys() | ls.protocol._result_types.keys()
    return sorted(method for msg_id, method in sent.items() if msg_id in held)


if __name__ == "__main__":
    protocol.CLIENT_ANSWER_S = float(sys.argv.pop(1))
    protocol.ScoreLensProtocol.send_request = recorded
    lsp.server.feature("test/pendingRequests")(pending_requests)
    raise SystemExit(main())
