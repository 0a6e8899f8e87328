"""Every scene in English, German and Spanish at 800x600 and at 150 % on 1280x800.

The test draws each scene and measures every text the theme draws: none may lie outside
the window (a page that scrolls: outside its width), and a translation may not cut more
texts short (``Theme.fit``'s ellipsis: a label longer than its box) than English does.
The language is switched as Options switches it, in the running window, so this also
checks that the scenes word their text anew on the next frame.
"""

from __future__ import annotations

import datetime
import json

import pygame
import pytest

from ai.levels import Level
from ai.search import search
from game.app.scenes.analysis import AnalysisScene
from game.app.scenes.explorer import ExplorerScene
from game.app.scenes.game_over import GameOverScene
from game.app.scenes.help import HowToPlayScene
from game.app.scenes.level_select import LevelSelectScene
from game.app.scenes.options import OptionsScene
from game.app.scenes.past_games import PastGamesScene
from game.app.scenes.pause import PauseScene
from game.app.scenes.play import PlayScene
from game.app.scenes.puzzle_themes import PuzzleThemesScene
from game.app.scenes.puzzles import PuzzlesScene
from game.app.scenes.review import ReviewScene
from game.app.scenes.storm import StormScene
from game.app.scenes.streak import StreakScene
from game.app.scenes.title import TitleScene
from game.app.search_records import SearchRecord
from game.app.settings import Opponent
from game.app.worker_protocol import JobPurpose
from game.board import Board
from game.i18n import _, set_language
from game.learn.puzzle_words import Source
from game.rules import Rules
from tests.test_big_text import measure
from tests.ui import drawn_texts, key_event, press, step, wait_until

pytestmark = pytest.mark.window

LANGUAGES = ("en", "de", "es")


@pytest.fixture(autouse=True)
def english_again():
    yield
    set_language("en")


def text_problems(app, scrolls: bool = False) -> tuple[list[str], list[str]]:
    """Draw one frame: the texts drawn outside the window (for a page that ``scrolls``,
    outside its width), and the texts a box had to cut short (``measure``, the big-text
    test's measure, says both)."""
    found = measure(app, scrolls)
    return [p for p in found if not p.startswith("cut: ")], [p for p in found if p.startswith("cut: ")]


def speak(app, language: str) -> None:
    """Choose ``language`` as the Options row does: the next frame is worded in it."""
    app.settings.language = language
    set_language(language)
    step(app)


def in_every_language(app, found, name: str, scrolls: bool = False, measure=None) -> None:
    """Measure the scene on top in each language (``text_problems``, or ``measure``),
    switched while it stays open."""
    for language in LANGUAGES:
        speak(app, language)
        found[language][name] = (measure or text_problems)(app, scrolls)


def every_scene(app, measure=None) -> dict[str, dict[str, tuple[list[str], list[str]]]]:
    """Visit every scene (the tree and the code walk included) and measure its text
    (``text_problems``, or ``measure``)."""
    found: dict[str, dict[str, tuple[list[str], list[str]]]] = {language: {} for language in LANGUAGES}
    for scene in (
        TitleScene(),
        OptionsScene(),
        LevelSelectScene(),
        HowToPlayScene(),
        PastGamesScene(),
        AnalysisScene(Board.from_moves("4453")),
        ExplorerScene([3, 3]),
        PuzzlesScene(Source.DAILY, today=datetime.date(2026, 11, 29)),
        ReviewScene(Rules(), Board.from_moves("4444332").moves),
    ):
        app.stack.reset(scene)
        step(app, 2)
        in_every_language(app, found, type(scene).__name__, isinstance(scene, HowToPlayScene), measure)
    puzzle_runs(app, found, measure)
    app.stack.reset(TitleScene())
    play = PlayScene(Rules(), Level(2), "human")
    app.stack.push(play)
    step(app)
    for key in "1212121":  # player 1 wins in column 1
        app.step([key_event(pygame.K_0 + int(key))], 1 / 60)
        wait_until(app, lambda: play.drop is None, 30)
    assert wait_until(app, lambda: isinstance(app.stack.top, GameOverScene), 30)
    in_every_language(app, found, "GameOverScene", measure=measure)
    app.stack.pop()
    step(app)
    in_every_language(app, found, "PlayScene", measure=measure)
    app.stack.push(PauseScene(play))
    step(app, 2)
    in_every_language(app, found, "PauseScene", measure=measure)
    tree_scenes(app, found, measure)
    return found


def puzzle_runs(app, found, measure=None) -> None:
    """The puzzle themes over the puzzle screen, Storm and Streak under way."""
    puzzles = PuzzlesScene(seed=1)
    app.stack.reset(puzzles)
    step(app, 3)
    app.stack.push(PuzzleThemesScene(puzzles))
    step(app, 2)
    in_every_language(app, found, "PuzzleThemesScene", measure=measure)
    for scene in (StormScene(seed=1), StreakScene(seed=1)):
        app.stack.reset(scene)
        step(app, 2)
        press(app, pygame.K_SPACE, frames=2)
        in_every_language(app, found, type(scene).__name__, measure=measure)


def tree_scenes(app, found, measure=None) -> None:
    open_tree_overlay(app)
    in_every_language(app, found, "TreeScene", measure=measure)
    press(app, pygame.K_k, frames=2)
    walk = app.stack.top
    assert wait_until(app, lambda: walk.ready, 30)
    walk.seek(len(walk.steps) // 2)
    step(app)
    in_every_language(app, found, "CodeScene", measure=measure)


@pytest.mark.parametrize("size, scale", [((800, 600), 100), ((1280, 800), 150)], ids=["800x600", "1280x800-150"])
def test_every_scene_keeps_its_words_inside_in_every_language(make_app, size, scale):
    app = make_app(size)
    app.settings.ui_scale, app.theme.scale = scale, scale / 100
    app.settings.opponent = Opponent.DEMO  # the level select's longest headline: both computers
    speak(app, "de")
    assert _("Back") == "Zurück"
    found = every_scene(app)
    assert _("Back") == "Volver"  # the last language measured
    outside = {(lang, scene): out for lang, scenes in found.items() for scene, (out, _cut) in scenes.items() if out}
    assert not outside, outside
    worse = {
        (lang, scene): cut
        for lang in ("de", "es")
        for scene, (_out, cut) in found[lang].items()
        if len(cut) > len(found["en"][scene][1])
    }
    assert not worse, worse


def lines_over_lines(app) -> list[str]:
    """Draw the scene on top (an overlay without what lies under it): its lines of text
    drawn over each other.  The tree's canvas aside: its nodes' labels crowd at any size."""
    top = app.stack.top
    canvas = top.areas.canvas if top.name == "tree" else pygame.Rect(0, 0, 0, 0)
    drawn = [
        (text, rect)
        for text, rect in drawn_texts(app, top if top.is_overlay else None)
        if text.strip() and not canvas.colliderect(rect)
    ]
    return [
        f"{a!r} {ra} over {b!r} {rb}"
        for i, (a, ra) in enumerate(drawn)
        for b, rb in drawn[i + 1 :]
        if ra.clip(rb).width * ra.clip(rb).height > 4  # more than glyph boxes touching
    ]


def whole_and_apart(app, scrolls: bool = False) -> tuple[list[str], list[str]]:
    """The texts drawn outside the window or over each other (a page that scrolls runs
    under its footer: only outside its width), and the texts cut short."""
    outside, cut = text_problems(app, scrolls)
    return outside + ([] if scrolls else lines_over_lines(app)), cut


@pytest.mark.parametrize("size", [(800, 600), (1024, 720)], ids=["800x600", "1024x720"])
@pytest.mark.parametrize("scale", [150, 200])
def test_every_scene_keeps_its_lines_whole_and_apart_with_big_text(make_app, size, scale):
    """With big text in a small window no line is cut short or drawn over another: each
    gives way (smaller, as far as the 100 % size; on two lines; its panel taller) rather
    than running out of its box.  At 200 % the level select's lines ran into each other,
    the review's and the explorer's were cut, the past games' chart title ran under its
    legend."""
    app = make_app(size)
    app.settings.ui_scale, app.theme.scale = scale, scale / 100
    app.settings.opponent = Opponent.DEMO  # the level select's longest headline: both computers
    found = every_scene(app, whole_and_apart)
    problems = {(lang, scene): out + cut for lang, scenes in found.items() for scene, (out, cut) in scenes.items()}
    assert not {key: found for key, found in problems.items() if found}


def test_the_language_row_switches_the_window_at_once_and_is_saved(app):
    options = OptionsScene()
    app.stack.reset(options)
    step(app)
    assert options.language.value == "system" and "Options" in [text for text, _rect in drawn_texts(app)]
    while options.language.value != "de":
        options.language.step(1)
    drawn = [text for text, _rect in drawn_texts(app)]
    assert "Optionen" in drawn and "Sprache" in drawn and "Zurück" in drawn
    assert json.loads(app.settings_path.read_text(encoding="utf-8"))["language"] == "de"
    app.stack.reset(TitleScene())
    step(app)
    assert "Gegen den Computer" in [text for text, _rect in drawn_texts(app)]


def open_tree_overlay(app) -> None:
    """The tree overlay over a game, on a depth-4 search."""
    board = Board.from_moves("44336")
    result = search(board.grid, board.rules, 4, record_tree=True, to_move=board.to_move)
    play = PlayScene(board.rules, Level(4), "computer")
    play.searches.append(SearchRecord(5, board.to_move, JobPurpose.MOVE, result))
    app.stack.reset(TitleScene())
    app.stack.push(play)
    step(app)
    press(app, pygame.K_t, frames=3)


def hidden_keys(app, buttons) -> list[str]:
    """Draw one frame: the buttons whose label is not drawn whole inside them, or whose
    key hint is not drawn whole inside them, clear of the label."""
    drawn = drawn_texts(app)
    found = []
    for button in buttons:
        inside = [(text, rect) for text, rect in drawn if button.rect.contains(rect)]
        labels = [rect for text, rect in inside if text == _(button.label)]
        hints = [rect for text, rect in inside if text == button.key_hint]
        if not labels:
            found.append(f"{button.label!r}: label not whole in {button.rect}")
        elif not hints or labels[0].colliderect(hints[0]):
            found.append(f"{button.label!r}: key {button.key_hint!r} hidden or under the label")
    return found


def test_the_tree_overlay_buttons_show_their_keys_in_german_at_800x600(make_app):
    """The German labels are long for eleven buttons in 800 pixels: where a key does not
    fit beside its label it goes under it, in the button's corner, never away."""
    app = make_app((800, 600))
    speak(app, "de")
    open_tree_overlay(app)
    tree = app.stack.top
    assert tree.name == "tree" and all(button.key_hint for button in tree.buttons)
    assert _(tree.buttons[-1].label) == "Schließen"
    assert not hidden_keys(app, tree.buttons)


@pytest.mark.parametrize("size", [(800, 600), (1024, 720)], ids=["800x600", "1024x720"])
@pytest.mark.parametrize("scale", [150, 200])
def test_the_tree_overlay_buttons_show_their_keys_with_big_text(make_app, size, scale):
    """With big text the eleven buttons take a second row where one is too narrow for
    them, and the bottom panel grows to hold it."""
    app = make_app(size)
    app.settings.ui_scale, app.theme.scale = scale, scale / 100
    open_tree_overlay(app)
    tree = app.stack.top
    for language in LANGUAGES:
        speak(app, language)
        assert not hidden_keys(app, tree.buttons), language
        assert all(tree.areas.bottom.contains(button.rect) for button in tree.buttons)


def test_the_practice_and_the_depth_chart_keep_their_lines_whole_at_200(make_app):
    """The tree's two other screens at 200 % in 800x600: the practice's question was cut
    and its lines ran into each other, the depth chart's title and notes were cut."""
    app = make_app((800, 600))
    app.settings.ui_scale, app.theme.scale = 200, 2.0
    open_tree_overlay(app)
    found = {}
    for key in (pygame.K_p, pygame.K_d):
        press(app, key, frames=2)
        scene = app.stack.top
        if scene.name == "practice":
            assert wait_until(app, lambda: scene.practice is not None, 60)  # the worker records its trees
        for language in LANGUAGES:
            speak(app, language)
            out, cut = whole_and_apart(app)
            found[scene.name, language] = out + cut
        press(app, pygame.K_ESCAPE, frames=2)
    assert set(name for name, _language in found) == {"practice", "depth chart"}
    assert not {key: problems for key, problems in found.items() if problems}
