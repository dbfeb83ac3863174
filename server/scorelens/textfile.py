"""Reading a hypothesis or reference: UTF-8 text from a regular file of bounded size, or a clear error.

A gzip-compressed file (its magic bytes, which no UTF-8 text starts with) is read decompressed,
as sacreBLEU reads ``.gz`` files, the size limit applying to the text it holds.

A leading byte-order mark stays part of the text, as sacreBLEU's command line keeps it (its
published WMT17 scores count it in the first word); :data:`BOM` lets callers point it out.
"""

from __future__ import annotations

import codecs
import os
import stat
import zlib
from pathlib import Path

BOM = "\ufeff"
BOM_NOTE = (
    "the file starts with a byte-order mark (U+FEFF); it is scored as part of the first word, "
    "as sacreBLEU's command line scores it"
)
DEFAULT_MAX_BYTES = 64 * 1024 * 1024

# O_NONBLOCK: opening a FIFO must not wait for a writer (fstat then refuses it, or, where streams
# are read, it is read if a writer has it open); O_NOCTTY: opening a terminal must not make it ours.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)


class UnreadableText(Exception):
    """A file that cannot be scored; the message names the file and, where it helps, the byte."""


class MissingFile(UnreadableText):
    pass


class TooLarge(UnreadableText):
    pass


def decode(name: str, data: bytes, encoding: str = "utf-8") -> str:
    """UTF-8 text, a byte-order mark included; anything else is :class:`UnreadableText`. Another
    ``encoding`` (a codec's name, as sacreBLEU's ``--encoding``) decodes the bytes as that."""
    codec = codecs.lookup(encoding)
    # hex, base64, zlib, rot13…: codecs turns bytes into bytes with them (or str into str), and
    # bytes.decode refuses them with a LookupError; CodecInfo says so itself
    if not codec._is_text_encoding:
        raise UnreadableText(
            f"{name}: {encoding!r} is not a text encoding (that codec does not decode bytes to text); "
            "name one such as utf-8 or latin-1"
        )
    if codec.name != "utf-8":
        try:
            return data.decode(encoding)
        except UnicodeDecodeError as exc:
            raise UnreadableText(f"{name}: not {encoding}: byte 0x{data[exc.start]:02x} at byte offset {exc.start}") from None
        except UnicodeError as exc:
            # a codec that names no byte (punycode, idna): what it says, without the wrapper
            # Python puts around it ("decoding with 'punycode' codec failed (…)")
            raise UnreadableText(f"{name}: not {encoding}: {exc.__cause__ or exc}") from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise UnreadableText(f"{name}: looks like UTF-16 (byte-order mark at byte offset 0); convert it to UTF-8")
    nul = data.find(b"\0")
    if nul >= 0:
        if data.startswith(b"PAR1"):  # Parquet's magic number
            raise UnreadableText(
                f"{name}: a Parquet file, not text; score and compare read Parquet with --dask ADDRESS "
                "(--dask local: on this machine)"
            )
        raise UnreadableText(f"{name}: binary file (NUL byte at byte offset {nul}); expected UTF-8 text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise UnreadableText(
            f"{name}: not UTF-8: byte 0x{data[exc.start]:02x} at byte offset {exc.start} (line {line})"
        ) from None


def too_large(name: str, max_bytes: int, limit: str = "") -> TooLarge:
    """``limit`` names what sets the limit (a setting, an option), for the message."""
    return TooLarge(f"{name}: larger than the limit of {max_bytes:,} bytes" + (f" ({limit})" if limit else ""))


def read_bytes(path: str | Path, max_bytes: int = DEFAULT_MAX_BYTES, limit: str = "", streams: bool = False) -> bytes:
    """A regular file's bytes, at most ``max_bytes`` of them; ``limit`` names the setting that sets it.

    With ``streams``, a pipe, a terminal or a device is read too, to its end or one byte past the
    limit: a path the user names (``<(cmd)``, ``/dev/stdin``) is read as every Unix tool reads it,
    but one that gives no byte is refused, as a FIFO opened before its writer would read empty;
    a file found in a workspace is never waited on.
    """
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise MissingFile(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UnreadableText(f"{path}: is a directory, not a file") from None
    except OSError as exc:
        raise UnreadableText(f"{path}: cannot read it ({exc.strerror or exc})") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise UnreadableText(f"{path}: is a directory, not a file")
        if not stat.S_ISREG(st.st_mode):
            if not streams:
                raise UnreadableText(f"{path}: not a regular file (a FIFO, device or socket); only files are scored")
            os.set_blocking(fd, True)
            data = _read_stream(fd, max_bytes)
            if not data and stat.S_ISFIFO(st.st_mode):
                # a FIFO that no writer has open reads as empty at once (opened before its writer,
                # or read a second time): no empty text to score, which would pass any check
                raise UnreadableText(
                    f"{path}: nothing to read from this FIFO or pipe: no writer had it open, or it wrote "
                    "nothing; start the writer first (what it writes is read once)"
                )
            if len(data) > max_bytes:
                raise too_large(str(path), max_bytes, limit)
            return data
        if st.st_size > max_bytes:
            raise too_large(str(path), max_bytes, limit)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as f:
            # the size fstat gave and one byte more, which tells a file that grew: then on to
            # the limit and one byte more (asked for at once, the limit's buffer is allocated
            # and shrunk: 8 ms of a 14 MB file)
            data = f.read(min(st.st_size, max_bytes) + 1)
            if len(data) > st.st_size:
                data += f.read(max_bytes + 1 - len(data))
    except OSError as exc:
        raise UnreadableText(f"{path}: cannot read it ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise too_large(str(path), max_bytes, limit)
    return data


def _read_stream(fd: int, max_bytes: int) -> bytes:
    """Up to ``max_bytes + 1`` bytes of a pipe or device, in the pieces it gives."""
    chunks, size = [], 0
    while size <= max_bytes:
        chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def uncompressed(name: str, data: bytes, max_bytes: int = DEFAULT_MAX_BYTES, limit: str = "") -> bytes:
    """``data`` decompressed if it is gzip's (every member of it), else as it is; decompressed
    only up to the limit, so a small file that would inflate past it is refused, not expanded."""
    if not data.startswith(b"\x1f\x8b"):
        return data
    pieces, size, rest = [], 0, data
    try:
        while rest:
            member = zlib.decompressobj(wbits=31)  # 31: a gzip header and trailer around the deflate data
            piece = member.decompress(rest, max_bytes + 1 - size)
            pieces.append(piece)
            size += len(piece)
            if size > max_bytes:
                raise too_large(f"{name} (decompressed)", max_bytes, limit)
            if not member.eof:
                raise UnreadableText(f"{name}: gzip data that ends early (the file is cut short)")
            rest = member.unused_data.lstrip(b"\0")  # gzip's own reader skips zero padding too
    except zlib.error as exc:
        raise UnreadableText(f"{name}: gzip data it cannot decompress ({exc})") from None
    return b"".join(pieces)


def read_text(path: str | Path, max_bytes: int = DEFAULT_MAX_BYTES, limit: str = "", streams: bool = False, encoding: str = "utf-8") -> str:
    data = uncompressed(str(path), read_bytes(path, max_bytes, limit, streams), max_bytes, limit)
    return decode(str(path), data, encoding)
