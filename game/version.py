"""The game's version: the one place it is written (``pyproject.toml`` reads it from here).

Standard library only, and no import of the ``game`` package's other modules, so
``main.py --version`` can read this file before the game's packages are installed.
"""

__version__ = "0.3.0"
