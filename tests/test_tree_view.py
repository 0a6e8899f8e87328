"""The tree overlay: what it draws matches the search; navigation, replay, compare."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pygame
import pytest

from ai.exact import winner_discs_left
from ai.levels import Level
from ai.search import MoveOrder, search
from ai.solver import Solver
from ai.tree import BoundKind, is_forced_value, minimal_tree
from ai.values import fmt_value
from game.app.scenes.play import PlayScene
from game.app.search_records import SearchRecord
from game.app.tree.draw import NODE_SIZE, chart_pitch, chart_rect
from game.app.tree.layout import NODE, PRUNED, SUMMARY, View, layout
from game.app.tree.legend import LEGEND
from game.app.tree.replay import Replay
from game.app.tree.scene import TreeScene, areas_for
from game.app.tree.text import order_line
from game.app.worker_protocol import JobPurpose
from game.board import Board
from game.rules import MIN, Rules
from tests.test_search import HAND_GRID, HAND_RULES
from tests.ui import FRAME, click, drawn_texts, open_tree, open_tree_after, press, settle, step, wait_until

pytestmark = pytest.mark.window  # drives the real window (deselect with -m 'not window')


@pytest.fixture
def hand(app):
    grid = np.array(HAND_GRID, dtype=np.int8)
    result = search(grid, HAND_RULES, 3, pruning=True, record_tree=True, to_move=MIN, iterative=False)
    return open_tree(app, HAND_RULES, result), result


def test_known_tree_is_drawn_with_its_values_pruned_children_and_line(app, hand):
    scene, result = hand
    tree = result.tree
    nodes = [item for item in scene.drawn if item.kind == NODE]
    stubs = [item for item in scene.drawn if item.kind == PRUNED]
    assert sorted(item.index for item in nodes) == list(range(len(tree)))  # every node is on screen
    assert not [item for item in scene.drawn if item.kind == SUMMARY]
    by_index = {item.index: item for item in nodes}
    root = tree.root
    assert by_index[0].level == 0
    assert [tree.node(i).move for i in sorted(by_index) if by_index[i].level == 1] == [1, 0, 2]
    assert [tree.node(i).value for i in sorted(by_index) if by_index[i].level == 1] == [-3000, -2000, -2000]
    # Every bound is drawn with its sign; the exact value without one.
    assert [scene.node_text(i) for i in sorted(by_index) if by_index[i].level == 1] == ["-3000", ">=-2000", ">=-2000"]
    # The two cutoffs: one stub each, for the moves the search left out.
    assert sorted((tree.node(s.index).move, scene.pruned_moves(s.index)[s.slot]) for s in stubs) == [(0, 2), (2, 0)]
    # The expected line, from the root down.
    pv_moves = [tree.node(i).move for i in sorted(scene.line()) if i != 0]
    assert pv_moves == list(result.principal_variation)
    assert root.value == result.value
    # Children are left to right in search order, under their parent.
    level1 = sorted((by_index[i].x, i) for i in by_index if by_index[i].level == 1)
    assert [i for _, i in level1] == [c.index for c in root.children()]


def test_detail_panel_explains_the_selected_node(app, hand):
    scene, result = hand
    middle = result.tree.root.children()[1]
    scene.select(middle.index)
    lines = scene.detail_lines(middle)
    assert "Value: >=-2000" in lines  # a cutoff: only a lower bound, and it says so
    assert any(line.startswith("This value is a lower bound") for line in lines)
    assert any(line.startswith("Cutoff: value -2000 >= beta -3000: 1 move not searched") for line in lines)
    assert any("1 searched, 1 pruned (3)" in line for line in lines)
    leaf = middle.children()[0].children()[0]
    leaf_lines = scene.detail_lines(leaf)
    assert any("board is full" in line for line in leaf_lines)


def test_keys_move_the_selection_and_the_view(app, hand):
    scene, result = hand
    tree = result.tree
    press(app, pygame.K_DOWN)  # to the best child: the first one on the line
    first = tree.root.children()[0]
    assert scene.selected == first.index
    press(app, pygame.K_RIGHT)
    assert scene.selected == tree.root.children()[1].index
    press(app, pygame.K_LEFT)
    press(app, pygame.K_RETURN)  # focus
    assert scene.view.root == first.index
    assert all(item.index >= first.index for item in scene.drawn if item.kind == NODE)
    press(app, pygame.K_BACKSPACE)
    assert scene.view.root == 0
    press(app, pygame.K_UP)
    assert scene.selected == 0
    zoom = scene.view.zoom
    press(app, pygame.K_EQUALS)
    assert scene.view.zoom > zoom
    press(app, pygame.K_f)
    assert scene.view == View(root=0)


def test_mouse_selects_focuses_zooms_and_pans(app, hand):
    scene, result = hand
    target = next(item for item in scene.drawn if item.kind == NODE and item.level == 1)
    click(app, (int(target.x), int(target.y)))
    assert scene.selected == target.index
    click(app, (int(target.x), int(target.y)))  # the second click in time: focus
    assert scene.view.root == target.index
    crumb_rect, crumb_index = scene.crumbs[0]
    click(app, crumb_rect.center)
    assert scene.view.root == crumb_index == 0
    before = scene.view.zoom
    app.step([pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, flipped=False, precise_x=0.0, precise_y=2.0)], FRAME)
    assert scene.view.zoom > before
    canvas = scene.areas.canvas
    start = (canvas.left + 40, canvas.bottom - 40)
    pan = (scene.view.pan_x, scene.view.pan_y)
    app.step(
        [
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1),
            pygame.event.Event(pygame.MOUSEMOTION, pos=(start[0] + 60, start[1] + 30), rel=(60, 30), buttons=(1, 0, 0)),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(start[0] + 60, start[1] + 30), button=1),
        ],
        FRAME,
    )
    assert (scene.view.pan_x - pan[0], scene.view.pan_y - pan[1]) == (60, 30)


def test_replay_steps_through_the_visit_order(app, hand):
    scene, result = hand
    tree = result.tree
    press(app, pygame.K_PERIOD)  # enter the root
    assert scene.replay.current == 0 and scene.replay.window(0) == (tree.root.alpha_in, tree.root.beta_in)
    press(app, pygame.K_PERIOD)
    assert scene.replay.current == 1
    press(app, pygame.K_COMMA)
    assert scene.replay.current == 0
    press(app, pygame.K_END)
    assert scene.replay.done and scene.replay.steps == 2 * len(tree)
    press(app, pygame.K_HOME)
    assert scene.replay.steps == 0
    press(app, pygame.K_SPACE)
    assert scene.playing
    step(app, 120)
    assert scene.replay.steps > 0
    press(app, pygame.K_x)
    assert scene.replay is None


def test_replay_reports_each_cutoff_as_it_happens():
    grid = np.array(HAND_GRID, dtype=np.int8)
    result = search(grid, HAND_RULES, 3, pruning=True, record_tree=True, to_move=MIN, iterative=False)
    replay = Replay(result.tree)
    cutoffs = []
    while replay.forward():
        if replay.cutoff is not None:
            cutoffs.append(replay.cutoff)
            assert replay.message.startswith("Cutoff! value -2000 >= beta -3000")
    pruned = [n.index for n in result.tree.iter_nodes() if n.pruned_count]
    assert cutoffs == pruned
    while replay.back():
        pass
    assert replay.steps == 0 and not replay.stack


def reference_replay(tree) -> list[tuple[int, tuple[tuple[int, int, int, int | None], ...]]]:
    """The replay done the slow, obvious way: (next node, open frames) after each step."""
    states = [(0, ())]
    stack: list[list] = []  # [index, alpha, beta, best]
    next_index = 0

    def walk(index: int) -> None:
        nonlocal next_index
        node = tree.node(index)
        stack.append([index, node.alpha_in, node.beta_in, None])
        next_index = index + 1
        states.append((next_index, tuple(tuple(frame) for frame in stack)))
        for child in tree.child_indices(index):
            walk(child)
        stack.pop()
        if stack:
            parent = stack[-1]
            value = node.value
            if tree.node(parent[0]).is_max:
                parent[1] = max(parent[1], value)
                parent[3] = value if parent[3] is None else max(parent[3], value)
            else:
                parent[2] = min(parent[2], value)
                parent[3] = value if parent[3] is None else min(parent[3], value)
        states.append((next_index, tuple(tuple(frame) for frame in stack)))

    walk(0)
    return states


def test_replay_state_at_every_step_matches_a_step_by_step_walk(rng):
    result = search(np.zeros((6, 7), dtype=np.int8), Rules(), 4, record_tree=True)
    tree = result.tree
    expected = reference_replay(tree)
    replay = Replay(tree)
    assert replay.total_steps == len(expected) - 1 == 2 * len(tree)

    def state() -> tuple:
        return replay.next_index, tuple((f.index, f.alpha, f.beta, f.best) for f in replay.stack)

    for number, want in enumerate(expected):  # forward, one step at a time
        assert replay.steps == number and state() == want, number
        replay.forward()
    for number in rng.sample(range(len(expected)), 300):  # and jumps anywhere
        replay.seek(number)
        assert state() == expected[number], number
    # Before a node is left its window reaches the recorded one; its best is its value.
    for node in tree.iter_nodes():
        if not node.is_leaf:
            replay.seek(replay.exit_step(node.index) - 1)
            frame = replay.frame(node.index)
            assert frame is not None and (frame.alpha, frame.beta, frame.best) == (
                node.alpha_out,
                node.beta_out,
                node.value,
            )


def test_replay_shows_and_reports_only_what_is_known_at_each_step(app, hand):
    """Nothing after the step is drawn or said: unsearched children, cutoffs and their
    stubs, final values, the expected line, the final value in the side panel."""
    scene, result = hand
    tree = result.tree
    p = app.theme.palette
    cutoff_nodes = [n.index for n in tree.iter_nodes() if n.pruned_count]
    assert len(cutoff_nodes) == 2
    press(app, pygame.K_HOME)
    replay = scene.replay
    pixel_checks = set()
    for number in range(replay.total_steps + 1):
        if number:
            press(app, pygame.K_PERIOD)  # one step, then the frame is drawn
        assert replay.steps == number
        surface = pygame.display.get_surface()
        for node in tree.iter_nodes():
            entered = replay.enter_step(node.index) <= number
            left = replay.exit_step(node.index) <= number
            text = scene.node_text(node.index)
            assert (text is not None) == entered, (number, node)
            if left:
                assert text == node.value_text
            elif entered:
                assert text.startswith("[")  # the live window, never the final value
                lines = scene.detail_lines(node)
                assert not any(line.startswith(("Value:", "Cutoff", "Subtree", "Children")) for line in lines)
                assert any(line.startswith("Window now:") for line in lines)
            else:
                assert scene.detail_lines(node) == ["Not searched yet at this step of the replay."]
        for index in cutoff_nodes:
            happened = replay.exit_step(index) - 1 <= number  # the return that closed the window
            assert scene.shows_cutoff(index) == happened, (number, index)
            stubs = [item for item in scene.drawn if item.kind == PRUNED and item.index == index]
            for stub in stubs:  # and on screen: the grey stub is painted only from then on
                painted = tuple(surface.get_at((round(stub.x), round(stub.y))))[:3] == tuple(p.pruned)[:3]
                assert painted == happened, (number, index)
                pixel_checks.add(happened)
            if scene.selected == index:
                assert (scene.banner() is not None) == happened
        assert scene.shows_line() == (number == replay.total_steps)
        assert ("Done" in replay.message) == (number == replay.total_steps)
    assert replay.done and scene.node_text(0) == tree.root.value_text
    assert pixel_checks == {False, True}  # stubs were looked at both before and after their cutoff


def test_replay_end_and_jumps_on_a_big_tree_keep_no_history(app):
    result = search(np.zeros((6, 7), dtype=np.int8), Rules(), 6, pruning=False, record_tree=True, to_move=MIN)
    scene = open_tree(app, Rules(), result)
    press(app, pygame.K_END)
    replay = scene.replay
    assert replay.done and replay.steps == replay.total_steps == 2 * len(result.tree)
    assert scene.node_text(0) == result.tree.root.value_text and scene.shows_line()
    replay.seek(replay.total_steps // 2)
    step(app)
    assert len(replay.stack) <= result.tree.depth + 1  # the state is the open path, nothing more
    press(app, pygame.K_HOME)
    assert replay.steps == 0 and not replay.stack and scene.node_text(0) is None


def test_detail_panel_sets_the_heuristic_value_beside_perfect_play(app):
    # Late in a game the exact solver answers quickly: the panel shows both values.
    board = Board.from_moves("51642713771171647635")
    result = search(board.grid, board.rules, 4, record_tree=True, to_move=board.to_move)
    scene = open_tree(app, board.rules, result, side=board.to_move)
    child = result.tree.root.children()[1]
    scene.select(child.index)
    step(app, 2)  # the worker is asked on the frame after the selection settles
    assert wait_until(app, lambda: not scene.horizon.is_due(result.tree, child.index), 60)
    child_board = child.board()
    score = Solver(board.rules, use_book=False).solve_grid(child_board.grid, child_board.to_move).score
    assert score != 0
    winner = child_board.to_move if score > 0 else -child_board.to_move
    name = "MAX (player 1)" if winner == 1 else "MIN (player 2)"
    line = next(line for line in scene.detail_lines(child) if "perfect play" in line)
    own = int((child_board.grid == child_board.to_move).sum())
    plies = 2 * winner_discs_left(score, own, own if child_board.to_move == 1 else own + 1, 42) - (
        1 if score > 0 else 0
    )
    exact = f"{'+' if winner == 1 else '-'}W{child.ply + plies}"  # in plies from the root, as the tree counts
    assert line == f"Depth 3 says {child.value_text}; perfect play: {exact}, {name} wins in {plies} plies from here"
    # One disc from the start the opening book knows it (issue 32: it used to say "not known").
    empty = search(np.zeros((6, 7), dtype=np.int8), Rules(), 3, record_tree=True)
    scene = open_tree(app, Rules(), empty, side=1)
    first = empty.tree.root.children()[0]
    scene.select(first.index)
    step(app, 2)
    assert wait_until(app, lambda: not scene.horizon.is_due(empty.tree, first.index), 60)
    said = [line for line in scene.detail_lines(first) if "perfect play" in line.lower()]
    assert said and all("not known" not in line for line in said), said


def test_detail_panel_on_a_board_past_64_bits_never_crashes(app):
    """Frame fuzz (issue 17 rerun): on a 7x9 board, selecting a node made the horizon build
    a solver whose bitboards overflow int64, and the window died with an OverflowError.
    The worker's solver takes such boards (in Python): two discs in, it says it does not
    know, and why."""
    board = Board.from_moves("55", Rules(rows=7, cols=9))
    result = search(board.grid, board.rules, 2, record_tree=True, to_move=board.to_move)
    scene = open_tree(app, board.rules, result, side=board.to_move)
    child = result.tree.root.children()[0]
    scene.select(child.index)
    step(app, 3)  # asked on the frame after the selection settles
    assert wait_until(app, lambda: not scene.horizon.is_due(result.tree, child.index), 120)
    said = [line for line in scene.detail_lines(child) if "perfect play" in line.lower()]
    assert said and all(line.startswith("Perfect play: not known (not proven within") for line in said), said


def test_the_replays_end_and_start_bring_the_view_back_to_its_root(app):
    """Issue 17 rerun (screenshot): at the replay's end ("Done: the value here is ...")
    the selection stayed on the last node entered, deep in the tree, with the view panned
    after it and the rest of the tree cut off; the search is back at the root by then."""
    board = Board.from_moves("4453")
    result = search(board.grid, board.rules, 5, record_tree=True, to_move=board.to_move)
    scene = open_tree(app, board.rules, result, side=board.to_move)
    deep = result.tree.root.children()[0].children()[0].children()[0]
    scene.select(deep.index)  # the view follows a deep node, as during a replay
    press(app, pygame.K_SPACE)
    press(app, pygame.K_END)
    assert scene.replay is not None and scene.replay.done
    assert scene.selected == scene.replay.start == scene.view.root
    assert scene.view == View(root=scene.view.root)  # fitted: the whole tree in view
    press(app, pygame.K_PERIOD)
    press(app, pygame.K_HOME)  # the start too: nothing entered yet, the root selected
    assert scene.selected == scene.replay.start and scene.view == View(root=scene.view.root)


def test_legend_explains_the_marks_and_l_toggles_it(app, hand):
    scene, _ = hand
    press(app, pygame.K_l)
    shown = scene.legend
    assert shown is not None or scene.legend_open is False
    if shown is None:  # it was shown by default at this size: L hid it; L again shows it
        press(app, pygame.K_l)
        shown = scene.legend
    assert shown is not None
    text = " ".join(line for entry in shown.entries for line in entry.lines)
    for words in ("MAX", "MIN", "heuristic", "forced win", "only a bound", "cutoff", "window", "expected line"):
        assert words in text
    assert "order the search tried them" in text and "All passes" in text
    canvas = scene.areas.canvas
    assert canvas.contains(shown.box)
    # The tree makes room for it: no node is placed under the legend.
    assert all(item.y < shown.box.top for item in scene.drawn if item.kind == NODE)
    press(app, pygame.K_l)
    assert scene.legend is None


def test_expected_line_is_drawn_to_its_leaf_and_every_bound_with_its_sign(app):
    board = Board.from_moves("4453")
    result = search(board.grid, board.rules, 7, record_tree=True, to_move=board.to_move)
    tree = result.tree
    scene = open_tree(app, board.rules, result, side=board.to_move)
    line = tree.principal_variation()
    assert len(line) == 7 and line[-1].is_leaf
    drawn_nodes = {item.index for item in scene.drawn if item.kind == NODE}
    assert any(item.kind == SUMMARY for item in scene.drawn)  # the rest of the deep levels is summarised
    assert {node.index for node in line} <= drawn_nodes  # but the line goes on down to its leaf
    assert scene.shows_line()
    bounds = 0
    for index in drawn_nodes:
        node = tree.node(index)
        text = scene.node_text(index)
        if node.bound is BoundKind.EXACT:
            assert text == fmt_value(node.value)
        else:
            bounds += 1
            assert text == ("<=" if node.bound is BoundKind.UPPER else ">=") + fmt_value(node.value)
    assert bounds >= 6


def test_the_overlay_draws_nothing_while_nothing_changes(app, hand):
    scene, _ = hand
    step(app, 3)  # the perfect-play try of the selected node, then still
    step(app)
    assert not app.drew
    press(app, pygame.K_PERIOD)  # a replay step is drawn
    assert app.drew
    press(app, pygame.K_SPACE)  # playing: a frame each time
    step(app)
    assert app.drew and scene.playing


def test_compare_runs_the_search_again_with_pruning_switched(app, hand):
    scene, result = hand
    press(app, pygame.K_c)
    assert scene.compare_job is not None
    assert wait_until(app, lambda: scene.compare_result is not None, 30)
    assert scene.compare_result.pruning is False
    assert scene.compare_result.value == result.value
    assert scene.compare_result.stats.nodes > result.stats.nodes
    press(app, pygame.K_c)  # again: a new run, then cancelled
    if scene.compare_job is not None:  # (a tiny search can answer within its own frame)
        press(app, pygame.K_c)
    assert scene.compare_job is None


def test_compare_times_both_searches_after_a_warm_up_never_the_first_search(app):
    """Issue 38 item 14: the shown search's own time (maybe the session's first search,
    with its one-time start-up cost) is never set beside a warm one: both settings are
    warmed up, then both timed; the shown setting's timed run is the same search."""
    from game.app.tree.draw import compare_line

    scene = open_tree_after(app, "4433", 5)
    shown = scene.record.result
    press(app, pygame.K_c)
    assert wait_until(app, lambda: scene.compare_result is not None, 60)
    runs = scene.comparison.runs
    assert [(run.warm_up, run.pruning, run.table) for run in runs] == [
        (True, True, False),
        (True, False, False),
        (True, True, True),
        (False, True, False),
        (False, False, False),
        (False, True, True),
    ]
    again = scene.comparison.timed(True)
    assert (again.stats.nodes, again.value, again.move) == (shown.stats.nodes, shown.value, shown.move)
    assert scene.compare_result is scene.comparison.timed(False) and scene.compare_result.pruning is False
    said = compare_line(scene, scene.known_tree)
    assert "after a warm-up" in said
    assert f"with alpha-beta {again.stats.nodes:,} nodes, {again.stats.seconds:.3f} s" in said


def test_move_orders_rerun_the_search_beside_the_minimal_tree(app):
    result = search(np.zeros((6, 7), dtype=np.int8), Rules(), 6, record_tree=True)
    scene = open_tree(app, Rules(), result, side=1)
    press(app, pygame.K_o)
    orders = scene.orders
    assert orders is not None and orders.running
    assert wait_until(app, lambda: not orders.running, 60)
    runs = {run.order: run for run in orders.runs}
    assert list(runs) == [MoveOrder.LEFT_TO_RIGHT, MoveOrder.CENTRE_FIRST, MoveOrder.BEST_FIRST]
    assert {run.value for run in runs.values()} == {result.value}  # the order changes the work, not the value
    minimal, _ = minimal_tree(6, 7)
    assert all(run.nodes >= minimal for run in runs.values())
    # From the empty board at depth 6 the counts differ by about an order of magnitude.
    assert runs[MoveOrder.LEFT_TO_RIGHT].nodes > 5 * runs[MoveOrder.BEST_FIRST].nodes
    text = order_line(minimal, 0, 7, scene.orders)
    assert f"minimal {minimal:,}" in text and "left to right" in text and "searching" not in text
    # the three runs were the worker's jobs, all answered (the horizon may ask next, the worker being free)
    assert app.worker.current in (None, scene.horizon.job.id)


def test_move_orders_stop_when_cancelled_or_the_overlay_closes(app):
    result = search(np.zeros((6, 7), dtype=np.int8), Rules(), 9, record_tree=True)  # left to right: slow
    scene = open_tree(app, Rules(), result, side=1)
    press(app, pygame.K_o)
    first = scene.orders
    assert first is not None and first.running
    press(app, pygame.K_o)  # again: stop (the idle worker may then take the horizon's question)
    assert not first.running and app.worker.current in (None, scene.horizon.job.id)
    press(app, pygame.K_o)
    second = scene.orders
    assert second is not first and second.running
    press(app, pygame.K_ESCAPE, frames=2)
    assert app.stack.top is not scene
    assert not second.running and app.worker.current is None  # its job was cancelled


def test_earlier_searches_of_the_match_stay_reachable(app):
    play = PlayScene(Rules(), Level(3), "computer")
    app.stack.push(play)
    step(app)
    for col in (3, 2):
        press(app, pygame.K_1 + col)
        settle(app, play)
        assert wait_until(app, lambda: play.match.to_move == 1 and play.drop is None and not play.thinking, 30)
    assert wait_until(app, lambda: all(r.result.tree is not None for r in play.searches), 30)
    assert len(play.searches) == 2
    click(app, play.buttons["tree"].rect.center)
    step(app)
    scene = app.stack.top
    assert isinstance(scene, TreeScene) and scene.record_index == 1
    assert app.stack.visible() == [play, scene]  # the game stays visible beneath
    press(app, pygame.K_LEFTBRACKET)
    assert scene.record_index == 0 and scene.tree is play.searches[0].result.tree
    press(app, pygame.K_t, frames=2)
    assert app.stack.top is play
    moves = list(play.match.moves)
    press(app, pygame.K_1)  # play goes on where it was
    assert play.match.moves == moves + [0]


def test_tree_key_before_any_search_says_so(app):
    play = PlayScene(Rules(), Level(3), "human")
    app.stack.push(play)
    step(app)
    press(app, pygame.K_t)
    assert app.stack.top is play and "No search yet" in app.toast[0]


def test_a_big_tree_opens_and_steps_frames(app):
    result = search(np.zeros((6, 7), dtype=np.int8), Rules(), 6, pruning=False, record_tree=True, to_move=MIN)
    assert len(result.tree) >= 100_000
    scene = open_tree(app, Rules(), result)
    assert any(item.kind == SUMMARY for item in scene.drawn)  # deep levels are summarised
    for _ in range(20):
        scene.zoom(1.3, (300, 300))
        step(app)
    assert any(item.kind == NODE and item.level >= 3 for item in scene.drawn)  # zooming reveals them
    scene.speed_index = 7
    press(app, pygame.K_SPACE)
    step(app, 30)
    assert scene.replay.steps > 1000
    assert len(scene.drawn) < 5000


def test_past_the_budget_the_overlay_says_what_was_not_stored(app):
    # A budget that runs out right after an inner node was stored: none of its children are.
    probe = search(np.zeros((6, 7), dtype=np.int8), Rules(), 5, pruning=False, record_tree=True, to_move=MIN)
    inner = next(n.index for n in probe.tree.iter_nodes() if n.index > 250 and not n.is_leaf)
    result = search(
        np.zeros((6, 7), dtype=np.int8), Rules(), 5, pruning=False, record_tree=True, tree_budget=inner + 1, to_move=MIN
    )
    scene = open_tree(app, Rules(), result)
    tree = result.tree
    assert not tree.is_complete
    root_lines = scene.detail_lines(tree.root)
    assert any("counted, not stored" in line for line in root_lines)
    unstored = [n for n in tree.iter_nodes() if n.unstored and not n.children()]
    assert unstored
    scene.focus(unstored[0].parent.index)
    step(app)
    summaries = [item for item in scene.drawn if item.kind == SUMMARY]
    assert any(item.count == unstored[0].unstored for item in summaries)


def test_layout_culls_what_is_off_screen():
    result = search(np.zeros((6, 7), dtype=np.int8), Rules(), 6, pruning=False, record_tree=True, to_move=MIN)
    wide = layout(result.tree, View(zoom=50.0, pan_x=-20000.0), (0, 0, 800, 500))
    assert wide and all(-30 <= item.x <= 830 for item in wide if item.kind == NODE and item.level >= 2)
    assert len(wide) < 400


def test_values_are_shown_readably():
    assert fmt_value(10**9) == "+inf" and fmt_value(-(10**9)) == "-inf"
    assert fmt_value(999_997) == "+W3" and fmt_value(-999_999) == "-W1"


def test_perfect_answers_have_no_tree_and_the_tree_controls_say_so(app):
    from ai.levels import PRESETS
    from game.app.scenes.game_over import GameOverScene

    play = PlayScene(Rules(), PRESETS["Perfect"], "computer", "computer")
    app.stack.push(play)
    assert wait_until(app, lambda: len(play.match.moves) == 1 and play.records.untreed_ply == 0, 60)
    assert not play.searches  # the book answered: no search, no tree
    step(app, 2)
    assert not play.buttons["tree"].enabled
    press(app, pygame.K_t, frames=2)
    assert app.stack.top is play and "opening book" in app.toast[0]
    over = GameOverScene(play)
    app.stack.push(over)
    step(app)
    assert not [b for b in over.buttons if "tree" in b.label]  # no "Open the last tree" to nowhere
    press(app, pygame.K_t, frames=2)
    assert "opening book" in app.toast[0]


def test_tree_opens_on_the_latest_search_with_a_tree_and_skips_the_others(app, hand):
    scene, result = hand
    play = scene.play
    book = SearchRecord(1, MIN, JobPurpose.MOVE, replace(result, tree=None), has_tree=False)
    play.searches.append(book)
    scene.close()
    step(app)
    assert play.last_tree_index() == 0
    press(app, pygame.K_t, frames=2)
    reopened = app.stack.top
    assert isinstance(reopened, TreeScene) and reopened.record_index == 0 and reopened.tree is result.tree
    assert "showing the search before it" in app.toast[0]
    press(app, pygame.K_RIGHTBRACKET)
    assert reopened.record_index == 0  # the book answer is skipped: nothing to show there


@pytest.mark.parametrize("size", [(1280, 800), (1024, 720), (800, 600)])
def test_nodes_per_ply_chart_has_a_row_for_every_ply_of_a_deep_search(size):
    chart = chart_rect(areas_for(size).bottom)
    for depth in range(1, 13):
        pitch = chart_pitch(chart.height - 20, depth)
        assert pitch >= 3  # a visible bar each
        assert 20 + depth * pitch <= chart.height  # the deepest ply (the biggest bar) inside the chart


def test_compare_and_orders_rerun_a_noisy_level_with_its_own_noise(app):
    from ai.levels import PRESETS
    from game.app.tree.text import compare_verdict

    play = PlayScene(Rules(), PRESETS["Easy"], "computer")
    app.stack.push(play)
    step(app)
    for col in (3, 2):  # the QA's game: 4, the computer, then 3
        press(app, pygame.K_1 + col)
        settle(app, play)
        assert wait_until(app, lambda: play.match.to_move == 1 and play.drop is None and not play.thinking, 30)
    assert wait_until(app, lambda: all(r.result.tree is not None for r in play.searches), 30)
    press(app, pygame.K_t, frames=2)
    scene = app.stack.top
    assert isinstance(scene, TreeScene) and scene.record_level().noise == PRESETS["Easy"].noise
    shown = scene.record.result
    press(app, pygame.K_o)
    assert wait_until(app, lambda: not scene.orders.running, 60)
    best_first = next(run for run in scene.orders.runs if run.order is MoveOrder.BEST_FIRST)
    # The same order and the same seeded noise: the very search shown, node for node.
    assert (best_first.nodes, best_first.value, best_first.move) == (shown.stats.nodes, shown.value, shown.move)
    press(app, pygame.K_c)
    assert wait_until(app, lambda: scene.compare_result is not None, 60)
    assert scene.compare_result.pruning is False and scene.compare_result.stats.nodes > shown.stats.nodes
    verdict = compare_verdict(shown.value, scene.compare_result.value)
    if scene.compare_result.value == shown.value:
        assert verdict == "same value"
    else:  # never a bare "no": both values, and why they can differ
        assert verdict.startswith(f"value differs: {fmt_value(shown.value)} vs {fmt_value(scene.compare_result.value)}")
        assert "noise" in verdict


def test_forced_values_are_named_and_the_minimal_tree_claim_holds(app):
    """The QA's position: a hint where forced wins end lines early and leaves score -F."""
    play = PlayScene(Rules(), Level(8), "human")
    app.stack.push(play)
    step(app)
    for digit in "4455366372":
        press(app, pygame.K_0 + int(digit))
        settle(app, play)
    press(app, pygame.K_h)
    assert wait_until(app, lambda: play.searches and play.searches[-1].result.tree is not None, 60)
    press(app, pygame.K_t, frames=2)
    scene = app.stack.top
    assert isinstance(scene, TreeScene)
    tree = scene.known_tree
    forced = [node for node in tree.iter_nodes() if is_forced_value(node.value)]
    assert forced  # the heuristic's forced leaves are in this tree
    for node in forced[:20]:
        assert scene.node_text(node.index).endswith(("+F", "-F")) and "100000" not in scene.node_text(node.index)
        assert any(line.startswith("F: a side wins by force") for line in scene.detail_lines(node))
    stats = scene.record.result.stats
    minimal, leaves = minimal_tree(tree.depth, scene.root_moves)
    text = order_line(minimal, leaves, scene.root_moves, scene.orders, searched=stats.nodes)
    assert "no move order does better" not in text
    if stats.nodes < minimal:
        assert "needed fewer" in text
    assert any(icon == "+F" for icon, _ in LEGEND)


@pytest.mark.parametrize("size", [(800, 600), (1280, 800)])
def test_overlay_fits_its_words_and_keeps_the_tree_clear_of_the_legend(tmp_path, size, make_app):
    from game.app.tree.draw import detail_heading, header_title

    app = make_app(size, home=tmp_path / "home")
    try:
        board = Board(Rules())
        for move in (3, 3, 2):
            board.push(move)
        result = search(board.grid, Rules(), 8, record_tree=True, to_move=board.to_move)
        scene = open_tree(app, Rules(), result, side=board.to_move)
        theme = app.theme
        title = header_title(scene, result.tree, scene.areas.header.width - 20)
        assert "..." not in title and title.endswith(" s")  # whole, not cut
        assert theme.font(22, True).size(title)[0] <= scene.areas.header.width - 20
        for node in (result.tree.root, result.tree.root.children()[0]):
            heading = detail_heading(scene, node, scene.areas.detail.width - 24)
            assert "..." not in heading and heading.endswith("to move")
        for _ in range(2):  # the legend by default or not, then toggled: never over the tree
            press(app, pygame.K_l, frames=2)
            for button in scene.buttons:
                assert theme.font(16).size(button.label)[0] <= button.rect.width - 8, button.label
            if scene.legend is not None:
                nodes = [item for item in scene.drawn if item.kind == NODE]
                assert scene.legend_page or all(item.y < scene.legend.box.top for item in nodes)
                assert not scene.legend_page or not nodes  # the legend in place of the tree
                levels = {item.level for item in nodes}
                assert scene.legend_page or levels == set(range(result.tree.depth + 1))  # every row in view
    finally:
        app.close()


def test_the_overlay_says_when_the_levels_solver_played_another_move(app):
    """Hard at 26 empty cells: the search shown chose column 3, the solver played 2."""
    from dataclasses import replace as replace_fields

    from ai.levels import PRESETS
    from ai.player import choose_move
    from game.app.tree.draw import bottom_lines

    board = Board.from_moves("3164444332677421")
    choice = choose_move(PRESETS["Hard"], board.grid, board.rules, board.to_move, record_tree=True)
    assert choice.result is not None and choice.note is not None
    play = PlayScene(board.rules, PRESETS["Hard"], "computer")
    play.searches.append(
        SearchRecord(16, board.to_move, JobPurpose.MOVE, choice.result, note=choice.note, played=choice.move)
    )
    app.stack.push(play)
    step(app)
    press(app, pygame.K_t, frames=2)
    scene = app.stack.top
    assert isinstance(scene, TreeScene)
    first, _ = bottom_lines(scene, choice.result.tree, app.theme)[0]
    assert first == f"Played {choice.move + 1}: {choice.note}."
    scene.play.searches[-1] = replace_fields(scene.play.searches[-1], note=None)
    assert not bottom_lines(scene, choice.result.tree, app.theme)[0][0].startswith("Played")


def test_play_again_after_t_in_the_frame_the_game_over_panel_opens(app):
    """Issue 17: T and the game-over panel in one frame, then Play again, crashed the overlay."""
    board = Board.from_moves("121212")
    result = search(board.grid, board.rules, 2, record_tree=True, to_move=board.to_move)
    play = PlayScene(board.rules, Level(2), "human")
    app.stack.push(play)
    step(app)
    for column in "121212":
        press(app, getattr(pygame, f"K_{column}"))
        settle(app, play)
    play.searches.append(SearchRecord(6, MIN, JobPurpose.HINT, result))
    press(app, pygame.K_1)  # the winning disc
    assert wait_until(app, lambda: play.end_timer is not None, 10)
    play.end_timer = FRAME / 2  # the panel opens in the next frame ...
    press(app, pygame.K_t)  # ... the frame in which T is pressed
    top = app.stack.top
    assert type(top).__name__ == "GameOverScene"
    press(app, pygame.K_RETURN, frames=3)  # Play again: the game and its searches are gone
    assert app.stack.top is play
    assert play.match.moves == [] and play.searches == []
    press(app, pygame.K_t, frames=2)  # and the tree key says there is no search yet
    assert app.stack.top is play


def test_e_exports_the_tree_on_screen_and_says_where(app, hand):
    scene, result = hand
    press(app, pygame.K_e)
    written = sorted((app.home / "trees").iterdir())
    assert [path.suffix for path in written] == [".dot", ".json"]
    assert app.toast is not None and f"trees/{written[1].name}" in app.toast[0] and "preference folder" in app.toast[0]
    data = json.loads(written[1].read_text())
    assert len(data["nodes"]) == result.stats.nodes + 1
    assert app.stack.top is scene


@pytest.mark.parametrize("depth", [8, 12])
def test_the_deepest_row_stays_on_the_canvas_at_800x600(tmp_path, depth, make_app):
    small = make_app((800, 600), home=tmp_path / "home")
    try:
        board = Board.from_moves("4453")
        result = search(board.grid, board.rules, depth, record_tree=True, to_move=board.to_move)
        scene = open_tree(small, board.rules, result, side=board.to_move)
        press(small, pygame.K_f)
        canvas = scene.areas.canvas
        nodes = [item for item in scene.drawn if item.kind == NODE]
        deepest = max(item.level for item in nodes)
        assert deepest == result.tree.depth  # the line runs down to its leaf ...
        assert all(canvas.top < item.y and item.y + NODE_SIZE + 14 <= canvas.bottom for item in nodes)  # ... in view
    finally:
        small.close()


def test_toasts_stay_clear_of_the_bottom_panel(app, hand):
    scene, _ = hand
    app.show_toast("A long message about the tree that was just exported somewhere on this machine", 5)
    shown = [rect for text, rect in drawn_texts(app) if text.startswith("A long message")]
    assert shown and not any(rect.colliderect(scene.areas.bottom) for rect in shown)


def test_the_legend_says_how_nodes_are_counted(app, hand):
    """The header and the status line said 28 nodes, the root's detail "Subtree: 29 nodes",
    and nothing said why: the search counts the positions below the root, a subtree counts
    its own top node too."""
    scene, result = hand
    if scene.legend is None:
        press(app, pygame.K_l)
    assert scene.legend is not None
    text = " ".join(line for entry in scene.legend.entries for line in entry.lines)
    searched = result.stats.nodes
    assert f"{searched:,} positions below the root" in text
    assert f"{searched + 1:,}" in text and "its own top node" in text
    lines = scene.detail_lines(result.tree.root)
    assert f"Subtree: {searched + 1:,} nodes (the root and the {searched:,} the search counts)" in lines, lines


@pytest.mark.parametrize("size", [(800, 600), (1280, 800)])
def test_the_export_toast_is_short_and_clear_of_the_legend(tmp_path, size, make_app):
    """E's toast printed the whole preference path over the legend's last line."""
    app = make_app(size, home=tmp_path / "home")
    grid = np.array(HAND_GRID, dtype=np.int8)
    result = search(grid, HAND_RULES, 3, pruning=True, record_tree=True, to_move=MIN, iterative=False)
    scene = open_tree(app, HAND_RULES, result)
    if scene.legend is None:
        press(app, pygame.K_l, frames=2)
    press(app, pygame.K_e)
    assert app.toast is not None
    toast = app.toast[0]
    assert str(app.home) not in toast and "trees/tree-" in toast and "preference folder" in toast
    shown = [rect for text, rect in drawn_texts(app) if text.startswith(toast[:12])]
    assert len(shown) == 1, [text for text, _ in drawn_texts(app)]
    drawn = next(text for text, _ in drawn_texts(app) if text.startswith(toast[:12]))
    assert drawn == toast  # whole, not cut with "..."
    if scene.legend is not None:
        assert not shown[0].colliderect(scene.legend.box)
