"""The puzzle maker: finds puzzles with the exact solver, rates them by which levels solve
them, and writes the set the game ships (``game/data/puzzles.txt``).

    python -m lab.puzzle_maker [--seed 1] [--games 400] [--book 35000] [--seeds 8] [--per-band 60] [--jobs 2]

Seeded: the same arguments make the same file (the levels are work, not time).  Sources:
positions of the levels' self-play (seeded games between presets from random two-ply
openings, every position from 11 discs on, but those inside the line of the puzzle found
just before in the same game) and the drawn positions among seeded samples of the 12-disc
opening book with distances (their move order rebuilt).  ``ai.puzzles.PuzzleChecker``
keeps a position when it is a puzzle.  Each kept puzzle is tried by every preset
(Beginner and Easy with ``--seeds`` seeds, as they judge noisily), and
``ai.ladder.puzzle_rating`` places it on the levels' scale; ``ai.puzzle_themes.classify``
gives it its themes (a puzzle with none is not kept).  The set keeps up to ``--per-band``
puzzles of each band between two ladder rungs, chosen at random (seeded), then swapped
within their band, one by one, until every theme has ``--min-theme`` puzzles and the forced
blocks are at most a third of the later steps (``choose``).

It prints what it tried, kept and how long it took, and how the levels do on the set,
measured apart from the tries that placed the puzzles: the noisy levels try every puzzle
again with ``--seeds`` fresh seeds (the others play the same moves whatever the seed), and
"held out" places each puzzle without one level's tries and counts that level's solves of
the puzzles the other levels put near its rating.  It asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ai.bitboard import geometry
from ai.book import book
from ai.ladder import BELOW_BEGINNER, LEVEL_RATINGS, puzzle_rating
from ai.levels import PRESETS
from ai.player import choose_move
from ai.puzzle_themes import classify
from ai.puzzles import NOISY_LEVELS, PuzzleChecker, solve_rates
from game.board import Board
from game.puzzle_file import SHIPPED_FILE, Goal, Puzzle, Theme, make_puzzle, parse_themes, write_puzzles
from game.regular_file import read_regular, write_atomically
from game.rules import MAX, MIN, STANDARD

MIN_DISCS = 11
"""Self-play positions from this many discs on: their children reach the 12-disc book."""
SELF_PLAY_PAIRS = (("Beginner", "Easy"), ("Easy", "Medium"), ("Medium", "Hard"), ("Beginner", "Medium"))
BOOK_PARTS = 2
"""The book samples come in this many seeded parts (run side by side), whatever ``--jobs``:
the processes change how long a run takes, never what it finds."""
MAX_RATED_BYTES = 256 * 1024 * 1024
"""A saved run (``--save-rated``) of a few thousand puzzles is a few megabytes; past this it is refused unread."""
BAND_EDGES = (BELOW_BEGINNER, *LEVEL_RATINGS.values())
"""The bands of the set: between two rungs of the ladder (below Beginner, Beginner, ..., Perfect)."""
BLOCK_SHARE = 1 / 4
"""The largest share of the set's later steps the maker lets be forced blocks (a third at
most is the rule; a quarter leaves room)."""


@dataclass(frozen=True)
class Candidate:
    moves: tuple[int, ...]
    goal: Goal
    line: tuple[int, ...]
    source: str


def band_of(rating: int) -> int:
    """The band index of a rating: 0 below Beginner's rating ... 5 from Expert's up."""
    band = 0
    for index, edge in enumerate(BAND_EDGES[1:-1], start=1):
        if rating >= edge:
            band = index
    return band


def band_name(band: int) -> str:
    names = ["below " + list(LEVEL_RATINGS)[0]] + [f"{a}-{b}" for a, b in zip(LEVEL_RATINGS, list(LEVEL_RATINGS)[1:])]
    return f"{names[band]} ({BAND_EDGES[band]}-{BAND_EDGES[band + 1]})"


def self_play_positions(rng: random.Random, games: int) -> Iterator[list[int]]:
    """Every position from ``MIN_DISCS`` discs of ``games`` seeded games between presets."""
    for number in range(games):
        first, second = SELF_PLAY_PAIRS[number % len(SELF_PLAY_PAIRS)]
        if number % 2:
            first, second = second, first
        board = Board(STANDARD)
        for _ in range(2):
            board.push(rng.choice(board.legal_moves()))
        seed = rng.randrange(1 << 30)
        while board.outcome() is None:
            if board.ply >= MIN_DISCS:
                yield list(board.moves)
            level = PRESETS[first if board.to_move == MAX else second]
            move = choose_move(level, board.grid, STANDARD, board.to_move, seed=seed + board.ply).move
            assert move is not None  # the game is not over
            board.push(move)


def moves_of_grid(grid: np.ndarray) -> list[int] | None:
    """A move order from the empty board that reaches ``grid`` (None: there is none).

    Discs are taken off the column tops backwards, the last mover's first; the fours only
    grow as discs are added, so a position without one had none on the way."""
    grid = np.array(grid, dtype=np.int8)
    discs = int(np.count_nonzero(grid))
    heights = [int(np.count_nonzero(grid[:, col])) for col in range(STANDARD.cols)]

    def top(col: int) -> int:
        return int(grid[STANDARD.rows - heights[col], col]) if heights[col] else 0

    def undo(left: int) -> list[int] | None:
        if left == 0:
            return []
        side = MAX if left % 2 == 1 else MIN
        for col in range(STANDARD.cols):
            if heights[col] and top(col) == side:
                heights[col] -= 1
                rest = undo(left - 1)
                heights[col] += 1
                if rest is not None:
                    return [*rest, col]
        return None

    return undo(discs)


def book_positions(rng: random.Random, count: int) -> Iterator[list[int]]:
    """The drawn positions among ``count`` seeded samples of the 12-disc book with distances,
    as move orders: a unique saving move is what a 12-disc position offers (its wins have
    more than one winning column, or an answer found at once), and the book says which are
    draws before any solving."""
    opening = book()
    geo = geometry(STANDARD)
    for _ in range(count):
        first, second, value = opening.entry(rng.randrange(len(opening)))
        if value != 0:
            continue
        moves = moves_of_grid(geo.to_grid(first, second))
        if moves is not None:
            yield moves


def collect(job: tuple[str, int, int, int]) -> tuple[list[Candidate], int]:
    """The puzzles of one source (``self-play`` games or ``book`` samples; ``part`` splits
    a source between processes), each position once, and how many positions were tried.

    A self-play position on the line of the puzzle found just before it in the same game
    is the same puzzle a step later: it is skipped."""
    source, seed, part, count = job
    rng = random.Random(f"{seed} {source} {part}")
    positions = self_play_positions(rng, count) if source == "self-play" else book_positions(rng, count)
    checker = PuzzleChecker()
    seen: set[bytes] = set()
    found: list[Candidate] = []
    for moves in positions:
        if found and _on_line(moves, found[-1]):
            continue
        board = Board(STANDARD)
        for move in moves:
            board.push(move)
        key = min(board.grid.tobytes(), board.grid[:, ::-1].tobytes())
        if key in seen:
            continue
        seen.add(key)
        puzzle = checker.find(board, known=0 if source == "book" else None)
        if puzzle is not None:
            found.append(Candidate(tuple(moves), puzzle.goal, puzzle.line, source))
    return found, len(seen)


def _on_line(moves: Sequence[int], puzzle: Candidate) -> bool:
    """Whether ``moves`` reach a position inside ``puzzle``'s line."""
    whole = (*puzzle.moves, *puzzle.line)
    return len(puzzle.moves) < len(moves) <= len(whole) and tuple(moves) == whole[: len(moves)]


def candidate_rates(
    candidate: Candidate, seeds: int, first_seed: int = 0, levels: tuple[str, ...] = ()
) -> dict[str, float]:
    """Each preset's share of solves of ``candidate`` (``ai.puzzles.solve_rates``)."""
    puzzle = make_puzzle(candidate.moves, candidate.goal, candidate.line, 0, candidate.source)
    return solve_rates(puzzle, seeds, first_seed=first_seed, levels=levels)


@dataclass(frozen=True)
class Rated:
    """A found puzzle, each level's share of solves that placed it, and the noisy levels'
    shares over fresh seeds (the check apart from the placing tries)."""

    candidate: Candidate
    rates: dict[str, float]
    fresh: dict[str, float]
    themes: tuple[Theme, ...] = ()
    blocks: int = 0

    @property
    def later(self) -> int:
        """The line's player steps after the first."""
        return len(self.candidate.line) // 2

    def checked(self, name: str) -> float:
        """The level's share of solves apart from the placing tries."""
        return self.fresh.get(name, self.rates[name])


def write_rated(path: Path, rated: Sequence[Rated], tried: dict[str, int]) -> None:
    """Every found puzzle with each level's solves, and the positions tried (``--save-rated``)."""
    rows = [
        {
            "moves": list(r.candidate.moves),
            "goal": r.candidate.goal.value,
            "line": list(r.candidate.line),
            "source": r.candidate.source,
            "rates": r.rates,
            "fresh": r.fresh,
            "themes": [theme.value for theme in r.themes],
            "blocks": r.blocks,
        }
        for r in rated
    ]
    write_atomically(path, json.dumps({"tried": tried, "puzzles": rows}).encode("utf-8"))


@dataclass(frozen=True)
class Described:
    """A candidate's themes and forced blocks (None: a file written before they were kept)."""

    themes: tuple[Theme, ...]
    blocks: int


def read_rated(
    path: Path,
) -> tuple[list[Candidate], list[dict[str, float]], list[dict[str, float]], list[Described | None], dict[str, int]]:
    """What ``write_rated`` wrote (``fresh`` is empty, and the description None, for a file
    written before they were kept)."""
    data = json.loads(read_regular(path, MAX_RATED_BYTES))
    rows = data["puzzles"]
    candidates = [Candidate(tuple(r["moves"]), Goal(r["goal"]), tuple(r["line"]), r["source"]) for r in rows]
    described = [
        Described(parse_themes(",".join(r["themes"])) if r["themes"] else (), r["blocks"]) if "themes" in r else None
        for r in rows
    ]
    return candidates, [r["rates"] for r in rows], [r.get("fresh", {}) for r in rows], described, data["tried"]


def describe(candidate: Candidate) -> Described:
    """The candidate's themes (``ai.puzzle_themes.classify``) and its forced blocks."""
    puzzle = make_puzzle(candidate.moves, candidate.goal, candidate.line, 0, candidate.source)
    return Described(classify(puzzle), PuzzleChecker().forced_blocks(puzzle))


def _rate(job: tuple[Candidate, int]) -> tuple[dict[str, float], Described]:
    candidate, seeds = job
    return candidate_rates(candidate, seeds), describe(candidate)


def _rate_again(job: tuple[Candidate, int]) -> dict[str, float]:
    """The noisy levels' tries with the seeds after the placing ones."""
    candidate, seeds = job
    return candidate_rates(candidate, seeds, first_seed=seeds, levels=NOISY_LEVELS)


def choose(rated: Sequence[Rated], per_band: int, seed: int, min_theme: int = 0) -> list[tuple[Puzzle, Rated]]:
    """Up to ``per_band`` puzzles of each band with at least one theme, seeded; in rating order.

    First a seeded random choice in each band; then swaps within a band, one at a time: a
    puzzle of a theme that has fewer than ``min_theme`` comes in for one that no short
    theme needs (the one with the most forced blocks first); then, while forced blocks are
    more than ``BLOCK_SHARE`` of the later steps, the chosen puzzle with the most blocks
    goes out for a spare one of its band with fewer, where no theme falls short by it."""
    rng = random.Random(seed)
    bands: dict[int, list[tuple[Puzzle, Rated]]] = {}
    for item in rated:
        c = item.candidate
        if not item.themes:
            continue
        puzzle = make_puzzle(c.moves, c.goal, c.line, puzzle_rating(item.rates), c.source, item.themes)
        bands.setdefault(band_of(puzzle.rating), []).append((puzzle, item))
    chosen: dict[int, list[tuple[Puzzle, Rated]]] = {}
    spare: dict[int, list[tuple[Puzzle, Rated]]] = {}
    for band in sorted(bands):
        members = bands[band]
        rng.shuffle(members)
        chosen[band], spare[band] = members[:per_band], members[per_band:]
    _fill_themes(chosen, spare, min_theme)
    _thin_blocks(chosen, spare, min_theme)
    every = [pair for band in sorted(chosen) for pair in chosen[band]]
    return sorted(every, key=lambda pair: (pair[0].rating, pair[0].id))


def theme_counts(pairs: Sequence[tuple[Puzzle, Rated]]) -> dict[Theme, int]:
    """How many of ``pairs`` have each theme."""
    return {theme: sum(theme in p.themes for p, _ in pairs) for theme in Theme}


def _everything(chosen: dict[int, list[tuple[Puzzle, Rated]]]) -> list[tuple[Puzzle, Rated]]:
    return [pair for band in sorted(chosen) for pair in chosen[band]]


def _can_leave(pair: tuple[Puzzle, Rated], counts: dict[Theme, int], min_theme: int) -> bool:
    """Whether no theme falls below ``min_theme`` (or further below it) without ``pair``."""
    return all(counts[theme] > min_theme for theme in pair[0].themes)


def _fill_themes(
    chosen: dict[int, list[tuple[Puzzle, Rated]]], spare: dict[int, list[tuple[Puzzle, Rated]]], min_theme: int
) -> None:
    for theme in Theme:
        while True:
            counts = theme_counts(_everything(chosen))
            if counts[theme] >= min_theme:
                break
            swap = None
            for band in sorted(spare):
                incoming = next((pair for pair in spare[band] if theme in pair[0].themes), None)
                leaving = [pair for pair in chosen[band] if theme not in pair[0].themes]
                leaving = [pair for pair in leaving if _can_leave(pair, counts, min_theme)]
                if incoming is not None and leaving:
                    swap = band, incoming, max(leaving, key=lambda pair: pair[1].blocks)
                    break
            if swap is None:
                break  # said by the maker's theme table: too few of this theme were found
            band, incoming, leaving_pair = swap
            spare[band].remove(incoming)
            chosen[band].remove(leaving_pair)
            chosen[band].append(incoming)
            spare[band].append(leaving_pair)


def _thin_blocks(
    chosen: dict[int, list[tuple[Puzzle, Rated]]], spare: dict[int, list[tuple[Puzzle, Rated]]], min_theme: int
) -> None:
    tried: set[str] = set()
    while True:
        every = _everything(chosen)
        blocks, later = sum(r.blocks for _, r in every), sum(r.later for _, r in every)
        if blocks <= BLOCK_SHARE * later:
            return
        counts = theme_counts(every)
        out = [pair for pair in every if pair[0].id not in tried and pair[1].blocks and _can_leave(pair, counts, 0)]
        if not out:
            return  # said by the maker's line on forced blocks
        leaving = max(out, key=lambda pair: (pair[1].blocks, pair[1].blocks / pair[1].later))
        tried.add(leaving[0].id)
        band = band_of(leaving[0].rating)
        for incoming in spare[band]:
            after = dict(counts)
            for theme in leaving[0].themes:
                after[theme] -= 1
            for theme in incoming[0].themes:
                after[theme] += 1
            short = any(after[t] < min(counts[t], min_theme) for t in Theme)
            if incoming[1].blocks * leaving[1].later < leaving[1].blocks * max(incoming[1].later, 1) and not short:
                spare[band].remove(incoming)
                chosen[band].remove(leaving)
                chosen[band].append(incoming)
                spare[band].append(leaving)
                break


def _share(values: Sequence[float]) -> str:
    return f"{100 * sum(values) / len(values):5.1f}% of {len(values):3}" if values else "        -"


def table(chosen: Sequence[tuple[Puzzle, Rated]]) -> list[str]:
    """Each level's solves per band (the noisy levels' fresh tries), and near its own
    rating (the band below it and the one above): on the placing tries and on fresh ones."""
    bands = sorted({band_of(p.rating) for p, _ in chosen})
    lines = [
        f"{'level':>9} {'rating':>6}  "
        + "  ".join(f"band {b}" for b in bands)
        + "   near own rating: placing tries, fresh tries"
    ]
    for name, own in LEVEL_RATINGS.items():
        cells = []
        for band in bands:
            shares = [r.checked(name) for p, r in chosen if band_of(p.rating) == band]
            cells.append(f"{100 * sum(shares) / len(shares):5.0f}%" if shares else "     -")
        index = list(LEVEL_RATINGS).index(name) + 1
        low = BAND_EDGES[index - 1]
        high = BAND_EDGES[index + 1] if index + 1 < len(BAND_EDGES) else 10_000
        near = [r for p, r in chosen if low <= p.rating < high]
        said = f"{_share([r.rates[name] for r in near])}, {_share([r.checked(name) for r in near])}"
        lines.append(f"{name:>9} {own:>6}  " + "  ".join(cells) + f"   {said}")
    return lines


def held_out(rated: Sequence[Rated], what: str) -> list[str]:
    """Each level's solves (fresh tries) of the puzzles that the *other* levels place near
    its rating: the strongest other level that misses them is the one just below it (for
    Beginner: no other level misses them), and the one just above finds them.  Over every
    found puzzle the level's own tries played no part in which are counted; over the set
    they did (they chose each puzzle's band, and the bands are filled alike), which pulls
    the shares towards 50%.  The set's table cannot be this check for the levels whose play
    does not depend on the seed."""
    names = list(LEVEL_RATINGS)
    lines = [f"{'level':>9}  solves of the puzzles the other levels place around its rating, {what}"]
    for index, name in enumerate(names[:-1]):
        below = names[index - 1] if index else None
        shares = []
        for item in rated:
            missers = [other for other in names if other != name and item.rates[other] < 0.5]
            strongest = max(missers, key=names.index) if missers else None
            if strongest == below:
                shares.append(item.checked(name))
        lines.append(f"{name:>9}  {_share(shares)}")
    return lines


def _made_with(argv: list[str]) -> list[str]:
    """The arguments that make the set (not where it is written, nor where a run's rated
    puzzles were kept or read, nor how many processes: none of those changes it)."""
    unsaid = ("--save-rated", "--from-rated", "--out", "--jobs")
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in unsaid:
            skip = True
        elif not arg.startswith(tuple(f"{name}=" for name in unsaid)):
            kept.append(arg)
    return kept


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=400, help="self-play games")
    parser.add_argument(
        "--book", type=int, default=35000, help="12-disc book positions sampled (the drawn ones are tried)"
    )
    parser.add_argument("--seeds", type=int, default=8, help="tries of each noisy level")
    parser.add_argument("--per-band", type=int, default=60)
    parser.add_argument("--min-theme", type=int, default=15, help="puzzles of each theme the set should have")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=SHIPPED_FILE)
    parser.add_argument("--save-rated", type=Path, help="also keep every found and rated puzzle in this JSON file")
    parser.add_argument("--from-rated", type=Path, help="choose the set from such a file (no finding, no rating)")
    args = parser.parse_args(argv)
    for name in ("games", "book", "seeds", "per_band", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be 1 or more")
    saved = None
    if args.from_rated is not None:  # the found and rated puzzles of an earlier run: choose again
        try:
            saved = read_rated(args.from_rated)
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"--from-rated {args.from_rated}: not a file --save-rated wrote ({error!r})")
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        if saved is not None:
            candidates, rates, fresh, known, tried = saved
            by_source = {s: sum(c.source == s for c in candidates) for s in tried}
            found_at = 0.0
            if not all(known):  # a file written before the themes were kept
                known = list(pool.map(describe, candidates, chunksize=4))
            described = [d for d in known if d is not None]
        else:
            jobs = [("self-play", args.seed, 0, args.games)]
            jobs += [("book", args.seed, part, args.book // BOOK_PARTS) for part in range(BOOK_PARTS)]
            collected = list(pool.map(collect, jobs))
            candidates = [c for found, _ in collected for c in found]
            tried = {"self-play": 0, "book": 0}
            for (source, _, _, _), (_, count) in zip(jobs, collected, strict=True):
                tried[source] += count
            found_at = time.perf_counter() - started
            by_source = {s: sum(c.source == s for c in candidates) for s in tried}
            print(f"positions tried: {tried}; puzzles found: {by_source} ({found_at:.0f} s)", flush=True)
            both = list(pool.map(_rate, [(c, args.seeds) for c in candidates], chunksize=4))
            rates, described = [r for r, _ in both], [d for _, d in both]
            fresh = [{} for _ in candidates]
        rated_at = time.perf_counter() - started
        if not all(fresh):  # tried again with the seeds after the placing ones
            fresh = list(pool.map(_rate_again, [(c, args.seeds) for c in candidates], chunksize=8))
        again_at = time.perf_counter() - started
    rated = [Rated(c, r, f, d.themes, d.blocks) for c, r, f, d in zip(candidates, rates, fresh, described, strict=True)]
    if args.save_rated is not None:
        write_rated(args.save_rated, rated, tried)
    print(f"rated and themed ({rated_at - found_at:.0f} s), tried again ({again_at - rated_at:.0f} s); kept:")
    chosen = choose(rated, args.per_band, args.seed, args.min_theme)
    for band in sorted({band_of(p.rating) for p, _ in chosen}):
        kept = [p for p, _ in chosen if band_of(p.rating) == band]
        all_in = sum(band_of(puzzle_rating(r)) == band for r in rates)
        wins = sum(p.goal is Goal.WIN for p in kept)
        print(f"  band {band} {band_name(band)}: {len(kept)} kept of {all_in} ({wins} win, {len(kept) - wins} draw)")
    print("\n".join(theme_table(rated, chosen)))
    print("\n".join(table(chosen)))
    print("\n".join(held_out(rated, "every puzzle found")))
    print("\n".join(held_out([item for _, item in chosen], "the set")))
    seconds = time.perf_counter() - started
    print(f"({seconds:.0f} s in all)")
    header = [
        "Made by: "
        + " ".join(["python -m lab.puzzle_maker", *_made_with(sys.argv[1:] if argv is None else list(argv))]),
        f"seed {args.seed}, {args.games} self-play games, {args.book} book samples, {args.seeds} seeds a noisy level",
        f"positions tried {tried}, puzzles found {by_source}, kept {len(chosen)}",
    ]
    write_puzzles(args.out, [p for p, _ in chosen], header)
    return 0


def theme_table(rated: Sequence[Rated], chosen: Sequence[tuple[Puzzle, Rated]]) -> list[str]:
    """Each theme's puzzles found and kept; the set's forced blocks and first-step columns."""
    found = {theme: sum(theme in r.themes for r in rated) for theme in Theme}
    kept = theme_counts(chosen)
    lines = [f"{'theme':>17}  found   kept"]
    lines += [f"{theme.value:>17}  {found[theme]:5}  {kept[theme]:5}" for theme in Theme]
    lines.append(f"{'no theme':>17}  {sum(not r.themes for r in rated):5}      -")
    blocks, later = sum(r.blocks for _, r in chosen), sum(r.later for _, r in chosen)
    columns = min((len(p.board().legal_moves()) for p, _ in chosen), default=0)
    share = f"{100 * blocks / later:.1f}%" if later else "-"
    lines.append(f"forced blocks: {blocks} of {later} later steps ({share}); fewest first-step columns: {columns}")
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
