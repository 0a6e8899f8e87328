"""The solved-opening explorer's data and ``connect4 explore``: exact values beside the
player's own stored games."""

from __future__ import annotations

import io
import json

from ai.solver import Solver
from game.archive.store import Archive
from game.board import Board
from game.cli.main import main
from game.learn.explorer import games_here
from game.notation import parse_moves
from game.records import HUMAN, GameResult
from game.rules import STANDARD


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), stdout=out)
    return code, out.getvalue()


def seed(folder) -> None:
    """Six games: four through 44 with the person to move there (first player)."""
    archive = Archive.open(folder)
    games = [
        ("4455667", GameResult.FIRST, HUMAN, "Medium"),  # you play 5 at 44: won
        ("4453", GameResult.SECOND, HUMAN, "Hard"),  # you play 5 at 44: lost (unfinished, resigned)
        ("443", GameResult.DRAW, HUMAN, "Easy"),  # you play 3 at 44
        ("4411", GameResult.SECOND, HUMAN, "Easy"),  # you play 1 at 44 (a mistake there): lost
        ("4455", GameResult.FIRST, "Medium", HUMAN),  # the computer was to move at 44: not yours
        ("3", GameResult.FIRST, HUMAN, "Easy"),  # never reached 44
    ]
    for moves, result, first, second in games:
        archive.add_game(STANDARD, parse_moves(moves, STANDARD), result, first=first, second=second)
    archive.close()


def test_explore_json_counts_the_seeded_games_and_negates_solve_of_each_child(tmp_path):
    seed(tmp_path)
    code, text = run("explore", "44", "--json", "--home", str(tmp_path))
    assert code == 0
    data = json.loads(text)
    assert data["moves"] == "44"
    assert data["games_here"] == 5
    columns = {c["column"]: c for c in data["columns"]}
    assert sorted(columns) == [1, 2, 3, 4, 5, 6, 7]
    solver = Solver(STANDARD)
    for column, row in columns.items():
        child = solver.solve_moves(parse_moves("44" + str(column), STANDARD)).score
        assert row["score"] == -child, column
        assert row["words"] in ("draw",) or row["words"].split()[0] in ("win", "loss")
    assert (columns[5]["games"], columns[5]["wins"], columns[5]["draws"], columns[5]["losses"]) == (2, 1, 0, 1)
    assert (columns[3]["games"], columns[3]["draws"]) == (1, 1)
    assert (columns[1]["games"], columns[1]["losses"]) == (1, 1)
    assert columns[4]["games"] == 0  # the computer's 4455 is not the player's move
    best = max(row["score"] for row in columns.values())
    for row in columns.values():
        lost_outcome = (row["score"] > 0) - (row["score"] < 0) < (best > 0) - (best < 0)
        assert row["left_truth"] == (row["games"] if lost_outcome else 0)
    assert columns[1]["left_truth"] == 1  # 44 then 1: the win is thrown away
    link = "https://connect4.gamesolver.org/?pos=44"
    assert json.loads(run("explore", link, "--json", "--home", str(tmp_path))[1]) == data


def test_explore_without_moves_is_the_empty_board_and_prints_a_table(tmp_path):
    code, text = run("explore", "--home", str(tmp_path))
    assert code == 0
    assert "the empty board, player 1 to move" in text
    row4 = next(line for line in text.splitlines() if line.split()[:1] == ["4"])
    assert "win in 21 moves" in row4 and "+1" in row4
    code, text = run("explore", "--json", "--home", str(tmp_path))
    assert json.loads(text)["moves"] == "" and len(json.loads(text)["columns"]) == 7


def test_explore_says_a_bad_move_string_in_one_line(tmp_path, capsys):
    assert main(["explore", "4444444", "--home", str(tmp_path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_games_here_counts_only_the_persons_moves_and_their_results():
    from game.records import GameRecord

    def record(moves: str, result: GameResult, first: str, second: str) -> GameRecord:
        return GameRecord(None, 0.0, STANDARD, first, second, parse_moves(moves, STANDARD), result)

    records = [
        record("41", GameResult.SECOND, "Easy", HUMAN),  # the person, second, played 1 at 4: won
        record("42", GameResult.DRAW, HUMAN, HUMAN),  # two people: the mover's draw
        record("4", GameResult.FIRST, "Easy", HUMAN),  # ended at 4: reached, nothing played
    ]
    reached, columns = games_here(records, STANDARD, tuple(Board.from_moves("4").moves))
    assert reached == 3
    assert columns[0].games == columns[0].wins == 1
    assert columns[1].games == columns[1].draws == 1


def test_the_explorer_scene_goes_deeper_on_a_click_and_up_again(app):
    import pygame

    from game.app.board_view import BoardLayout
    from game.app.scenes.explorer import ExplorerScene, explorer_layout
    from game.app.scenes.title import TitleScene
    from tests.ui import click, press, step, wait_until

    seed(app.home)
    app.stack.push(TitleScene())
    step(app, 2)
    title = app.stack.top
    click(app, next(b for b in title.buttons if b.label == "Opening explorer").rect.center)
    step(app, 2)
    explorer = app.stack.top
    assert isinstance(explorer, ExplorerScene)
    assert wait_until(app, lambda: explorer.scores is not None, 30)
    assert [row.words for row in explorer.rows][3] == "win in 21 moves"
    lay = explorer_layout(pygame.display.get_surface().get_size())
    x, y = BoardLayout(STANDARD, lay.board).center(5, 3)
    click(app, (int(x), int(y)))  # column 4 on the board
    press(app, pygame.K_4)
    assert explorer.board.moves_string() == "44"
    assert wait_until(app, lambda: explorer.scores is not None, 30)
    by_column = {row.column: row for row in explorer.rows}
    assert explorer.reached == 5 and by_column[4].games.games == 2 and by_column[0].left_truth == 1
    assert by_column[4].score == -Solver(STANDARD).solve_moves(parse_moves("445", STANDARD)).score
    press(app, pygame.K_BACKSPACE)
    assert explorer.board.moves_string() == "4"
    press(app, pygame.K_a, frames=2)
    assert app.stack.top.name == "analysis"
