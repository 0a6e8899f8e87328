"""The ``games`` command: the game archive in a terminal (the solver is never loaded).

connect4 games [--json]          the archive, newest first
connect4 games --export FILE     every game as a game file (docs/game-file.md; FILE.txt: move strings)
connect4 games --import FILE     the games of a game file into the archive
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path
from typing import TextIO

from game.archive.store import Archive, import_games, write_export
from game.cli.archive_folder import add_home_option, archive_folder, nothing_stored, open_archive
from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.game_file import GameFileError, GameText, each_game, game_record
from game.i18n import _, ngettext
from game.records import GameResult
from game.sources import SourceError, read_text_file


def add_games_arguments(games: argparse.ArgumentParser) -> None:
    """games [--json] [--level NAME] [--result R] [--export FILE] [--import FILE] [--home DIR]."""
    games.description = "list the stored games (the archive the window fills), or export them."
    games.add_argument("--json", action="store_true", help="print the list as one JSON object")
    games.add_argument("--level", help="only games against this level (e.g. Medium; 'human' for two people)")
    games.add_argument("--result", choices=["win", "draw", "loss", "1", "2"], help="only games with this result")
    games.add_argument(
        "--export", metavar="FILE", help="write the games to FILE: a game file (.c4), or move strings for FILE.txt"
    )
    games.add_argument(
        "--import",
        dest="import_file",
        metavar="FILE",
        help="store the games of a game file (.c4, or the PGN-like export of earlier versions); "
        "games already stored are skipped",
    )
    add_home_option(games)


def run_games(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """List the archive, or export it, or import a game file into it (only the import
    makes the archive's folder and file where none is)."""
    if args.export and not args.import_file and nothing_stored(archive_folder(args.home)):
        raise CliError(
            _("no games stored yet in {folder}: {export} was not written").format(
                folder=archive_folder(args.home), export=args.export
            )
        )
    archive = open_archive(args.home, reading=not args.import_file)
    if args.import_file:
        return import_file(archive, args.import_file, out)
    records = archive.games(level=args.level, result=args.result)
    if args.export:
        path = Path(args.export)
        if path.suffix.lower() == ".txt":
            text = "".join(f"{r.moves_string}\n" for r in reversed(records))
        else:
            text = archive.export_text()
        try:
            write_export(path, text)  # a pipe nobody reads is refused, not waited on
        except OSError as error:
            raise CliError(
                _("cannot write {export}: {value}").format(export=args.export, value=error.strerror or error)
            ) from None
        note = archive.unreadable_note()
        print(
            _("{count} games written to {export}").format(count=len(records), export=args.export)
            + (f"; {note}" if note else ""),
            file=out,
        )
        return 1 if archive.unreadable else 0  # a backup that left games out is no success
    if args.json:
        json.dump({"games": [r.to_json() for r in records], "unreadable": archive.unreadable}, out, indent=1)
        out.write("\n")
        return 0
    note = archive.unreadable_note()
    if not records:
        print(_("no games stored yet: games played in the window are kept here"), file=out)
        if note:
            print(_("{note} (damaged rows of the archive)").format(note=note), file=out)
        return 0
    heads = (_("id"), _("date"), _("rules"), _("player 1"), _("player 2"), _("result"), _("moves"))
    print(
        f"{heads[0]:>6}  {heads[1]:<16}  {heads[2]:<16} {heads[3]:<10} {heads[4]:<10} {heads[5]:<13} {heads[6]}",
        file=out,
    )
    for r in records:
        ident = f"id:{r.id}" if r.id is not None else "(unsaved)"
        result = GameResult(r.result).text
        print(
            f"{ident:>6}  {r.date_text:<16}  {r.rules.describe()[:16]:<16} {r.first:<10} {r.second:<10} {result:<13} "
            f"{r.moves_string}",
            file=out,
        )
    stats = archive.stats()
    for level, counts in stats.items():
        print(
            _("against {level}: {counts} won, {counts2} drawn, {counts3} lost").format(
                level=level, counts=counts["win"], counts2=counts["draw"], counts3=counts["loss"]
            ),
            file=out,
        )
    if note:
        print(_("{note} (damaged rows of the archive)").format(note=note), file=out)
    return 0


def import_file(archive: Archive, name: str, out: TextIO) -> int:
    """``games --import FILE``: each good game stored once, one line on stderr for each
    bad one; exit code 1 when some game could not be read, 0 when all were."""
    try:
        text = read_text_file(name)
    except SourceError as error:
        raise CliError(str(error)) from None
    records, problems, games = [], [], 0
    for game in each_game(text):
        if not isinstance(game, GameText):
            problems.append(str(game))
            continue
        games += 1
        try:
            records.append((game_record(game), game.played_at is not None))
        except GameFileError as error:
            problems.append(f"{game.where()}: {error}")
    if not games and not problems:
        raise CliError(_("{name} holds no game").format(name=name))
    try:
        stored, skipped = import_games(archive, records)
    except (sqlite3.Error, ValueError) as error:
        raise CliError(
            _("nothing imported: the game archive would not take the games ({error})").format(error=error)
        ) from None
    for problem in problems:
        print(_("games --import {name}: not imported: {problem}").format(name=name, problem=problem), file=sys.stderr)
    said = ngettext("{stored} game imported from {name}", "{stored} games imported from {name}", stored).format(
        stored=stored, name=name
    )
    if skipped:
        said += _(", {skipped} already stored").format(skipped=skipped)
    if problems:
        said += _(", {count} not readable (said above)").format(count=len(problems))
    print(said, file=out)
    return 1 if problems else 0


COMMANDS = {"games": CommandCode(add_games_arguments, run_games)}
