"""Reading a hypothesis or reference from disk: UTF-8 (a byte-order mark tolerated) or a clear error."""

from __future__ import annotations

from pathlib import Path


class UnreadableText(Exception):
    """A file that cannot be scored; the message names the file and, where it helps, the byte."""


def decode(data: bytes, name: str) -> str:
    nul = data.find(b"\0")
    if nul >= 0:
        raise UnreadableText(f"{name}: binary file (NUL byte at offset {nul})")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadableText(f"{name}: not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None


def read_text(path: str | Path) -> str:
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise UnreadableText(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UnreadableText(f"{path}: is a directory") from None
    except OSError as exc:
        raise UnreadableText(f"{path}: {exc.strerror}") from None
    return decode(data, str(path))
