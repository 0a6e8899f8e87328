"""What the play screen says: pure functions of (answer, names, rules), no pygame.

The scene keeps input, flow and jobs; every sentence of its status bar is made here, so
a sentence can be changed (and tested) without a window.  Exact results are worded by
``ai.exact`` alone; this module only chooses which one to say and about whom.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import cache

import numpy as np

from ai.answer import Answer, DecidedBy
from ai.cost import duration_text, full_tree_positions
from ai.exact import ExactScore, column_key, column_label, standing, verdict
from ai.explain.explanation import Explanation
from ai.heuristic import POINT
from ai.levels import Level, exact_nodes, level_label, level_title, preset_name, solvable
from ai.values import is_win_value, plies_to_end
from game.app.scenes import explain_text
from game.i18n import N_, _, counted, language, number
from game.notation import column_letter, format_move
from game.rules import MAX, MIN, STANDARD, Mode, Rules

EVEN_BELOW = 8  # heuristic values under this are "even": a few discs' worth of centre
THREAT_VALUE = 50  # about one open threat (a window with 3 own discs): "slightly" below it
MUCH_FROM = 200  # several threats: "much better"
NO_TREE_TEXT = N_(
    "No tree to show: that answer came from the opening book or the exact solver, not a depth-limited search"
)


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
        """The name inside a sentence: "you", "the computer", "player 2" (German keeps
        the capital of a noun: "Spieler 2")."""
        name = self.of(side)
        inline = {_("You"): _("you"), _("The computer"): _("the computer")}
        if name in inline:
            return inline[name]
        if name.startswith("Computer ") or language() == "de":
            return name
        return name[:1].lower() + name[1:]

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


@dataclass(frozen=True)
class OtherSetting:
    """A computer move's search with pruning switched: estimated, then (``searched``) measured."""

    ply: int  # the ply of the move it is about
    pruning: bool  # the other setting's pruning
    positions: int
    seconds: float
    searched: bool = False
    job_id: int | None = None  # its search in the worker, while it runs


def plural(count: int, word: str) -> str:
    """ "1 node", "2 nodes", "1,000 nodes", "1 ply", "6 plies"."""
    return counted(count, word)


def move_text(move: int, rules: Rules) -> str:
    return (_("column {move}") if rules.gravity else _("cell {move}")).format(move=format_move(move, rules))


def no_scores_reason(answer: Answer, rules: Rules) -> str:
    """Why the exact column scores are not known here: the board, the book, the budget."""
    if not solvable(rules):
        return _("exact scores need classic rules with gravity on a board the solver takes")
    if answer.note:  # a damaged book, as the decider says it
        return answer.note
    return _("not proven within {exact_nodes:,} positions here (the values shown are estimates)").format(
        exact_nodes=exact_nodes(rules)
    )


def estimate_text(own_value: int, name: str, rules: Rules) -> str:
    """How the game stands for ``name`` by the heuristic (never said as a fact)."""
    you = name in ("You", _("You"))
    if rules.mode is Mode.FULL_BOARD:
        points = round(own_value / POINT, 1) + 0.0  # + 0.0: an even game is +0.0, never -0.0
        return (
            _("You expect {points:+.1f} points (estimate)")
            if you
            else _("{name} expects {points:+.1f} points (estimate)")
        ).format(name=name, points=points)
    size = abs(own_value)
    if size < EVEN_BELOW:
        return _("The position is even (estimate)")
    how = "slightly" if size < THREAT_VALUE else ("much" if size >= MUCH_FROM else "plain")
    better = own_value > 0
    sentences = {
        ("slightly", True): (_("You are slightly better (estimate)"), _("{name} is slightly better (estimate)")),
        ("slightly", False): (_("You are slightly worse (estimate)"), _("{name} is slightly worse (estimate)")),
        ("plain", True): (_("You are better (estimate)"), _("{name} is better (estimate)")),
        ("plain", False): (_("You are worse (estimate)"), _("{name} is worse (estimate)")),
        ("much", True): (_("You are much better (estimate)"), _("{name} is much better (estimate)")),
        ("much", False): (_("You are much worse (estimate)"), _("{name} is much worse (estimate)")),
    }
    return sentences[how, better][0 if you else 1].format(name=name)


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
    name = names.of(report.side)
    said = _("You played {move}. {standing}") if name == _("You") else _("{name} played {move}. {standing}")
    return said.format(
        name=name, move=move_text(report.move, rules), standing=standing_after_move(report, names, rules)
    )


def hint_text(report: Report, names: Names, rules: Rules) -> str:
    """ "Hint: column 4: you win in 18 moves with perfect play", or the search's view."""
    where = move_text(report.move, rules)
    answer = report.answer
    columns = answer.column_scores
    if columns and report.move in columns:
        return _("Hint: {where}: {verdict}").format(where=where, verdict=verdict(columns[report.move], names.inline()))
    if answer.exact is not None:
        return _("Hint: {where}. From here, {verdict}").format(
            where=where, verdict=verdict(answer.exact, names.inline())
        )
    value = answer.value
    if is_win_value(value):
        return _("Hint: {where}: {verdict}").format(
            where=where, verdict=verdict(ExactScore(1 if value > 0 else -1, plies_to_end(value)), names.inline())
        )
    own_value = value if report.side == MAX else -value
    name = _("You") if names.second_person else names.of(report.side)
    return _("Hint: {where}. {estimate_text}").format(where=where, estimate_text=estimate_text(own_value, name, rules))


def why_text(explanation: Explanation | None, names: Names, waiting: bool = False) -> str:
    """The hint's or the column scores' reason in one line ("Why: ..."), "working it out"
    while the worker explains, else nothing."""
    if explanation is not None:
        return explain_text.why_brief(explanation, names.inline())
    return explain_text.working() if waiting else ""


def why_spoken(explanation: Explanation | None, names: Names) -> str:
    """The reason as the voice says it (the explainer's short spoken form), or nothing."""
    return "" if explanation is None else explain_text.why_spoken(explanation, names.inline())


def answer_detail(report: Report) -> str:
    """What the last answer cost: depth, nodes, cutoffs, time, or where perfect play read it."""
    answer = report.answer
    seconds = number(answer.seconds, ".2f") + " s"
    if answer.decided_by is DecidedBy.BOOK and answer.nodes == 0:
        return _("perfect play: read from the opening book · {seconds}").format(seconds=seconds)
    if answer.decided_by is DecidedBy.BOOK:
        return _("perfect play (opening book + solver): {plural} searched · {seconds}").format(
            plural=plural(answer.nodes, "position"), seconds=seconds
        )
    if answer.decided_by is DecidedBy.SOLVER:
        return _("perfect play (opening book + solver): {plural} searched · {seconds}").format(
            plural=plural(answer.nodes, "position"), seconds=seconds
        )
    if answer.note and answer.decided_by is DecidedBy.FALLBACK and answer.nodes:  # a stopped search
        return f"{plural(answer.nodes, 'position')} · {seconds} · {answer.note}"
    if answer.note:  # an overrule, a fallback, a stand-in level
        return f"{answer.note} · {seconds}"
    found = answer.mcts
    if found is not None:
        return _(
            "Monte Carlo tree search: {playouts:,} playouts · {nodes:,} nodes · {seconds} · {rate:,.0f} playouts/s"
        ).format(playouts=found.playouts, nodes=len(found.tree), seconds=seconds, rate=found.playouts_per_second)
    result = answer.result
    if result is None:
        return seconds
    stats = result.stats
    reached = _(" (budget ran out)") if not result.completed else (_(" (forced result)") if result.proven else "")
    what = _("hint search") if report.hint else _("search")
    return _(
        "{what}: {plural} deep{reached} · {plural2} · {plural3} · {seconds:.2f} s · {nodes_per_second:,.0f}k nodes/s"
    ).format(
        what=what,
        plural=plural(stats.depth, "ply"),
        reached=reached,
        plural2=plural(stats.nodes, "node"),
        plural3=plural(stats.cutoffs, "cutoff"),
        seconds=stats.seconds,
        nodes_per_second=stats.nodes_per_second / 1000,
    )


def progress_text(who: str, depth: int, nodes: int, seconds: float, level: Level, rules: Rules) -> str:
    """The live line while a search runs; a full minimax says its share of the worst case."""
    text = _("{who}, {plural} deep: {plural2} so far, {seconds:.1f} s").format(
        who=who, plural=plural(depth, "ply"), plural2=plural(nodes, "position"), seconds=seconds
    )
    if not level.pruning and not level.node_budget:
        worst = full_tree_positions(rules, level.depth)
        share = nodes / worst if worst else 0.0
        text += _(" ({share:.1%} of up to {worst:,})").format(share=share, worst=worst)
    return text


def pruning_line(report: Report, other: OtherSetting) -> str | None:
    """After a computer's move, its search beside the same search with pruning switched:
    "2.9 s, 5,764,801 positions; with alpha-beta 0.04 s, 9,812 positions (searched)";
    the other is "(searched)" after the move in the worker, or "(estimated)" from this
    computer's timing (``ai.cost``), "(estimated; searching)" while its search runs.
    None where the move was not a finished search."""
    result = report.answer.result
    if result is None:
        return None
    stats = result.stats
    if other.searched:
        how = _("searched")
    elif other.job_id is not None:
        how = _("estimated; searching")
    else:
        how = _("estimated")
    said = {
        "seconds": duration_text(stats.seconds),
        "positions": stats.total_nodes,
        "other_seconds": duration_text(other.seconds),
        "other_positions": other.positions,
        "how": how,
    }
    if result.pruning and other.searched:
        text = _("{seconds}, {positions:,} positions; without pruning {other_seconds}, {other_positions:,} ({how})")
    elif result.pruning:
        text = _(
            "{seconds}, {positions:,} positions; without pruning about {other_seconds}, {other_positions:,} ({how})"
        )
    elif other.searched:
        text = _("{seconds}, {positions:,} positions; with alpha-beta {other_seconds}, {other_positions:,} ({how})")
    else:
        text = _(
            "{seconds}, {positions:,} positions; with alpha-beta about {other_seconds}, {other_positions:,} ({how})"
        )
    return text.format(**said)


def long_progress_text(who: str, nodes: int, seconds: float, expected: tuple[int, float], stopping: bool) -> str:
    """The live line of a long search: positions so far against the expected total, and
    how to stop it (or that it is stopping)."""
    positions, total_seconds = expected
    share = min(nodes / positions, 1.0) if positions else 0.0
    text = _("{who}: {nodes:,} of about {positions:,} positions ({share:.0%}), {seconds} of about {total}").format(
        who=who,
        nodes=nodes,
        positions=positions,
        share=share,
        seconds=duration_text(seconds),
        total=duration_text(total_seconds),
    )
    if stopping:
        return text + " · " + _("stopping: the best move so far comes")
    return text + " · " + _("X: stop, play the best so far")


@cache
def no_compiler() -> bool:
    """True where numba is not installed (the packaged program's lite build, or a plain
    install without it): the exact solver is the pure-Python one.  Found, not imported."""
    return importlib.util.find_spec("numba") is None


def slow_perfect_text(who: str) -> str:
    """The live line while Perfect thinks without the compiled solver: why it takes long."""
    return _(
        "{who}... this program has no compiled solver (no numba: the lite build): Perfect thinks longer past the opening book"
    ).format(who=who)


def level_text(level: Level, rules: Rules) -> str:
    """One level in a few words: "Hard: depth 8, alpha-beta on, solves the last 26"."""
    preset = preset_name(level)
    name = level_title(preset) if preset else None
    if level.is_mcts:
        return _("{name}: Monte Carlo tree search, {playouts:,} playouts").format(
            name=name or _("Custom"), playouts=level.playouts
        )
    if level.perfect and rules == STANDARD:  # no search settings: they do not apply
        return _("{value} (opening book + solver)").format(value=name or level_title("Perfect"))
    if level.perfect:
        return _("{value}: plays Expert here (perfect play is for 6x7)").format(value=name or level_title("Perfect"))
    text = (
        _("{name}: depth {depth}, alpha-beta on") if level.pruning else _("{name}: depth {depth}, alpha-beta off")
    ).format(name=name or _("Custom"), depth=level.depth)
    text += _(", {node_budget:,} positions").format(node_budget=level.node_budget) if level.node_budget else ""
    text += _(", transposition table") if level.table else ""
    if level.knows_openings(rules):
        text += _(", book")
    if level.solves_endgames(rules):
        text += _(", solves the last {endgame_cells_on}").format(endgame_cells_on=level.endgame_cells_on(rules))
    return text


def short_level(level: Level) -> str:
    preset = preset_name(level)
    name = level_title(preset) if preset else None
    if level.is_mcts:
        return level_label(level)
    return (
        name
        if name
        else (_("depth {depth}") if level.pruning else _("depth {depth}, no pruning")).format(depth=level.depth)
    )


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
    return _("Score: {subject} {first} · {subject2} {second}").format(
        subject=names.subject(MAX), first=first, subject2=names.subject(MIN), second=second
    )


def result_text(text: str) -> str:
    """The result as announced: a cheer for the person's own win."""
    return text + "!" if text.startswith("You ") else text


def turn_text(names: Names, side: int, against_computer: bool, computer_to_move: bool) -> str:
    """Whose turn it is, with the side's mark where two people share the screen."""
    if against_computer:
        return _("The computer's turn") if computer_to_move else _("Your turn")
    text = _("{name} (ring) to move") if side == MAX else _("{name} (cross) to move")
    return text.format(name=names.of(side))


def board_readout(grid: np.ndarray, rules: Rules, names: Names) -> str:
    """The board said column by column, each from the bottom up, for spoken output (B):
    "Column 1: yours, theirs, 4 empty. Column 2: empty. ..." (against the computer; two
    players are "player 1" and "player 2")."""
    if names.second_person:
        owners = {names.viewer: _("yours"), -names.viewer: _("theirs")}
    else:
        owners = {MAX: _("player 1"), MIN: _("player 2")}
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
            words = [_("empty")]
        elif empty:
            words.append(_empties(empty))
        elif not (grid[:, col] == 0).any():
            words.append(_("full"))
        name = format_move(col, rules) if rules.gravity else column_letter(col)
        sentences.append(_("Column {name}: {join}.").format(name=name, join=", ".join(words)))
    return " ".join(sentences)


def _empties(count: int) -> str:
    return _("empty") if count == 1 else _("{count} empty").format(count=count)
