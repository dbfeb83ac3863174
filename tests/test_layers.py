"""The package's layers point one way (cli -> api -> core; lsp -> core; api and lsp -> formats) and no modules import each
other in a cycle, read from the sources' import statements."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "server" / "scorelens"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(path: Path, module: str, top_level_only: bool, modules: set[str]) -> set[str]:
    """The scorelens modules a module imports: at import time only, or anywhere in it (function
    bodies too); never what ``if TYPE_CHECKING:`` imports. ``from package import module`` imports
    that module (the package is being imported already), ``from module import name`` the module."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and _is_type_checking(node):
                continue
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                if base.split(".")[0] == "scorelens":
                    submodules = {f"{base}.{alias.name}" for alias in node.names} & modules
                    found.update(submodules or {base})
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name.split(".")[0] == "scorelens")
            if top_level_only and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            for field in ("body", "orelse", "finalbody", "handlers"):
                children = getattr(node, field, None)
                if isinstance(children, list) and children and isinstance(children[0], (ast.stmt, ast.excepthandler)):
                    visit(children)

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return found


def _graph(top_level_only: bool) -> dict[str, set[str]]:
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(paths)
    return {m: {i for i in _imports(p, m, top_level_only, modules) if i in modules and i != m} for m, p in paths.items()}


def test_no_import_cycles():
    graph = _graph(top_level_only=True)
    state: dict[str, int] = {}  # 1 visiting, 2 done
    stack: list[str] = []
    cycles: list[list[str]] = []

    def walk(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                cycles.append(stack[stack.index(n) :] + [n])
            elif n not in state:
                walk(n)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            walk(m)
    assert cycles == [], "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


# layer -> the scorelens packages it must never import (anywhere, lazily too)
FORBIDDEN = {
    "scorelens.core": (
        "scorelens.api", "scorelens.cli", "scorelens.lsp", "scorelens.summary", "scorelens.textfile", "scorelens.formats",
    ),
    # a reader knows its format and nothing of scoring, commands or the editor
    "scorelens.formats": ("scorelens.core", "scorelens.api", "scorelens.cli", "scorelens.lsp", "scorelens.summary", "scorelens.textfile"),
    "scorelens.api": ("scorelens.cli", "scorelens.lsp"),
    "scorelens.lsp": ("scorelens.cli", "scorelens.api"),
    "scorelens.compat": ("scorelens.cli", "scorelens.lsp"),
}


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layers_point_one_way(layer):
    wrong = {
        (m, i)
        for m, imports in _graph(top_level_only=False).items()
        if m == layer or m.startswith(layer + ".")
        for i in imports
        if any(i == f or i.startswith(f + ".") for f in FORBIDDEN[layer])
    }
    assert not wrong, f"{layer} imports what it must not: {sorted(wrong)}"


def test_feature_modules_never_import_the_server_module():
    graph = _graph(top_level_only=False)
    back = sorted(m for m, imports in graph.items() if m.startswith("scorelens.lsp.") and "scorelens.lsp.server" in imports)
    assert back == [], f"these import the server module back: {back}"
