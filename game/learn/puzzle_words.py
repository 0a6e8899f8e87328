"""Puzzles' sentences: pure functions of the puzzle, the step, the verdicts and the
dashboard (no pygame), so the puzzle screen shows, speech says and ``puzzles --play`` prints
the same words, and tests read them."""

from __future__ import annotations

import enum

from ai.exact import ExactScore, verdict
from game.i18n import N_, _, ngettext
from game.learn.dashboard import Dashboard, ThemeRecord
from game.learn.rating import change_text
from game.puzzle_file import Goal, Puzzle, Theme
from game.rules import MAX, MIN


class Source(enum.Enum):
    """Where the puzzle on the screen comes from."""

    FOR_YOU = N_("Puzzles for you")
    MINE = N_("From my games")
    DAILY = N_("Daily puzzle")
    THEME = N_("Puzzles by theme")


def side_name(side: int) -> str:
    return _("player 1 (O)") if side == MAX else _("player 2 (X)")


def goal_sentence(puzzle: Puzzle, side: int) -> str:
    """What to do: "Player 1 (O) to move: find the win." / "... save the draw."""
    if puzzle.goal is Goal.WIN:
        return _("You play {side}: find the win. Exactly one column wins at every step.").format(side=side_name(side))
    return _("You play {side}: save the draw. Every other column loses.").format(side=side_name(side))


def source_name(source: Source, theme: Theme | None = None) -> str:
    """The list's name: "Puzzles for you", or "Theme: Zugzwang"."""
    if source is Source.THEME and theme is not None:
        return _("Theme: {theme}").format(theme=_(theme.label))
    return _(source.value)


def title_sentence(source: Source, puzzle: Puzzle, theme: Theme | None = None) -> str:
    """The header: which list, the puzzle's id and rating."""
    return _("{source} · puzzle {id} · rated {rating:,}").format(
        source=source_name(source, theme), id=puzzle.id, rating=puzzle.rating
    )


def themes_sentence(puzzle: Puzzle) -> str:
    """ "Themes: Double threat, Save the draw." (empty: the puzzle has none, an older one)."""
    if not puzzle.themes:
        return ""
    names = ", ".join(_(theme.label) for theme in puzzle.themes)
    return ngettext("Theme: {names}.", "Themes: {names}.", len(puzzle.themes)).format(names=names)


def rate_text(record: ThemeRecord) -> str:
    """ "62% of 13 solved", or "too few to tell (3 tried)" under five attempts."""
    if not record.attempts:
        return _("not tried yet")
    if record.rate is None:
        return ngettext("too few to tell ({count} tried)", "too few to tell ({count} tried)", record.attempts).format(
            count=record.attempts
        )
    return ngettext("{rate:.0%} of {count} solved", "{rate:.0%} of {count} solved", record.attempts).format(
        rate=record.rate, count=record.attempts
    )


def strengths_sentence(dashboard: Dashboard | None) -> str:
    """The dashboard in one line: the strongest and the weakest theme, or why neither is said."""
    if dashboard is None:
        return _("Reading your puzzle attempts...")
    if dashboard.strongest is None or dashboard.weakest is None:
        return _("Strengths and weaknesses: too few to tell (5 attempts in at least two themes).")
    strong, weak = dashboard.record(dashboard.strongest), dashboard.record(dashboard.weakest)
    return _("Strongest: {strong} ({strong_rate:.0%}) · weakest: {weak} ({weak_rate:.0%}).").format(
        strong=_(strong.theme.label), strong_rate=strong.rate, weak=_(weak.theme.label), weak_rate=weak.rate
    )


def standing_sentence(rating: int, streak: int, provisional: bool = False) -> str:
    """The player's rating and streak; "provisional" while a few results still move it far."""
    if provisional:
        return _("Your rating {rating:,} (provisional) · streak {streak}").format(rating=rating, streak=streak)
    return _("Your rating {rating:,} · streak {streak}").format(rating=rating, streak=streak)


def right_step_sentence(column: int, reply: int | None) -> str:
    """After a right step that is not the last: the reply the opponent played."""
    if reply is None:
        return _("Column {column}: right.").format(column=column + 1)
    return _("Column {column}: right. The opponent's strongest reply: column {reply}. Your move.").format(
        column=column + 1, reply=reply + 1
    )


def solved_sentence(puzzle: Puzzle, before: float, after: float, hints: int) -> str:
    """The puzzle is done: the goal is plain; the rating's change."""
    if hints:  # a miss for the rating: said as one, not as "Solved"
        if puzzle.goal is Goal.WIN:
            plain = _("Done with a hint: the win is plain now.")
        else:
            plain = _("Done with a hint: the draw is safe now.")
        return f"{plain} " + _("It counts as missed: rating {change}.").format(change=change_text(before, after))
    if puzzle.goal is Goal.WIN:
        plain = _("Solved: the win is plain now.")
    else:
        plain = _("Solved: the draw is safe now.")
    return f"{plain} " + _("Rating {change}.").format(change=change_text(before, after))


def wrong_sentence(column: int, exact: ExactScore | None, person: int, reply: int | None) -> str:
    """Why the tried column fails: the solver's verdict and the opponent's refutation."""
    if exact is not None and exact.winner == -person and exact.winner_moves == 1 and reply is not None:
        return _("Column {column} fails: the opponent's disc in column {reply} completes four in a row.").format(
            column=column + 1, reply=reply + 1
        )
    names = {person: "you", -person: _("the opponent")}
    said = verdict(exact, names) if exact is not None else _("it does not reach the goal")
    if reply is None:
        return _("Column {column} fails: {verdict}.").format(column=column + 1, verdict=said)
    return _("Column {column} fails: {verdict}. The refutation: column {reply}.").format(
        column=column + 1, verdict=said, reply=reply + 1
    )


def missed_sentence(right: int, before: float, after: float) -> str:
    return _("The right move was column {column}. Rating {change}.").format(
        column=right + 1, change=change_text(before, after)
    )


def hint_sentence(right: int, before: float, after: float) -> str:
    """The hint, and what it cost: the puzzle counts as missed from now on."""
    return _("Hint: column {column}. This puzzle counts as missed: rating {change}.").format(
        column=right + 1, change=change_text(before, after)
    )


def sides(person: int) -> dict[int, str]:
    """The sides' names for the board readout."""
    return {person: _("you"), -person: _("the opponent")} if person in (MAX, MIN) else {}
