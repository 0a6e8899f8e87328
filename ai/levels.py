"""Computer levels: search depth, pruning, move order, the table, work budgets, and how to explain them.

A level is defined by work, never by wall time: its depth, its search's node budget and
its solver's node budget, so it plays the same move for the same position and seed on
every machine and under any load (the engine's ``movetime`` and ConnectX's
``actTimeout`` are outside clocks, a visible safety cap in ``ai.player``).

The presets run from Beginner (a shallow, noisy judge that still never misses an
immediate win or block) to Perfect (exact play on the standard board).  Each preset's
one-line note says how strong it is, as measured by ``python -m lab.strength``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ai.bitboard import fits_compiled
from ai.cost import full_tree_positions
from ai.search_types import MoveOrder
from game.i18n import N_, _, ngettext
from game.rules import MAX_DEPTH, STANDARD, Mode, Rules

NODE_BUDGETS = (0, 10_000, 50_000, 300_000, 1_000_000, 5_000_000)
"""Search nodes per move offered in the level select; 0 means no limit."""
SOLVER_NODES = 400_000
"""What the exact solver may spend on one move of a level (endgame, opening search) before
the search decides instead: about 0.05 s compiled, about 1 s on the pure-Python path."""


@dataclass(frozen=True)
class Level:
    """How the computer plays: plies ahead, alpha-beta on/off, search nodes per move, move
    order, how roughly it judges positions, what it knows exactly, and its solver's nodes."""

    depth: int = 4
    pruning: bool = True
    node_budget: int = 0  # search nodes per move (0: none): the deepest pass finished within them plays
    order: MoveOrder = MoveOrder.BEST_FIRST
    noise: int = 0  # leaf values blurred by up to this much (seeded): a beginner's judgement
    perfect: bool = False  # exact play on the standard board (elsewhere: the search above)
    book_discs: int = 0  # exact opening moves (the books) up to this many discs, standard board
    endgame_cells: int = 0  # exact moves (the solver, if it finishes in its nodes) from this many empty cells
    endgame_percent: int = 0  # ... or from this share of the cells, where more (``endgame_cells_on``)
    solver_nodes: int = SOLVER_NODES  # the exact solver's nodes per move (endgame, openings, Perfect's distances)
    playouts: int = 0  # Monte Carlo tree search with this many playouts instead of minimax (0: minimax)
    mcts_solver: bool = False  # MCTS-Solver: proven results propagate up MCTS's tree
    mcts_tactics: bool = False  # MCTS's playouts win at once, else block, else play at random
    table: bool = False  # the transposition table (a learner's switch): the same move from fewer nodes

    @property
    def is_mcts(self) -> bool:
        """Whether this level plays Monte Carlo tree search (``ai.mcts``), not minimax."""
        return self.playouts > 0

    @property
    def node_limit(self) -> int | None:
        return self.node_budget or None

    def knows_openings(self, rules: Rules) -> bool:
        """Whether this level plays book moves on ``rules`` (the books: standard board only)."""

        return bool(self.book_discs) and rules == STANDARD

    def solves_endgames(self, rules: Rules) -> bool:
        """Whether this level's solver applies on ``rules`` (classic rules with gravity)."""
        return bool(self.endgame_cells) and rules.gravity and rules.mode is Mode.CLASSIC

    def endgame_cells_on(self, rules: Rules) -> int:
        """The empty cells from which this level tries the solver on ``rules`` (0: never).

        ``endgame_cells``, or ``endgame_percent`` of the board where that is more and the
        compiled solver takes the board: Expert solves the last 28 of 6x7's 42 cells and
        the last 37 of 7x8's 56, where a solve needs more positions for the same empty
        cells.  Boards only the Python solver takes keep the count (the same nodes take it
        35 times as long there)."""
        if not self.solves_endgames(rules):
            return 0
        share = rules.cells * self.endgame_percent // 100 if fits_compiled(rules) else 0
        return max(self.endgame_cells, share)


BEGINNER_NOISE = 60
"""Beginner's blur: about one open three's worth of value, so it misjudges quiet
positions like someone who just learned the rules, yet sees every forced win or loss."""

EASY_NOISE = 40
"""Easy's blur: two thirds of Beginner's, so depth 4 misjudges quiet positions often
enough to stay a step below Medium."""

HARD_ENDGAME_CELLS = 26
"""Hard plays the last 26 cells exactly where the solver finishes within its nodes: Connect
Four's endgames turn on zugzwang that an 8-ply search cannot see (plain depth 8 lost
10 of 72 games to plain depth 2; a solver replay of its lost games found value-losing
moves as late as 23 discs)."""

EXPERT_BOOK_DISCS = 7
EXPERT_ENDGAME_CELLS = 28
EXPERT_ENDGAME_PERCENT = 67
EXPERT_SEARCH_NODES = 300_000
EXPERT_SOLVER_NODES = 4_000_000
"""Expert knows the openings up to 7 discs and the last 28 cells (two thirds of the board:
37 cells on 7x8): a step above Hard, and the middle game (where its search still errs)
leaves Perfect a step above it.  On 7x8 the last 28 cells were not enough (62.5% against
Hard in 36 games; 36 cells: 72.2%; before the threat-parity fix); with 37 it scores 81.2%
over the 64 games of every 7x8 opening.  On connect 5 those games are decided in the
middle game, where no solver reaches: there its deeper search is worth something only
with the connect-5 weights of ``ai.heuristic`` (64.1% against Hard; 53.9% with connect 4's)."""
PERFECT_SOLVER_NODES = 2_000_000
"""Perfect's nodes for the distance to the end (the quickest win, the slowest loss) once
its outcome-keeping move is found; the outcome itself is always searched to the end."""

PRESETS: dict[str, Level] = {
    "Beginner": Level(2, noise=BEGINNER_NOISE),
    "Easy": Level(4, noise=EASY_NOISE),
    "Medium": Level(6),
    "Hard": Level(8, endgame_cells=HARD_ENDGAME_CELLS),
    "Expert": Level(
        MAX_DEPTH,
        node_budget=EXPERT_SEARCH_NODES,
        book_discs=EXPERT_BOOK_DISCS,
        endgame_cells=EXPERT_ENDGAME_CELLS,
        endgame_percent=EXPERT_ENDGAME_PERCENT,
        solver_nodes=EXPERT_SOLVER_NODES,
    ),
    "Perfect": Level(MAX_DEPTH, perfect=True, solver_nodes=PERFECT_SOLVER_NODES),
}

PRESET_TITLES: dict[str, str] = {
    "Beginner": N_("Beginner"),
    "Easy": N_("Easy"),
    "Medium": N_("Medium"),
    "Hard": N_("Hard"),
    "Expert": N_("Expert"),
    "Perfect": N_("Perfect"),
}
"""The presets' names as a person reads them, translated where shown (``level_title``);
the names themselves (``PRESETS``' keys) are what the archive, the command line and the
engine read and write, in English always."""

PRESET_NOTES: dict[str, str] = {
    "Beginner": N_(
        "Looks 2 plies ahead, judges roughly: loses most games to plain depth 2, never misses a win or block."
    ),
    "Easy": N_("Looks 4 plies ahead, a little roughly: scores 81% against Beginner."),
    "Medium": N_("Looks 6 plies ahead: scores 78% against Easy."),
    "Hard": N_("Looks 8 plies ahead, solves the last 26 cells: 75% against Medium, 82% against plain depth 2."),
    "Expert": N_(
        "300,000 positions a move, knows the openings and the last 28 cells (two thirds of bigger boards): "
        "78% against Hard, 97% against depth 4."
    ),
    "Perfect": N_("Never lets a win or a draw slip on 6x7 (book + solver): 76% against Expert, no losses."),
}
"""One line per preset saying how strong it is: 6x7 scores from ``python -m lab.strength``
(``--ladder --openings 18``: 36 games a pair from balanced openings, both colours); in
English, translated where shown (``game.i18n``)."""


DEPTH_PREFIX = "depth:"
MCTS_PREFIX = "mcts:"
MCTS_SOLVER_SUFFIX = "+solver"
MCTS_TACTICS_SUFFIX = "+tactics"
"""``mcts:N+solver+tactics``: MCTS-Solver, tactical playouts (either, both, in any order)."""
MCTS_PLAYOUTS = (0, 1_000, 5_000, 20_000)
"""Playouts a move offered in the level select (0: minimax, the search rows apply)."""
MCTS_MAX_PLAYOUTS = 1_000_000
"""The most playouts ``mcts:N`` takes (``ai.mcts.MAX_PLAYOUTS``)."""


def mcts_level(playouts: int, *, solver: bool = False, tactics: bool = False) -> Level:
    """The level ``mcts:N``: Monte Carlo tree search with ``playouts`` playouts a move,
    nothing else (no book, no exact solver: MCTS as the textbook has it); ``solver`` makes
    it MCTS-Solver (``mcts:N+solver``), ``tactics`` its playouts tactical (``+tactics``)."""
    return Level(playouts=playouts, mcts_solver=solver, mcts_tactics=tactics)


def mcts_name(level: Level) -> str:
    """The name ``find_level`` reads back for an MCTS level: ``mcts:N[+solver][+tactics]``."""
    solver = MCTS_SOLVER_SUFFIX if level.mcts_solver else ""
    return f"{MCTS_PREFIX}{level.playouts}{solver}{MCTS_TACTICS_SUFFIX if level.mcts_tactics else ''}"


class LevelNotFound(ValueError):
    """A level name that is neither a preset nor ``depth:N`` nor ``mcts:N``."""


def level_names() -> list[str]:
    """The names ``find_level`` accepts, for messages and ``--help``."""
    return [name.lower() for name in PRESETS] + [
        f"{DEPTH_PREFIX}N",
        f"{MCTS_PREFIX}N[{MCTS_SOLVER_SUFFIX}][{MCTS_TACTICS_SUFFIX}]",
    ]


def find_level(name: str) -> Level:
    """Return the level called ``name``: a preset (any case), ``depth:N`` (N >= 1) or
    ``mcts:N`` (Monte Carlo tree search with N playouts a move, 1 <= N <= 1,000,000), with
    ``+solver`` (MCTS-Solver) and ``+tactics`` (tactical playouts) after it if wanted.

    Raises:
        LevelNotFound: the name is unknown or N is not a positive whole number.
    """
    text = name.strip()
    for preset, level in PRESETS.items():
        if preset.lower() == text.lower():
            return level
    if text.lower().startswith(DEPTH_PREFIX):
        digits = text[len(DEPTH_PREFIX) :]
        if digits.isascii() and digits.isdigit() and len(digits) <= 4 and int(digits) >= 1:
            return Level(int(digits))
        raise LevelNotFound(f"bad depth in {name!r}: expected depth:N with N >= 1")
    if text.lower().startswith(MCTS_PREFIX):
        digits, *switches = text[len(MCTS_PREFIX) :].lower().replace("+", " +").split(" ")
        known = {MCTS_SOLVER_SUFFIX, MCTS_TACTICS_SUFFIX}
        if set(switches) - known or len(set(switches)) != len(switches):
            raise LevelNotFound(f"bad switch in {name!r}: expected mcts:N{MCTS_SOLVER_SUFFIX}{MCTS_TACTICS_SUFFIX}")
        if digits.isascii() and digits.isdigit() and len(digits) <= 7 and 1 <= int(digits) <= MCTS_MAX_PLAYOUTS:
            return mcts_level(
                int(digits), solver=MCTS_SOLVER_SUFFIX in switches, tactics=MCTS_TACTICS_SUFFIX in switches
            )
        raise LevelNotFound(f"bad playouts in {name!r}: expected mcts:N with N from 1 to {MCTS_MAX_PLAYOUTS:,}")
    raise LevelNotFound(f"unknown level {name!r}: expected one of {', '.join(level_names())}")


def strongest_level() -> str:
    """The name of the strongest preset (the last one), the engine's default."""
    return list(PRESETS)[-1].lower()


def preset_name(level: Level) -> str | None:
    """Return the name of the preset equal to ``level``, if any."""
    for name, preset in PRESETS.items():
        if preset == level:
            return name
    return None


def level_title(name: str) -> str:
    """A level's name (a preset's, as ``PRESETS`` and the archive name it, or any other)
    in the player's language: "Easy" is "Leicht" in German; other names as they are."""
    return _(PRESET_TITLES[name]) if name in PRESET_TITLES else name


def level_label(level: Level) -> str:
    """A level's short name for a person and the archive: the preset's, else "MCTS N" or
    "depth N" (a preset's name in English: ``level_title`` words it for a person)."""
    name = preset_name(level)
    if name is not None:
        return name
    if level.is_mcts:
        label = (_("MCTS-Solver {playouts:,}") if level.mcts_solver else _("MCTS {playouts:,}")).format(
            playouts=level.playouts
        )
        return _("{label}, tactical playouts").format(label=label) if level.mcts_tactics else label
    return _("depth {depth}").format(depth=level.depth)


def exact_knowledge(level: Level, rules: Rules) -> str | None:
    """One sentence on the moves a level plays exactly (book, solver), if any apply here."""
    book, cells = level.knows_openings(rules), level.solves_endgames(rules)
    if book and cells:
        said = _(
            "It plays the opening book up to {discs} discs and solves the last {cells} cells exactly when it "
            "can within {nodes:,} positions; the search decides the rest."
        )
    elif book:
        said = _("It plays the opening book up to {discs} discs; the search decides the rest.")
    elif cells:
        said = _(
            "It solves the last {cells} cells exactly when it can within {nodes:,} positions; "
            "the search decides the rest."
        )
    else:
        return None
    return said.format(discs=level.book_discs, cells=level.endgame_cells_on(rules), nodes=level.solver_nodes)


def describe(level: Level, rules: Rules) -> list[str]:
    """Sentences for the level select: what the setting means and what it costs."""
    if level.is_mcts:
        return _mcts_lines(level)
    depth = level.depth
    worst = full_tree_positions(rules, depth)
    if level.perfect:
        if rules == STANDARD:
            return [
                _("Perfect play: every move keeps the game's exact value (win, draw or loss)."),
                _(
                    "Up to 12 discs it reads the answers from an opening book; after that the exact "
                    "solver works them out. It prefers the quickest win and the slowest loss."
                ),
            ]
        if fits_compiled(rules) and rules.gravity and rules.mode is Mode.CLASSIC:
            return [
                _(
                    "Off the standard 6x7 board Perfect plays exactly wherever the solver proves the "
                    "position within {nodes:,} positions (small boards, and late in the game), "
                    "and like Expert elsewhere."
                ).format(nodes=EXPERT_SOLVER_NODES),
            ]
        return [_("Perfect play is only for the standard 6x7 board with 4 in a row: here it plays like Expert.")]
    lines = [
        ngettext(
            "The computer looks {depth} ply ahead ({depth} disc: its own), then judges the position.",
            "The computer looks {depth} plies ahead ({depth} discs: its own and the opponent's), "
            "then judges the position.",
            depth,
        ).format(depth=depth)
    ]
    known = exact_knowledge(level, rules)
    if known:  # before the search's settings: for these moves they do not apply
        lines.append(known)
    if level.pruning:
        lines.append(
            _(
                "Alpha-beta pruning skips branches that cannot change the choice: the same move "
                "from fewer positions (the full tree has {worst:,})."
            ).format(worst=worst)
        )
    else:
        lines.append(
            _("Depth {depth} without pruning: up to {worst:,} positions, every one visited.").format(
                depth=depth, worst=worst
            )
        )
    if level.node_budget:
        lines.append(
            _(
                "Budget {budget:,} positions: it deepens step by step and plays the deepest "
                "search that finished within them, the same on every machine."
            ).format(budget=level.node_budget)
        )
    else:
        lines.append(_("No budget: it always finishes the full depth."))
    if level.order is MoveOrder.LEFT_TO_RIGHT:
        lines.append(_("Moves tried left to right: the same choice, more positions visited."))
    elif level.order is MoveOrder.CENTRE_FIRST:
        lines.append(_("Moves tried centre first: the same choice, more positions visited."))
    if level.table:
        lines.append(
            _(
                "Transposition table on: a position reached again by another order of the same moves "
                "is answered from the table, not searched again: the same choice from fewer positions."
            )
        )
    if level.noise:
        lines.append(
            _("It judges quiet positions roughly (up to {noise} points off), like a beginner.").format(
                noise=level.noise
            )
        )
    return lines


MCTS_MEASURED: dict[tuple[int, bool, bool], tuple[int, int, int, int]] = {
    (1_000, False, False): (65, 27, 26, 8),
    (1_000, True, False): (67, 35, 23, 10),
    (1_000, False, True): (79, 54, 29, 23),
    (1_000, True, True): (84, 64, 42, 17),
    (5_000, False, False): (72, 58, 44, 19),
    (5_000, True, False): (76, 38, 32, 15),
    (5_000, False, True): (82, 72, 59, 31),
    (5_000, True, True): (89, 84, 56, 29),
    (20_000, False, False): (85, 59, 51, 18),
    (20_000, True, False): (90, 63, 55, 27),
    (20_000, False, True): (97, 84, 74, 39),
    (20_000, True, True): (96, 85, 72, 38),
}
"""Each MCTS level the level screen offers, keyed by (playouts, solver, tactics): its score
in percent against Beginner, Easy, Medium and Hard, from ``python -m lab.strength --mcts``
(``MCTS_MEASURED_GAMES`` seeded games a pair, 6x7; the table and its error bars are in
docs/strength.md)."""
MCTS_MEASURED_GAMES = 72


def _mcts_lines(level: Level) -> list[str]:
    """The level screen's sentences for a level ``mcts:N``: the search, its switches, its strength."""
    lines = [
        _(
            "Monte Carlo tree search: {playouts:,} random games played to the end for each move, "
            "no heuristic; the tree grows where the results look best."
        ).format(playouts=level.playouts)
    ]
    if level.mcts_solver:
        lines.append(
            _(
                "MCTS-Solver: a position whose result is certain (a finished game, a winning move, "
                "every move answered) is proven, the proofs climb the tree, and a proven move is "
                "played at once."
            )
        )
    if level.mcts_tactics:
        lines.append(_("Tactical playouts: a side that can win at once does, else it blocks a win at once."))
    lines.append(_("The random games are seeded: the same position gets the same move on every machine."))
    measured = MCTS_MEASURED.get((level.playouts, level.mcts_solver, level.mcts_tactics))
    if measured:
        beginner, easy, medium, hard = measured
        lines.append(
            _(
                "Measured in {games} seeded games a pair on 6x7: {beginner}% against Beginner, {easy}% against "
                "Easy, {medium}% against Medium, {hard}% against Hard."
            ).format(games=MCTS_MEASURED_GAMES, beginner=beginner, easy=easy, medium=medium, hard=hard)
        )
    return lines


def solvable(rules: Rules) -> bool:
    """Whether the exact solver plays these rules (classic, with gravity)."""
    return rules.gravity and rules.mode is Mode.CLASSIC


OFF_BOARD_LEVEL = "Expert"
"""What Perfect plays where no exact answer exists for every move (off the standard board)."""


def off_board_perfect(rules: Rules) -> Level:
    """Perfect off the standard board: Expert, which on the boards the compiled solver
    takes (``fits_compiled``: up to 64 bits a position, 7x8 or 8x7) tries the solver from the first move,
    so it plays exactly wherever the solver proves the position and like Expert elsewhere:
    with Expert's solver nodes where a solve is expected to finish in them, with a probe of
    a small share before that (``solver_nodes_for``).  Larger boards run the Python solver,
    about 35 times slower, so there Perfect is Expert as it stands."""
    expert = PRESETS[OFF_BOARD_LEVEL]
    if fits_compiled(rules) and solvable(rules):
        return replace(expert, endgame_cells=rules.cells)
    return expert


PROBE_SHARE = 32
"""Before the empty cells where a solve is expected to finish in a level's solver nodes
(``solver_reach``), the solver gets this share of them: enough for the forced wins a
probe finds at once (125,000 of Expert's 4,000,000: about 0.02 s compiled), where the
whole budget ran out on 7x8 in 0.8 s a move before Expert's move was played."""


def solver_reach(rules: Rules) -> int:
    """The most empty cells at which the solver is expected to finish within Expert's
    solver nodes: Expert's own endgame (``Level.endgame_cells_on``), where it always tries.

    Measured on 7x8 (the solver alone, no table carried over, 4,000,000 nodes): every
    position of three games solved from 37 empty cells down (at most 1.7 million nodes),
    about two in three from 38 to 43, one in 33 from 44 to 54."""
    return PRESETS[OFF_BOARD_LEVEL].endgame_cells_on(rules)


def solver_nodes_for(level: Level, rules: Rules, empty: int) -> int:
    """The solver nodes ``level`` spends on a position with ``empty`` cells: all of
    ``level.solver_nodes`` within ``solver_reach`` (every preset's endgame), a probe of
    ``1 / PROBE_SHARE`` beyond it (Perfect off the standard board, early in the game)."""
    if empty <= solver_reach(rules):
        return level.solver_nodes
    return level.solver_nodes // PROBE_SHARE


def level_played(level: Level, rules: Rules) -> Level:
    """The level that plays on ``rules``: Perfect off the standard board is Expert
    (``off_board_perfect``); every other level is itself.  The level select shows its rows."""
    if level.perfect and rules != STANDARD:
        return off_board_perfect(rules)
    return level


HINT_EXACT_NODES = 20_000_000
"""The most a hint (or the column scores) spends on exact column scores before it says
"estimate" instead: about 2 s compiled; the same on every machine."""
PYTHON_EXACT_NODES = 500_000
"""The same for boards the compiled search cannot take (7x9 and larger,
``ai.bitboard.fits_compiled``): the Python search does about 170,000 a second, so a hint
there says "estimate" within about 3 s instead of 2 minutes."""


def exact_nodes(rules: Rules) -> int:
    """The solver nodes a hint or the column scores may spend on these rules: by the
    board, never by the machine, so every machine proves the same positions."""
    return HINT_EXACT_NODES if fits_compiled(rules) else PYTHON_EXACT_NODES
