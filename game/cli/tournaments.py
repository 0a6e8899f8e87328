"""``tournament``: many players in a round robin or a gauntlet, with a rating list; the games
are the match runner's (``game.bots.round_robin``), the table ``game.bots.rating_report``'s."""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
import threading
from typing import TextIO

from ai.book import BookError
from ai.levels import level_names
from game.board import Board, IllegalMoveError
from game.bots.rating_report import TournamentPgn, format_tournament, tournament_json
from game.bots.round_robin import (
    Format,
    TournamentOutcome,
    TournamentPlan,
    TournamentProgress,
    play_tournament,
)
from game.bots.runners import MatchPlan
from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.cli.files import check_name_length, check_output, shown
from game.cli.matches import (
    MAX_MATCH_GAMES,
    checked_jobs,
    closed_after,
    last_words,
    match_cluster,
    notice,
    player_choices,
    run_stoppable,
)
from game.cli.options import add_rule_options, rules_from_args
from game.i18n import _
from game.notation import NotationError
from game.regular_file import NotRegularFile, writable_target, write_beside
from game.rules import Mode, Rules
from game.sources import SourceError, read_text_file

DEFAULT_GAMES_PER_PAIR = 8
MAX_PLAYERS = 64
MAX_ANCHOR_ELO = 100_000


def add_tournament_arguments(parser: argparse.ArgumentParser) -> None:
    """tournament PLAYER PLAYER... [--gauntlet] [--games-per-pair N] [--openings FILE] ..."""
    parser.description = (
        "PLAYER: a level (" + ", ".join(level_names()) + ") or engine:COMMAND, as for match. "
        "A round robin by default (every pair plays); --gauntlet plays the first player against "
        "each of the others. Each pair plays the same balanced openings, each with both colours; "
        "the rating list is one maximum-likelihood fit of all games (docs/matches.md)."
    )
    parser.add_argument("players", nargs="+", metavar="PLAYER", help="two or more levels or engine:COMMAND")
    parser.add_argument("--gauntlet", action="store_true", help="the first player against each other only")
    parser.add_argument(
        "--games-per-pair",
        type=int,
        default=DEFAULT_GAMES_PER_PAIR,
        metavar="N",
        help=f"games each pair plays (default {DEFAULT_GAMES_PER_PAIR}: 4 openings, each with both colours)",
    )
    parser.add_argument(
        "--openings",
        metavar="FILE",
        help="a file of openings, one move string a line (# for a comment); default: the board's balanced ones",
    )
    parser.add_argument(
        "--movetime", type=int, default=1000, metavar="MS", help="an engine's milliseconds per move (default 1000)"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="games played at once, each in its own worker process (default: the cores, at most the games)",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play on a Dask cluster (tcp://host:8786; needs pip install .[cluster]) instead of local workers",
    )
    parser.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help="shuffle the openings with S and seed the noisy levels' judgement (Beginner)",
    )
    parser.add_argument("--pgn", metavar="FILE", help="write every game to FILE in a PGN-like format")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the tables")
    parser.add_argument(
        "--anchor",
        metavar="PLAYER",
        help="the player held at a fixed rating (default: the first, or the first preset on the "
        "standard board; a gauntlet's base always)",
    )
    parser.add_argument(
        "--anchor-elo",
        type=float,
        metavar="ELO",
        help="the anchor's rating (default: a preset's on the ladder's scale, else 0)",
    )
    add_rule_options(parser, Mode.CLASSIC)


def run_tournament(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """tournament: play it with Ctrl+C and ``kill`` stopping it cleanly (the table of the
    finished games still printed)."""
    return run_stoppable(lambda stop: _tournament(args, out, stop))


def _tournament(args: argparse.Namespace, out: TextIO, stop: threading.Event) -> int:
    """``tournament``, with Ctrl+C setting ``stop`` (``run_tournament``): every argument
    checked before the first game, then the games, then the table."""
    rules = rules_from_args(args)
    plan, jobs = _plan(args, rules)
    anchor_player = _anchor_player(args, plan)
    pgn = _pgn_file(args.pgn, plan, args.openings) if args.pgn else None
    executor, close_cluster = match_cluster(args.cluster)
    with closed_after(pgn.close if pgn is not None else None, close_cluster):
        outcome = play_tournament(
            plan,
            jobs=jobs,
            executor=executor,
            on_game=pgn.add if pgn is not None else None,
            progress=TournamentProgress(plan),
            notice=notice,
            stop_requested=stop.is_set,
        )
    return _report(outcome, args, anchor_player, pgn, out)


def _report(
    outcome: TournamentOutcome,
    args: argparse.Namespace,
    anchor_player: int | None,
    pgn: TournamentPgn | None,
    out: TextIO,
) -> int:
    """Print the table (or the JSON object) and what became of the game file; the exit code."""
    anchor = outcome.anchor(anchor_player, args.anchor_elo)
    ratings = outcome.ratings(anchor)
    if args.json:
        print(json.dumps(tournament_json(outcome, anchor, ratings), indent=1), file=out)
    else:
        print(format_tournament(outcome, anchor, ratings), file=out)
    said_to = sys.stderr if args.json else out  # stdout holds the JSON object alone
    return last_words(pgn, args.pgn, said_to, interrupted=outcome.interrupted, error=outcome.error)


def _plan(args: argparse.Namespace, rules: Rules) -> tuple[TournamentPlan, int]:
    """The tournament the arguments ask for, every player and number checked, and the jobs.

    Raises:
        CliError: too few or too many players, one named twice, an unknown level, an
            engine that names no program, a number out of range, a bad openings file.
    """
    players = list(args.players)
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise CliError(f"a tournament needs 2..{MAX_PLAYERS} players, not {len(players)}")
    if not 1 <= args.games_per_pair <= MAX_MATCH_GAMES:
        raise CliError(f"--games-per-pair must be 1..{MAX_MATCH_GAMES:,}, not {args.games_per_pair}")
    seed = args.seed if args.seed is not None else 0
    choices = player_choices(players, seed, by_work=True)
    openings = read_openings(args.openings, rules) if args.openings else ()
    match = MatchPlan(rules, args.games_per_pair, args.movetime / 1000, args.seed, openings)
    try:
        plan = TournamentPlan(tuple(choices), match, Format.GAUNTLET if args.gauntlet else Format.ROUND_ROBIN)
    except ValueError as error:
        raise CliError(str(error)) from None
    if plan.total > MAX_MATCH_GAMES:
        raise CliError(
            f"{len(plan.pairs())} pairs of {args.games_per_pair} games make {plan.total:,} games; "
            f"a tournament plays at most {MAX_MATCH_GAMES:,}"
        )
    return plan, checked_jobs(plan.total, args.movetime, args.jobs)


def _anchor_player(args: argparse.Namespace, plan: TournamentPlan) -> int | None:
    """The index of ``--anchor``'s player (None: the default).

    Raises:
        CliError: no such player, or a gauntlet anchored elsewhere than its base.
    """
    if args.anchor_elo is not None and not abs(args.anchor_elo) <= MAX_ANCHOR_ELO:  # nan too
        raise CliError(
            f"--anchor-elo must be a number from -{MAX_ANCHOR_ELO:,} to {MAX_ANCHOR_ELO:,}, not {args.anchor_elo}"
        )
    if args.anchor is None:
        return None
    wanted = args.anchor.strip().lower()
    found = [i for i, name in enumerate(plan.names) if name.lower() == wanted]
    if not found:
        raise CliError(f"--anchor {args.anchor}: not a player of this tournament ({', '.join(plan.names)})")
    if plan.format is Format.GAUNTLET and found[0] != 0:
        raise CliError(f"--anchor {args.anchor}: a gauntlet rates the others against its base, {plan.names[0]}")
    return found[0]


def read_openings(path: str, rules: Rules) -> tuple[str, ...]:
    """The openings of a file: a move string a line (its first word; blank lines and lines
    starting with ``#`` skipped), each legal on ``rules`` and leaving the game open.

    Raises:
        CliError: the file cannot be read, or a line is not such an opening (its number said).
    """
    try:
        text = read_text_file(path)
    except SourceError as error:
        raise CliError(f"--openings: {error}") from None
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        try:
            board = Board.from_moves(words[0], rules)
        except (NotationError, IllegalMoveError) as error:
            raise CliError(f"--openings {shown(path)} line {number}: {words[0][:40]}: {error}") from None
        if board.is_game_over():
            raise CliError(f"--openings {shown(path)} line {number}: {words[0][:40]} ends the game")
        found.append(board.moves_string())
    if not found:
        raise CliError(f"--openings {shown(path)}: no opening in it")
    return tuple(found)


def _pgn_file(path: str, plan: TournamentPlan, openings: str | None) -> TournamentPgn:
    """The game file ``--pgn`` asks for, its path checked first (``check_pgn_path``; never
    the ``--openings`` file)."""
    check_pgn_path(path)
    if openings is not None:
        check_output(path, openings)
    return TournamentPgn(path, plan)


def check_pgn_path(path: str) -> None:
    """Refuse, before any game, a game file that cannot be written: a name too long, a
    folder, a device or a pipe (a regular file only), a folder that is not there or takes
    no new file.

    Raises:
        CliError: which, in one line.
    """
    check_name_length(path, f"--pgn {shown(path)}")
    try:
        target = writable_target(path)  # a folder, a FIFO, a device or a link to one: refused
        info = os.stat(target) if os.path.lexists(target) else None
    except NotRegularFile as error:
        if error.errno == errno.EISDIR:
            raise CliError(f"--pgn {shown(path)} is a folder; give a file name to write") from None
        raise CliError(
            f"--pgn {shown(path)} is not a regular file (it is {error.strerror}); give a file name to write"
        ) from None
    except (OSError, ValueError) as error:
        raise CliError(f"--pgn {shown(path)}: {getattr(error, 'strerror', None) or error}") from None
    if info is not None and not os.access(target, os.W_OK):  # renaming over it would replace it all the same
        raise CliError(f"--pgn {shown(path)} is read-only; give another file name")
    if not target.parent.is_dir():
        raise CliError(f"--pgn {shown(path)}: the folder {shown(target.parent)} does not exist")
    try:
        write_beside(target, b"").unlink()  # can a file be made there?
    except OSError as error:
        raise CliError(
            _("cannot write {pgn}: {value}").format(pgn=shown(path), value=error.strerror or error)
        ) from None


COMMANDS = {
    "tournament": CommandCode(add_tournament_arguments, run_tournament, user_errors=(BookError,)),
}
