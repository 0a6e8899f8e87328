"""The command line: the parser built from the table of commands (``game.cli.commands``),
the chosen command run, and every failure the user can cause (unreadable file, illegal
position or move, bad option) said in one line on stderr with exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from typing import TextIO

from game.board import IllegalMoveError
from game.board_file import BoardFileError
from game.cli.commands import COMMANDS, Command, CommandCode, in_help_order
from game.cli.errors import EXIT_BAD_INPUT, EXIT_INTERRUPTED, CliError, SearchInterrupted, one_line
from game.cli.files import short
from game.cli.options import Parser, program_name, refuse_nul
from game.i18n import SYSTEM, _, set_language
from game.notation import NotationError
from game.rules import RulesError


def table(more: Sequence[Command] = ()) -> tuple[Command, ...]:
    """The command line's commands and ``more`` (the window's, from ``game.launcher``), in help order."""
    return in_help_order((*COMMANDS, *more))


def build_parser(
    chosen: str | None = None, more: Sequence[Command] = ()
) -> tuple[argparse.ArgumentParser, CommandCode | None]:
    """The parser of every command in the table (of ``chosen`` alone when one is chosen), and
    the code of ``chosen``: only the chosen command's module is imported and only its
    arguments are added (the others' are not needed to parse it, and ``--help`` lists the
    commands from the table alone)."""
    prog = program_name()
    parser = Parser(
        prog=prog,
        description="Connect Four: a minimax explorer you can play. Without a command, the game window opens.",
        epilog=f"Also: '{prog} demo --out DIR' plays computer against computer headless "
        f"and saves screenshots of every screen into DIR; '{prog} install-desktop' gives the game "
        f"a menu entry and icons ('{prog} uninstall-desktop' removes them); '{prog} --version'.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    code = None
    for command in table(more):
        if chosen is not None and command.name != chosen:
            continue  # parsing one command needs its parser alone (each costs a start about 1 ms)
        sub = commands.add_parser(command.name, help=command.help)
        if command.name == chosen:
            code = command.load()
            code.add_arguments(sub)
    return parser, code


def chosen_command(argv: Sequence[str], more: Sequence[Command] = ()) -> Command | None:
    """The command ``argv`` names: its first word that is not an option (the program has
    no option of its own but --help), if the table holds it."""
    first = next((word for word in argv if not word.startswith("-")), None)
    return next((command for command in table(more) if command.name == first), None)


def import_command(argv: Sequence[str], more: Sequence[Command] = ()) -> None:
    """Import the module of the command ``argv`` names, if any, ahead of ``main``."""
    command = chosen_command(argv, more)
    if command is not None:
        command.load()


KERNEL_LOG = "ai.compiled.kernel_file"
"""The logger of the compiled kernels' loader: what a command says of them on stderr."""


class _StderrLines(logging.Handler):
    """A log record's message on whatever ``sys.stderr`` is at the time (a test's too)."""

    def emit(self, record: logging.LogRecord) -> None:
        print(self.format(record), file=sys.stderr, flush=True)


def say_kernel_builds() -> None:
    """Let a command say on stderr, once, that it compiles a fast solver or search (the
    first start of an install, or after the cache was cleared: 5-20 s) and when it is
    done, beside the loader's warnings (said as before: the message alone).  Done once."""
    logger = logging.getLogger(KERNEL_LOG)
    if not any(isinstance(handler, _StderrLines) for handler in logger.handlers):
        logger.addHandler(_StderrLines(logging.INFO))
        logger.setLevel(logging.INFO)


def main(
    argv: Sequence[str] | None = None,
    *,
    stdout: TextIO | None = None,
    stdin: TextIO | None = None,
    more: Sequence[Command] = (),
) -> int:
    """Run a subcommand (of the table, or of ``more``); return the exit code."""
    out = stdout or sys.stdout
    inp = stdin or sys.stdin
    say_kernel_builds()
    set_language(SYSTEM)  # messages in the system's language...
    words = sys.argv[1:] if argv is None else list(argv)
    chosen = chosen_command(words, more)
    parser, code = build_parser(chosen.name if chosen else None, more)
    args = parser.parse_args(words)
    if getattr(args, "json", False):
        set_language("en")  # ...machine-readable output in English
    if code is None:
        parser.print_help(out)
        return 0
    try:
        refuse_nul(args)
        return code.run(args, out, inp)
    except (CliError, BoardFileError, NotationError, IllegalMoveError, RulesError) as error:
        message = one_line(str(error))
        print(
            _("{prog} {command}: error: {message}").format(prog=parser.prog, command=args.command, message=message),
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    except UnicodeDecodeError as error:  # standard input (files are read as bytes)
        print(
            _("{prog} {command}: error: the input is not UTF-8 text ({reason})").format(
                prog=parser.prog, command=args.command, reason=error.reason
            ),
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    except SearchInterrupted as stopped:
        print(stopped, file=sys.stderr)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        print(_("{prog} {command}: stopped by Ctrl+C").format(prog=parser.prog, command=args.command), file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
    except code.user_errors as error:  # such as a book the solver could not do without
        print(
            _("{prog} {command}: error: {error}").format(prog=parser.prog, command=args.command, error=error),
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    except OSError as error:  # a file system refusal no check above foresaw
        where = f" ({short(error.filename)})" if getattr(error, "filename", None) else ""
        print(
            _("{prog} {command}: error: {value}{where}").format(
                prog=parser.prog, command=args.command, value=error.strerror or error, where=where
            ),
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
