"""A course in game-tree search: nine lessons, each a page or two of text with a board, an
exercise the game checks, and an existing screen to try it on.

Pure data and checking, no pygame: the window's course scene (``game.app.scenes.course``)
shows a ``Lesson`` and asks ``check`` about an answer; ``python main.py course --list``
prints ``LESSONS``.  Every exercise is a choice among a few options with one set of right
ones.  Where the right answer is a fact of the AI (a node count, the depth the search
turns right, the exact solver's column, MCTS's choice), it is written here beside the
position and ``tests/test_course.py`` works it out again with the real AI, so the data
cannot drift from what the screens show.  The two small-tree lessons compute theirs with
the textbook's own search on the tree (``tree_minimax``, ``alpha_beta_skipped``:
``ai.textbook_tree``).

Texts are in English and marked for translation (``N_``); the scene translates them when
it shows them.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

from ai.textbook_tree import GameTree, alpha_beta, minimax_value
from game.i18n import N_, _

SMALL_TREE: tuple[tuple[int, ...], ...] = ((3, 12, 8), (2, 4, 6), (14, 5, 2))
"""The textbook's two-ply tree (AIMA, figure 5.2): MAX at the root, three MIN nodes, their
leaves' values from MAX's side, left to right."""


def tree_minimax(tree: Sequence[Sequence[int]]) -> int:
    """The root's value of a two-ply tree: MAX of each MIN node's least leaf."""
    return minimax_value(_built(tree))


def alpha_beta_skipped(tree: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """The leaves (branch, leaf; 0-based) alpha-beta never looks at, searching left to right:
    ``ai.textbook``'s alpha-beta run on the two-ply tree (``ai.textbook_tree``)."""
    return sorted((path[0], path[1]) for path in alpha_beta(_built(tree)).cut)


def _built(tree: Sequence[Sequence[int]]) -> GameTree:
    return tuple(tuple(leaves) for leaves in tree)


class Tool(enum.Enum):
    """The existing screen a lesson opens to try what it taught (O in the lesson)."""

    CODE_WALK = "code walk"  # the textbook code beside its replay on the lesson's tree
    PRACTICE = "practice"  # "you are alpha-beta" on the lesson's tree
    TREE = "tree"  # the tree overlay on the lesson's search (O: move orders, C: compare)
    DEPTH_CHART = "depth chart"  # depth against truth on the lesson's position
    ANALYSIS = "analysis"  # the analysis board: every column's exact score
    MCTS_TREE = "mcts tree"  # the MCTS tree beside minimax on the lesson's position
    MCTS_CHART = "mcts chart"  # MCTS against the exact truth, budget by budget, on the lesson's position
    TREE_BUILDER = "tree builder"  # trees you build: predict alpha-beta's cuts, checked


TOOL_NAMES = {
    Tool.CODE_WALK: N_("the replay with the textbook code"),
    Tool.PRACTICE: N_("practice: you are alpha-beta"),
    Tool.TREE: N_("the tree overlay"),
    Tool.DEPTH_CHART: N_("the depth chart"),
    Tool.ANALYSIS: N_("the analysis board"),
    Tool.MCTS_TREE: N_("MCTS beside minimax"),
    Tool.MCTS_CHART: N_("MCTS against the truth"),
    Tool.TREE_BUILDER: N_("trees you build"),
}


@dataclass(frozen=True)
class Exercise:
    """A question with options; ``right`` the indices of the right ones.  ``wrong_notes``
    says why a wrong option is wrong (by index); the others get the hint."""

    question: str
    options: tuple[str, ...]
    right: frozenset[int]
    hint: str
    explanation: str
    wrong_notes: dict[int, str] = field(default_factory=dict)
    translate_options: bool = False  # options are words (translated), not numbers


@dataclass(frozen=True)
class Lesson:
    """One lesson: its number (1-based), a key that names it in the archive for ever, the
    title, the pages, the position (moves from the empty standard board), the search depth
    the tool opens with, the tool, and the exercise."""

    number: int
    key: str
    title: str
    pages: tuple[str, ...]
    moves: str
    depth: int
    tool: Tool
    exercise: Exercise
    shows_small_tree: bool = False  # the lesson's page draws ``SMALL_TREE`` beside the board


def _options(values: Sequence[int]) -> tuple[str, ...]:
    return tuple(str(value) for value in values)


_ROOT_OPTIONS = (2, 3, 8, 12, 14)
_SKIPPED_OPTIONS = (0, 1, 2, 3, 4)
_DEPTH_OPTIONS = (1, 2, 3, 4, 5, 6)
_COLUMNS = (1, 2, 3, 4, 5, 6, 7)
_BUDGET_OPTIONS = (N_("100"), N_("1,000"), N_("10,000"), N_("100,000"), N_("none of them"))
_LEAF_OPTIONS = (3, 5, 7, 9)
_TOO_SHALLOW = N_("At that depth the search still plays a column that gives the win away.")
_NOT_THE_FIRST = N_("At that depth the search plays the winning column, but it already did at a shallower depth.")
_LOSES_FOR_PLAYER_2 = N_("That column loses for player 2 with perfect play.")
_OUTER_LOSES = N_("The outer columns lose with perfect play: a disc there takes part in few lines of four.")

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        1,
        "minimax",
        N_("The game tree and minimax"),
        (
            N_(
                "A game tree starts at the position on the board (the root). Each move leads to a child "
                "position, each reply to a grandchild, and so on. Player 1 is MAX: it wants the value as high "
                "as it can get. Player 2 is MIN: it wants it as low as it can get. At the depth limit a "
                "heuristic gives each position a value."
            ),
            N_(
                "Minimax fills the tree in from the bottom. A MIN node takes the least value of its children "
                "(MIN picks the reply that is worst for MAX); a MAX node takes the greatest. The small tree "
                "under the board has MAX at the top, three MIN nodes, and nine leaves. MAXIMIZE and MINIMIZE "
                "are the two functions the textbook writes for this: O runs them on the board's position, "
                "2 plies deep, line by line."
            ),
        ),
        "4453",
        2,
        Tool.CODE_WALK,
        Exercise(
            N_("In the small tree, what value does MAX get at the root?"),
            _options(_ROOT_OPTIONS),
            frozenset({_ROOT_OPTIONS.index(tree_minimax(SMALL_TREE))}),
            N_("First give each MIN node the least of its three leaves, then let MAX take the greatest of those."),
            N_(
                "The MIN nodes get 3, 2 and 2 (the least of their leaves); MAX takes the greatest of them: 3. "
                "MAX cannot reach 12 or 14, because MIN chooses the reply."
            ),
            {
                _ROOT_OPTIONS.index(12): N_("12 is the best leaf, but MIN would never let MAX reach it."),
                _ROOT_OPTIONS.index(14): N_("14 is the best leaf, but MIN would never let MAX reach it."),
                _ROOT_OPTIONS.index(2): N_("2 is what MIN gets in the middle and right branches; MAX picks another."),
            },
        ),
        shows_small_tree=True,
    ),
    Lesson(
        2,
        "alpha-beta",
        N_("Alpha-beta pruning"),
        (
            N_(
                "Alpha-beta finds the same value as minimax while looking at fewer positions. Alpha is the "
                "best value MAX is already sure of; beta the best MIN is sure of. When a node's value can no "
                "longer matter (alpha >= beta), the rest of its children are skipped: a cutoff."
            ),
            N_(
                "In the small tree, searched left to right: the first MIN node is worth 3, so MAX is sure of "
                "3 (alpha = 3). In the second MIN node the first leaf is 2: MIN can already hold MAX to 2 "
                "or less, which is worse for MAX than 3. Does the search still need that node's other leaves? "
                "The third node starts with 14, then 5, then 2."
            ),
        ),
        "4453",
        2,
        Tool.PRACTICE,
        Exercise(
            N_("How many leaves of the small tree does alpha-beta never look at?"),
            _options(_SKIPPED_OPTIONS),
            frozenset({_SKIPPED_OPTIONS.index(len(alpha_beta_skipped(SMALL_TREE)))}),
            N_(
                "A MIN node can stop as soon as one leaf is no more than alpha (3): MAX will not go there. "
                "Which node finds such a leaf before its last one?"
            ),
            N_(
                "Two: in the middle node the first leaf, 2, is already below alpha = 3, so its leaves 4 and 6 "
                "are cut. The third node only reaches 2 at its last leaf, so nothing is left to cut there. "
                "The root is still worth 3."
            ),
            {
                _SKIPPED_OPTIONS.index(0): N_(
                    "The middle node's first leaf, 2, is below alpha = 3: its other leaves are cut."
                ),
                _SKIPPED_OPTIONS.index(4): N_(
                    "The third node's leaves 14 and 5 are above alpha = 3, so the search must go on to its last leaf."
                ),
            },
        ),
        shows_small_tree=True,
    ),
    Lesson(
        3,
        "move-order",
        N_("Move order"),
        (
            N_(
                "Alpha-beta cuts the most when the best move is searched first: its value sets alpha (or "
                "beta) early, and the weaker moves are refuted quickly. Searched worst first, it cuts "
                "almost nothing."
            ),
            N_(
                "In Connect Four the centre columns take part in more lines of four, so they are usually "
                "the best moves. The position on the board is searched twice, 4 plies deep, with the same "
                "pruning: once trying the columns left to right, once centre first. Predict first, then "
                "open the tree and press O to compare the move orders."
            ),
        ),
        "44",
        4,
        Tool.TREE,
        Exercise(
            N_("Which search visits fewer positions?"),
            (N_("left to right"), N_("centre first"), N_("both visit the same number")),
            frozenset({1}),
            N_("Which columns are usually best in Connect Four, and when does alpha-beta cut the most?"),
            N_(
                "Centre first: 335 positions against 853 left to right. Both choose the same column with "
                "the same value; only the work differs. The levels go one step further and try the "
                "previous pass's best move first (335 becomes 301)."
            ),
            {
                2: N_("The value and the move are the same, but the number of positions depends on the order."),
            },
            translate_options=True,
        ),
    ),
    Lesson(
        4,
        "horizon",
        N_("Depth and the horizon"),
        (
            N_(
                "A search sees nothing beyond its depth: the horizon. A threat that only shows a few moves "
                "later looks like a quiet position, and the heuristic's guess decides. Looking deeper "
                "costs more positions, but moves the horizon further out."
            ),
            N_(
                "Here player 1 is to move and wins with perfect play, but only with one column. The depth "
                "chart searches this position at every depth from 1 up and shows, for each depth, whether "
                "the move it chooses keeps the win (the exact solver is the judge)."
            ),
        ),
        "56377543127623374272",
        3,
        Tool.DEPTH_CHART,
        Exercise(
            N_("From which depth on does the search choose the winning move?"),
            _options(_DEPTH_OPTIONS),
            frozenset({_DEPTH_OPTIONS.index(3)}),
            N_(
                "Open the depth chart (O): the marks beside the bars are this position. Find the first depth "
                "whose mark is a circle (its move keeps the win), not a square."
            ),
            N_(
                "Depth 3. At depths 1 and 2 the search plays column 5 or another column that gives the win "
                "away; from depth 3 on it sees far enough to play column 4, the only column that keeps the win."
            ),
            {
                _DEPTH_OPTIONS.index(1): _TOO_SHALLOW,
                _DEPTH_OPTIONS.index(2): _TOO_SHALLOW,
                _DEPTH_OPTIONS.index(4): _NOT_THE_FIRST,
                _DEPTH_OPTIONS.index(5): _NOT_THE_FIRST,
                _DEPTH_OPTIONS.index(6): _NOT_THE_FIRST,
            },
        ),
    ),
    Lesson(
        5,
        "evaluation",
        N_("Evaluation functions"),
        (
            N_(
                "At the depth limit the heuristic judges a position without looking further. It counts each "
                "side's threats (empty cells that would complete four in a line), its open windows (four "
                "cells in a line that only one side holds, more for more discs) and a bonus for the centre."
            ),
            N_(
                "A heuristic is a guess. Here player 2 is to move. Searching 1 ply deep, the heuristic's "
                "favourite is column 2. The exact solver plays every line to the end. Open the tree: its "
                "detail panel shows the heuristic's value of each column beside the exact verdict."
            ),
        ),
        "576373335611556162765",
        1,
        Tool.TREE,
        Exercise(
            N_("Which column wins for player 2 with perfect play?"),
            _options(_COLUMNS),
            frozenset({0, 3}),  # columns 1 and 4: both keep player 2's win
            N_(
                "Open the tree (O) and click each column's node: the detail panel gives its exact verdict "
                "(perfect play: who wins)."
            ),
            N_(
                "Columns 1 and 4 both win for player 2 (column 4 the quickest). The heuristic's column 2 "
                "loses: it counts windows and threats now, and cannot see the reply that wins for player 1 "
                "a few moves later."
            ),
            {
                1: N_("Column 2 is the heuristic's favourite, but the exact solver says it loses."),
                2: _LOSES_FOR_PLAYER_2,
                4: _LOSES_FOR_PLAYER_2,
                5: _LOSES_FOR_PLAYER_2,
                6: _LOSES_FOR_PLAYER_2,
            },
        ),
    ),
    Lesson(
        6,
        "exact",
        N_("Exact solving"),
        (
            N_(
                "Connect Four on 6x7 is solved: with perfect play the first player wins. The exact solver "
                "searches to the end of the game, with tricks that make that possible: bitboards (the board "
                "as two whole numbers, four in a row found with a few shifts), a transposition table (a "
                "position reached by different move orders is solved once) and good move ordering."
            ),
            N_(
                "For the first 12 discs it reads the answer from an opening book instead, computed once and "
                "shipped with the game. That is why Perfect knows: it never guesses, it looks up or proves. "
                "The analysis board shows the exact score of every column."
            ),
        ),
        "",
        4,
        Tool.ANALYSIS,
        Exercise(
            N_("On the empty board, in which column must player 1 start to keep the win?"),
            _options(_COLUMNS),
            frozenset({3}),
            N_("Open the analysis board (O) and look at the exact scores above the columns."),
            N_(
                "Column 4, the centre: it wins with perfect play (on the 41st disc at the latest). Columns 3 "
                "and 5 only draw, and the outer columns lose."
            ),
            {
                0: _OUTER_LOSES,
                1: _OUTER_LOSES,
                2: N_("Column 3 only draws with perfect play."),
                4: N_("Column 5 only draws with perfect play."),
                5: _OUTER_LOSES,
                6: _OUTER_LOSES,
            },
        ),
    ),
    Lesson(
        7,
        "mcts",
        N_("Monte Carlo tree search against minimax"),
        (
            N_(
                "Monte Carlo tree search (MCTS) needs no heuristic. It plays random games to the end "
                "(playouts) and grows a tree where the results look best. Each playout: selection (down "
                "the tree by the highest UCB, the mean result plus a bonus for rarely tried moves), "
                "expansion (one new node), the playout itself, and back-up (every node on the path counts "
                "the visit and the result)."
            ),
            N_(
                "After its playouts MCTS plays the most-visited move. Minimax looks at every move to a fixed "
                "depth; MCTS looks deep along a few lines. Open the two side by side on this position: "
                "MCTS with 5,000 playouts and minimax at depth 6, with the exact solver as referee."
            ),
        ),
        "44",
        6,
        Tool.MCTS_TREE,
        Exercise(
            N_("Do MCTS (5,000 playouts) and minimax (depth 6) choose the same column here?"),
            (N_("yes"), N_("no")),
            frozenset({1}),
            N_("Open MCTS beside minimax (O) and compare the two columns they choose."),
            N_(
                "No: minimax plays column 4, the only column the exact solver says keeps the win; MCTS's "
                "random playouts favour column 3 after 5,000 of them. More playouts, or playouts that are "
                "less random, bring MCTS closer."
            ),
            {0: N_("Look again: the two searches choose different columns here.")},
            translate_options=True,
        ),
    ),
    Lesson(
        8,
        "mcts-truth",
        N_("MCTS against the truth"),
        (
            N_(
                "MCTS's choice gets better with more playouts, but how many does it need? The chart runs MCTS "
                "on this position with 100, 1,000, 10,000 and 100,000 playouts (each search afresh, seed 0) "
                "and asks the exact solver whether the column it chooses keeps the win."
            ),
            N_(
                "It runs a second MCTS beside it: MCTS-Solver, which proves positions near the end of the game "
                "(a finished game, a winning move, every move answered) and passes the proofs up its tree. "
                "So early in the game it proves nothing; in an endgame it often proves the result after a "
                "few hundred playouts."
            ),
        ),
        "44",
        6,
        Tool.MCTS_CHART,
        Exercise(
            N_("From which budget on does plain MCTS choose column 4, the only column that keeps the win?"),
            _BUDGET_OPTIONS,
            frozenset({3}),
            N_(
                "Open the chart (O): under each budget stands the column each search chose, struck out where it gives the win away."
            ),
            N_(
                "100,000: with 100, 1,000 and 10,000 playouts MCTS chooses columns 3, 2 and 5, each of which "
                "gives the win away; only the biggest budget finds column 4. MCTS-Solver chooses the same "
                "columns here: 40 discs before the end, it proves nothing."
            ),
            {4: N_("Look at the last bars: at one of the budgets MCTS does keep the win.")},
            translate_options=True,
        ),
    ),
    Lesson(
        9,
        "build-trees",
        N_("Trees you build"),
        (
            N_(
                "Now build trees of your own: 2 to 4 plies, 2 to 4 moves a node, leaf values typed or drawn at "
                "random. Mark the branches you expect alpha-beta to cut; Enter runs the textbook's alpha-beta "
                "(the code of lesson 1) on your tree and shows its cuts beside your marks."
            ),
            N_(
                "Change the order of the moves and the cuts move: O sorts every node's moves best first (the "
                "most cuts alpha-beta can make), W worst first. The builder's exercises (E) ask you to mark "
                "cuts and to find orders, and check your answers."
            ),
        ),
        "4453",
        2,
        Tool.TREE_BUILDER,
        Exercise(
            N_(
                "In the small tree of lesson 1 (the builder's first exercise), sort the moves best first (O): "
                "how many of the 9 leaves does alpha-beta look at then?"
            ),
            _options(_LEAF_OPTIONS),
            frozenset({_LEAF_OPTIONS.index(5)}),
            N_(
                "Open the builder (O), press E for the textbook's tree, then O, then Enter: the verdict counts the leaves."
            ),
            N_(
                "5: the move worth 3 comes first, and with its leaves in order (3, 8, 12) MAX is sure of 3 after "
                "three leaves; each other MIN node is cut after its first leaf, 2. As given (7 leaves) the middle "
                "node alone was cut early; worst first, alpha-beta looks at all 9."
            ),
            {
                _LEAF_OPTIONS.index(7): N_("7 is the tree as given, searched left to right; best first cuts more."),
                _LEAF_OPTIONS.index(9): N_("9 is every leaf: that is the worst order (W), not the best."),
            },
        ),
        shows_small_tree=True,
    ),
)
"""The course, in order."""

MCTS_PLAYOUTS = 5_000
MCTS_SEED = 0
"""What lesson 7's MCTS runs: its playouts and seed (the tests check its move against these);
lesson 8's chart runs ``ai.mcts_table.BUDGETS`` with the same seed."""


class CourseError(ValueError):
    """A lesson number or an answer that does not exist."""


def lesson(number: int) -> Lesson:
    """Lesson ``number`` (1-based).

    Raises:
        CourseError: no such lesson.
    """
    if not 1 <= number <= len(LESSONS):
        raise CourseError(f"there is no lesson {number}: the course has lessons 1 to {len(LESSONS)}")
    return LESSONS[number - 1]


@dataclass(frozen=True)
class Verdict:
    """What the game says about an answer: right or not, and why (``detail``: the
    explanation or what is wrong; ``said``: the whole sentence, as spoken)."""

    right: bool
    detail: str

    @property
    def said(self) -> str:
        if self.right:
            return _("Right. {explanation}").format(explanation=self.detail)
        return _("Not quite. {note}").format(note=self.detail)


def check(chosen: Lesson, answer: int) -> Verdict:
    """Check ``answer`` (the 0-based index of an option) to ``chosen``'s exercise: a right one
    gets the explanation, a wrong one what is wrong with it (or the hint).

    Raises:
        CourseError: ``answer`` is not an option.
    """
    exercise = chosen.exercise
    if not 0 <= answer < len(exercise.options):
        raise CourseError(f"lesson {chosen.number} has options 1 to {len(exercise.options)}, not {answer + 1}")
    if answer in exercise.right:
        return Verdict(True, _(exercise.explanation))
    return Verdict(False, _(exercise.wrong_notes.get(answer, exercise.hint)))


def option_text(exercise: Exercise, index: int) -> str:
    """An option as shown: words translated, numbers as they are."""
    option = exercise.options[index]
    return _(option) if exercise.translate_options else option


def option_keys(exercise: Exercise) -> tuple[str, ...]:
    """The key that answers each option, as shown on it: the number itself where every
    option is one digit ("0".."4": pressing 2 answers "2"), else letters "A", "B", ...
    (a number key would answer another number than its own)."""
    options = exercise.options
    if not exercise.translate_options and all(len(option) == 1 and option.isdigit() for option in options):
        if len(set(options)) == len(options):
            return options
    return tuple(chr(ord("A") + index) for index in range(len(options)))


def answer_for_key(exercise: Exercise, name: str) -> int | None:
    """The option the key named ``name`` ("2", "b") answers; None: none."""
    keys = option_keys(exercise)
    name = name.upper()
    return keys.index(name) if name in keys else None


def list_lines() -> list[str]:
    """``course --list``: one line per lesson, "N. Title (tool)"."""
    return [
        _("{number}. {title} (try it: {tool})").format(
            number=item.number, title=_(item.title), tool=_(TOOL_NAMES[item.tool])
        )
        for item in LESSONS
    ]
