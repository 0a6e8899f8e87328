"""The window as a new player sees it: buttons that stay put, words drawn whole, panels
and keys that come back (issue 32's rough edges, each reproduced here first)."""

from __future__ import annotations

import pygame
import pytest

from ai.exact import column_key
from ai.levels import Level, preset_name
from ai.search import search
from game.app.scenes import play_view
from game.app.scenes.explorer import ExplorerScene, explorer_layout
from game.app.scenes.game_over import GameOverScene
from game.app.scenes.level_select import LevelSelectScene
from game.app.scenes.pause import PauseScene
from game.app.scenes.play import PlayScene
from game.app.scenes.review import ReviewScene
from game.app.scenes.review_text import who
from game.app.scenes.title import TitleScene
from game.app.search_records import SearchRecord
from game.app.settings import Opponent
from game.app.theme import Theme
from game.app.tree.draw import header_title
from game.app.worker_protocol import JobPurpose
from game.board import Board
from game.i18n import _, set_language
from game.rules import MAX, MIN, Rules
from tests.ui import click, drawn_texts, press, settle, step, wait_until

SIZES = [(800, 600), (1280, 800)]


def title_rects(app) -> dict[str, pygame.Rect]:
    title = app.stack.top
    assert isinstance(title, TitleScene)
    return {button.label: pygame.Rect(button.rect) for button in title.buttons}


@pytest.mark.parametrize("size", SIZES)
def test_the_title_buttons_stay_put_when_a_game_can_be_resumed(tmp_path, size, make_app):
    """After leaving a game its "Resume ..." line came in at the top and pushed every
    button down: a click meant for "Computer vs computer" resumed the old game."""
    app = make_app(size, home=tmp_path / "home")
    app.stack.push(TitleScene())
    step(app, 2)
    before = title_rects(app)
    aim = before["Computer vs computer"].center
    play = PlayScene(Rules(), Level(2), "human")
    app.stack.push(play)
    step(app, 2)
    for column in (3, 3, 4):
        play.try_human_move(column)
        settle(app, play)
    press(app, pygame.K_ESCAPE, frames=2)
    pause = app.stack.top
    assert isinstance(pause, PauseScene)
    click(app, next(b for b in pause.buttons if b.label == "Main menu").rect.center)
    step(app, 2)
    after = title_rects(app)
    assert any(label.startswith("Resume the two-player game") for label in after)  # offered ...
    assert {label: rect for label, rect in after.items() if label in before} == before  # ... and nothing moved
    resume = next(rect for label, rect in after.items() if label.startswith("Resume"))
    assert all(not resume.colliderect(rect) for rect in before.values())
    click(app, aim)
    step(app)
    assert isinstance(app.stack.top, LevelSelectScene) and app.settings.opponent is Opponent.DEMO


def ink_gap(surface: pygame.Surface, rect: pygame.Rect, x: int) -> int:
    """The blank columns of the text in ``rect`` around column ``x`` (0: ink touches)."""
    background = surface.get_at((rect.left, rect.top))

    def ink(column: int) -> bool:
        for y in range(rect.top, rect.bottom):
            color = surface.get_at((column, y))
            if sum(abs(a - b) for a, b in zip(color[:3], background[:3])) > 40:  # any ink the eye sees
                return True
        return False

    widest = 0
    for start in range(x - 2, x + 3):
        if ink(start):
            continue
        left, right = start, start
        while left > rect.left and not ink(left - 1):
            left -= 1
        while right < rect.right - 1 and not ink(right + 1):
            right += 1
        widest = max(widest, right - left + 1)
    return widest


def computer_gaps(app) -> list[tuple[str, int, int]]:
    """Draw one frame; for every "computer" drawn, (text, the blank columns between "u" and
    "t", those between "p" and "u")."""
    drawn: list[tuple[str, int, bool, pygame.Rect]] = []
    original = app.theme.text

    def spy(surface, text, size, pos, **options):
        rect = original(surface, text, size, pos, **options)
        drawn.append((text, size, bool(options.get("bold")), rect))
        return rect

    app.theme.text = spy
    try:
        app.draw()
    finally:
        app.theme.text = original
    surface = pygame.display.get_surface()
    gaps = []
    for text, size, bold, rect in drawn:
        at = text.lower().find("computer")
        if at < 0:
            continue
        font = app.theme.font(size, bold)
        start = rect.left + font.size(text[:at])[0]
        u_t = start + font.size(text[at : at + 5])[0]  # between "compu" and "ter"
        p_u = start + font.size(text[at : at + 4])[0]  # between "comp" and "uter"
        gaps.append((text, ink_gap(surface, rect, u_t), ink_gap(surface, rect, p_u)))
    return gaps


@pytest.mark.parametrize("size", SIZES)
def test_computer_is_drawn_without_a_gap_in_the_title_and_the_pause_menu(tmp_path, size, make_app):
    """ "Compu ter": the default font's hinting left a gap between u and t at some sizes, as
    wide as a space, on the title's buttons and the pause menu's tally."""
    app = make_app(size, home=tmp_path / "home")
    app.stack.push(TitleScene())
    step(app, 2)
    gaps = computer_gaps(app)
    app.stack.push(PlayScene(Rules(), Level(2), "computer"))
    step(app, 2)
    press(app, pygame.K_ESCAPE, frames=2)
    assert isinstance(app.stack.top, PauseScene)
    gaps += computer_gaps(app)
    assert len(gaps) >= 3, gaps
    assert all(u_t <= p_u + 1 for _, u_t, p_u in gaps), gaps


def a_lost_game_with_trees(app) -> PlayScene:
    """A game against a depth-2 computer the person loses in column 1 (the computer's
    searches kept, with their trees), ended and its result panel open."""
    from game.app.scenes.game_over import GameOverScene

    play = PlayScene(Rules(), Level(2), "computer")
    app.stack.push(play)
    step(app, 2)
    for column in (0, 1, 0, 1, 0, 6, 6, 6, 6, 5, 5, 5, 5):
        if play.outcome is not None:
            break
        assert wait_until(app, lambda: play.outcome is not None or (not play.thinking and play.drop is None), 30)
        if play.outcome is None and play.match.to_move == play.human_side and column in play.match.board.legal_moves():
            play.try_human_move(column)
            settle(app, play)
        assert wait_until(app, lambda: play.outcome is not None or not play.thinking, 30)
    assert play.outcome is not None and play.searches
    assert wait_until(app, lambda: isinstance(app.stack.top, GameOverScene), 10)
    return play


def test_the_result_panel_and_its_keys_come_back_after_the_tree(app):
    """T on the result panel, then Esc: the panel was gone and V no longer opened the review."""
    from game.app.scenes.game_over import GameOverScene
    from game.app.scenes.review import ReviewScene
    from game.app.tree.scene import TreeScene

    play = a_lost_game_with_trees(app)
    press(app, pygame.K_t, frames=2)
    assert isinstance(app.stack.top, TreeScene)
    press(app, pygame.K_ESCAPE, frames=2)
    assert isinstance(app.stack.top, GameOverScene) and app.stack.top.play is play
    press(app, pygame.K_v, frames=2)
    assert isinstance(app.stack.top, ReviewScene)
    press(app, pygame.K_ESCAPE, frames=2)
    assert isinstance(app.stack.top, GameOverScene)
    press(app, pygame.K_ESCAPE, frames=2)  # "Look at the board": the result's keys still answer
    assert app.stack.top is play
    press(app, pygame.K_v, frames=2)
    assert isinstance(app.stack.top, ReviewScene)


def test_s_after_a_hint_hides_the_score_pills(app):
    """The hint's column scores stayed on the board whatever S said."""
    play = PlayScene(Rules(), Level(2), "computer")
    app.stack.push(play)
    step(app, 2)
    press(app, pygame.K_h)
    assert wait_until(app, lambda: bool(play.column_notes()), 60)
    press(app, pygame.K_s)
    step(app, 2)
    assert not play.column_notes() and "off" in app.toast[0]
    press(app, pygame.K_s)
    assert wait_until(app, lambda: bool(play.column_notes()), 60)
    assert "on" in app.toast[0]


def ink_box(surface: pygame.Surface, rect: pygame.Rect, color: tuple[int, int, int]) -> pygame.Rect | None:
    """The bounding box of the pixels of ``color`` (give or take antialiasing) in ``rect``."""
    xs, ys = [], []
    for x in range(rect.left, rect.right):
        for y in range(rect.top, rect.bottom):
            if sum(abs(a - b) for a, b in zip(surface.get_at((x, y))[:3], color)) < 200:
                xs.append(x)
                ys.append(y)
    if not xs:
        return None
    return pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


@pytest.mark.parametrize("size", SIZES)
def test_the_score_pills_keep_their_words_clear_of_their_edges(tmp_path, size, make_app):
    """At 800x600 "lose 18" touched the ends of its pill."""
    from game.app.board_view import ColumnNote

    app = make_app(size, home=tmp_path / "home")
    play = PlayScene(Rules(), Level(2), "computer")
    app.stack.push(play)
    step(app, 2)
    surface = pygame.display.get_surface()
    layout = play.board_layout(surface.get_size())
    white = (255, 255, 255)
    for text in ("lose 18", "win 18", "draw", "lose 3"):
        surface.fill((0, 0, 0))
        play.view.draw_note(surface, layout, 3, ColumnNote(text, (180, 30, 40)))
        pill = layout.note_rect(3)
        ink = ink_box(surface, pill, white)
        assert ink is not None, text
        side = pill.height * 0.35  # clear of the rounded ends
        assert ink.left - pill.left >= side and pill.right - ink.right >= side, (text, pill, ink)
        assert ink.top - pill.top >= 2 and pill.bottom - ink.bottom >= 2, (text, pill, ink)


def test_column_scores_that_are_not_known_say_why():
    """ "Column scores: not proven within the budget here": which budget, and the board or
    the book where one of them is the reason."""
    from ai.answer import Answer, DecidedBy
    from ai.levels import exact_nodes
    from game.app.scenes.play_text import no_scores_reason

    answer = Answer(3, DecidedBy.SEARCH, Level(2), 0, None, None, None)
    assert no_scores_reason(answer, Rules()) == (
        f"not proven within {exact_nodes(Rules()):,} positions here (the values shown are estimates)"
    )
    assert "gravity" in no_scores_reason(answer, Rules(gravity=False))
    damaged = Answer(3, DecidedBy.SEARCH, Level(2), 0, None, None, None, note="the 12-ply book failed its check")
    assert no_scores_reason(damaged, Rules()) == "the 12-ply book failed its check"


SEARCH_SUBJECTS = {
    # language: (hint for you, move of the computer, hint for player 1, move of computer 2)
    "en": ("hint for you", "move of the computer", "hint for Player 1", "move of Computer 2"),
    "de": ("Tipp für dich", "Zug des Computers", "Tipp für Spieler 1", "Zug von Computer 2"),
    "es": ("pista para ti", "jugada del ordenador", "pista para Jugador 1", "jugada de Ordenador 2"),
}


@pytest.mark.parametrize("language", ["en", "de", "es"])
def test_the_tree_header_names_whose_search_it_was_in_good_grammar(app, language):
    """A name put in a sentence takes the sentence's case: German "Tipp für dich", never
    "Tipp für Du"; Spanish "pista para ti", "jugada del ordenador"."""
    board = Board.from_moves("44")
    result = search(board.grid, board.rules, 2, record_tree=True, to_move=board.to_move)
    seen = []
    for opponent, side, purpose in (
        (Opponent.COMPUTER, MAX, JobPurpose.HINT),
        (Opponent.COMPUTER, MIN, JobPurpose.MOVE),
        (Opponent.HUMAN, MAX, JobPurpose.HINT),
        (Opponent.DEMO, MIN, JobPurpose.MOVE),
    ):
        play = PlayScene(board.rules, Level(2, True), opponent)
        play.searches.append(SearchRecord(2, side, purpose, result))
        app.stack.push(play)
        step(app)
        press(app, pygame.K_t, frames=2)
        set_language(language)
        try:
            seen.append(header_title(app.stack.top, result.tree, 4000))
        finally:
            set_language("en")
    for title, subject in zip(seen, SEARCH_SUBJECTS[language], strict=True):
        assert f": {subject} " in title, (title, subject)


@pytest.mark.parametrize("size", [(1024, 720), (1280, 800)])
def test_the_level_screen_shows_the_level_in_use_on_first_start(make_app, size):
    """A newcomer opens the level screen before ever choosing: one preset, the one the
    game will play, is drawn apart from the others (its face, not only a thin outline)."""
    app = make_app(size)
    assert not app.settings_path.exists()  # a first start
    app.stack.push(LevelSelectScene())
    step(app, 2)
    scene = app.stack.top
    assert isinstance(scene, LevelSelectScene)
    pygame.mouse.set_pos((0, 0))
    app.draw()
    surface = pygame.display.get_surface()
    faces = {
        button.label: tuple(surface.get_at((button.rect.left + 6, button.rect.centery)))[:3] for button in scene.presets
    }
    usual = max(set(faces.values()), key=list(faces.values()).count)
    apart = [name for name, colour in faces.items() if colour != usual]
    assert apart == [preset_name(app.settings.level)], faces


TOAST = "Screenshot saved: /home/player/screenshots/connect4-20261128-101010.png"


def toast_and_content(app, scene, content: list[pygame.Rect]) -> tuple[pygame.Rect, list[tuple[str, pygame.Rect]]]:
    """Show a toast over ``scene`` and draw a frame: the toast's box, and every text the
    scene drew (the toast's own text left out) with the ``content`` rects beside them."""
    app.show_toast(TOAST, 60)
    drawn = drawn_texts(app)
    toast_text = [rect for text, rect in drawn if text.startswith("Screenshot")]
    assert toast_text, "no toast drawn"
    box = toast_text[-1].inflate(24, 14)
    others = [(text, rect) for text, rect in drawn if not text.startswith("Screenshot") and rect.width]
    return box, others + [("content", rect) for rect in content]


@pytest.mark.parametrize(("size", "scale"), [((1024, 720), 100), ((1280, 800), 100), ((1280, 800), 200)])
def test_a_toast_covers_nothing_of_the_review(make_app, size, scale):
    app = make_app(size)
    app.settings.ui_scale = scale
    app.theme = Theme(app.settings.theme, scale=scale)
    review = ReviewScene(Rules(), Board.from_moves("4444332").moves)
    app.stack.push(review)
    step(app, 2)
    lay = review.layout(size)
    box, content = toast_and_content(app, review, [lay.board, lay.detail, lay.moves, lay.graph, *lay.buttons])
    covered = [text for text, rect in content if rect.colliderect(box)]
    assert covered == [], (box, covered)


@pytest.mark.parametrize(("size", "scale"), [((1024, 720), 100), ((1280, 800), 100), ((1280, 800), 200)])
def test_a_toast_covers_nothing_of_the_opening_explorer(make_app, size, scale):
    app = make_app(size)
    app.settings.ui_scale = scale
    app.theme = Theme(app.settings.theme, scale=scale)
    explorer = ExplorerScene()
    app.stack.push(explorer)
    step(app, 2)
    lay = explorer_layout(size, app.theme)
    box, content = toast_and_content(app, explorer, [lay.board, lay.panel, lay.buttons])
    covered = [text for text, rect in content if rect.colliderect(box)]
    assert covered == [], (box, covered)


@pytest.mark.parametrize(
    ("size", "scale"), [((1024, 720), 100), ((1280, 800), 100), ((1024, 720), 200), ((1280, 800), 200)]
)
def test_the_level_and_the_score_stay_in_the_header_while_a_hint_shows(make_app, size, scale):
    """German and Spanish hints are long; the level and the games won stay beside them,
    whole, and apart from the hint (the hint's line shrinks or gives way, not they)."""
    app = make_app(size)
    app.settings.ui_scale = scale
    app.theme = Theme(app.settings.theme, scale=scale)
    play = PlayScene(Rules(), Level(4), Opponent.COMPUTER)
    app.stack.push(play)
    step(app, 2)
    for col in (3, 2):
        play.try_human_move(col)
        assert wait_until(
            app, lambda: play.drop is None and not play.thinking and play.match.to_move == play.human_side
        )
    play.jobs.request_hint()
    assert wait_until(app, lambda: play.jobs.hint is not None)
    app.toast = None
    missing = {}
    for language in ("en", "de", "es"):
        set_language(language)
        try:
            drawn = drawn_texts(app)
            wanted = {"level": play_view.level_line(play), "score": play_view.tally_line(play)}
            head = play_view.headline(play)
        finally:
            set_language("en")
        shown = {text: rect for text, rect in drawn}
        lost = [name for name, text in wanted.items() if text not in shown]
        hint = next((rect for text, rect in drawn if text and head.startswith(text.rstrip(".…"))), None)
        crossed = [name for name, text in wanted.items() if text in shown and hint and shown[text].colliderect(hint)]
        if lost or crossed or shown.get(wanted["level"], pygame.Rect(0, 0, 0, 0)).right > size[0]:
            missing[language] = (lost, crossed, head)
    assert missing == {}


def test_the_two_player_hint_legend_says_their_for_both_players():
    """Two people: "player 1 wins with their 3rd move; player 2 wins with their 5th",
    not "their" for one and "its" for the other."""
    legend = column_key("player 1", "player 2")
    assert " its " not in legend and " its" not in legend.split(";")[1], legend
    assert legend.count("their") == 2, legend


@pytest.mark.parametrize(
    ("language", "first", "said"),
    [
        ("de", "human", "nach 5 Steinen: 3 Züge von dir, 2 vom Computer"),
        ("de", "computer", "nach 5 Steinen: 3 Züge vom Computer, 2 von dir"),
        ("es", "human", "tras 5 fichas: 3 jugadas tuyas, 2 del ordenador"),
        ("en", "human", "after 5 discs: 3 moves by you, 2 by the computer"),
    ],
)
def test_the_game_over_panel_counts_each_sides_moves_in_good_grammar(app, language, first, said):
    """Not "3 Züge von du, 2 von der computer" (a name lowercased into a sentence)."""
    play = PlayScene(Rules(), Level(2), Opponent.COMPUTER, first)
    app.stack.push(play)
    step(app)
    for move in (3, 3, 2, 2, 4):
        play.match.play(move)
    set_language(language)
    try:
        assert GameOverScene(play).discs_text() == said
    finally:
        set_language("en")


@pytest.mark.parametrize("language", ["en", "de", "es"])
def test_the_review_names_a_two_player_side_once(language):
    """A two-player game's sides are named "player 1" / "player 2": the review's accuracy
    line said "jugador 1 (jugador 1)"; a name of its own is still said beside the side."""
    try:
        set_language(language)
        player_1 = _("player {side_number}").format(side_number=1)
        assert who(MAX, {MAX: player_1.lower()}) == player_1
        assert who(MIN, {MIN: "Medium"}).endswith("(Medium)")
    finally:
        set_language("en")
