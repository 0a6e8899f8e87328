"""The window gives back the memory a closed scene freed (glibc keeps it otherwise, and
the window's resident memory crept up game after game)."""

from __future__ import annotations

import sys

import pytest

from ai.search import search
from game.app.memory import give_back_freed_memory, rss_mb
from game.app.scene import Scene
from game.app.search_records import KEPT_TREES, SearchRecord, SearchRecords
from game.app.worker_protocol import JobPurpose
from game.board import Board

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="malloc_trim and /proc are glibc/Linux")


def allocate_and_free_forty_megabytes() -> bytearray:
    """Forty thousand 1 KB blocks from the C heap, all freed but the last, which keeps the
    heap's top in use so that free() alone cannot shrink it."""
    blocks = [bytearray(1024) for _ in range(40_000)]
    return blocks[-1]


@linux_only
def test_freed_heap_pages_go_back_to_the_system():
    give_back_freed_memory()  # free pages of earlier tests would take the new blocks unseen
    before = rss_mb()
    kept = allocate_and_free_forty_megabytes()
    held = rss_mb()
    assert held - before > 20, "the freed blocks stay resident until they are given back"
    assert give_back_freed_memory()
    assert rss_mb() < held - 20
    assert len(kept) == 1024


class HeavyScene(Scene):
    """A scene that allocates forty megabytes in small pieces and frees them on leaving."""

    def on_enter(self) -> None:
        self.blocks = [bytearray(1024) for _ in range(40_000)]

    def on_exit(self) -> None:
        self.top_of_heap = self.blocks[-1]
        self.blocks = []


@linux_only
def test_a_scene_that_leaves_gives_its_memory_back(app):
    scene = HeavyScene()
    give_back_freed_memory()
    app.stack.push(scene)
    app.stack.apply_pending()
    held = rss_mb()
    app.stack.pop()
    app.stack.apply_pending()
    assert rss_mb() < held - 20
    assert app.stack.top is not scene


def test_the_window_keeps_the_trees_of_the_latest_searches_only():
    """A match's searches keep their numbers, but only the latest ``KEPT_TREES`` keep their
    trees (an Expert search's is up to 13 MB; a match of twenty held 250 MB): the tree
    overlay says that an older one is no longer kept."""
    board = Board.from_moves("4453")
    records = SearchRecords()
    for job in range(1, 8):
        result = search(board.grid, board.rules, 2, to_move=board.to_move)
        records.done.append(SearchRecord(job, board.to_move, JobPurpose.MOVE, result, job_id=job))
        tree = search(board.grid, board.rules, 2, to_move=board.to_move, record_tree=True).tree
        assert tree is not None
        records.attach_tree(job, tree)
    kept = [record.job_id for record in records.done if record.result.tree is not None]
    assert kept == list(range(8 - KEPT_TREES, 8))
    assert all(record.tree_dropped and record.result.stats.nodes for record in records.done[: 7 - KEPT_TREES])
