"""The layers at run time and inside the window: everything outside ``game/app/`` (rules, AI,
command line) runs without pygame, the book reader loads no solver, and no scene imports the
loop, the router or another scene.  The floors themselves (each module imports only its own
layer or lower ones, no circles, the lazy-import budget) are ``tests/test_import_graph.py``."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.import_graph import circles

ROOT = Path(__file__).resolve().parent.parent
WINDOW = ROOT / "game" / "app"
LAB = ROOT / "lab"


def headless_modules() -> list[str]:
    """Every module of ``game`` and ``ai`` that lives outside the window package."""
    names = []
    for package in ("game", "ai"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if WINDOW in path.parents:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_the_rule_covers_the_rules_the_ai_and_the_cli():
    names = headless_modules()
    for expected in ("game.rules", "game.board", "game.cli.main", "ai.search", "ai.solver", "ai.levels"):
        assert expected in names
    assert not any(name.startswith("game.app") for name in names)


def test_everything_outside_the_window_package_imports_without_pygame():
    names = headless_modules()
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "print('pygame' in sys.modules)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False", "a module outside game/app/ pulled in pygame"


def test_the_package_faces_name_the_main_types():
    from ai import Solver, search
    from game import Board, Rules

    board = Board.from_moves("4453", Rules())
    assert search(board.grid, board.rules, 2).move is not None
    assert Solver is not None


def imported_project_modules(path: Path) -> set[str]:
    """Every ``game``/``ai`` module a file imports, at the top or inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            # ``from lab import strength`` imports the module ``lab.strength``; ``from game.rules import MAX`` no module
            found.update(
                f"{node.module}.{alias.name}" for alias in node.names if is_module(f"{node.module}.{alias.name}")
            )
    return {name for name in found if name.split(".")[0] in ("game", "ai", "lab")}


def is_module(name: str) -> bool:
    """Whether ``name`` is a module or package of this project (not a name inside one)."""
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def test_the_import_reader_sees_every_form_of_import(tmp_path):
    source = tmp_path / "sample.py"
    source.write_text(
        "import lab.bench\nfrom lab import strength\nfrom lab.strength import Contestant\n"
        "def later():\n    from game.bots import runners\n",
        encoding="utf-8",
    )
    found = imported_project_modules(source)
    assert {"lab.bench", "lab", "lab.strength", "game.bots.runners"} <= found


def test_the_book_reader_imports_no_solver():
    """The reader sits below the solver, the checks that need the solver above it: the book
    and the solver used to import each other (the book's imports hidden in functions)."""
    assert not imported_project_modules(ROOT / "ai" / "book.py") & {
        "ai.solver",
        "ai.compiled.solver_kernel",
        "ai.book_check",
    }
    assert "ai.book_check" not in imported_project_modules(ROOT / "ai" / "solver.py")
    code = "import sys\nimport ai.book\nprint(sorted({'ai.solver', 'ai.compiled.solver_kernel', 'numba'} & set(sys.modules)))\n"
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def window_modules() -> dict[str, Path]:
    """Every module of the window package, by name."""
    found = {}
    for path in sorted(WINDOW.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def defines_a_screen(path: Path) -> bool:
    """Whether a module defines a scene class (a subclass of anything named ``*Scene``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.ClassDef)
        and any(ast.unparse(base).endswith(("Scene", "OverlayMenu", "MenuScene")) for base in node.bases)
        for node in tree.body
    )


SCENE_BASES = {"game.app.scene", "game.app.menu", "game.app.tree.chart_overlay", "game.app.scenes.puzzle_run_view"}
"""Where ``Scene`` and the bases live (the menus', the charts' and Storm's and Streak's run of
puzzles), beside the interface every scene may import."""
NEVER_FROM_A_SCENE = {"game.app.loop", "game.app.router", "game.app.open_game", "game.app.demo", "game.app.tour"}
"""What builds or drives scenes: a scene asks for a place with a request instead."""


def test_no_scene_imports_the_loop_the_router_or_another_scene():
    """A scene sees the App only through ``SceneHost`` and asks to go elsewhere with a
    typed request (``game.app.navigation``); TYPE_CHECKING imports count too."""
    modules = window_modules()
    screens = {name for name, path in modules.items() if defines_a_screen(path)} - SCENE_BASES
    assert {"game.app.scenes.play", "game.app.tree.scene", "game.app.scenes.retry"} <= screens
    wrong = []
    for name, path in modules.items():
        if not name.startswith(("game.app.scenes.", "game.app.tree.")):
            continue
        for imported in imported_project_modules(path):
            if imported in NEVER_FROM_A_SCENE or (imported in screens and imported != name):
                wrong.append(f"{name} imports {imported}")
    assert wrong == []


def test_the_requests_and_the_interface_import_nothing_of_the_scenes_folders():
    """What stands below the scenes (the requests, the interface, the archive's link, the
    play screen's Protocol, the search records) imports nothing of ``scenes/`` or ``tree/``:
    not a screen, and not a helper module that lives there either."""
    modules = window_modules()
    below = (
        "game.app.navigation",
        "game.app.scene",
        "game.app.open_game",
        "game.app.archive_link",
        "game.app.play_screen",
        "game.app.search_records",
    )
    for name in below:
        imported = imported_project_modules(modules[name])
        upward = {m for m in imported if m.startswith(("game.app.scenes", "game.app.tree"))}
        assert not upward and not imported & {"game.app.loop", "game.app.router"}, (name, upward)


def test_the_two_sides_of_the_worker_meet_only_in_its_protocol():
    window, worker = WINDOW / "worker.py", WINDOW / "worker_jobs.py"
    assert "game.app.worker_jobs" not in imported_project_modules(window)
    assert "game.app.worker" not in imported_project_modules(worker)
    assert "game.app.worker_protocol" in imported_project_modules(window) & imported_project_modules(worker)


def test_no_two_window_modules_import_each_other_even_through_others():
    """The window package's imports form no circle (TYPE_CHECKING and function-level
    imports count): a strongly connected component of more than one module is a cycle."""
    modules = window_modules()
    edges = {
        name: {m for m in imported_project_modules(path) if m in modules and m != name}
        for name, path in modules.items()
    }
    assert circles(edges) == []
