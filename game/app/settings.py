"""Settings and the win/draw/loss tally, saved as JSON in the user's preference folder.

A missing file means defaults; a corrupt file, or a value out of range, means the
default for what could not be read and a warning in the log, never a crash.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ai.levels import MAX_DEPTH, MIN_DEPTH, TIME_BUDGETS, Level
from game.rules import MAX_COLS, MAX_CONNECT, MAX_ROWS, MIN_COLS, MIN_CONNECT, MIN_ROWS, Mode, Rules, RulesError

log = logging.getLogger(__name__)

FILE_NAME = "settings.json"
OPPONENTS = ("computer", "human", "demo")
"""The computer, a second person at the same screen, computer against computer."""
STARTERS = ("human", "computer")
THEMES = ("classic", "night", "contrast")


def _empty_tally() -> dict[str, int]:
    return {"wins": 0, "draws": 0, "losses": 0}


def _empty_two_player_tally() -> dict[str, int]:
    return {"player1": 0, "player2": 0, "draws": 0}


@dataclass
class Settings:
    """Everything the player chooses in the menus, plus the tallies."""

    rows: int = 6
    cols: int = 7
    connect: int = 4
    gravity: bool = True
    mode: str = Mode.CLASSIC.value
    first: str = "human"
    opponent: str = "computer"
    sound: bool = True
    theme: str = "classic"
    depth: int = 4
    pruning: bool = True
    time_budget: float = 0.0
    # Player 2's level in computer vs computer (player 1 plays the level above).
    second_depth: int = 2
    second_pruning: bool = True
    second_time_budget: float = 0.0
    tally: dict[str, int] = field(default_factory=_empty_tally)
    two_player_tally: dict[str, int] = field(default_factory=_empty_two_player_tally)

    def rules(self) -> Rules:
        return Rules(self.rows, self.cols, self.connect, self.gravity, Mode(self.mode))

    def level(self) -> Level:
        return Level(self.depth, self.pruning, self.time_budget)

    def set_level(self, level: Level) -> None:
        self.depth, self.pruning, self.time_budget = level.depth, level.pruning, level.time_budget

    def second_level(self) -> Level:
        """Player 2's level in computer vs computer."""
        return Level(self.second_depth, self.second_pruning, self.second_time_budget)

    def set_second_level(self, level: Level) -> None:
        self.second_depth, self.second_pruning = level.depth, level.pruning
        self.second_time_budget = level.time_budget


_CHECKS = {
    "rows": lambda v: isinstance(v, int) and MIN_ROWS <= v <= MAX_ROWS,
    "cols": lambda v: isinstance(v, int) and MIN_COLS <= v <= MAX_COLS,
    "connect": lambda v: isinstance(v, int) and MIN_CONNECT <= v <= MAX_CONNECT,
    "gravity": lambda v: isinstance(v, bool),
    "mode": lambda v: v in {m.value for m in Mode},
    "first": lambda v: v in STARTERS,
    "opponent": lambda v: v in OPPONENTS,
    "sound": lambda v: isinstance(v, bool),
    "theme": lambda v: v in THEMES,
    "depth": lambda v: isinstance(v, int) and MIN_DEPTH <= v <= MAX_DEPTH,
    "pruning": lambda v: isinstance(v, bool),
    "time_budget": lambda v: isinstance(v, (int, float)) and float(v) in TIME_BUDGETS,
    "second_depth": lambda v: isinstance(v, int) and MIN_DEPTH <= v <= MAX_DEPTH,
    "second_pruning": lambda v: isinstance(v, bool),
    "second_time_budget": lambda v: isinstance(v, (int, float)) and float(v) in TIME_BUDGETS,
}


def _read_tally(value: object, template: dict[str, int]) -> dict[str, int] | None:
    if not isinstance(value, dict):
        return None
    tally = dict(template)
    for key in tally:
        count = value.get(key, 0)
        if not isinstance(count, int) or count < 0:
            return None
        tally[key] = count
    return tally


def load_settings(path: Path) -> Settings:
    """Read settings from ``path``; defaults for whatever is missing or wrong."""
    settings = Settings()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return settings
    except OSError as error:
        log.warning("cannot read settings %s (%s): using defaults", path, error)
        return settings
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
    except ValueError as error:
        log.warning("settings file %s is corrupt (%s): using defaults", path, error)
        return settings
    for name, check in _CHECKS.items():
        if name not in data:
            continue
        if check(data[name]):
            setattr(settings, name, float(data[name]) if name.endswith("time_budget") else data[name])
        else:
            log.warning("settings %s: %s=%r is not valid: using %r", path, name, data[name], getattr(settings, name))
    for name, template in (("tally", _empty_tally()), ("two_player_tally", _empty_two_player_tally())):
        if name in data:
            tally = _read_tally(data[name], template)
            if tally is None:
                log.warning("settings %s: %s is not valid: starting from zero", path, name)
            else:
                setattr(settings, name, tally)
    try:
        settings.rules()
    except RulesError as error:
        log.warning("settings %s: %s: using the standard board", path, error)
        settings.rows, settings.cols, settings.connect = 6, 7, 4
    return settings


def save_settings(settings: Settings, path: Path) -> bool:
    """Write settings to ``path`` (atomically); log and return False if it cannot."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(asdict(settings), indent=2), encoding="utf-8")
        os.replace(temporary, path)
        return True
    except OSError as error:
        log.warning("cannot save settings to %s: %s", path, error)
        return False
