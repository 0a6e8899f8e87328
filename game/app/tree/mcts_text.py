"""The sentences of MCTS beside minimax: pure functions of the searches, the node shown and
the replay step, tested without pygame (``game.app.tree.mcts_scene`` draws them)."""

from __future__ import annotations

from collections.abc import Mapping

from ai.exact import ExactScore
from ai.mcts import DRAW, MAX_WON, MctsNode, MctsResult, Proved
from ai.search import SearchResult
from game.app.tree.mcts_replay import Phase, Step
from game.i18n import _
from game.notation import format_move
from game.rules import MAX, Rules


def side_words(side: int) -> str:
    return _("player 1") if side == MAX else _("player 2")


def result_words(result: int) -> str:
    """A playout's result (half points from MAX's side) in words."""
    if result == MAX_WON:
        return _("player 1 won")
    if result == DRAW:
        return _("a draw")
    return _("player 2 won")


def node_lines(node: MctsNode, rules: Rules, at: tuple[int, float | None, float | None] | None = None) -> list[str]:
    """The detail panel: where the node is, its visits, its mean result and its UCB (``at``:
    those as of a replay step, else the whole search's)."""
    path = " ".join(format_move(move, rules) for move in node.path())
    where = _("The root (the position on the board)") if not path else _("After {moves}").format(moves=path)
    visits, mean, ucb = (node.visits, node.mean, node.ucb) if at is None else at
    lines = [where, _("Visits: {visits:,}").format(visits=visits)]
    if node.move is not None and mean is not None:
        lines.append(
            _("Mean result for {side}, who moved here: {mean:.3f} (1 = every playout won)").format(
                side=side_words(node.mover), mean=mean
            )
        )
        if ucb is not None:
            lines.append(_("UCB: {ucb:.3f} = mean + exploration bonus").format(ucb=ucb))
    if node.game_over is not None:
        lines.append(_("The game is over here: {result}").format(result=result_words(node.game_over)))
    elif node.tree.solver and node.proof is not None:
        if node.proof == DRAW:
            lines.append(_("MCTS-Solver proved it: a draw from here with perfect play"))
        else:
            winner = MAX if node.proof == MAX_WON else -MAX
            lines.append(
                _("MCTS-Solver proved it: {side} wins from here with perfect play").format(side=side_words(winner))
            )
    return lines


def step_line(step: Step, rules: Rules, playouts: int, expanded_move: int | None) -> str:
    """What the replay's step did (``expanded_move``: the move of the node it expanded)."""
    playout = step.playout
    head = _("Playout {number:,} of {count:,}").format(number=step.number + 1, count=playouts)
    if step.phase is Phase.SELECTION:
        said = _("selection: down the tree by the highest UCB, {plies} moves").format(plies=len(playout.path) - 1)
    elif step.phase is Phase.EXPANSION:
        said = (
            _("expansion: one new node, the move {move}").format(move=format_move(expanded_move, rules))
            if expanded_move is not None
            else _("expansion: none, the game is over at this node")
        )
    elif step.phase is Phase.PLAYOUT:
        said = _("playout: {moves} random moves to the end, {result}").format(
            moves=len(playout.moves), result=result_words(playout.result)
        )
    else:
        said = _("back-up: every node on the path counts the visit and the result ({result})").format(
            result=result_words(playout.result)
        )
    return f"{head}: {said}"


SHOWN_PLAYOUT_MOVES = 16
"""The random moves of a playout the replay lists (the rest: "...")."""


def playout_moves_line(moves: tuple[int, ...], rules: Rules) -> str:
    """ "Random moves: 4 1 7 ...": the playout's moves, as many as stay readable."""
    shown = " ".join(format_move(move, rules) for move in moves[:SHOWN_PLAYOUT_MOVES])
    more = " ..." if len(moves) > SHOWN_PLAYOUT_MOVES else ""
    return _("Random moves: {moves}").format(moves=shown + more)


def comparison_lines(
    found: MctsResult,
    minimax: SearchResult | None,
    exact: Mapping[int, ExactScore] | None,
    rules: Rules,
    to_move: int,
) -> list[str]:
    """Side by side: the move each search chooses, the positions each looked at, whether
    they agree, and the exact solver's verdict as referee."""
    lines = [
        _("MCTS ({playouts:,} playouts): column {move}, {nodes:,} nodes in its tree").format(
            playouts=found.playouts, move=format_move(found.move or 0, rules), nodes=len(found.tree)
        )
    ]
    if found.proved is not None:
        lines.append(
            _("MCTS-Solver proved the position after {playouts:,} playouts: a {result} for {side}").format(
                playouts=found.playouts, result=proved_word(found.proved), side=side_words(to_move)
            )
        )
    if minimax is None:
        lines.append(_("Minimax: searching..."))
        return lines
    lines.append(
        _("Minimax (depth {depth}): column {move}, {nodes:,} positions").format(
            depth=minimax.stats.depth, move=format_move(minimax.move or 0, rules), nodes=minimax.stats.total_nodes
        )
    )
    if found.move == minimax.move:
        lines.append(_("They agree."))
    else:
        lines.append(_("They disagree."))
    if not exact:
        lines.append(_("Referee: no exact verdict here (the solver did not prove the position within its budget)."))
        return lines
    best = max(score.pov(to_move) for score in exact.values())
    for name, move in ((_("MCTS"), found.move), (_("Minimax"), minimax.move)):
        if move is None or move not in exact:
            continue
        keeps = exact[move].pov(to_move) == best
        said = (
            _("Referee: column {move} ({name}) keeps the exact result.")
            if keeps
            else _("Referee: column {move} ({name}) gives the exact result away.")
        )
        lines.append(said.format(name=name, move=format_move(move, rules)))
    return lines


def exact_word(score: ExactScore | None, to_move: int) -> str:
    """A column's exact verdict in one word, for the side to move."""
    if score is None:
        return "?"
    pov = score.pov(to_move)
    return _("win") if pov > 0 else _("draw") if pov == 0 else _("loss")


def proved_word(proved: Proved) -> str:
    """What MCTS-Solver proved, in one word, for the side it is said of."""
    return {Proved.WIN: _("win"), Proved.DRAW: _("draw"), Proved.LOSS: _("loss")}[proved]
