"""The Kaggle ConnectX agent: legal columns on every size, wins taken, a submission that runs alone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from game.board import Board
from game.bots import connectx
from game.bots.connectx import agent, write_submission
from game.rules import MAX, Rules
from tests.helpers import random_board

ROOT = Path(__file__).resolve().parent.parent
SIZES = [
    Rules(),
    Rules(rows=4, cols=5, connect=3),
    Rules(rows=7, cols=8, connect=5),
    Rules(rows=10, cols=12, connect=6),
]


def observation_of(board: Board, as_dict: bool) -> tuple[object, object]:
    """The (observation, configuration) Kaggle would pass for ``board``."""
    cells = [0 if v == 0 else (1 if v == MAX else 2) for v in board.grid.reshape(-1).tolist()]
    observation = {"board": cells, "mark": 1 if board.to_move == MAX else 2}
    rules = board.rules
    configuration = {"rows": rules.rows, "columns": rules.cols, "inarow": rules.connect, "actTimeout": 0.5}
    if as_dict:
        return observation, configuration
    return SimpleNamespace(**observation), SimpleNamespace(**configuration)


def winning_columns(board: Board) -> list[int]:
    wins = []
    for move in board.legal_moves():
        board.push(move)
        outcome = board.outcome()
        if outcome is not None and outcome.winner == -board.to_move:
            wins.append(move)
        board.pop()
    return wins


@pytest.fixture
def quick_level(monkeypatch):
    """Play a shallow level, set the documented way (the environment variable)."""
    monkeypatch.setenv(connectx.LEVEL_ENV, "depth:2")


@pytest.mark.parametrize("rules", SIZES, ids=lambda r: r.describe().replace(", ", "-").replace(" ", ""))
def test_agent_returns_legal_columns_on_random_positions(rules, rng, quick_level):
    for index in range(25):
        board = random_board(rules, rng, rng.randrange(0, rules.cells - 1))
        if board.is_game_over():
            continue
        observation, configuration = observation_of(board, as_dict=index % 2 == 0)
        column = agent(observation, configuration)
        assert isinstance(column, int) and board.is_legal(column), (board.moves_string(), column)


@pytest.mark.parametrize("rules", SIZES, ids=lambda r: r.describe().replace(", ", "-").replace(" ", ""))
def test_agent_takes_a_win_in_one(rules, rng, quick_level):
    found = 0
    while found < 8:
        board = random_board(rules, rng, rng.randrange(4, rules.cells - 1))
        wins = winning_columns(board)
        if board.is_game_over() or not wins:
            continue
        found += 1
        assert agent(*observation_of(board, as_dict=found % 2 == 0)) in wins, board.moves_string()


def test_default_level_plays_the_standard_board(rng):
    assert connectx.current_level_name() == connectx.LEVEL
    board = random_board(Rules(), rng, 10)
    assert board.is_legal(agent(*observation_of(board, as_dict=False)))


def test_boards_outside_the_rules_still_get_a_legal_winning_column():
    configuration = {"rows": 3, "columns": 14, "inarow": 4, "actTimeout": 1}
    board = [0] * 42
    board[28 + 5 : 28 + 8] = [2, 2, 2]  # mark 2 has three on the bottom row: mark 1 must block
    board[28 : 28 + 3] = [1, 1, 0]
    board[14] = 1
    column = agent({"board": board, "mark": 1}, configuration)
    assert column in (4, 8)


@pytest.mark.slow
def test_submission_runs_alone_with_only_numpy(tmp_path):
    path = write_submission(tmp_path / "submission", level="depth:3")
    script = """
import json, sys
env = {}
exec(compile(open(sys.argv[1]).read(), "main.py", "exec"), env)
agent = [value for value in env.values() if callable(value)][-1]
answers = [agent(json.loads(sys.argv[2]), {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2}),
           agent(json.loads(sys.argv[3]), {"rows": 5, "columns": 4, "inarow": 3, "actTimeout": 1})]
origins = sorted({m.__file__.split("/")[0] for n, m in sys.modules.items() if n.split(".")[0] in ("game", "ai")})
print(json.dumps({"name": agent.__name__, "answers": answers, "origins": origins,
                  "level": sys.modules["game.bots.connectx"].LEVEL, "pygame": "pygame" in sys.modules}))
"""
    one_wins = [0] * 28 + [0, 0, 0, 0, 0, 2, 0] + [1, 1, 1, 0, 2, 2, 0]
    small = [0] * 20
    proc = subprocess.run(
        [sys.executable, "-I", "-c", script, str(path), json.dumps({"board": one_wins, "mark": 1})]
        + [json.dumps({"board": small, "mark": 1})],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["name"] == "agent"
    assert "Traceback" not in proc.stderr
    assert report["answers"][0] == 3  # mark 1 (three on the bottom row) completes the line
    assert 0 <= report["answers"][1] < 4
    assert report["origins"] == ["<connectx-bundle>"]  # nothing read from the project folder
    assert report["level"] == "depth:3" and report["pygame"] is False


@pytest.mark.slow
def test_connectx_command_writes_the_submission(tmp_path):
    proc = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "connectx", "--out", str(tmp_path / "out"), "--level", "hard"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "out" / "main.py").read_text()
    assert text.rstrip().splitlines()[-2].startswith("    ") and "def agent(observation, configuration):" in text
    assert "_connectx.LEVEL = 'hard'" in text


BLOCK_THE_BOOKS = """
import importlib.abc, json, sys


class NotOnKaggle(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("bitbully_databases", "pygame"):
            raise ImportError(f"{name} is not installed here")


sys.meta_path.insert(0, NotOnKaggle())
env = {}
exec(compile(open(sys.argv[1]).read(), "main.py", "exec"), env)
agent = [value for value in env.values() if callable(value)][-1]
configuration = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2}
print(json.dumps([agent({"board": json.loads(board), "mark": 1}, configuration) for board in sys.argv[2:]]))
"""


@pytest.mark.slow
def test_perfect_submission_plays_without_the_opening_books(tmp_path):
    path = write_submission(tmp_path / "submission", level="perfect")
    empty = [0] * 42
    one_wins = [0] * 28 + [0, 0, 0, 0, 0, 2, 0] + [1, 1, 1, 0, 2, 2, 0]
    proc = subprocess.run(
        [sys.executable, "-I", "-c", BLOCK_THE_BOOKS, str(path), json.dumps(empty), json.dumps(one_wins)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "BookError" not in proc.stderr
    first, winning = json.loads(proc.stdout)
    assert 0 <= first < 7 and winning == 3
