"""Reading a hypothesis or reference: UTF-8 (a byte-order mark tolerated) or a clear error."""

from __future__ import annotations

from pathlib import Path


class UnreadableText(Exception):
    """A file that cannot be scored; the message names the file and, where it helps, the byte."""


def decode(name: str, data: bytes) -> str:
    """UTF-8 text with any byte-order mark removed; anything else is :class:`UnreadableText`."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise UnreadableText(f"{name}: looks like UTF-16 (byte-order mark at byte offset 0); convert it to UTF-8")
    nul = data.find(b"\0")
    if nul >= 0:
        raise UnreadableText(f"{name}: binary file (NUL byte at byte offset {nul}); expected UTF-8 text")
    try:
        # plain utf-8, not utf-8-sig: error offsets must count the mark's bytes too
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise UnreadableText(
            f"{name}: not UTF-8: byte 0x{data[exc.start]:02x} at byte offset {exc.start} (line {line})"
        ) from None
    return text.removeprefix("\ufeff")


def read_text(path: str | Path) -> str:
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise UnreadableText(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UnreadableText(f"{path}: is a directory, not a file") from None
    except OSError as exc:
        raise UnreadableText(f"{path}: cannot read it ({exc.strerror or exc})") from None
    return decode(str(path), data)
