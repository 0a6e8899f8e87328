"""The ``puzzles`` and ``rating`` commands: the solver-checked puzzles and the player's rating.

connect4 puzzles --json --count 5 --rating 1500   puzzles near a rating (default: yours)
connect4 puzzles --mine                           your own puzzles, from your reviewed games
connect4 rating --json                            {"rating": ..., "deviation": ..., "games": ..., "puzzles": ...}
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from ai.book import BookError
from game.archive.puzzle_store import add_own_puzzles, own_puzzle_games, own_puzzles, read_attempts
from game.archive.store import Archive
from game.cli.archive_folder import add_home_option, open_archive
from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.i18n import _, ngettext
from game.learn.own_puzzles import find_own_puzzles
from game.learn.puzzle_set import near, shipped_puzzles
from game.learn.rating import PlayerRating, player_rating
from game.learn.training import drills_of_records
from game.puzzle_file import Puzzle, PuzzleFileError

MAX_COUNT = 1000


def add_puzzles_arguments(puzzles: argparse.ArgumentParser) -> None:
    """puzzles [--json] [--count N] [--seed S] [--rating R] [--mine] [--home DIR]."""
    puzzles.description = (
        "Puzzles on the standard board, each checked by the exact solver: a position, a goal "
        "(win, or save the draw where every other column loses) and its line; at every one of "
        "your steps exactly one column reaches the goal. Each puzzle is rated on the levels' "
        "scale by which levels solve it. Moves and solutions are 1-based columns."
    )
    puzzles.add_argument("--json", action="store_true", help="print one JSON object")
    puzzles.add_argument("--count", type=int, default=10, metavar="N", help="how many (default 10)")
    puzzles.add_argument("--seed", type=int, default=0, metavar="S", help="which of the nearby puzzles (default 0)")
    puzzles.add_argument("--rating", type=int, metavar="R", help="puzzles near this rating (default: yours)")
    puzzles.add_argument(
        "--mine", action="store_true", help="your own puzzles, found in your reviewed games (looked for first)"
    )
    add_home_option(puzzles)


def add_rating_arguments(rating: argparse.ArgumentParser) -> None:
    """rating [--json] [--home DIR]."""
    rating.description = (
        "Your Glicko-2 rating on the levels' scale, from your stored games against the levels "
        "on the standard board (imported ones too) and your puzzles."
    )
    rating.add_argument("--json", action="store_true", help="print one JSON object")
    add_home_option(rating)


def archive_rating(archive: Archive) -> PlayerRating:
    """The player's rating from what the archive holds (``skipped``: attempt rows left out)."""
    read = read_attempts(archive)
    return player_rating(archive.games(), read.attempts, skipped=read.skipped)


def run_rating(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Print the player's rating."""
    rated = archive_rating(open_archive(args.home, reading=True))  # a question makes no home
    if rated.skipped:
        print(
            ngettext(
                "rating: {count:,} stored puzzle attempt was left out: it is damaged (its time is no date, "
                "or a value is out of range)",
                "rating: {count:,} stored puzzle attempts were left out: they are damaged (their times are no "
                "dates, or a value is out of range)",
                rated.skipped,
            ).format(count=rated.skipped),
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps(rated.to_json()), file=out)
        return 0
    said = (
        _("Rating {rating:,} (provisional, deviation {deviation}), from {games} games and {puzzles} puzzles.")
        if rated.provisional
        else _("Rating {rating:,} (deviation {deviation}), from {games} games and {puzzles} puzzles.")
    )
    print(
        said.format(rating=rated.rating, deviation=rated.deviation, games=rated.games, puzzles=rated.puzzles), file=out
    )
    return 0


def mine(archive: Archive) -> tuple[list[Puzzle], int]:
    """The player's own puzzles, after looking for new ones in reviewed games not yet read;
    and how many of their games on the standard board still wait for a review."""
    done = own_puzzle_games(archive)
    records = archive.games()
    found, looked = find_own_puzzles([r for r in records if r.id is not None and r.id not in done])
    add_own_puzzles(archive, found, looked)
    unreviewed = len(drills_of_records(records)[1])
    return own_puzzles(archive), unreviewed


def run_puzzles(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Print puzzles near a rating, or the player's own."""
    if not 1 <= args.count <= MAX_COUNT:
        raise CliError(_("--count is a number from 1 to {most}, not {count}").format(most=MAX_COUNT, count=args.count))
    archive = open_archive(args.home, reading=not args.mine)  # only --mine stores what it finds
    if args.mine:
        own, unreviewed = mine(archive)
        chosen = own[: args.count]
        if unreviewed:
            print(
                _(
                    "{count} of your games wait for a review (connect4 review id:N): their puzzles are not known yet"
                ).format(count=unreviewed),
                file=sys.stderr,
            )
    else:
        try:
            puzzles = shipped_puzzles()
        except PuzzleFileError as error:
            raise CliError(str(error)) from None
        rating = args.rating if args.rating is not None else archive_rating(archive).rating
        chosen = near(puzzles, rating, args.count, args.seed)
    if args.json:
        print(json.dumps({"puzzles": [p.to_json() for p in chosen]}), file=out)
        return 0
    if not chosen:
        print(_("No puzzles yet: review your games against the levels to find some."), file=out)
    for puzzle in chosen:
        goal = _("win") if puzzle.goal.value == "win" else _("save the draw")
        print(
            _("{id}  rating {rating:,}  {goal}  position {moves}  answer: column {column}").format(
                id=puzzle.id, rating=puzzle.rating, goal=goal, moves=puzzle.moves, column=puzzle.solution
            ),
            file=out,
        )
    return 0


COMMANDS = {
    "puzzles": CommandCode(add_puzzles_arguments, run_puzzles, user_errors=(BookError,)),
    "rating": CommandCode(add_rating_arguments, run_rating),
}
