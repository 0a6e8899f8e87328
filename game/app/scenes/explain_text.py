"""What the screens say about an explanation (``ai.explain``): the reason's line, the
Explain panel's words and the legend of the marks.  Pure functions, no pygame: the play
screen, the review, the puzzles, the retry and the analysis board say the same words,
and tests read them.

The reason itself is worded by ``ai.explain.words`` alone (``sentence``, its one-line
``brief``, its ``spoken`` form); this module only frames it.
"""

from __future__ import annotations

from collections.abc import Mapping

from ai.exact import is_you
from ai.explain.explanation import Explanation
from ai.explain.words import brief, sentence, spoken
from game.i18n import N_, _
from game.rules import MAX, MIN

WHY = N_("Why: {reason}")
"""The reason's line, on every screen that says why."""


def why_brief(explanation: Explanation, names: Mapping[int, str]) -> str:
    """ "Why: ..." in one line (the hint, the column scores, the review's mistakes)."""
    return _(WHY).format(reason=brief(explanation, names))


def why_full(explanation: Explanation, names: Mapping[int, str]) -> str:
    """ "Why: ..." in full (a wrong puzzle try, a retried mistake: the panel wraps it)."""
    return _(WHY).format(reason=sentence(explanation, names))


def reason(explanation: Explanation, names: Mapping[int, str]) -> str:
    """The reason in full, under a title of its own (the analysis board's panel)."""
    return sentence(explanation, names)


def why_spoken(explanation: Explanation, names: Mapping[int, str]) -> str:
    """The reason as the voice says it."""
    return spoken(explanation, names)


def working() -> str:
    return _("Why: working it out...")


def player_names(names: Mapping[int, str] | None = None) -> dict[int, str]:
    """The sides as an explanation names them on a screen: "you" where ``names`` says a
    side is the person, else player 1 and player 2."""
    plain = {MAX: _("player 1"), MIN: _("player 2")}
    if names is None:
        return plain
    return {side: _("you") if is_you(names.get(side, "")) else plain[side] for side in (MAX, MIN)}


def legend(explanation: Explanation) -> list[str]:
    """What the marks on the board mean, one line for each kind drawn."""
    lines = []
    reason = explanation.reason
    if reason.line:
        lines.append(_("Numbered faint discs: the forced line, in the order it is played."))
    elif reason.strategy is not None and reason.strategy.after:
        lines.append(_("Numbered faint discs: the columns played before the pairs start."))
    if reason.strategy is not None and reason.strategy.pairs:
        lines.append(_("Letters: the pairs of the strategy; both squares of a pair carry the same letter."))
    if explanation.threats:
        lines.append(
            _(
                "A faint disc with its row under it: a threat of that side; a round tag for an odd row, "
                "a square one for an even row (odd rows serve player 1, even rows player 2)."
            )
        )
    return lines


def panel_title(proved: bool) -> str:
    return _("Why it is so (proved)") if proved else _("Why it is so")


def refused(standard: bool, over: bool) -> str:
    """Why Explain has nothing to say here."""
    if not standard:
        said = _("explanations are for the standard board only (6x7, connect 4, gravity, classic)")
        return said[:1].upper() + said[1:]
    if over:
        return _("The game is over here: nothing to explain")
    return ""
