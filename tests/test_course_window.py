"""The course in the real window: title -> Learn, every lesson opens, its exercise checks
answers (a wrong one explained, the right one accepted and kept in the archive), and each
lesson's "try it" opens its screen on the lesson's position; MCTS beside minimax."""

from __future__ import annotations

import pygame
import pytest

from game.app.scenes.analysis import AnalysisScene
from game.app.scenes.course import CourseScene
from game.app.scenes.title import TitleScene
from game.app.scenes.tree_builder import TreeBuilderScene
from game.app.tree.code_scene import CodeWalkScene
from game.app.tree.depth_scene import DepthChartScene
from game.app.tree.mcts_chart_scene import MctsChartScene
from game.app.tree.mcts_scene import MctsScene
from game.app.tree.practice_scene import PracticeScene
from game.app.tree.scene import TreeScene
from game.archive.course_progress import course_progress
from game.board import Board
from game.learn.course import LESSONS, Tool, option_keys
from tests.test_i18n_layout import LANGUAGES, english_again, speak, whole_and_apart  # noqa: F401 (a fixture)
from tests.ui import click, drawn_texts, press, step, wait_until

pytestmark = pytest.mark.window

TOOL_SCENES = {
    Tool.CODE_WALK: CodeWalkScene,
    Tool.PRACTICE: PracticeScene,
    Tool.TREE: TreeScene,
    Tool.DEPTH_CHART: DepthChartScene,
    Tool.ANALYSIS: AnalysisScene,
    Tool.MCTS_TREE: MctsScene,
    Tool.MCTS_CHART: MctsChartScene,
    Tool.TREE_BUILDER: TreeBuilderScene,
}


def open_course(app) -> CourseScene:
    app.stack.push(TitleScene())
    step(app, 2)
    title = app.stack.top
    click(app, next(button for button in title.buttons if button.label == "Learn").rect.center)
    step(app, 2)
    course = app.stack.top
    assert isinstance(course, CourseScene) and course.lesson is None
    return course


def answer_key(course: CourseScene, index: int) -> int:
    """The key shown on option ``index`` of the course's exercise, as pygame names it."""
    assert course.lesson is not None
    return pygame.key.key_code(option_keys(course.lesson.exercise)[index].lower())


def shown(app) -> str:
    return " ".join(text for text, _rect in drawn_texts(app))


def test_every_lesson_opens_its_pages_and_checks_its_exercise(app):
    course = open_course(app)
    assert f"0 of {len(LESSONS)} lessons solved" in shown(app)
    for item in LESSONS:
        press(app, pygame.K_1 + item.number - 1)
        assert course.lesson == item and course.page == 0
        assert f"Lesson {item.number} of {len(LESSONS)}" in shown(app)
        for _page in item.pages:
            press(app, pygame.K_RIGHT)
        assert course.on_exercise and "Exercise" in shown(app)
        wrong = next(i for i in range(len(item.exercise.options)) if i not in item.exercise.right)
        press(app, answer_key(course, wrong))
        assert course.verdict is not None and not course.verdict.right
        assert "Not yet" in shown(app)
        first_words = course.verdict.detail.split()[0]
        assert first_words in shown(app)  # the explanation of what is wrong is on the screen
        right = min(item.exercise.right)
        click(app, course.option_buttons(app.screen.get_size())[right].rect.center)
        assert course.verdict is not None and course.verdict.right and "Right" in shown(app)
        press(app, pygame.K_ESCAPE)
        assert course.lesson is None
    assert f"{len(LESSONS)} of {len(LESSONS)} lessons solved" in shown(app)
    progress = course_progress(app.archive)
    assert all(progress[item.key].solved and progress[item.key].attempts == 2 for item in LESSONS)


def test_the_key_shown_on_an_option_is_the_key_that_answers_it(app):
    """Issue 52: lesson 2's answers 0-4 were on keys 1-5, so pressing 2 answered "1"."""
    course = open_course(app)
    press(app, pygame.K_2)
    for _page in course.lesson.pages:
        press(app, pygame.K_RIGHT)
    buttons = course.option_buttons(app.screen.get_size())
    assert [(b.label, b.key_hint) for b in buttons] == [(str(n), str(n)) for n in range(5)]
    assert "0..4 answer" in shown(app)
    press(app, pygame.K_1)
    assert course.verdict is not None and not course.verdict.right and course.chosen == 1
    press(app, pygame.K_2)  # two leaves are cut: 2 is the answer, on key 2
    assert course.verdict.right and course.chosen == 2
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_1)  # lesson 1: 2, 3, 8, 12, 14 cannot all be keys: letters, shown on them
    for _page in course.lesson.pages:
        press(app, pygame.K_RIGHT)
    buttons = course.option_buttons(app.screen.get_size())
    assert [b.key_hint for b in buttons] == ["A", "B", "C", "D", "E"] and buttons[1].label == "3"
    assert "A..E answer" in shown(app)
    press(app, pygame.K_3)  # no option is on key 3
    assert course.verdict is None
    press(app, pygame.K_b)
    assert course.verdict is not None and course.verdict.right


def test_lesson_two_says_its_small_tree_is_not_the_boards(app):
    open_course(app)
    press(app, pygame.K_2)
    assert "An example tree, not this board's" in shown(app)


def test_the_practice_of_lesson_two_names_the_keys_of_its_values(app):
    """Issue 52: the practice showed "+F" and "-F" with no word on how to type them."""
    open_course(app)
    press(app, pygame.K_2)
    press(app, pygame.K_o)
    assert wait_until(app, lambda: isinstance(app.stack.top, PracticeScene) and app.stack.top.practice, 120)
    said = shown(app)
    assert "+F" in said and "+F or -F (the F key)" in said and "(the W key)" in said


def test_the_hint_is_shown_on_the_exercise_page(app):
    course = open_course(app)
    press(app, pygame.K_4)
    press(app, pygame.K_h)
    assert course.on_exercise and course.show_hint
    assert "Hint: Open the depth chart" in shown(app)


@pytest.mark.parametrize("item", LESSONS, ids=lambda item: item.key)
def test_try_it_opens_the_lessons_screen_on_its_position(app, item):
    course = open_course(app)
    press(app, pygame.K_1 + item.number - 1)
    press(app, pygame.K_o)
    wanted = TOOL_SCENES[item.tool]
    assert wait_until(app, lambda: isinstance(app.stack.top, wanted), 120), type(app.stack.top)
    top = app.stack.top
    moves = Board.from_moves(item.moves).moves
    if isinstance(top, AnalysisScene):
        assert top.board.moves == moves
    elif isinstance(top, MctsScene | MctsChartScene):
        assert top.board.moves == moves
    press(app, pygame.K_ESCAPE)
    step(app, 2)
    assert app.stack.top is course or isinstance(app.stack.top, CourseScene)


def test_mcts_beside_minimax_shows_both_choices_the_referee_and_replays(app):
    app.stack.push(MctsScene(Board.from_moves("44"), 5000, depth=6))
    step(app, 2)
    scene = app.stack.top
    assert wait_until(app, lambda: scene.found is not None and scene.minimax is not None, 180)
    text = shown(app)
    assert "MCTS (5,000 playouts): column 3" in text and "Minimax (depth 6): column 4" in text
    assert "They disagree." in text and "Referee: column 4 (Minimax) keeps the exact result." in text
    selected = scene.selected
    press(app, pygame.K_DOWN)
    assert scene.selected != selected and scene.found.tree.node(scene.selected).parent.index == selected
    press(app, pygame.K_PERIOD)
    press(app, pygame.K_PERIOD)
    assert scene.replay is not None and scene.replay.step == 1
    assert "Playout 1 of 5,000: expansion" in shown(app)
    press(app, pygame.K_END)
    assert scene.replay.visits_at()[0] == 5000


@pytest.mark.parametrize("size, scale", [((800, 600), 100), ((1024, 720), 100), ((1280, 800), 150)], ids=str)
def test_every_lesson_keeps_its_words_inside_and_apart_in_every_language(make_app, size, scale):
    app = make_app(size)
    app.settings.ui_scale, app.theme.scale = scale, scale / 100
    course = open_course(app)
    problems = {}
    for item in LESSONS:
        press(app, pygame.K_1 + item.number - 1)
        for page in range(len(item.pages) + 1):
            course.page = page
            if page == len(item.pages):
                course.answer(next(i for i in range(len(item.exercise.options)) if i not in item.exercise.right))
                course.show_hint = True
            for language in LANGUAGES:
                speak(app, language)
                outside, cut = whole_and_apart(app)
                if outside or cut:
                    problems[(language, item.number, page)] = outside + cut
        press(app, pygame.K_ESCAPE)
    for language in LANGUAGES:
        speak(app, language)
        outside, cut = whole_and_apart(app)
        if outside or cut:
            problems[(language, "list")] = outside + cut
    assert not problems, problems
