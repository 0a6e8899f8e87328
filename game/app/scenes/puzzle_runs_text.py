"""Storm's and Streak's sentences: pure functions of the run (no pygame), so the screen shows
and speech says the same words, and tests read them."""

from __future__ import annotations

from game.archive.run_store import RunRecord
from game.i18n import _, ngettext
from game.learn.puzzle_runs import MISS_SECONDS, STORM_SECONDS, RunKind, StormRun, StreakRun


def run_title(kind: RunKind) -> str:
    return _("Puzzle Storm") if kind is RunKind.STORM else _("Puzzle Streak")


def rules_sentence(kind: RunKind) -> str:
    """What the run is, before it starts."""
    if kind is RunKind.STORM:
        return _(
            "{minutes} minutes, puzzles from easy to hard. Right moves in a row win time: +3 s at 5, "
            "+5 s at 12, +7 s at 20, +10 s at 30 and every 10 after. A wrong move costs {miss} s and "
            "goes on to the next puzzle. Unrated: your rating does not change."
        ).format(minutes=round(STORM_SECONDS / 60), miss=round(MISS_SECONDS))
    return _(
        "Puzzles get harder and harder until your first wrong move. One skip a run (S). "
        "Unrated: your rating does not change."
    )


def start_sentence() -> str:
    return _("Space or Enter: start.")


def clock_text(seconds: float) -> str:
    """ "2:41": minutes and seconds left (rounded up, so 0:00 is the end)."""
    whole = max(0, int(-(-seconds // 1)))
    return _("{minutes}:{seconds:02d}").format(minutes=whole // 60, seconds=whole % 60)


def best_sentence(best: RunRecord | None) -> str:
    if best is None:
        return _("No run kept yet.")
    return _("Best run: {score}.").format(score=best.score)


def storm_standing(run: StormRun) -> str:
    """The header's second line while a Storm runs."""
    return _("{clock} left · solved {score} · combo {combo}").format(
        clock=clock_text(run.remaining()), score=run.score, combo=run.combo
    )


def streak_standing(run: StreakRun) -> str:
    """The header's second line while a Streak runs."""
    skip = _("skip used") if run.skipped else _("one skip left")
    return _("Streak {score} · {skip}").format(score=run.score, skip=skip)


def bonus_sentence(seconds: float, combo: int) -> str:
    return _("+{seconds} s: {combo} right moves in a row!").format(seconds=round(seconds), combo=combo)


def storm_wrong_sentence(column: int) -> str:
    return _("Column {column} was wrong: -{miss} s. The next puzzle.").format(
        column=column + 1, miss=round(MISS_SECONDS)
    )


def solved_next_sentence() -> str:
    return _("Solved. The next puzzle.")


def streak_wrong_sentence(column: int, right: int | None) -> str:
    if right is None:
        return _("Column {column} was wrong.").format(column=column + 1)
    return _("Column {column} was wrong: the right move was column {right}.").format(column=column + 1, right=right + 1)


def skipped_sentence() -> str:
    return _("Skipped: the next puzzle (no more skips this run).")


def over_sentence(kind: RunKind, score: int, new_best: bool, best: RunRecord | None) -> str:
    """The end of a run: its score, and whether it is the best kept."""
    if kind is RunKind.STORM:
        said = ngettext("Time is up: {count} puzzle solved.", "Time is up: {count} puzzles solved.", score)
    else:
        said = ngettext("The streak ends at {count} puzzle.", "The streak ends at {count} puzzles.", score)
    said = said.format(count=score)
    if new_best:
        return said + " " + _("Your best run so far!")
    return said + " " + best_sentence(best) + " " + _("Space: another run.")
