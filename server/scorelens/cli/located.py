"""A finding placed in a file, as ``check`` prints it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)  # a check of 100,000 lines holds millions
class Located:
    """A finding placed in a file: 1-based line and column in code points, end exclusive."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    message: str
    text: str = ""
    related: tuple[str, int, int] | None = None  # the matching place in the other file
    severity: str | None = None  # a QA check's (the scores' findings have none: they are not faults)
    fix: dict | None = None  # a QA fix: its title, text, and start and end as line and column

    def where(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def to_json(self) -> dict:
        d = {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "code": self.code,
            "message": self.message,
            "text": self.text,
        }
        if self.related:
            d["related"] = dict(zip(("path", "line", "column"), self.related))
        if self.severity:
            d["severity"] = self.severity
        if self.fix:
            d["fix"] = self.fix
        return d


def counted(n: int, noun: str) -> str:
    """``1 finding``, ``2 findings``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
