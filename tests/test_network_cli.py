"""Whole network games between two processes on 127.0.0.1, through ``host`` and ``join``
in the terminal: the archives of both sides hold the same game; a wrong code is one line;
a killed joiner comes back to the same game, a killed host is said within 10 s."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.archive.store import Archive
from game.net.words import normal_code
from game.records import GameResult
from tests.network_peers import MAIN, ROOT, FakeHost, Terminal, welcome

pytestmark = pytest.mark.slow  # two or three processes a test

CODE = "moon sand fork"


@pytest.fixture
def terminals():
    started: list[Terminal] = []

    def start(*args: str) -> Terminal:
        started.append(Terminal(*args))
        return started[-1]

    yield start
    for terminal in started:
        terminal.close()


def start_host(terminals, tmp_path: Path, *more: str) -> Terminal:
    """Alice hosts on 127.0.0.1, on a port of the system's choice, without announcing."""
    home = str(tmp_path / "alice")
    return terminals(
        "host",
        "--port",
        "0",
        "--listen",
        "127.0.0.1",
        "--code",
        CODE,
        "--name",
        "Alice",
        "--home",
        home,
        "--no-discovery",
        *more,
    )


def host_and_join(terminals, tmp_path: Path, *more: str) -> tuple[Terminal, Terminal]:
    host = start_host(terminals, tmp_path, *more)
    address = host.address()
    guest = terminals("join", address, "--code", "Moon-Sand-Fork", "--name", "Bob", "--home", str(tmp_path / "bob"))
    guest.expect("; you are player")
    host.expect("Bob joined")
    return host, guest


def play(mover: Terminal, other: Terminal, column: int) -> None:
    mover.expect("Your move")
    mover.send(str(column))
    other.expect(f"played {column}.")


def stored(home: Path) -> list:
    archive = Archive.open(home)
    try:
        return archive.games()
    finally:
        archive.close()


def test_a_whole_game_between_two_processes_lands_in_both_archives(terminals, tmp_path):
    host, guest = host_and_join(terminals, tmp_path)
    # Alice (first) builds column 1; Bob answers in column 2; Alice's fourth disc wins.
    for _ in range(3):
        play(host, guest, 1)
        play(guest, host, 2)
    play(host, guest, 1)
    host.expect("Game over: Alice wins")
    guest.expect("Game over: Alice wins")
    assert host.wait() == 0 and guest.wait() == 0
    alice, bob = stored(tmp_path / "alice"), stored(tmp_path / "bob")
    assert len(alice) == len(bob) == 1
    for game in (alice[0], bob[0]):
        assert game.moves_string == "1212121"
        assert game.result is GameResult.FIRST
        assert (game.first, game.second) == ("Alice", "Bob")
        assert game.rules == alice[0].rules


def test_the_guest_may_move_first_and_rules_travel(terminals, tmp_path):
    host, guest = host_and_join(terminals, tmp_path, "--first", "guest", "--cols", "5", "--rows", "4", "--connect", "3")
    play(guest, host, 5)
    play(host, guest, 1)
    play(guest, host, 5)
    play(host, guest, 1)
    play(guest, host, 5)
    guest.expect("Game over: Bob wins")
    assert guest.wait() == 0 and host.wait() == 0
    for home in ("alice", "bob"):
        (game,) = stored(tmp_path / home)
        assert (game.first, game.second, game.moves_string) == ("Bob", "Alice", "51515")
        assert (game.rules.rows, game.rules.cols, game.rules.connect) == (4, 5, 3)


def test_a_draw_offered_and_accepted_and_a_resignation(terminals, tmp_path):
    host, guest = host_and_join(terminals, tmp_path)
    play(host, guest, 4)
    guest.send("draw")
    host.expect("Bob offers a draw")
    host.expect("Type draw to accept, no to decline.")  # the terminal's keys; the window says D and N
    host.send("no")
    guest.expect("You declined the draw".replace("You", "Alice"))
    guest.send("draw")
    host.expect("Bob offers a draw")
    host.send("draw")
    host.expect("Game over: a draw by agreement")
    guest.expect("Game over: a draw by agreement")
    assert host.wait() == 0 and guest.wait() == 0
    assert stored(tmp_path / "bob")[0].result is GameResult.DRAW

    host, guest = host_and_join(terminals, tmp_path / "second")
    host.send("resign")
    guest.expect("Alice resigned; Bob wins")
    assert host.wait() == 0 and guest.wait() == 0
    assert stored(tmp_path / "second" / "alice")[0].result is GameResult.SECOND


def test_a_wrong_code_is_refused_in_one_line_and_the_host_plays_on(terminals, tmp_path):
    host = start_host(terminals, tmp_path)
    address = host.address()
    intruder = terminals("join", address, "--code", "moon sand spoon", "--home", str(tmp_path / "eve"))
    assert intruder.wait() == 2
    error = intruder.proc.stderr.read() if intruder.proc.stderr else ""
    assert error.count("\n") == 1 and "wrong join code" in error
    guest = terminals("join", address, "--code", CODE, "--name", "Bob", "--home", str(tmp_path / "bob"))
    guest.expect("you are player 2")
    play(host, guest, 3)


def test_a_killed_joiner_comes_back_to_the_same_game(terminals, tmp_path):
    host, guest = host_and_join(terminals, tmp_path)
    play(host, guest, 1)
    play(guest, host, 2)
    guest.kill()
    host.expect("Bob's connection dropped: waiting 5:00")
    address = host.seen[2].split("main.py join ", 1)[1].split()[0]
    back = terminals("join", address, "--code", CODE, "--name", "Bob", "--home", str(tmp_path / "bob"))
    back.expect("you are player 2")
    host.expect("Bob is back")
    for _ in range(2):
        play(host, back, 1)
        play(back, host, 2)
    play(host, back, 1)
    back.expect("Game over: Alice wins")
    assert host.wait() == 0 and back.wait() == 0
    alice, bob = stored(tmp_path / "alice"), stored(tmp_path / "bob")
    assert alice[0].moves_string == bob[0].moves_string == "1212121"


def test_a_killed_host_is_said_within_ten_seconds_and_the_game_kept_unfinished(terminals, tmp_path):
    host, guest = host_and_join(terminals, tmp_path)
    play(host, guest, 4)
    play(guest, host, 5)
    guest.expect("You played 5.")  # the host's word that it took the move
    host.kill()
    killed = time.monotonic()
    line = guest.expect("The host is gone", timeout=10)
    assert time.monotonic() - killed < 10
    assert "2 moves" in line and "unfinished" in line
    with sqlite3.connect(tmp_path / "bob" / "games.sqlite3") as database:
        rows = database.execute("SELECT first, second, moves FROM in_progress").fetchall()
    assert rows == [("Alice", "Bob", "45")]


def test_a_watcher_follows_the_game_move_by_move(terminals, tmp_path):
    host, guest = host_and_join(terminals, tmp_path)
    address = host.seen[2].split("main.py join ", 1)[1].split()[0]
    watcher = terminals(
        "join", address, "--code", CODE, "--watch", "--name", "Carol", "--home", str(tmp_path / "carol")
    )
    watcher.expect("Watching Alice against Bob")
    host.expect("Watching: 1")  # (after Alice's "Your move" line)
    host.send("6")
    guest.expect("played 6.")
    watcher.expect("Alice played 6.")
    watcher.send("3")
    watcher.expect("You are watching")
    play(guest, host, 6)
    watcher.expect("Bob played 6.")
    watcher.send("q")
    assert watcher.wait() == 0
    host.expect("Watching: 0")
    assert not (tmp_path / "carol" / "games.sqlite3").exists() or stored(tmp_path / "carol") == []


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["host", "--port", "70000"], "--port must be 0..65535"),
        (["join", "127.0.0.1:99999", "--code", "a b"], "not an address with a port"),
        (["join", "127.0.0.1", "--code", " - "], "the join code is empty"),
        (["host", "--terminal", "--name", "\x07"], "--name must be"),
        (["host", "--terminal", "--listen", "203.0.113.9", "--port", "0"], "cannot listen on 203.0.113.9"),
    ],
)
def test_a_bad_option_is_one_line_and_no_window(args, said, tmp_path):
    done = subprocess.run(
        [sys.executable, str(MAIN), *args, "--home", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={**os.environ, "LANGUAGE": "en", "SDL_VIDEODRIVER": "dummy"},
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr
    assert "pygame" not in done.stdout


def test_a_join_whose_input_is_empty_still_says_why_it_could_not_join(tmp_path):
    """Standard input at its end (a script, </dev/null) made join leave at once, exit 0 and
    silent; the host's refusal (here: nobody listening) is what it must say."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nobody listens there
    done = subprocess.run(
        [
            sys.executable,
            str(MAIN),
            "join",
            f"127.0.0.1:{port}",
            "--code",
            "oak-reef",
            "--terminal",
            "--home",
            str(tmp_path),
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "refused" in done.stderr.lower(), (done.returncode, done.stderr)


# -- issue 47: both sides keep the game as it goes; a host that breaks the protocol --------------


def unfinished(home: Path) -> list[tuple[str, str, str]]:
    """The games in progress an archive offers (their process gone), as (first, second, moves)."""
    archive = Archive.open(home)
    try:
        return [(g.first, g.second, "".join(str(m + 1) for m in g.moves)) for g in archive.unfinished_games()]
    finally:
        archive.close()


def test_both_sides_keep_the_game_as_it_goes_so_a_kill_of_both_loses_nothing(terminals, tmp_path):
    """Before, the terminal host kept nothing until it exited and the joiner kept the game
    only when the connection dropped: a SIGKILL of both lost every move."""
    host, guest = host_and_join(terminals, tmp_path)
    play(host, guest, 4)
    play(guest, host, 5)
    play(host, guest, 4)
    guest.kill()
    host.kill()
    assert unfinished(tmp_path / "alice") == unfinished(tmp_path / "bob") == [("Alice", "Bob", "454")]


def test_join_keeps_the_game_so_far_when_the_host_breaks_the_protocol(terminals, tmp_path):
    """A host whose move its own board would refuse: ``join`` says so in one line, exits 2,
    and the game so far is in the joiner's archive (before, it was lost)."""

    def answers(seal, join):
        return [welcome(seal, [3, 3]), seal.seal({"t": "move", "side": -1, "move": 2, "ply": 2})]  # Bob's, out of turn

    fake = FakeHost(normal_code(CODE), answers)
    try:
        address = f"{fake.where[0]}:{fake.where[1]}"
        guest = terminals("join", address, "--code", CODE, "--name", "Bob", "--home", str(tmp_path / "bob"))
        assert guest.wait() == 2  # standard input stays open: the host's line ends it
    finally:
        fake.close()
    error = guest.stderr_now()
    assert error.count("\n") == 1 and "the host broke the protocol" in error and "kept in your archive" in error
    assert unfinished(tmp_path / "bob") == [("Alice", "Bob", "44")]


@pytest.mark.parametrize("depth", [988, 995])
def test_join_says_a_host_whose_answer_is_nested_a_thousand_deep_did_not_prove_the_code(tmp_path, depth):
    """Before, 988 deep left ``join`` at "Joining ..." for ever (its thread died of
    RecursionError) and 995 deep was said as "a line that is not JSON text"."""

    def answers(seal, join):
        return [f'{{"s":0,"h":"{"0" * 64}","m":{{"t":"welcome","x":{"[" * depth + "]" * depth}}}}}\n'.encode()]

    fake = FakeHost(normal_code(CODE), answers)
    try:
        done = run_join(fake.where, tmp_path / "bob")
    finally:
        fake.close()
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "the host did not prove it knows the code" in done.stderr


def run_join(where: tuple[str, int], home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(MAIN), "join", f"{where[0]}:{where[1]}", "--code", CODE, "--name", "Bob"]
        + ["--home", str(home), "--terminal"],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=30,  # a join that hangs fails here
        env={**os.environ, "LANGUAGE": "en"},
    )
