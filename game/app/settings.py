"""Settings and the win/draw/loss tally, saved as JSON in the user's preference folder.

The file is the user's record, so reading it never crashes and never loses more than
it must: whatever the bytes (junk, another encoding, a byte-order mark, a cut-off or
over-long file, nesting 100,000 deep, wrong types, absurd numbers), the game starts
with what could be read and the defaults for the rest, and says so in one warning.
Each value (each of a level's too: a level is one object), and each count of the
tally, is checked on its own.  A file that could not
be read whole is first copied aside (``settings.json.corrupt-<time>``) so the next save
does not destroy it.  Reading and saving go through ``game.regular_file``: saving is atomic
(a temporary file in the same folder, flushed and synced, then renamed over the old one); a
symlinked file is saved through its link; a FIFO, a device or a folder in the file's place
(or a link to one) is named once, never read, copied or replaced, and the defaults are used.
"""

from __future__ import annotations

import codecs
import enum
import errno
import json
import logging
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from ai.cost import Calibration
from ai.levels import MCTS_MAX_PLAYOUTS, NODE_BUDGETS, PRESETS, Level
from ai.search import MoveOrder
from game.net.client import clean_name
from game.regular_file import NotRegularFile, TooLarge, read_regular, set_aside, write_atomically
from game.rules import (
    MAX_COLS,
    MAX_CONNECT,
    MAX_DEPTH,
    MAX_ROWS,
    MIN_COLS,
    MIN_CONNECT,
    MIN_DEPTH,
    MIN_ROWS,
    Mode,
    Rules,
    RulesError,
)

log = logging.getLogger(__name__)

FILE_NAME = "settings.json"
MAX_FILE_BYTES = 1 << 20  # a settings file is under 1 KB; anything past 1 MB is not one
MAX_NESTING = 32  # the file nests two levels deep; deeper is junk (and json would recurse)
SALVAGE_CUTS = 400  # how many shorter prefixes of a broken file to try to close and parse
SALVAGE_MAX_CHARS = 64 * 1024  # longer broken files are not settings files: no salvage
MIN_WINDOW, MAX_WINDOW = (480, 400), (16384, 16384)


class Opponent(str, enum.Enum):
    """Who plays the other side (a ``str``, so the file and old comparisons still read it)."""

    def __str__(self) -> str:
        return str(self.value)

    COMPUTER = "computer"  # the person against the computer
    HUMAN = "human"  # two people at the same screen
    DEMO = "demo"  # computer against computer


OPPONENTS = tuple(Opponent)
STARTERS = ("human", "computer")
THEMES = ("classic", "night", "contrast", "protanopia", "deuteranopia", "tritanopia", "monochrome")
"""The palettes (``game.app.theme.PALETTES``): three everyday ones, then one per type of
colour-vision deficiency and a monochrome one."""
MOTIONS = ("normal", "fast", "off")
"""Animation speed: a falling disc's pace, or none at all (discs appear at once, nothing
pulses; ``game.app.animation``)."""
LANGUAGE_CHOICES = ("system", "en", "de", "es")
"""The Language row: the system's language, or one of the shipped catalogs (``game.i18n``)."""
UI_SCALES = (100, 125, 150, 200)
"""Text and the widgets sized by it, in per cent (``Theme.scale``)."""


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
    opponent: Opponent = Opponent.COMPUTER
    sound: bool = True
    theme: str = "classic"
    motion: str = "normal"
    speech: bool = False  # spoken output of the status line (``game.app.speech``)
    ui_scale: int = 100
    language: str = "system"  # "system" or a code of ``game.i18n.LANGUAGES``
    name: str = ""  # the player's name over the network ("": the login name, ``game.net.client.player_name``)
    level: Level = PRESETS["Easy"]  # the computer's (player 1's in computer vs computer); a named one from the start
    second_level: Level = Level(2)  # player 2's in computer vs computer
    window_size: tuple[int, int] = (1024, 720)  # the window's last size (windowed, not full screen)
    calibration: Calibration | None = None  # this machine's search speed (``ai.timing``); None: time it
    tally: dict[str, int] = field(default_factory=_empty_tally)
    two_player_tally: dict[str, int] = field(default_factory=_empty_two_player_tally)

    def rules(self) -> Rules:
        return Rules(self.rows, self.cols, self.connect, self.gravity, Mode(self.mode))


LEVEL_FIELDS = tuple(f.name for f in fields(Level))
"""What the file holds of a side's level: one JSON object under the side's name
(``level``, ``second_level``) with a value per ``Level`` field, each checked on its own."""
OLD_LEVEL_PREFIXES = {"level": "", "second_level": "second_"}
"""Files written before a level was one object held it flat, one top-level value per
``Level`` field (``depth``, ..., player 2's ``second_depth``, ...): still read."""


# -- checking values one by one -------------------------------------------------------------
def _int_in(low: int, high: int) -> Callable[[object], int | None]:
    def read(value: object) -> int | None:
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return value
        return None

    return read


def _bool(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def _choice(options: tuple[str, ...]) -> Callable[[object], str | None]:
    def read(value: object) -> str | None:
        return value if isinstance(value, str) and value in options else None

    return read


def _opponent(value: object) -> Opponent | None:
    return Opponent(value) if isinstance(value, str) and value in OPPONENTS else None


def _node_budget(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value in NODE_BUDGETS else None


def _move_order(value: object) -> MoveOrder | None:
    orders = {order.value: order for order in MoveOrder}
    return orders.get(value) if isinstance(value, str) else None


def _window_size(value: object) -> tuple[int, int] | None:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        return None
    width = _int_in(MIN_WINDOW[0], MAX_WINDOW[0])(value[0])
    height = _int_in(MIN_WINDOW[1], MAX_WINDOW[1])(value[1])
    return None if width is None or height is None else (width, height)


def _name(value: object) -> str | None:
    """A player's name as any typed text is taken (``clean_name``); one that changes in the
    cleaning (a control character, a line break, too long) is not the one the player set."""
    return value if isinstance(value, str) and clean_name(value) == value else None


def _scale(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value in UI_SCALES else None


_READERS: dict[str, Callable[[object], object]] = {
    "rows": _int_in(MIN_ROWS, MAX_ROWS),
    "cols": _int_in(MIN_COLS, MAX_COLS),
    "connect": _int_in(MIN_CONNECT, MAX_CONNECT),
    "gravity": _bool,
    "mode": _choice(tuple(m.value for m in Mode)),
    "first": _choice(STARTERS),
    "opponent": _opponent,
    "sound": _bool,
    "theme": _choice(THEMES),
    "motion": _choice(MOTIONS),
    "speech": _bool,
    "ui_scale": _scale,
    "language": _choice(LANGUAGE_CHOICES),
    "name": _name,
    "window_size": _window_size,
}
_LEVEL_READERS: dict[str, Callable[[object], object]] = {
    "depth": _int_in(MIN_DEPTH, MAX_DEPTH),
    "pruning": _bool,
    "node_budget": _node_budget,
    "order": _move_order,
    "noise": _int_in(0, 1000),
    "perfect": _bool,
    "book_discs": _int_in(0, 42),
    "endgame_cells": _int_in(0, 1000),
    "endgame_percent": _int_in(0, 100),
    "solver_nodes": _int_in(0, 10**9),
    "playouts": _int_in(0, MCTS_MAX_PLAYOUTS),
    "mcts_solver": _bool,
    "mcts_tactics": _bool,
    "table": _bool,
}
"""One reader per ``Level`` field (``LEVEL_FIELDS``)."""
MAX_COUNT = 10**9  # games in a tally; more is a damaged file, not a record


def _short(value: object, limit: int = 40) -> str:
    """``repr`` cut to a readable length (a value can be a megabyte of junk)."""
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _read_tally(value: object, template: dict[str, int], name: str, problems: list[str]) -> dict[str, int]:
    """Each count on its own: a bad one is zero, the others are kept."""
    tally = dict(template)
    if not isinstance(value, dict):
        problems.append(f"{name} is not a table of counts: starting it from zero")
        return tally
    for key in tally:
        count = value.get(key, 0)
        if isinstance(count, int) and not isinstance(count, bool) and 0 <= count <= MAX_COUNT:
            tally[key] = count
        else:
            problems.append(f"{name}.{key}={_short(count)} is not a count: using 0")
    return tally


# -- reading the file --------------------------------------------------------------------
@dataclass(frozen=True)
class SettingsReport:
    """What ``read_settings`` found: the settings, what was wrong, where the file went."""

    settings: Settings
    problems: tuple[str, ...] = ()
    moved_to: Path | None = None

    @property
    def warning(self) -> str | None:
        """One sentence for the user, or None if the file was fine (or absent)."""
        if not self.problems:
            return None
        text = "Settings file: " + "; ".join(self.problems[:4])
        if len(self.problems) > 4:
            text += f"; and {len(self.problems) - 4} more"
        if self.moved_to is not None:
            text += f". The damaged file was kept as {self.moved_to.name}"
        return text + "."

    @property
    def notice(self) -> str | None:
        """The warning in one short sentence for the screen (the log has the details)."""
        if not self.problems:
            return None
        if self.moved_to is not None:
            return "The settings file was damaged: kept what could be read; the old file is saved beside it"
        names = [found.group(1) for problem in self.problems if (found := _VALUE_NAME.match(problem))]
        if names:
            return f"Settings that could not be read are back to their defaults: {', '.join(names)}"
        return "Some settings could not be read; the log says which"


_VALUE_NAME = re.compile(r"([a-z_]+(?:\.[a-z0-9_]+)?)(?:=| is not a table)")
"""The setting a problem is about ("tally.losses=-1 is not a count" -> tally.losses,
"level.node_budget=7 is not valid" -> level.node_budget)."""


class _Unreadable(ValueError):
    """The file's bytes do not hold a JSON object."""


def _decode(raw: bytes, problems: list[str]) -> str:
    """Bytes to text: a byte-order mark picks the encoding; bad UTF-8 becomes U+FFFD."""
    for bom, encoding in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if raw.startswith(bom):
            try:
                return raw.decode(encoding)
            except UnicodeDecodeError as error:
                raise _Unreadable(f"not valid {encoding.upper()} ({error.reason})") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        problems.append("bytes that are not UTF-8 were replaced")
        return raw.decode("utf-8", errors="replace")


def _nesting(text: str) -> tuple[int, list[str]]:
    """The deepest nesting of brackets outside strings, and the brackets still open."""
    stack: list[str] = []
    deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            stack.append("}" if char == "{" else "]")
            deepest = max(deepest, len(stack))
        elif char in "}]" and stack:
            stack.pop()
    if in_string:
        stack.append('"')
    return deepest, stack


class _HugeNumber:
    """An integer too long to be a setting (Python refuses over 4,300 digits)."""

    def __repr__(self) -> str:
        return "<a huge number>"


def _parse_int(digits: str) -> int | _HugeNumber:
    return int(digits) if len(digits) <= 40 else _HugeNumber()


_DECODER = json.JSONDecoder(parse_int=_parse_int)


def _salvage(text: str) -> dict[str, Any] | None:
    """The longest prefix of a cut-off or damaged file that closes into a JSON object."""
    if len(text) > SALVAGE_MAX_CHARS:
        return None
    for cut in range(len(text), max(0, len(text) - SALVAGE_CUTS), -1):
        prefix = text[:cut].rstrip()
        _, still_open = _nesting(prefix)
        if still_open and still_open[-1] == '"':
            prefix += '"'
            still_open.pop()
        prefix = prefix.rstrip().rstrip(",")
        try:
            data = _DECODER.decode(prefix + "".join(reversed(still_open)))
        except (ValueError, RecursionError):
            continue
        if isinstance(data, dict):
            return data
    return None


def _parse(text: str, problems: list[str]) -> dict[str, Any]:
    """The JSON object in ``text``; what follows it is ignored, a cut-off end is closed."""
    deepest, _ = _nesting(text)
    if deepest > MAX_NESTING:
        raise _Unreadable(f"nested {deepest} levels deep")
    text = text.strip()
    try:
        data, end = _DECODER.raw_decode(text)
    except ValueError as error:  # JSONDecodeError, or an integer of over 4,300 digits
        where = f" at line {error.lineno} column {error.colno}" if isinstance(error, json.JSONDecodeError) else ""
        reason = error.msg if isinstance(error, json.JSONDecodeError) else str(error)
        salvaged = _salvage(text)
        if salvaged is None:
            raise _Unreadable(f"not JSON ({reason}{where})") from None
        problems.append(f"the file is damaged ({reason}{where}); what could be read is kept")
        return salvaged
    if not isinstance(data, dict):
        raise _Unreadable(f"a JSON {type(data).__name__}, not an object")
    if text[end:].strip():
        problems.append("text after the settings was ignored")
    return data


def _move_aside(path: Path) -> Path | None:
    """Keep a damaged file beside itself, so the next save does not overwrite it (a regular
    file is renamed; behind a link its bytes are copied and the link kept)."""
    try:
        return set_aside(path)
    except OSError as error:
        log.warning("cannot keep the damaged settings file %s aside: %s", path, error.strerror or error)
        _NOT_KEPT.add(str(path))  # so no save of this session writes over it
        return None


_NOT_KEPT: set[str] = set()
"""Damaged settings files that could not be kept aside (a link to a huge file): this
process never saves over them."""


def read_settings(path: Path) -> SettingsReport:
    """Read settings from ``path``: defaults for what is missing or wrong, never an error."""
    settings = Settings()
    problems: list[str] = []
    try:
        raw = read_regular(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        return SettingsReport(settings)
    except NotRegularFile as error:  # a folder, a FIFO, a device, a link to one: left as it is
        return SettingsReport(settings, (f"it is {error.strerror}: using the defaults; it is left as it is",))
    except TooLarge:
        return SettingsReport(settings, ("over 1 MB: using the defaults",), _move_aside(path))
    except OSError as error:
        reason = error.strerror or type(error).__name__
        return SettingsReport(settings, (f"cannot be read ({reason}): using the defaults",), _move_aside(path))
    try:
        data = _parse(_decode(raw, problems), problems)
    except _Unreadable as error:
        return SettingsReport(settings, (f"{error}: using the defaults",), _move_aside(path))
    damaged = bool(problems)  # the file itself (not just a value) was damaged
    for name, reader in _READERS.items():
        if name not in data:
            continue
        value = reader(data[name])
        if value is None:
            problems.append(f"{name}={_short(data[name])} is not valid: using {getattr(settings, name)!r}")
        else:
            setattr(settings, name, value)
    for name, template in (("tally", _empty_tally()), ("two_player_tally", _empty_two_player_tally())):
        if name in data:
            setattr(settings, name, _read_tally(data[name], template, name, problems))
    if "calibration" in data:
        settings.calibration = _read_calibration(data["calibration"], problems)
    settings.level = _read_level(data, "level", default=settings.level, problems=problems)
    settings.second_level = _read_level(data, "second_level", default=settings.second_level, problems=problems)
    try:
        settings.rules()
    except RulesError as error:
        problems.append(f"{error}: using the standard board")
        settings.rows, settings.cols, settings.connect = 6, 7, 4
    moved_to = _move_aside(path) if damaged else None
    return SettingsReport(settings, tuple(problems), moved_to)


CALIBRATION_FIELDS = tuple(f.name for f in fields(Calibration))


def _read_calibration(value: object, problems: list[str]) -> Calibration | None:
    """The stored timing of this machine's search, or None (the game times it again) for
    anything but a whole, believable one: a wrong value is said, never used."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != set(CALIBRATION_FIELDS):
        problems.append(f"calibration={_short(value)} is not a timing: the search is timed again")
        return None
    numbers: dict[str, Any] = {
        name: float(value[name]) if type(value[name]) is int else value[name] for name in CALIBRATION_FIELDS
    }
    try:
        calibration = Calibration(**numbers)
        sane = calibration.is_sane()
    except (TypeError, ValueError, OverflowError):
        sane = False
    if not sane:
        problems.append(f"calibration={_short(value)} is not a timing: the search is timed again")
        return None
    return calibration


LATER_LEVEL_FIELDS = ("endgame_percent", "playouts", "mcts_solver", "mcts_tactics", "table")
"""``Level`` fields added after settings files were first written."""


def _stored_level(data: dict[str, Any], name: str, problems: list[str]) -> tuple[dict[str, Any], str]:
    """A side's level as the file holds it, and the prefix its values are named by in a
    problem: the object under ``name`` (``level.depth``), else the flat values of the old
    layout (``depth``, ``second_depth``: ``OLD_LEVEL_PREFIXES``)."""
    if name in data:
        stored = data[name]
        if isinstance(stored, dict):
            return stored, f"{name}."
        problems.append(f"{name} is not a table of values: using the default")
        return {}, f"{name}."
    prefix = OLD_LEVEL_PREFIXES[name]
    return {field: data[prefix + field] for field in LEVEL_FIELDS if prefix + field in data}, prefix


def _read_level(data: dict[str, Any], name: str, *, default: Level, problems: list[str]) -> Level:
    """The level of the side called ``name`` (its ``Settings`` field): each value checked
    on its own, a bad or missing one ``default``'s; a preset saved before a field existed
    stays that preset (``_keep_presets``)."""
    stored, label = _stored_level(data, name, problems)
    values: dict[str, Any] = {}
    for field_name, reader in _LEVEL_READERS.items():
        if field_name not in stored:
            continue
        value = reader(stored[field_name])
        if value is None:
            said = _plain(getattr(default, field_name))
            problems.append(f"{label}{field_name}={_short(stored[field_name])} is not valid: using {said!r}")
        else:
            values[field_name] = value
    return _keep_presets(replace(default, **values), [field for field in LEVEL_FIELDS if field not in stored])


def _keep_presets(level: Level, missing: list[str]) -> Level:
    """A preset saved before a ``Level`` field existed (Expert before ``endgame_percent``)
    is still that preset: the new field takes the preset's value, not the default."""
    if not missing or not set(missing) <= set(LATER_LEVEL_FIELDS):
        return level
    for preset in PRESETS.values():
        if replace(preset, **{name: getattr(level, name) for name in missing}) == level:
            return preset
    return level


def _plain(value: object) -> object:
    """A value as the file holds it (an enum by its value)."""
    return value.value if isinstance(value, enum.Enum) else value


def _level_json(level: Level) -> dict[str, object]:
    """A level as the file holds it: one object, a plain value per field."""
    return {name: _plain(getattr(level, name)) for name in LEVEL_FIELDS}


def _as_json(settings: Settings) -> dict[str, Any]:
    """What the file holds: the settings, each level as one object of plain values."""
    return {
        **asdict(settings),
        "level": _level_json(settings.level),
        "second_level": _level_json(settings.second_level),
        "calibration": None if settings.calibration is None else asdict(settings.calibration),
    }


def load_settings(path: Path) -> Settings:
    """Read settings from ``path``; log one warning if anything was wrong."""
    report = read_settings(path)
    if report.warning:
        log.warning("%s: %s", path, report.warning)
    return report.settings


def save_settings(settings: Settings, path: Path) -> bool:
    """Write settings to ``path`` atomically; log and return False if it cannot.

    ``game.regular_file``: a crash or a full disk mid-save leaves the old file whole, a
    symlinked settings file is written through its link (the link stays a link), and
    anything but a regular file in its place (a FIFO, a device, a link to one) is left
    as it is: the save fails, said once.
    """
    try:
        if str(path) in _NOT_KEPT:
            raise OSError(errno.EEXIST, "a damaged file that could not be kept aside is there: it is not written over")
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(_as_json(settings), indent=2)
        write_atomically(path, text.encode("utf-8"), mode=0o600)
        return True
    except OSError as error:
        said = f"cannot save settings to {path}: {error.strerror or error}"
        if said not in _SAID:  # a FIFO or a device in its place: said once, not at every save
            _SAID.add(said)
            log.warning("%s", said)
        return False


_SAID: set[str] = set()
"""The save failures already logged in this process."""
