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
  B read the board aloud (spoken output), Esc menu
- X (or Stop, in Hint's place) during a computer move of more than a few seconds: it
  plays the best move found so far
Input for a move is ignored while a disc falls and while the computer thinks.

After each computer move the second line sets its search beside the same search with
pruning switched (``play_jobs.OtherSetting``: estimated, then searched in the worker).
"""

from __future__ import annotations

import enum

import pygame

from ai.levels import Level, solvable
from ai.mcts import MctsResult
from game.app import archive_link
from game.app.animation import DiscDrop, DropEvent, make_drop
from game.app.board_view import BoardLayout, BoardView, ColumnNote
from game.app.navigation import OpenMctsTree, OpenTree, ShowGameOver, ShowPause
from game.app.scene import Scene
from game.app.scenes import play_text as say
from game.app.scenes import play_view
from game.app.scenes.play_jobs import PlayJobs
from game.app.scenes.play_text import Names
from game.app.search_records import SearchRecord, SearchRecords
from game.app.settings import Opponent, Settings
from game.app.widgets import Button, display_size
from game.app.worker_protocol import JobPurpose, TreeReady, TreeSkipped, WorkerEvent
from game.board import Board, Outcome
from game.i18n import N_, _
from game.match import Match
from game.records import Unfinished
from game.rules import MAX, MIN, Cell, Rules

DEMO_PAUSE = 0.35  # seconds between two moves of computer against computer
END_DELAY = 0.9  # seconds of glow before the result panel


class Seat(enum.Enum):
    """Who plays a side."""

    HUMAN = "human"
    COMPUTER = "computer"


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
        self.rules, self.level = rules, level
        self.levels = {MAX: level, MIN: level2 or level}
        self.opponent = opponent = Opponent(opponent)
        self.kind = Unfinished(opponent.value)  # which of the window's unfinished games it is kept as
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
        self.jobs = PlayJobs(self)  # the computer's moves, hints and column scores
        self.records = SearchRecords()  # the searches of this match, for the tree overlay
        self.outcome: Outcome | None = None
        self.counted = False  # this game's result is in the tally (once per game)
        self.end_timer: float | None = None
        self.glow_started: float | None = None  # app time the winning line lit up
        self.wait = 0.0  # demo pause before the next computer move
        self.view: BoardView | None = None
        self.buttons: dict[str, Button] = {}

    @classmethod
    def from_settings(cls, settings: Settings) -> PlayScene:
        level2 = settings.second_level if settings.opponent is Opponent.DEMO else None
        return cls(settings.rules(), settings.level, settings.opponent, first=settings.first, level2=level2)

    # -- life cycle -------------------------------------------------------------------
    def on_enter(self) -> None:
        self.view = BoardView(self.app.theme)
        self.buttons = {
            "undo": Button(N_("Undo"), self.undo, "U"),
            "redo": Button(N_("Redo"), self.redo, "Ctrl+Y"),
            "hint": Button(N_("Hint"), self.jobs.request_hint, "H"),
            "scores": Button(N_("Scores"), self.jobs.toggle_scores, "S"),
            "restart": Button(N_("Restart"), self.restart, "R"),
            "tree": Button(N_("Tree"), self.open_tree, "T"),
            "menu": Button(N_("Menu"), self.open_menu, "Esc"),
        }
        self.stop_button = Button(N_("Stop"), self.jobs.finish, "X")  # in Hint's place during a long move
        self.place_buttons(display_size())

    def on_pause(self) -> None:
        """The search goes on under the menu or the tree; its answer waits for us."""

    def on_resume(self) -> None:
        # Another scene may have used the worker meanwhile (the tree's compare search
        # replaces ours): then ask again.
        self.jobs.resume()

    def on_exit(self) -> None:
        self.jobs.cancel()

    # -- who is who ------------------------------------------------------------------
    def side_name(self, side: int) -> str:
        if self.opponent is Opponent.COMPUTER:
            return _("You") if side == self.human_side else _("The computer")
        if self.opponent is Opponent.DEMO:
            return _("Computer {value}").format(value=1 if side == MAX else 2)
        return _("Player {value}").format(value=1 if side == MAX else 2)

    def is_computer(self, side: int) -> bool:
        return self.seats[side] is Seat.COMPUTER

    @property
    def thinking(self) -> bool:
        return self.jobs.purpose is JobPurpose.MOVE

    def names(self) -> Names:
        return Names(self.side_name(MAX), self.side_name(MIN), self.human_side, self.opponent is Opponent.COMPUTER)

    # -- moves -----------------------------------------------------------------------
    def play_move(self, move: int) -> None:
        """Play ``move`` for the side to move and start its drop animation.

        A move that ends the game ends it now: the result is counted at once, so leaving
        or quitting while the last disc falls still counts it.
        """
        side = self.match.to_move
        row, col = self.match.play(move)
        archive_link.store_in_progress(self)
        self.start_drop(row, col, side)
        self.jobs.hint = None
        self.records.undone.clear()  # a new line: what was undone cannot come back
        self.app.sounds.play("drop")
        outcome = self.match.outcome()
        if outcome is not None:
            self.on_game_over(outcome)

    def start_drop(self, row: int, col: int, side: int) -> None:
        start = -1.0 if self.rules.gravity else row - 0.7
        self.drop = make_drop(row, col, side, start, self.app.settings.motion)  # None: motion off
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
            self.app.show_toast(_("The game is over: R to play again, U to undo"))
            return
        if self.drop is not None:
            return  # input for a move waits until the disc has landed
        side = self.match.to_move
        if self.is_computer(side):
            self.app.show_toast(_("The computer is thinking...") if self.thinking else _("It is the computer's turn"))
            return
        if not self.match.board.is_legal(move):
            what = _("Column {move} is full").format(move=move + 1) if self.rules.gravity else _("That cell is taken")
            self.app.show_toast(what)
            return
        self.jobs.cancel()  # a hint under way is no longer wanted
        self.jobs.report = None
        self.play_move(move)

    def move_at(self, pos: tuple[int, int]) -> int | None:
        layout = self.board_layout(display_size())
        if self.rules.gravity:
            return layout.column_at(pos)
        cell = layout.cell_at(pos)
        return None if cell is None else self.match.board.move_at(cell)

    # -- the computer (``play_jobs``) -------------------------------------------------
    def on_worker_event(self, event: WorkerEvent) -> None:
        """The App hands over what the worker sent about this scene's jobs."""
        if isinstance(event, TreeReady):
            self.records.attach_tree(event.job_id, event.tree)
        elif isinstance(event, TreeSkipped):
            self.records.skip_tree(event.job_id)
        else:
            self.jobs.on_event(event)

    @property
    def searches(self) -> list[SearchRecord]:
        """The searches of the moves on the board, oldest first (the tree overlay's list)."""
        return self.records.done

    @property
    def undone_searches(self) -> list[SearchRecord]:
        return self.records.undone

    def move_text(self, move: int) -> str:
        return say.move_text(move, self.rules)

    # -- toolbar actions ---------------------------------------------------------------
    def undo(self) -> None:
        """Take back the last move (against the computer: back to your turn).

        The tally keeps a finished game's result; the hint goes; the searches of the
        moves taken back are kept for Redo."""
        if not self.match.can_undo():
            self.app.show_toast(_("Nothing to undo"))
            return
        self.jobs.cancel()
        self.finish_drop()
        self.match.undo()
        if self.opponent is Opponent.COMPUTER:
            while self.match.can_undo() and self.is_computer(self.match.to_move):
                self.match.undo()
        self.records.take_back(len(self.match.moves))
        self.after_history_change()

    def redo(self) -> None:
        if not self.match.can_redo():
            self.app.show_toast(_("Nothing to redo"))
            return
        self.jobs.cancel()
        self.finish_drop()
        side = self.match.to_move
        cell = self.match.redo()
        if self.opponent is Opponent.COMPUTER:
            while self.match.can_redo() and self.is_computer(self.match.to_move):
                side = self.match.to_move
                cell = self.match.redo()
        self.records.bring_back(len(self.match.moves))
        self.after_history_change()
        self.start_drop(cell[0], cell[1], side)

    def after_history_change(self) -> None:
        self.jobs.forget_answers()
        self.outcome = None
        self.end_timer = None
        self.glow_started = None
        outcome = self.match.outcome()
        if outcome is not None:
            self.on_game_over(outcome)

    def restart(self) -> None:
        self.jobs.cancel()
        self.finish_drop()
        self.match.restart()
        self.records.clear()
        self.jobs.forget_answers()
        self.outcome = None
        self.counted = False
        self.end_timer = None
        self.glow_started = None

    def open_menu(self) -> None:
        self.app.push(ShowPause(self))

    def open_review(self) -> None:
        self.app.push(archive_link.review_request(self))

    def last_tree_index(self) -> int | None:
        return self.records.last_tree_index()

    def last_mcts(self) -> MctsResult | None:
        """The search of the last answer, where a Monte Carlo level gave it."""
        return self.jobs.report.answer.mcts if self.jobs.report is not None else None

    def open_tree(self) -> None:
        found = self.last_mcts()
        if found is not None:  # a Monte Carlo level's move: its own tree beside minimax, at once
            board = Board(found.tree.rules, found.tree.grid, to_move=found.tree.to_move)
            return self.app.push(OpenMctsTree(board, found.asked, found=found))
        index = self.last_tree_index()
        later_answer = self.records.answered_without_tree_after(index, len(self.match.moves))
        if index is None:
            quiet = _("No search yet: the tree appears after a computer move or a hint")
            self.app.show_toast(_(say.NO_TREE_TEXT) if later_answer else quiet, 4.0)
            return
        self.app.push(OpenTree(self, index))
        if index != len(self.searches) - 1 or later_answer:
            self.app.show_toast(
                _("The last answer came from the opening book or solver (no tree): showing the search before it"), 4.0
            )

    # -- the end -----------------------------------------------------------------------
    def on_game_over(self, outcome: Outcome) -> None:
        """The game just ended: count it (once per game), then wait for the disc to land."""
        self.outcome = outcome
        self.jobs.cancel()
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

    def tally(self, outcome: Outcome) -> None:
        """Count the result and save it; Undo never takes it back."""
        self.counted = True
        archive_link.store_finished(self)
        where = play_view.tally_key(self.opponent, self.human_side, outcome)
        if where is None:
            return
        getattr(self.app.settings, where[0])[where[1]] += 1
        self.app.save_settings()

    def result_text(self) -> str:
        outcome = self.outcome
        if outcome is None:
            return ""
        return say.result_text(outcome.result_text({MAX: self.side_name(MAX), MIN: self.side_name(MIN)}))

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
                self.app.push(ShowGameOver(self))
        if self.outcome is None and self.drop is None and self.jobs.purpose is None:
            side = self.match.to_move
            if self.is_computer(side) and not self.match.is_over():
                if self.opponent is Opponent.DEMO and self.wait < DEMO_PAUSE:
                    self.wait += dt
                    return
                self.wait = 0.0
                self.jobs.submit(JobPurpose.MOVE, side)
        if self.jobs.wants_scores():
            self.jobs.submit(JobPurpose.SCORES, self.match.to_move)
        self.place_buttons(display_size())

    def is_animating(self) -> bool:
        """Something moves on its own: a falling disc or the winning line's first glow.

        A search under way is not: its progress messages (every 50 ms) each ask for a
        frame through the App, so the window leaves the CPU to the search meanwhile."""
        glowing = self.glow_started is not None and self.app.time < self.glow_started + play_view.GLOW_SECONDS
        return self.drop is not None or (glowing and not self.app.theme.still)

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
            for button in play_view.toolbar(self).values():
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
        elif ctrl and key in (pygame.K_c, pygame.K_v, pygame.K_l):
            archive_link.copy_or_paste(self, paste=key == pygame.K_v, link=key == pygame.K_l, shift=event.mod)
        elif key == pygame.K_u or (ctrl and key == pygame.K_z):
            self.undo()
        elif ctrl and key == pygame.K_y:
            self.redo()
        elif key == pygame.K_h:
            self.jobs.request_hint()
        elif key == pygame.K_x:
            self.jobs.finish()
        elif key == pygame.K_s:
            self.jobs.toggle_scores()
        elif key == pygame.K_t:
            self.open_tree()
        elif key == pygame.K_b:
            play_view.read_board(self)
        elif key == pygame.K_v and self.outcome is not None:  # the result panel's key, on the board too
            self.open_review()
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

    def status_line(self) -> str:
        return play_view.status_line(self)

    # -- layout and painting (``play_view``) -----------------------------------------
    def frame_layout(self, size: tuple[int, int]) -> play_view.PlayLayout:
        return play_view.layout_for(self, size)

    def board_layout(self, size: tuple[int, int]) -> BoardLayout:
        return self.frame_layout(size).board

    def layout_board(self, surface: pygame.Surface) -> BoardLayout:
        """The board's layout on ``surface`` (kept for callers that hold a surface)."""
        return self.board_layout(surface.get_size())

    def place_buttons(self, size: tuple[int, int]) -> None:
        """Give the toolbar buttons their rects and states (for clicks; each update)."""
        rects = self.frame_layout(size).buttons
        for button, rect in zip(self.buttons.values(), rects):
            button.rect = rect
        self.stop_button.rect = self.buttons["hint"].rect
        for name, enabled in self.button_states().items():
            self.buttons[name].enabled = enabled

    def button_states(self) -> dict[str, bool]:
        human_turn = not self.is_computer(self.match.to_move)
        return {
            "undo": self.match.can_undo(),
            "redo": self.match.can_redo(),
            "hint": (self.outcome is None and human_turn and self.drop is None) or self.jobs.is_long(),  # or Stop
            "scores": solvable(self.rules) and self.opponent is not Opponent.DEMO and self.outcome is None,
            "tree": self.last_tree_index() is not None or self.last_mcts() is not None,
        }

    # -- what the status bar says (``play_view`` picks, ``play_text`` words) ------------
    def headline(self) -> str:
        return play_view.headline(self)

    def detail(self) -> str:
        return play_view.detail(self)

    def level_line(self) -> str:
        return play_view.level_line(self)

    def tally_line(self) -> str:
        return play_view.tally_line(self)

    def scores_legend(self) -> str:
        return play_view.scores_legend(self)

    def column_notes(self) -> list[ColumnNote | None]:
        return play_view.column_notes(self)

    def draw(self, surface: pygame.Surface) -> None:
        play_view.draw(self, surface)


class PlayHereScene(PlayScene):
    """An unfinished network game played on at this screen by two people: its players named
    as they were, kept as the window's unfinished network game (not its two-player one)."""

    def __init__(self, rules: Rules, level: Level, names: dict[int, str]):
        super().__init__(rules, level, Opponent.HUMAN)
        self.kind = Unfinished.NETWORK
        self.given_names = dict(names)

    def side_name(self, side: int) -> str:
        return self.given_names.get(side) or super().side_name(side)
