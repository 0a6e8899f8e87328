"""``connect4 review`` and ``connect4 games``: the review and the archive from a terminal."""

from __future__ import annotations

import io
import json

import pytest

from ai.reviewer import review_board
from game.archive import HUMAN, Archive, GameResult
from game.board import Board
from game.cli import main
from game.rules import Rules


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), stdout=out)
    return code, out.getvalue()


def test_review_prints_a_table_accuracy_and_a_sparkline():
    code, text = run("review", "4455667")
    assert code == 0
    lines = text.splitlines()
    assert "exact" in lines[0]
    assert any(line.split()[:5] == ["3", "player", "1", "5", "blunder"] for line in lines)
    assert "player 1 has won" in text
    assert "accuracy of player 1 (a person): 75%" in text
    assert "turning points: ply 3" in text
    assert lines[-1].startswith("graph") and lines[-1].endswith("█")


def test_review_json_has_one_based_columns_and_the_exact_classes():
    code, text = run("review", "4455667", "--json")
    assert code == 0
    data = json.loads(text)
    expected = review_board(Board.from_moves("4455667"))
    assert [m["column"] for m in data["moves"]] == [4, 4, 5, 5, 6, 6, 7]
    assert [m["class"] for m in data["moves"]] == [m.move_class.value for m in expected.moves]
    assert data["moves"][0] == {**data["moves"][0], "ply": 1, "player": 1, "class": "best"}
    assert data["moves"][2]["search"]["depth"] == 6
    assert data["accuracy"]["1"] == pytest.approx(0.75)
    assert data["turning_points"] == [3, 4]
    assert data["exact"] is True and len(data["graph"]) == 8


def test_review_off_the_standard_board_says_estimates():
    code, text = run("review", "1122334", "--rows", "5", "--cols", "5")
    assert code == 0
    assert "ESTIMATES" in text.splitlines()[0]


def test_bad_input_is_one_line(capsys, tmp_path):
    assert main(["review", "4444444"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "column 4" in err
    assert main(["review", "id:99", "--home", str(tmp_path)]) == 2
    assert "no game 99" in capsys.readouterr().err


def test_games_lists_reviews_and_exports_the_archive(tmp_path, capsys):
    archive = Archive.open(tmp_path)
    board = Board.from_moves("4455667")
    first = archive.add_game(Rules(), board.moves, GameResult.FIRST, first=HUMAN, second="Medium", second_depth=6)
    archive.add_game(Rules(), Board.from_moves("1122334").moves, GameResult.FIRST, first="Hard", second=HUMAN)
    archive.close()
    code, text = run("games", "--home", str(tmp_path))
    assert code == 0
    assert text.index("1122334") < text.index("4455667")  # newest first
    assert "against Medium: 1 won, 0 drawn, 0 lost" in text and "against Hard: 0 won, 0 drawn, 1 lost" in text
    code, text = run("games", "--home", str(tmp_path), "--json", "--result", "win")
    data = json.loads(text)
    assert [g["moves"] for g in data["games"]] == ["4455667"]
    assert data["games"][0]["id"] == first and data["games"][0]["result"] == "1"
    code, text = run("review", f"id:{first}", "--home", str(tmp_path), "--json")
    assert code == 0 and json.loads(text)["players"] == {"1": "human", "2": "Medium"}
    stored = Archive.open(tmp_path).game(first)
    assert stored is not None and stored.review is not None and stored.review["turning_points"] == [3, 4]
    assert run("games", "--home", str(tmp_path), "--export", str(tmp_path / "all.txt"))[0] == 0
    assert (tmp_path / "all.txt").read_text().splitlines() == ["4455667", "1122334"]
    assert run("games", "--home", str(tmp_path), "--export", str(tmp_path / "all.pgn"))[0] == 0
    assert '[Player2 "Medium"]' in (tmp_path / "all.pgn").read_text()
    assert main(["games", "--home", str(tmp_path), "--export", str(tmp_path / "no" / "dir.pgn")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_a_game_id_too_large_for_the_archive_is_no_game(tmp_path, capsys):
    """'review id:99999999999999999999' ended in SQLite's OverflowError traceback."""
    code, _ = run("review", "id:99999999999999999999", "--home", str(tmp_path))
    assert code == 2
    assert "no game 99999999999999999999 in the archive" in capsys.readouterr().err


@pytest.mark.slow
def test_an_archive_that_cannot_be_opened_is_warned_about_once(tmp_path):
    """The archive's own log line and the command's 'warning:' line said it twice."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run(
        [sys.executable, str(root / "main.py"), "games", "--home", str(fifo)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=root,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.count(f"no game archive in {fifo}") == 1, proc.stderr
