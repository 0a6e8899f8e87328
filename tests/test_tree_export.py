"""Trees you can take away: JSON and Graphviz DOT from the CLI (analyze --export-tree)."""

from __future__ import annotations

import json
import os
import stat
import subprocess

import pytest

from ai.search import search
from ai.tree_export import export_tree, tree_to_dict
from game.board import Board
from game.cli.main import main


def test_the_json_export_has_every_node_the_search_reports(tmp_path):
    board = Board.from_moves("4453")
    result = search(board.grid, board.rules, 4, record_tree=True, to_move=board.to_move)
    assert result.tree is not None
    path = export_tree(result.tree, tmp_path / "tree.json")
    data = json.loads(path.read_text())
    # The search counts the positions below the root; the file holds those and the root.
    assert data["search_nodes"] == result.stats.nodes == len(data["nodes"]) - 1
    by_id = {node["id"]: node for node in data["nodes"]}
    root = by_id[0]
    assert root["parent"] is None and root["move"] is None and root["value"] == result.value
    assert all(by_id[node["parent"]]["depth"] == node["depth"] - 1 for node in data["nodes"][1:])
    pruned = [node for node in data["nodes"] if node["pruned"]]
    assert pruned and all(node["bound"] in ("lower", "upper") for node in pruned)
    assert {node["leaf"] for node in data["nodes"]} >= {None, "depth"}
    assert data == tree_to_dict(result.tree)


def test_analyze_exports_a_dot_file_graphviz_renders(tmp_path, capsys):
    target = tmp_path / "tree.dot"
    assert main(["analyze", "4453", "--depth", "3", "--export-tree", str(target)]) == 0
    said = capsys.readouterr().out
    assert f"Tree written to {target}" in said
    text = target.read_text()
    assert "shape=triangle" in text and "shape=invtriangle" in text and "style=dashed" in text
    svg = subprocess.run(["dot", "-Tsvg", str(target)], capture_output=True, text=True, check=True).stdout
    assert svg.count('class="node"') == text.count("[shape=")


def test_analyze_refuses_an_export_name_it_cannot_write(tmp_path, capsys):
    assert main(["analyze", "4453", "--depth", "2", "--export-tree", str(tmp_path / "tree.txt")]) == 2
    error = capsys.readouterr().err
    assert ".json" in error and ".dot" in error and "Traceback" not in error
    assert not (tmp_path / "tree.txt").exists()


def test_analyze_refuses_a_missing_folder_before_searching(tmp_path, capsys):
    assert main(["analyze", "4453", "--depth", "2", "--export-tree", str(tmp_path / "no" / "t.json")]) == 2
    captured = capsys.readouterr()
    assert "does not exist" in captured.err and "Best move" not in captured.out


@pytest.mark.parametrize("search", [["--depth", "2"], ["--mcts", "200000", "--seed", "1"]], ids=["minimax", "mcts"])
def test_analyze_refuses_a_fifo_or_a_link_to_a_device_before_searching(tmp_path, capsys, search):
    """Issue 47: ``--export-tree`` to a FIFO hung (after a search of any length)."""
    fifo = tmp_path / "tree.json"
    os.mkfifo(fifo)
    link = tmp_path / "tree.dot"
    link.symlink_to("/dev/null")
    for target, said in ((fifo, "is a FIFO"), (link, "is a link to a device (/dev/null)")):
        assert main(["analyze", "4453", *search, "--export-tree", str(target)]) == 2
        captured = capsys.readouterr()
        assert captured.err.count("\n") == 1 and said in captured.err and captured.out == "", captured
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and os.readlink(link) == "/dev/null"


def test_an_existing_export_is_replaced_whole_and_a_big_one_says_its_size(tmp_path, capsys):
    """Issue 6: the export was written over the old file in place; now a new file replaces
    it (the old inode is left whole for whoever still reads it)."""
    path = tmp_path / "tree.json"
    path.write_text("an older export")
    reader = path.open()
    assert main(["analyze", "4453", "--mcts", "3000", "--seed", "1", "--export-tree", str(path)]) == 0
    assert reader.read() == "an older export"  # the old file, untouched
    reader.close()
    data = json.loads(path.read_text())
    assert data["playouts"] == 3000 and len(data["nodes"]) > 1000
    assert "MB)" in capsys.readouterr().out.splitlines()[-1]


def _svg_of(path) -> str:
    return subprocess.run(["dot", "-Tsvg", str(path)], capture_output=True, text=True, check=True).stdout


def _svg_size(svg: str) -> tuple[float, float]:
    import re

    found = re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg)
    assert found is not None
    return float(found.group(1)), float(found.group(2))


def test_dot_labels_break_lines_instead_of_showing_a_backslash_n(tmp_path):
    """Graphviz drew "+F\\ndepth limit" on one line: the label's line break was escaped twice."""
    board = Board.from_moves("445566")  # player 1 wins with 3 or 7: leaves that say "won"
    result = search(board.grid, board.rules, 2, record_tree=True, to_move=board.to_move)
    assert result.tree is not None
    svg = _svg_of(export_tree(result.tree, tmp_path / "tree.dot"))
    assert "\\n" not in svg
    assert ">won</text>" in svg  # the leaf reason on a line of its own


def test_a_363_node_tree_draws_a_legible_picture_and_says_what_it_left_out(tmp_path, capsys):
    """'analyze 4453 --depth 4 --export-tree t.dot' drew 67,468 pt wide (a 32,767 px PNG, the
    renderer's limit).  The DOT now draws the plies that fit a legible picture, the expected
    line to its leaf, "+N" for what is below, and says so; --export-depth draws more, the
    JSON keeps every node."""
    target = tmp_path / "tree.dot"
    assert main(["analyze", "4453", "--depth", "4", "--no-table", "--export-tree", str(target)]) == 0
    said = capsys.readouterr().out
    assert "363 nodes" in said
    text = target.read_text()
    width, height = _svg_size(_svg_of(target))
    assert width <= 3000 and height <= 3000, (width, height)
    assert "not drawn" in text and "--export-depth" in text
    assert "the root and the 362 the search counts" in text  # the count rule, in the picture's legend
    deeper = tmp_path / "deep.dot"
    assert (
        main(["analyze", "4453", "--depth", "4", "--no-table", "--export-tree", str(deeper), "--export-depth", "4"])
        == 0
    )
    assert deeper.read_text().count("shape=triangle") + deeper.read_text().count("shape=invtriangle") == 363
