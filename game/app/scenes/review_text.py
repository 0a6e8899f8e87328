"""The review screen's sentences: pure functions of (review, ply, names), no pygame.

The exact results themselves are put into words by ``ai.review.result_words`` (one
place); this module says who played what and what the class means.
"""

from __future__ import annotations

from ai.review import ACCURACY_RULE, ESTIMATE_NODES, GameReview, MoveClass, MoveReview, side_number
from game.app.scenes.explain_text import player_names, why_brief
from game.i18n import N_, _
from game.notation import format_move
from game.rules import MAX, MIN

CLASS_MEANING = {
    MoveClass.BEST: N_("best: it kept the best result there was"),
    MoveClass.GOOD: N_("good: same outcome, but a slower win or a quicker loss"),
    MoveClass.MISTAKE: N_("mistake: one step worse (a win to a draw, or a draw to a loss)"),
    MoveClass.BLUNDER: N_("blunder: a won game thrown to a loss"),
}
"""What each class means, one line each (the review's legend)."""


def move_name(review: GameReview, move: int) -> str:
    """ "column 4" (gravity) or "cell d2"."""
    return (_("column {move}") if review.rules.gravity else _("cell {move}")).format(
        move=format_move(move, review.rules)
    )


def who(side: int, names: dict[int, str]) -> str:
    """ "player 1 (you)" / "player 2 (Medium)"."""
    name = names.get(side, "")
    player = _("player {side_number}").format(side_number=side_number(side))
    said_twice = name.casefold() == player.casefold()  # a two-player game's names are these words
    return player + (f" ({name})" if name and not said_twice else "")


def list_line(review: GameReview, m: MoveReview) -> str:
    """One row of the move list: "12. P2 col 5  mistake"."""
    move = format_move(m.move, review.rules)
    player = _("P{number}").format(number=side_number(m.side))
    return f"{m.ply:>2}. {player} {move:>3}  {m.move_class.word}"


def header_lines(review: GameReview | None, names: dict[int, str], done: int, total: int) -> list[str]:
    """The lines over the board: what is reviewed, each player's accuracy and how it counts."""
    if review is None:
        return [_("Reviewing the game: {done} of {total} moves").format(done=done, total=total)]
    kind = _("exact, from the solver") if review.exact else _("search estimates (exact only on 6x7)")
    lines = [
        _("{describe}, {count} moves: {kind}").format(describe=review.rules.said(), count=len(review.moves), kind=kind)
    ]
    parts = []
    for side in (MAX, MIN):
        accuracy = review.accuracy(side)
        if accuracy is not None:
            parts.append(f"{who(side, names)} {accuracy:.0%}")
    if parts:
        lines.append(_("accuracy: {players}").format(players=", ".join(parts)))
        lines.append(_("accuracy: {ACCURACY_RULE}").format(ACCURACY_RULE=_(ACCURACY_RULE)))
    return lines


def header_texts(review: GameReview | None, names: dict[int, str], done: int, total: int) -> list[str]:
    """The review header's (at most three) lines: the game and its verdict, the accuracy,
    how accuracy counts."""
    if not total:
        return [_("No moves to review yet.")]
    return header_lines(review, names, done, total)[:3]


def under_board_lines(review: GameReview | None, ply: int, count: int, names: dict[int, str]) -> list[str]:
    """The (at most four) lines under the review's board: the move shown (a mistake's or
    a blunder's refutation second: ``why_line``), the game's turning points."""
    if review is None:
        return [_("Ply {ply} of {count}: the classes appear when the review is done.").format(ply=ply, count=count)]
    lines = detail_lines(review, ply, names) if ply <= len(review.moves) else []
    return (lines[:3] + [turning_points_line(review)])[:4]


def why_line(review: GameReview | None, ply: int, names: dict[int, str]) -> str:
    """Why the move shown lost value ("Why: ..." in one line), where it is a mistake or a
    blunder the review explained; else ""."""
    if review is None or not 0 < ply <= len(review.moves):
        return ""
    why = review.moves[ply - 1].why
    return "" if why is None else why_brief(why, player_names(names))


def detail_lines(review: GameReview, ply: int, names: dict[int, str]) -> list[str]:
    """What the board shows after ``ply`` plies: the move, its class, the best move, the
    result now, and what a depth-N search would have played."""
    now = review.result_after(ply) if ply < len(review.graph) else ""
    if ply == 0:
        return [_("The start of the game."), _("From here: {now}.").format(now=now)]
    m = review.moves[ply - 1]
    lines = [
        _("Move {ply}: {who} played {move_name}: {value}.").format(
            ply=m.ply, who=who(m.side, names), move_name=move_name(review, m.move), value=m.move_class.word
        )
    ]
    why = why_line(review, ply, names)
    if why:
        lines.append(why)
    if m.move_class is not MoveClass.BEST:
        best = " or ".join(move_name(review, b) for b in m.best_moves[:3])
        before = review.result_after(ply - 1)
        lines.append(_("Best was {best}; before the move: {before}.").format(best=best, before=before))
    lines.append(_("After it: {now}.").format(now=now))
    if m.horizon_move is not None:
        same = " too" if m.horizon_move == m.move else ""
        lines.append(
            _("A depth-{horizon_depth} search would have played {move_name}{same}.").format(
                horizon_depth=m.horizon_depth, move_name=move_name(review, m.horizon_move), same=same
            )
        )
    if not review.exact:
        lines.append(_("(Estimates: off the standard board no solver answers exactly.)"))
    return lines


def graph_legend(review: GameReview) -> str:
    """The key over the evaluation graph: what the line is (and, for estimates, how deep
    each move's columns were searched within their budget) and what the marks are."""
    if review.exact:
        line = _("line: the exact result after each ply")
    else:
        depths = sorted({m.estimate_depth for m in review.moves if m.estimate_depth is not None})
        deep = "" if not depths else f"{depths[0]}" if len(depths) == 1 else f"{depths[0]}-{depths[-1]}"
        line = _("line: search estimates, depth {deep} within {ESTIMATE_NODES:,} positions a move").format(
            deep=deep, ESTIMATE_NODES=ESTIMATE_NODES
        )
    return line + _("  ·  triangle: mistake, square: blunder")


def turning_points_line(review: GameReview) -> str:
    points = review.turning_points
    if not points:
        return _("Turning points: none, no move changed the outcome.")
    said = ", ".join(
        _("{ply} (P{number} {word})").format(ply=m.ply, number=side_number(m.side), word=m.move_class.word)
        for m in points
    )
    marked = sum(1 for m in review.moves if not m.move_class.keeps_outcome)  # each has its mark on the graph
    if marked > len(points):
        return _("Turning points, the worst {shown} of the {count} marked: {said}").format(
            shown=len(points), count=marked, said=said
        )
    return _("Turning points: {said}").format(said=said)


__all__ = [
    "CLASS_MEANING",
    "detail_lines",
    "graph_legend",
    "header_lines",
    "list_line",
    "move_name",
    "turning_points_line",
    "under_board_lines",
    "why_line",
]
