"""Motion of a dropped disc: gravity, a small bounce, then rest.  No pygame here.

Positions are in cell units (row numbers, 0 at the top) so the motion is the same at
any window size, and it is integrated with ``dt`` so it is the same at any frame rate.
The motion setting (Options: normal, fast, off) sets the pace; with motion off there is
no drop at all (``make_drop`` gives None): the disc is in its cell at once.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

GRAVITY = 55.0  # cells per second squared
RESTITUTION = 0.3  # share of the speed kept by a bounce
REST_SPEED = 3.0  # below this impact speed the disc stops
MAX_STEP = 1 / 120  # seconds: long frames are integrated in small steps
PACE = {"normal": 1.0, "fast": 2.5}
"""How much faster than life a disc falls, per motion setting ("off": no fall at all)."""


class DropEvent(enum.Enum):
    """What happened to a falling disc during one update."""

    IMPACT = "impact"  # it hit the disc below (or the floor): a landing sound
    REST = "rest"  # it stopped for good


@dataclass
class DiscDrop:
    """A disc falling from ``start`` (a row, may be above the board) to ``row``."""

    row: int
    col: int
    side: int
    start: float = -1.0
    pace: float = 1.0  # time runs this many times faster (the "fast" motion setting)
    y: float = field(init=False)
    speed: float = field(init=False, default=0.0)
    bounces: int = field(init=False, default=0)
    landed: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        self.y = self.start

    def update(self, dt: float) -> list[DropEvent]:
        """Advance by ``dt`` seconds; return the events that happened, in order."""
        events: list[DropEvent] = []
        dt *= self.pace
        while dt > 0 and not self.landed:
            step = min(dt, MAX_STEP)
            dt -= step
            self.speed += GRAVITY * step
            self.y += self.speed * step
            if self.y >= self.row and self.speed > 0:
                self.y = float(self.row)
                impact = self.speed
                events.append(DropEvent.IMPACT)
                if impact < REST_SPEED or self.bounces >= 2:
                    self.landed = True
                    self.speed = 0.0
                    events.append(DropEvent.REST)
                else:
                    self.bounces += 1
                    self.speed = -impact * RESTITUTION
        return events

    def finish(self) -> None:
        """Put the disc in its cell at once (undo, restart)."""
        self.y = float(self.row)
        self.speed = 0.0
        self.landed = True


def make_drop(row: int, col: int, side: int, start: float, motion: str) -> DiscDrop | None:
    """The fall of a disc played into (``row``, ``col``) at the ``motion`` setting's pace,
    or None when motion is off (the disc is in its cell at once)."""
    pace = PACE.get(motion)
    return None if pace is None else DiscDrop(row, col, side, start=start, pace=pace)
