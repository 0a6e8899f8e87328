"""A Kaggle ConnectX agent: ``agent(observation, configuration) -> column``.

Kaggle calls it with
- ``observation.board``: ``rows * columns`` cells, top row first, 0 empty, 1 and 2 the marks;
- ``observation.mark``: the mark to play (1 moves first, so 1 is MAX here);
- ``configuration.rows``, ``.columns``, ``.inarow``, ``.actTimeout`` (seconds per move).
Attribute access (Kaggle's structs) and dict access both work.

The level is the environment variable ``CONNECT4_CONNECTX_LEVEL`` if set, else the
module constant ``LEVEL``; any name ``ai.levels.find_level`` reads (``expert``,
``depth:6``, ...).  The move comes within ``TIME_SHARE`` of ``actTimeout``: the level's
search stops itself, and a clock answers with the best move so far should it not.
Perfect needs the opening books of ``bitbully-databases`` for the first 12 plies; where
they are not installed (Kaggle) ``ai.player.choose_move`` plays Expert without its book
there, and exact play after.  Boards the rules do not cover (sizes outside 4..10 x 4..12, inarow outside
3..6) still get a legal move: a win, a block or the column nearest the centre.

``write_submission(folder)`` (``python main.py connectx --out DIR``) writes ``main.py``:
the modules of ``game`` and ``ai`` that the agent imports, bundled into one file that
needs only numpy, whose last function is the agent.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Mapping
from modulefinder import ModuleFinder
from pathlib import Path
from typing import Any

import numpy as np

from ai.levels import find_level
from ai.player import choose_move
from game.board import Board
from game.bots.notes import NotesSaid
from game.rules import MAX, MIN, Rules, RulesError

LEVEL = "expert"
"""The level played when ``CONNECT4_CONNECTX_LEVEL`` is not set."""
LEVEL_ENV = "CONNECT4_CONNECTX_LEVEL"
TIME_SHARE = 0.75
"""Share of ``actTimeout`` the agent may think (the rest: Kaggle's own overhead)."""
DEFAULT_ACT_TIMEOUT = 2.0
"""ConnectX's default seconds per move, used when the configuration has none."""
MIN_THINK_SECONDS = 0.05


def _field(source: Any, name: str, default: Any = None) -> Any:
    """``source.name`` or ``source[name]``: Kaggle passes structs, tests may pass dicts."""
    if isinstance(source, Mapping):
        return source.get(name, default)
    return getattr(source, name, default)


class ConnectXInputError(ValueError):
    """An observation or configuration the agent cannot read; the message names the field."""


MAX_CELLS = 10_000
"""More cells than any board a rule set allows (and than ConnectX sends)."""


def _number(source: Any, where: str, name: str, default: float, *, whole: bool = True) -> Any:
    """``where.name`` as a number (a whole one unless ``whole`` is False), or ``default``.

    Raises:
        ConnectXInputError: the field is there but is not such a number.
    """
    value = _field(source, name, default)
    if value is None:
        return default
    try:
        if isinstance(value, bool) or (whole and not float(value).is_integer()):
            raise ValueError
        number = int(value) if whole else float(value)
    except (TypeError, ValueError, OverflowError):
        kind = "a whole number" if whole else "a number"
        raise ConnectXInputError(f"{where}.{name}: expected {kind}, got {str(value)[:40]!r}") from None
    if whole and not 1 <= number <= MAX_CELLS:
        raise ConnectXInputError(f"{where}.{name}: {number} is out of range (1..{MAX_CELLS})")
    return number


def observation_grid(observation: Any, configuration: Any) -> np.ndarray:
    """The board as this project's grid: ``int8`` (rows, cols), 1 = mark 1, -1 = mark 2.

    Raises:
        ConnectXInputError: a field is missing or malformed (the message names it).
    """
    rows = _number(configuration, "configuration", "rows", 6)
    cols = _number(configuration, "configuration", "columns", 7)
    if rows * cols > MAX_CELLS:
        raise ConnectXInputError(f"configuration.rows x columns: {rows}x{cols} is more than {MAX_CELLS:,} cells")
    board = _field(observation, "board")
    if board is None:
        raise ConnectXInputError("observation.board is missing")
    try:
        values = list(board)
    except TypeError:
        raise ConnectXInputError(f"observation.board: expected a list of cells, got {type(board).__name__}") from None
    if len(values) != rows * cols:
        raise ConnectXInputError(f"observation.board has {len(values)} cells, configuration says {rows}x{cols}")
    for index, value in enumerate(values):
        if isinstance(value, bool) or value not in (0, 1, 2):
            raise ConnectXInputError(f"observation.board cell {index} is {repr(value)[:20]}: expected 0, 1 or 2")
    cells = np.asarray(values, dtype=np.int8)
    marks = cells.reshape(rows, cols)
    grid = np.zeros((rows, cols), dtype=np.int8)
    grid[marks == 1] = 1
    grid[marks == 2] = -1
    return grid


def current_level_name() -> str:
    """The level the agent plays now: the environment variable, else ``LEVEL``."""
    return os.environ.get(LEVEL_ENV, "").strip() or LEVEL


def agent(observation: Any, configuration: Any) -> int:
    """Return a legal 0-based column for ``observation.mark`` within the time limit."""
    grid = observation_grid(observation, configuration)
    mark = _field(observation, "mark", 1)
    if isinstance(mark, bool) or mark not in (1, 2):
        raise ConnectXInputError(f"observation.mark: expected 1 or 2, got {repr(mark)[:20]}")
    to_move = MAX if mark == 1 else MIN
    inarow = _number(configuration, "configuration", "inarow", 4)
    open_columns = [int(c) for c in np.flatnonzero(grid[0] == 0)]
    if not open_columns:
        return 0  # a full board: nothing is legal, and Kaggle never asks
    try:
        rules = Rules(rows=grid.shape[0], cols=grid.shape[1], connect=inarow)
    except RulesError:
        return _fallback_column(grid, to_move, inarow, open_columns)
    board = Board(rules, grid, to_move=to_move)
    if board.is_game_over():
        return open_columns[len(open_columns) // 2]
    act_timeout = _number(configuration, "configuration", "actTimeout", DEFAULT_ACT_TIMEOUT, whole=False)
    if not math.isfinite(act_timeout) or act_timeout <= 0:
        act_timeout = DEFAULT_ACT_TIMEOUT
    seconds = max(MIN_THINK_SECONDS, act_timeout * TIME_SHARE)
    try:
        level = find_level(current_level_name())
    except ValueError as problem:
        print(f"connectx: {problem}; playing {LEVEL}", file=sys.stderr)
        level = find_level(LEVEL)
    answer = choose_move(level, grid, rules, to_move, movetime=seconds)
    _say(answer.note)
    move = answer.move
    return move if move in open_columns else open_columns[len(open_columns) // 2]


_NOTES_SAID = NotesSaid()


def _say(note: str | None) -> None:
    """Say an answer's note on stderr (Kaggle keeps the log), each clause once a process: a
    refused opening book, say, is said with the first move it weakens."""
    fresh = _NOTES_SAID.fresh(note)
    if fresh:
        print(f"connectx: note: {fresh}", file=sys.stderr, flush=True)


def _fallback_column(grid: np.ndarray, to_move: int, inarow: int, open_columns: list[int]) -> int:
    """A legal column for boards outside the rules: win, else block, else nearest the centre."""
    rows, cols = grid.shape

    def wins(side: int, col: int) -> bool:
        row = int(np.flatnonzero(grid[:, col] == 0)[-1])
        for d_row, d_col in ((0, 1), (1, 0), (1, 1), (-1, 1)):
            run = 1
            for sign in (1, -1):
                r, c = row + sign * d_row, col + sign * d_col
                while 0 <= r < rows and 0 <= c < cols and grid[r, c] == side:
                    run += 1
                    r, c = r + sign * d_row, c + sign * d_col
            if run >= inarow:
                return True
        return False

    for side in (to_move, -to_move):
        for col in open_columns:
            if wins(side, col):
                return col
    return min(open_columns, key=lambda col: abs(col - (cols - 1) / 2))


# -- the submission file --------------------------------------------------------------

BUNDLED_PACKAGES = ("game", "ai")
"""The packages the submission carries: of them, the modules the agent imports (found by
reading their import statements), never ``game.app`` (the window, which needs pygame)."""


_LOADER = '''
import importlib.abc
import importlib.util
import sys


class _BundledSources(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports the modules of SOURCES from this file instead of the disk."""

    def find_spec(self, name, path=None, target=None):
        if name not in SOURCES:
            return None
        is_package = SOURCES[name][0].endswith("__init__.py")
        return importlib.util.spec_from_loader(name, self, is_package=is_package)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        filename, source = SOURCES[module.__name__]
        module.__file__ = "<connectx-bundle>/" + filename
        if filename.endswith("__init__.py"):
            module.__path__ = []
        exec(compile(source, module.__file__, "exec"), module.__dict__)


if not any(type(finder).__name__ == "_BundledSources" for finder in sys.meta_path):
    sys.meta_path.insert(0, _BundledSources())
'''


def bundle_sources(root: Path | None = None) -> dict[str, tuple[str, str]]:
    """``{module name: (relative file name, source)}`` of every project module the agent
    imports, directly or not (``modulefinder`` reads the import statements, including
    those inside functions, so a lazily imported module is carried too)."""
    root = root or Path(__file__).resolve().parents[2]
    finder = ModuleFinder(path=[str(root)])  # the project only: stdlib and numpy stay out
    finder.run_script(str(root / "game" / "bots" / "connectx.py"))
    names = {name for name in finder.modules if name.split(".")[0] in BUNDLED_PACKAGES} | {__name__}
    names |= {name.rsplit(".", depth)[0] for name in names for depth in range(1, name.count(".") + 1)}  # packages
    sources: dict[str, tuple[str, str]] = {}
    for name in sorted(names):
        parts = name.split(".")
        package = (root / Path(*parts)).is_dir()
        path = root / Path(*parts) / "__init__.py" if package else root / Path(*parts[:-1]) / f"{parts[-1]}.py"
        if path.is_file():
            sources[name] = (path.relative_to(root).as_posix(), path.read_text(encoding="utf-8"))
    return sources


def submission_text(level: str | None = None) -> str:
    """The whole submission ``main.py``: sources, their importer, the level, the agent."""
    chosen = level or LEVEL
    parts = [
        '"""Connect Four minimax explorer: a Kaggle ConnectX agent (written by `python main.py connectx`).',
        "",
        "Self-contained: the game and ai packages are bundled below and imported from this file;",
        f"only numpy is needed. Level: {chosen!r} (the environment variable {LEVEL_ENV} overrides it).",
        '"""',
        "",
        f"SOURCES = {bundle_sources()!r}",
        _LOADER,
        "from game.bots import connectx as _connectx  # noqa: E402  (imports the engine now, not on the first move)",
        "",
        f"_connectx.LEVEL = {chosen!r}",
        "",
        "",
        "def agent(observation, configuration):",
        '    """Kaggle ConnectX: return the 0-based column to play."""',
        "    return _connectx.agent(observation, configuration)",
        "",
    ]
    return "\n".join(parts)


def write_submission(folder: Path, *, level: str | None = None) -> Path:
    """Write ``folder/main.py`` (the folder is made if missing); return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "main.py"
    path.write_text(submission_text(level), encoding="utf-8")
    return path
