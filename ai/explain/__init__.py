"""Why it wins: every exact verdict of the standard board explained, each explanation proved.

    from ai.explain.explainer import explain, explain_move   # in the worker: asks the solver
    from ai.explain.words import sentence, spoken, diagram    # anywhere: pure text

    explanation = explain(board.grid, board.to_move)
    explanation.result, explanation.moves           # the solver's: outcome, columns keeping it
    explanation.reason.kind                         # ReasonKind.ZUGZWANG, ...
    sentence(explanation, {MAX: "you", MIN: "the computer"})

The package, room by room:

- ``explanation``: the result types (``Explanation``, ``Reason``, ``Strategy``, ``Square``,
  ``Threat``, the enumerations of kinds, causes and rules); light, for the window.
- ``board``: squares, lines of four and threats of the standard board's bitboards.
- ``rules``: Allis's nine rules, each written once: where it applies, what it refutes.
- ``checker``: the proof of a strategy of pairs, against every reply to the end.
- ``strategies``: candidates from the pair rules, handed to the checker in a fixed order.
- ``explainer``: the solver's verdict and the reason, looked for in a documented order.
- ``words``: the sentences, the spoken form and the text diagram (gettext).

docs/why-it-wins.md says what each kind of reason proves and how.
"""

from __future__ import annotations

from ai.explain.explanation import (
    FORCED_PLIES,
    Cause,
    Explanation,
    Reason,
    ReasonKind,
    Rule,
    RuleUse,
    Square,
    Strategy,
    Threat,
)

__all__ = [
    "FORCED_PLIES",
    "Cause",
    "Explanation",
    "Reason",
    "ReasonKind",
    "Rule",
    "RuleUse",
    "Square",
    "Strategy",
    "Threat",
]
