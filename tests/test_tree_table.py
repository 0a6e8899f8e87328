"""The tree overlay on a search with the transposition table: every node answered from
the table is marked (which entry, its depth and bound), the statistics give the table's
probes, hits, stores and cutoffs and the nodes of a real run without it, the replay
says a table hit as it happens, and C compares the table switched."""

from __future__ import annotations

import pygame
import pytest

from ai.search import search
from game.app.tree.draw import table_compare_line, table_stats_line
from game.app.tree.layout import NODE
from game.board import Board
from tests.ui import drawn_texts, open_tree, open_tree_after, press, wait_until

pytestmark = pytest.mark.window  # drives the real window (deselect with -m 'not window')

MOVES, DEPTH = "4453", 6


def open_table_tree(app):
    board = Board.from_moves(MOVES)
    result = search(board.grid, board.rules, DEPTH, record_tree=True, to_move=board.to_move, table=True)
    return open_tree(app, board.rules, result, board.to_move, ply=len(board.moves)), result, board


def test_every_node_answered_from_the_table_is_marked_and_explained(app):
    scene, result, _ = open_table_tree(app)
    tree = scene.known_tree
    hits = [node for node in tree.iter_nodes() if node.table_hit is not None]
    assert len(hits) == result.stats.table.hits > 0
    cutoff = next(node for node in hits if node.table_hit.is_cutoff)
    scene.focus(cutoff.parent.index)  # its siblings drawn whole
    drawn = {item.index for item in scene.drawn if item.kind == NODE}
    marked = sum(1 for node in hits if node.index in drawn)
    assert cutoff.index in drawn and marked >= 1
    marks = [text for text, _ in drawn_texts(app, scene) if text == "T"]
    assert len(marks) == marked + (2 if scene.shows_legend() else 0)  # the legend shows both kinds
    lines = scene.detail_lines(cutoff)
    entry = tree.node(cutoff.table_hit.entry)
    path = " ".join(str(move + 1) for move in entry.path())
    assert any(f"after {path} (node {entry.index:,})" in line for line in lines), lines
    assert any(line.startswith(f"Entry: searched {cutoff.table_hit.depth} pl") for line in lines)
    assert any(line.startswith("Table cutoff: the stored") for line in lines)


def test_the_statistics_give_the_nodes_of_a_real_run_without_the_table(app):
    scene, result, board = open_table_tree(app)
    table = result.stats.table
    said = table_stats_line(scene, scene.known_tree)
    expected = f"{table.probes:,} probes, {table.hits:,} hits ({table.cutoffs:,} of them table cutoffs), {table.stores:,} stores"
    assert expected in said
    assert scene.comparison is not None  # started at once, as C would
    assert wait_until(app, lambda: scene.comparison is not None and not scene.comparison.running, 60)
    without = search(board.grid, board.rules, DEPTH, to_move=board.to_move).stats.nodes
    assert without > result.stats.nodes
    assert f"the same search without it: {without:,} nodes (searched now)" in table_stats_line(scene, scene.known_tree)
    line = table_compare_line(scene, scene.known_tree)
    assert line is not None and f"on {result.stats.nodes:,} nodes" in line and f"off {without:,} nodes" in line
    assert "same value" in line


def test_the_replay_shows_a_table_hit_as_it_happens(app):
    scene, _, _ = open_table_tree(app)
    tree = scene.known_tree
    hit = next(node for node in tree.iter_nodes() if node.table_hit is not None)
    press(app, pygame.K_PERIOD)  # the replay starts
    replay = scene.replay
    replay.seek(replay.enter_step(hit.index) - 1)
    assert replay.table_hit is None
    replay.seek(replay.enter_step(hit.index))
    assert replay.table_hit == hit.index
    assert replay.message.startswith(("Table hit!", "Table cutoff!")), replay.message
    assert scene.detail_lines(hit)[0].startswith("From the table: the entry stored")  # said at once
    replay.seek(replay.exit_step(hit.index))
    assert replay.table_hit is None


def test_compare_switches_the_table_of_a_search_without_it(app):
    scene = open_tree_after(app, MOVES, 5)
    shown = scene.record.result
    assert not scene.known_tree.table and scene.comparison is None  # nothing runs unasked
    assert table_stats_line(scene, scene.known_tree) is None
    press(app, pygame.K_c)
    assert wait_until(app, lambda: scene.comparison is not None and not scene.comparison.running, 60)
    with_table = scene.comparison.table_switched()
    assert with_table is not None and with_table.stats.table is not None
    assert (with_table.value, with_table.move) == (shown.value, shown.move)
    assert with_table.stats.nodes <= shown.stats.nodes
    assert f"off {shown.stats.nodes:,} nodes" in table_compare_line(scene, scene.known_tree)
