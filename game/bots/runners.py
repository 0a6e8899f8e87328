"""Headless matches: one game between two players, and the runners that play a match's
games in this process, in worker processes, or on a Dask cluster.

    from game.bots.players import LevelSpec
    from game.bots.runners import MatchPlan, play_match
    outcome = play_match(LevelSpec("Hard", PRESETS["Hard"]), LevelSpec("Easy", PRESETS["Easy"]),
                         MatchPlan(Rules(), games=20), jobs=2)
    print(outcome.result.score)

A front end above the AI, beside ``game.bots.engine``: only ``ai.*`` and the headless rules
(``game.rules``, ``game.board``, ``game.notation``) are imported by it and by the modules it
builds on (``players``, ``openings``, ``statistics``); ``game.bots.tournament`` adds external
engines, PGN and the report on top, and ``python -m lab.strength`` plays its ladders with it.

The schedule
    Game ``n`` (1-based) plays opening ``(n - 1) // 2`` of the seeded list, A moving first
    in odd games: every opening is played as a *game pair*, once with each colour.  A game
    depends only on its task (opening, colours, rules, seeded players), so the same seed
    gives the same games for any number of workers, in any order of finishing; results
    are put back in game order.

A worker that dies
    If a worker process dies mid-match (killed, out of memory), every game it or its
    pool-mates had not finished is replayed from its start in a fresh pool (the games are
    seeded: the replay is the same game).  This is said once per death on the notice
    stream.  A game that has been in ``MAX_REPLAYS`` + 1 pools that died is not played
    again: it is reported as unplayed and left out of the score, and the match finishes.
    On a Dask cluster the scheduler itself reruns a lost worker's tasks; a cluster left
    without workers, or whose scheduler is gone, stops the match within seconds with the
    reason (``game.bots.cluster``).

The worker processes (and a Dask cluster's workers) import this module by its path:
``play_task`` and ``close_players`` are what they run.
"""

from __future__ import annotations

import atexit
import concurrent.futures as cf
import functools
import multiprocessing
import multiprocessing.util
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from game.board import Board, Termination
from game.bots.cluster import Cluster, check_address, connect
from game.bots.openings import opening_pool, openings
from game.bots.players import Failure, Player, PlayerFailed, PlayerSpec, Side, other
from game.bots.statistics import (
    GameRecord,
    MatchResult,
    Sprt,
    SprtOutcome,
    Verdict,
    elo,
    fmt_elo,
    pentanomial,
    sprt_prefix,
)
from game.notation import parse_moves
from game.rules import MAX, MIN, STANDARD, Rules

DEFAULT_MOVETIME_MS = 1000
MAX_REPLAYS = 2
"""How many times a game whose worker died is played again before it is given up."""
PROGRESS_SECONDS = 1.0
"""The progress line is redrawn at least this often."""
STOP_SECONDS = 3.0
"""On Ctrl+C or at the end, how long a worker gets to close its engines before it is killed."""


@dataclass(frozen=True)
class MatchPlan:
    """What a match is, whoever plays it and wherever: the rules, how many games, the
    seconds a move may take, the seed that shuffles the openings (None: unshuffled), and
    the openings (move strings; empty: the balanced ones of ``game.bots.openings``)."""

    rules: Rules = STANDARD
    games: int = 20
    movetime: float = DEFAULT_MOVETIME_MS / 1000
    seed: int | None = None
    openings: tuple[str, ...] = ()


# -- one game --------------------------------------------------------------------------


def play_game(
    player_a: Player,
    player_b: Player,
    opening: str,
    rules: Rules,
    *,
    a_first: bool = True,
    movetime: float = DEFAULT_MOVETIME_MS / 1000,
    number: int = 1,
) -> GameRecord:
    """Play one game from ``opening`` (a move string) to the end.

    ``a_first``: A plays the first move of the game; the opening's moves are played for
    both sides as given, then the side to move thinks.  ``movetime`` is seconds per move.
    A player that fails (``PlayerFailed``) loses the game.
    """
    board = Board(rules)
    for move in parse_moves(opening, rules):
        board.push(move)
    first = Side.A if a_first else Side.B
    players = {Side.A: player_a, Side.B: player_b}
    side_of = {MAX: first, MIN: other(first)}
    seconds = {Side.A: 0.0, Side.B: 0.0}
    counts = {Side.A: 0, Side.B: 0}
    times: list[float] = []

    def record(
        winner: Side | None, termination: Termination | Failure, failed_side: Side | None = None, detail: str = ""
    ) -> GameRecord:
        return GameRecord(
            number,
            opening,
            first,
            tuple(board.moves),
            winner,
            termination,
            failed_side,
            detail,
            dict(seconds),
            dict(counts),
            tuple(times),
        )

    while True:
        outcome = board.outcome()
        if outcome is not None:
            winner = None if outcome.winner is None else side_of[outcome.winner]
            return record(winner, outcome.termination)
        side = side_of[board.to_move]
        started = time.perf_counter()
        try:
            move = players[side].choose(board.copy(), movetime)
            if not board.is_legal(move):
                raise PlayerFailed(Failure.ILLEGAL_MOVE, f"move {move} is not legal here")
        except PlayerFailed as failed:  # its thinking time is not counted: no move came of it
            return record(other(side), failed.failure, side, failed.detail)
        spent = time.perf_counter() - started
        seconds[side] += spent
        counts[side] += 1
        times.append(spent)
        board.push(move)


# -- the schedule and the worker side --------------------------------------------------


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game of a match."""

    number: int
    opening: str
    a_first: bool
    rules: Rules
    movetime: float
    player_a: PlayerSpec
    player_b: PlayerSpec

    def play(self, player_a: Player, player_b: Player) -> GameRecord:
        """Play this game between two built players (A and B)."""
        return play_game(
            player_a,
            player_b,
            self.opening,
            self.rules,
            a_first=self.a_first,
            movetime=self.movetime,
            number=self.number,
        )


def schedule(player_a: PlayerSpec, player_b: PlayerSpec, plan: MatchPlan) -> list[GameTask]:
    """The match's games in order: each opening twice (a game pair), A first in the odd game."""
    rules = plan.rules
    source = plan.openings or opening_pool(rules)
    pool = openings(rules, len(source), seed=plan.seed, pool=source)
    return [
        GameTask(n + 1, pool[n // 2 % len(pool)], n % 2 == 0, rules, plan.movetime, player_a, player_b)
        for n in range(plan.games)
    ]


KEPT_PLAYERS = 4
"""Players a thread keeps built between its games, two games' worth: a match's two stay
for all its games; a tournament's worker, whose games go round many pairs, closes the one
it used least lately (an engine's process quits) when it builds a fifth."""

_players: dict[tuple[int, Side, PlayerSpec], Player] = {}  # the most lately used last
_players_lock = threading.Lock()


def _player(spec: PlayerSpec, side: Side) -> Player:
    """This thread's player for ``spec`` on ``side``, built on first use and kept (at most
    ``KEPT_PLAYERS`` of them a thread)."""
    thread = threading.get_ident()
    key = (thread, side, spec)
    with _players_lock:
        player = _players.pop(key, None)
        others = [k for k in _players if k[0] == thread]
        stale = [_players.pop(k) for k in others[: max(0, len(others) + 1 - KEPT_PLAYERS)]]
    _close(stale)  # before the next one is built: never more than KEPT_PLAYERS at once
    if player is None:
        player = spec()  # the key is this thread's: no other thread builds it meanwhile
    with _players_lock:
        _players[key] = player
    return player


def close_players() -> None:
    """Close every player this process built for games (their engines exit)."""
    with _players_lock:
        players = list(_players.values())
        _players.clear()
    _close(players)


def _close(players: list[Player]) -> None:
    for player in players:
        try:
            player.close()
        except Exception as problem:  # closing must go on for the others
            print(f"cannot close {player.name}: {problem}", file=sys.stderr)


atexit.register(close_players)


def play_task(task: GameTask) -> GameRecord:
    """Play one scheduled game with this process's (or thread's) players."""
    return task.play(_player(task.player_a, Side.A), _player(task.player_b, Side.B))


GROUPS_ENV = "CONNECT4_PROCESS_GROUPS"
"""Names a folder where a pool worker lists the process groups it starts (an external
engine's), one empty file per group id, taken out when the group is killed.  A worker
that dies cannot kill its engines; the runner kills the groups still listed."""


class _EngineStart:
    """A SIGTERM that comes while an engine is being started waits until the engine is
    listed: stopped between its start and its listing, a worker left an engine no one
    knew of, asleep for good."""

    def __init__(self) -> None:
        self.starting = 0
        self.stop_asked = False

    def __enter__(self) -> None:
        self.starting += 1

    def __exit__(self, *exc: object) -> None:
        self.starting -= 1
        if self.starting == 0 and self.stop_asked:
            _stop_worker()


ENGINE_START = _EngineStart()


def _stop_worker() -> None:
    close_players()
    os._exit(0)


def note_group(group: int) -> None:
    """List a process group this process started (see ``GROUPS_ENV``)."""
    folder = os.environ.get(GROUPS_ENV)
    if folder:
        try:
            open(os.path.join(folder, str(group)), "w").close()
        except OSError:
            pass


def forget_group(group: int) -> None:
    """Take a killed process group off the list."""
    folder = os.environ.get(GROUPS_ENV)
    if folder:
        try:
            os.unlink(os.path.join(folder, str(group)))
        except OSError:
            pass


def _kill_listed_groups(folder: str) -> None:
    for name in os.listdir(folder):
        if name.isdigit() and hasattr(os, "killpg"):
            try:
                os.killpg(int(name), signal.SIGKILL)
            except OSError:
                pass
        try:
            os.unlink(os.path.join(folder, name))
        except OSError:
            pass


def _worker_start() -> None:
    """A pool worker: leave Ctrl+C to the parent; on SIGTERM close the engines and go."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def stop(signum: int, frame: object) -> None:
        if ENGINE_START.starting:
            ENGINE_START.stop_asked = True  # once the engine is listed (``_EngineStart``)
            return
        _stop_worker()

    signal.signal(signal.SIGTERM, stop)
    threading.Thread(target=_exit_when_orphaned, args=(os.getppid(),), name="parent-watch", daemon=True).start()
    multiprocessing.util.Finalize(None, close_players, exitpriority=100)  # a normal pool shutdown


PARENT_POLL_SECONDS = 0.5


def _exit_when_orphaned(parent: int) -> None:
    """A pool worker whose match process died without shutting the pool down (SIGKILL, a
    crash) is handed to another parent: close the engines and go, not play on alone."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    close_players()
    os._exit(0)


# -- the runner ------------------------------------------------------------------------


def default_jobs(games: int) -> int:
    """One worker per core, at most one per game."""
    return max(1, min(os.cpu_count() or 1, games))


class Progress:
    """The match so far on one stderr line: games done, A's score, Elo with its bar."""

    def __init__(self, total: int, stream: TextIO | None = None, *, sprt: Sprt | None = None):
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.sprt = sprt
        self.started = time.perf_counter()
        self.records: dict[int, GameRecord] = {}
        self._lock = threading.Lock()
        self._shown = False

    def add(self, record: GameRecord) -> None:
        with self._lock:
            self.records[record.number] = record

    def line(self) -> str:
        with self._lock:
            games = list(self.records.values())
        done = len(games)
        points = sum(g.score_of(Side.A) for g in games)
        draws = sum(1 for g in games if g.winner is None)
        text = f"{done}/{self.total} games, A {points:g} points"
        if done:
            text += f", Elo {fmt_elo(*elo(points / done, done, draws=draws))}"
        if self.sprt is not None:
            text += f", LLR {self.sprt.llr(pentanomial(games)):.2f}"
        return text + f", {time.perf_counter() - self.started:.0f} s"

    def show(self) -> None:
        """Redraw the line (``\\r``, no newline)."""
        self.stream.write("\r" + self.line() + "   ")
        self.stream.flush()
        self._shown = True

    def finish(self) -> None:
        self.show()
        self.stream.write("\n")
        self.stream.flush()


@dataclass(frozen=True)
class MatchOutcome:
    """A finished (or stopped) match: the result, the SPRT verdict, what was not played."""

    result: MatchResult
    sprt: SprtOutcome | None = None
    interrupted: bool = False
    unplayed: tuple[int, ...] = ()  # games given up after their workers died too often
    notices: tuple[str, ...] = ()
    error: str | None = None  # why the match stopped early, if a game could not be played


class MatchStopped(Exception):
    """A game could not be played at all (not a player's failure): the match stops."""


@dataclass(frozen=True)
class GamesPlayed:
    """What ``play_games`` got: the finished games in order, and what stopped it short."""

    records: tuple[GameRecord, ...]
    interrupted: bool = False
    unplayed: tuple[int, ...] = ()  # games given up after their workers died too often
    notices: tuple[str, ...] = ()
    error: str | None = None  # why the games stopped early, if one could not be played


def play_match(
    player_a: PlayerSpec,
    player_b: PlayerSpec,
    plan: MatchPlan = MatchPlan(),
    *,
    jobs: int | None = None,
    executor: cf.Executor | None = None,
    sprt: Sprt | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
    progress: Progress | None = None,
    notice: Callable[[str], None] | None = None,
    stop_requested: Callable[[], bool] | None = None,
) -> MatchOutcome:
    """Play the match ``plan`` describes, its games in parallel: ``jobs`` worker processes
    (default one per core, at most ``plan.games``), or ``executor`` (a Dask cluster's, say)
    when given.

    With ``sprt`` the games are played as pairs until the test decides (``plan.games`` is
    the most it may play).  The rest is ``play_games``'s: ``jobs=1`` plays in this process,
    ``on_game``, ``progress``, ``notice``, Ctrl+C and ``stop_requested``.
    """

    def decided(records: dict[int, GameRecord]) -> bool:
        return sprt is not None and sprt_prefix(sprt, records).verdict is not Verdict.CONTINUE

    played = play_games(
        schedule(player_a, player_b, plan),
        jobs=jobs,
        executor=executor,
        enough=decided if sprt is not None else None,
        on_game=on_game,
        progress=progress,
        notice=notice,
        stop_requested=stop_requested,
    )
    kept = list(played.records)
    sprt_outcome = sprt_prefix(sprt, {g.number: g for g in kept}) if sprt is not None else None
    if sprt_outcome is not None and sprt_outcome.verdict is not Verdict.CONTINUE:
        kept = [g for g in kept if g.number <= sprt_outcome.games]  # the same stop for any finishing order
    result = MatchResult(player_a.name, player_b.name, plan.rules, plan.movetime, tuple(kept))
    return MatchOutcome(result, sprt_outcome, played.interrupted, played.unplayed, played.notices, played.error)


def play_games(
    tasks: list[GameTask],
    *,
    jobs: int | None = None,
    executor: cf.Executor | None = None,
    enough: Callable[[dict[int, GameRecord]], bool] | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
    progress: Progress | None = None,
    notice: Callable[[str], None] | None = None,
    stop_requested: Callable[[], bool] | None = None,
) -> GamesPlayed:
    """Play scheduled games (their numbers distinct; each task names its own two players)
    in parallel: ``jobs`` worker processes (default one per core, at most one per game), or
    ``executor`` (a Dask cluster's, say) when given.  A match is one pair's schedule, a
    tournament many pairs' (``game.bots.round_robin``).

    ``jobs=1`` without an executor plays in this process.  ``on_game`` hears of each
    game as it finishes (in finishing order); ``progress`` is redrawn at least once a
    second; ``notice`` hears of dead workers and replays.  ``enough`` is asked after each
    game with the games finished so far: True stops the rest (an SPRT that has decided).
    Ctrl+C stops the games: the outcome says ``interrupted`` and holds the games finished.
    ``stop_requested`` is asked about once a second: True stops them as Ctrl+C does
    (the match command's signal handler sets it; it also stops games whose
    KeyboardInterrupt went astray).
    """
    records: dict[int, GameRecord] = {}
    say = notice or (lambda text: print(text, file=sys.stderr))
    said: list[str] = []

    def tell(text: str) -> None:
        said.append(text)
        say(text)

    def decided() -> bool:
        if stop_requested is not None and stop_requested():
            raise KeyboardInterrupt  # stopped: the games finished so far are the outcome
        return enough is not None and enough(records)

    def finished(record: GameRecord) -> None:
        records[record.number] = record
        if progress is not None:
            progress.add(record)
        if on_game is not None:
            on_game(record)

    workers = jobs if jobs is not None else default_jobs(len(tasks))
    interrupted = False
    error: str | None = None
    unplayed: list[int] = []
    try:
        if executor is None and workers <= 1:
            _play_here(tasks, finished, decided, progress)
        else:
            unplayed = _play_in_pool(tasks, workers, executor, finished, decided, progress, tell)
    except KeyboardInterrupt:
        interrupted = True
    except MatchStopped as problem:
        error = str(problem)
    if progress is not None:
        progress.finish()
    kept = tuple(sorted(records.values(), key=lambda g: g.number))
    return GamesPlayed(kept, interrupted, tuple(unplayed), tuple(said), error)


def _play_here(
    tasks: list[GameTask],
    finished: Callable[[GameRecord], None],
    decided: Callable[[], bool],
    progress: Progress | None,
) -> None:
    """Play the games one by one in this process; a ticker thread keeps the progress line fresh."""
    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(PROGRESS_SECONDS):
            if progress is not None:
                progress.show()

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        if progress is not None:
            progress.show()
        for task in tasks:
            try:
                record = play_task(task)
            except Exception as problem:
                raise MatchStopped(f"game {task.number} could not be played: {problem}") from problem
            finished(record)
            if decided():
                break
    finally:
        stop.set()
        ticker.join(PROGRESS_SECONDS + 1)
        close_players()


def _new_pool(workers: int) -> cf.ProcessPoolExecutor:
    # fork starts a worker in milliseconds with the levels' tables already loaded; it is
    # safe on Linux only (macOS and Windows spawn, importing the game afresh)
    method = "fork" if sys.platform.startswith("linux") else None
    return cf.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method), initializer=_worker_start)


def _play_in_pool(
    tasks: list[GameTask],
    workers: int,
    executor: cf.Executor | None,
    finished: Callable[[GameRecord], None],
    decided: Callable[[], bool],
    progress: Progress | None,
    tell: Callable[[str], None],
) -> list[int]:
    """Play the games on ``executor`` or a pool of ``workers`` processes; returns the
    games given up after their workers died (see the module's rule).  A Dask cluster's
    executor (``game.bots.cluster``) is asked about its health once a second: a cluster with
    no worker, or gone, stops the match (``MatchStopped`` says why)."""
    own = executor is None
    groups = tempfile.mkdtemp(prefix="connect4-groups-") if own else None
    saved_env = os.environ.get(GROUPS_ENV)
    if groups is not None:
        os.environ[GROUPS_ENV] = groups  # the workers inherit it
    pool: cf.Executor = executor if executor is not None else _new_pool(workers)
    window = 2 * workers if own else 64  # games submitted ahead of the finished ones
    cluster = pool if isinstance(pool, Cluster) else None  # asked about its health once a second
    asked = 0.0
    waiting: deque[GameTask] = deque(tasks)
    running: dict[cf.Future[GameRecord], GameTask] = {}
    deaths: dict[int, int] = {}
    given_up: list[int] = []

    def give_up_or_replay(lost: list[GameTask]) -> list[GameTask]:
        again: list[GameTask] = []
        for task in sorted(lost, key=lambda t: t.number):
            deaths[task.number] = deaths.get(task.number, 0) + 1
            if deaths[task.number] > MAX_REPLAYS:
                given_up.append(task.number)
            else:
                again.append(task)
        waiting.extendleft(reversed(again))
        return again

    try:
        while (waiting or running) and not decided():
            while waiting and len(running) < window:
                task = waiting.popleft()
                running[pool.submit(play_task, task)] = task
            done, _ = cf.wait(running, timeout=PROGRESS_SECONDS, return_when=cf.FIRST_COMPLETED)
            lost = _collect(done, running, finished, given_up, tell)
            if cluster is not None and (lost or time.monotonic() - asked >= PROGRESS_SECONDS):
                asked = time.monotonic()
                stop, notes = cluster.health()
                for note in notes:
                    tell(note)
                if stop is None and lost and not cluster.connected():
                    stop = f"lost the cluster at {cluster.address}: the connection to its scheduler was lost"
                if stop is not None:
                    raise MatchStopped(stop)
            if lost and own:
                lost += list(running.values())
                running.clear()
                _stop_pool(pool)
                if groups is not None:
                    _kill_listed_groups(groups)  # the dead worker's engines
                again = give_up_or_replay(lost)
                numbers = ", ".join(str(t.number) for t in again) or "none"
                text = f"a worker process died: replaying unfinished games {numbers} in fresh workers"
                if given_up:
                    text += f"; given up (not counted): games {', '.join(map(str, given_up))}"
                tell(text)
                pool = _new_pool(workers)
            elif lost:
                give_up_or_replay(lost)  # the cluster is there: submitted again
            if progress is not None:
                progress.show()
    finally:
        for future in running:
            future.cancel()
        if own:
            _stop_pool(pool)
        if groups is not None:
            _kill_listed_groups(groups)
            shutil.rmtree(groups, ignore_errors=True)
            if saved_env is None:
                os.environ.pop(GROUPS_ENV, None)
            else:
                os.environ[GROUPS_ENV] = saved_env
    return sorted(given_up)


def _collect(
    done: set[cf.Future[GameRecord]],
    running: dict[cf.Future[GameRecord], GameTask],
    finished: Callable[[GameRecord], None],
    given_up: list[int],
    tell: Callable[[str], None],
) -> list[GameTask]:
    """Take the ``done`` games out of ``running`` and hand each record to ``finished``;
    return the games lost with their worker (a dead process, a cluster's lost game). A game
    whose cluster workers kept dying joins ``given_up``.

    Raises:
        MatchStopped: a game failed for another reason (a cluster worker without the
            engine's program, say).
    """
    lost: list[GameTask] = []
    for future in done:
        task = running.pop(future)
        try:
            record = future.result()
        except (cf.BrokenExecutor, cf.CancelledError):  # a dead worker; a cluster's lost game
            lost.append(task)
        except Exception as problem:  # e.g. a cluster worker without the engine's program
            if type(problem).__name__ == "KilledWorker":  # Dask: its workers kept dying
                given_up.append(task.number)
                tell(f"game {task.number} was given up: every cluster worker that played it died")
                continue
            raise MatchStopped(f"game {task.number} could not be played: {problem}") from problem
        else:
            finished(record)
    return lost


def _stop_pool(pool: cf.Executor) -> None:
    """Shut a process pool down without waiting on games: SIGTERM (the workers close
    their engines), then SIGKILL for any that linger."""
    processes = list(getattr(pool, "_processes", {}).values()) if isinstance(pool, cf.ProcessPoolExecutor) else []
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + STOP_SECONDS
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(1.0)


def run_match(
    player_a: Player,
    player_b: Player,
    plan: MatchPlan = MatchPlan(),
    *,
    on_game: Callable[[GameRecord], None] | None = None,
) -> MatchResult:
    """Play the match ``plan`` describes in this process between two built players, its
    games in order.

    Each opening twice, A first in one and B first in the other; ``on_game`` hears of
    every finished game.  The players stay open: close them when done.  ``play_match`` is
    the parallel form.
    """
    records: list[GameRecord] = []
    for task in schedule(_Named(player_a.name), _Named(player_b.name), plan):
        record = task.play(player_a, player_b)
        records.append(record)
        if on_game is not None:
            on_game(record)
    return MatchResult(player_a.name, player_b.name, plan.rules, plan.movetime, tuple(records))


@dataclass(frozen=True)
class _Named:
    """A spec that only names a player (``run_match`` plays with players already built)."""

    name: str

    def __call__(self) -> Player:
        raise TypeError("a named spec builds no player")


def cluster_executor(address: str) -> tuple[cf.Executor, Callable[[], None]]:
    """A ``concurrent.futures`` executor on the Dask cluster at ``address`` (a scheduler,
    ``tcp://host:8786``; ``game.bots.cluster`` bounds every wait), and a function that closes
    the workers' players and the client.

    Raises:
        ValueError: no address, or the scheduler cannot be reached (``game.bots.cluster.ClusterError``,
        its message one line).
        ImportError: Dask's ``distributed`` is not installed (``pip install .[cluster]``).
    """
    cluster = connect(check_address(address))
    return cluster, functools.partial(cluster.close, close_players)


def client_executor(client: Any) -> tuple[cf.Executor, Callable[[], None]]:
    """The executor of a connected Dask ``Client`` and a function that closes the
    workers' players and the client."""
    cluster = Cluster(client, str(client.scheduler.address))
    return cluster, functools.partial(cluster.close, close_players)
