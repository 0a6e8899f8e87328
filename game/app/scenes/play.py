"""The play scene: the board, the turn, the computer's thinking and its statistics.

Controls:
- mouse: click a column (a cell without gravity) to drop a disc; the toolbar below
- Left/Right (and Up/Down without gravity) move the cursor; Down/Enter/Space drop
- 1..9 drop in that column
- U or Ctrl+Z undo, Ctrl+Y redo, H hint, T tree, R restart, Esc menu
Input for a move is ignored while a disc falls and while the computer thinks.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pygame

from ai.heuristic import POINT
from ai.levels import Level, preset_name
from ai.search import SearchResult
from ai.values import fmt_value, is_win_value, plies_to_end
from game.app.animation import DiscDrop, DropEvent
from game.app.board_view import BoardLayout, BoardView
from game.app.scene import Scene
from game.app.settings import Settings
from game.app.widgets import Button, row_rects
from game.app.worker import JobFailed, JobProgress, JobPurpose, JobResult, SearchJob, TreeReady, WorkerEvent
from game.board import Outcome
from game.match import Match
from game.notation import format_move
from game.rules import MAX, MIN, Cell, Mode, Rules

HUMAN, COMPUTER = "human", "computer"
DEMO_PAUSE = 0.35  # seconds between two moves of computer against computer
END_DELAY = 0.9  # seconds of glow before the result panel
HINT_VERDICT_SECONDS = 1.0  # solver time for a hint when the level has no time budget
UI_TREE_BUDGET = 1_000_000


@dataclass(frozen=True)
class SearchRecord:
    """A search of this match, kept for the tree overlay."""

    ply: int  # moves played when it was searched
    side: int
    tag: str  # "move" or "hint"
    result: SearchResult  # its tree may still be on its way (see ``PlayScene.on_tree``)
    job_id: int = 0


class PlayScene(Scene):
    name = "play"

    def __init__(self, rules: Rules, level: Level, opponent: str = "computer", first: str = "human"):
        super().__init__()
        self.rules = rules
        self.level = level
        self.opponent = opponent
        if opponent == "computer":
            self.controllers = {MAX: HUMAN, MIN: COMPUTER}
            starter = MAX if first == "human" else MIN
        else:
            kind = HUMAN if opponent == "human" else COMPUTER
            self.controllers = {MAX: kind, MIN: kind}
            starter = MAX
        self.match = Match(rules, first=starter)
        self.drop: DiscDrop | None = None
        self.landing_heard = False
        self.cursor: Cell = (0, rules.cols // 2)
        self.hover: Cell | None = None
        self.job_purpose: JobPurpose | None = None  # MOVE / HINT while the worker works for us
        self.job_ply = 0
        self.progress: JobProgress | None = None
        self.last_info = ""
        self.hint: tuple[int, str | None] | None = None
        self.searches: list[SearchRecord] = []
        self.outcome: Outcome | None = None
        self.tallied: str | None = None  # the tally key counted for the finished game
        self.end_timer: float | None = None
        self.wait = 0.0  # demo pause before the next computer move
        self.view: BoardView | None = None
        self.buttons: dict[str, Button] = {}

    @classmethod
    def from_settings(cls, settings: Settings) -> PlayScene:
        return cls(settings.rules(), settings.level(), settings.opponent, settings.first)

    # -- life cycle -------------------------------------------------------------------
    def on_enter(self) -> None:
        self.view = BoardView(self.app.theme)
        self.buttons = {
            "undo": Button("Undo", self.undo, "U"),
            "redo": Button("Redo", self.redo, "Ctrl+Y"),
            "hint": Button("Hint", self.request_hint, "H"),
            "restart": Button("Restart", self.restart, "R"),
            "tree": Button("Tree", self.open_tree, "T"),
            "menu": Button("Menu", self.open_menu, "Esc"),
        }

    def on_pause(self) -> None:
        self.cancel_search()  # Menu cancels at once; the computer thinks again on resume

    def on_exit(self) -> None:
        self.cancel_search()

    # -- who is who ------------------------------------------------------------------
    def side_name(self, side: int) -> str:
        if self.opponent == "computer":
            return "You" if side == MAX else "The computer"
        if self.opponent == "demo":
            return f"Computer {1 if side == MAX else 2}"
        return f"Player {1 if side == MAX else 2}"

    def is_computer(self, side: int) -> bool:
        return self.controllers[side] == COMPUTER

    @property
    def thinking(self) -> bool:
        return self.job_purpose is JobPurpose.MOVE

    # -- moves -----------------------------------------------------------------------
    def play_move(self, move: int) -> None:
        """Play ``move`` for the side to move and start its drop animation."""
        side = self.match.to_move
        row, col = self.match.play(move)
        self.start_drop(row, col, side)
        self.hint = None
        self.app.sounds.play("drop")

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
        self.play_move(move)

    def move_at(self, pos: tuple[int, int]) -> int | None:
        layout = self.layout_board(pygame.display.get_surface())
        if self.rules.gravity:
            return layout.column_at(pos)
        cell = layout.cell_at(pos)
        return None if cell is None else cell[0] * self.rules.cols + cell[1]

    # -- the computer -----------------------------------------------------------------
    def submit(self, purpose: JobPurpose, side: int) -> None:
        board = self.match.board
        job = SearchJob(
            board.grid.copy(),
            self.rules,
            side,
            self.level.depth,
            pruning=self.level.pruning,
            time_limit=self.level.time_limit,
            record_tree=True,
            tree_budget=UI_TREE_BUDGET,
            verdict_seconds=(self.level.time_budget or HINT_VERDICT_SECONDS) if purpose is JobPurpose.HINT else 0.0,
            purpose=purpose,
        )
        self.app.submit(job, self)
        self.job_purpose = purpose
        self.job_ply = len(self.match.moves)
        self.progress = None

    def cancel_search(self) -> None:
        if self.job_purpose is not None:
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
        purpose, self.job_purpose = self.job_purpose, None
        self.progress = None
        result = event.result
        if len(self.match.moves) != self.job_ply or result.move is None:
            return  # the position changed: this answer is stale
        side = event.job.to_move
        self.searches.append(SearchRecord(self.job_ply, side, (purpose or JobPurpose.MOVE).value, result, event.job_id))
        stats = result.stats
        reached = " (time ran out)" if not result.completed else (" (forced)" if result.proven else "")
        summary = (
            f"depth {stats.depth}{reached}, {stats.nodes:,} nodes, "
            f"{stats.cutoffs:,} cutoffs, {stats.seconds:.2f} s, {stats.nodes_per_second / 1000:,.0f}k nodes/s"
        )
        if purpose is JobPurpose.HINT:
            self.hint = (result.move, event.verdict)
            verdict = f"; {event.verdict}" if event.verdict else ""
            self.last_info = f"Hint: {self.move_text(result.move)} ({summary}){verdict}"
        else:
            self.last_info = (
                f"{self.side_name(side)} played {self.move_text(result.move)}: "
                f"{self.value_text(result.value, side)}, {summary}"
            )
            self.play_move(result.move)

    def value_text(self, value: int, side: int) -> str:
        """A search value said for players: a forced result in words, else the number."""
        if is_win_value(value):
            plies = plies_to_end(value)
            good = (value > 0) == (side == MAX)
            return f"{'forced win' if good else 'forced loss'} in {plies} pl{'y' if plies == 1 else 'ies'}"
        if self.rules.mode is Mode.FULL_BOARD:
            return f"{value / POINT:+.1f} points for player 1 (expected)"
        return f"value {fmt_value(value)} for player 1"

    def on_tree(self, event: TreeReady) -> None:
        """A search's tree arrived after its move: attach it to its record."""
        for index, record in enumerate(self.searches):
            if record.job_id == event.job_id:
                self.searches[index] = replace(record, result=replace(record.result, tree=event.tree))

    def move_text(self, move: int) -> str:
        return ("column " if self.rules.gravity else "cell ") + format_move(move, self.rules)

    # -- toolbar actions ---------------------------------------------------------------
    def undo(self) -> None:
        if not self.match.can_undo():
            self.app.show_toast("Nothing to undo")
            return
        self.cancel_search()
        self.finish_drop()
        self.untally()
        self.match.undo()
        if self.opponent == "computer":
            while self.match.can_undo() and self.is_computer(self.match.to_move):
                self.match.undo()
        self.after_history_change()

    def redo(self) -> None:
        if not self.match.can_redo():
            self.app.show_toast("Nothing to redo")
            return
        self.cancel_search()
        self.finish_drop()
        side = self.match.to_move
        cell = self.match.redo()
        if self.opponent == "computer":
            while self.match.can_redo() and self.is_computer(self.match.to_move):
                side = self.match.to_move
                cell = self.match.redo()
        self.after_history_change()
        self.start_drop(cell[0], cell[1], side)

    def after_history_change(self) -> None:
        self.hint = None
        self.outcome = None
        self.end_timer = None
        self.searches = [s for s in self.searches if s.ply < len(self.match.moves)]
        if self.match.is_over():
            self.on_game_over(self.match.outcome())

    def restart(self) -> None:
        self.cancel_search()
        self.finish_drop()
        self.match.restart()
        self.searches.clear()
        self.hint = None
        self.outcome = None
        self.tallied = None
        self.end_timer = None
        self.last_info = ""

    def open_menu(self) -> None:
        from game.app.scenes.pause import PauseScene

        self.app.stack.push(PauseScene(self))

    def open_tree(self) -> None:
        if not self.searches:
            self.app.show_toast("No search yet: the tree appears after a computer move or a hint")
            return
        from game.app.tree.scene import TreeScene

        self.app.stack.push(TreeScene(self))

    # -- the end -----------------------------------------------------------------------
    def on_landed(self) -> None:
        outcome = self.match.outcome()
        if outcome is not None:
            self.on_game_over(outcome)

    def on_game_over(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.cancel_search()
        if self.tallied is None:
            self.tally(outcome)
        if outcome.winner is None:
            self.app.sounds.play("draw")
        elif self.opponent == "computer" and outcome.winner == MIN:
            self.app.sounds.play("lose")
        else:
            self.app.sounds.play("win")
        self.end_timer = END_DELAY

    def tally_key(self, outcome: Outcome) -> tuple[str, str] | None:
        if self.opponent == "computer":
            key = "draws" if outcome.winner is None else ("wins" if outcome.winner == MAX else "losses")
            return "tally", key
        if self.opponent == "human":
            key = "draws" if outcome.winner is None else ("player1" if outcome.winner == MAX else "player2")
            return "two_player_tally", key
        return None

    def tally(self, outcome: Outcome) -> None:
        where = self.tally_key(outcome)
        if where is None:
            return
        getattr(self.app.settings, where[0])[where[1]] += 1
        self.tallied = ".".join(where)
        self.app.save_settings()

    def untally(self) -> None:
        """Taking back a finished game's last move takes back its count too."""
        if self.tallied is not None and self.outcome is not None:
            table, key = self.tallied.split(".")
            counts = getattr(self.app.settings, table)
            counts[key] = max(0, counts[key] - 1)
            self.app.save_settings()
        self.tallied = None

    def result_text(self) -> str:
        outcome = self.outcome
        if outcome is None:
            return ""
        score = ""
        if self.rules.mode is Mode.FULL_BOARD:
            score = f" {outcome.score[0]} : {outcome.score[1]}"
        if outcome.winner is None:
            return f"Draw{score}"
        name = self.side_name(outcome.winner)
        return f"{name} win{'' if name == 'You' else 's'}{score}" + ("!" if name == "You" else "")

    # -- frame -----------------------------------------------------------------------
    def update(self, dt: float) -> None:
        if self.drop is not None:
            events = self.drop.update(dt)
            if DropEvent.IMPACT in events and not self.landing_heard:
                self.landing_heard = True
                self.app.sounds.play("land")
            if self.drop.landed:
                self.drop = None
                self.on_landed()
        if self.end_timer is not None:
            self.end_timer -= dt
            if self.end_timer <= 0:
                self.end_timer = None
                from game.app.scenes.game_over import GameOverScene

                self.app.stack.push(GameOverScene(self))
        if self.outcome is None and self.drop is None and self.job_purpose is None:
            side = self.match.to_move
            if self.is_computer(side) and not self.match.is_over():
                if self.opponent == "demo" and self.wait < DEMO_PAUSE:
                    self.wait += dt
                    return
                self.wait = 0.0
                self.submit(JobPurpose.MOVE, side)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            layout = self.layout_board(pygame.display.get_surface())
            if self.rules.gravity:
                col = layout.column_at(event.pos)
                self.hover = None if col is None else (0, col)
            else:
                self.hover = layout.cell_at(event.pos)
            if self.hover is not None:
                self.cursor = self.hover
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.layout_toolbar(pygame.display.get_surface())
            self.refresh_buttons()
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
            self.try_human_move(col if self.rules.gravity else row * cols + col)
        elif pygame.K_1 <= key <= pygame.K_9 and self.rules.gravity:
            number = key - pygame.K_1
            if number < cols:
                self.cursor = (row, number)
                self.try_human_move(number)

    # -- drawing ----------------------------------------------------------------------
    def bars(self, surface: pygame.Surface) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        """(status bar, board area, toolbar) for this window size."""
        w, h = surface.get_size()
        top = max(64, int(h * 0.14))
        bottom = max(44, int(h * 0.085))
        return (
            pygame.Rect(0, 0, w, top),
            pygame.Rect(10, top, w - 20, h - top - bottom - 10),
            pygame.Rect(0, h - bottom, w, bottom),
        )

    def layout_board(self, surface: pygame.Surface) -> BoardLayout:
        return BoardLayout(self.rules, self.bars(surface)[1])

    def layout_toolbar(self, surface: pygame.Surface) -> None:
        toolbar = self.bars(surface)[2]
        area = toolbar.inflate(-20, -12)
        area.width = min(area.width, 900)
        area.centerx = toolbar.centerx
        for button, rect in zip(self.buttons.values(), row_rects(area, len(self.buttons), 10)):
            button.rect = rect

    def refresh_buttons(self) -> None:
        human_turn = not self.is_computer(self.match.to_move)
        b = self.buttons
        b["undo"].enabled = self.match.can_undo()
        b["redo"].enabled = self.match.can_redo()
        b["hint"].enabled = self.outcome is None and human_turn and self.drop is None
        b["tree"].enabled = bool(self.searches)

    def status_text(self) -> str:
        if self.outcome is not None:
            return self.result_text()
        side = self.match.to_move
        if self.thinking:
            text = f"{self.side_name(side)} is thinking"
        elif self.opponent == "computer":
            text = "Your turn" if side == MAX else "The computer's turn"
        else:
            text = f"{self.side_name(side)} ({'ring' if side == MAX else 'cross'}) to move"
        if self.rules.mode is Mode.FULL_BOARD:
            first, second = self.match.board.score()
            text += f"  ·  score {first} : {second}"
        return text

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
        move = row * self.rules.cols + col
        return ((row, col), side, False) if board.cell_of(move) is not None else None

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        p = theme.palette
        status, board_area, toolbar = self.bars(surface)
        layout = BoardLayout(self.rules, board_area)
        board = self.match.board
        hidden = {(self.drop.row, self.drop.col)} if self.drop else set()
        cursor_col = (self.hover or self.cursor)[1]
        human_turn = not self.is_computer(self.match.to_move) and self.outcome is None
        hint = None
        if self.hint is not None:
            move = self.hint[0]
            hint = move if self.rules.gravity else divmod(move, self.rules.cols)
        self.view.draw(
            surface,
            layout,
            board.grid,
            hidden=hidden,
            drop=self.drop,
            highlight_col=cursor_col if human_turn and self.rules.gravity else None,
            highlight_cell=(self.hover or self.cursor) if human_turn and not self.rules.gravity else None,
            ghost=self.ghost(),
            hint=hint,
            glow=self.outcome.runs if self.outcome is not None else (),
            last=board.last_cell() if self.drop is None else None,
            t=self.app.time,
        )
        # Status bar.
        pygame.draw.rect(surface, p.panel, status)
        big = max(20, status.height * 36 // 100)
        small = max(14, status.height * 24 // 100)
        side = self.match.to_move
        if self.outcome is None:
            theme.draw_disc(surface, (status.left + big, status.top + big * 0.9), big * 0.55, side)
        x = status.left + big * 2
        right = status.right - 14
        level = preset_name(self.level) or "Custom"
        level_text = f"{level}: depth {self.level.depth}, alpha-beta {'on' if self.level.pruning else 'off'}"
        if self.level.time_budget:
            level_text += f", {self.level.time_budget:g} s"
        if self.opponent == "human":
            level_text = ""
        tally_line = self.tally_line()
        side_width = max(theme.font(small).size(level_text)[0], theme.font(small).size(tally_line)[0])
        room = right - side_width - 24 - x  # what the left texts may use
        if room < 200:  # a narrow window: the level and tally give way
            level_text = tally_line = ""
            room = right - x
        theme.text(
            surface, theme.fit(self.status_text(), big, room, bold=True), big, (x, status.top + big * 0.3), bold=True
        )
        if self.thinking:
            dots = "." * (1 + int(self.app.time * 3) % 3)
            progress = self.progress
            live = (
                f"depth {progress.depth}, {progress.nodes:,} nodes, {progress.seconds:.1f} s"
                if progress
                else "starting"
            )
            theme.text(
                surface, theme.fit(f"{dots} {live}", small, room), small, (x, status.top + big * 1.45), color=p.accent
            )
        elif self.last_info:
            theme.text(
                surface, theme.fit(self.last_info, small, room), small, (x, status.top + big * 1.45), color=p.muted
            )
        if level_text:
            theme.text(surface, level_text, small, (right, status.top + big * 0.35), anchor="topright", color=p.muted)
        if tally_line:
            theme.text(surface, tally_line, small, (right, status.top + big * 1.45), anchor="topright", color=p.muted)
        # Toolbar.
        self.layout_toolbar(surface)
        self.refresh_buttons()
        for button in self.buttons.values():
            button.draw(surface, theme)

    def tally_line(self) -> str:
        s = self.app.settings
        if self.opponent == "computer":
            t = s.tally
            return f"You {t['wins']} · draws {t['draws']} · computer {t['losses']}"
        if self.opponent == "human":
            t = s.two_player_tally
            return f"Player 1: {t['player1']} · draws {t['draws']} · player 2: {t['player2']}"
        return ""
