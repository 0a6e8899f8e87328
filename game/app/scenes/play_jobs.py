"""The computer's work for one play screen: its moves, hints and column scores, and why.

Each goes to the worker as a ``SearchJob`` (position, level, purpose) and comes back as
one ``Answer`` (``ai.player``); this object keeps what the last answers said, so the
screen's sentences (``play_text``) and painting (``play_view``) can read them.  On the
standard board a hint's or the column scores' answer is followed by an ``ExplainJob``
(``ai.explain``, in the worker): the hinted column's reason, or the position's; the
verdict shows first, the reason when it comes.

Pruning felt: after each computer move a minimax search made, the same search with
pruning switched (``OtherSetting``) is first estimated from this machine's timing
(``ai.cost``), then searched in the worker on the person's time, when that takes at most
``OTHER_SEARCH_SECONDS``; any job asked for after it (the person's move, a hint) cancels
it, and the estimate stays, said as one.  A move expected to take longer than
``LONG_SECONDS`` (or running that long) shows its progress against the expected total
and can be stopped (``finish``): the worker answers with the best move found so far
(``ai.player.Thinking``: the deepest finished iterative-deepening pass, or, for a
full-width search that finishes no pass before its end, a quick alpha-beta search of at
most 6 plies made then, in milliseconds).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np

from ai.answer import Answer, DecidedBy
from ai.cost import expected_positions, search_seconds, seconds_for
from ai.exact import ExactScore
from ai.explain.explanation import Explanation
from ai.levels import PRESETS, Level, level_title, preset_name, solvable
from game.app.play_screen import JobsGame
from game.app.scenes import play_text as say
from game.app.scenes.play_text import OtherSetting, Report
from game.app.search_records import SearchRecord
from game.app.settings import Opponent
from game.app.worker_protocol import (
    ExplainJob,
    ExplainResult,
    JobFailed,
    JobProgress,
    JobPurpose,
    JobResult,
    SearchJob,
    WorkerEvent,
)
from game.board import Board
from game.i18n import _
from game.rules import STANDARD

UI_TREE_BUDGET = 1_000_000
HINT_LEVEL = "Hard"
"""The level hints and column scores use where no computer plays (two players): fast, and
exact wherever the solver proves the columns within the hint's budget."""
SLOW_HINT_SECONDS = 5.0
"""A hint never waits on a level whose full tree would take longer than this: the hint
level answers instead (the level line says which level hints use)."""
STAND_IN_LEVEL = "Expert"
"""What plays for a level whose job failed (a damaged book, say), for the rest of the game."""


OTHER_SEARCH_SECONDS = 20.0
"""The other setting is searched after a move only where that is expected to take at most
this long (a depth-10 search without pruning is estimated instead)."""
LONG_SECONDS = 3.0
"""A computer's move expected to take longer than this (or running this long) shows its
progress against the expected total and a Stop."""


class PlayJobs:
    """The job under way (its purpose, id and the ply it was asked at) and the answers
    kept: the last report (a move or a hint), the hinted move, the column scores."""

    def __init__(self, scene: JobsGame):
        self.scene = scene
        self.purpose: JobPurpose | None = None  # while the worker works for this screen
        self.id: int | None = None
        self.ply = 0
        self.progress: JobProgress | None = None
        self.report: Report | None = None
        self.hint: int | None = None  # the hinted move, shown on the board
        self.show_scores = False  # S: every column's exact score kept on the board, each turn
        self.hint_scores_hidden = False  # S hid the scores the last hint brought
        self.analysis: Answer | None = None  # the column scores' own answer (not a hint asked for)
        self.analysis_ply = -1
        self.failed_levels: set[Level] = set()  # levels whose job failed: not asked again this game
        self.why: Explanation | None = None  # why the hint or the column scores say what they say
        self.why_ply = -1  # the ply it explains
        self.why_id: int | None = None  # the explanation under way
        self.why_move: int | None = None  # what it explains: the hinted column, or (None) the position
        self.other: OtherSetting | None = None  # the last move's search with pruning switched
        self.stopping = False  # Stop was asked: the best move so far is on its way

    def forget_answers(self) -> None:
        """The position changed by Undo, Redo or Restart: the answers no longer apply."""
        self.hint = None
        self.report = None
        self.cancel_other()
        self.analysis, self.analysis_ply = None, -1
        self.why, self.why_ply = None, -1

    @property
    def explains(self) -> bool:
        """Hints and column scores say why here: the standard board, someone to hint to."""
        return self.scene.rules == STANDARD and self.scene.opponent is not Opponent.DEMO

    def ask_why(self, move: int | None) -> None:
        """Ask the worker why (the explainer): the hinted ``move``'s reason, or (None) the
        position's, for the column scores.  The answer waits in ``why``."""
        if not self.explains:
            return
        board = self.scene.match.board
        self.why, self.why_ply, self.why_move = None, len(self.scene.match.moves), move
        self.why_id = self.scene.app.submit(ExplainJob(board.grid.copy(), board.rules, board.to_move, move), self.scene)

    def resume(self) -> None:
        """The screen is on top again: a job another screen's took the worker from is asked
        again (a move or a hint by the next update, an explanation at once)."""
        if self.purpose is not None and self.scene.app.worker.current != self.id:
            self.purpose = None
            self.progress = None
        if self.why_id is not None and not self.scene.app.worker.is_pending(self.why_id):
            self.ask_why(self.why_move)

    def shown_why(self) -> Explanation | None:
        """The explanation of what the board shows now: the hint's column, else the
        column scores' position (None: none, or not yet)."""
        why = self.why
        if why is None or self.why_ply != len(self.scene.match.moves):
            return None
        if why.move is not None:
            return why if why.move == self.hint else None
        return why if self.exact_scores() is not None else None

    @property
    def explaining(self) -> bool:
        """An explanation is under way for this position."""
        return self.why_id is not None and self.scene.app.worker.is_pending(self.why_id)

    def level_for(self, purpose: JobPurpose, side: int) -> Level:
        """The level a job plays: the side's own for a move; for a hint, the opponent
        computer's (what it would play in your place) unless its search could run for
        long (no pruning, a big tree), else the hint level, which also works out the column
        scores and plays where no computer does; a level that failed this game gives way
        to Expert."""
        hint_level = PRESETS[HINT_LEVEL]
        if purpose is JobPurpose.MOVE:
            level = self.scene.levels[side]
        elif purpose is JobPurpose.SCORES or self.scene.opponent is Opponent.HUMAN:
            level = hint_level
        else:
            level = self.scene.levels[-side]
            calibration = self.scene.app.settings.calibration
            if search_seconds(self.scene.rules, level.depth, False, calibration) > SLOW_HINT_SECONDS and not (
                level.pruning or level.node_budget
            ):
                level = hint_level
        return PRESETS[STAND_IN_LEVEL] if level in self.failed_levels and level != PRESETS[STAND_IN_LEVEL] else level

    def submit(self, purpose: JobPurpose, side: int) -> None:
        """Start a job for ``side``: the computer's move, a hint, or the column scores."""
        job = SearchJob(
            self.scene.match.board.grid.copy(),
            self.scene.rules,
            side,
            level=self.level_for(purpose, side),
            purpose=purpose,
            record_tree=purpose is not JobPurpose.SCORES,
            tree_budget=UI_TREE_BUDGET,
        )
        self.id = self.scene.app.submit(job, self.scene)
        self.purpose = purpose
        self.ply = len(self.scene.match.moves)
        self.progress = None
        self.stopping = False

    def cancel(self) -> None:
        """Stop the job under way for this screen (a move, a hint, the scores, an explanation)."""
        current = self.scene.app.worker.current
        if (self.purpose is not None and current == self.id) or (self.why_id is not None and current == self.why_id):
            self.scene.app.worker.cancel()
        self.purpose = None
        self.progress = None
        self.why_id = None
        self.stopping = False
        self.cancel_other()

    # -- a long move: its progress and Stop --------------------------------------------
    def move_level(self) -> Level | None:
        """The minimax level of the computer's move under way, or None (no move under way,
        a Monte Carlo or perfect level: their work is not a tree to count)."""
        if self.purpose is not JobPurpose.MOVE:
            return None
        level = self.level_for(JobPurpose.MOVE, self.scene.match.to_move)
        return None if level.is_mcts or level.perfect else level

    def expected(self) -> tuple[int, float] | None:
        """The positions and seconds the move under way is expected to take, or None."""
        level = self.move_level()
        if level is None:
            return None
        rules, calibration = self.scene.rules, self.scene.app.settings.calibration
        moves = len(self.scene.match.board.legal_moves())
        positions = expected_positions(rules, level.depth, level.pruning, moves)
        if level.node_budget:
            positions = min(positions, level.node_budget)
        passes = level.depth if level.pruning or level.node_budget else 1  # iterative deepening: a pass a ply
        return positions, seconds_for(positions, calibration, pruning=level.pruning, passes=passes)

    def is_long(self) -> bool:
        """The move under way takes (or is expected to take) more than a few seconds."""
        expected = self.expected()
        if expected is None:
            return False
        progress = self.progress
        return expected[1] > LONG_SECONDS or (progress is not None and progress.seconds > LONG_SECONDS)

    def finish(self) -> None:
        """Stop: the computer's long move answers now with the best move found so far."""
        if not self.is_long() or self.stopping or self.scene.app.worker.current != self.id:
            return
        self.stopping = True
        self.scene.app.worker.finish()

    # -- the same search with pruning switched ----------------------------------------
    def cancel_other(self) -> None:
        other = self.other
        if other is not None and other.job_id is not None and self.scene.app.worker.current == other.job_id:
            self.scene.app.worker.cancel()
        self.other = None

    def compare_after(self, answer: Answer, grid: np.ndarray, side: int) -> None:
        """After a computer's move: estimate its search with pruning switched and, where
        that is quick enough, search it in the worker (any later job cancels it)."""
        result = answer.result
        self.other = None
        if result is None or answer.decided_by is not DecidedBy.SEARCH or answer.level.is_mcts or not result.completed:
            return
        rules, level = self.scene.rules, answer.level
        moves = len(Board(rules, grid, side).legal_moves())
        pruning = not result.pruning
        positions = expected_positions(rules, result.depth, pruning, moves)
        seconds = search_seconds(rules, result.depth, pruning, self.scene.app.settings.calibration, moves)
        other = OtherSetting(self.ply, pruning, positions, seconds)
        if seconds <= OTHER_SEARCH_SECONDS and not level.node_budget:
            job = SearchJob(
                grid,
                rules,
                side,
                level=dataclasses.replace(level, pruning=pruning, depth=result.depth),
                purpose=JobPurpose.COMPARE,
                record_tree=False,
                timed=True,
            )
            other = dataclasses.replace(other, job_id=self.scene.app.submit(job, self.scene))
        self.other = other

    def on_other(self, event: WorkerEvent) -> bool:
        """Take the other setting's search result; True if ``event`` was about it."""
        other = self.other
        if other is None or other.job_id is None or event.job_id != other.job_id:
            return False
        if isinstance(event, JobResult) and event.answer.result is not None:
            stats = event.answer.result.stats
            self.other = dataclasses.replace(
                other, positions=stats.total_nodes, seconds=stats.seconds, searched=True, job_id=None
            )
        elif not isinstance(event, JobProgress):
            self.other = dataclasses.replace(other, job_id=None)  # failed or cancelled: the estimate stays
        return True

    def other_searching(self) -> bool:
        """The other setting's search is still running in the worker."""
        other = self.other
        return other is not None and other.job_id is not None and self.scene.app.worker.is_pending(other.job_id)

    def request_hint(self) -> None:
        if self.scene.outcome is not None or self.scene.drop is not None:
            return
        side = self.scene.match.to_move
        if self.scene.is_computer(side):
            self.scene.app.show_toast(_("Hints are for your own turn"))
            return
        self.submit(JobPurpose.HINT, side)
        level = self.level_for(JobPurpose.HINT, side)
        if self.scene.opponent is Opponent.COMPUTER and level != self.scene.levels[-side]:
            preset = preset_name(level)
            name = level_title(preset) if preset else _("the hint level")
            self.scene.app.show_toast(
                _("Looking for a hint with {name} (the computer's level would take too long)").format(name=name), 3.0
            )
        else:
            self.scene.app.show_toast(_("Looking for a hint..."), 1.5)

    def toggle_scores(self) -> None:
        """S: keep every column's exact score on the board, on each of your turns; or, when
        scores are shown (kept, or brought by a hint), hide them all."""
        if self.show_scores or self.exact_scores() is not None:
            self.show_scores = False
            self.hint_scores_hidden = True
            self.scene.app.show_toast(_("Column scores off (S shows them again)"))
            return
        self.show_scores = True
        self.hint_scores_hidden = False
        if solvable(self.scene.rules):
            self.scene.app.show_toast(
                _("Column scores on: each column's exact score where the solver proves it, on your turn")
            )
        else:
            self.scene.app.show_toast(_("Exact scores need classic rules with gravity"))

    def on_event(self, event: WorkerEvent) -> None:
        """What the worker sent about this screen's job (trees go to the records)."""
        if self.why_id is not None and event.job_id == self.why_id:
            self.take_why(event)
        elif self.on_other(event) or self.purpose is None:
            return
        elif isinstance(event, JobProgress):
            self.progress = event
        elif isinstance(event, JobFailed):
            self.on_job_failed(event)
        elif isinstance(event, JobResult):
            self.receive(event)

    def take_why(self, event: WorkerEvent) -> None:
        """The explanation arrived (kept while the position stands), or will not come: a
        position the explainer does not take says nothing more than its verdict."""
        if isinstance(event, ExplainResult | JobFailed):
            self.why_id = None
        if isinstance(event, ExplainResult) and self.why_ply == len(self.scene.match.moves):
            self.why = event.explanation

    def on_job_failed(self, event: JobFailed) -> None:
        """Say why once; the level that failed is not asked again this game (Expert plays
        for it), and the column scores switch off, so nothing is resubmitted in a loop."""
        purpose, self.purpose = self.purpose, None
        level = self.level_for(purpose or JobPurpose.MOVE, self.scene.match.to_move)
        self.failed_levels.add(level)
        if purpose is JobPurpose.SCORES:
            self.show_scores = False
            self.scene.app.show_toast(_("Column scores are off: {message}").format(message=event.message), 5.0)
        elif purpose is JobPurpose.MOVE and level != PRESETS[STAND_IN_LEVEL]:
            self.scene.app.show_toast(
                _("The computer's level failed ({message}): Expert plays instead").format(message=event.message), 6.0
            )
        else:
            self.scene.app.show_toast(_("The search failed: {message}").format(message=event.message), 5.0)

    def receive(self, event: JobResult) -> None:
        purpose, self.purpose = self.purpose or JobPurpose.MOVE, None
        self.progress = None
        self.stopping = False
        answer = event.answer
        if len(self.scene.match.moves) != self.ply or answer.move is None:
            return  # the position changed: this answer is stale
        side = event.job.to_move
        if purpose is JobPurpose.SCORES:  # only the column scores are wanted
            self.analysis, self.analysis_ply = answer, self.ply
            if not answer.column_scores:
                self.show_scores = False
                self.scene.app.show_toast(
                    _("Column scores off: {no_scores_reason}").format(
                        no_scores_reason=say.no_scores_reason(answer, self.scene.rules)
                    ),
                    5.0,
                )
            else:
                self.ask_why(None)
            return
        if answer.result is not None:
            has_tree = event.tree_follows or answer.result.tree is not None
            played = answer.move if answer.move != answer.result.move else None
            record = SearchRecord(self.ply, side, purpose, answer.result, event.job_id, has_tree, answer.note, played)
            self.scene.records.done.append(record)
        else:  # a book or solver answer: no search, no tree
            self.scene.records.untreed_ply = self.ply
        self.report = Report(purpose is JobPurpose.HINT, side, answer)
        if purpose is JobPurpose.HINT:
            self.scene.app.hide_toast()  # "Looking for a hint..." is answered
            self.hint = answer.move
            self.hint_scores_hidden = False  # a hint asked for shows its scores
            self.ask_why(answer.move)
        else:
            self.scene.play_move(answer.move)
            self.compare_after(answer, event.job.grid, side)

    def exact_scores(self) -> Mapping[int, ExactScore] | None:
        """The exact result of each move in the current position, if an answer brought
        them: the hint's, or (scores kept on the board) the scores' own answer's."""
        report = self.report
        if report is not None and report.hint and report.answer.column_scores and not self.hint_scores_hidden:
            return report.answer.column_scores
        analysis = self.analysis
        if self.show_scores and analysis is not None and self.analysis_ply == len(self.scene.match.moves):
            return analysis.column_scores or None
        return None

    def wants_scores(self) -> bool:
        """The column scores are kept on the board and this turn's are still to come."""
        return (
            self.show_scores
            and solvable(self.scene.rules)
            and self.scene.outcome is None
            and self.scene.drop is None
            and self.purpose is None
            and not self.scene.is_computer(self.scene.match.to_move)
            and self.analysis_ply != len(self.scene.match.moves)
            and self.exact_scores() is None  # a hint brought them already
        )
