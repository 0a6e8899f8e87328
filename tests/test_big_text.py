"""Big text: at 150 % on 1280x800 every scene keeps its text whole and inside the window.

The UI scale is one mechanism: every font size passes through ``Theme.font``.  The test
draws each scene (the tree and the code walk included) and measures every text the theme
draws against the window, and every text a box had to shorten (``Theme.fit``'s ellipsis).
"""

from __future__ import annotations

import pygame
import pytest

from ai.levels import Level
from ai.search import search
from game.app.scenes.explorer import explorer_layout
from game.app.scenes.game_over import GameOverScene
from game.app.scenes.help import HowToPlayScene
from game.app.scenes.level_select import LevelSelectScene
from game.app.scenes.options import OptionsScene
from game.app.scenes.past_games import PastGamesScene
from game.app.scenes.pause import PauseScene
from game.app.scenes.play import PlayScene
from game.app.scenes.title import TitleScene
from game.app.tree.codewalk import Line
from game.app.tree.draw import chart_rect
from game.app.tree.placing import strip_height
from game.board import Board
from game.i18n import _
from game.rules import Rules
from tests.ui import drawn_texts, key_event, open_tree, open_tree_after, press, step, wait_until

pytestmark = pytest.mark.window


def measure(app, scrolls: bool = False) -> list[str]:
    """Draw one frame; every text cut short or drawn outside the window (for a page that
    ``scrolls``, outside its width)."""
    theme, problems = app.theme, []
    window = pygame.display.get_surface().get_rect()
    fit, text = theme.fit, theme.text

    def spy_fit(line, size, width, bold=False):
        shown = fit(line, size, width, bold)
        if shown != line:
            problems.append(f"cut: {line!r} -> {shown!r}")
        return shown

    def spy_text(surface, line, size, pos, **options):
        rect = text(surface, line, size, pos, **options)
        inside = rect.left >= 0 and rect.right <= window.right if scrolls else window.contains(rect)
        if surface is pygame.display.get_surface() and line.strip() and not inside:
            problems.append(f"outside the window: {line!r} at {rect}")
        return rect

    theme.fit, theme.text = spy_fit, spy_text
    try:
        app.draw()
    finally:
        del theme.fit, theme.text
    return problems


@pytest.fixture
def big(make_app):
    app = make_app((1280, 800))
    app.settings.ui_scale = 150
    app.theme.scale = 1.5
    return app


def two_players_won(app) -> PlayScene:
    play = PlayScene(Rules(), Level(2), "human")
    app.stack.push(play)
    step(app)
    for key in "1212121":
        app.step([key_event(pygame.K_0 + int(key))], 1 / 60)
        wait_until(app, lambda: play.drop is None, 5)
    return play


def test_menus_and_the_game_keep_their_text_whole_at_150(big):
    app = big
    assert app.theme.font(20).get_height() > 1.4 * type(app.theme)().font(20).get_height()
    seen = {}
    for scene in (TitleScene(), OptionsScene(), LevelSelectScene(), HowToPlayScene(), PastGamesScene()):
        app.stack.reset(scene)
        step(app, 2)
        seen[scene.name] = measure(app, scrolls=scene.name == "how to play")
        if scene.name == "how to play":  # a long page at a big scale: it scrolls to its end
            for _ in range(20):
                press(app, pygame.K_DOWN)
            drawn = {text: rect for text, rect in drawn_texts(app)}
            assert pygame.display.get_surface().get_rect().contains(drawn["save a screenshot"])
    app.stack.reset(TitleScene())
    step(app)
    play = two_players_won(app)
    seen["play"] = measure(app)
    assert wait_until(app, lambda: isinstance(app.stack.top, GameOverScene), 5)
    seen["game over"] = measure(app)
    app.stack.pop()
    step(app)
    app.stack.push(PauseScene(play))
    step(app, 2)
    seen["pause"] = measure(app)
    assert not any(seen.values()), {name: found for name, found in seen.items() if found}


def test_the_tree_and_the_code_walk_keep_their_text_whole_at_150(big):
    app = big
    board = Board.from_moves("44336")
    result = search(board.grid, board.rules, 4, record_tree=True, to_move=board.to_move)
    open_tree(app, board.rules, result, board.to_move)
    step(app)
    seen = {"tree": measure(app)}
    press(app, pygame.K_k, frames=2)
    walk = app.stack.top
    assert wait_until(app, lambda: walk.ready, 30)
    walk.seek(next(i for i, line in enumerate(walk.steps) if line.kind is Line.CUTOFF))  # the longest line
    step(app)
    seen["code walk"] = measure(app)
    assert not any(seen.values()), {name: found for name, found in seen.items() if found}


@pytest.mark.parametrize("size", [(800, 600), (1024, 720)], ids=["800x600", "1024x720"])
def test_the_tree_overlay_keeps_its_lines_whole_at_200(make_app, size):
    """At 200 % the overlay's lines shrink (not below the 100 % size) or wrap rather than
    being cut: the title and the detail heading, the cutoff banner (it lost its last words
    at two lines), the chart's title (it ran under the totals); the panels' lines stay
    apart and a sentence is shown whole or not at all."""
    app = make_app(size)
    app.settings.ui_scale, app.theme.scale = 200, 2.0
    board = Board.from_moves("44336")
    result = search(board.grid, board.rules, 4, record_tree=True, to_move=board.to_move)
    tree = open_tree(app, board.rules, result, board.to_move)
    tree.demo_select()  # a node with a cutoff: the banner shows its reason
    step(app)
    assert tree.banner() and not measure(app)
    drawn = drawn_texts(app, tree)  # the overlay's own words, not the game's under it
    areas = tree.areas
    node = tree.known_tree.node(tree.selected)
    said = f"Cutoff at {tree.move_label(node.move)}: {tree.banner()}"
    left = areas.canvas.left + 12  # the banner's lines, in the canvas's corner
    banner = [text for text, rect in drawn if rect.left == left and len(text) > 2 and text in said]
    assert " ".join(banner) == said
    for panel in (areas.header, areas.detail, areas.bottom):
        lines = [rect for _text, rect in drawn if panel.colliderect(rect)]
        assert all(panel.contains(rect) for rect in lines), panel
        assert not [(a, b) for i, a in enumerate(lines) for b in lines[i + 1 :] if a.colliderect(b)], panel


def overlay_at_200(make_app, size):
    """The tree overlay at 200 % over a depth-5 search, a node with a window and a cutoff
    (and so the longest explanation) selected."""
    app = make_app(size)
    app.settings.ui_scale, app.theme.scale = 200, 2.0
    tree = open_tree_after(app, "4433", 5)
    node = next(n for n in tree.known_tree.iter_nodes() if n.ply == 1 and n.pruned_count and n.cutoff_reason())
    tree.select(node.index, follow=False)
    step(app)
    return app, tree, node


def said(texts) -> str:
    """Drawn lines as one text, spaces as the wrapping leaves them."""
    return " ".join(" ".join(texts).split())


@pytest.mark.parametrize("size", [(1024, 720), (1280, 800)], ids=["1024x720", "1280x800"])
def test_the_tree_detail_panel_says_all_it_knows_at_200(make_app, size):
    """Issue 38 item 11: the detail panel was cut after "Window out"; every sentence is
    there now, in the panel or a scroll away (Page Down, with a cue while more is below)."""
    app, tree, node = overlay_at_200(make_app, size)
    detail = tree.areas.detail
    assert not measure(app)
    seen: dict[tuple[int, str], None] = {}  # each line once, by where it is in the scrolled text
    for _page in range(40):
        drawn = [(text, rect) for text, rect in drawn_texts(app, tree) if detail.colliderect(rect)]
        assert all(detail.contains(rect) for _text, rect in drawn)
        scrolled = [
            (text, rect) for text, rect in drawn if tree.detail_panel.layout.view.contains(rect)
        ]  # not the heading, the cue
        seen.update(dict.fromkeys((rect.top + tree.detail_panel.offset, text) for text, rect in scrolled))
        if not tree.detail_panel.more:
            break
        assert any(text == _("More below: Page Down") for text, _rect in drawn)  # the cue
        press(app, pygame.K_PAGEDOWN)
    else:
        raise AssertionError("Page Down never reached the panel's end")
    shown = said(text for _y, text in sorted(seen))
    for line in tree.detail_lines(node):
        assert said([line]) in shown, line
    for _page in range(40):
        press(app, pygame.K_PAGEUP)
    assert tree.detail_panel.offset == 0


@pytest.mark.parametrize("size", [(1024, 720), (1280, 800)], ids=["1024x720", "1280x800"])
def test_the_tree_labels_stay_apart_and_the_chart_keeps_its_labels_at_200(make_app, size):
    """Issue 38 item 11: at 200 % no two labels on the tree's canvas overlap (fewer are
    drawn where they would), and the nodes-per-ply chart names every ply and its count."""
    app, tree, _node = overlay_at_200(make_app, size)
    drawn = drawn_texts(app, tree)
    canvas = tree.areas.canvas
    legend = tree.legend.box if tree.legend is not None else pygame.Rect(0, 0, 0, 0)
    labels = [(text, rect) for text, rect in drawn if canvas.colliderect(rect) and not legend.colliderect(rect)]
    assert len(labels) > 10
    overlaps = [(a, b) for i, a in enumerate(labels) for b in labels[i + 1 :] if a[1].colliderect(b[1])]
    assert not overlaps
    chart = chart_rect(tree.areas.bottom, strip_height(app.theme, tree.button_rows))
    in_chart = {text for text, rect in drawn if chart.inflate(20, 0).contains(rect)}
    for ply, count in enumerate(tree.per_ply[1:], start=1):
        assert {str(ply), f"{count:,}"} <= in_chart or f"{ply}: {count:,}" in in_chart, (ply, count, in_chart)


@pytest.mark.parametrize("size", [(1024, 720), (1280, 800)], ids=["1024x720", "1280x800"])
def test_no_text_of_the_tree_overlay_or_the_board_stays_small_at_200(make_app, size):
    """Issue 38 item 11: at 200 % no text is drawn below twice the smallest size the
    window uses at 100 % (11): the overlay's, and the column badges of a hint's scores."""
    app, tree, _node = overlay_at_200(make_app, size)
    sizes: list[tuple[str, float]] = []
    original = app.theme.text

    def spy(surface, text, size, pos, **options):
        sizes.append((text, size))
        return original(surface, text, size, pos, **options)

    app.theme.text = spy
    try:
        tree.draw(pygame.display.get_surface())
    finally:
        del app.theme.text
    small = [(text, size) for text, size in sizes if size * app.theme.scale < 22]
    assert not small
    app.stack.pop()
    play = PlayScene(Rules(), Level(4), "computer")
    app.stack.push(play)
    step(app)
    play.jobs.request_hint()
    assert wait_until(app, lambda: play.jobs.hint is not None, 60)
    notes = {note.text for note in play.column_notes() if note is not None}
    assert notes
    sizes.clear()
    app.theme.text = spy
    try:
        drawn = drawn_texts(app)
    finally:
        del app.theme.text
    badges = [(text, size) for text, size in sizes if text in notes or any(text in note.split() for note in notes)]
    assert badges and all(size * app.theme.scale >= 22 for _text, size in badges), badges
    rects = [rect for text, rect in drawn if text in notes or any(text in note.split() for note in notes)]
    assert not [(a, b) for i, a in enumerate(rects) for b in rects[i + 1 :] if a.colliderect(b)]
    assert not [p for p in measure(app) if p.startswith("cut: ")]


def test_the_explorers_footnote_pages_at_200_and_nothing_of_it_is_lost(make_app):
    """Issue 52: at 200 % the opening explorer's footnote was cut, with no way to page."""
    from game.app.scenes.explorer import TABLE_KEY, ExplorerScene

    app = make_app((1024, 720))
    app.settings.ui_scale, app.theme.scale = 200, 2.0
    explorer = ExplorerScene([3, 3])
    app.stack.reset(explorer)
    assert wait_until(app, lambda: explorer.scores is not None, 60)
    pages = explorer.footnote(explorer_layout((1024, 720), app.theme))
    assert len(pages) > 1 and pages[0][-1] == f"PgDn/PgUp: more (1/{len(pages)})"
    seen = []
    for number in range(len(pages)):
        drawn = [text for text, _rect in drawn_texts(app)]
        page = pages[number][:-1]
        assert all(line in drawn for line in page)
        seen += page
        press(app, pygame.K_PAGEDOWN)
    assert " ".join(seen) == _(TABLE_KEY)
    press(app, pygame.K_PAGEUP)
    assert explorer.note_page == len(pages) - 2


@pytest.mark.parametrize("language", ["en", "de", "es"])
def test_the_analysis_boards_badges_keep_their_words_on_the_badge_at_200(make_app, language):
    """Issue 52: at 200 % the analysis board's score badges overflowed ("pierde" ran into
    the badge's round ends and to the next badge's edge)."""
    from game.app.board_view import inner_width
    from game.app.scenes.analysis import AnalysisScene
    from game.i18n import set_language

    app = make_app((800, 600))
    app.settings.ui_scale, app.theme.scale = 200, 2.0
    analysis = AnalysisScene(Board.from_moves("4453"))
    app.stack.reset(analysis)
    set_language(language)
    try:
        assert wait_until(app, lambda: analysis.scores is not None, 60)
        step(app)
        texts = drawn_texts(app)
        board = max(app.theme.controls, key=lambda rect: rect.width * rect.height)  # the board, framed
        badges = [rect for rect in app.theme.controls if rect.bottom <= board.top and 30 < rect.width < 80]
        assert len(badges) == 7
        for badge in badges:
            inside = [rect for _text, rect in texts if badge.contains(rect)]
            assert inside, badge
            for rect in inside:
                assert rect.width <= inner_width(badge), (badge, rect)
        for left, right in zip(badges, badges[1:]):
            assert left.right < right.left  # apart
    finally:
        set_language("en")
