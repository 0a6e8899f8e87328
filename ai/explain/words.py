"""An explanation in words: the one place its sentences, its spoken form and its text
diagram are made.  Pure functions of (explanation, names); no solver, no pygame.

    sentence(explanation)                       # "Zugzwang: player 2 answers every disc ..."
    sentence(explanation, {MAX: "you", MIN: "the computer"})
    brief(explanation, names)                   # the reason in one line (the screens' "Why:")
    spoken(explanation, names)                  # a short form for the voice
    diagram(explanation)                        # the board with the line or the pairs marked

Sentences go through gettext (``game.i18n``); "you" takes sentences of its own, as in
``ai.exact``.  Squares are written as the game writes cells (``c3``: column letter, row
from the bottom), columns 1-based.  The rule names are Allis's and stay as they are.
"""

from __future__ import annotations

from collections.abc import Mapping

from ai.exact import is_you
from ai.explain.explanation import (
    DRAW,
    WIN,
    Cause,
    Explanation,
    Reason,
    ReasonKind,
    Rule,
    Square,
    Strategy,
)
from game.i18n import N_, _, counted, ngettext
from game.rules import MAX, MIN

PLAIN_NAMES = {MAX: "player 1", MIN: "player 2"}
LINES_SAID = 2
"""Lines of one rule (aftereven, before, specialbefore) a sentence names, at most."""
"""The sides as the command line and ``--json`` name them (translated where shown)."""


def _names(names: Mapping[int, str] | None) -> dict[int, str]:
    if names is None:
        return {MAX: _("player 1"), MIN: _("player 2")}
    return dict(names)


def _squares(squares: tuple[Square, ...] | list[Square]) -> str:
    return ", ".join(square.name for square in squares)


def _columns(line: tuple[int, ...]) -> str:
    return " ".join(str(col + 1) for col in line)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _pick(name: str, you: str, named: str) -> str:
    """The sentence for "you" or for a named side (both already translated)."""
    return you if is_you(name) else named


# -- one sentence per kind ----------------------------------------------------------------
def sentence(explanation: Explanation, names: Mapping[int, str] | None = None) -> str:
    """The reason in plain words: one or a few sentences, starting with a capital."""
    return _capital(_reason_text(explanation.reason, explanation, _names(names)))


def _reason_text(reason: Reason, explanation: Explanation, names: dict[int, str]) -> str:
    name = names[reason.side]
    kind = reason.kind
    if kind is ReasonKind.WINS_NOW:
        return _pick(
            name,
            _("You win at once: a disc on {square} completes a line."),
            _("{name} wins at once: a disc on {square} completes a line."),
        ).format(name=name, square=reason.squares[0].name)
    if kind is ReasonKind.ONLY_MOVE:
        text = _only_move_text(reason)
        return text if reason.strategy is None else text + " " + _strategy_text(reason.strategy, explanation, names)
    if kind is ReasonKind.DOUBLE_THREAT:
        return _double_text(reason, name)
    if kind is ReasonKind.FORCED_WIN:
        plies = len(reason.line or ())
        said = _pick(
            name,
            _("You win by force in {plies}, whatever the replies: {line}."),
            _("{name} wins by force in {plies}, whatever the replies: {line}."),
        )
        return said.format(name=name, plies=counted(plies, "ply"), line=_columns(reason.line or ()))
    if kind in (ReasonKind.ZUGZWANG, ReasonKind.STRATEGY) and reason.strategy is not None:
        return _strategy_text(reason.strategy, explanation, names)
    if kind is ReasonKind.REFUTATION:
        return _refutation_text(reason, explanation, names)
    return _(
        "No simple reason: the result is the solver's proof; no short forced line, double threat or checked strategy was found."
    )


def _only_move_text(reason: Reason) -> str:
    return _("Only move: column {column} blocks the threat at {square}; every other column loses at once.").format(
        column=reason.squares[0].col + 1, square=reason.squares[0].name
    )


def _double_text(reason: Reason, name: str) -> str:
    first, second = reason.squares[0], reason.squares[1]
    stacked = first.col == second.col
    if reason.column is None:  # already standing
        if stacked:
            said = _pick(
                name,
                _("You threaten to win at {first} and right above it at {second}: blocking {first} opens {second}."),
                _(
                    "{name} threatens to win at {first} and right above it at {second}: blocking {first} opens {second}."
                ),
            )
        else:
            said = _pick(
                name,
                _("You threaten to win at {first} and at {second}: one disc cannot block both."),
                _("{name} threatens to win at {first} and at {second}: one disc cannot block both."),
            )
        return said.format(name=name, first=first.name, second=second.name)
    if stacked:
        said = _pick(
            name,
            _("Column {column} makes a double threat: you threaten {first} and right above it {second}."),
            _("Column {column} makes a double threat: {name} threatens {first} and right above it {second}."),
        )
    else:
        said = _pick(
            name,
            _("Column {column} makes a double threat: you threaten {first} and {second}; one disc cannot block both."),
            _(
                "Column {column} makes a double threat: {name} threatens {first} and {second}; one disc cannot block both."
            ),
        )
    return said.format(name=name, column=reason.column + 1, first=first.name, second=second.name)


def _strategy_text(strategy: Strategy, explanation: Explanation, names: dict[int, str]) -> str:
    """What the strategy is and what the check proved."""
    name = names[strategy.side]
    rules = _rules_text(strategy)
    if not strategy.pairs:  # the last discs: nothing to answer
        text = _no_pairs_text(strategy, name)
        if strategy.after:
            first = ngettext("After column {columns}:", "After columns {columns}:", len(strategy.after))
            text = first.format(columns=_columns(strategy.after)) + " " + text
        return text
    if strategy.follow_up_only:
        head = _pick(
            name,
            _("Zugzwang: you answer every disc in the same column ({rules})."),
            _("Zugzwang: {name} answers every disc in the same column ({rules})."),
        )
    else:
        head = _pick(name, _("You follow Allis's rules: {rules}."), _("{name} follows Allis's rules: {rules}."))
    parts = [head.format(name=name, rules=rules)]
    if strategy.follow_up_only:
        parts += _parity_parts(explanation, names)
    if strategy.after:
        first = ngettext("After column {columns}:", "After columns {columns}:", len(strategy.after))
        parts.insert(0, first.format(columns=_columns(strategy.after)))
    if strategy.claim == WIN:
        parts += _win_parts(strategy, name)
    else:
        taken = set(strategy.taken)
        theirs = [
            threat.square for threat in explanation.threats if threat.side != strategy.side and threat.square in taken
        ]
        if theirs:
            said = _pick(
                name,
                _("The other side's threats at {squares} are upper squares of pairs: you take them."),
                _("The other side's threats at {squares} are upper squares of pairs: {name} takes them."),
            )
            parts.append(said.format(name=name, squares=_squares(theirs)))
        said = _pick(
            name,
            _("Checked against every reply: you never lose, the other side never completes a line."),
            _("Checked against every reply: {name} never loses, the other side never completes a line."),
        )
        parts.append(said.format(name=name))
    return " ".join(parts)


def _parity_parts(explanation: Explanation, names: dict[int, str]) -> list[str]:
    """Whose threats stand on which rows: the heart of a zugzwang."""
    parts = []
    for side in (MAX, MIN):
        mine = [threat.square for threat in explanation.threats if threat.side == side]
        if mine:
            listed = ", ".join(
                (_("{square} (odd row)") if square.is_odd else _("{square} (even row)")).format(square=square.name)
                for square in mine
            )
            said = _pick(names[side], _("Your threats: {squares}."), _("Threats of {name}: {squares}."))
            parts.append(said.format(name=names[side], squares=listed))
    if parts:
        parts.append(_("Odd rows serve the first player, even rows the second."))
    return parts


def _no_pairs_text(strategy: Strategy, name: str) -> str:
    if strategy.claim == WIN:
        said = _pick(
            name,
            _("Whatever the other side plays, you win at once ({squares})."),
            _("Whatever the other side plays, {name} wins at once ({squares})."),
        )
        return said.format(name=name, squares=_squares(strategy.wins_at))
    return _("Checked against every reply: the last discs complete no line, the game ends in a draw.")


def _win_parts(strategy: Strategy, name: str) -> list[str]:
    """Where a winning strategy wins and, for a zugzwang, what the other side must play."""
    parts = []
    wins = strategy.wins_at
    if strategy.forced:
        said = ngettext(
            "Sooner or later the other side has to play {below}, right under the threat at {squares}.",
            "Sooner or later the other side has to play one of {below}, right under the threats at {squares}.",
            len(strategy.forced),
        )
        parts.append(said.format(below=_squares(strategy.forced), squares=_squares(wins)))
    said = _pick(
        name,
        _("Checked against every reply: you complete a line ({squares})."),
        _("Checked against every reply: {name} completes a line ({squares})."),
    )
    parts.append(said.format(name=name, squares=_squares(wins)))
    return parts


def _rules_text(strategy: Strategy) -> str:
    """ "claimeven in columns a, b; vertical on d2/d3; baseinverse on c1/e1"."""
    parts = []
    claimeven = sorted({use.squares[0].col for use in strategy.uses if use.rule is Rule.CLAIMEVEN})
    if claimeven:
        columns = ", ".join(str(col + 1) for col in claimeven)
        parts.append(
            ngettext("claimeven in column {columns}", "claimeven in columns {columns}", len(claimeven)).format(
                columns=columns
            )
        )
    for rule, said in (
        (Rule.VERTICAL, _("vertical on {pairs}")),
        (Rule.BASEINVERSE, _("baseinverse on {pairs}")),
        (Rule.LOWINVERSE, _("lowinverse on {pairs}")),
    ):
        found = ["/".join(square.name for square in use.squares) for use in strategy.uses if use.rule is rule]
        if found:
            parts.append(said.format(pairs=", ".join(found)))
    shown: dict[Rule, int] = {}
    for use in strategy.uses:  # the lines of each line rule: two at most (the JSON has them all)
        shown[use.rule] = shown.get(use.rule, 0) + 1
        if shown[use.rule] > LINES_SAID:
            continue
        if use.rule in (Rule.AFTEREVEN, Rule.BEFORE):
            said = _("aftereven on {line}") if use.rule is Rule.AFTEREVEN else _("before on {line}")
            parts.append(said.format(line=_line(use.squares)))
        elif use.rule is Rule.SPECIALBEFORE:
            line, outer = use.squares[:4], use.squares[4]
            parts.append(_("specialbefore on {line} with {square}").format(line=_line(line), square=outer.name))
    return "; ".join(parts)


def _line(squares: tuple[Square, ...]) -> str:
    """A line of four by its ends, as Allis writes a group: ``c1-f4``."""
    ends = sorted(squares)
    return f"{ends[0].name}-{ends[-1].name}"


def _refutation_text(reason: Reason, explanation: Explanation, names: dict[int, str], *, answer: bool = True) -> str:
    """What the move lost and why; ``answer``: and the other side's proof after it."""
    column = (reason.column or 0) + 1
    drop = {
        (WIN, DRAW): _("Column {column} turns the win into a draw."),
        (WIN, -WIN): _("Column {column} turns the win into a loss."),
        (DRAW, -WIN): _("Column {column} turns the draw into a loss."),
    }.get((explanation.result, -reason.outcome), _("Column {column} loses value."))
    text = drop.format(column=column)
    square = reason.squares[0].name if reason.squares else ""
    if reason.cause is Cause.LEAVES_THREAT:
        text += " " + _("It leaves the threat at {square}: the other side wins there at once.").format(square=square)
    elif reason.cause is Cause.PLAYS_UNDER_THREAT:
        text += " " + _("It lands right under the threat at {square}: the other side wins there at once.").format(
            square=square
        )
    elif reason.cause is Cause.GIVES_UP_SQUARE:
        text += " " + _(
            "It lands right under its own threat at {square}: the other side can now take that square."
        ).format(square=square)
    if answer and reason.then is not None and reason.cause not in (Cause.LEAVES_THREAT, Cause.PLAYS_UNDER_THREAT):
        said = _reason_text(reason.then, explanation, names)
        text += " " + _("Then: {answer}").format(answer=said)  # the words the one-line form uses
    return text


# -- the reason in one line ------------------------------------------------------------------
def brief(explanation: Explanation, names: Mapping[int, str] | None = None) -> str:
    """The reason in one line, for a screen's "Why:": the same proof as ``sentence`` said
    short (a strategy by what it makes the other side do, or by its rules' names; a
    refutation by its cause, or by the answer's proof said short)."""
    return _capital(_brief(explanation.reason, explanation, _names(names)))


def _brief(reason: Reason, explanation: Explanation, names: dict[int, str]) -> str:
    kind = reason.kind
    if kind is ReasonKind.ONLY_MOVE:
        return _only_move_text(reason)  # without the strategy that follows
    if kind in (ReasonKind.ZUGZWANG, ReasonKind.STRATEGY) and reason.strategy is not None:
        return _brief_strategy(reason.strategy, names)
    if kind is ReasonKind.REFUTATION:
        text = _refutation_text(reason, explanation, names, answer=False)
        then = reason.then
        if then is not None and then.proved and reason.cause not in (Cause.LEAVES_THREAT, Cause.PLAYS_UNDER_THREAT):
            text += " " + _("Then: {answer}").format(answer=_brief(then, explanation, names))
        return text
    if kind is ReasonKind.NO_SIMPLE_REASON:
        return _("No simple reason: the verdict is the solver's proof.")
    return _reason_text(reason, explanation, names)  # wins now, double threat, forced win: one line already


_ONE_LINE = {
    (True, True): (
        N_("Zugzwang: you answer every disc in the same column and complete a line ({squares})."),
        N_("Zugzwang: {name} answers every disc in the same column and completes a line ({squares})."),
    ),
    (True, False): (
        N_("Zugzwang: you answer every disc in the same column; the other side never completes a line."),
        N_("Zugzwang: {name} answers every disc in the same column; the other side never completes a line."),
    ),
    (False, True): (
        N_("You win with Allis's rules ({rules}), checked against every reply."),
        N_("{name} wins with Allis's rules ({rules}), checked against every reply."),
    ),
    (False, False): (
        N_("You hold the draw with Allis's rules ({rules}), checked against every reply."),
        N_("{name} holds the draw with Allis's rules ({rules}), checked against every reply."),
    ),
}
"""A strategy in one line, by (only same-column pairs?, a win?): for "you" and for a name
(a zugzwang without the square the other side must play, or a strategy by its rules)."""


def _brief_strategy(strategy: Strategy, names: dict[int, str]) -> str:
    """A checked strategy in one line: for a zugzwang what the other side is made to do,
    otherwise the rules it follows by name."""
    name = names[strategy.side]
    if not strategy.pairs:
        text = _no_pairs_text(strategy, name)
    elif strategy.follow_up_only and strategy.claim == WIN and strategy.forced:
        said = _pick(
            name,
            ngettext(
                "Zugzwang: you answer every disc in the same column, so the other side has to play {below}, "
                "right under the threat at {squares}.",
                "Zugzwang: you answer every disc in the same column, so the other side has to play one of "
                "{below}, right under the threats at {squares}.",
                len(strategy.forced),
            ),
            ngettext(
                "Zugzwang: {name} answers every disc in the same column, so the other side has to play {below}, "
                "right under the threat at {squares}.",
                "Zugzwang: {name} answers every disc in the same column, so the other side has to play one of "
                "{below}, right under the threats at {squares}.",
                len(strategy.forced),
            ),
        )
        text = said.format(name=name, below=_squares(strategy.forced), squares=_squares(strategy.wins_at))
    else:
        rules = ", ".join(rule.value for rule in Rule if any(use.rule is rule for use in strategy.uses))
        you, named = _ONE_LINE[(strategy.follow_up_only, strategy.claim == WIN)]
        text = _pick(name, _(you), _(named)).format(name=name, squares=_squares(strategy.wins_at), rules=rules)
    if strategy.after:
        first = ngettext("After column {columns}:", "After columns {columns}:", len(strategy.after))
        text = first.format(columns=_columns(strategy.after)) + " " + text
    return text


# -- the short spoken form ----------------------------------------------------------------------
def spoken(explanation: Explanation, names: Mapping[int, str] | None = None) -> str:
    """A short sentence for the voice."""
    return _capital(_spoken(explanation, _names(names)))


def _spoken(explanation: Explanation, named: dict[int, str]) -> str:
    reason = explanation.reason
    name = named[reason.side]
    kind = reason.kind
    if kind is ReasonKind.WINS_NOW:
        said = _pick(name, _("You win at once on {square}."), _("{name} wins at once on {square}."))
        return said.format(name=name, square=reason.squares[0].name)
    if kind is ReasonKind.ONLY_MOVE:
        return _("Only move: column {column}.").format(column=reason.squares[0].col + 1)
    if kind is ReasonKind.DOUBLE_THREAT:
        return _("Double threat at {first} and {second}.").format(
            first=reason.squares[0].name, second=reason.squares[1].name
        )
    if kind is ReasonKind.FORCED_WIN:
        said = _pick(name, _("You win by force in {plies}."), _("{name} wins by force in {plies}."))
        return said.format(name=name, plies=counted(len(reason.line or ()), "ply"))
    if kind in (ReasonKind.ZUGZWANG, ReasonKind.STRATEGY):
        if reason.outcome == WIN:
            said = _pick(name, _("You win by zugzwang."), _("{name} wins by zugzwang."))
            if kind is ReasonKind.STRATEGY:
                said = _pick(name, _("You win with Allis's rules."), _("{name} wins with Allis's rules."))
        else:
            said = _pick(name, _("You hold the draw by zugzwang."), _("{name} holds the draw by zugzwang."))
            if kind is ReasonKind.STRATEGY:
                said = _pick(
                    name, _("You hold the draw with Allis's rules."), _("{name} holds the draw with Allis's rules.")
                )
        return said.format(name=name)
    if kind is ReasonKind.REFUTATION:
        square = reason.squares[0].name if reason.squares else ""
        column = (reason.column or 0) + 1
        if reason.cause is Cause.LEAVES_THREAT:
            return _("Column {column} leaves the threat at {square}.").format(column=column, square=square)
        if reason.cause is Cause.PLAYS_UNDER_THREAT:
            return _("Column {column} plays under the threat at {square}.").format(column=column, square=square)
        if reason.cause is Cause.GIVES_UP_SQUARE:
            return _("Column {column} gives up {square}.").format(column=column, square=square)
        return _("Column {column} loses value.").format(column=column)
    return _("No simple reason.")


# -- the text diagram -------------------------------------------------------------------------
MARKS = {MAX: "O", MIN: "X"}


def diagram(explanation: Explanation) -> str:
    """The board (``O`` player 1, ``X`` player 2, ``.`` empty) with the forced line's discs
    numbered in order, or each pair of the strategy marked with one label (``1`` .. ``9``,
    then ``A`` ..): the same label on both squares of a pair."""
    cells: dict[Square, str] = {}
    for side, squares in zip((MAX, MIN), explanation.discs):
        for square in squares:
            cells[square] = MARKS[side]
    reason = explanation.reason
    strategy = reason.strategy
    if strategy is not None:
        _mark_after(cells, strategy.after, explanation.to_move)
        labels = "123456789ABCDEFGHJKLMNPQRSTUVWXYZ"
        for index, (a, b) in enumerate(strategy.pairs):
            cells[a] = cells[b] = labels[index % len(labels)]
    elif reason.line:
        _mark_line(cells, reason.line)
    rows = []
    for row in range(6, 0, -1):
        rows.append(f"{row} " + " ".join(cells.get(Square(col, row), ".") for col in range(7)))
    rows.append("  " + " ".join(chr(ord("a") + col) for col in range(7)))
    return "\n".join(rows)


def _mark_line(cells: dict[Square, str], line: tuple[int, ...]) -> None:
    """Number the line's discs where they land (1 the first)."""
    for number, col in enumerate(line, start=1):
        row = 1 + sum(1 for square in cells if square.col == col)
        cells[Square(col, row)] = str(number % 10)


def _mark_after(cells: dict[Square, str], after: tuple[int, ...], to_move: int) -> None:
    """Put the discs played before the pairs apply, marked as the side's discs (lower case)."""
    side = to_move
    for col in after:
        row = 1 + sum(1 for square in cells if square.col == col)
        cells[Square(col, row)] = MARKS[side].lower()
        side = -side
