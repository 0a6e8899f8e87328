"""``connect4 review`` and ``connect4 games``: the review and the archive from a terminal."""

from __future__ import annotations

import io
import json

import pytest

from ai.reviewer import review_board
from game.archive.store import Archive
from game.board import Board
from game.cli.main import main
from game.records import HUMAN, GameResult
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
    assert "accuracy of player 1: 75%" in text
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
    assert '[Second "Medium"]' in (tmp_path / "all.pgn").read_text()
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


def test_one_move_is_one_move_and_one_ply_is_one_ply():
    """'review' said "Review of 1 moves" and, off the standard board, "wins in 1 plies"."""
    from ai.review import result_words
    from ai.values import WIN

    code, text = run("review", "4")
    assert code == 0 and text.startswith("Review of 1 move on ")
    assert result_words(WIN - 1, 5, exact=False) == "player 1 wins in 1 ply (search)"
    code, text = run("review", "1213141", "--rows", "5", "--cols", "5")  # player 1's 4th disc wins
    assert code == 0 and "plies" not in text.replace("(search)", "")
    assert "1 plies" not in text
    rows = {line.split()[0]: line for line in text.splitlines() if line[:4].strip().isdigit()}
    assert "player 1 wins in 1 ply (search)" in rows["6"]  # its next disc wins, as the review saw
    assert rows["7"].endswith("player 1 has won")  # after the winning disc, not "wins in 1 plies"


def test_digits_other_than_ascii_are_said_to_be_digits_not_a_file(capsys):
    """'review ٤٤٥٣' (Arabic-Indic digits) said "cannot read ٤٤٥٣: No such file"."""
    assert main(["review", "٤٤٥٣"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read" not in err
    assert "ASCII" in err and "4453" in err  # the same columns, as the command reads them
    assert main(["review", "４４５３"]) == 2  # full-width digits
    assert "4453" in capsys.readouterr().err


def test_a_move_string_names_no_person():
    """A move string says nothing of who played it: the review called both players
    "(a person)", the computer too."""
    code, text = run("review", "4455667")
    assert code == 0 and "a person" not in text
    assert "accuracy of player 1: " in text
    data = json.loads(run("review", "4455667", "--json")[1])
    assert data["players"] == {"1": None, "2": None}


@pytest.mark.slow  # several seconds: out of the quick lane, in the full run
def test_a_review_without_gravity_is_visible_and_says_its_bound(capsys):
    """'review' of a 7-move game without gravity printed nothing for 283 s.  Now the
    header comes first, the bound is said, each move's depth is shown, and stderr says
    how far it got."""
    code, text = run("review", "d1e1d2e2d3e3d4", "--rows", "8", "--cols", "9", "--no-gravity")
    assert code == 0
    head = text.splitlines()[0]
    assert "ESTIMATES" in head and "100,000 positions" in head
    assert "searched to depth" in text
    err = capsys.readouterr().err
    assert "review: 7 of 7 moves" in err and "Traceback" not in err


def test_the_review_states_the_accuracy_rule():
    """Accuracy counts distance (a good move 1/2), and the review says how it counts."""
    from ai.review import ACCURACY_RULE

    code, text = run("review", "45233231343")  # player 2 loses sooner four times
    assert code == 0
    assert f"accuracy: {ACCURACY_RULE}" in text
    assert "accuracy of player 2: 60% (1 best, 4 good)" in text
    assert json.loads(run("review", "45233231343", "--json")[1])["accuracy_rule"] == ACCURACY_RULE


WHY_GAME = "644464725446355655626521722213333311"
"""Easy against Medium (seed 0): mistakes inside the book and past it, blunders with proved answers."""


def test_review_json_gives_every_mistake_and_blunder_its_why_in_english():
    from ai.explain.explainer import explain_move
    from ai.explain.explanation import ReasonKind
    from ai.explain.words import PLAIN_NAMES, sentence

    code, text = run("review", WHY_GAME, "--json")
    assert code == 0
    moves = json.loads(text)["moves"]
    lost = [m for m in moves if m["class"] in ("mistake", "blunder")]
    assert len(lost) >= 3 and any(m["class"] == "blunder" for m in lost)
    assert all("why" not in m for m in moves if m not in lost)
    board = Board()
    for entry in moves:
        if entry in lost:
            why = entry["why"]
            again = explain_move(board.grid, board.to_move, entry["column"] - 1)  # the explainer, asked apart
            assert why["kind"] == again.reason.kind.value and ReasonKind(why["kind"])
            assert why["text"] == sentence(again, PLAIN_NAMES)
            assert why["text"].startswith(f"Column {entry['column']} turns the ")
            assert why["squares"] == [square.name for square in again.reason.squares]
        board.push(entry["column"] - 1)
    assert any(m["why"]["proved"] for m in lost)  # past the book the answers are proved


def test_review_text_says_why_under_each_mistake():
    code, text = run("review", WHY_GAME)
    assert code == 0
    lines = text.splitlines()
    for index, line in enumerate(lines):
        words = line.split()
        if len(words) > 4 and words[1] == "player" and words[4] in ("mistake", "blunder"):
            assert lines[index + 1].strip().startswith(f"why: Column {words[3]} turns the ")
    assert sum(line.strip().startswith("why: ") for line in lines) == sum(
        1 for line in lines if len(line.split()) > 4 and line.split()[4] in ("mistake", "blunder")
    )
