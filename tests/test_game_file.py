"""The game file (game.game_file): written, read back, imported; bad games named, good ones kept."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.archive.store import Archive, import_games
from game.board import Board
from game.cli.main import main
from game.game_file import GameText, each_game, game_record, game_text, read_games, record_game
from game.records import HUMAN, GameResult
from game.rules import MAX, MAX_DEPTH, MIN, MIN_DEPTH, Mode, Rules, RulesError

NAMES = st.one_of(
    st.sampled_from([HUMAN, "Medium", "Perfect", "depth 7", 'say "1-0"]', "a\\b", '[Result "0-1"]']),
    st.text(st.characters(codec="utf-8", categories=["L", "N", "P", "S", "Zs"]), min_size=1, max_size=40).filter(
        lambda name: name.isprintable() and name.strip() == name and "  " not in name and name.strip()
    ),
)


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    rows, cols = draw(st.integers(4, 10)), draw(st.integers(4, 12))
    connect = draw(st.integers(3, min(6, max(rows, cols))))
    try:
        return Rules(rows, cols, connect, draw(st.booleans()), draw(st.sampled_from(list(Mode))))
    except RulesError:  # pragma: no cover - the bounds above always fit
        raise AssertionError from None


@st.composite
def stored_games(draw: st.DrawFn) -> dict:
    """A game as the window stores it: any rules, legal moves (to the end or cut short,
    as a forfeit ends a match game), names, depths, a time."""
    rules = draw(rule_sets())
    board = Board(rules)
    rng = random.Random(draw(st.integers(0, 2**32)))
    length = draw(st.integers(0, rules.cells))
    while len(board.moves) < length and not board.is_game_over():
        board.push(rng.choice(board.legal_moves()))
    outcome = board.outcome()
    if outcome is not None:
        result = GameResult.of_winner(outcome.winner)
    else:
        result = draw(st.sampled_from(list(GameResult)))
    depth = st.one_of(st.none(), st.integers(MIN_DEPTH, MAX_DEPTH))
    return {
        "rules": rules,
        "moves": list(board.moves),
        "result": result,
        "first": draw(NAMES),
        "second": draw(NAMES),
        "first_depth": draw(depth),
        "second_depth": draw(depth),
        "played_at": draw(st.floats(0, 4e9, allow_nan=False)),
    }


def same_game(game: dict) -> tuple:
    return (game["played_at"], game["rules"], game["first"], game["second"], tuple(game["moves"]))


def identity(archive: Archive) -> list[tuple]:
    return [
        (g.played_at, g.rules, g.first, g.second, g.moves, g.result, g.first_depth, g.second_depth)
        for g in archive.games()
    ]


def import_text(archive: Archive, text: str) -> tuple[int, int, list[str]]:
    records, problems = [], []
    for game in each_game(text):
        if isinstance(game, GameText):
            records.append((game_record(game), game.played_at is not None))
        else:
            problems.append(str(game))
    stored, skipped = import_games(archive, records)
    return stored, skipped, problems


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(stored_games(), min_size=1, max_size=4, unique_by=same_game))
def test_every_game_exported_and_imported_again_is_the_same_game(games):
    """(Two games of the same time, rules, players and moves are one game: the second is
    skipped as a duplicate, so the games drawn here differ.)"""
    archive = Archive.in_memory()
    for game in games:
        archive.add_game(**game)
    text = archive.export_text()
    again = Archive.in_memory()
    assert import_text(again, text) == (len(games), 0, [])
    assert identity(again) == identity(archive)
    assert import_text(again, text) == (0, len(games), [])  # a second import stores nothing twice


def test_a_name_cannot_forge_a_tag():
    game = GameText(Rules(), (3, 3, 4), first='x"]\n[Result "0-1"]', second="b\\", result="*")
    text = game_text(game)
    assert text.count("\n[Result ") == 1 and '[Result "*"]' in text
    (back,), problems = read_games(text)
    assert problems == [] and back.second == "b\\" and back.result == "*"
    assert back.first == 'x"] [Result "0-1"]'  # a name is one line: its line break read as a space


def test_comments_move_numbers_several_games_and_a_set_up_start():
    text = """% a file of two games
[Event "first"]
[Rules "6x7, connect 4"]

1. 4 {centre} 4 2. 5 ; the rest of the line is a comment
3 3. 6 7 4. 3 1-0

[Event "second"]
[Rules "4x5, connect 3, no gravity, full board"]
[Start "00000/00000/00000/00100 2"]

1... a1 2. b1 *
"""
    (one, two), problems = read_games(text)
    assert problems == []
    assert one.moves_string() == "4453673" and one.result == "1-0" and one.tags["Event"] == "first"
    assert two.rules == Rules(4, 5, 3, False, Mode.FULL_BOARD) and two.start_to_move == MIN
    assert two.board().ply == 3 and not two.from_empty
    assert read_games(game_text(two))[0][0].board().grid.tolist() == two.board().grid.tolist()


def test_bad_games_are_named_and_the_good_ones_kept():
    text = """[Result "1-0"]

1. 4 4 2. 4 4 3. 4 4 4. 4 1-0

[Rules "6x7, connect 4"]
1. 4 5 2. 4 5 3. 4 5 4. 4 1-0

[Rules "99x7"]
4 *

[Result "0-1"]
1. 4 5 2. 4 5 3. 4 5 4. 4 0-1

[Bad tag line
4
"""
    games, problems = read_games(text)
    assert [g.moves_string() for g in games] == ["4545454"]
    assert problems[0].startswith("game 1 (line 1): move 7 (4): ") and "column 4 is full" in problems[0]
    assert problems[1].startswith("game 3 (line 8): Rules '99x7'") and "rows must be" in problems[1]
    assert problems[2] == "game 4 (line 11): its Result is 0-1 but the board says 1-0"
    assert problems[3].startswith("game 5 (line 14): line 14 is not a tag")


def test_games_import_stores_the_good_games_names_the_bad_and_skips_duplicates(tmp_path, capsys):
    path = tmp_path / "games.c4"
    good = GameText(Rules(), (3, 4, 3, 4, 3, 4, 3), first=HUMAN, second="Medium", second_depth=5, result="1-0")
    set_up = GameText(Rules(), (3,), start=Rules().empty_grid(), start_to_move=MIN, result="*")
    path.write_text(game_text(good) + '[Event "bad"]\n\n1. 4 8 *\n\n' + game_text(set_up))
    home = tmp_path / "home"
    assert main(["games", "--import", str(path), "--home", str(home)]) == 1
    out, err = capsys.readouterr()
    assert out.strip() == f"1 game imported from {path}, 2 not readable (said above)"
    lines = err.strip().splitlines()
    assert len(lines) == 2 and "game 2 (line 10)" in lines[0] and "column 8 does not exist" in lines[0]
    assert "set-up position" in lines[1]
    stored = Archive.open(home).games()
    assert [(g.moves_string, g.first, g.second, g.second_depth) for g in stored] == [("4545454", HUMAN, "Medium", 5)]
    assert main(["games", "--import", str(path), "--home", str(home)]) == 1
    assert "0 games imported" in capsys.readouterr().out and len(Archive.open(home).games()) == 1


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"\xff\xfe garbage", "not a text file"),
        (b'[Event "x"\n', "not a tag"),
        (b"", "holds no game"),
    ],
)
def test_a_file_of_no_games_is_one_line(tmp_path, capsys, content, said):
    path = tmp_path / "x.c4"
    path.write_bytes(content)
    assert main(["games", "--import", str(path), "--home", str(tmp_path / "home")]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and "Traceback" not in err


def test_a_record_keeps_its_id_tag_and_the_side_names():
    archive = Archive.in_memory()
    game_id = archive.add_game(Rules(), [3, 3], GameResult.DRAW, first="Hard", second=HUMAN, played_at=5.0)
    record = archive.game(game_id or 0)
    assert record is not None
    text = game_text(record_game(record))
    assert f'[Id "{game_id}"]' in text and '[First "Hard"]' in text and '[Timestamp "5.0"]' in text
    assert record_game(record).first == "Hard" and MAX == 1


def test_a_match_game_is_written_in_the_game_file_format_and_read_back():
    from game.board import Termination
    from game.bots.players import Side
    from game.bots.statistics import GameRecord as MatchGame
    from game.bots.tournament import pgn_text

    played = MatchGame(3, "344", Side.B, (2, 3, 3, 3, 2, 2, 4, 1), None, Termination.LINE, detail='"]\n[Result "1-0"]')
    text = pgn_text(played, "Medium", 'engine:python3 "bot".py', Rules(), "2026.11.22", 1795684569.5)
    (game,), problems = read_games(text)
    assert problems == [] and text.count("\n[Result ") == 1
    assert (game.first, game.second, game.result) == ('engine:python3 "bot".py', "Medium", "1/2-1/2")
    assert game.tags["Round"] == "3" and game.tags["Opening"] == "344" and game.played_at == 1795684569.5
    assert game_record(game).moves == played.moves
