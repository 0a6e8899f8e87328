"""The rules and the AI type-check with mypy (their public API is typed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ["game/rules.py", "game/board.py", "game/notation.py", "game/board_file.py", "game/match.py", "ai"]


def test_rules_and_ai_pass_mypy():
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--ignore-missing-imports", "--no-error-summary", *CHECKED],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_rules_ai_and_cli_load_without_pygame():
    code = ("import sys, ai.search, ai.solver, ai.bench, game.cli, game.board_file, game.ai_worker, "
            "game.replay, game.tree_layout; print('pygame' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "False", proc.stderr


def test_rules_and_ai_never_import_pygame():
    for folder in ("ai",):
        for path in (ROOT / folder).glob("*.py"):
            assert "pygame" not in path.read_text(), path
    for name in CHECKED[:-1] + ["game/cli.py", "game/levels.py", "game/settings.py", "game/animation.py",
                                "game/ai_worker.py", "game/replay.py", "game/tree_layout.py"]:
        assert "import pygame" not in (ROOT / name).read_text(), name
