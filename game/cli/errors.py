"""What a command's failure is, and how it is said: one line on stderr, never a traceback."""

from __future__ import annotations

EXIT_BAD_INPUT = 2
"""A bad file, position, move or option (argparse's own code for a bad option)."""

EXIT_INTERRUPTED = 130
"""Ctrl+C, as a shell reports a process ended by SIGINT."""


class CliError(Exception):
    """A user error to report in one line."""


class SearchInterrupted(Exception):
    """Ctrl+C during a search; the message says how far it got."""


MAX_ERROR_CHARS = 300
"""The longest error message printed (a huge bad argument it quotes is cut in the middle)."""


def one_line(message: str) -> str:
    """``message`` on one line of at most ``MAX_ERROR_CHARS``, whatever the input held."""
    message = " ".join(message.split())
    if len(message) > MAX_ERROR_CHARS:
        message = message[: MAX_ERROR_CHARS - 40] + " ... " + message[-35:]
    return message
