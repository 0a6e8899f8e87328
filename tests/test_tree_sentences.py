"""The tree overlay's sentences are pure functions, tested without pygame."""

from __future__ import annotations

import subprocess
import sys

from ai.exact import ExactScore
from ai.search import search
from ai.tree import fmt_tree_value, forced_meaning, is_forced_value
from game.app.tree.replay import Replay
from game.app.tree.text import detail_lines, exact_verdict, node_text
from game.board import Board
from game.i18n import set_language


def test_the_sentence_modules_import_no_pygame():
    code = (
        "import sys, game.app.tree.text, game.app.tree.codewalk, game.app.tree.practice, ai.tree_export, "
        "ai.depth_truth; print('pygame' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_node_text_follows_the_replay():
    board = Board.from_moves("4453")
    tree = search(board.grid, board.rules, 3, record_tree=True, to_move=board.to_move).tree
    assert tree is not None
    child = tree.root.children()[0]
    assert node_text(tree, child.index, None) == child.value_text
    replay = Replay(tree)
    assert node_text(tree, child.index, replay) is None  # not reached yet
    replay.seek(replay.enter_step(child.index))
    assert (
        node_text(tree, child.index, replay) == f"[{fmt_tree_value(child.alpha_in)}, {fmt_tree_value(child.beta_in)}]"
    )
    replay.seek(replay.exit_step(child.index))
    assert node_text(tree, child.index, replay) == child.value_text


def test_detail_lines_spell_each_value_one_way():
    board = Board.from_moves("4453")
    tree = search(board.grid, board.rules, 5, record_tree=True, to_move=board.to_move).tree
    assert tree is not None
    forced = next((n for n in tree.iter_nodes() if is_forced_value(n.value)), None)
    cut = next(n for n in tree.iter_nodes() if n.pruned_count)
    lines = detail_lines(cut, None, None, ["3"])
    assert lines[0] == f"Value: {cut.value_text}"
    assert any(line.startswith("Children:") and "(3)" in line for line in lines)
    assert any(line.startswith("Cutoff:") for line in lines)
    if forced is not None:  # +F / -F everywhere, never the raw number beside it
        text = " ".join(detail_lines(forced, None, None, []))
        assert f"F: {forced_meaning()}" in text and fmt_tree_value(forced.value) in text


def test_exact_verdict_counts_plies_from_the_node():
    board = Board.from_moves("121212")  # player 1 (MAX) wins at once in column 1
    tree = search(board.grid, board.rules, 2, record_tree=True, to_move=board.to_move).tree
    assert tree is not None
    won = ExactScore.from_score(18, board.grid, board.to_move)  # the solver's score: the mover wins with its 4th disc
    said = exact_verdict(tree.root, won)
    assert "perfect play: +W1, MAX (player 1) wins in 1 ply from here" in said
    assert exact_verdict(tree.root, ExactScore.from_score(0, board.grid, board.to_move)).endswith(
        "perfect play: a draw"
    )
    unknown_distance = exact_verdict(tree.root, ExactScore(winner=1))
    assert unknown_distance.endswith("MAX (player 1) wins (how soon was not worked out)")


def test_the_bottom_panel_lines_name_both_values_and_the_minimal_tree():
    from ai.heuristic import TACTICAL
    from game.app.tree.text import compare_verdict, order_line

    assert compare_verdict(12, 12) == "same value"
    assert compare_verdict(TACTICAL, 12) == "value differs: +F vs 12"  # one spelling: +F, never 100000
    said = order_line(563, 391, 7, None, searched=833)
    assert said.startswith("Knuth-Moore minimal tree (b=7): 563 nodes, 391 leaves") and "O: rerun" in said
    assert "needed fewer" in order_line(563, 391, 7, None, searched=100)


def test_the_forced_value_is_explained_in_the_language_in_use():
    """The +F sentence was an f-string, never translated: German players read English."""
    try:
        set_language("de")
        assert forced_meaning().startswith("eine Seite gewinnt erzwungen") and "100.000" not in forced_meaning()
        set_language("es")
        assert forced_meaning().startswith("un lado gana a la fuerza")
    finally:
        set_language("en")
    assert forced_meaning().startswith("a side wins by force") and "100,000" in forced_meaning()
