"""Comparing a compat module's result with its peer's: the same fields, numbers to 1e-9."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

TOL = 1e-9


def fields(obj: Any) -> dict[str, Any]:
    """An object's fields: a dataclass's, a named tuple's, or its instance attributes."""
    if dataclasses.is_dataclass(obj):
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return obj._asdict()
    return dict(vars(obj))


def assert_same(ours: Any, theirs: Any, path: str = "result") -> None:
    """Equal structure and strings, numbers within 1e-9 (ints and floats alike), recursively."""
    if isinstance(theirs, bool) or theirs is None or isinstance(theirs, str):
        assert ours == theirs, f"{path}: {ours!r} != {theirs!r}"
    elif isinstance(theirs, (int, float)) or type(theirs).__module__ == "numpy":
        assert isinstance(ours, (int, float)) or type(ours).__module__ == "numpy", f"{path}: {ours!r} is not a number"
        assert math.isclose(float(ours), float(theirs), rel_tol=0, abs_tol=TOL), f"{path}: {ours!r} != {theirs!r}"
    elif isinstance(theirs, dict):
        assert set(ours) == set(theirs), f"{path}: keys {sorted(ours)} != {sorted(theirs)}"
        for k in theirs:
            assert_same(ours[k], theirs[k], f"{path}[{k!r}]")
    elif isinstance(theirs, (list, tuple)) and not hasattr(theirs, "_fields"):
        assert len(ours) == len(theirs), f"{path}: length {len(ours)} != {len(theirs)}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert_same(a, b, f"{path}[{i}]")
    else:
        assert type(ours).__name__ == type(theirs).__name__, f"{path}: {type(ours).__name__} != {type(theirs).__name__}"
        assert_same(fields(ours), fields(theirs), path)
