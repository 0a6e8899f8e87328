"""Opening a game in the window, and sharing one out of it.

- ``opened_request``: where a game read by ``game.sources`` opens (``main.py open``, a
  file dropped on the window, Ctrl+V on the title, Past games and review screens): its
  review, to step through move by move, or the analysis board for a position without
  moves; the App's router builds the scene.

Sharing a game out of the window (its link, its game file text) is ``game.app.clipboard``'s.
"""

from __future__ import annotations

from game.app.clipboard import PERSON, get_text
from game.app.navigation import OpenAnalysis, OpenReview
from game.app.scene import SceneHost
from game.i18n import _
from game.records import HUMAN
from game.rules import MAX, MIN
from game.sources import Source, SourceError, read_source, read_text

PASTE_SCENES = frozenset({"title", "past games", "review"})
"""Scenes where Ctrl+V opens what is pasted (the play and analysis scenes paste a position)."""


def opened_request(found: Source) -> OpenReview | OpenAnalysis:
    """The review of the game (at its last move), or the analysis board on a position
    without moves."""
    game = found.game
    if not game.moves:
        return OpenAnalysis(game.board())
    names = {
        side: _(PERSON) if name == HUMAN else name
        for side, name in ((MAX, game.first), (MIN, game.second))
        if name is not None
    }
    depths = {side: d for side, d in ((MAX, game.first_depth), (MIN, game.second_depth)) if d}
    return OpenReview(
        game.rules,
        tuple(game.moves),
        start=game.start,
        start_to_move=game.start_to_move,
        names=names,
        depths=depths,
    )


def show_opened(app: SceneHost, found: Source) -> None:
    """Push the scene of an opened game, and say what was opened."""
    app.push(opened_request(found))
    game = found.game
    what = _("{count} moves").format(count=len(game.moves)) if game.moves else _("a position")
    more = (
        _(" (game 1 of {games_in_file})").format(games_in_file=found.games_in_file) if found.games_in_file > 1 else ""
    )
    keys = _("Left/Right step, P plays on from here") if game.moves else _("play on by hand")
    app.show_toast(
        _("Opened {what} from {label}{more}: {keys}").format(what=what, label=found.label, more=more, keys=keys), 5.0
    )


def open_dropped(app: SceneHost, path: str) -> None:
    """A file dropped on the window: its game opens, or a toast says why not."""
    try:
        found = read_source(path, app.settings.rules())
    except SourceError as error:
        app.show_toast(_("Not opened: {error}").format(error=error), 6.0)
        return
    show_opened(app, found)


def open_pasted(app: SceneHost) -> None:
    """Ctrl+V where nothing else pastes: open the game (or link, moves, board) pasted."""
    text = get_text()
    if text is None:
        app.show_toast(_("No clipboard here: nothing to paste"))
        return
    try:
        found = read_text(text, app.settings.rules(), label=_("the clipboard"))
    except SourceError as error:
        app.show_toast(_("Not opened: {error}").format(error=error), 6.0)
        return
    show_opened(app, found)
