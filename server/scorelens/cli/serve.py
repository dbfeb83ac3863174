"""``scorelens serve``: the language server, over stdio or TCP."""

from __future__ import annotations

import argparse
import importlib
import sys

from .errors import EXIT_ERROR, EXIT_OK, CliError
from .options import host_port


def add_parser(commands) -> None:
    serve = commands.add_parser(
        "serve",
        help="run the language server",
        description="Run the ScoreLens language server, over standard input/output unless --tcp is given.",
    )
    serve.add_argument(
        "--tcp",
        type=host_port,
        metavar="HOST:PORT",
        help="listen on a TCP socket instead of stdio (HOST defaults to 127.0.0.1); one client at a time, "
        "each served from a clean state; others are told so and closed",
    )
    serve.add_argument("--once", action="store_true", help="with --tcp: exit when the first client disconnects")
    serve.add_argument("--stdio", action="store_true", help="use standard input/output (the default)")
    serve.set_defaults(run=run_serve, parser=serve)


def run_serve(args: argparse.Namespace) -> int:
    if args.tcp is not None:
        return serve_tcp(*args.tcp, once=args.once)
    # Imported here: pygls and the server are not needed to score files.
    try:
        server = importlib.import_module("scorelens.lsp.server")
    except ModuleNotFoundError as exc:
        if exc.name not in ("scorelens.lsp", "scorelens.lsp.server"):
            raise CliError(f"the language server cannot start: {exc}") from None
        server = None
    main = getattr(server, "main", None)
    if main is None:
        print("scorelens: the language server is not built yet (scorelens.lsp.server.main)", file=sys.stderr)
        return EXIT_ERROR
    result = main()  # --stdio is what VS Code's client appends
    return result if isinstance(result, int) else EXIT_OK


def serve_tcp(host: str, port: int, once: bool) -> int:
    """Listen until interrupted; each client gets a fresh ``scorelens serve`` (see lsp/tcp.py)."""
    import logging  # imported only when used

    from ..lsp import tcp

    logging.basicConfig(level=logging.INFO, format="scorelens: %(message)s")
    try:
        listener = tcp.listen(host, port)
    except tcp.ListenError as exc:
        raise CliError(str(exc)) from None
    tcp.serve(listener, once)
    return EXIT_OK
