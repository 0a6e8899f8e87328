"""The play scene: the board, the turn, the computer's thinking and what its search said.

The status bar leads with what matters (whose turn, the move just played and how the
game stands, the hint's verdict, the result); the search statistics sit on a second,
smaller line.  Values are told from the viewer's side: yours against the computer,
player 1's otherwise.  Player 1 always moves first and is MAX, whoever plays it.

Controls:
- mouse: click a column (a cell without gravity) to drop a disc; the toolbar below
- Left/Right (and Up/Down without gravity) move the cursor; Down/Enter/Space drop
- 1..9 drop in that column
- U or Ctrl+Z undo, Ctrl+Y redo, H hint, S exact scores on the board, T tree, R restart,
  Esc menu
Input for a move is ignored while a disc falls and while the computer thinks.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, replace

import pygame

from ai.heuristic import POINT
from ai.levels import Level, preset_name, worst_case_positions
from ai.perfect import is_standard
from ai.search import SearchResult
from ai.solver import moves_to_end
from ai.values import is_win_value, plies_to_end
from game.app.animation import DiscDrop, DropEvent
from game.app.board_view import BoardLayout, BoardView, ColumnNote
from game.app.scene import Scene
from game.app.settings import Opponent, Settings
from game.app.widgets import Button, display_size, row_rects
from game.app.worker import JobFailed, JobProgress, JobPurpose, JobResult, SearchJob, TreeReady, WorkerEvent
from game.board import Outcome
from game.match import Match
from game.notation import format_move
from game.rules import MAX, MIN, Cell, Mode, Rules

DEMO_PAUSE = 0.35  # seconds between two moves of computer against computer
END_DELAY = 0.9  # seconds of glow before the result panel
HINT_VERDICT_SECONDS = 1.0  # solver time for a hint when the level has no time budget
UI_TREE_BUDGET = 1_000_000
NO_TREE_TEXT = "No tree to show: Perfect answers from its opening book and the exact solver, not a depth-limited search"
EVEN_BELOW = 8  # heuristic values under this are "even": a few discs' worth of centre
THREAT_VALUE = 50  # about one open threat (a window with 3 own discs): "slightly" below it
MUCH_FROM = 200  # several threats: "much better"
GLOW_SECONDS = 6.0  # the winning line pulses this long, then stays lit (no redraws while idle)


class Seat(enum.Enum):
    """Who plays a side."""

    HUMAN = "human"
    COMPUTER = "computer"


@dataclass(frozen=True)
class SearchRecord:
    """A search of this match, kept for the tree overlay."""

    ply: int  # discs played when it was searched
    side: int
    purpose: JobPurpose  # MOVE or HINT
    result: SearchResult  # its tree may still be on its way (see ``PlayScene.on_tree``)
    job_id: int = 0
    has_tree: bool = True  # False: a book or solver answer (Perfect), no search tree to show
    note: str | None = None  # e.g. the level's solver played another move than this search chose


@dataclass(frozen=True)
class SearchReport:
    """What the last search said, for the status lines (built into text when drawn)."""

    purpose: JobPurpose
    side: int  # the side that moved (MOVE) or asked (HINT)
    move: int
    result: SearchResult
    verdict: str | None = None  # the exact solver's words for the side to move
    exact_scores: dict[int, int] | None = None  # move -> exact score for the side to move
    note: str | None = None  # what the level's player said (e.g. its solver overruled its search)
    outcome: int | None = None  # the move's exact outcome for its mover (1/0/-1), where the solver knew it


@dataclass(frozen=True)
class PlayLayout:
    """Where everything goes in a window of one size (computed, never stored by draw)."""

    status: pygame.Rect
    board: BoardLayout
    toolbar: pygame.Rect
    buttons: tuple[pygame.Rect, ...]
    headline_size: int
    detail_size: int
    text_left: int
    text_right: int


def plural(count: int, word: str) -> str:
    """ "1 node", "2 nodes", "1,000 nodes", "1 ply", "6 plies"."""
    if count == 1:
        return f"1 {word}"
    return f"{count:,} {word[:-1] + 'ies' if word.endswith('y') else word + 's'}"


def winner_moves(plies: int) -> int:
    """The winner's own moves among ``plies`` plies that end with its winning disc."""
    return (plies + 1) // 2


def score_label(score: int, own_discs: int, other_discs: int, cells: int) -> str:
    """A column's badge for an exact score from the mover's side: "win 3" (the mover wins
    with its 3rd move from now), "draw", "lose 5" (the other side wins with its 5th).

    Counted in the winner's own moves, as the hint says it; never "W3", which the tree
    and the command line use for plies."""
    if score == 0:
        return "draw"
    moves = moves_to_end(score, own_discs, other_discs, cells)
    return f"{'win' if score > 0 else 'lose'} {moves}"


def verdict_words(verdict: str, subject: str, second_person: bool, other: str = "the opponent") -> str:
    """The solver's verdict for the side to move ("wins in 3 moves with perfect play",
    "loses: the opponent wins in 5 moves ...", "draw ...") said of ``subject`` (the side
    to move) and ``other`` (the side that wins when ``subject`` loses)."""
    found = re.search(r"wins in (\d+) moves?", verdict)
    if verdict.startswith("draw") or found is None:
        return "a draw with perfect play" if verdict.startswith("draw") else verdict
    moves = plural(int(found.group(1)), "move")
    ending = "" if second_person else "s"
    if verdict.startswith("loses"):
        return f"{other} wins in {moves} with perfect play"
    return f"{subject} win{ending} in {moves} with perfect play"


def standing_text(own_value: int, plies_from_now: int | None, name: str, other: str, rules: Rules) -> str:
    """How the game stands for ``name`` (whose value is ``own_value``), in words.

    ``plies_from_now`` is the plies from the current position to the end of a forced
    result (None when the value is a heuristic judgement).
    """
    you = name == "You"
    be = "are" if you else "is"
    if plies_from_now is not None:
        winner = name if own_value > 0 else other
        return f"{winner} can force a win in {plural(winner_moves(plies_from_now), 'move')}"
    if rules.mode is Mode.FULL_BOARD:
        return f"{name} {'expect' if you else 'expects'} {own_value / POINT:+.1f} points (estimate)"
    size = abs(own_value)
    if size < EVEN_BELOW:
        return "The position is even (estimate)"
    word = "slightly " if size < THREAT_VALUE else ("much " if size >= MUCH_FROM else "")
    return f"{name} {be} {word}{'better' if own_value > 0 else 'worse'} (estimate)"


class PlayScene(Scene):
    name = "play"

    def __init__(
        self,
        rules: Rules,
        level: Level,
        opponent: Opponent | str = Opponent.COMPUTER,
        first: str = "human",
        *,
        level2: Level | None = None,
    ):
        """``level`` plays the computer's side (player 1's in computer vs computer, where
        ``level2``, default the same, plays player 2).  Player 1 always moves first."""
        super().__init__()
        self.rules = rules
        self.level = level
        self.levels = {MAX: level, MIN: level2 or level}
        self.opponent = opponent = Opponent(opponent)
        if opponent is Opponent.COMPUTER:
            self.human_side = MAX if first == "human" else MIN
            self.seats = {self.human_side: Seat.HUMAN, -self.human_side: Seat.COMPUTER}
        else:
            seat = Seat.HUMAN if opponent is Opponent.HUMAN else Seat.COMPUTER
            self.human_side = MAX  # the viewer: values are told from player 1's side
            self.seats = {MAX: seat, MIN: seat}
        self.match = Match(rules)
        self.drop: DiscDrop | None = None
        self.landing_heard = False
        self.cursor: Cell = (0, rules.cols // 2)
        self.hover: Cell | None = None
        self.job_purpose: JobPurpose | None = None  # MOVE / HINT while the worker works for us
        self.job_id: int | None = None
        self.job_ply = 0
        self.progress: JobProgress | None = None
        self.report: SearchReport | None = None
        self.hint: tuple[int, str | None] | None = None
        self.show_scores = False  # S: every column's exact score kept on the board, each turn
        self.analysis: SearchReport | None = None  # the scores' own search (not a hint asked for)
        self.analysis_ply = -1
        self.job_asked = True  # the job under way was asked for (a hint), not a scores analysis
        self.searches: list[SearchRecord] = []
        self.undone_searches: list[SearchRecord] = []  # kept for Redo
        self.outcome: Outcome | None = None
        self.counted = False  # this game's result is in the tally (once per game)
        self.end_timer: float | None = None
        self.glow_started: float | None = None  # app time the winning line lit up
        self.wait = 0.0  # demo pause before the next computer move
        self.view: BoardView | None = None
        self.buttons: dict[str, Button] = {}

    @classmethod
    def from_settings(cls, settings: Settings) -> PlayScene:
        level2 = settings.second_level() if settings.opponent is Opponent.DEMO else None
        return cls(settings.rules(), settings.level(), settings.opponent, settings.first, level2=level2)

    # -- life cycle -------------------------------------------------------------------
    def on_enter(self) -> None:
        self.view = BoardView(self.app.theme)
        self.buttons = {
            "undo": Button("Undo", self.undo, "U"),
            "redo": Button("Redo", self.redo, "Ctrl+Y"),
            "hint": Button("Hint", self.request_hint, "H"),
            "scores": Button("Scores", self.toggle_scores, "S"),
            "restart": Button("Restart", self.restart, "R"),
            "tree": Button("Tree", self.open_tree, "T"),
            "menu": Button("Menu", self.open_menu, "Esc"),
        }
        self.place_buttons(display_size())

    def on_pause(self) -> None:
        """The search goes on under the menu or the tree; its answer waits for us."""

    def on_resume(self) -> None:
        # Another scene may have used the worker meanwhile (the tree's compare search
        # replaces ours): then ask again.
        if self.job_purpose is not None and self.app.worker.current != self.job_id:
            self.job_purpose = None
            self.progress = None

    def on_exit(self) -> None:
        self.cancel_search()

    # -- who is who ------------------------------------------------------------------
    def side_name(self, side: int) -> str:
        if self.opponent is Opponent.COMPUTER:
            return "You" if side == self.human_side else "The computer"
        if self.opponent is Opponent.DEMO:
            return f"Computer {1 if side == MAX else 2}"
        return f"Player {1 if side == MAX else 2}"

    def is_computer(self, side: int) -> bool:
        return self.seats[side] is Seat.COMPUTER

    @property
    def thinking(self) -> bool:
        return self.job_purpose is JobPurpose.MOVE

    # -- moves -----------------------------------------------------------------------
    def play_move(self, move: int) -> None:
        """Play ``move`` for the side to move and start its drop animation.

        A move that ends the game ends it now: the result is counted at once, so leaving
        or quitting while the last disc falls still counts it.
        """
        side = self.match.to_move
        row, col = self.match.play(move)
        self.start_drop(row, col, side)
        self.hint = None
        self.undone_searches.clear()  # a new line: what was undone cannot come back
        self.app.sounds.play("drop")
        outcome = self.match.outcome()
        if outcome is not None:
            self.on_game_over(outcome)

    def start_drop(self, row: int, col: int, side: int) -> None:
        start = -1.0 if self.rules.gravity else row - 0.7
        self.drop = DiscDrop(row, col, side, start=start)
        self.landing_heard = False

    def finish_drop(self) -> None:
        if self.drop is not None:
            self.drop.finish()
            self.drop = None

    def try_human_move(self, move: int | None) -> None:
        """A move asked for by click or key: play it, or say why not."""
        if move is None:
            return
        if self.outcome is not None:
            self.app.show_toast("The game is over: R to play again, U to undo")
            return
        if self.drop is not None:
            return  # input for a move waits until the disc has landed
        side = self.match.to_move
        if self.is_computer(side):
            self.app.show_toast("The computer is thinking..." if self.thinking else "It is the computer's turn")
            return
        if not self.match.board.is_legal(move):
            what = f"Column {move + 1} is full" if self.rules.gravity else "That cell is taken"
            self.app.show_toast(what)
            return
        self.cancel_search()  # a hint under way is no longer wanted
        self.report = None
        self.play_move(move)

    def move_at(self, pos: tuple[int, int]) -> int | None:
        layout = self.board_layout(display_size())
        if self.rules.gravity:
            return layout.column_at(pos)
        cell = layout.cell_at(pos)
        return None if cell is None else self.match.board.move_at(cell)

    # -- the computer -----------------------------------------------------------------
    def submit(self, purpose: JobPurpose, side: int, *, asked: bool = True) -> None:
        """Start a search for ``side``: the computer's move, a hint, or (``asked`` False)
        the exact scores of the columns kept on the board."""
        board = self.match.board
        if purpose is JobPurpose.MOVE:
            level = self.levels[side]
        else:  # a hint searches as the opponent's level would, without a beginner's blur
            level = replace(self.levels[-side], noise=0)
        job = SearchJob(
            board.grid.copy(),
            self.rules,
            side,
            level.depth,
            pruning=level.pruning,
            time_limit=level.time_limit,
            record_tree=True,
            tree_budget=UI_TREE_BUDGET,
            verdict_seconds=(level.time_budget or HINT_VERDICT_SECONDS) if purpose is JobPurpose.HINT else 0.0,
            purpose=purpose,
            level=level,  # the worker plays it through ai.player.choose_move
        )
        self.job_id = self.app.submit(job, self)
        self.job_purpose = purpose
        self.job_asked = asked
        self.job_ply = len(self.match.moves)
        self.progress = None

    def cancel_search(self) -> None:
        if self.job_purpose is not None and self.app.worker.current == self.job_id:
            self.app.worker.cancel()
        self.job_purpose = None
        self.progress = None

    def request_hint(self) -> None:
        if self.outcome is not None or self.drop is not None:
            return
        side = self.match.to_move
        if self.is_computer(side):
            self.app.show_toast("Hints are for your own turn")
            return
        self.submit(JobPurpose.HINT, side)
        self.app.show_toast("Looking for a hint...", 1.5)

    def toggle_scores(self) -> None:
        """S: keep every column's exact score on the board, on each of your turns."""
        self.show_scores = not self.show_scores
        if not self.show_scores:
            self.app.show_toast("Column scores off (a hint still shows its own)")
        elif is_standard(self.rules):
            self.app.show_toast("Column scores on: each column's exact score, on your turn")
        else:
            self.app.show_toast("Exact scores are for the standard 6x7 board only")

    def on_worker_event(self, event: WorkerEvent) -> None:
        """The App hands over what the worker sent about this scene's jobs."""
        if isinstance(event, TreeReady):
            self.on_tree(event)
        elif self.job_purpose is None:
            return
        elif isinstance(event, JobProgress):
            self.progress = event
        elif isinstance(event, JobFailed):
            self.job_purpose = None
            self.app.show_toast(f"The search failed: {event.message}")
        elif isinstance(event, JobResult):
            self.receive(event)

    def receive(self, event: JobResult) -> None:
        purpose, self.job_purpose = self.job_purpose or JobPurpose.MOVE, None
        self.progress = None
        result = event.result
        if len(self.match.moves) != self.job_ply or result.move is None:
            return  # the position changed: this answer is stale
        side = event.job.to_move
        exact = event.exact_scores or None
        if not self.job_asked:  # the scores' own search: only its scores are wanted
            self.analysis = SearchReport(purpose, side, result.move, result, event.verdict, exact)
            self.analysis_ply = self.job_ply
            return
        has_tree = event.tree_follows or result.tree is not None
        self.searches.append(SearchRecord(self.job_ply, side, purpose, result, event.job_id, has_tree, event.note))
        move = result.move
        if purpose is JobPurpose.HINT and exact:  # the best exact move; the search's if it is one
            best = max(exact.values())
            if exact.get(move) != best:
                move = min(
                    (m for m, score in exact.items() if score == best), key=lambda m: abs(m - self.rules.cols // 2)
                )
        self.report = SearchReport(purpose, side, move, result, event.verdict, exact, event.note, event.outcome)
        if purpose is JobPurpose.HINT:
            self.app.toast = None  # "Looking for a hint..." is answered
            self.hint = (move, event.verdict)
        else:
            self.play_move(move)

    def exact_scores(self) -> dict[int, int] | None:
        """The exact score of each move in the current position, if a search brought them:
        the hint's, or (scores kept on the board) the scores' own search's."""
        report = self.report
        if report is not None and report.purpose is JobPurpose.HINT and report.exact_scores:
            return report.exact_scores
        analysis = self.analysis
        if self.show_scores and analysis is not None and self.analysis_ply == len(self.match.moves):
            return analysis.exact_scores or None
        return None

    def wants_scores(self) -> bool:
        """The column scores are kept on the board and this turn's are still to come."""
        return (
            self.show_scores
            and is_standard(self.rules)
            and self.outcome is None
            and self.drop is None
            and self.job_purpose is None
            and not self.is_computer(self.match.to_move)
            and self.analysis_ply != len(self.match.moves)
            and self.exact_scores() is None  # a hint brought them already
        )

    def on_tree(self, event: TreeReady) -> None:
        """A search's tree arrived after its move: attach it to its record."""
        for records in (self.searches, self.undone_searches):
            for index, record in enumerate(records):
                if record.job_id == event.job_id:
                    records[index] = replace(record, result=replace(record.result, tree=event.tree))

    def move_text(self, move: int) -> str:
        return ("column " if self.rules.gravity else "cell ") + format_move(move, self.rules)

    # -- toolbar actions ---------------------------------------------------------------
    def undo(self) -> None:
        """Take back the last move (against the computer: back to your turn).

        The tally keeps a finished game's result; the hint goes; the searches of the
        moves taken back are kept for Redo."""
        if not self.match.can_undo():
            self.app.show_toast("Nothing to undo")
            return
        self.cancel_search()
        self.finish_drop()
        self.match.undo()
        if self.opponent is Opponent.COMPUTER:
            while self.match.can_undo() and self.is_computer(self.match.to_move):
                self.match.undo()
        plies = len(self.match.moves)
        self.undone_searches = [s for s in self.searches if s.ply >= plies] + self.undone_searches
        self.searches = [s for s in self.searches if s.ply < plies]
        self.after_history_change()

    def redo(self) -> None:
        if not self.match.can_redo():
            self.app.show_toast("Nothing to redo")
            return
        self.cancel_search()
        self.finish_drop()
        side = self.match.to_move
        cell = self.match.redo()
        if self.opponent is Opponent.COMPUTER:
            while self.match.can_redo() and self.is_computer(self.match.to_move):
                side = self.match.to_move
                cell = self.match.redo()
        plies = len(self.match.moves)
        self.searches += [s for s in self.undone_searches if s.ply < plies]
        self.undone_searches = [s for s in self.undone_searches if s.ply >= plies]
        self.after_history_change()
        self.start_drop(cell[0], cell[1], side)

    def after_history_change(self) -> None:
        self.hint = None
        self.report = None
        self.analysis, self.analysis_ply = None, -1
        self.outcome = None
        self.end_timer = None
        self.glow_started = None
        outcome = self.match.outcome()
        if outcome is not None:
            self.on_game_over(outcome)

    def restart(self) -> None:
        self.cancel_search()
        self.finish_drop()
        self.match.restart()
        self.searches.clear()
        self.undone_searches.clear()
        self.hint = None
        self.report = None
        self.analysis, self.analysis_ply = None, -1
        self.outcome = None
        self.counted = False
        self.end_timer = None
        self.glow_started = None

    def open_menu(self) -> None:
        from game.app.scenes.pause import PauseScene

        self.app.stack.push(PauseScene(self))

    def last_tree_index(self) -> int | None:
        """The latest search of the match that has a tree (book and solver answers have none)."""
        return next((i for i in range(len(self.searches) - 1, -1, -1) if self.searches[i].has_tree), None)

    def open_tree(self) -> None:
        if not self.searches:
            self.app.show_toast("No search yet: the tree appears after a computer move or a hint")
            return
        index = self.last_tree_index()
        if index is None:
            self.app.show_toast(NO_TREE_TEXT, 4.0)
            return
        from game.app.tree.scene import TreeScene

        self.app.stack.push(TreeScene(self, index))
        if index != len(self.searches) - 1:
            self.app.show_toast(
                "The last answer came from the opening book or solver (no tree): showing the search before it", 4.0
            )

    # -- the end -----------------------------------------------------------------------
    def on_game_over(self, outcome: Outcome) -> None:
        """The game just ended: count it (once per game), then wait for the disc to land."""
        self.outcome = outcome
        self.cancel_search()
        if not self.counted:
            self.tally(outcome)
        self.end_timer = None
        if self.drop is None:
            self.on_result_shown()

    def on_result_shown(self) -> None:
        """The last disc is in place: the sound, then the result panel after a moment."""
        outcome = self.outcome
        if outcome is None:
            return
        if outcome.winner is None:
            self.app.sounds.play("draw")
        elif self.opponent is Opponent.COMPUTER and outcome.winner != self.human_side:
            self.app.sounds.play("lose")
        else:
            self.app.sounds.play("win")
        self.end_timer = END_DELAY
        self.glow_started = self.app.time

    def tally_key(self, outcome: Outcome) -> tuple[str, str] | None:
        if self.opponent is Opponent.COMPUTER:
            if outcome.winner is None:
                return "tally", "draws"
            return "tally", "wins" if outcome.winner == self.human_side else "losses"
        if self.opponent is Opponent.HUMAN:
            key = "draws" if outcome.winner is None else ("player1" if outcome.winner == MAX else "player2")
            return "two_player_tally", key
        return None

    def tally(self, outcome: Outcome) -> None:
        """Count the result and save it; Undo never takes it back."""
        self.counted = True
        where = self.tally_key(outcome)
        if where is None:
            return
        getattr(self.app.settings, where[0])[where[1]] += 1
        self.app.save_settings()

    def result_text(self) -> str:
        outcome = self.outcome
        if outcome is None:
            return ""
        text = outcome.result_text({MAX: self.side_name(MAX), MIN: self.side_name(MIN)})
        return text + "!" if text.startswith("You ") else text

    # -- frame -----------------------------------------------------------------------
    def update(self, dt: float) -> None:
        if self.drop is not None:
            events = self.drop.update(dt)
            if DropEvent.IMPACT in events and not self.landing_heard:
                self.landing_heard = True
                self.app.sounds.play("land")
            if self.drop.landed:
                self.drop = None
                if self.outcome is not None:
                    self.on_result_shown()
        if self.end_timer is not None:
            self.end_timer -= dt
            if self.end_timer <= 0:
                self.end_timer = None
                from game.app.scenes.game_over import GameOverScene

                self.app.stack.push(GameOverScene(self))
        if self.outcome is None and self.drop is None and self.job_purpose is None:
            side = self.match.to_move
            if self.is_computer(side) and not self.match.is_over():
                if self.opponent is Opponent.DEMO and self.wait < DEMO_PAUSE:
                    self.wait += dt
                    return
                self.wait = 0.0
                self.submit(JobPurpose.MOVE, side)
        if self.wants_scores():
            self.submit(JobPurpose.HINT, self.match.to_move, asked=False)
        self.place_buttons(display_size())

    def is_animating(self) -> bool:
        """Something moves on its own: a falling disc or the winning line's first glow.

        A search under way is not: its progress messages (every 50 ms) each ask for a
        frame through the App, so the window leaves the CPU to the search meanwhile."""
        return self.drop is not None or (
            self.glow_started is not None and self.app.time < self.glow_started + GLOW_SECONDS
        )

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            layout = self.board_layout(display_size())
            if self.rules.gravity:
                col = layout.column_at(event.pos)
                self.hover = None if col is None else (0, col)
            else:
                self.hover = layout.cell_at(event.pos)
            if self.hover is not None:
                self.cursor = self.hover
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.place_buttons(display_size())
            for button in self.buttons.values():
                if button.handle_event(event):
                    return
            self.try_human_move(self.move_at(event.pos))
        elif event.type == pygame.KEYDOWN:
            self.handle_key(event)

    def handle_key(self, event: pygame.event.Event) -> None:
        key, ctrl = event.key, bool(event.mod & pygame.KMOD_CTRL)
        rows, cols = self.rules.rows, self.rules.cols
        row, col = self.cursor
        self.hover = None
        if key == pygame.K_ESCAPE:
            self.open_menu()
        elif key == pygame.K_u or (ctrl and key == pygame.K_z):
            self.undo()
        elif ctrl and key == pygame.K_y:
            self.redo()
        elif key == pygame.K_h:
            self.request_hint()
        elif key == pygame.K_s:
            self.toggle_scores()
        elif key == pygame.K_t:
            self.open_tree()
        elif key == pygame.K_r:
            self.restart()
        elif key in (pygame.K_LEFT, pygame.K_RIGHT):
            self.cursor = (row, (col + (1 if key == pygame.K_RIGHT else -1)) % cols)
        elif key == pygame.K_UP and not self.rules.gravity:
            self.cursor = ((row - 1) % rows, col)
        elif key == pygame.K_DOWN and not self.rules.gravity:
            self.cursor = ((row + 1) % rows, col)
        elif key in (pygame.K_DOWN, pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.try_human_move(self.match.board.move_at((row, col)))
        elif pygame.K_1 <= key <= pygame.K_9 and self.rules.gravity:
            number = key - pygame.K_1
            if number < cols:
                self.cursor = (row, number)
                self.try_human_move(number)

    # -- layout: a pure function of the window size ------------------------------------
    def frame_layout(self, size: tuple[int, int]) -> PlayLayout:
        """Status bar, board and toolbar for a window of ``size``."""
        w, h = size
        top = max(64, int(h * 0.14))
        bottom = max(44, int(h * 0.085))
        status = pygame.Rect(0, 0, w, top)
        board = BoardLayout(self.rules, pygame.Rect(10, top, w - 20, h - top - bottom - 10))
        toolbar = pygame.Rect(0, h - bottom, w, bottom)
        area = toolbar.inflate(-20, -12)
        area.width = min(area.width, 980)
        area.centerx = toolbar.centerx
        buttons = tuple(row_rects(area, len(self.buttons) or 7, 8))
        headline = max(20, min(34, int(top * 0.31)))
        detail = max(15, min(22, int(top * 0.21)))
        return PlayLayout(status, board, toolbar, buttons, headline, detail, int(headline * 2.2), w - 14)

    def board_layout(self, size: tuple[int, int]) -> BoardLayout:
        return self.frame_layout(size).board

    def layout_board(self, surface: pygame.Surface) -> BoardLayout:
        """The board's layout on ``surface`` (kept for callers that hold a surface)."""
        return self.board_layout(surface.get_size())

    def place_buttons(self, size: tuple[int, int]) -> None:
        """Give the toolbar buttons their rects and states (for clicks; each update)."""
        for button, rect in zip(self.buttons.values(), self.frame_layout(size).buttons):
            button.rect = rect
        for name, enabled in self.button_states().items():
            self.buttons[name].enabled = enabled

    def button_states(self) -> dict[str, bool]:
        human_turn = not self.is_computer(self.match.to_move)
        return {
            "undo": self.match.can_undo(),
            "redo": self.match.can_redo(),
            "hint": self.outcome is None and human_turn and self.drop is None,
            "scores": is_standard(self.rules) and self.opponent is not Opponent.DEMO and self.outcome is None,
            "tree": self.last_tree_index() is not None,
        }

    # -- what the status bar says -----------------------------------------------------
    def headline(self) -> str:
        """The first status line: what matters now."""
        if self.outcome is not None:
            return self.result_text()
        side = self.match.to_move
        report = self.report
        if report is not None and report.purpose is JobPurpose.HINT:
            return self.hint_text(report)
        if self.thinking and (report is None or report.side == side):
            return f"{self.side_name(side)} is thinking..."
        if report is not None and report.purpose is JobPurpose.MOVE:  # (computer vs computer: while the other thinks)
            return f"{self.side_name(report.side)} played {self.move_text(report.move)}. {self.standing(report)}"
        if self.opponent is Opponent.COMPUTER:
            return "Your turn" if not self.is_computer(side) else "The computer's turn"
        mark = "ring" if side == MAX else "cross"
        return f"{self.side_name(side)} ({mark}) to move"

    def standing(self, report: SearchReport) -> str:
        """How the game stands after a computer move, from the viewer's side."""
        value = report.result.value
        viewer = self.human_side
        own = value if viewer == MAX else -value
        name, other = self.side_name(viewer), self.side_name(-viewer)
        if report.result.stats.depth == 0:  # perfect play (book or solver), not a search
            exact = report.exact_scores
            if exact and report.move in exact:  # the distance is known: count from now
                score = exact[report.move]  # the mover's, before its move
                if score == 0:
                    return "A draw with perfect play"
                board = self.match.board  # the move is on it; the opponent is to move
                moves = moves_to_end(
                    -score,
                    int((board.grid == -report.side).sum()),
                    int((board.grid == report.side).sum()),
                    self.rules.cells,
                )
                winner = self.side_name(report.side) if score > 0 else self.side_name(-report.side)
                return f"{winner} can force a win in {plural(moves, 'move')}"
            if is_win_value(value):  # only the outcome is known
                return f"{name if own > 0 else other} can force a win (perfect play)"
            return "A draw with perfect play"
        if report.outcome is not None and not is_win_value(value):  # the level's solver knew more
            if report.outcome == 0:
                return "A draw with perfect play"
            winning_side = report.side if report.outcome > 0 else -report.side
            return f"{self.side_name(winning_side)} can force a win (perfect play)"
        plies = plies_to_end(value) - 1 if is_win_value(value) else None  # one ply was just played
        return standing_text(own, plies, name, other, self.rules)

    def hint_text(self, report: SearchReport) -> str:
        """ "Hint: column 4: you win in 18 moves with perfect play", or the search's view."""
        where = self.move_text(report.move)
        exact = report.exact_scores
        you = self.opponent is Opponent.COMPUTER
        subject = "you" if you else self.side_name(report.side).lower()
        other_name = "the computer" if you else self.side_name(-report.side).lower()  # "player 2", never "the opponent"
        if exact and report.move in exact:
            score = exact[report.move]
            if score == 0:
                return f"Hint: {where}: a draw with perfect play"
            board = self.match.board
            own = int((board.grid == report.side).sum())
            other = int((board.grid == -report.side).sum())
            moves = plural(moves_to_end(score, own, other, self.rules.cells), "move")
            if score < 0:  # every move loses: the slowest loss
                return f"Hint: {where}: {other_name} wins in {moves} with perfect play"
            return f"Hint: {where}: {subject} win{'' if you else 's'} in {moves} with perfect play"
        if report.verdict:
            return f"Hint: {where}. From here, {verdict_words(report.verdict, subject, you, other_name)}"
        value = report.result.value
        own_value = value if report.side == MAX else -value
        plies = plies_to_end(value) if is_win_value(value) else None
        name = "You" if you else self.side_name(report.side)
        return f"Hint: {where}. {standing_text(own_value, plies, name, self.side_name(-report.side), self.rules)}"

    def detail(self) -> str:
        """The second status line: the search's statistics, or its progress."""
        scores_only = self.job_purpose is not None and not self.job_asked  # the column scores' own search
        if self.job_purpose is not None and not scores_only:
            progress = self.progress
            # Computer vs computer shows the last move above: say here who thinks.
            who = f"{self.side_name(self.match.to_move)} is thinking" if self.thinking and self.report else "searching"
            if progress is None:
                return f"{who}..."
            level = self.levels[self.match.to_move] if self.thinking else self.levels[-self.match.to_move]
            deep = plural(progress.depth, "ply")
            text = f"{who}, {deep} deep: {plural(progress.nodes, 'position')} so far, {progress.seconds:.1f} s"
            if not level.pruning and not level.time_budget:
                worst = worst_case_positions(self.rules, level.depth)
                share = progress.nodes / worst if worst else 0.0
                text += f" ({share:.1%} of up to {worst:,})"
            return text
        working = "working out the column scores..."
        report = self.report
        if report is None:
            return working if scores_only else ""
        return f"{self.report_detail(report)} · {working}" if scores_only else self.report_detail(report)

    def report_detail(self, report: SearchReport) -> str:
        """What the last search did: depth, nodes, cutoffs, time (or where perfect play read it)."""
        result = report.result
        stats = result.stats
        reached = " (time ran out)" if not result.completed else (" (forced result)" if result.proven else "")
        what = "hint search" if report.purpose is JobPurpose.HINT else "search"
        if stats.depth == 0 and stats.nodes == 0:  # read straight from the opening book
            return f"perfect play: read from the opening book · {stats.seconds:.2f} s"
        if stats.depth == 0:  # the exact solver (or a search down to the book's positions)
            return f"perfect play (opening book + solver): {plural(stats.nodes, 'position')} searched · {stats.seconds:.2f} s"
        if report.note:  # e.g. Hard's endgame solver chose another column than its search
            return f"{report.note} · {stats.seconds:.2f} s"
        return (
            f"{what}: {plural(stats.depth, 'ply')} deep{reached} · {plural(stats.nodes, 'node')} · "
            f"{plural(stats.cutoffs, 'cutoff')} · {stats.seconds:.2f} s · {stats.nodes_per_second / 1000:,.0f}k nodes/s"
        )

    def level_line(self) -> str:
        if self.opponent is Opponent.HUMAN:
            return ""

        def one(level: Level) -> str:
            name = preset_name(level) or f"depth {level.depth}"
            return name if preset_name(level) else f"{name}{'' if level.pruning else ', no pruning'}"

        if self.opponent is Opponent.DEMO and self.levels[MAX] != self.levels[MIN]:
            return f"{one(self.levels[MAX])} vs {one(self.levels[MIN])}"
        level = self.level
        if level.perfect and is_standard(self.rules):  # no search settings: they do not apply
            return f"{preset_name(level) or 'Perfect'} (opening book + solver)"
        text = f"{preset_name(level) or 'Custom'}: depth {level.depth}, alpha-beta {'on' if level.pruning else 'off'}"
        text += f", {level.time_budget:g} s" if level.time_budget else ""
        if level.knows_openings(self.rules):
            text += ", book"
        if level.solves_endgames(self.rules):
            text += f", solves the last {level.endgame_cells}"
        return text

    def tally_line(self) -> str:
        s = self.app.settings
        if self.opponent is Opponent.COMPUTER:
            t = s.tally
            return f"You {t['wins']} · draws {t['draws']} · computer {t['losses']}"
        if self.opponent is Opponent.HUMAN:
            t = s.two_player_tally
            return f"Player 1: {t['player1']} · draws {t['draws']} · player 2: {t['player2']}"
        return ""

    def column_notes(self) -> list[ColumnNote | None]:
        """Each column's exact score, when the scores are shown and known."""
        exact = self.exact_scores()
        if not exact or not self.rules.gravity:
            return []
        p = self.app.theme.palette
        board = self.match.board
        side = self.match.to_move
        own, other = int((board.grid == side).sum()), int((board.grid == -side).sum())
        notes: list[ColumnNote | None] = []
        for col in range(self.rules.cols):
            if col not in exact:
                notes.append(None)
                continue
            short = score_label(exact[col], own, other, self.rules.cells)
            color = p.good if exact[col] > 0 else (p.muted if exact[col] == 0 else p.warning)
            notes.append(ColumnNote(short, color))
        return notes

    def scores_legend(self) -> str:
        """What the column badges count: the winner's own moves, said for whoever is to move."""
        side = self.match.to_move
        if self.opponent is Opponent.COMPUTER:
            mover, mine, other = "you", "your", "the computer"
        else:
            mover, mine, other = self.side_name(side).lower(), "their", self.side_name(-side).lower()
        return (
            f'Column scores, perfect play: "win 3" = {mover} win{"" if mover == "you" else "s"} with {mine} '
            f'3rd move from now; "lose 5" = {other} wins with its 5th.'
        )

    def ghost(self) -> tuple[Cell, int, bool] | None:
        side = self.match.to_move
        if self.outcome is not None or self.drop is not None or self.is_computer(side):
            return None
        board = self.match.board
        if self.rules.gravity:
            col = (self.hover or self.cursor)[1]
            cell = board.cell_of(col)
            return None if cell is None else (cell, side, True)
        row, col = self.hover or self.cursor
        move = board.move_at((row, col))
        return ((row, col), side, False) if board.cell_of(move) is not None else None

    # -- drawing (changes no state) ----------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        assert self.view is not None, "drawn before on_enter"
        theme = self.app.theme
        layout = self.frame_layout(surface.get_size())
        board = self.match.board
        hidden = {(self.drop.row, self.drop.col)} if self.drop else set()
        cursor_col = (self.hover or self.cursor)[1]
        human_turn = not self.is_computer(self.match.to_move) and self.outcome is None
        notes = self.column_notes()
        hint: int | Cell | None = None
        if self.hint is not None:
            move = self.hint[0]
            hint = move if self.rules.gravity else board.cell_of(move)
        outcome = self.outcome if self.drop is None else None  # the line lights up once the disc lands
        runs = outcome.runs if outcome is not None else ()
        sides = [int(board.grid[run[0]]) for run in runs] if self.rules.mode is Mode.FULL_BOARD else None
        self.view.draw(
            surface,
            layout.board,
            board.grid,
            hidden=hidden,
            drop=self.drop,
            highlight_col=cursor_col if human_turn and self.rules.gravity else None,
            highlight_cell=(self.hover or self.cursor) if human_turn and not self.rules.gravity else None,
            ghost=self.ghost(),
            hint=hint,
            glow=runs,
            glow_sides=sides,
            notes=notes,
            last=board.last_cell() if self.drop is None else None,
            t=self.app.time if self.glow_started is None else min(self.app.time, self.glow_started + GLOW_SECONDS),
        )
        if any(notes):
            self.draw_scores_legend(surface, layout.board)
        self.draw_status(surface, layout)
        states = self.button_states()
        for (name, button), rect in zip(self.buttons.items(), layout.buttons):
            button.draw(surface, theme, rect=rect, enabled=states.get(name, True))

    def draw_scores_legend(self, surface: pygame.Surface, board: BoardLayout) -> None:
        """The badges' legend in the margin left of the board, from the badges' row down
        (left out when the margin is too narrow for it)."""
        theme = self.app.theme
        width = board.grid_rect.left - int(board.cell * 0.4) - 12
        if width < 110:
            return
        size = max(13, min(18, board.cell // 4))
        y = float(board.note_rect(0).top)
        for line in theme.wrap(self.scores_legend(), size, width):
            theme.text(surface, line, size, (12, y), color=theme.palette.muted)
            y += size * 1.2

    def draw_status(self, surface: pygame.Surface, layout: PlayLayout) -> None:
        """Headline (big) and detail (small) on the left; level and tally on the right
        when there is room for them beside the texts."""
        theme = self.app.theme
        p = theme.palette
        status = layout.status
        big, small = layout.headline_size, layout.detail_size
        pygame.draw.rect(surface, p.panel, status)
        if self.outcome is None:
            theme.draw_disc(surface, (status.left + big * 1.1, status.top + big), big * 0.6, self.match.to_move)
        headline, detail = self.headline(), self.detail()
        x, right = layout.text_left, layout.text_right
        level_line, tally_line = self.level_line(), self.tally_line()
        side_width = max(theme.font(small).size(level_line)[0], theme.font(small).size(tally_line)[0])
        needs = max(theme.font(big, True).size(headline)[0], theme.font(small).size(detail)[0])
        if x + needs + 24 + side_width > right:  # the level and tally give way (the pause menu has them)
            level_line = tally_line = ""
        else:
            right -= side_width + 24
        size = big
        while size > 14 and theme.font(size, True).size(headline)[0] > right - x:
            size -= 1  # shrink rather than cut the headline
        y = status.top + status.height * 0.16
        theme.text(surface, theme.fit(headline, size, right - x, bold=True), size, (x, y), bold=True)
        color = p.accent if self.job_purpose is not None else p.muted
        searching = self.job_purpose is not None  # a progress line: new text each update, never cached
        theme.text(
            surface, theme.fit(detail, small, right - x), small, (x, y + big * 1.25), color=color, cache=not searching
        )
        edge = layout.text_right
        if level_line:
            theme.text(surface, level_line, small, (edge, y + 4), anchor="topright", color=p.muted)
        if tally_line:
            theme.text(surface, tally_line, small, (edge, y + big * 1.25), anchor="topright", color=p.muted)
