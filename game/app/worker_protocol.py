"""The worker's protocol: the jobs the window sends and the messages the worker answers.

Both sides import this module, and neither imports the other: ``game.app.worker`` (the
window's side: the process, the pipes, the owners of jobs) and ``game.app.worker_jobs``
(the worker's side: the decider, the solver, numba).  Every message is a frozen
dataclass that names its job; a recorded tree is sent in chunks after its answer and
rebuilt in one place (``TreeHeader.build``).  No pygame, no solver here.
"""

from __future__ import annotations

import enum
from array import array
from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field

import numpy as np

from ai.answer import Answer
from ai.cost import Calibration
from ai.depth_table import DepthTruth
from ai.explain.explanation import Explanation
from ai.levels import Level
from ai.mcts_table import MctsTruth
from ai.review import GameReview, MoveReview
from ai.search import SearchResult
from ai.tree import FIELDS, BoundKind, SearchTree, TableHit
from game.i18n import _
from game.puzzle_file import Puzzle
from game.records import GameRecord
from game.rules import Rules

CHUNK_BYTES = 1 << 18  # bytes of tree node data a message carries
PROGRESS_EVERY = 0.05  # seconds between two progress messages
PARENT_CHECK_EVERY = 0.25  # seconds between two "is my parent alive?" checks in the worker
FAST_SOLVER_QUIET = 0.5  # seconds: a fast solver loaded from its cache in this time is not announced


class JobPurpose(enum.Enum):
    """What a job is for; the scene that submitted it reads its own answers."""

    MOVE = "move"  # the computer's move
    HINT = "hint"  # a suggestion for the person to move
    SCORES = "scores"  # every column's exact score for the board's badges (a hint not asked for)
    COMPARE = "compare"  # the tree overlay's search with pruning switched
    PONDER = "ponder"  # thinking on the person's time (dropped when a real job comes)


@dataclass(frozen=True)
class SearchJob:
    """What to work out: the position, the level and what for; nothing else.

    MOVE and HINT play ``level`` through ``ai.player.choose_move`` (the one decider);
    SCORES is a hint whose move nobody asked for (the board's column badges); COMPARE is
    a plain search with the level's depth, pruning and order, for the tree overlay.
    """

    grid: np.ndarray
    rules: Rules
    to_move: int
    _: KW_ONLY  # the position, then what to do with it, by name
    level: Level
    purpose: JobPurpose = JobPurpose.MOVE
    record_tree: bool = True
    tree_budget: int = 1_000_000
    timed: bool = False  # its time is shown: it waits until the trees being recorded are done


@dataclass(frozen=True)
class ReviewJob:
    """Review a game (``ai.reviewer.review_game``); each move's review streams back as a
    ``ReviewMove``, the whole as a ``ReviewResult``.  ``done`` holds the moves an earlier,
    stopped run reviewed already, so a review goes on where it stopped."""

    rules: Rules
    moves: tuple[int, ...]
    start: np.ndarray
    start_to_move: int
    depths: Mapping[int, int] = field(default_factory=dict)
    done: tuple[MoveReview, ...] = ()


@dataclass(frozen=True)
class DepthJob:
    """Depth against truth (``ai.depth_truth``) for a position, then for ``sample``
    benchmark positions (standard board); answered by ``DepthResult``s as it goes."""

    grid: np.ndarray
    rules: Rules
    to_move: int
    sample: int


@dataclass(frozen=True)
class TextbookJob:
    """Record ``ai.textbook``'s search of a position (the code walk, practice); small
    by the caller's choice of depth.  Answered like a search: ``JobResult`` + tree."""

    grid: np.ndarray
    rules: Rules
    to_move: int
    depth: int
    pruning: bool


@dataclass(frozen=True)
class OwnPuzzlesJob:
    """Look for the player's own puzzles in reviewed ``games`` (``game.learn.own_puzzles``:
    the solver finds them, the levels rate them, the explainer gives their themes), and give
    the ``unthemed`` ones found before puzzles had themes theirs.  Answered by
    ``OwnPuzzlesResult``."""

    games: tuple[GameRecord, ...]
    unthemed: tuple[Puzzle, ...] = ()


@dataclass(frozen=True)
class ExplainJob:
    """Explain the exact verdict of a standard-board position (``ai.explain``): why it is
    what it is, or, with ``move`` (a 0-based column), why that column keeps the result or
    what it gives away.  Answered by ``ExplainResult``; a position the explainer does not
    take (another board, a finished game, a full column) by ``JobFailed`` with the reason."""

    grid: np.ndarray
    rules: Rules
    to_move: int
    move: int | None = None


@dataclass(frozen=True)
class MctsChartJob:
    """MCTS against the truth (``ai.mcts_truth``) on one position: plain MCTS and
    MCTS-Solver at each of ``budgets`` playouts, seeded, the exact solver as referee.
    Answered by ``MctsChartResult``s as it goes."""

    grid: np.ndarray
    rules: Rules
    to_move: int
    budgets: tuple[int, ...]
    seed: int = 0


@dataclass(frozen=True)
class CalibrateJob:
    """Time this machine's search (``ai.timing.calibrate``, about a second, after the fast
    search is ready).  Answered by ``CalibrationResult``; the App keeps it in the settings."""


Job = SearchJob | ReviewJob | DepthJob | TextbookJob | OwnPuzzlesJob | ExplainJob | MctsChartJob | CalibrateJob


# -- messages from the worker (each names its job) ---------------------------------------
@dataclass(frozen=True)
class JobProgress:
    """The search is under way: the pass, the deepest finished pass, nodes so far."""

    job_id: int
    depth: int
    completed_depth: int
    nodes: int
    seconds: float


@dataclass(frozen=True)
class JobResult:
    """The answer; its tree (if recorded) follows as ``TreeHeader`` + ``TreeChunk``s."""

    job_id: int
    job: SearchJob | TextbookJob
    answer: Answer  # ``answer.result.tree`` is None here: it arrives as ``TreeReady``
    tree_follows: bool = False  # a ``TreeHeader`` and its chunks come next
    cpu_seconds: float = 0.0  # the worker's CPU time from the job taken to this answer (all its threads)

    @property
    def result(self) -> SearchResult | None:
        return self.answer.result


@dataclass(frozen=True)
class TreeHeader:
    """Everything about a recorded tree except its node data, which follows in chunks."""

    job_id: int
    grid: np.ndarray
    rules: Rules
    to_move: int
    depth: int
    pruning: bool
    nbytes: int
    chunks: int
    table_hits: tuple[tuple[int, int, int, str], ...] | None = None  # (node, entry, depth, bound); None: no table

    def build(self, data: array[int]) -> SearchTree:
        """The one place a tree is rebuilt from its header and its node data."""
        if len(data) * data.itemsize != self.nbytes or len(data) % FIELDS:
            raise ValueError(
                _("tree of job {job_id}: {count} bytes, expected {nbytes}").format(
                    job_id=self.job_id, count=len(data) * data.itemsize, nbytes=self.nbytes
                )
            )
        hits = None
        if self.table_hits is not None:
            hits = {node: TableHit(entry, depth, BoundKind(bound)) for node, entry, depth, bound in self.table_hits}
        return SearchTree(
            data, self.rules, np.array(self.grid), self.to_move, self.depth, self.pruning, table_hits=hits
        )


@dataclass(frozen=True)
class TreeChunk:
    job_id: int
    index: int
    data: bytes


@dataclass(frozen=True)
class JobCancelled:
    job_id: int


@dataclass(frozen=True)
class JobFailed:
    job_id: int
    message: str


@dataclass(frozen=True)
class ReviewMove:
    """One more move of a review is done (they come in order: ``done`` of ``total``)."""

    job_id: int
    review: MoveReview
    done: int
    total: int


@dataclass(frozen=True)
class ReviewResult:
    """The whole review of a ``ReviewJob``."""

    job_id: int
    review: GameReview


@dataclass(frozen=True)
class DepthResult:
    """Depth against truth so far: this position, the benchmark (once measured), and
    what is being measured now; ``final`` on the last one."""

    job_id: int
    current: DepthTruth
    bench: DepthTruth | None
    status: str
    final: bool = True


# -- events for the scenes ---------------------------------------------------------------
@dataclass(frozen=True)
class TreeReady:
    """The recorded tree of an earlier result has arrived in full."""

    job_id: int
    tree: SearchTree


@dataclass(frozen=True)
class TreeSkipped:
    """The tree of an answered job will not come: the moves came faster than the Python
    search records trees (the oldest waiting one is skipped), or its rerun differed from
    the answer.  The scene says so instead of waiting for it."""

    job_id: int


@dataclass(frozen=True)
class WorkerNote:
    """Something the person should know about the worker itself (``job_id`` 0: for the App),
    e.g. that the fast solver is being compiled on the first start."""

    message: str
    job_id: int = 0


@dataclass(frozen=True)
class WorkerLost:
    """The worker process died; a thread took over (``job_id`` 0: for the App)."""

    message: str
    job_id: int = 0


@dataclass(frozen=True)
class OwnPuzzlesResult:
    """The puzzles found (each with its game's id), the games looked at, and the job's
    ``unthemed`` puzzles with their themes."""

    job_id: int
    found: tuple[tuple[Puzzle, int | None], ...]
    looked: tuple[int, ...]
    themed: tuple[Puzzle, ...] = ()


@dataclass(frozen=True)
class ExplainResult:
    """The explanation of an ``ExplainJob`` (``ai.explain.words`` says it in words)."""

    job_id: int
    job: ExplainJob
    explanation: Explanation


@dataclass(frozen=True)
class MctsChartResult:
    """MCTS against the truth: ``truth`` once measured (None before), what is being
    measured now; ``final`` on the last one."""

    job_id: int
    truth: MctsTruth | None
    status: str
    final: bool = True


@dataclass(frozen=True)
class CalibrationResult:
    """What ``CalibrateJob`` measured."""

    job_id: int
    calibration: Calibration


JobAnswer = (
    JobResult
    | ReviewMove
    | ReviewResult
    | DepthResult
    | OwnPuzzlesResult
    | ExplainResult
    | MctsChartResult
    | CalibrationResult
)
WorkerMessage = JobProgress | JobAnswer | TreeHeader | TreeChunk | TreeSkipped | JobCancelled | JobFailed | WorkerNote
WorkerEvent = JobProgress | JobAnswer | TreeReady | TreeSkipped | JobCancelled | JobFailed | WorkerLost | WorkerNote


@dataclass(frozen=True)
class JobRequest:
    job_id: int
    job: Job
    language: str = "en"  # the window's language: the notes the AI words come back in it
