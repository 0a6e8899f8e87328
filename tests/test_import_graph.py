"""The house's floors: each module imports only its own layer or lower ones, no two modules
import each other (round any circle, ``TYPE_CHECKING`` imports included), and an import
inside a function is a lazy load with its reason written beside it, never a cycle in disguise.

The layers, lowest first (docs/architecture.md draws them):

1. the headless game: ``game``'s top modules (rules, board, notation, match, board and game
   files, records, sources, i18n, version);
2. the AI: ``ai`` (the compiled wing ``ai.compiled`` inside it);
3. the front ends above the AI: ``game.archive``, ``game.bots``, ``game.cli``, ``game.net``,
   ``game.desktop``, ``game.learn``;
4. the window: ``game.app`` (the only pygame package);
5. the entries and the lab: ``game.launcher``, ``main``, ``lab`` (import anything,
   imported by nothing of a lower layer).
"""

from __future__ import annotations

from tests.import_graph import Import, cycles, imports, module_files

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("the headless game", ("game",)),
    ("the AI", ("ai",)),
    ("the front ends", ("game.archive", "game.bots", "game.cli", "game.desktop", "game.learn", "game.net")),
    ("the window", ("game.app",)),
    ("the entries and the lab", ("game.launcher", "main", "lab")),
)

FUNCTION_IMPORT_BUDGET = 40
"""Imports of project modules inside functions, for the whole project (223 before the
second pass): only lazy loads, each with its reason in a comment beside it."""


def layer_of(module: str) -> int:
    """The layer (0 lowest) of the longest prefix in ``LAYERS`` that names ``module``."""
    best, best_length = -1, -1
    for number, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_length:
                best, best_length = number, len(prefix)
    return best


def describe(edge: Import) -> str:
    return f"{edge.source}:{edge.line} imports {edge.target}"


def test_every_module_has_a_layer():
    assert all(layer_of(name) >= 0 for name in module_files()), [n for n in module_files() if layer_of(n) < 0]
    assert layer_of("game.rules") == 0 and layer_of("game.records") == 0
    assert layer_of("ai.player") == 1
    assert layer_of("game.archive.store") == 2 and layer_of("game.cli") == 2
    assert layer_of("game.app.scenes.play") == 3
    assert layer_of("game.launcher") == 4 and layer_of("lab.strength") == 4


def test_no_module_imports_a_higher_layer():
    upward = [describe(e) for e in imports() if layer_of(e.target) > layer_of(e.source)]
    assert not upward, "imports that run up a floor:\n" + "\n".join(upward)


def test_no_modules_import_each_other():
    assert cycles(imports()) == []


def test_the_cycle_finder_sees_a_circle_of_three():
    edges = [Import(a, b, 1, False, False, "") for a, b in (("x", "y"), ("y", "z"), ("z", "x"), ("z", "w"))]
    assert cycles(edges) == [["x", "y", "z"]]


def test_the_reader_sees_imports_in_functions_and_under_type_checking():
    found = {(e.source, e.target): e for e in imports()}
    lazy = [e for e in found.values() if e.in_function]
    assert lazy, "no function-level import found: the reader is blind"
    assert all(e.source in module_files() and e.target in module_files() for e in found.values())


def test_function_level_imports_stay_within_the_budget_and_say_why():
    lazy = [e for e in imports() if e.in_function]
    statements = {(e.source, e.line) for e in lazy}
    assert len(statements) <= FUNCTION_IMPORT_BUDGET, (
        f"{len(statements)} function-level imports of project modules (budget {FUNCTION_IMPORT_BUDGET}):\n"
        + "\n".join(sorted(describe(e) for e in lazy))
    )
    silent = sorted(describe(e) for e in lazy if not e.reason)
    assert not silent, "a lazy import needs its reason in a comment beside it:\n" + "\n".join(silent)
