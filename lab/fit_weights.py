"""Fit the evaluation's weights to solved positions: ``python -m lab.fit_weights``.

The evaluation (``ai.heuristic``) is a sum of terms: open windows holding at least m own
discs, centre discs, threat cells by row parity (live or dead), and having a live threat
on one's good rows.  How much each term is worth decides what the search aims for, and
on connect 5 the generic weights (made for connect 4) were measurably wrong: they count
a threat window ten times a window of three, while solved positions say a threat is
worth little unless it is live and on its owner's rows.  This script measures it:

1. Positions: seeded games from the balanced openings (``game.bots.openings``), each side a noisy
   search of 4 to 6 plies with now and then a random move, so the positions are varied;
   four positions a game between 22 and 39 discs.
2. Each is solved (win, draw or loss, the exact solver within ``--solver-nodes``); the
   ones the solver does not finish, and those the evaluation calls forced, are left out.
3. Each term's value in each position is read off the generated evaluator itself (one
   evaluator per term, that term's weight 1 and every other 0), so the fitted weights
   plug straight back into ``ai.heuristic.Weights``.
4. An ordered logistic regression (loss < draw < win, from the first player's side, who
   is to move as a control) fits the outcome on two thirds of the games and is scored on
   the rest (mean log-likelihood, higher is better): the generic weights, the weights in
   use, the generic weights' own terms refitted, and every term refitted.  Then both
   refits on every position, scaled so that a window of two discs is worth 5.

The games are played with the weights in use (they pick the openings and the moves), so
a rerun after a change of weights samples other positions; ``--save`` and
``--positions`` keep a sample (``ai/data/connect5_solved.txt`` is the 600-game sample of
the generic weights).  Seeded: the same arguments print the same table.  Nothing here
runs in the game.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ai.bitboard import fits_compiled, geometry
from ai.heuristic import TACTICAL, Weights, build_evaluator, generic_weights, weights_for
from ai.search import search
from ai.solver import SolveLimit, Solver, SolverStopped
from game.board import Board
from game.bots.openings import opening_pool
from game.notation import format_moves, parse_moves
from game.rules import MAX, Rules

SEED = 20261125
SAMPLES_PER_GAME = 4
FIRST_SAMPLE, LAST_SAMPLE = 22, 39
"""Discs of the sampled positions: where the searches' leaves lie in a middle game of a
7x8 board, and where the compiled solver still proves most positions."""
RANDOM_MOVE_SHARE = 0.05


@dataclass(frozen=True)
class Solved:
    """A position and its exact outcome for the first player (1 win, 0 draw, -1 loss)."""

    moves: tuple[int, ...]
    outcome: int

    def board(self, rules: Rules) -> Board:
        """The position, replayed from the empty board (``IllegalMoveError`` if it cannot be)."""
        board = Board(rules)
        for move in self.moves:
            board.push(move)
        return board


def play_and_solve(rules: Rules, game: int, solver_nodes: int) -> list[Solved]:
    """One seeded game of noisy searches; its sampled positions that the solver proves."""
    rng = random.Random(SEED * 1_000 + game)
    pool = opening_pool(rules)
    board = Board(rules)
    for move in parse_moves(pool[game % len(pool)], rules):
        board.push(move)
    depth, noise = rng.choice((4, 5, 6)), rng.choice((0, 10, 25, 40))
    sampled = set(rng.sample(range(FIRST_SAMPLE, LAST_SAMPLE + 1), SAMPLES_PER_GAME))
    solver = Solver(rules)
    geo = solver.geo
    found = []
    while not board.is_game_over():
        if board.ply in sampled:
            first, second = geo.from_grid(board.grid)
            current = first if board.to_move == MAX else second
            try:
                outcome = solver.solve_bits(
                    current, first | second, limit=SolveLimit(weak=True, nodes=solver_nodes)
                ).score
                found.append(Solved(tuple(board.moves), outcome * board.to_move))
            except SolverStopped:
                pass  # too deep to prove: left out
        if rng.random() < RANDOM_MOVE_SHARE:
            move = rng.choice(board.legal_moves())
        else:
            searched = search(board.grid, rules, depth, noise=noise, seed=game * 100 + board.ply, to_move=board.to_move)
            assert searched.move is not None  # the game is not over
            move = searched.move
        board.push(move)
    return found


def solved_positions(rules: Rules, games: int, solver_nodes: int, jobs: int) -> list[list[Solved]]:
    """Each game's solved positions, game by game (the same for any ``jobs``)."""
    if jobs <= 1:
        return [play_and_solve(rules, game, solver_nodes) for game in range(games)]
    with cf.ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(play_and_solve, [rules] * games, range(games), [solver_nodes] * games))


def save_positions(path: Path, rules: Rules, games: list[list[Solved]]) -> None:
    """Write the solved positions, one game a line: ``moves:outcome`` per position."""
    lines = [" ".join(f"{format_moves(list(p.moves), rules)}:{p.outcome}" for p in game) for game in games]
    path.write_text(
        f"# {rules.rows}x{rules.cols} connect {rules.connect}: solved positions of lab.fit_weights, a game a line\n"
        + "\n".join(lines)
        + "\n"
    )


def load_positions(path: Path, rules: Rules) -> list[list[Solved]]:
    """Read what ``save_positions`` wrote.

    Raises:
        OSError: the file cannot be read.
        ValueError: a line is not what ``save_positions`` writes (the message names it).
    """
    games = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if line.startswith("#"):
            continue
        positions = []
        for item in line.split():
            try:
                moves, outcome = item.split(":")
                if outcome not in ("-1", "0", "1"):
                    raise ValueError(f"outcome {outcome!r} is not -1, 0 or 1")
                position = Solved(tuple(parse_moves(moves, rules)), int(outcome))
                position.board(rules)  # the moves must be legal
            except ValueError as error:
                raise ValueError(f"line {number}: {item!r}: {error}") from None
            positions.append(position)
        games.append(positions)
    return games


PAIR, PAIR_VALUE = 2, 5
"""The fitted weights are scaled so that an open window of two own discs is worth 5 (as in
connect 4): the noisy levels' blur (``ai.levels``) stays in proportion to the windows."""

TERMS = ("centre", "parity_good", "parity_other", "dead_threat", "good_threat")
"""The terms besides the window tiers, as named in ``Weights``."""


def term_names(k: int) -> list[str]:
    return [f"windows >= {m}" for m in range(1, k)] + list(TERMS)


def unit_weights(k: int) -> list[Weights]:
    """One ``Weights`` per term: that term 1, every other 0."""

    def tiers(unit: int) -> tuple[tuple[int, int], ...]:
        return tuple((m, int(m == unit)) for m in range(1, k))

    units = [Weights(tiers=tiers(m), **dict.fromkeys(TERMS, 0)) for m in range(1, k)]
    units += [Weights(tiers=tiers(0), **{**dict.fromkeys(TERMS, 0), name: 1}) for name in TERMS]
    return units


def as_vector(weights: Weights, k: int) -> np.ndarray:
    """``weights`` as coefficients of the terms (``term_names``): the evaluation of a
    quiet position is its terms' values times this."""
    tiers = dict(weights.tiers)
    return np.array([tiers.get(m, 0) for m in range(1, k)] + [getattr(weights, name) for name in TERMS], float)


def term_values(rules: Rules, games: list[list[Solved]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(each term's value, the outcome, the game's number, who is to move: 1 the first
    player, -1 the second) of the quiet positions: those the evaluation does not call
    forced (``TACTICAL``, whatever the weights)."""
    geo = geometry(rules)
    evaluators = [build_evaluator(geo, weights) for weights in unit_weights(rules.connect)]
    rows, outcomes, numbers, to_move = [], [], [], []
    for number, solved in enumerate(games):
        for position in solved:
            board = position.board(rules)
            first, second = geo.from_grid(board.grid)
            terms = [evaluate(first, second) for evaluate in evaluators]
            if abs(terms[0]) >= TACTICAL:
                continue  # forced: the search sees it, the weights do not matter
            rows.append(terms)
            outcomes.append(position.outcome)
            numbers.append(number)
            to_move.append(board.to_move)
    return np.array(rows, float), np.array(outcomes), np.array(numbers), np.array(to_move, float)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    result: np.ndarray = 1 / (1 + np.exp(-x))
    return result


def _likelihoods(z: np.ndarray, cuts: np.ndarray, y: np.ndarray) -> np.ndarray:
    below_draw, below_win = _sigmoid(cuts[0] - z), _sigmoid(cuts[1] - z)
    return np.where(y < 0, below_draw, np.where(y == 0, below_win - below_draw, 1 - below_win)) + 1e-12


def fit(x: np.ndarray, y: np.ndarray, *, steps: int = 4_000, rate: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    """Ordered logistic regression of y (-1 < 0 < 1) on the columns of x: (weights, cuts).

    Plain gradient ascent on standardised columns (numpy only); the log-likelihood is
    concave, so it converges to the one maximum."""
    mean, spread = x.mean(axis=0), x.std(axis=0) + 1e-9
    z_cols = (x - mean) / spread
    weights, cuts = np.zeros(x.shape[1]), np.array([-1.0, 1.0])
    for _ in range(steps):
        z = z_cols @ weights
        below_draw, below_win = _sigmoid(cuts[0] - z), _sigmoid(cuts[1] - z)
        p = _likelihoods(z, cuts, y)
        d_draw, d_win = below_draw * (1 - below_draw), below_win * (1 - below_win)
        grad_z = np.where(y < 0, -d_draw / p, np.where(y == 0, (d_draw - d_win) / p, d_win / p))
        grad_draw = np.where(y < 0, d_draw / p, np.where(y == 0, -d_draw / p, 0))
        grad_win = np.where(y < 0, 0, np.where(y == 0, d_win / p, -d_win / p))
        weights += rate * z_cols.T @ grad_z / len(y)
        cuts = np.sort(cuts + rate * np.array([grad_draw.mean(), grad_win.mean()]))
    real = weights / spread
    return real, cuts - mean @ real


def log_likelihood(x: np.ndarray, y: np.ndarray, weights: np.ndarray, cuts: np.ndarray) -> float:
    """Mean log-likelihood of the outcomes under a fitted model (0 is perfect)."""
    return float(np.log(_likelihoods(x @ weights, cuts, y)).mean())


def to_weights(k: int, fitted: np.ndarray, scale: float) -> Weights:
    """The fitted coefficients as integer ``Weights``: per-tier increments, ``scale`` per unit."""
    values = [int(round(v * scale)) for v in fitted]
    tiers = tuple((m, values[m - 1]) for m in range(1, k) if values[m - 1])
    return Weights(tiers=tiers, **dict(zip(TERMS, values[k - 1 :])))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.fit_weights", description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=7)
    parser.add_argument("--cols", type=int, default=8)
    parser.add_argument("--connect", type=int, default=5)
    parser.add_argument("--games", type=int, default=600, help="seeded games to sample (default 600)")
    parser.add_argument("--solver-nodes", type=int, default=10_000_000, help="a position's solve at most (default 10M)")
    parser.add_argument("--jobs", type=int, default=2, help="games played at once in worker processes")
    parser.add_argument("--save", type=Path, help="write the solved positions to this file")
    parser.add_argument("--positions", type=Path, help="fit the positions of this file (from --save) instead")
    args = parser.parse_args(argv)
    try:
        rules = Rules(rows=args.rows, cols=args.cols, connect=args.connect)
    except ValueError as error:
        parser.error(str(error))
    if not fits_compiled(rules):
        parser.error("the positions are solved with the compiled solver: at most 64 bits a position (7x8)")
    if args.games < 1 or args.solver_nodes < 1:
        parser.error("--games and --solver-nodes must be at least 1")
    if args.positions:
        try:
            games = load_positions(args.positions, rules)
        except (OSError, ValueError) as error:  # unreadable, or not what --save writes
            parser.error(f"cannot read positions from {args.positions}: {error}")
    else:
        games = solved_positions(rules, args.games, args.solver_nodes, max(1, args.jobs))
    if args.save:
        save_positions(args.save, rules, games)
    x, y, numbers, to_move = term_values(rules, games)
    if len(set(y.tolist())) < 3 or (numbers % 3 == 0).sum() == 0 or (numbers % 3 != 0).sum() == 0:
        print(f"too few solved positions to fit ({len(y)}): play more games", file=sys.stderr)
        return 1
    counts = {name: int((y == value).sum()) for name, value in (("losses", -1), ("draws", 0), ("wins", 1))}
    print(
        f"{rules.rows}x{rules.cols} connect {rules.connect}: {len(y)} quiet solved positions of {len(games)} games {counts}"
    )
    k = rules.connect
    generic = generic_weights(k)
    own = as_vector(generic, k) != 0  # the generic evaluation's own terms
    held_out = numbers % 3 == 0
    # Who is to move is a control: the side to move is worth something, but every leaf of
    # one search has the same side to move, so it is fitted and left out of the weights.
    models = (
        ("generic weights", (x @ as_vector(generic, k))[:, None]),
        ("weights in use", (x @ as_vector(weights_for(rules), k))[:, None]),
        ("generic's terms", x[:, own]),
        ("every term", x),
    )
    print("\nHeld-out log-likelihood (fitted on two thirds of the games, scored on the rest; 0 is perfect):")
    for name, terms in models:
        columns = np.column_stack([terms, to_move])
        weights, cuts = fit(columns[~held_out], y[~held_out])
        print(f"  {name:>15}: {log_likelihood(columns[held_out], y[held_out], weights, cuts):.4f}")
    print(f"\nFitted on every position, a window of {PAIR} discs worth {PAIR_VALUE}:")
    print(f"  {'term':>15} {'generic':>8} {'its terms':>10} {'every term':>11}")
    fits = []
    for chosen in (own, np.ones_like(own)):
        coefficients = np.zeros(len(own))
        coefficients[chosen] = fit(np.column_stack([x[:, chosen], to_move]), y)[0][:-1]
        fits.append(coefficients * PAIR_VALUE / coefficients[:PAIR].sum())
    for name, *values in zip(term_names(k), as_vector(generic, k), *fits):
        print(f"  {name:>15} " + " ".join(f"{v:{w}.2f}" for v, w in zip(values, (8, 10, 11))))
    print(f"\nfitted (generic's terms): {to_weights(k, fits[0], 1.0)!r}")
    print(f"fitted (every term):      {to_weights(k, fits[1], 1.0)!r}")
    print(f"in use:                   {weights_for(rules)!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
