"""The command line: ``python main.py COMMAND`` (``main`` holds the parser and the
commands; ``review`` and ``explore`` the archive's and the explorer's commands)."""
