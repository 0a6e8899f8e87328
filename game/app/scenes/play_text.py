"""What the play screen says: pure functions of (answer, names, rules), no pygame.

The scene keeps input, flow and jobs; every sentence of its status bar is made here, so
a sentence can be changed (and tested) without a window.  Exact results are worded by
``ai.exact`` alone; this module only chooses which one to say and about whom.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ai.answer import Answer, DecidedBy
from ai.cost import full_tree_positions
from ai.exact import ExactScore, column_key, column_label, standing, verdict
from ai.heuristic import POINT
from ai.levels import Level, exact_nodes, preset_name, solvable
from ai.values import is_win_value, plies_to_end
from game.notation import column_letter, format_move
from game.rules import MAX, MIN, STANDARD, Mode, Rules

EVEN_BELOW = 8  # heuristic values under this are "even": a few discs' worth of centre
THREAT_VALUE = 50  # about one open threat (a window with 3 own discs): "slightly" below it
MUCH_FROM = 200  # several threats: "much better"
NO_TREE_TEXT = "No tree to show: that answer came from the opening book or the exact solver, not a depth-limited search"


@dataclass(frozen=True)
class Names:
    """Who is who on this screen: each side's name and whose side values are told from.

    ``viewer`` is the person's side against the computer (player 1 otherwise);
    ``second_person`` is True against the computer ("you win", "the computer wins").
    """

    player1: str
    player2: str
    viewer: int = MAX
    second_person: bool = False

    def of(self, side: int) -> str:
        return self.player1 if side == MAX else self.player2

    def subject(self, side: int) -> str:
        """The name inside a sentence: "you", "the computer", "player 2"."""
        name = self.of(side)
        return name if name.startswith("Computer ") else name.lower()

    def inline(self) -> dict[int, str]:
        return {MAX: self.subject(MAX), MIN: self.subject(MIN)}

    def headline(self) -> dict[int, str]:
        return {MAX: self.player1, MIN: self.player2}


@dataclass(frozen=True)
class Report:
    """What the last answer said: for a MOVE the mover's, for a HINT the asker's."""

    hint: bool
    side: int  # the side that moved (a move) or that asked (a hint)
    answer: Answer

    @property
    def move(self) -> int:
        assert self.answer.move is not None
        return self.answer.move


def plural(count: int, word: str) -> str:
    """ "1 node", "2 nodes", "1,000 nodes", "1 ply", "6 plies"."""
    if count == 1:
        return f"1 {word}"
    return f"{count:,} {word[:-1] + 'ies' if word.endswith('y') else word + 's'}"


def move_text(move: int, rules: Rules) -> str:
    return ("column " if rules.gravity else "cell ") + format_move(move, rules)


def no_scores_reason(answer: Answer, rules: Rules) -> str:
    """Why the exact column scores are not known here: the board, the book, the budget."""
    if not solvable(rules):
        return "exact scores need classic rules with gravity on a board the solver takes"
    if answer.note:  # a damaged book, as the decider says it
        return answer.note
    return f"not proven within {exact_nodes(rules):,} positions here (the values shown are estimates)"


def estimate_text(own_value: int, name: str, rules: Rules) -> str:
    """How the game stands for ``name`` by the heuristic (never said as a fact)."""
    you = name == "You"
    if rules.mode is Mode.FULL_BOARD:
        points = round(own_value / POINT, 1) + 0.0  # + 0.0: an even game is +0.0, never -0.0
        return f"{name} {'expect' if you else 'expects'} {points:+.1f} points (estimate)"
    size = abs(own_value)
    if size < EVEN_BELOW:
        return "The position is even (estimate)"
    word = "slightly " if size < THREAT_VALUE else ("much " if size >= MUCH_FROM else "")
    return f"{name} {'are' if you else 'is'} {word}{'better' if own_value > 0 else 'worse'} (estimate)"


def after_move_exact(report: Report) -> ExactScore | None:
    """The exact result once the reported move is on the board, where it is known."""
    answer = report.answer
    columns = answer.column_scores
    if columns and report.move in columns:
        return columns[report.move].after()
    if answer.exact is not None:
        return answer.exact.after()
    return None


def standing_after_move(report: Report, names: Names, rules: Rules) -> str:
    """How the game stands after a computer move, from the viewer's side."""
    exact = after_move_exact(report)
    if exact is not None:
        return standing(exact, names.headline())
    value = report.answer.value
    if is_win_value(value):  # a forced result inside the horizon, one ply was just played
        return standing(ExactScore(1 if value > 0 else -1, plies_to_end(value) - 1), names.headline())
    own = value if names.viewer == MAX else -value
    return estimate_text(own, names.of(names.viewer), rules)


def played_text(report: Report, names: Names, rules: Rules) -> str:
    """ "The computer played column 5. You are slightly better (estimate)"."""
    return (
        f"{names.of(report.side)} played {move_text(report.move, rules)}. {standing_after_move(report, names, rules)}"
    )


def hint_text(report: Report, names: Names, rules: Rules) -> str:
    """ "Hint: column 4: you win in 18 moves with perfect play", or the search's view."""
    where = move_text(report.move, rules)
    answer = report.answer
    columns = answer.column_scores
    if columns and report.move in columns:
        return f"Hint: {where}: {verdict(columns[report.move], names.inline())}"
    if answer.exact is not None:
        return f"Hint: {where}. From here, {verdict(answer.exact, names.inline())}"
    value = answer.value
    if is_win_value(value):
        return f"Hint: {where}: {verdict(ExactScore(1 if value > 0 else -1, plies_to_end(value)), names.inline())}"
    own_value = value if report.side == MAX else -value
    name = "You" if names.second_person else names.of(report.side)
    return f"Hint: {where}. {estimate_text(own_value, name, rules)}"


def answer_detail(report: Report) -> str:
    """What the last answer cost: depth, nodes, cutoffs, time, or where perfect play read it."""
    answer = report.answer
    seconds = f"{answer.seconds:.2f} s"
    if answer.decided_by is DecidedBy.BOOK and answer.nodes == 0:
        return f"perfect play: read from the opening book · {seconds}"
    if answer.decided_by is DecidedBy.BOOK:
        return f"perfect play (opening book + solver): {plural(answer.nodes, 'position')} searched · {seconds}"
    if answer.decided_by is DecidedBy.SOLVER:
        return f"perfect play (opening book + solver): {plural(answer.nodes, 'position')} searched · {seconds}"
    if answer.note:  # an overrule, a fallback, a stand-in level
        return f"{answer.note} · {seconds}"
    result = answer.result
    if result is None:
        return seconds
    stats = result.stats
    reached = " (budget ran out)" if not result.completed else (" (forced result)" if result.proven else "")
    what = "hint search" if report.hint else "search"
    return (
        f"{what}: {plural(stats.depth, 'ply')} deep{reached} · {plural(stats.nodes, 'node')} · "
        f"{plural(stats.cutoffs, 'cutoff')} · {stats.seconds:.2f} s · {stats.nodes_per_second / 1000:,.0f}k nodes/s"
    )


def progress_text(who: str, depth: int, nodes: int, seconds: float, level: Level, rules: Rules) -> str:
    """The live line while a search runs; a full minimax says its share of the worst case."""
    text = f"{who}, {plural(depth, 'ply')} deep: {plural(nodes, 'position')} so far, {seconds:.1f} s"
    if not level.pruning and not level.node_budget:
        worst = full_tree_positions(rules, level.depth)
        share = nodes / worst if worst else 0.0
        text += f" ({share:.1%} of up to {worst:,})"
    return text


def level_text(level: Level, rules: Rules) -> str:
    """One level in a few words: "Hard: depth 8, alpha-beta on, solves the last 26"."""
    name = preset_name(level)
    if level.perfect and rules == STANDARD:  # no search settings: they do not apply
        return f"{name or 'Perfect'} (opening book + solver)"
    if level.perfect:
        return f"{name or 'Perfect'}: plays Expert here (perfect play is for 6x7)"
    text = f"{name or 'Custom'}: depth {level.depth}, alpha-beta {'on' if level.pruning else 'off'}"
    text += f", {level.node_budget:,} positions" if level.node_budget else ""
    if level.knows_openings(rules):
        text += ", book"
    if level.solves_endgames(rules):
        text += f", solves the last {level.endgame_cells_on(rules)}"
    return text


def short_level(level: Level) -> str:
    name = preset_name(level)
    return name if name else f"depth {level.depth}{'' if level.pruning else ', no pruning'}"


def column_labels(columns: dict[int, ExactScore], cols: int, mover: int) -> list[tuple[str, int] | None]:
    """Each column's badge and its sign for the mover (1 good, 0 draw, -1 bad), or None."""
    return [
        None if col not in columns else (column_label(columns[col], mover), columns[col].pov(mover))
        for col in range(cols)
    ]


def scores_legend(names: Names, side: int) -> str:
    """What the column badges count, said for whoever is to move."""
    return column_key(names.subject(side), names.subject(-side))


def running_score(names: Names, first: int, second: int) -> str:
    """Full-board mode's points so far: "Score: you 3 · the computer 2"."""
    return f"Score: {names.subject(MAX)} {first} · {names.subject(MIN)} {second}"


def result_text(text: str) -> str:
    """The result as announced: a cheer for the person's own win."""
    return text + "!" if text.startswith("You ") else text


def turn_text(names: Names, side: int, against_computer: bool, computer_to_move: bool) -> str:
    """Whose turn it is, with the side's mark where two people share the screen."""
    if against_computer:
        return "The computer's turn" if computer_to_move else "Your turn"
    mark = "ring" if side == MAX else "cross"
    return f"{names.of(side)} ({mark}) to move"


def board_readout(grid: np.ndarray, rules: Rules, names: Names) -> str:
    """The board said column by column, each from the bottom up, for spoken output (B):
    "Column 1: yours, theirs, 4 empty. Column 2: empty. ..." (against the computer; two
    players are "player 1" and "player 2")."""
    if names.second_person:
        owners = {names.viewer: "yours", -names.viewer: "theirs"}
    else:
        owners = {MAX: "player 1", MIN: "player 2"}
    sentences = []
    for col in range(rules.cols):
        words: list[str] = []
        empty = 0
        for row in range(rules.rows - 1, -1, -1):
            side = int(grid[row, col])
            if side == 0:
                empty += 1
                continue
            if empty:
                words.append(_empties(empty))
                empty = 0
            words.append(owners[side])
        if empty == rules.rows:
            words = ["empty"]
        elif empty:
            words.append(_empties(empty))
        elif not (grid[:, col] == 0).any():
            words.append("full")
        name = format_move(col, rules) if rules.gravity else column_letter(col)
        sentences.append(f"Column {name}: {', '.join(words)}.")
    return " ".join(sentences)


def _empties(count: int) -> str:
    return "empty" if count == 1 else f"{count} empty"
