"""Loading a KenLM model (ARPA or KenLM binary) for the fluency metric; the CLI and the server share it.

The kenlm package is the optional ``fluency`` extra. A model is loaded once per resolved path and
kept while the file's modification time, size and inode stay the same. Models may be hundreds of
megabytes: the text size limit does not apply, but only regular files are opened, checked first
as :mod:`scorelens.textfile` checks texts. Every problem is one :class:`ModelUnavailable` line
naming the path.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import threading
from contextlib import contextmanager
from typing import Iterator

from .core.fluency import LanguageModel

INSTALL_HINT = (
    "the fluency extra is not installed: run `.venv/bin/pip install -e '.[fluency]'` from the checkout "
    f"(into another environment: {sys.executable} -m pip install kenlm)"
)

_cache: dict[str, tuple[tuple[int, int, int], LanguageModel]] = {}
_lock = threading.Lock()
# kenlm's messages carry the C++ source place ("lm/read_arpa.cc:65 in void ... threw FormatLoadException.",
# or "... threw ParseNumberException because `<a C++ condition>'.")
_SOURCE_PLACE = re.compile(r"^.*? threw \w+(?: because `.*?')?\.\s*")
# ... and may quote the file ('first non-empty line was "..."'): a message says nothing of a file's content
_QUOTED = re.compile(r'"[^"]*"')


class ModelUnavailable(Exception):
    """The extra is missing, or the model file cannot be loaded; the message is one line."""


def load(path: str) -> LanguageModel:
    """The ``kenlm.Model`` of the file at ``path``, loaded once while the file stays the same."""
    resolved = os.path.realpath(path)
    try:
        st = os.stat(resolved)
    except FileNotFoundError:
        raise ModelUnavailable(f"{path}: no such file") from None
    except OSError as exc:
        raise ModelUnavailable(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if stat.S_ISDIR(st.st_mode):
        raise ModelUnavailable(f"{path}: is a directory, not a language model file")
    if not stat.S_ISREG(st.st_mode):
        raise ModelUnavailable(f"{path}: not a regular file (a FIFO, device or socket); a language model must be a file")
    if not os.access(resolved, os.R_OK):
        raise ModelUnavailable(f"{path}: cannot read it (permission denied)")
    version = (st.st_mtime_ns, st.st_size, st.st_ino)
    with _lock:
        cached = _cache.get(resolved)
        if cached is not None and cached[0] == version:
            return cached[1]
        kenlm = _kenlm()
        try:
            with _quiet_stderr():
                model = kenlm.Model(resolved)
        except Exception as exc:  # OSError from kenlm, or a UnicodeDecodeError of its message on binary junk
            raise ModelUnavailable(f"{path}: not a KenLM language model (ARPA or KenLM binary){_reason(exc)}") from None
        _cache[resolved] = (version, model)
        return model


def _kenlm():
    try:
        import kenlm
    except ImportError:
        raise ModelUnavailable(INSTALL_HINT) from None
    return kenlm


def _reason(exc: Exception) -> str:
    """kenlm's own reason, without the C++ source place and on one line."""
    if not isinstance(exc, OSError):
        return ""
    inner = str(exc).partition(" (")[2].rstrip(")")
    inner = " ".join(_QUOTED.sub("…", _SOURCE_PLACE.sub("", inner)).split())
    return f": {inner}" if inner else ""


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """kenlm draws a progress bar on standard error (file descriptor 2) while reading an ARPA file."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no descriptor 2 to silence
        yield
        return
    try:
        with open(os.devnull, "wb") as devnull:
            os.dup2(devnull.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
