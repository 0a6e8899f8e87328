"""The title menu's sentences: pure functions of what the archive keeps (no pygame)."""

from __future__ import annotations

from ai.levels import level_title
from game.i18n import ngettext
from game.net.comeback import Comeback
from game.records import HUMAN, InProgress, Unfinished


def resume_label(kept: InProgress) -> str:
    """The button that resumes ``kept``, saying which game it is: "Resume against Perfect
    (12 discs)", "Resume the network game with Bob (9 discs)"."""
    count = len(kept.moves)
    if kept.kind is Unfinished.NETWORK:
        comeback = Comeback.of_unfinished(kept)
        if comeback is not None:
            return ngettext(
                "Resume the network game with {name} ({count} disc)",
                "Resume the network game with {name} ({count} discs)",
                count,
            ).format(name=comeback.other_name(kept), count=count)
        return ngettext(
            "Resume {first} against {second} ({count} disc)", "Resume {first} against {second} ({count} discs)", count
        ).format(first=kept.first, second=kept.second, count=count)
    if kept.kind is Unfinished.TWO_PLAYERS:
        return ngettext(
            "Resume the two-player game ({count} disc)", "Resume the two-player game ({count} discs)", count
        ).format(count=count)
    if kept.kind is Unfinished.DEMO:
        return ngettext(
            "Resume computer against computer ({count} disc)",
            "Resume computer against computer ({count} discs)",
            count,
        ).format(count=count)
    level = kept.second if kept.first == HUMAN else kept.first
    return ngettext(
        "Resume the game against {level} ({count} disc)", "Resume the game against {level} ({count} discs)", count
    ).format(level=level_title(level), count=count)
