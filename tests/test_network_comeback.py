"""Issue 52, item 1: an unfinished network game goes on as a network game.

Two real processes on 127.0.0.1, the real App on both sides (SDL's dummy driver): one side
leaves mid-game, its title lists the network game apart from its game against the
computer, and resuming it reaches the other window again (the guest rejoins its seat;
the host hosts the same game again on the same port and code).  The moves made after
the resume reach the other side, and both archives end with the one finished game.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pygame
import pytest

from game.app.navigation import BackToTitle, HostGame, JoinGame
from game.app.scenes.network_table import NetworkTableScene
from game.archive.store import Archive
from game.net.client import JoinSettings
from game.net.host import HostSettings
from game.records import HUMAN, GameResult, Unfinished
from game.rules import Rules
from tests.network_peers import ROOT
from tests.ui import click, press, step, wait_until

CODE = "reef-lamp-oak"

# A window that hosts as Alice (argv[2]: "host") or joins as Bob (argv[2]: "join PORT"),
# plays column 1 (Alice) or 2 (Bob) whenever it is its turn, prints each new line of its
# log, and, when the game ends unfinished on its side (the other left), goes back to the
# title and resumes the network game from there, trying again until it is reached.
WINDOW = """
import time
import pygame
from game.app.navigation import BackToTitle, HostGame, JoinGame
from game.app.scenes.network_table import NetworkTableScene
from game.net.client import JoinSettings
from game.net.host import HostSettings
from tests.ui import click, press, step

app = start_app((800, 600))
role = sys.argv[2]
if role == "host":
    app.push(HostGame(HostSettings(code="reef-lamp-oak", name="Alice", address="127.0.0.1", port=0)))
    column = pygame.K_1
else:
    app.push(JoinGame(JoinSettings("127.0.0.1", int(sys.argv[3]), "reef-lamp-oak", "Bob")))
    column = pygame.K_2
step(app, 2)
printed = 0
said_port = False
resumed = False
tried_at = 0.0
deadline = time.monotonic() + 120
while time.monotonic() < deadline:
    scene = app.stack.top
    if isinstance(scene, NetworkTableScene) and scene.session is not None:
        game = scene.game
        if game.host is not None and not said_port:
            print("PORT", game.host.where[1], flush=True)
            said_port = True
        for line in game.log[printed:] if len(game.log) > printed else []:
            print("LOG", line, flush=True)
        printed = len(game.log)
        if game.kept:
            break
        if game.table is not None and game.to_play:
            press(app, column)
        elif game.ended is not None and not resumed:  # the other side left for good: come back later
            resumed = True
            app.reset(BackToTitle())
            step(app, 2)
            button = next(b for b in app.stack.top.buttons if b.label.startswith("Resume the network game"))
            print("TITLE", button.label, flush=True)
            click(app, button.rect.center)
            printed = 0
        elif scene.unreachable and time.monotonic() > tried_at + 0.5:
            tried_at = time.monotonic()
            press(app, pygame.K_a)  # the other side is not back yet: try again
    step(app)
    time.sleep(0.005)
scene = app.stack.top
print("MOVES", "".join(str(m + 1) for m in scene.game.table.board.moves), flush=True)
print("KEPT", scene.game.kept, flush=True)
app.close()
"""


def start_window(window_script, home, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", window_script(WINDOW), str(home), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"},
    )


def read_until(child: subprocess.Popen, prefix: str, seen: list[str]) -> str:
    """The child's next line starting with ``prefix`` (every line read is kept in ``seen``)."""
    assert child.stdout is not None
    while True:
        line = child.stdout.readline()
        if not line:
            raise AssertionError("".join(seen) + child.stderr.read())
        seen.append(line)
        if line.startswith(prefix):
            return line.strip()


def table(app) -> NetworkTableScene:
    scene = app.stack.top
    assert isinstance(scene, NetworkTableScene), scene
    return scene


def resume_from_title(app, starting: str) -> str:
    """Click the title's resume button whose label starts with ``starting``; its label."""
    app.reset(BackToTitle())
    step(app, 2)
    labels = [b.label for b in app.stack.top.buttons]
    button = next((b for b in app.stack.top.buttons if b.label.startswith(starting)), None)
    assert button is not None, labels
    click(app, button.rect.center)
    step(app, 2)
    return button.label


def play_to_the_end(app, game, column: int, child: subprocess.Popen, seen: list[str]) -> None:
    """Play ``column`` at each turn of this window until the game is over and kept; the
    other window ends with the same moves, its game kept too."""
    while not game.kept:
        assert wait_until(app, lambda: game.to_play or game.kept, 60), game.log
        if not game.kept:
            press(app, column)
    assert read_until(child, "MOVES", seen) == "MOVES 1212121"
    assert read_until(child, "KEPT", seen) == "KEPT True"
    assert child.wait(timeout=30) == 0, child.stderr.read()


def keep_a_game_against_the_computer(app) -> None:
    app.archive.save_in_progress(Rules(), [3, 3, 4], first=HUMAN, second="Perfect", settings={"opponent": "computer"})


def archived(home) -> tuple[list[str], list[tuple[Unfinished, tuple[int, ...]]]]:
    archive = Archive.open(home)
    try:
        return [game.moves_string for game in archive.games()], [(k.kind, k.moves) for k in archive.unfinished_games()]
    finally:
        archive.close()


@pytest.mark.slow  # a second process with its own window
def test_a_guest_who_left_resumes_the_network_game_from_the_title(app, tmp_path, window_script):
    """Bob (this window) joins Alice's window, leaves with Esc Esc after a move: Alice's
    window says Bob left (not a dropped connection) and waits; Bob's title offers the
    network game apart from his game against Perfect; resuming it rejoins Alice's game, and
    the moves made after it reach her window."""
    keep_a_game_against_the_computer(app)
    child = start_window(window_script, tmp_path / "alice", "host")
    seen: list[str] = []
    try:
        port = int(read_until(child, "PORT", seen).split()[1])
        app.push(JoinGame(JoinSettings("127.0.0.1", port, CODE, "Bob")))
        step(app, 2)
        game = table(app).game
        assert wait_until(app, lambda: game.to_play, 30), game.log
        press(app, pygame.K_2)
        assert wait_until(app, lambda: game.table.board.moves == [0, 1, 0], 30), game.log  # Alice's answer
        press(app, pygame.K_ESCAPE)
        press(app, pygame.K_ESCAPE)  # Esc twice leaves on purpose
        step(app, 2)
        assert not isinstance(app.stack.top, NetworkTableScene)
        assert "Bob left: waiting" in read_until(child, "LOG Bob left", seen)
        label = resume_from_title(app, "Resume the network game")
        assert label == "Resume the network game with Alice (3 discs)"
        game = table(app).game
        assert wait_until(app, lambda: game.table is not None and game.table.board.moves == [0, 1, 0], 30), game.log
        assert game.table.names[game.table.side] == "Bob"  # his own seat back, not a second guest
        play_to_the_end(app, game, pygame.K_2, child, seen)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(timeout=10)
    assert not any("connection dropped" in line for line in seen), seen
    assert game.table.over is not None and game.table.over.result is GameResult.FIRST
    assert archived(tmp_path / "alice") == (["1212121"], [])
    # Bob's archive: the finished network game, and his game against Perfect still waiting.
    assert [g.moves_string for g in app.archive.games()] == ["1212121"]
    assert [(k.kind, k.moves) for k in app.archive.unfinished_games()] == [(Unfinished.COMPUTER, (3, 3, 4))]


@pytest.mark.slow  # a second process with its own window
def test_a_host_who_left_hosts_the_same_game_again_and_the_guest_comes_back(app, tmp_path, window_script):
    """Alice (this window) hosts, Bob's window joins; Alice leaves mid-game: Bob's window
    says so and keeps the game.  Alice's title offers it; resuming it hosts the same game
    again on the same port with the same code, and Bob's window, resumed from its own
    title, gets his seat back; the game is played to the end on both sides."""
    keep_a_game_against_the_computer(app)
    app.push(HostGame(HostSettings(code=CODE, name="Alice", address="127.0.0.1", port=0)))
    step(app, 2)
    game = table(app).game
    assert wait_until(app, lambda: game.host is not None, 30)
    port = game.host.where[1]
    child = start_window(window_script, tmp_path / "bob", "join", str(port))
    seen: list[str] = []
    try:
        assert wait_until(app, lambda: game.to_play, 30), game.log
        press(app, pygame.K_1)
        assert wait_until(app, lambda: game.table.board.moves == [0, 1] and game.to_play, 30), game.log
        press(app, pygame.K_ESCAPE)
        press(app, pygame.K_ESCAPE)
        step(app, 2)
        assert "Alice left and closed the game" in read_until(child, "LOG Alice left", seen)
        assert read_until(child, "TITLE", seen) == "TITLE Resume the network game with Alice (2 discs)"
        label = resume_from_title(app, "Resume the network game")
        assert label == "Resume the network game with Bob (2 discs)"
        game = table(app).game
        assert wait_until(app, lambda: game.host is not None, 30), game.log
        assert game.host.where[1] == port and game.code == CODE
        play_to_the_end(app, game, pygame.K_1, child, seen)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(timeout=10)
    assert archived(tmp_path / "bob") == (["1212121"], [])
    assert [g.moves_string for g in app.archive.games()] == ["1212121"]
    assert [(k.kind, k.moves) for k in app.archive.unfinished_games()] == [(Unfinished.COMPUTER, (3, 3, 4))]
