"""The table of commands (``game.cli.commands``): the parser and the dispatch come from it,
each command's module agrees with it, and a command's module is imported only when it runs."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

from game.cli.commands import HELP_ORDER, CommandCode
from game.cli.main import table
from game.launcher import WINDOW_COMMANDS
from tests.test_cli import ROOT

HEAVY = ("ai", "ai.solver", "ai.player", "numba", "pygame")
"""What the cheap commands never import (``ai`` itself: not for ``--help`` either)."""


def test_the_table_and_the_command_modules_agree():
    commands = table(WINDOW_COMMANDS)
    names = [command.name for command in commands]
    assert names == list(HELP_ORDER), "every command once, in the order --help lists them"
    modules = {command.module for command in commands}
    for module in modules:
        defined = importlib.import_module(module).COMMANDS
        assert set(defined) == {c.name for c in commands if c.module == module}, module
        assert all(isinstance(code, CommandCode) for code in defined.values())


def imported_by(argv: list[str]) -> set[str]:
    """The heavy modules a fresh process imports to run ``argv`` (its output thrown away)."""
    code = (
        "import io, json, sys\n"
        "from game.launcher import main\n"
        "sys.stdout = io.StringIO()\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)), file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    return set(json.loads(proc.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize("argv", [["--help"], ["bogus"], ["open", "NO-SUCH-FILE"]])
def test_help_and_a_bad_command_load_no_ai(argv):
    assert imported_by(argv) == set()


@pytest.mark.parametrize("argv", [["games", "--home", "HOME"], ["one-move", "NO-SUCH-FILE", "out", "2"]])
def test_the_cheap_commands_load_neither_the_solver_nor_numba(argv, tmp_path):
    argv = [str(tmp_path) if word == "HOME" else word for word in argv]
    assert imported_by(argv) <= {"ai"}


def test_only_the_chosen_commands_module_is_imported():
    code = (
        "import sys\n"
        "from game.cli.main import build_parser\n"
        "parser, code = build_parser('one-move')\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('game.cli.'))))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", "import json\n" + code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    loaded = set(json.loads(proc.stdout))
    assert "game.cli.assignment" in loaded
    assert not loaded & {"game.cli.analysis", "game.cli.solving", "game.cli.matches", "game.cli.review"}
