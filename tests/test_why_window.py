"""Why it wins, in the game: the hint and the column scores say why in one line, the review
gives each mistake its refutation and marks the threats, a wrong puzzle try and a retried
mistake are refuted in the same words, the analysis board draws the explanation, spoken
output reads the reason.  Each drives the real App headless with its real worker; the
explanations they must show are worked out here apart, with the explainer in this process.
"""

from __future__ import annotations

import sys
import time

import pygame
import pytest

from ai.explain.board import grid_threats
from ai.explain.explainer import explain, explain_move
from ai.explain.words import brief, sentence, spoken
from ai.levels import PRESETS
from game.app.board_view import BoardLayout
from game.app.explain_view import NUMBER_TAG, PAIR_TAG, ROW_TAG, cell_of, tag_radius
from game.app.navigation import BackToTitle
from game.app.scenes import explain_text, play_view
from game.app.scenes.analysis import AnalysisScene
from game.app.scenes.play import PlayScene
from game.app.scenes.puzzles import PuzzlesScene
from game.app.scenes.retry import RetryScene
from game.app.scenes.review import ReviewScene
from game.app.scenes.title import TitleScene
from game.app.speech import Speech, Voice
from game.board import Board
from game.i18n import set_language
from game.learn.puzzle_words import sides
from game.learn.training import Drill
from game.rules import MAX, MIN, STANDARD, Rules
from tests.test_explain_rules import TEXTBOOK
from tests.ui import drawn_texts, press, step, wait_until

pytestmark = pytest.mark.window

ZUGZWANG = "45221332233535552737766752"
"""Player 1 to move wins by zugzwang after column 1 (Expert against Medium, seed 0)."""
WHY_GAME = "644464725446355655626521722213333311"
"""Easy against Medium: player 2's 24th disc (column 1) throws the win away to a strategy."""
YOU = {MAX: "you", MIN: "the computer"}


@pytest.fixture(autouse=True)
def english_again():
    yield
    set_language("en")


def playing(app, moves: str, level: str = "Hard") -> PlayScene:
    """Against the computer, player 1 (you) to move after ``moves``."""
    play = PlayScene(Rules(), PRESETS[level], "computer", "human")
    app.stack.push(play)
    step(app, 2)
    for move in Board.from_moves(moves).moves:
        play.match.play(move)
    step(app)
    return play


def test_a_hint_shows_its_verdict_first_then_why_in_one_line(app):
    play = playing(app, ZUGZWANG)
    board = play.match.board
    press(app, pygame.K_h)
    seen = []
    deadline = time.perf_counter() + 60
    while play.jobs.hint is None:  # frame by frame: what the status bar says as the answers come
        assert time.perf_counter() < deadline, "no hint"
        app.step([], 1 / 60)
        seen.append((play.headline(), play_view.why_line(play)))
        time.sleep(0.001)
    hinted = play.jobs.hint
    assert seen[-1][0].startswith(f"Hint: column {hinted + 1}: you win in ")
    assert seen[-1][1] == "Why: working it out..."  # the verdict first: the reason is asked after it
    assert play.jobs.why_id is not None and play.jobs.why_id == app.worker.current
    assert wait_until(app, lambda: play.jobs.shown_why() is not None, 30)
    expected = explain_move(board.grid, board.to_move, hinted)
    assert play.jobs.shown_why() == expected
    assert play_view.why_line(play) == "Why: " + brief(expected, YOU)
    assert play.headline() == seen[-1][0]  # the verdict stays; the reason joins it
    assert expected.reason.proved and "Zugzwang: you answer every disc in the same column" in brief(expected, YOU)
    texts = [text for text, _rect in drawn_texts(app)]
    assert any(text.startswith("Why: After column") for text in texts)  # drawn, in one line here
    assert sum(text.startswith("Why:") for text in texts) == 1


def test_the_column_scores_say_why_the_position_is_what_it_is(app):
    play = playing(app, ZUGZWANG)
    board = play.match.board
    press(app, pygame.K_s)
    assert wait_until(app, lambda: play.jobs.shown_why() is not None, 60)
    assert play.jobs.hint is None and play.jobs.exact_scores() is not None
    expected = explain(board.grid, board.to_move)
    assert play.jobs.shown_why() == expected
    assert play_view.why_line(play) == "Why: " + brief(expected, YOU)
    press(app, pygame.K_s)  # the scores off: their reason goes with them
    assert play_view.why_line(play) == ""


@pytest.mark.parametrize("leave", ["undo", "restart", "menu"])
def test_undo_restart_and_the_menu_cancel_the_explanation(app, leave):
    """Asked after the hint, the explanation is stopped as the other jobs are: by Undo,
    Restart, and the way back to the title (the pause menu's "Main menu"; under the pause
    menu itself the work goes on, as a search does)."""

    play = playing(app, ZUGZWANG[:-1])  # player 2 to move: the computer answers first
    assert wait_until(app, lambda: play.match.to_move == MAX and not play.thinking and play.drop is None, 60)
    press(app, pygame.K_h)
    assert wait_until(app, lambda: play.jobs.hint is not None, 60)
    asked = play.jobs.why_id
    assert asked is not None and app.worker.current == asked  # under way
    if leave == "undo":
        press(app, pygame.K_u)
    elif leave == "restart":
        press(app, pygame.K_r)
    else:
        # What the pause menu's Main menu asks, carried out between frames as the loop does
        # (a step would first take in an answer that came meanwhile: the explainer is quick).
        app.reset(BackToTitle())
        app.stack.apply_pending()
        assert isinstance(app.stack.top, TitleScene)
    assert app.worker.current != asked and app.worker.cancelled_upto() >= asked  # stopped at once
    assert play.jobs.why_id is None and play.jobs.shown_why() is None
    step(app, 30)
    assert play.jobs.why is None  # a late answer is never taken


def test_spoken_output_reads_the_reason_after_the_verdict(app):
    app.speech = Speech(True, voice=Voice("stdin", (sys.executable, "-c", "import sys; sys.stdin.read()")))
    play = playing(app, ZUGZWANG)
    board = play.match.board
    press(app, pygame.K_h)
    assert wait_until(app, lambda: play.jobs.shown_why() is not None, 60)
    step(app, 2)
    said = list(app.speech.said)[-1]
    expected = explain_move(board.grid, board.to_move, play.jobs.hint)
    assert said.startswith(f"Hint: column {play.jobs.hint + 1}: ")
    assert said.endswith(spoken(expected, YOU)) and spoken(expected, YOU) == "You win by zugzwang."
    app.speech.close()


def test_the_review_says_why_each_mistake_lost_and_marks_the_threats(app):
    board = Board.from_moves(WHY_GAME)
    review = ReviewScene(STANDARD, list(board.moves), names={MAX: "you", MIN: "Medium"}, depths={MIN: 4})
    app.stack.push(review)
    assert wait_until(app, lambda: review.review is not None, 120)
    assert review.review is not None
    lost = [m for m in review.review.moves if not m.move_class.keeps_outcome]
    assert lost and all(m.why is not None for m in lost)
    review.set_ply(24)  # player 2's blunder
    step(app)
    m = review.review.moves[23]
    assert m.why is not None and m.why.reason.then is not None and m.why.reason.then.proved
    names = {MAX: "you", MIN: "player 2"}
    said = "Why: " + brief(m.why, names)
    lay = review.layout(pygame.display.get_surface().get_size())
    rows = [text for text, _color in review.detail_rows(lay.detail_text, lay.detail.width)]
    assert rows[0] == "Move 24: player 2 (Medium) played column 1: blunder."
    assert " ".join(rows[1:3]) == said or rows[1] == said  # on two rows where one is too short
    texts = [text for text, _rect in drawn_texts(app)]
    assert any(text.startswith("Why: Column 1 turns the win into a loss.") for text in texts)
    assert review.status_line() == f"{rows[0]} {spoken(m.why, names)}"  # what spoken output reads
    # The threats standing after the blunder, each marked: a round tag (odd row) or a square one
    surface = pygame.display.get_surface()
    palette = app.theme.palette
    shown = review.board_at(24)
    threats = grid_threats(shown.grid)
    assert any(t.square.is_odd for t in threats) and any(not t.square.is_odd for t in threats)
    layout = board_layout(review, surface)
    for threat in threats:
        center = tag_center(layout, threat.square, ROW_TAG)
        assert inked_left(surface, center, layout, palette.text), threat  # a tag under the hole
        corner = square_corner(center, layout)
        assert (surface.get_at(corner)[:3] == palette.text) == (not threat.square.is_odd), threat
    review.set_ply(23)  # not a mistake: no marks, no reason
    step(app)
    app.draw()
    for threat in grid_threats(review.board_at(23).grid):
        assert not inked_left(surface, tag_center(layout, threat.square, ROW_TAG), layout, palette.text)
    assert not any(text.startswith("Why:") for text, _rect in drawn_texts(app))


def board_layout(review: ReviewScene, surface: pygame.Surface):
    return BoardLayout(STANDARD, review.layout(surface.get_size()).board)


def tag_center(layout, square, below: float) -> tuple[int, int]:
    """Where a tag sits in ``square``'s hole: ``below`` disc radii under its centre (the
    threat's row, a pair's letter, a line's number: ``explain_view``'s places)."""
    x, y = layout.center(*cell_of(square, 6))
    return round(x), round(y + layout.radius * below)


def inked_left(surface: pygame.Surface, center: tuple[int, int], layout, ink) -> bool:
    """A tag's dark edge at its left, where a tag of this size is drawn."""
    x, y = center
    r = tag_radius(layout)
    return any(surface.get_at((x - r + d, y))[:3] == ink for d in (-1, 0, 1, 2))


def square_corner(center: tuple[int, int], layout) -> tuple[int, int]:
    """The top-left corner of a square tag: its dark edge runs there; a round tag (its circle
    inside that square) leaves it clear."""
    r = tag_radius(layout)
    return center[0] - (r - 1), center[1] - (r - 1)


@pytest.mark.parametrize("palette", ["classic", "monochrome"])
def test_the_analysis_board_draws_the_explanation_and_says_it(app, palette):
    app.theme.set(palette)
    name = "odd threat"  # a zugzwang: pairs, an odd threat the other side must play under
    board = Board.from_moves(TEXTBOOK[name])
    analysis = AnalysisScene(board)
    app.stack.push(analysis)
    step(app, 2)
    surface = pygame.display.get_surface()
    area = analysis.board_area(surface.get_size())[0]
    press(app, pygame.K_w)
    assert analysis.explaining and analysis.board_area(surface.get_size())[0] != area  # a panel beside it
    assert wait_until(app, lambda: analysis.explanation is not None, 60)
    expected = explain(board.grid, board.to_move)
    assert analysis.explanation == expected
    app.draw()
    texts = " ".join(text for text, _rect in drawn_texts(app))
    assert " ".join(sentence(expected, explain_text.player_names()).split()) in " ".join(texts.split())
    assert "Letters: the pairs of the strategy" in texts and "round tag for an odd row" in " ".join(texts.split())
    layout = BoardLayout(STANDARD, analysis.board_area(surface.get_size())[0])
    ink = app.theme.palette.text
    strategy = expected.reason.strategy
    assert strategy is not None and strategy.pairs
    for a, b in strategy.pairs:  # both squares of a pair carry a tag (its letter) at the top of the hole
        for square in (a, b):
            assert inked_left(surface, tag_center(layout, square, PAIR_TAG), layout, ink), square
    threat = next(t for t in expected.threats if t.square.name == "c5")
    assert threat.square.is_odd  # an odd threat: a round tag, so its square's corner stays clear
    center = tag_center(layout, threat.square, ROW_TAG)
    assert inked_left(surface, center, layout, ink)
    assert surface.get_at(square_corner(center, layout))[:3] != ink
    press(app, pygame.K_w)  # off: the board as it was
    assert not analysis.explaining and analysis.board_area(surface.get_size())[0] == area


def test_the_analysis_board_numbers_a_forced_line(app):
    moves = "2252576253462244111563365343671351441"
    board = Board.from_moves(moves)
    analysis = AnalysisScene(board)
    app.stack.push(analysis)
    step(app, 2)
    press(app, pygame.K_w)
    assert wait_until(app, lambda: analysis.explanation is not None, 60)
    expected = explain(board.grid, board.to_move)
    assert expected.reason.line == (5, 6, 6, 6)
    app.draw()
    surface = pygame.display.get_surface()
    layout = BoardLayout(STANDARD, analysis.board_area(surface.get_size())[0])
    texts = [text for text, _rect in drawn_texts(app)]
    for number, cell in enumerate([(0, 5), (3, 6), (2, 6), (1, 6)], start=1):
        x, y = layout.center(*cell)
        center = (round(x), round(y + layout.radius * NUMBER_TAG))
        assert inked_left(surface, center, layout, app.theme.palette.text), cell  # its number's tag
        assert str(number) in texts
    assert any(text.startswith("Numbered faint discs: the forced line") for text in texts)


def test_explain_says_where_it_cannot(app):
    analysis = AnalysisScene(Board(Rules(rows=5, cols=5)))
    app.stack.push(analysis)
    step(app, 2)
    press(app, pygame.K_w)
    assert not analysis.explaining and app.toast is not None
    assert app.toast[0].startswith("Explanations are for the standard board only")
    over = AnalysisScene(Board.from_moves("4455667"))
    app.stack.push(over)
    step(app, 2)
    press(app, pygame.K_w)
    step(app, 2)
    assert over.explaining and over.why_note == "The game is over here: nothing to explain"
    assert any(text == over.why_note for text, _rect in drawn_texts(app))


def test_a_wrong_puzzle_try_and_a_retried_mistake_are_refuted_in_the_same_words(app):
    puzzles = PuzzlesScene(seed=3)
    app.stack.push(puzzles)
    step(app, 2)
    assert puzzles.puzzle is not None
    before = puzzles.board.copy()
    right = puzzles.right_column()
    wrong = next(c for c in before.legal_moves() if c != right)
    press(app, pygame.K_1 + wrong)
    assert wait_until(app, lambda: puzzles.why is not None, 60)
    expected = explain_move(before.grid, before.to_move, wrong)
    assert puzzles.why == expected
    said = puzzles.why_sentence()
    assert said == "Why: " + sentence(expected, sides(before.to_move))
    assert said.startswith(f"Why: Column {wrong + 1} turns the ")
    assert puzzles.status_line().startswith(puzzles.said)
    assert spoken(expected, sides(before.to_move)) in puzzles.status_line()
    drawn = " ".join(text for text, _rect in drawn_texts(app))
    assert " ".join(said.split()[:6]) in drawn  # in the panel, wrapped
    # The same try in the retry of a mistake: the same words.
    retry = RetryScene([Drill(STANDARD, tuple(before.moves), wrong, "a test")])
    app.stack.push(retry)
    step(app, 2)
    assert wait_until(app, lambda: retry.columns is not None, 60)
    press(app, pygame.K_1 + wrong)
    assert wait_until(app, lambda: retry.why is not None and retry.job.id is None, 60)
    assert retry.why == puzzles.why  # the same reason, worded by the same sentences ...
    names = explain_text.player_names({before.to_move: "you"})  # ... naming the sides as its judgement does
    assert retry.why_sentence() == "Why: " + sentence(expected, names)
    assert retry.why_sentence().replace("player 1", "the opponent").replace("player 2", "the opponent") == said
    assert retry.why_sentence() in retry.panel_lines()
    assert retry.status_line().endswith(spoken(expected, names))


WHY_WORDS = ("Why:", "Warum:", "Por qué:")
"""How the reason's line starts in English, German and Spanish."""


@pytest.mark.parametrize("size, scale", [((800, 600), 100), ((1024, 720), 200)], ids=["800x600", "1024x720-200"])
def test_the_reasons_stay_whole_and_apart_in_every_language(make_app, size, scale):
    """Each screen that says why, in English, German and Spanish, small and with big text:
    no text outside the window or over another, and no reason cut short (it shrinks, wraps
    or says itself in one line first)."""
    from tests.test_i18n_layout import LANGUAGES, speak, whole_and_apart

    app = make_app(size)
    app.settings.ui_scale, app.theme.scale = scale, scale / 100
    screens = []
    play = playing(app, ZUGZWANG)
    press(app, pygame.K_h)
    assert wait_until(app, lambda: play.jobs.shown_why() is not None, 60)
    screens.append("play")
    found: dict[tuple[str, str], list[str]] = {}

    def look(name: str) -> None:
        for language in LANGUAGES:
            speak(app, language)
            apart, cut = whole_and_apart(app)
            reasons_cut = [line for line in cut if any(word in line for word in WHY_WORDS)]
            found[(language, name)] = apart + reasons_cut

    look("play")
    speak(app, "en")
    review = ReviewScene(STANDARD, list(Board.from_moves(WHY_GAME).moves), names={MAX: "you"}, depths={MIN: 4})
    app.stack.reset(review)
    assert wait_until(app, lambda: review.review is not None, 120)
    review.set_ply(24)
    step(app)
    look("review")
    speak(app, "en")
    analysis = AnalysisScene(Board.from_moves(ZUGZWANG))
    app.stack.reset(analysis)
    step(app, 2)
    press(app, pygame.K_w)
    assert wait_until(app, lambda: analysis.explanation is not None, 60)
    look("analysis")
    speak(app, "en")
    before = Board.from_moves("64446472544635565562652")
    retry = RetryScene([Drill(STANDARD, tuple(before.moves), 0, "a game")])
    app.stack.reset(retry)
    assert wait_until(app, lambda: retry.columns is not None, 60)
    press(app, pygame.K_1)
    assert wait_until(app, lambda: retry.why is not None and retry.job.id is None, 60)
    look("retry")
    assert len(found) == 4 * len(LANGUAGES)
    assert not {key: problems for key, problems in found.items() if problems}


def test_the_retry_panel_keeps_its_last_line_at_200_percent_in_german(make_app):
    """At 200 % in German the judgement of a try ran past the panel and its last lines (the
    badges' key, R and N) were left out; now the lines shrink (to their 100 % size at
    most) and the reason says itself in one line before any is left out."""
    app = make_app((1024, 720))
    app.settings.ui_scale, app.theme.scale = 200, 2.0
    set_language("de")
    before = Board.from_moves("64446472544635565562652")
    retry = RetryScene([Drill(STANDARD, tuple(before.moves), 0, "a game")])
    app.stack.push(retry)
    step(app, 2)
    assert wait_until(app, lambda: retry.columns is not None, 60)
    press(app, pygame.K_1)
    assert wait_until(app, lambda: retry.reply is not None and retry.job.id is None, 60)
    drawn = " ".join(text for text, _rect in drawn_texts(app))
    last = retry.panel_lines()[-1]
    assert last.startswith("R: ") and " ".join(last.split()[:3]) in drawn


def test_a_panel_drawn_again_wraps_its_paragraphs_from_memory(app, monkeypatch):
    """The Explain panel tries sizes until the reason fits, each frame it is drawn: the
    second frame measures no word again (``Theme.wrap`` remembers), and says the same."""
    analysis = AnalysisScene(Board.from_moves(ZUGZWANG))
    app.stack.push(analysis)
    step(app, 2)
    press(app, pygame.K_w)
    assert wait_until(app, lambda: analysis.explanation is not None, 60)
    app.draw()
    first = drawn_texts(app)
    theme = app.theme
    measured = []
    monkeypatch.setattr(theme, "_wrap", lambda *args: measured.append(args) or [])
    assert drawn_texts(app) == first and not measured
    monkeypatch.undo()
    lines = theme.wrap("Why: the same words wrapped in a narrow box", 20, 120)
    lines.append("changed by its caller")
    assert theme.wrap("Why: the same words wrapped in a narrow box", 20, 120) == lines[:-1]
    theme.scale = 2.0  # another UI scale: its own lines, never the other scale's
    assert len(theme.wrap("Why: the same words wrapped in a narrow box", 20, 120)) > len(lines) - 1
    theme.scale = 1.0


def test_at_200_percent_the_reason_is_never_bigger_than_the_verdict(make_app):
    """At 200 % the hint's headline shrinks to fit beside the level; the reason under it was
    drawn at the full 200 % size, the biggest text on the screen: now it is no bigger."""
    app = make_app((1024, 720))
    app.settings.ui_scale, app.theme.scale = 200, 2.0
    play = playing(app, ZUGZWANG)
    press(app, pygame.K_h)
    assert wait_until(app, lambda: play.jobs.shown_why() is not None, 60)
    texts = drawn_texts(app)
    headline = next(rect for text, rect in texts if text.startswith("Hint: column"))
    why = next(rect for text, rect in texts if text.startswith("Why:"))
    assert why.height <= headline.height
    assert why.top >= headline.bottom  # under it, never over it


def test_a_long_reason_takes_two_lines_at_full_size_where_the_bar_has_room(make_app):
    """In German at 1024x720 the hint's reason is longer than the window is wide: it was
    squeezed to three quarters of its size on one line, under an empty half of the status
    bar; now it takes that room, two lines at the size of the line above it."""
    app = make_app((1024, 720))
    set_language("de")
    play = playing(app, ZUGZWANG)
    press(app, pygame.K_h)
    assert wait_until(app, lambda: play.jobs.shown_why() is not None, 60)
    texts = drawn_texts(app)
    detail = next(rect for text, rect in texts if text.startswith("Suche für den Tipp"))
    first = next(index for index, (text, _rect) in enumerate(texts) if text.startswith("Warum:"))
    lines = texts[first : first + 2]
    said = play_view.why_line(play)
    assert " ".join(text for text, _rect in lines) == said  # whole, on two lines
    assert all(rect.height == detail.height and rect.top >= detail.bottom for _text, rect in lines)
    assert lines[0][1].bottom <= lines[1][1].top
