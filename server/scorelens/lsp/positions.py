"""Columns in code points (the core's) to and from the client's position encoding.

pygls's codec clamps out-of-range columns oddly and needs a line list; these work on one line.
A lone surrogate (JSON can carry ``"\ud800"``) is one UTF-16 unit and, as WTF-8 encodes it,
three UTF-8 bytes: encoding with ``surrogatepass`` counts it so instead of failing.
"""

from __future__ import annotations

from lsprotocol import types

_UNITS = {
    types.PositionEncodingKind.Utf8: lambda ch: len(ch.encode("utf-8", "surrogatepass")),
    types.PositionEncodingKind.Utf16: lambda ch: 2 if ord(ch) > 0xFFFF else 1,
    types.PositionEncodingKind.Utf32: lambda ch: 1,
}


class Columns:
    def __init__(self, encoding: types.PositionEncodingKind | str | None) -> None:
        self.encoding = types.PositionEncodingKind(encoding or types.PositionEncodingKind.Utf16)
        self._units = _UNITS[self.encoding]

    def to_client(self, line: str, column: int) -> int:
        if line.isascii() or self.encoding == types.PositionEncodingKind.Utf32:  # (O(1) for a str)
            return min(column, len(line))
        prefix = line[:column]
        if prefix.isascii() or self.encoding == types.PositionEncodingKind.Utf32:
            return len(prefix)
        if self.encoding == types.PositionEncodingKind.Utf16:
            return len(prefix.encode("utf-16-le", "surrogatepass")) // 2
        return len(prefix.encode("utf-8", "surrogatepass"))

    def from_client(self, line: str, units: int) -> int:
        """The code-point column at a client column; a column past the end or inside a
        character lands after it, as the LSP specification asks."""
        if line.isascii() or self.encoding == types.PositionEncodingKind.Utf32:
            return min(units, len(line))
        seen = 0
        for column, ch in enumerate(line):
            if seen >= units:
                return column
            seen += self._units(ch)
        return len(line)

    def position(self, lines: list[str], line: int, column: int) -> types.Position:
        text = lines[line] if line < len(lines) else ""
        return types.Position(line=line, character=self.to_client(text, column))
