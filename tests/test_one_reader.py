"""One checked road for every game that enters (issue 38 items 2, 3 and 10): ``open``, a
dropped file, Ctrl+V and ``games --import`` read a game file through one reader
(``game.game_file.each_game`` and its ``check_tags``), so a name no font draws is refused
in one line on every road; the window's text render draws any string; an unclosed ``{``
comment refuses its game and keeps the rest; digits other than ASCII are said to be so by
every command; reading commands make no archive."""

from __future__ import annotations

import time

import pygame
import pytest

import game.app.loop
import game.app.open_command
import game.game_file
from ai.levels import Level
from game.app import clipboard, open_game
from game.app.open_game import show_opened
from game.app.scenes.play import PlayScene
from game.app.scenes.review import ReviewScene
from game.app.scenes.title import TitleScene
from game.archive.store import Archive
from game.game_file import GameFileError, GameText, read_games
from game.launcher import main
from game.rules import Rules
from game.sources import Source
from tests.ui import FRAME, press, step, wait_until

WON = "1. 4 5 2. 4 5 3. 4 5 4. 4 1-0"
"""A finished game from the empty board: the archive would keep it."""

HOSTILE_NAMES = {
    "NUL": ("a\\u0000b", "its First tag holds a NUL character, which is not text"),
    "lone surrogate": ("x\\ud800y", "its First tag holds a lone surrogate (U+D800), which is not text"),
    "terminal escape": (
        "\\u001b[31mred",
        "the name in First holds U+001B, a character that cannot be shown (a control or format character)",
    ),
    "right-to-left override": (
        "\\u202eevil",
        "the name in First holds U+202E, a character that cannot be shown (a control or format character)",
    ),
    "absurd length": ("n" * 5000, "the name in First is 5,000 characters long; at most 200"),
}
"""A ``First`` tag as written in the file (escapes and all), and what the one reader says."""


def game_with_first(name: str) -> str:
    return f'[Event "shared"]\n[First "{name}"]\n[Second "Medium"]\n[Result "1-0"]\n\n{WON}\n'


@pytest.fixture(params=sorted(HOSTILE_NAMES))
def hostile(request, tmp_path):
    """(a game file whose player 1 is named so, what the reader says of it)."""
    name, said = HOSTILE_NAMES[request.param]
    path = tmp_path / "shared.c4"
    path.write_text(game_with_first(name), encoding="utf-8")
    return path, said


def no_window(monkeypatch) -> list[Source]:
    """``open`` reads its SOURCE, then would start the window: record what it would show."""
    opened: list[Source] = []
    monkeypatch.setattr(game.app.open_command, "display_problem", lambda: None)
    monkeypatch.setattr(game.app.loop, "launch", lambda **kw: opened.append(kw["opened"]) or 0)
    return opened


# -- item 2: a name no font draws, on every road in ---------------------------------------


def test_open_refuses_the_file_in_one_line_before_any_window(monkeypatch, capsys, hostile):
    path, said = hostile
    opened = no_window(monkeypatch)
    assert main(["open", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"shared.c4: game 1 (line 1): {said}" in err
    assert opened == []


def test_games_import_refuses_it_in_the_same_words(tmp_path, capsys, hostile):
    path, said = hostile
    assert main(["games", "--import", str(path), "--home", str(tmp_path / "home")]) == 1
    out, err = capsys.readouterr()
    assert f"not imported: game 1 (line 1): {said}" in err
    assert out.startswith("0 games imported") and "1 not readable" in out


def test_a_dropped_file_is_a_toast_and_the_window_keeps_running(app, tmp_path, hostile):
    """Issue 38 item 2: the review of such a file raised out of the theme's render in its
    first frame (ValueError "A null character" / UnicodeEncodeError "surrogates")."""
    path, said = hostile
    app.stack.push(TitleScene())
    step(app)
    app.step([pygame.event.Event(pygame.DROPFILE, file=str(path))], FRAME)
    step(app, 3)
    assert isinstance(app.stack.top, TitleScene)
    assert app.toast is not None and app.toast[0] == f"Not opened: shared.c4: game 1 (line 1): {said}"
    good = tmp_path / "good.c4"
    good.write_text(game_with_first("Ada"), encoding="utf-8")
    assert app.step([pygame.event.Event(pygame.DROPFILE, file=str(good))], FRAME)  # still running
    step(app, 2)
    assert isinstance(app.stack.top, ReviewScene) and app.stack.top.names[1] == "Ada"


def test_ctrl_v_on_the_title_and_in_a_game_is_a_toast(app, monkeypatch, hostile):
    path, said = hostile
    text = path.read_text(encoding="utf-8")
    app.stack.push(TitleScene())
    step(app)
    monkeypatch.setattr(open_game, "get_text", lambda: text)
    press(app, pygame.K_v, pygame.KMOD_CTRL, frames=3)
    assert isinstance(app.stack.top, TitleScene)
    assert app.toast is not None and app.toast[0] == f"Not opened: the clipboard: game 1 (line 1): {said}"
    play = PlayScene(Rules(), Level(2), "human")
    app.stack.push(play)
    step(app, 2)
    monkeypatch.setattr(clipboard, "get_text", lambda: text)
    press(app, pygame.K_v, pygame.KMOD_CTRL, frames=3)
    assert app.stack.top is play and play.match.moves == []
    assert app.toast is not None and app.toast[0].startswith("Not pasted: the clipboard: game 1 (line 1): ")


def test_every_road_reads_a_game_file_through_the_one_check(app, monkeypatch, tmp_path, capsys):
    """``open``, ``analyze``, ``review``, ``solve``, ``explore``, ``games --import``, a
    dropped file, Ctrl+V on the title and in a game: each one's game passes ``check_tags``
    (a spy that refuses every game here), so one check serves them all."""
    roads: list[str] = []

    def spy(tags: dict[str, str]) -> dict[str, str]:
        roads.append(tags.get("Event", ""))
        raise GameFileError("refused by the one check")

    monkeypatch.setattr(game.game_file, "check_tags", spy)
    no_window(monkeypatch)
    path = tmp_path / "road.c4"

    def through(road: str) -> str:
        path.write_text(f'[Event "{road}"]\n\n{WON}\n', encoding="utf-8")
        return str(path)

    for command in ("open", "analyze", "review", "solve", "explore"):
        assert main([command, through(command)]) == 2
        assert "refused by the one check" in capsys.readouterr().err
    assert main(["games", "--import", through("import"), "--home", str(tmp_path / "home")]) == 1
    assert "refused by the one check" in capsys.readouterr().err
    app.stack.push(TitleScene())
    step(app)
    app.step([pygame.event.Event(pygame.DROPFILE, file=through("drop"))], FRAME)
    assert app.toast is not None and "refused by the one check" in app.toast[0]
    pasted = f'[Event "paste"]\n\n{WON}\n'
    monkeypatch.setattr(open_game, "get_text", lambda: pasted)
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert app.toast is not None and "refused by the one check" in app.toast[0]
    app.stack.push(PlayScene(Rules(), Level(2), "human"))
    step(app, 2)
    monkeypatch.setattr(clipboard, "get_text", lambda: '[Event "paste in a game"]\n\n1. 4 5 *\n')
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert app.toast is not None and "refused by the one check" in app.toast[0]
    assert roads == ["open", "analyze", "review", "solve", "explore", "import", "drop", "paste", "paste in a game"]


def test_the_theme_draws_any_string(app):
    """Defence in depth: text no font encodes (NUL, a lone surrogate) or a line a million
    pixels wide is drawn (replaced, cut), never raised out of a scene's draw."""
    surface = pygame.Surface((640, 480))
    theme = app.theme
    for text in ("a\x00b", "\ud800", "x\udcff\x00y", "w" * 100_000):
        rect = theme.text(surface, text, 20, (10, 10))
        assert 0 < rect.width < 30_000 and theme.font(20).size(text)[0] == rect.width
        assert theme.fit(text, 20, 200) and theme.wrap(text, 20, 200)


def test_a_review_whose_names_no_font_draws_is_drawn_not_raised(app):
    """The crash of item 2 itself: the review's header and lines name the players once the
    review is done; a game handed to the window past every reader still draws."""
    game = GameText(Rules(), (3, 4, 3, 4, 3, 4, 3), first="a\x00b", second="c\ud800", result="1-0")
    show_opened(app, Source(game, "a test"))
    step(app)
    review = app.stack.top
    assert isinstance(review, ReviewScene)
    assert wait_until(app, lambda: review.review is not None, 60)
    step(app, 3)
    press(app, pygame.K_LEFT, frames=2)
    assert app.stack.top is review and review.ply == 6


# -- item 3: an unclosed comment ------------------------------------------------------------


def six_games_first_unclosed() -> str:
    """Issue 38 item 3: game 1's comment is never closed; five good games follow."""
    games = ['[Event "1"]\n[Result "1-0"]\n\n1. 4 4 {oops 2. 3 3 3. 5 5 1-0\n']
    for number in range(2, 7):
        games.append(f'[Event "{number}"]\n[Round "{number}"]\n[Date "2026.11.0{number}"]\n\n{WON}\n')
    return "\n".join(games)


def test_an_unclosed_comment_refuses_its_game_and_the_import_keeps_the_five_after_it(tmp_path, capsys):
    """It imported one 2-move game marked "player 1 won", said "1 game imported", exited 0
    and named none of the five games it never read."""
    path = tmp_path / "six.c4"
    path.write_text(six_games_first_unclosed(), encoding="utf-8")
    home = tmp_path / "home"
    assert main(["games", "--import", str(path), "--home", str(home)]) == 1
    out, err = capsys.readouterr()
    assert out.strip() == f"5 games imported from {path}, 1 not readable (said above)"
    assert err.strip() == (
        f"games --import {path}: not imported: game 1 (line 1): the {{ comment of line 4 is never closed "
        "(a comment ends with } before a blank line or a tag)"
    )
    assert sorted(time.strftime("%d", time.gmtime(g.played_at)) for g in Archive.open(home).games()) == [
        "02",
        "03",
        "04",
        "05",
        "06",
    ]


def test_an_unclosed_comment_is_refused_wherever_it_stands():
    games, problems = read_games(six_games_first_unclosed())
    assert [g.tags["Round"] for g in games] == ["2", "3", "4", "5", "6"]
    assert problems == [
        "game 1 (line 1): the { comment of line 4 is never closed (a comment ends with } before a blank line or a tag)"
    ]
    tagless = "1. 4 {oops\n2. 5 5\n\n1. 4 5 *\n\n1. 3 {fine,\nover two lines} 3 *\n"
    games, problems = read_games(tagless)
    assert [g.moves_string() for g in games] == ["45", "33"] and problems == [
        "game 1 (line 1): the { comment of line 1 is never closed (a comment ends with } before a blank line or a tag)"
    ]
    at_the_top = "{ a note never closed\n\n1. 4 5 *\n"
    games, problems = read_games(at_the_top)
    assert [g.moves_string() for g in games] == ["45"] and "comment of line 1 is never closed" in problems[0]
    at_the_end = '[Event "a"]\n\n1. 4 5 *\n\n[Event "b"]\n\n1. 4 {cut off\n2. 5'
    games, problems = read_games(at_the_end)
    assert [g.tags["Event"] for g in games] == ["a"] and problems == [
        "game 2 (line 5): the { comment of line 7 is never closed (a comment ends with } before a blank line or a tag)"
    ]


def test_open_of_a_file_whose_first_game_is_unclosed_names_the_line(monkeypatch, tmp_path, capsys):
    path = tmp_path / "six.c4"
    path.write_text(six_games_first_unclosed(), encoding="utf-8")
    opened = no_window(monkeypatch)
    assert main(["open", str(path)]) == 2
    assert "six.c4: game 1 (line 1): the { comment of line 4 is never closed" in capsys.readouterr().err
    assert main(["open", str(path), "--game", "2"]) == 0
    assert opened[0].game.tags["Round"] == "2" and opened[0].games_in_file == 6


# -- item 10: full-width digits; reading commands make no archive ---------------------------


@pytest.mark.parametrize("command", ["open", "analyze", "review", "solve", "explore", "depth-chart"])
@pytest.mark.parametrize("digits", ["４４５３", "٤٤٥٣"])
def test_digits_other_than_ascii_are_refused_by_every_command_naming_the_columns(
    monkeypatch, tmp_path, capsys, command, digits
):
    """``open ４４５３`` and ``analyze ４４５３`` said "cannot read ４４５３: No such file"."""
    no_window(monkeypatch)
    extra = ["--out", str(tmp_path / "chart.png")] if command == "depth-chart" else []
    assert main([command, digits, *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read" not in err
    assert "ASCII" in err and "4453" in err
    assert not (tmp_path / "chart.png").exists()


def test_digits_other_than_ascii_pasted_on_the_title_are_said_so(app, monkeypatch):
    app.stack.push(TitleScene())
    step(app)
    monkeypatch.setattr(open_game, "get_text", lambda: "４４５３")
    press(app, pygame.K_v, pygame.KMOD_CTRL, frames=2)
    assert isinstance(app.stack.top, TitleScene) and app.toast is not None
    assert app.toast[0] == "Not opened: '４４５３' has digits other than ASCII: write the columns as 4453"


@pytest.mark.parametrize(
    ("argv", "said", "code"),
    [
        (["explore", "44"], "Position: 44, player 1 to move; 0 of your stored games reached it.", 0),
        (["games"], "no games stored yet", 0),
        (["games", "--json"], '"games": []', 0),
        (["review", "id:1"], "no game 1 in the archive", 2),
        (["games", "--export", "EXPORT"], "no games stored yet in HOME: EXPORT was not written", 2),
    ],
)
@pytest.mark.parametrize("folder", ["missing", "empty"])
def test_reading_commands_make_no_home_and_no_archive(tmp_path, capsys, argv, said, code, folder):
    """``explore 44 --home MISSING`` made the folder MISSING and an empty archive in it."""
    home = tmp_path / "home"
    if folder == "empty":
        home.mkdir()
    export = tmp_path / "export.c4"
    argv = [str(export) if word == "EXPORT" else word for word in argv]
    assert main([*argv, "--home", str(home)]) == code
    out, err = capsys.readouterr()
    assert said.replace("HOME", str(home)).replace("EXPORT", str(export)) in out + err
    assert home.exists() == (folder == "empty") and not export.exists()
    assert not home.exists() or list(home.iterdir()) == []


def test_games_import_still_makes_its_archive(tmp_path, capsys):
    path = tmp_path / "one.c4"
    path.write_text(f'[Event "x"]\n\n{WON}\n', encoding="utf-8")
    home = tmp_path / "new" / "home"
    assert main(["games", "--import", str(path), "--home", str(home)]) == 0
    assert main(["games", "--home", str(home)]) == 0
    assert "4545454" in capsys.readouterr().out
