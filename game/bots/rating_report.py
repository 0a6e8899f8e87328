"""A tournament's outcome as a person reads it (the rating list, LOS, the cross-table, each
pair's counts, what went wrong with which game) and as one JSON object; and its games as
a game file (PGN-like).  Pure functions of the outcome and its fit."""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from game.bots.players import Side
from game.bots.rating_list import Rating, RatingList, rating_text
from game.bots.round_robin import Anchor, Format, TournamentGame, TournamentOutcome, TournamentPlan
from game.bots.statistics import pentanomial
from game.bots.tournament import ENGINE_PREFIX, cannot_write_line, pgn_text, say_cannot_write, stop_lines
from game.regular_file import write_atomically

FIT_WORDS = "maximum likelihood of all games (Bradley-Terry, a draw half a point to each)"
INTERVAL_WORDS = (
    "95% intervals from the curvature of the log-likelihood (where a rating is infinite, "
    "its finite end from the profile likelihood)"
)


def anchor_words(outcome: TournamentOutcome, anchor: Anchor) -> str:
    """Which player is held at which rating, and why."""
    name = outcome.names[anchor.player]
    held = f"{name} held at {anchor.elo:.0f}"
    if anchor.ladder:
        return held + ", its rating on the ladder's scale (ai/ladder.py)"
    if outcome.plan.format is Format.GAUNTLET:
        return held + ": the others rated against the base only"
    return held


def interval_text(rating: Rating, anchor: bool) -> str:
    if anchor:
        return "(held)"
    if math.isnan(rating.elo):
        return "n/a: not placed"
    return f"{rating_text(rating.low)} .. {rating_text(rating.high)}"


def format_tournament(outcome: TournamentOutcome, anchor: Anchor, ratings: RatingList) -> str:
    """The whole report: the heading, the rating list, LOS, the cross-table, the pairs,
    the failures and what stopped the tournament short."""
    plan, names = outcome.plan, outcome.names
    match = plan.match
    played = len(outcome.games)
    engines = any(name.lower().startswith(ENGINE_PREFIX) for name in names)
    seed = f", seed {match.seed}" if match.seed is not None else ""
    lines = [
        f"{plan.format.value.capitalize()}: {len(names)} players, {match.rules.describe()}, "
        f"{match.games} games a pair{seed}; {played} of {plan.total} games played",
        "Levels play by their work (no clock)"
        + (f"; engines get {match.movetime * 1000:.0f} ms a move." if engines else "."),
        f"Ratings: {FIT_WORDS}; {anchor_words(outcome, anchor)}; {INTERVAL_WORDS}.",
    ]
    order = ratings.ranked()
    width = max(6, *(len(name) for name in names))
    lines.append(f"{'Rank':>4}  {'Player':<{width}}  {'Elo':>5}  {'95% interval':<16}  {'Games':>5}  {'Score':>6}")
    for place, i in enumerate(order, start=1):
        rating = ratings.ratings[i]
        lines.append(
            f"{place:>4}  {rating.name:<{width}}  {rating_text(rating.elo):>5}  "
            f"{interval_text(rating, i == anchor.player):<16}  {rating.games:>5}  {rating.score * 100:>5.1f}%"
        )
    heads = [f"{place}" for place in range(1, len(order) + 1)]
    rows = [f"{place} {_label(names[i])}" for place, i in enumerate(order, start=1)]
    lines += ["", "LOS: the likelihood that the row's player is stronger than the column's (%)"]
    lines += _grid(rows, heads, [[f"{ratings.los[i][j] * 100:.1f}" if i != j else "-" for j in order] for i in order])
    points, games = outcome.score_table()
    cells = [
        ["-" if i == j else (f"{points[i, j]:g}/{games[i, j]:g}" if games[i, j] else ".") for j in order] for i in order
    ]
    lines += ["", "Cross-table: the row's points against the column, of the games they played"]
    lines += _grid(rows, heads, cells)
    lines += [
        "",
        "Pairs: the first named's wins-draws-losses; pentanomial counts of its game pairs "
        "(same opening, colours swapped) scoring 0, 1/2, 1, 3/2, 2 points",
    ]
    pair_width = max(len(f"{r.name_a} - {r.name_b}") for r in outcome.pair_results())
    for result in outcome.pair_results():
        counts = ", ".join(map(str, pentanomial(result.games)))
        lines.append(
            f"  {result.name_a + ' - ' + result.name_b:<{pair_width}}  "
            f"{result.wins}-{result.draws}-{result.losses}  Ptnml(0-2) {counts}"
        )
    lines += failure_lines(outcome)
    lines += stop_lines(played, outcome.unplayed, outcome.interrupted, outcome.error)
    return "\n".join(lines)


LABEL_CHARS = 24
"""A player's name is cut to this in the rows of the grids (the list above has it whole)."""


def _label(name: str) -> str:
    return name if len(name) <= LABEL_CHARS else name[: LABEL_CHARS - 3] + "..."


def _grid(rows: list[str], heads: list[str], cells: list[list[str]]) -> list[str]:
    left = max(len(row) for row in rows)
    width = max(6, *(len(cell) for row in cells for cell in row))
    lines = [" " * left + "".join(f"  {head:>{width}}" for head in heads)]
    for row, values in zip(rows, cells):
        lines.append(f"{row:<{left}}" + "".join(f"  {value:>{width}}" for value in values))
    return lines


def failure_lines(outcome: TournamentOutcome) -> list[str]:
    """Every game a player lost by failing (crash, time, an illegal or unreadable move):
    which game, who played, who failed and how."""
    names = outcome.names
    failed = [game for game in outcome.games if game.record.failure is not None]
    if not failed:
        return ["Games lost by failure: none"]
    lines = ["Games lost by failure:"]
    for game in failed:
        record = game.record
        side = record.failed_side or Side.A
        lines.append(
            f"  game {record.number} ({names[game.first]} - {names[game.second]}): "
            f"{game.name(names, side)} lost on {record.termination.value}: {record.detail}"
        )
    return lines


def tournament_json(outcome: TournamentOutcome, anchor: Anchor, ratings: RatingList) -> dict[str, Any]:
    """The outcome as one JSON object: ``players`` (in the order given), ``ratings`` (name
    -> ``elo``, ``low``, ``high``, ``games``, ``score``, ``rank``; an infinite or unplaced
    value is null), ``los`` (row -> column -> probability), ``crosstable`` (row -> column
    -> points and games), ``pairs`` (each pair's W-D-L and pentanomial counts), ``games``
    (``first``, ``second``, ``moves`` as 1-based columns, ``result``), and how it was
    fitted and played."""
    plan, names = outcome.plan, outcome.names
    points, games = outcome.score_table()
    order = ratings.ranked()
    rules = plan.match.rules
    return {
        "format": plan.format.value,
        "rules": rules.describe(),
        "games_per_pair": plan.match.games,
        "engine_movetime_ms": round(plan.match.movetime * 1000),
        "seed": plan.match.seed,
        "players": list(names),
        "fit": FIT_WORDS,
        "intervals": INTERVAL_WORDS,
        "anchor": {"player": names[anchor.player], "elo": anchor.elo, "ladder": anchor.ladder},
        "ratings": {
            rating.name: {
                "elo": _number(rating.elo),
                "low": _number(rating.low),
                "high": _number(rating.high),
                "games": rating.games,
                "score": rating.score,
                "rank": order.index(i) + 1,
            }
            for i, rating in enumerate(ratings.ratings)
        },
        "los": {
            names[i]: {names[j]: ratings.los[i][j] for j in range(len(names)) if j != i} for i in range(len(names))
        },
        "crosstable": {
            names[i]: {
                names[j]: {"points": float(points[i, j]), "games": int(games[i, j])}
                for j in range(len(names))
                if j != i and games[i, j]
            }
            for i in range(len(names))
        },
        "pairs": [
            {
                "first": result.name_a,
                "second": result.name_b,
                "wins": result.wins,
                "draws": result.draws,
                "losses": result.losses,
                "pentanomial": pentanomial(result.games),
            }
            for result in outcome.pair_results()
        ],
        "games": [_game_json(outcome, game) for game in outcome.games],
        "interrupted": outcome.interrupted,
        "unplayed": list(outcome.unplayed),
        "error": outcome.error,
    }


def _number(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _game_json(outcome: TournamentOutcome, game: TournamentGame) -> dict[str, Any]:
    record, names = game.record, outcome.names
    failed = record.failed_side
    return {
        "number": record.number,
        "first": names[game.first],
        "second": names[game.second],
        "opening": record.opening,
        "moves": record.moves_string(outcome.plan.match.rules),
        "result": record.result_text(),
        "termination": record.termination.value,
        "failed": game.name(names, failed) if failed is not None else None,
        "detail": record.detail or None,
    }


def game_pgn(plan: TournamentPlan, game: TournamentGame, date: str, played_at: float | None = None) -> str:
    """One game of the tournament as a game file's game; ``Round`` is its number in the
    tournament, ``Event`` names the tournament."""
    names = plan.names
    event = f"{plan.format.value}: {', '.join(names)}"
    return pgn_text(game.record, names[game.a], names[game.b], plan.match.rules, date, played_at, event=event)


PGN_SECONDS = 2.0
"""The game file is rewritten whole at most this often while games finish, and at the end."""


class TournamentPgn:
    """The tournament's games as one game file, rewritten whole (``game.regular_file``:
    never half a file, a symlink stays a link, never written through to a device or a FIFO) as games finish, at most every
    ``PGN_SECONDS`` and at the end, in tournament order.  The file is not touched before
    the first game is ready.  A write that fails is said once on ``warn``; the tournament
    and its report go on.  The command line checks the path before any game."""

    def __init__(self, path: str, plan: TournamentPlan, *, warn: TextIO | None = None):
        self.path = path
        self.plan = plan
        self.warn = warn if warn is not None else sys.stderr
        self.date = time.strftime("%Y.%m.%d")
        self.texts: dict[int, str] = {}
        self.written = 0
        self.failed: str | None = None
        self._last = 0.0

    def add(self, game: TournamentGame) -> None:
        self.texts[game.record.number] = game_pgn(self.plan, game, self.date, time.time())
        if time.monotonic() - self._last >= PGN_SECONDS:
            self.write()

    def write(self) -> None:
        """Write the file with every game so far (unless it failed before, or has them)."""
        self._last = time.monotonic()
        if self.failed is not None or len(self.texts) == self.written:
            return
        data = "".join(self.texts[number] for number in sorted(self.texts)).encode("utf-8")
        try:
            write_atomically(Path(self.path), data)
            self.written = len(self.texts)
        except OSError as problem:
            self.failed = problem.strerror or str(problem)
            say_cannot_write(self.warn, self.path, self.failed, self.written, "tournament")

    def close(self) -> None:
        self.write()

    def failure_line(self) -> str | None:
        """The last word on a failed file (None when every game was written)."""
        if self.failed is None:
            return None
        return cannot_write_line(self.path, self.failed, self.written, len(self.texts), "tournament")
