"""The command line: ``scorelens score | check | compare | agree | sacrebleu | serve`` (DESIGN §5), one
module per command over the API (:mod:`scorelens.api`).

Each scoring command runs the same pipeline: parse arguments, read the files, score them through
the API, format the result. Problems with the input (a missing, binary or non-UTF-8 file, files
that do not line up, a tokenizer that is not installed) are :class:`CliError`: one line on stderr
and exit status 2, never a traceback.

Exit status: 0 success, 1 a ``check`` threshold was crossed, 2 bad usage or bad input.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from typing import Sequence

from .. import __version__
from .errors import EXIT_ERROR, CliError
from .numpy_sort import prefer_avx2_sort

# In --help's order; each but sacrebleu is a module here with add_parser(commands) and its run.
COMMANDS = ("score", "check", "compare", "agree", "sacrebleu", "serve")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``command``, that command's alone: only its module (and what
    it needs of the API and the core) is imported, and only its options are built."""
    parser = argparse.ArgumentParser(
        prog="scorelens",
        description="Score hypotheses against references: BLEU, chrF and TER (as sacreBLEU), ROUGE-1..9, "
        "ROUGE-L and ROUGE-Lsum (as rouge-score), WER and CER (as jiwer), perplexity (as KenLM), with the same "
        "numbers as those libraries.",
        epilog="Exit status: 0 success, 1 a check threshold was crossed, 2 bad usage or input.",
    )
    parser.add_argument("--version", action="version", version=f"scorelens {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS if command is None else (command,):
        if name == "sacrebleu":
            # listed for --help only: main() hands `scorelens sacrebleu ...` to its own parser
            commands.add_parser(
                "sacrebleu",
                add_help=False,
                help="sacreBLEU 2.x's own command line and output for local files (scorelens sacrebleu --help)",
            )
        else:
            importlib.import_module(f"{__name__}.{name}").add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    prefer_avx2_sort()  # before NumPy loads: its AVX-512 sort is slow on AMD Zen 4
    if argv[:1] == ["sacrebleu"]:
        from . import sacrebleu

        return sacrebleu.main(argv[1:])
    # the first argument names the command (the top level has no option taking a value);
    # without one (--help, --version, a misspelt command) every command is built
    command = argv[0] if argv[:1] and argv[0] in COMMANDS else None
    collecting = gc.isenabled()
    if command != "serve":
        # A command that scores once and exits holds millions of acyclic objects (a corpus's
        # records, and the modules' as they load), which the cyclic garbage collector would walk
        # for nothing: 0.1 s on 100,000 lines. Its worker processes, forked from here, inherit this.
        gc.disable()
    if command != "serve":  # serve's standard streams carry the protocol
        for stream in (sys.stdout, sys.stderr):
            if hasattr(stream, "reconfigure"):
                # a text may hold a lone surrogate (JSON's "\ud800"): printed as that escape, not refused
                stream.reconfigure(errors="backslashreplace")
    if command in ("score", "check", "agree"):
        # OpenBLAS starts a thread per core as NumPy loads (40-60 ms of a process's start);
        # scoring multiplies no matrices (compare's resampling does, and keeps them).
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        return _run(command, argv)
    finally:
        if collecting:  # main() called in a process that goes on (tests)
            gc.enable()


def _run(command: str | None, argv: list[str]) -> int:
    if not argv:  # what there is to run, rather than argparse's "COMMAND is required"
        build_parser().print_help(sys.stderr)
        return EXIT_ERROR
    try:
        args, unknown = build_parser(command).parse_known_args(argv)
        if unknown:  # argparse would blame them on the top-level parser and show its usage
            args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    except SystemExit as exc:  # --help, --version and usage errors; argparse has printed them
        return exc.code if isinstance(exc.code, int) else EXIT_ERROR
    # loaded by the command's module already (the core is not, for --help and --version)
    from ..core import TokenizerUnavailable
    from ..core.bleu_nltk import SmoothingError
    from ..core.rouge155 import ScriptDies

    try:
        return args.run(args)
    # a tokenizer loads when first used, deep in the core; a flavour refuses what its oracle refuses
    except (CliError, TokenizerUnavailable, SmoothingError, ScriptDies) as exc:
        print(f"scorelens: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`| head`); point stdout at nothing so the exit flush is quiet
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 128 + 13  # as a shell reports a process ended by SIGPIPE


def run() -> None:
    """The ``scorelens`` command and ``python -m scorelens``: :func:`main`, then the process ends.

    A command that scores and exits leaves its memory to the operating system: the interpreter's
    teardown would free the corpus and the word tables object by object and walk every object
    once more for cycles, for nothing (30 ms of a 0.4 s run on 10,000 lines). ``serve``, a
    long-lived server with its own threads and handlers, ends as usual.
    """
    code = main()
    if sys.argv[1:2] == ["serve"]:
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader went away before the last of the output
        code = 128 + 13
    os._exit(code)
