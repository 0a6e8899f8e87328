"""The archive seen from the real window (headless): damaged rows in Past games, each
window's own game in progress, the games no file would take named at close."""

from __future__ import annotations

from game.app.scenes.past_games import PastGamesScene
from tests.test_archive import BAD_ROWS, damaged_archive
from tests.ui import drawn_texts, step


def test_past_games_lists_the_readable_games_and_counts_the_damaged_ones(app):
    """Issue 32: one row with an out-of-range date crashed Past games."""
    damaged_archive(app.home)
    app.stack.push(PastGamesScene())
    step(app, 2)
    past = app.stack.top
    assert isinstance(past, PastGamesScene)
    assert [r.moves_string for r in past.records] == ["1122334", "4455667"]
    shown = " ".join(text for text, _ in drawn_texts(app))
    assert f"{len(BAD_ROWS)} stored games could not be read" in shown


def test_past_games_says_when_a_newer_archive_cannot_be_read_here(app):
    """A newer version's archive whose games this version cannot read: Past games says so
    (not "no games here yet"), and the file is left as it was."""
    from game.archive.database import FILE_NAME
    from tests.test_archive import make_newer_archive

    before = make_newer_archive(app.home, readable=False)
    app.stack.push(PastGamesScene())
    step(app, 2)
    shown = " ".join(text for text, _ in drawn_texts(app))
    assert "cannot read its games from this archive" in shown and "No games here yet" not in shown
    assert (app.home / FILE_NAME).read_bytes() == before
