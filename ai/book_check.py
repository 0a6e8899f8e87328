"""The opening books' checks that need the exact solver, and the table it builds.

``ai.book`` reads the books and trusts the files of the known release by their checksum.
A book of another release has none to compare: here a sample of its entries, and
positions reached by random play, are compared with the exact solver's scores.  The
verdict is kept by file (``ai.book``'s cache), so a file is checked once.  The decider
(``ai.player.choose_move``) asks ``trusted_book`` before a level uses a book.

``python -m ai.book_check`` rebuilds the table of solved early positions
(``ai.book.EARLY_FILE``) and prints its new digest.
"""

from __future__ import annotations

import hashlib
import os
import random
import time
from pathlib import Path

from ai.book import EARLY_FILE, EARLY_PLIES, BookError, BookFile, OpeningBook, book, canonical_key, standard_geometry
from ai.solver import SolveLimit, Solver, SolverStopped
from game.board import Board
from game.rules import STANDARD

SAMPLE_ENTRIES = 16
"""Entries of a book of another release checked against the exact solver."""
PLAYED_POSITIONS = 64
"""Positions reached by random play that a book of another release is also checked on: a
packed book reads a missing position as a first-player win, so a file cut short is only
caught on positions it lacks, never on its own entries."""
CHECK_SECONDS = 20.0
"""The most the solver may spend on one book's check (positions it cannot finish in time
are not counted; too few finished and the book is not used)."""


def trusted_book(which: BookFile = BookFile.PLY_12_DISTANCES) -> OpeningBook:
    """The shared book of ``which``, checked: by its checksum (the known release), else
    by the exact solver (once per file).

    Raises:
        BookError: the book is missing, not a regular file, or damaged.
    """
    return book(which).check(release_check=check_release)


def check_release(opening_book: OpeningBook, name: str) -> None:
    """The exact solver's check of a book of another release (``ai.book.ReleaseCheck``).

    Raises:
        BookError: an entry or a played position disagrees with the solver, or too few
            positions were solved in time.
    """
    _check_sample(opening_book, name)
    _check_played(opening_book, name)


def _check_sample(opening_book: OpeningBook, name: str) -> None:
    """Compare a few entries with the exact solver (``SAMPLE_ENTRIES``, chosen by a fixed
    seed): close finishes of the distance book solved without a book, entries of the
    packed books against the checked distance book."""
    which = opening_book.which
    if not which.has_distances:  # checked against the distance book: it must pass first
        try:
            trusted_book(BookFile.PLY_12_DISTANCES)
        except BookError as error:
            raise BookError(f"{name} cannot be checked without the 12-ply-dist book ({error})") from error
    rng = random.Random(12)
    count = opening_book.stored_count()
    checked = tries = 0
    solver = Solver(STANDARD, use_book=False) if which.has_distances else None
    while checked < SAMPLE_ENTRIES and tries < 200 * SAMPLE_ENTRIES:
        tries += 1
        first, second, stored = opening_book.stored_entry(rng.randrange(count))
        if solver is not None:
            if abs(stored) < 90:  # a finish within 10 plies: quick without a book
                continue
            expected = solver.solve_bits(first, first | second).score
            found = opening_book.stored_score(first, second)
        else:
            exact = book(BookFile.PLY_12_DISTANCES).score(first, second) if opening_book.plies == 12 else None
            if exact is None and opening_book.plies == 12:
                continue
            if exact is None:  # the 8-ply book: solve down to the 12-ply book
                exact = Solver(STANDARD).solve_bits(first, first | second).score
            expected, found = (exact > 0) - (exact < 0), opening_book.stored_score(first, second)
        if found != expected:
            raise BookError(f"{name} is damaged: it gives {found} where the exact solver finds {expected}")
        checked += 1


def _check_played(opening_book: OpeningBook, name: str) -> None:
    """Check ``PLAYED_POSITIONS`` positions reached by random play (a fixed seed): the
    distance book must hold each one unless the side to move wins at once (the package
    leaves only those out); a packed book's value must have the sign of the exact score
    (the checked distance book's, or the solver's for the 8-ply book)."""
    rng = random.Random(17)
    geo = standard_geometry()
    deadline = time.monotonic() + CHECK_SECONDS
    plies = opening_book.plies
    solver = Solver(STANDARD) if plies == 8 else None
    solved = 0
    for board in _played_positions(rng, plies, PLAYED_POSITIONS if solver is None else SAMPLE_ENTRIES):
        first, second = geo.from_grid(board.grid)
        if opening_book.which.has_distances:
            if opening_book.stored_value(first, second) is None and not _wins_at_once(board):
                raise BookError(f"{name} is damaged: it lacks positions of {plies} discs (cut short?)")
            continue
        if solver is None:
            exact = book(BookFile.PLY_12_DISTANCES).score(first, second)
            if exact is None:
                continue
        else:
            try:
                exact = solver.solve_bits(
                    first, first | second, limit=SolveLimit(time=deadline - time.monotonic())
                ).score
            except SolverStopped:
                break
            solved += 1
        expected, found = (exact > 0) - (exact < 0), opening_book.stored_score(first, second)
        if found != expected:
            raise BookError(f"{name} is damaged: it gives {found} where the exact solver finds {expected}")
    if solver is not None and solved < SAMPLE_ENTRIES // 4:
        raise BookError(f"{name} could not be checked within {CHECK_SECONDS:g} s")


def _played_positions(rng: random.Random, plies: int, count: int) -> list[Board]:
    """``count`` positions of ``plies`` discs reached by random legal play, none over."""
    found: list[Board] = []
    while len(found) < count:
        board = Board(STANDARD)
        board.push_random(rng, plies)
        if not board.is_game_over():
            found.append(board)
    return found


def _wins_at_once(board: Board) -> bool:
    """The side to move has a move that makes four in a row."""
    for move in board.legal_moves():
        after = board.copy()
        after.push(move)
        outcome = after.outcome()
        if outcome is not None and outcome.winner is not None:
            return True
    return False


def early_positions(plies: int = EARLY_PLIES) -> list[str]:
    """Every position of at most ``plies`` discs that is not over, one per mirror pair, as
    move strings, disc count by disc count (the table's order)."""
    geo = standard_geometry()
    seen: set[int] = set()
    found = []
    frontier = [Board()]
    for _ in range(plies + 1):
        following = []
        for board in frontier:
            key = canonical_key(*geo.from_grid(board.grid))
            if key in seen or board.is_game_over():
                continue
            seen.add(key)
            found.append(board.moves_string())
            for move in board.legal_moves():
                child = board.copy()
                child.push(move)
                following.append(child)
        frontier = following
    return found


_EARLY_SOLVER: Solver | None = None


def _solve_early(moves: str) -> int:
    """One position's exact score (one solver per process, its table kept between them)."""
    global _EARLY_SOLVER
    if _EARLY_SOLVER is None:
        _EARLY_SOLVER = Solver(STANDARD)
    board = Board.from_moves(moves)
    return _EARLY_SOLVER.solve_grid(board.grid, board.to_move).score


def build_early_file(path: Path = EARLY_FILE, plies: int = EARLY_PLIES, jobs: int = 1) -> int:
    """Solve every position of at most ``plies`` discs (one per mirror pair) in ``jobs``
    processes; write them."""
    found = early_positions(plies)
    if jobs > 1:
        import multiprocessing  # only for a build of the table: a question never pays its import

        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            scores = pool.map(_solve_early, found, chunksize=64)
    else:
        scores = [_solve_early(moves) for moves in found]
    path.write_text("".join(f"{moves or '-'} {score}\n" for moves, score in zip(found, scores, strict=True)))
    return len(found)


if __name__ == "__main__":
    started = time.perf_counter()
    count = build_early_file(jobs=os.cpu_count() or 1)
    print(f"wrote {count} positions to {EARLY_FILE} in {time.perf_counter() - started:.0f} s")
    digest = hashlib.sha256(EARLY_FILE.read_bytes().replace(b"\r\n", b"\n")).hexdigest()
    print(f"its SHA-256, for EARLY_SHA256 in ai/book.py: {digest}")
