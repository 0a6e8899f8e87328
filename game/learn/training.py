"""Learn from your mistakes: the positions before the player's mistakes and blunders, the
judgement of a move tried there, and the round's score.  No pygame, no solver: the exact
column scores that judge come from the worker (a SCORES job, ``ai.player``'s one
decider), and this module only reads them.

    drills = drills_of_review(review, sides={MAX}, label="this game")
    drills, waiting = drills_of_records(archive.games())     # one queue across games
    verdict = judge(drill.board(), columns, tried=3)          # columns: {col: ExactScore}
    verdict.kept                                              # the exact outcome is kept

A try keeps the value when it keeps the exact outcome of the position (a win stays a
win, a draw a draw): the review's *best* or *good*.  A round scores as the review's
accuracy does: the first try at each position counts 1 for a best move, 1/2 for a good
one (a slower win or a quicker loss), 0 otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from ai.exact import ExactScore
from ai.exact import verdict as exact_words
from ai.review import GameReview, MoveClass, classify
from game.board import Board
from game.i18n import _, ngettext
from game.learn.explorer import column_words
from game.records import HUMAN, GameRecord
from game.rules import MAX, MIN, STANDARD, Rules

KEPT_WORD = {1: "win", 0: "draw", -1: "loss"}


@dataclass(frozen=True)
class Drill:
    """The position before a mistake, and the mistake.

    ``before`` are the moves from ``start`` (None: the empty board) up to the position;
    ``played`` the move that threw the outcome away; ``ply`` its number in the game;
    ``scores`` the review's exact column scores there, where the review is at hand (the
    worker's are asked for anyway)."""

    rules: Rules
    before: tuple[int, ...]
    played: int
    label: str
    who: str = "you"
    start: tuple[tuple[int, ...], ...] | None = None
    start_to_move: int = MAX
    move_class: MoveClass | None = None
    scores: Mapping[int, int] | None = field(default=None, compare=False)

    @property
    def ply(self) -> int:
        return len(self.before) + 1

    def board(self) -> Board:
        """The position the mistake was played in."""
        grid = self.rules.empty_grid() if self.start is None else np.array(self.start, dtype=np.int8)
        board = Board(self.rules, grid, self.start_to_move)
        for move in self.before:
            board.push(move)
        return board


def drills_of_review(review: GameReview, sides: Iterable[int], label: str, names: Mapping[int, str]) -> list[Drill]:
    """The mistakes and blunders of ``sides`` in a reviewed game, in the order played."""
    wanted = set(sides)
    return [
        Drill(
            review.rules,
            review.played[: m.ply - 1],
            m.move,
            label,
            names.get(m.side, f"player {1 if m.side == MAX else 2}"),
            review.start,
            review.start_to_move,
            m.move_class,
            m.scores,
        )
        for m in review.moves
        if m.side in wanted and not m.move_class.keeps_outcome
    ]


def stored_mistakes(record: GameRecord) -> list[int] | None:
    """The plies of a stored game's mistakes and blunders (both sides), from its review
    summary; None when it has no exact review yet.  Older summaries name only the
    turning points (the worst three)."""
    summary = record.review
    if not summary or not summary.get("exact"):
        return None
    plies = summary.get("mistakes", summary.get("turning_points"))
    if not isinstance(plies, list):
        return None
    return [p for p in plies if type(p) is int and 1 <= p <= len(record.moves)]


def person_sides(record: GameRecord) -> list[int]:
    """The sides a person played in a stored game."""
    return [side for side, name in ((MAX, record.first), (MIN, record.second)) if name == HUMAN]


def game_label(record: GameRecord) -> str:
    return _("the game of {date_text}").format(date_text=record.date_text)


def drills_of_records(records: Iterable[GameRecord]) -> tuple[list[Drill], list[GameRecord]]:
    """One queue of the person's mistakes across stored games on the standard board,
    oldest game first; and the games that wait for a review (their mistakes are not
    known until one is made: ``drills_of_game`` then)."""
    drills: list[Drill] = []
    waiting: list[GameRecord] = []
    for record in sorted(records, key=lambda r: r.played_at):
        sides = person_sides(record)
        if record.rules != STANDARD or not sides:
            continue
        plies = stored_mistakes(record)
        if plies is None:
            waiting.append(record)
            continue
        for ply in plies:
            if (MAX if ply % 2 == 1 else MIN) in sides:
                drills.append(Drill(record.rules, record.moves[: ply - 1], record.moves[ply - 1], game_label(record)))
    return drills, waiting


def drills_of_game(record: GameRecord, review: GameReview) -> list[Drill]:
    """The person's mistakes in a stored game, from its review made just now."""
    sides = person_sides(record)
    return drills_of_review(review, sides, game_label(record), {side: "you" for side in sides})


@dataclass(frozen=True)
class Verdict:
    """A move tried in a drill's position, judged by the exact column scores."""

    tried: int
    move_class: MoveClass
    best_moves: tuple[int, ...]
    columns: Mapping[int, ExactScore] = field(compare=False)
    mover: int = MAX

    @property
    def kept(self) -> bool:
        """The try keeps the exact outcome (a best or a good move)."""
        return self.move_class.keeps_outcome

    @property
    def credit(self) -> float:
        return self.move_class.credit

    def words(self, column: int) -> str:
        return column_words(self.columns[column], self.mover)


def judge(board: Board, columns: Mapping[int, ExactScore], tried: int) -> Verdict:
    """Judge ``tried`` in ``board`` by every column's exact result (from the worker).

    Raises:
        KeyError: ``tried`` is not one of the scored (playable) columns.
    """
    mover = board.to_move
    scores = {col: exact.score(mover, board.grid) for col, exact in columns.items()}
    best = max(scores.values())
    centre = (board.rules.cols - 1) / 2
    best_moves = tuple(sorted((c for c, s in scores.items() if s == best), key=lambda c: (abs(c - centre), c)))
    return Verdict(tried, classify(scores[tried], best), best_moves, dict(columns), mover)


def columns_of_scores(board: Board, scores: Mapping[int, int]) -> dict[int, ExactScore]:
    """The review's benchmark scores of the side to move as exact results."""
    return {col: ExactScore.from_score(score, board.grid, board.to_move) for col, score in scores.items()}


def outcome_word(exact: ExactScore, mover: int) -> str:
    """ "win", "draw" or "loss" for ``mover``."""
    return KEPT_WORD[exact.pov(mover)]


def kept_words(exact: ExactScore, mover: int) -> str:
    """ "keeps the win, in 20 moves" / "keeps the draw" (of a try that kept the outcome)."""
    moves = exact.winner_moves
    kept = exact.pov(mover)
    if kept == 0:
        return _("keeps the draw")
    if moves is None:
        return _("keeps the win") if kept > 0 else _("keeps the loss")
    if kept > 0:
        said = ngettext("keeps the win, in {moves} move", "keeps the win, in {moves} moves", moves)
    else:
        said = ngettext("keeps the loss, in {moves} move", "keeps the loss, in {moves} moves", moves)
    return said.format(moves=moves)


def prompt_line(drill: Drill, played_class: MoveClass | None) -> str:
    """What the player is asked: the move played there, its class, the task."""
    you = drill.who == "you"
    if played_class is None:
        said = (
            _("Move {ply} of {label}: you played column {played}. Find a better move.")
            if you
            else _("Move {ply} of {label}: {who} played column {played}. Find a better move.")
        )
    elif you:
        said = _("Move {ply} of {label}: you played column {played}, a {word}. Find a better move.")
    else:
        said = _("Move {ply} of {label}: {who} played column {played}, a {word}. Find a better move.")
    word = played_class.word if played_class is not None else ""
    return said.format(ply=drill.ply, label=drill.label, who=drill.who, played=drill.played + 1, word=word)


def verdict_lines(
    drill: Drill, verdict: Verdict, reply: tuple[int, ExactScore] | None, *, replying: bool = False
) -> list[str]:
    """The judgement in words: well done, or the best move and what the try allows."""
    best = verdict.best_moves[0]
    mover = verdict.mover
    tried_words = verdict.words(verdict.tried)
    best_words = verdict.words(best)
    kept = kept_words(verdict.columns[verdict.tried], mover)
    if verdict.move_class is MoveClass.BEST:
        lines = [_("Well done: column {tried} {kept}: the best there is.").format(tried=verdict.tried + 1, kept=kept)]
    elif verdict.kept:
        lines = [
            _("Well done: column {tried} {kept}.").format(tried=verdict.tried + 1, kept=kept),
            _("Column {best} was even better ({best_words}): half a point.").format(
                best=best + 1, best_words=best_words
            ),
        ]
    else:
        lines = [
            _("Not this one: column {tried} is a {value}: {tried_words}.").format(
                tried=verdict.tried + 1, value=verdict.move_class.word, tried_words=tried_words
            ),
            _("Best was column {best}: {best_words} (the arrow on the board).").format(
                best=best + 1, best_words=best_words
            ),
        ]
        if verdict.tried == drill.played:
            lines.append(_("That is the move played in the game."))
        if reply is not None:
            move, exact = reply
            names = {MAX: _("player 1"), MIN: _("player 2")}
            answer = _("{names} answers column {move} (the faint disc)").format(names=names[-mover], move=move + 1)
            lines.append(
                _("What it allows: {answer}: {exact_words}.").format(
                    answer=answer, exact_words=exact_words(exact, names)
                )
            )
        elif replying:
            lines.append(_("What it allows: working out the best answer..."))
    return lines


@dataclass
class RoundScore:
    """The round so far: positions tried, points (first tries only), positions found."""

    tried: int = 0
    points: float = 0.0
    found: int = 0

    def add(self, result: Verdict) -> None:
        self.tried += 1
        self.points += result.credit
        self.found += result.kept

    def text(self, total: int, left: int) -> str:
        """ "Score: 1.5 of 2 · 3 to go" (``left`` positions still to try, of ``total``)."""
        if left <= 0:
            return _("Score: {points:g} of {tried} ({found} of {total} found)").format(
                points=self.points, tried=self.tried, found=self.found, total=total
            )
        if not self.tried:
            return ngettext("{left} position to try", "{left} positions to try", left).format(left=left)
        return _("Score: {points:g} of {tried} · {left} to go").format(points=self.points, tried=self.tried, left=left)
