"""How strong each level is: ``python -m lab.strength`` (prints tables, asserts nothing).

1. A round robin of every preset plus plain depth 2 and depth 4 (``Level(2)``,
   ``Level(4)``), from balanced openings (``game.bots.openings``), each opening
   played with both colours, on 6x7, on 7x8 and on 7x8 with connect 5.  Per pair:
   wins/draws/losses, score % and the Elo difference with its 95% error bar.  Off the
   standard board Perfect plays exactly as Expert, so it sits out there.
2. Perfect from the empty board as the first player against every preset, and against
   the exact solver choosing at random among its value-keeping moves (seeded).
3. Agreement with perfect play on the benchmark positions (``ai/data/positions``): the
   share of moves that keep a win a win and a draw a draw, per level.
4. Seconds per move of Expert and Perfect (median and max).

``--mcts N ...`` instead plays each ``mcts:N`` (Monte Carlo tree search; ``20000+solver``,
``20000+tactics`` or ``20000+solver+tactics`` for its switches) against the presets of
``--against`` on 6x7: where it sits on the ladder.

``--quick`` runs a short version (fewer openings and positions).  ``--jobs N`` plays the
games of each match in N worker processes (default: the cores, at most the games; the
same games for every N); parts 2 to 4 stay in this process.  Everything is seeded, and
the levels are work (depth, nodes), with no clock deciding a move (``LADDER_MOVETIME``),
so every machine plays the same games.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ai.levels import PRESETS, Level, find_level
from ai.perfect import PerfectPlayer
from ai.player import choose_move
from ai.solver import SolveLimit, Solver
from game.board import Board
from game.bots.openings import opening_pool
from game.bots.players import LevelChooser, LevelSpec, Player, Side
from game.bots.runners import MatchPlan, Progress, play_game, play_match
from game.bots.statistics import GameRecord, MatchResult, fmt_elo
from game.notation import parse_moves
from game.rules import STANDARD, Rules

DATA = Path(__file__).resolve().parent.parent / "ai" / "data" / "positions"
Log = Callable[[str], object]
"""Where a run's lines go (``say`` prints them as they come)."""
BOARDS = {
    "6x7": Rules(),
    "7x8": Rules(rows=7, cols=8),
    "7x8 connect 5": Rules(rows=7, cols=8, connect=5),
}
LADDER = list(PRESETS)  # weakest first
SEED = 20261122


@dataclass
class Contestant:
    """A level in a match (``game.bots.players.LevelChooser``: ``choose_move`` with the level's own
    budgets, no move clock) that keeps its move times."""

    name: str
    level: Level
    seed: int = SEED
    times: list[float] = field(default_factory=list)
    plies: list[int] = field(default_factory=list)  # the disc count before each timed move

    def __post_init__(self) -> None:
        self.chooser = LevelChooser(self.name, self.level, seed=self.seed)

    def choose(self, board: Board, seconds: float) -> int:
        started = time.perf_counter()
        move = self.chooser.choose(board, seconds)
        self.times.append(time.perf_counter() - started)
        self.plies.append(board.ply)
        return move

    def close(self) -> None:
        pass


def contestants(rules: Rules) -> list[Contestant]:
    """Every preset (Perfect only on the standard board) and plain depths 2 and 4."""
    players = [Contestant(name, level) for name, level in PRESETS.items() if rules == STANDARD or not level.perfect]
    players += [Contestant("depth 2", Level(2)), Contestant("depth 4", Level(4))]
    return players


def score_line(result: MatchResult) -> str:
    return (
        f"{result.name_a:>8} vs {result.name_b:<8} {result.wins:3d} {result.draws:3d} {result.losses:3d}"
        f"  {result.score * 100:5.1f}%  {fmt_elo(*result.elo):>14}"
    )


def say(text: str) -> None:
    """Print a line at once (a ladder runs for minutes)."""
    print(text, flush=True)


def round_robin(
    rules: Rules, openings_count: int, log: Log, jobs: int | None = None
) -> dict[tuple[str, str], MatchResult]:
    """Every pair once, A the first named (the stronger by name order of the ladder)."""
    players = contestants(rules)
    results: dict[tuple[str, str], MatchResult] = {}
    times: dict[str, list[float]] = {p.name: [] for p in players}
    for a, b in itertools.combinations(players, 2):
        started = time.perf_counter()
        result = match(a, b, rules, 2 * openings_count, SEED, jobs)
        results[(a.name, b.name)] = result
        for name, seconds in move_times(result).items():
            times[name] += seconds
        log(f"  {score_line(result)}   ({time.perf_counter() - started:.0f} s)")
    log("Seconds per move: " + ", ".join(f"{n} {statistics.median(t):.3f}/{max(t):.2f}" for n, t in times.items() if t))
    log("  (median/max)")
    return results


LADDER_MOVETIME = 120.0
"""Seconds a move may take in these matches: a safety cap that no level's move comes near.
A level is its work; the match command's clock (1 s a move) cut the slow solver proofs of
connect 5 at a time that depended on the machine and its load, and so the games."""


def match(a: Contestant, b: Contestant, rules: Rules, games: int, seed: int, jobs: int | None) -> MatchResult:
    """``a`` against ``b`` through ``game.bots.runners.play_match`` (in ``jobs`` worker processes)."""
    spec_a, spec_b = LevelSpec(a.name, a.level, a.seed), LevelSpec(b.name, b.level, b.seed)
    progress = Progress(games) if sys.stderr.isatty() else None  # a terminal sees the match go
    outcome = play_match(
        spec_a,
        spec_b,
        MatchPlan(rules, games=games, movetime=LADDER_MOVETIME, seed=seed),
        jobs=jobs,
        progress=progress,
    )
    if outcome.interrupted:
        raise KeyboardInterrupt  # Ctrl+C stopped the match: stop the benchmark too
    return outcome.result


def move_times(result: MatchResult) -> dict[str, list[float]]:
    """Each player's seconds per move over the match's games (the opening excluded)."""
    times: dict[str, list[float]] = {result.name_a: [], result.name_b: []}
    for game in result.games:
        times[name_at(result, game, len(game.moves) - len(game.move_seconds))] += game.move_seconds[::2]
        times[name_at(result, game, len(game.moves) - len(game.move_seconds) + 1)] += game.move_seconds[1::2]
    return times


def name_at(result: MatchResult, game: GameRecord, ply: int) -> str:
    return result.name_a if game.side_at(ply) is Side.A else result.name_b


def score_of(results: dict[tuple[str, str], MatchResult], a: str, b: str) -> float | None:
    """``a``'s score against ``b`` (0..1), from whichever order they played in."""
    if (a, b) in results:
        return results[(a, b)].score
    if (b, a) in results:
        return 1 - results[(b, a)].score
    return None


def targets(board: str, results: dict[tuple[str, str], MatchResult]) -> list[str]:
    """The issue's targets for this board, each with its measured score."""
    lines = []
    need = 0.75 if board == "6x7" else 0.65
    names = [n for n in LADDER if any(n in pair for pair in results)]
    for lower, upper in zip(names, names[1:]):
        score = score_of(results, upper, lower)
        if score is not None:
            mark = "ok" if score >= need else "MISSED"
            lines.append(f"  {upper} vs {lower}: {score * 100:.1f}% (target {need * 100:.0f}%) {mark}")
    for upper, lower, need_here in (("Hard", "depth 2", 0.90), ("Expert", "depth 4", 0.85)):
        score = score_of(results, upper, lower)
        if score is not None:
            mark = "ok" if score >= need_here else "MISSED"
            lines.append(f"  {upper} vs {lower}: {score * 100:.1f}% (target {need_here * 100:.0f}%) {mark}")
    return lines


class RandomPerfect:
    """The exact solver as an opponent: a random move among those with the best exact
    score (so in a lost position it loses as slowly as it can)."""

    def __init__(self, seed: int):
        self.name = "solver (random perfect)"
        self.rng = random.Random(seed)
        self.player = PerfectPlayer()

    def choose(self, board: Board, seconds: float) -> int:
        scores = self.player.column_scores(board.grid, board.to_move)
        best = max(scores.values())
        return self.rng.choice(sorted(col for col, value in scores.items() if value == best))

    def close(self) -> None:
        pass


def perfect_first(games_vs_solver: int, log: Log) -> list[str]:
    """Perfect moving first from the empty board against every preset and the solver."""
    rules = Rules()
    lines = []
    opponents: list[Player] = [Contestant(name, level) for name, level in PRESETS.items()]
    opponents += [RandomPerfect(SEED + i) for i in range(games_vs_solver)]
    perfect = Contestant("Perfect", PRESETS["Perfect"])
    for number, opponent in enumerate(opponents):
        record = play_game(perfect, opponent, "", rules, a_first=True, number=number + 1)
        result = "won" if record.winner is Side.A else ("drew" if record.winner is None else "LOST")
        line = (
            f"  Perfect first vs {opponent.name}: {result} in {len(record.moves)} plies ({record.moves_string(rules)})"
        )
        lines.append(line)
        log(line)
    times = perfect.times
    lines.append(
        f"  Perfect's moves: median {statistics.median(times):.3f} s, max {max(times):.2f} s over {len(times)} moves"
    )
    by_ply: dict[int, list[float]] = {}
    for ply, seconds in zip(perfect.plies, times):
        by_ply.setdefault(ply, []).append(seconds)
    lines.append(
        "  per disc count (median/max s): "
        + ", ".join(f"{ply}: {statistics.median(t):.2f}/{max(t):.2f}" for ply, t in sorted(by_ply.items()))
    )
    for line in lines[-2:]:
        log(line)
    return lines


def agreement(levels: dict[str, Level], positions: int, log: Log) -> list[str]:
    """Share of each level's moves that keep the exact outcome, on benchmark positions."""
    rules = Rules()
    solver = Solver(rules)
    rows: list[tuple[str, int]] = []
    for name in ("Test_L3_R1", "Test_L2_R1"):
        lines = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
        step = max(1, len(lines) // (positions // 2))
        rows += [(moves, int(score)) for moves, score in lines[::step][: positions // 2]]
    out = []
    for level_name, level in levels.items():
        kept = 0
        times = []
        perfect = PerfectPlayer() if level.perfect else None
        for moves, score in rows:
            board = Board.from_moves(moves)
            started = time.perf_counter()
            choice = choose_move(level, board.grid, rules, board.to_move, seed=SEED, perfect_player=perfect)
            times.append(time.perf_counter() - started)
            assert choice.move is not None
            board.push(choice.move)
            outcome = board.outcome()
            if outcome is not None:
                after = 1 if outcome.winner is not None else 0
            else:
                after = -solver.solve_moves(parse_moves(board.moves_string(), rules), limit=SolveLimit(weak=True)).score
            kept += after == (score > 0) - (score < 0)
        line = (
            f"  {level_name:>8}: {kept}/{len(rows)} = {kept / len(rows) * 100:5.1f}% perfect moves"
            f"   (median {statistics.median(times):.3f} s, max {max(times):.2f} s per move)"
        )
        out.append(line)
        log(line)
    return out


LADDER_PAIRS = [
    ("Easy", "Beginner"),
    ("Medium", "Easy"),
    ("Hard", "Medium"),
    ("Expert", "Hard"),
    ("Perfect", "Expert"),
    ("Hard", "depth 2"),
    ("Expert", "depth 4"),
]
"""The pairs the issue sets targets for (upper first)."""


def ladder(
    rules: Rules,
    openings_count: int,
    log: Log,
    jobs: int | None = None,
    pairs: list[tuple[str, str]] | None = None,
) -> dict[tuple[str, str], MatchResult]:
    """Only the target pairs (or ``pairs`` of them), with more games each than the round
    robin can afford."""
    players = {p.name: p for p in contestants(rules)}
    results: dict[tuple[str, str], MatchResult] = {}
    for upper, lower in pairs or LADDER_PAIRS:
        if upper not in players or lower not in players:
            continue
        started = time.perf_counter()
        result = match(players[upper], players[lower], rules, 2 * openings_count, SEED + 1, jobs)
        results[(upper, lower)] = result
        log(f"  {score_line(result)}   ({time.perf_counter() - started:.0f} s)")
    return results


MCTS_OPPONENTS = ["Beginner", "Easy", "Medium"]
"""Who ``--mcts N`` plays: the lower rungs, where a few thousand random playouts sit."""


def mcts_ladder(
    playouts: list[str], opponents: list[str], openings_count: int, log: Log, jobs: int | None = None
) -> dict[tuple[str, str], MatchResult]:
    """Each ``mcts:N`` (``N``, ``N+solver``, ...) against each of ``opponents`` on 6x7, as the
    ladder measures (balanced openings, both colours, seeded): where MCTS sits among the levels."""
    players = {p.name: p for p in contestants(STANDARD)}
    results: dict[tuple[str, str], MatchResult] = {}
    for count in playouts:
        mcts_player = Contestant(f"mcts:{count}", find_level(f"mcts:{count}"))
        for name in opponents:
            started = time.perf_counter()
            result = match(mcts_player, players[name], STANDARD, 2 * openings_count, SEED + 1, jobs)
            results[(mcts_player.name, name)] = result
            log(f"  {score_line(result)}   ({time.perf_counter() - started:.0f} s)")
    return results


def ladder_openings(rules: Rules) -> int:
    """The ladder's openings per pair by default: 12 on 6x7; elsewhere the whole pool (32
    on 7x8), since a third of those games or more are drawn and 36 games leave a score
    within a game or two of any target."""
    return 12 if rules == STANDARD else len(opening_pool(rules))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.strength", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run: 6x7 only, 2 openings, 40 positions")
    parser.add_argument(
        "--openings",
        type=int,
        help="openings per pair (each played twice; default 4, quick 2; --ladder: 12 on 6x7, the whole pool elsewhere)",
    )
    parser.add_argument("--boards", nargs="*", choices=list(BOARDS), help="boards to play on (default all)")
    parser.add_argument(
        "--ladder", action="store_true", help="only the pairs with targets (adjacent presets, Hard-d2, Expert-d4)"
    )
    parser.add_argument(
        "--pairs",
        nargs="+",
        metavar="UPPER-LOWER",
        choices=[f"{upper}-{lower}" for upper, lower in LADDER_PAIRS],
        help="with --ladder: only these pairs, e.g. Expert-Hard (more openings for one step)",
    )
    parser.add_argument("--perfect", action="store_true", help="only Perfect first from the empty board")
    parser.add_argument(
        "--mcts",
        nargs="+",
        metavar="N",
        help="only mcts:N (N playouts; N+solver, N+tactics, N+solver+tactics) against --against on 6x7 "
        "(default 6 openings)",
    )
    parser.add_argument(
        "--against", nargs="+", default=MCTS_OPPONENTS, choices=list(PRESETS) + ["depth 2", "depth 4"], metavar="LEVEL"
    )
    parser.add_argument(
        "--jobs", type=int, metavar="N", help="games played at once in worker processes (default: the cores)"
    )
    args = parser.parse_args(argv)
    if args.jobs is not None and args.jobs < 1:
        parser.error(f"--jobs must be at least 1, not {args.jobs}")
    if args.openings is not None and args.openings < 1:
        parser.error(f"--openings must be at least 1, not {args.openings}")
    if args.ladder:
        started = time.perf_counter()
        say(f"Ladder pairs (seed {SEED + 1})")
        for board in args.boards or ["6x7"]:
            openings_count = args.openings or ladder_openings(BOARDS[board])
            say(f"\n## {board}: {BOARDS[board].describe()}; {openings_count} openings x 2 colours per pair")
            pairs = [tuple(pair.split("-", 1)) for pair in args.pairs] if args.pairs else None
            results = ladder(BOARDS[board], openings_count, say, args.jobs, pairs)
            say("Targets:")
            for line in targets(board, results):
                say(line)
        say(f"\nTotal time: {time.perf_counter() - started:.0f} s")
        return 0
    if args.perfect:
        perfect_first(2, say)
        return 0
    if args.mcts:
        started = time.perf_counter()
        openings_count = args.openings or 6
        say(f"MCTS on the ladder (seed {SEED + 1}); 6x7, {openings_count} openings x 2 colours per pair")
        mcts_ladder(args.mcts, args.against, openings_count, say, args.jobs)
        say(f"\nTotal time: {time.perf_counter() - started:.0f} s")
        return 0
    started = time.perf_counter()
    openings_count = args.openings or (2 if args.quick else 4)
    boards = args.boards or (["6x7"] if args.quick else list(BOARDS))

    def log(text: str) -> None:
        print(text, flush=True)

    log(f"Strength benchmark (seed {SEED}); {openings_count} openings x 2 colours per pair")
    for board in boards:
        rules = BOARDS[board]
        log(f"\n## {board}: {rules.describe()}   (A's wins, draws, losses, score, Elo A-B with 95% bar)")
        results = round_robin(rules, openings_count, log, args.jobs)
        log("Targets:")
        for line in targets(board, results):
            log(line)
    log("\n## Perfect as the first player from the empty board (6x7)")
    perfect_first(2 if args.quick else 6, log)
    log("\n## Agreement with perfect play on the benchmark positions (Test_L3_R1 + Test_L2_R1)")
    levels = {name: PRESETS[name] for name in LADDER}
    levels["depth 12"] = Level(12)
    if args.quick:
        levels = {name: PRESETS[name] for name in ("Medium", "Perfect")}
    agreement(levels, 40 if args.quick else 200, log)
    log(f"\nTotal time: {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("\nStopped.", file=sys.stderr)
        sys.exit(130)
