"""Open anything (game.sources): a move string, a ?pos= link, a game file, a board file;
the same answer from analyze, review and solve; one clear line for what is no game."""

from __future__ import annotations

import json

import pytest

from game.launcher import main
from game.rules import MAX, MIN, Rules
from game.sources import SourceError, read_source, read_text

LINK = "https://connect4.gamesolver.org/?pos=4453"


@pytest.fixture
def game_file(tmp_path):
    path = tmp_path / "game.c4"
    path.write_text('[Event "test"]\n[First "human"]\n[Second "Medium"]\n\n1. 4 4 2. 5 3 *\n')
    return str(path)


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_kind_of_source_is_the_same_game(game_file, tmp_path):
    board_file = tmp_path / "board.txt"
    board_file.write_text("0000000\n0000000\n0000000\n0000000\n0002000\n0021100\n1\n")
    for source in ("4453", LINK, "connect4.gamesolver.org/?pos=4453", game_file):
        found = read_source(source)
        assert found.game.moves_string() == "4453" and found.game.rules == Rules(), source
    board = read_source(str(board_file)).game
    assert board.moves == () and board.board().grid.tolist() == read_source("4453").game.board().grid.tolist()
    assert read_text('[Event "x"]\n\n4 4 5 3\n').game.moves_string() == "4453"
    assert read_source(f"{LINK[:-4]}").game.moves == ()  # pos= empty: the empty board
    assert read_source(game_file).game.first == "human" and read_source(game_file).game.start_to_move == MAX


def test_analyze_review_and_solve_give_the_same_answer_for_each_source(capsys, game_file):
    answers: dict[str, set[str]] = {"analyze": set(), "review": set(), "solve": set()}
    for source in ("4453", LINK, game_file):
        code, out, _ = run(capsys, "analyze", source, "--depth", "2")
        assert code == 0
        answers["analyze"].add("\n".join(line for line in out.splitlines() if line.startswith(("Best", "Exact"))))
        code, out, _ = run(capsys, "review", source, "--json")
        assert code == 0
        review = json.loads(out)
        answers["review"].add(json.dumps([review["moves"], review["accuracy"]]))
        code, out, _ = run(capsys, "solve", source)
        assert code == 0
        answers["solve"].add(out)
    assert all(len(said) == 1 for said in answers.values()), answers
    assert answers["solve"] == {"4453 -2\n"}
    code, out, _ = run(capsys, "review", game_file, "--json")
    assert json.loads(out)["players"] == {"1": "human", "2": "Medium"}


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("https://example.com/?pos=4453", "unknown link"),
        ("https://connect4.gamesolver.org/?move=4453", "has no ?pos="),
        ("https://connect4.gamesolver.org/?pos=4489", "not a move string of columns 1 to 7"),
        ("44444444", "column 4 is full"),
        ("no-such-file.c4", "cannot read no-such-file.c4"),
    ],
)
@pytest.mark.parametrize("command", ["open", "analyze", "review", "solve"])
def test_bad_input_is_one_line_and_exit_code_2(capsys, command, source, said):
    code, out, err = run(capsys, command, source)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and said in err and "Traceback" not in err


@pytest.mark.parametrize("command", ["open", "analyze", "review", "solve"])
def test_a_malformed_game_file_is_one_line(capsys, tmp_path, command):
    path = tmp_path / "bad.c4"
    path.write_text('[Event "x"]\n[Rules "6x7"]\n\n1. 4 4 2. 4 4 3. 4 4 4. 4 *\n')
    code, out, err = run(capsys, command, str(path))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "game 1 (line 1): move 7 (4): column 4 is full" in err


def test_a_file_of_several_games_opens_the_one_asked_for(tmp_path, capsys):
    path = tmp_path / "two.c4"
    path.write_text('[Event "a"]\n\n1. 4 *\n\n[Event "b"]\n\n1. 1 2 *\n')
    assert read_source(str(path)).game.moves_string() == "4"
    assert read_source(str(path), number=2).game.moves_string() == "12"
    with pytest.raises(SourceError, match="holds 2 games; there is no game 3"):
        read_source(str(path), number=3)
    code, out, err = run(capsys, "solve", str(path), "--game", "2")
    assert code == 0 and out.startswith("12 ") and err == ""
    code, out, err = run(capsys, "solve", str(path))
    assert code == 0 and out.startswith("4 ") and "holds 2 games: this is the first" in err


def test_a_set_up_start_is_solved_from_its_grid(tmp_path, capsys):
    path = tmp_path / "start.c4"
    path.write_text('[Start "0000000/0000000/0000000/0000000/0000000/0001000 2"]\n\n1... 4 *\n')
    found = read_source(str(path))
    assert found.game.start_to_move == MIN and found.game.board().to_move == MAX
    code, out, _ = run(capsys, "solve", str(path))
    code2, out2, _ = run(capsys, "solve", "44")
    assert code == code2 == 0 and out.split()[-1] == out2.split()[-1]


def test_a_file_of_move_strings_is_a_game_a_line_and_a_damaged_board_names_its_line(tmp_path, capsys):
    lines = tmp_path / "all.txt"
    lines.write_text("4453\n1122 0\n")
    assert read_source(str(lines), number=2).game.moves_string() == "1122"
    assert read_source(str(lines)).label == "line 1 of all.txt"
    board = tmp_path / "board.txt"
    board.write_text("0000000\n0000000\n0000000\n0000000\n00x0000\n0012200\n1\n")
    code, out, err = run(capsys, "analyze", str(board))
    assert code == 2 and err.strip().endswith("board.txt: line 5, column 3: 'x' is not 0, 1 or 2")


def test_open_hands_the_game_to_the_window(monkeypatch, game_file):
    import game.app.loop
    import game.app.open_command
    import game.launcher

    opened = []
    monkeypatch.setattr(game.app.open_command, "display_problem", lambda: None)
    monkeypatch.setattr(game.app.loop, "launch", lambda **kw: opened.append(kw["opened"]) or 0)
    assert game.launcher.main(["open", game_file]) == 0
    assert opened[0].game.moves_string() == "4453" and opened[0].game.second == "Medium"
