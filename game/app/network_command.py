"""``host`` and ``join`` without ``--terminal``: the window, on the network screen.

``game.launcher`` sends these two commands here when ``--terminal`` is not among their
arguments; the arguments are the terminal commands' own (``game.cli.network``), read by
the same checks, so a bad option is the same one line and exit code 2, and no window opens.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from game.app.loop import launch
from game.app.navigation import HostGame, JoinGame
from game.cli.errors import EXIT_BAD_INPUT, CliError, one_line
from game.cli.network import add_host_arguments, add_join_arguments, host_settings, join_settings
from game.cli.options import Parser, program_name
from game.display_check import display_problem
from game.i18n import SYSTEM, _, set_language
from game.rules import RulesError


def main(argv: Sequence[str]) -> int:
    """Open the window hosting or joining as ``argv`` (``host ...`` or ``join ...``) asks."""
    set_language(SYSTEM)
    command, *rest = argv
    parser = Parser(prog=f"{program_name()} {command}")
    (add_host_arguments if command == "host" else add_join_arguments)(parser)
    args = parser.parse_args(rest)
    try:
        request = HostGame(host_settings(args)) if command == "host" else JoinGame(join_settings(args))
        problem = display_problem()
        if problem:
            raise CliError(problem)
    except (CliError, RulesError) as error:
        print(
            _("{prog} {command}: error: {message}").format(
                prog=program_name(), command=command, message=one_line(str(error))
            ),
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    return launch(request=request, home=Path(args.home) if args.home else None)
