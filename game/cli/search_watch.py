"""A depth-limited search run from the command line: announced when it may take long, its
progress on stderr about once a second, and Ctrl+C said with how far it got."""

from __future__ import annotations

import sys
import time
from typing import Any

from ai.cost import duration_text, expected_positions, full_tree_positions, seconds_for, speed_text
from ai.search import SearchProgress, SearchResult, search
from game.board import Board
from game.cli.errors import SearchInterrupted
from game.cli.options import plural
from game.i18n import _
from game.notation import format_move

LONG_SEARCH_SECONDS = 10.0
"""A search estimated to take longer is announced on stderr before it starts."""

PROGRESS_EVERY_SECONDS = 1.0


def _count(number: int) -> str:
    return f"{number:,}" if number < 10**10 else f"10^{len(str(number)) - 1}"


class SearchWatch:
    """Says before a long search that it may take long and how to stop or limit it, then
    reports progress on stderr about once a second (never on stdout)."""

    def __init__(
        self, command: str, board: Board, depth: int, pruning: bool, limit_hint: str, time_limit: float | None = None
    ):
        self.command = command
        self.started = 0.0
        self.last_report = 0.0
        self.progress: SearchProgress | None = None
        self.rules = board.rules
        moves = len(board.legal_moves())
        worst = full_tree_positions(board.rules, depth, moves)
        estimate = expected_positions(board.rules, depth, pruning, moves)
        self.warning: str | None = None
        seconds = seconds_for(estimate)
        if seconds > LONG_SEARCH_SECONDS and (time_limit is None or time_limit > LONG_SEARCH_SECONDS):
            how = (
                _("with alpha-beta: roughly {count} positions (up to {count2} without cutoffs)").format(
                    count=_count(estimate), count2=_count(worst)
                )
                if pruning
                else _("without alpha-beta: up to {count} positions").format(count=_count(worst))
            )
            self.warning = _(
                "{command}: depth {depth} {how}, about {duration_text} at {speed_text}. Ctrl+C stops it; {limit_hint}."
            ).format(
                command=command,
                depth=depth,
                how=how,
                duration_text=duration_text(seconds),
                speed_text=speed_text(),
                limit_hint=limit_hint,
            )

    def start(self) -> None:
        if self.warning:
            print(self.warning, file=sys.stderr, flush=True)
        self.started = self.last_report = time.perf_counter()

    def __call__(self, progress: SearchProgress) -> None:
        """The search's ``on_progress``: one line when a second has passed since the last."""
        self.progress = progress
        now = time.perf_counter()
        if now - self.last_report < PROGRESS_EVERY_SECONDS:
            return
        self.last_report = now
        print(f"{self.command}: {now - self.started:.0f} s, {self._state(progress)}", file=sys.stderr, flush=True)

    def _state(self, progress: SearchProgress) -> str:
        done = ""
        if progress.completed_depth and progress.move is not None:
            done = _("; depth {completed_depth} done, best move {format_move}").format(
                completed_depth=progress.completed_depth, format_move=format_move(progress.move, self.rules)
            )
        return _("searching depth {depth}, {plural}{done}").format(
            depth=progress.depth, plural=plural(progress.nodes, "node"), done=done
        )

    def interrupted(self) -> str:
        """The line for Ctrl+C: how far the search got."""
        progress = self.progress
        where = f" ({self._state(progress)})" if progress is not None else ""
        return _("{command}: stopped by Ctrl+C after {perf_counter:.1f} s{where}").format(
            command=self.command, perf_counter=time.perf_counter() - self.started, where=where
        )


def watched_search(watch: SearchWatch, board: Board, depth: int, **options: Any) -> SearchResult:
    """``search`` of ``board`` under ``watch``; Ctrl+C becomes ``SearchInterrupted``."""
    watch.start()
    try:
        return search(board.grid, board.rules, depth, to_move=board.to_move, on_progress=watch, **options)
    except KeyboardInterrupt:
        raise SearchInterrupted(watch.interrupted()) from None
