"""The project's import graph, read from the source (nothing is imported).

Every import statement of a project module (``game``, ``ai``, ``lab``, ``main``) counts: at
the top, inside a function, and under ``if TYPE_CHECKING:`` (a type-only import still ties
two modules together for the reader and for mypy).  ``tests/test_import_graph.py`` holds the
house to its layers with it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("game", "ai", "lab")


@dataclass(frozen=True)
class Import:
    """One import statement's edge: ``source`` imports ``target`` at ``line``."""

    source: str
    target: str
    line: int
    in_function: bool
    type_only: bool
    reason: str
    """The comment on the import's line or the line above it ('' when there is none)."""


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """``{module name: file}`` of every project module, ``main`` included."""
    files = {module_name(path, root): path for package in PACKAGES for path in sorted((root / package).rglob("*.py"))}
    files["main"] = root / "main.py"
    return files


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(root: Path = ROOT) -> list[Import]:
    """Every edge from a project module to another (a module importing itself is left out)."""
    files = module_files(root)
    found: list[Import] = []
    for name, path in files.items():
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node, in_function, type_only in _import_nodes(ast.parse(source)):
            for target in sorted(_targets(node, package, files)):
                if target != name:
                    found.append(Import(name, target, node.lineno, in_function, type_only, _reason(lines, node.lineno)))
    return found


def _import_nodes(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool, bool]]:
    """Each import statement with whether it sits in a function and under TYPE_CHECKING."""

    def walk(
        node: ast.AST, in_function: bool, type_only: bool
    ) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, in_function, type_only
                continue
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            guarded = type_only or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
            yield from walk(child, inner, guarded)

    yield from walk(tree, False, False)


def _targets(node: ast.Import | ast.ImportFrom, package: str, files: dict[str, Path]) -> set[str]:
    """The project modules a statement imports (``from game import board`` names the module)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            parts = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*parts, base] if base else parts)
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base for alias in node.names]
    found = set()
    for name in names:
        while name and name not in files:
            name = name.rpartition(".")[0]
        if name:
            found.add(name)
    return found


def _reason(lines: list[str], line: int) -> str:
    """The comment that gives a lazy import its reason: on its line, or the line above."""
    for text in (lines[line - 1], lines[line - 2] if line >= 2 else ""):
        if "#" in text:
            return text.split("#", 1)[1].strip()
    return ""


def cycles(edges: list[Import]) -> list[list[str]]:
    """The groups of modules that import each other, directly or round a circle."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)
    return circles(graph)


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node of ``graph`` (each node's
    set of the nodes it points to), each sorted (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups
