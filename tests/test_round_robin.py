"""Tournaments of many players (issue 51): the schedule, the anchor, the same games for any
number of workers and for the same seed, the presets ranked as the ladder has them, hostile
engines among the players, Ctrl+C, the JSON object and the game file."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ai.ladder import LEVEL_RATINGS
from game.board import Board, Termination
from game.bots.players import Side
from game.bots.rating_report import format_tournament
from game.bots.round_robin import Format, TournamentOutcome, TournamentPlan, play_tournament
from game.bots.runners import KEPT_PLAYERS, MatchPlan, client_executor, play_games
from game.bots.statistics import GameRecord, elo_of
from game.bots.tournament import EnginePlayer, PlayerChoice
from game.cli.main import main
from game.game_file import read_games
from game.rules import Rules
from tests.helpers import write_bot
from tests.test_cluster import Match
from tests.test_hostile_engines import LEFTMOST, gone_soon, pids_in
from tests.test_parallel_match import _children_of, children_left

ROOT = Path(__file__).resolve().parent.parent


def choices(*names: str, seed: int = 0) -> tuple[PlayerChoice, ...]:
    return tuple(PlayerChoice(name, seed, by_work=True) for name in names)


# -- the schedule and the anchor (no games played) ----------------------------------------


def test_a_round_robin_plays_every_pair_a_game_pair_at_a_time_with_the_same_openings():
    plan = TournamentPlan(choices("depth:1", "depth:2", "depth:3", "depth:4"), MatchPlan(Rules(), games=4, seed=2))
    assert plan.pairs() == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    scheduled = plan.schedule()
    assert [task.number for task, _, _ in scheduled] == list(range(1, plan.total + 1)) and plan.total == 24
    # the first round: each pair's first game pair in turn, then the second round
    assert [pair for _, pair, _ in scheduled] == [p for p in range(6) for _ in range(2)] * 2
    for task, pair, in_pair in scheduled:
        a, b = plan.pairs()[pair]
        assert (task.player_a, task.player_b) == (plan.players[a], plan.players[b])
        assert task.a_first == (in_pair % 2 == 1)  # colours swapped within each game pair
    openings = {pair: [task.opening for task, p, _ in scheduled if p == pair] for pair in range(6)}
    assert len({tuple(o) for o in openings.values()}) == 1  # every pair the same openings
    first = openings[0]
    assert first[0] == first[1] != first[2] == first[3]
    gauntlet = TournamentPlan(plan.players, plan.match, Format.GAUNTLET)
    assert gauntlet.pairs() == [(0, 1), (0, 2), (0, 3)] and gauntlet.total == 12


def test_a_tournament_needs_two_players_each_named_once():
    with pytest.raises(ValueError, match="at least two"):
        TournamentPlan(choices("hard"))
    with pytest.raises(ValueError, match="hard is named more than once"):
        TournamentPlan(choices("hard", "easy", "Hard"))


def scored(plan: TournamentPlan, results: dict[tuple[int, int], list[float]]) -> TournamentOutcome:
    """An outcome whose games between each pair score ``results[pair]`` for A, in order
    (1, 1/2 or 0; no moves: the fit reads only the scores)."""
    games = []
    for task, pair, _ in plan.schedule():
        pair_scores = results.get(plan.pairs()[pair], [])
        index = sum(1 for g in games if (g.a, g.b) == plan.pairs()[pair])
        if index >= len(pair_scores):
            continue
        score = pair_scores[index]
        winner = None if score == 0.5 else (Side.A if score == 1 else Side.B)
        record = GameRecord(task.number, task.opening, Side.A if task.a_first else Side.B, (), winner, Termination.LINE)
        games.append(plan.placed(record))
    return TournamentOutcome(plan, tuple(games))


def test_a_gauntlet_rates_the_others_against_its_base_only():
    """fastchess PR 1064: a gauntlet's others never meet, so each is rated by its games with
    the base alone, the base held, whatever the others' other results."""
    plan = TournamentPlan(choices("depth:3", "easy", "hard", "depth:1"), MatchPlan(Rules(), games=8), Format.GAUNTLET)
    results = {
        (0, 1): [1, 0, 0.5, 0.5, 0, 0, 1, 0.5],  # easy scores 4.5 of 8
        (0, 2): [0, 0, 1, 0, 0.5, 0, 0, 1],  # hard 5.5
        (0, 3): [1, 1, 0.5, 1, 1, 0, 1, 1],  # depth:1 1.5
    }
    outcome = scored(plan, results)
    anchor = outcome.anchor()
    assert anchor.player == 0 and anchor.elo == 0 and not anchor.ladder  # the base, though presets play
    ratings = outcome.ratings(anchor)
    for (_, other), scores in results.items():
        assert ratings.ratings[other].elo == pytest.approx(elo_of(1 - sum(scores) / 8), abs=1e-6)
    assert [ratings.ratings[i].name for i in ratings.ranked()] == ["hard", "easy", "depth:3", "depth:1"]
    table = format_tournament(outcome, anchor, ratings)
    assert "depth:3 held at 0: the others rated against the base only" in table


def test_a_round_robin_with_presets_is_on_the_ladders_scale_only_on_the_standard_board():
    players = choices("depth:3", "medium", "hard")
    on_six_by_seven = scored(TournamentPlan(players, MatchPlan(Rules(), games=2)), {(0, 1): [1, 0.5]})
    anchor = on_six_by_seven.anchor()
    assert (anchor.player, anchor.elo, anchor.ladder) == (1, LEVEL_RATINGS["Medium"], True)
    assert on_six_by_seven.anchor(2).elo == LEVEL_RATINGS["Hard"]
    assert on_six_by_seven.anchor(0, 1200).elo == 1200
    elsewhere = scored(TournamentPlan(players, MatchPlan(Rules(rows=7, cols=8), games=2)), {})
    assert elsewhere.anchor() == type(anchor)(0, 0.0, False)


def test_a_worker_keeps_at_most_a_few_players_and_closes_the_rest():
    """The games of a tournament go round the pairs: a thread keeps ``KEPT_PLAYERS`` players
    built (an engine each), closing the one it used least lately."""
    tally = Tally()
    players = tuple(CountedSpec(name, tally) for name in ("depth:1", "depth:2", "beginner", "depth:3"))
    plan = TournamentPlan(players, MatchPlan(Rules(), games=2, seed=1))
    played = play_games([task for task, _, _ in plan.schedule()], jobs=1)
    assert len(played.records) == plan.total and played.error is None
    assert tally.most_open == KEPT_PLAYERS  # never more at once
    assert len(tally.built) > KEPT_PLAYERS and all(player.closed for player in tally.built)  # all closed at the end


class Tally:
    """How many counted players are open now, the most at once, and every one built."""

    def __init__(self) -> None:
        self.open_now = self.most_open = 0
        self.built: list[Counted] = []


class Counted:
    """A level that keeps its ``Tally``."""

    def __init__(self, name: str, tally: Tally):
        self.name, self.tally = name, tally
        self.inner = PlayerChoice(name, by_work=True)()
        self.closed = False
        tally.built.append(self)
        tally.open_now += 1
        tally.most_open = max(tally.most_open, tally.open_now)

    def choose(self, board, seconds):
        return self.inner.choose(board, seconds)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.tally.open_now -= 1


class CountedSpec:
    """A spec of a ``Counted`` level (hashed by its name, as a real spec)."""

    def __init__(self, name: str, tally: Tally):
        self.name, self.tally = name, tally

    def __hash__(self) -> int:
        return hash(self.name)

    def __call__(self) -> Counted:
        return Counted(self.name, self.tally)


# -- real games ------------------------------------------------------------------------


@pytest.mark.slow
def test_two_workers_and_the_same_seed_play_the_same_tournament_and_table():
    before = set(multiprocessing.active_children())  # other tests' workers may live on
    plan = TournamentPlan(
        choices("depth:2", "beginner", "depth:3", "easy", seed=4), MatchPlan(Rules(), games=4, seed=4)
    )
    one = play_tournament(plan, jobs=1)
    two = play_tournament(plan, jobs=2)
    assert [g.record.moves for g in one.games] == [g.record.moves for g in two.games]
    assert [g.record.number for g in two.games] == list(range(1, plan.total + 1))

    def table(outcome: TournamentOutcome) -> str:
        anchor = outcome.anchor()
        return format_tournament(outcome, anchor, outcome.ratings(anchor))

    assert table(one) == table(two)
    assert not children_left(before)
    other_seed = TournamentPlan(plan.players, MatchPlan(Rules(), games=2, seed=5))
    assert [task.opening for task, _, _ in other_seed.schedule()][:2] != [g.record.opening for g in one.games][:2]


@pytest.mark.slow
def test_a_tournament_on_a_local_dask_cluster_plays_the_same_games_as_one_worker():
    distributed = pytest.importorskip("distributed")
    plan = TournamentPlan(choices("depth:2", "beginner", "depth:3", seed=7), MatchPlan(Rules(), games=2, seed=7))
    reference = play_tournament(plan, jobs=1)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:  # in-process: no port opened
        executor, close = client_executor(distributed.Client(cluster))
        try:
            outcome = play_tournament(plan, executor=executor)
        finally:
            close()
    assert [g.record.moves for g in outcome.games] == [g.record.moves for g in reference.games]
    assert len(outcome.games) == plan.total


def tournament(*argv: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "tournament", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


@pytest.mark.slow
def test_the_presets_round_robin_ranks_them_as_the_ladder_does():
    """Beginner, Easy, Medium and Hard, 8 games a pair, seeded: ranked in that order, each
    rating's interval holding the ladder's documented rating (ai/ladder.py)."""
    presets = ["beginner", "easy", "medium", "hard"]
    proc = tournament(*presets, "--games-per-pair", "8", "--seed", "1", "--jobs", "2", "--json")
    assert proc.returncode == 0, proc.stderr
    assert "48/48 games, leader " in proc.stderr  # the progress line
    found = json.loads(proc.stdout)
    assert found["players"] == presets and found["anchor"] == {"player": "beginner", "elo": 940.0, "ladder": True}
    ratings = found["ratings"]
    assert sorted(presets, key=lambda name: ratings[name]["rank"]) == presets[::-1]
    for name in presets:
        rating, documented = ratings[name], LEVEL_RATINGS[name.capitalize()]
        assert rating["low"] <= documented <= rating["high"], (name, rating, documented)
        assert rating["games"] == 24
    for row, columns in found["los"].items():
        for column, likelihood in columns.items():
            assert likelihood + found["los"][column][row] == pytest.approx(1.0)
    assert found["crosstable"]["hard"]["beginner"]["games"] == 8
    assert len(found["pairs"]) == 6 and all(sum(pair["pentanomial"]) == 4 for pair in found["pairs"])
    assert len(found["games"]) == 48
    for game in found["games"]:
        assert set(game) >= {"first", "second", "moves", "result"}
        assert game["moves"].isdigit() and all("1" <= c <= "7" for c in game["moves"])
        assert game["result"] in ("1-0", "0-1", "1/2-1/2")


HANG_LATER = (
    LEFTMOST
    + """
import os, sys, time
open(os.path.join({folder!r}, f"hang{{os.getpid()}}.pid"), "w").write(str(os.getpid()))
answered = 0
for line in sys.stdin:
    words = line.split()
    if words and words[0] == "position":
        position = words
    elif words and words[0] == "go":
        if answered:
            time.sleep(600)
        answered += 1
        print(f"bestmove {{leftmost(position)}}", flush=True)
"""
)
"""Plays its first move at once, then never answers again (after the first answer, the
runner waits only the move time and its grace)."""

HOSTILE = {
    "crash": "import sys\nfor line in sys.stdin:\n    if line.startswith('go'):\n        sys.exit(3)\n",
    "illegal": "import sys\nfor line in sys.stdin:\n    if line.startswith('go'):\n        print('bestmove 99', flush=True)\n",
    "garbage": "import sys\nfor line in sys.stdin:\n    if line.startswith('go'):\n"
    "        print('bestmove \\u00b2 and \\x00 more', flush=True)\n",
}
HOW = {"crash": "crash: the engine exited (code 3)", "illegal": "illegal move: bestmove 99 is not legal here"}
HOW |= {"garbage": "illegal move: unreadable answer", "hang": "time: no bestmove within 1.3s"}


@pytest.mark.slow
def test_hostile_engines_among_the_players_lose_their_games_and_the_table_says_which(tmp_path):
    engines = {name: "engine:" + write_bot(tmp_path, name, source) for name, source in HOSTILE.items()}
    engines["hang"] = "engine:" + write_bot(tmp_path, "hang", HANG_LATER.format(folder=str(tmp_path)))
    proc = tournament("depth:1", *engines.values(), "--games-per-pair", "2", "--movetime", "300", "--jobs", "2")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    out = proc.stdout
    assert "20 of 20 games played" in out and "Games lost by failure:" in out
    failures = [line for line in out.splitlines() if line.startswith("  game ")]
    for kind, engine in engines.items():
        # both games against the level: lost by this engine, in its own way
        against_level = [line for line in failures if engine in line and "depth:1" in line]
        assert len(against_level) == 2, (kind, failures)
        assert all(f"{engine} lost on {HOW[kind]}" in line for line in against_level), against_level
    assert out.index("depth:1") < min(out.index(engine) for engine in engines.values())  # ranked first
    assert all(gone_soon(pid) for pid in pids_in(tmp_path))  # no hanging engine left behind


@pytest.mark.slow
def test_ctrl_c_prints_the_table_of_the_games_so_far_and_leaves_no_process():
    running = Match("depth:4", "depth:3", "beginner", "--games-per-pair", "400", "--jobs", "2", command="tournament")
    running.wait_for_games(6)
    workers = _children_of(running.process.pid)
    running.interrupt()
    out, _ = running.finish(60)
    assert running.code == 130, running.err
    assert "Traceback" not in running.err
    done = int(out.split(" of 1200 games played")[0].rsplit(" ", 1)[1])
    assert done >= 6 and f"Stopped by the user after {done} finished games." in out
    assert "Rank  Player" in out and "Cross-table" in out
    assert all(gone_soon(pid, 15) for pid in workers)


@pytest.mark.slow
def test_pgn_has_every_game_in_tournament_order_and_a_bad_path_is_refused(tmp_path, capsys):
    target = tmp_path / "kept.pgn"
    target.write_text("old\n")
    link = tmp_path / "games.pgn"
    link.symlink_to(target)
    argv = ["tournament", "depth:1", "depth:2", "beginner", "--games-per-pair", "2", "--jobs", "1"]
    assert main([*argv, "--pgn", str(link)]) == 0
    assert link.is_symlink()  # the link stays a link; the file it points to has the games
    games, problems = read_games(target.read_text())
    assert not problems and [game.tags["Round"] for game in games] == [str(n) for n in range(1, 7)]
    assert games[0].tags["Event"] == "round robin: depth:1, depth:2, beginner"
    assert "Games written to" in capsys.readouterr().out
    os.mkfifo(tmp_path / "fifo")
    for bad, said in [
        ("/dev/full", "is not a regular file"),
        (str(tmp_path / "fifo"), "is not a regular file"),
        (str(tmp_path), "is a folder"),
        (str(tmp_path / "no" / "such.pgn"), "does not exist"),
    ]:
        assert main([*argv, "--pgn", bad]) == 2
        err = capsys.readouterr().err.strip()
        assert said in err and len(err.splitlines()) == 1 and "Traceback" not in err, err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["hard"], "a tournament needs 2..64 players, not 1"),
        (["hard", "wizard"], "unknown level 'wizard'"),
        (["hard", "easy", "HARD"], "hard is named more than once"),
        (["hard", "easy", "--games-per-pair", "0"], "--games-per-pair must be 1.."),
        (["hard", "easy", "--anchor", "medium"], "--anchor medium: not a player of this tournament"),
        (["hard", "easy", "medium", "--gauntlet", "--anchor", "easy"], "a gauntlet rates the others against its base"),
        (["hard", "engine:/no/such/bot"], "no program '/no/such/bot' to run"),
        (["hard", "easy", "--jobs", "0"], "--jobs must be 1.."),
        (["hard", "easy", "--anchor-elo", "nan"], "--anchor-elo must be a number from"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(argv, said, capsys):
    assert main(["tournament", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert said in err and len(err.splitlines()) == 1, err


def test_an_openings_file_is_checked_line_by_line(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("# mine\n344\n\n4449\n")
    assert main(["tournament", "hard", "easy", "--openings", str(bad)]) == 2
    assert "line 4: 4449" in capsys.readouterr().err
    over = tmp_path / "over.txt"
    over.write_text("1212121\n")
    assert main(["tournament", "hard", "easy", "--openings", str(over)]) == 2
    assert "line 1: 1212121 ends the game" in capsys.readouterr().err
    good = tmp_path / "good.txt"
    good.write_text("344\n")
    assert main(["tournament", "hard", "easy", "--openings", str(good), "--pgn", str(good)]) == 2
    assert "is also the input" in capsys.readouterr().err and good.read_text() == "344\n"


@pytest.mark.slow
def test_the_openings_of_a_file_are_the_ones_played(tmp_path, capsys):
    mine = tmp_path / "mine.txt"
    mine.write_text("# two openings of my own\n11\n77 a comment after the moves\n")
    argv = ["tournament", "depth:1", "depth:2", "--games-per-pair", "4", "--openings", str(mine), "--json"]
    assert main([*argv, "--jobs", "1"]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    assert [game["opening"] for game in games] == ["11", "11", "77", "77"]
    assert all(game["moves"].startswith(game["opening"]) for game in games)


def test_closing_an_engine_that_ignores_quit_ends_its_input_and_it_leaves_by_itself(tmp_path):
    """A tournament's worker closes engines as the pairs go round: one that reads on to the
    end of its input and never heeds ``quit`` ends at once, not killed after 2 s."""
    source = LEFTMOST + (
        "import sys\nfor line in sys.stdin:\n    words = line.split()\n"
        "    if words and words[0] == 'position':\n        position = words\n"
        "    elif words and words[0] == 'go':\n        print(f'bestmove {leftmost(position)}', flush=True)\n"
    )
    bot = EnginePlayer(write_bot(tmp_path, "deaf", source), name="deaf")
    assert bot.choose(Board(Rules()), 2.0) == 0
    process = bot._process
    assert process is not None
    bot.close()
    assert process.returncode == 0  # it ended by itself; -9 had it been killed
