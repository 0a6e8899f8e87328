"""Where a scene may ask to go: typed requests, which the App's router turns into scenes.

A scene never imports another scene: it hands the App a request (``self.app.push(
OpenAnalysis(board))``), and ``game.app.router`` maps each request type to the scene it
means and builds it.  A request is a frozen dataclass that carries the data the next
screen needs; where it needs the scene it opens over (the game under the pause menu,
the searches under the tree overlay), it carries it as the narrow ``Protocol`` below,
so this module imports no scene.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from ai.levels import Level
from ai.mcts import MctsResult
from ai.review import GameReview
from ai.tree import SearchTree
from game.app.board_view import BoardLayout
from game.app.search_records import SearchRecord
from game.board import Board, Outcome
from game.learn.dashboard import Dashboard
from game.match import Match
from game.net.client import JoinSettings
from game.net.host import HostSettings
from game.puzzle_file import Theme
from game.records import GameRecord, InProgress
from game.rules import MAX, Rules


class Searches(Protocol):
    """What the tree overlay reads of the scene it opens over: the searches to show, the
    levels they played as, the rules and the sides' names."""

    @property
    def rules(self) -> Rules: ...

    @property
    def levels(self) -> Mapping[int, Level]: ...

    @property
    def searches(self) -> Sequence[SearchRecord]: ...

    def side_name(self, side: int) -> str: ...


class GameInPlay(Searches, Protocol):
    """What the pause and game-over menus see of the game under them, and may do to it."""

    @property
    def match(self) -> Match: ...

    @property
    def outcome(self) -> Outcome | None: ...

    def result_text(self) -> str: ...

    def level_line(self) -> str: ...

    def tally_line(self) -> str: ...

    def last_tree_index(self) -> int | None: ...

    def board_layout(self, size: tuple[int, int]) -> BoardLayout: ...

    def restart(self) -> None: ...

    def open_review(self) -> None: ...

    def open_tree(self) -> None: ...


class ThemeChooser(Protocol):
    """What the puzzle themes screen sees of the puzzle screen under it: the dashboard (None
    while the attempts are read), and choosing a theme to play."""

    def dashboard(self) -> Dashboard | None: ...

    def choose_theme(self, theme: Theme) -> None: ...


# -- menus and settings ---------------------------------------------------------------------
@dataclass(frozen=True)
class BackToTitle:
    """Every scene off the stack, then the title menu (Main menu)."""


@dataclass(frozen=True)
class ShowOptions:
    """The options screen."""


@dataclass(frozen=True)
class ShowHelp:
    """How to play: every key."""


@dataclass(frozen=True)
class ShowLevelSelect:
    """The level screen, then a game with the settings' rules and sides."""


# -- games ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class NewGame:
    """A game with the settings' rules, sides and levels."""


@dataclass(frozen=True)
class PlayOn:
    """The level screen, then a game from ``board`` against that level."""

    board: Board


@dataclass(frozen=True)
class PlayFrom:
    """A game from ``board`` against ``level``: the person plays the side to move."""

    board: Board
    level: Level


@dataclass(frozen=True)
class ResumeGame:
    """An unfinished game, ``kept`` in the archive, as it was left: a local game with its
    sides as they were; a network game over the network again (``ResumeNetworkGame``), or,
    where it cannot be, a question first (``PlayHere``)."""

    kept: InProgress


@dataclass(frozen=True)
class PlayHere:
    """An unfinished network game, ``kept``, played on at this screen by two people."""

    kept: InProgress


@dataclass(frozen=True)
class AskFirst:
    """A question over the scene beneath: ``lines`` under the ``title``; Enter (``yes``,
    labelled ``yes_label``) goes where ``then`` says, in place of the question; Esc goes back."""

    title: str
    lines: tuple[str, ...]
    yes_label: str
    then: Request


@dataclass(frozen=True)
class ShowPause:
    """The pause menu over ``game``."""

    game: GameInPlay


@dataclass(frozen=True)
class ShowGameOver:
    """The result banner over ``game``, which just ended."""

    game: GameInPlay


# -- looking back -----------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class OpenReview:
    """The review of a game: ``moves`` from ``start`` (None: the empty board), the sides'
    ``names`` and search ``depths`` (none: a person), its archive id if stored."""

    rules: Rules
    moves: tuple[int, ...]
    start: np.ndarray | None = None
    start_to_move: int = MAX
    names: Mapping[int, str] = field(default_factory=dict)
    depths: Mapping[int, int] = field(default_factory=dict)
    game_id: int | None = None


@dataclass(frozen=True)
class ShowPastGames:
    """The list of stored games."""


@dataclass(frozen=True)
class RetryMistakes:
    """Each mistake of a reviewed game again (the person's sides: those without a depth)."""

    review: GameReview
    depths: Mapping[int, int]
    names: Mapping[int, str]


@dataclass(frozen=True)
class MistakesQueue:
    """The mistakes of the stored ``games``, in one queue (the unreviewed reviewed first)."""

    games: tuple[GameRecord, ...]


@dataclass(frozen=True)
class OpenAnalysis:
    """The analysis board on ``board`` (None: the empty board of the settings' rules)."""

    board: Board | None = None


@dataclass(frozen=True)
class OpenExplorer:
    """The opening explorer after ``moves`` from the empty standard board."""

    moves: tuple[int, ...] = ()


@dataclass(frozen=True)
class ShowPuzzles:
    """The puzzle screen: puzzles near the player's rating, from their games, the daily one."""


@dataclass(frozen=True)
class ShowPuzzleThemes:
    """The themes and the player's solve rate in each, over the puzzle screen (``chooser``)."""

    chooser: ThemeChooser


@dataclass(frozen=True)
class ShowStorm:
    """Storm: three minutes of puzzles from easy to hard, unrated."""


@dataclass(frozen=True)
class ShowStreak:
    """Streak: puzzles of rising difficulty until the first miss, unrated."""


# -- the tree overlay -------------------------------------------------------------------------
@dataclass(frozen=True)
class OpenTree:
    """The tree overlay over ``source``'s searches, at the search ``index`` (None: the last)."""

    source: Searches
    index: int | None = None


@dataclass(frozen=True)
class ShowCodeWalk:
    """The textbook code, line by line, beside its run on ``tree``'s position."""

    tree: SearchTree


@dataclass(frozen=True)
class ShowDepthChart:
    """Depth against truth on ``tree``'s position."""

    tree: SearchTree


@dataclass(frozen=True)
class Practise:
    """ "You are alpha-beta" on ``tree``'s position."""

    tree: SearchTree


# -- network play -------------------------------------------------------------------------------
@dataclass(frozen=True)
class OpenNetwork:
    """The network menu: host, join or watch a game."""


@dataclass(frozen=True)
class OpenJoinForm:
    """The form to join (or ``watch``) a game: the address and code typed so far, and
    ``note``, why the last try did not join."""

    watch: bool = False
    address: str = ""
    code: str = ""
    note: str | None = None


@dataclass(frozen=True)
class HostGame:
    """The network table, hosting a game as ``settings`` say (``fallback``: any free port
    when the usual one is taken)."""

    settings: HostSettings
    fallback: bool = False


@dataclass(frozen=True)
class JoinGame:
    """The network table, joining (or watching) the game ``settings`` name; a join that
    fails goes back to the form, the address and code kept."""

    settings: JoinSettings


@dataclass(frozen=True)
class ResumeNetworkGame:
    """The network table, going on with the unfinished network game ``kept``: its host
    hosts it again, its guest joins the host again."""

    kept: InProgress


# -- the course --------------------------------------------------------------------------------
@dataclass(frozen=True)
class ShowCourse:
    """The course (title -> Learn): its list of lessons, or lesson ``number`` (1-based)."""

    number: int | None = None


@dataclass(frozen=True)
class OpenMctsTree:
    """Monte Carlo tree search beside minimax on ``board``: MCTS with ``playouts`` (seed 0,
    as the window's levels play) and minimax ``depth`` plies deep, the exact solver as referee.
    ``found`` is a search already run (the move just played): shown at once, not run again."""

    board: Board
    playouts: int
    depth: int = 6
    found: MctsResult | None = None


@dataclass(frozen=True)
class ShowMctsChart:
    """MCTS against the truth on ``board``: plain MCTS and MCTS-Solver at each of
    ``budgets`` playouts (seed ``seed``), the exact solver as referee."""

    board: Board
    budgets: tuple[int, ...]
    seed: int = 0


@dataclass(frozen=True)
class ShowTreeBuilder:
    """Trees you build: free building, or exercise ``exercise`` (0-based) of the builder's."""

    exercise: int | None = None


Request = (
    BackToTitle
    | ShowOptions
    | ShowHelp
    | ShowLevelSelect
    | NewGame
    | PlayOn
    | PlayFrom
    | ResumeGame
    | PlayHere
    | AskFirst
    | ShowPause
    | ShowGameOver
    | OpenReview
    | ShowPastGames
    | RetryMistakes
    | MistakesQueue
    | OpenAnalysis
    | OpenExplorer
    | OpenTree
    | ShowCodeWalk
    | ShowDepthChart
    | Practise
    | OpenNetwork
    | OpenJoinForm
    | HostGame
    | JoinGame
    | ResumeNetworkGame
    | ShowCourse
    | OpenMctsTree
    | ShowMctsChart
    | ShowTreeBuilder
    | ShowPuzzles
    | ShowPuzzleThemes
    | ShowStorm
    | ShowStreak
)
"""Every place a scene may ask to go."""
