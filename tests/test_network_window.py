"""Network play in the window: the real App under SDL's dummy driver, on real sockets.

Title -> Network game -> Host; a joiner (another process's App, or a client here) plays a
whole game and both archives hold it; the chat line and spoken output; a wrong code is
said in the form; the frame never waits on the network; closing the window mid-game
leaves no thread or socket and keeps the game unfinished."""

from __future__ import annotations

import json
import os
import queue
import socket
import subprocess
import sys
import threading
import time

import pygame
import pytest

from game.app.navigation import BackToTitle, HostGame, JoinGame, OpenNetwork
from game.app.scenes.confirm import ConfirmScene
from game.app.scenes.network import NetworkMenuScene
from game.app.scenes.network_form import JoinFormScene
from game.app.scenes.network_table import NetworkTableScene
from game.app.scenes.options import OptionsScene
from game.app.scenes.play import PlayScene
from game.archive.store import Archive
from game.net.client import Client, JoinSettings, default_name, player_name
from game.net.events import ChatLine, GameOver, Moved, Welcome
from game.net.host import GameHost, HostSettings
from game.records import HUMAN, GameResult, Unfinished
from game.rules import MAX, MIN, Rules
from tests.network_peers import ROOT, RawPeer
from tests.test_network_hostile import wrong_join
from tests.ui import FRAME, click, drawn_texts, press, step, wait_until

CODE = "reef-lamp-oak"


def key(app, k: int, text: str = "") -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=text, scancode=0)], FRAME)


def type_text(app, text: str) -> None:
    for char in text:
        key(app, 0, char)


def next_event(events: queue.Queue, kind: type, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            event = events.get(timeout=0.05)
        except queue.Empty:
            continue
        if isinstance(event, kind):
            return event
    raise AssertionError(f"no {kind.__name__}")


def network_table(app) -> NetworkTableScene:
    scene = app.stack.top
    assert isinstance(scene, NetworkTableScene)
    return scene


def join_form(app) -> JoinFormScene:
    scene = app.stack.top
    assert isinstance(scene, JoinFormScene)
    return scene


def hosting_with_bob(app) -> tuple[NetworkTableScene, Client]:
    """The window hosts as Alice on 127.0.0.1; Bob joins from this process and is welcomed."""
    app.push(HostGame(HostSettings(code=CODE, name="Alice", address="127.0.0.1", port=0)))
    step(app, 2)
    scene = network_table(app)
    assert wait_until(app, lambda: scene.game.host is not None, 20)
    bob = Client(*scene.game.host.where, CODE, "Bob")
    bob.start()
    next_event(bob.events, Welcome)
    return scene, bob


def net_threads() -> set[str]:
    return {thread.name for thread in threading.enumerate() if thread.name.startswith("net-")}


def test_the_title_menu_opens_the_network_screen_and_hosts(app):
    app.reset(BackToTitle())
    step(app, 2)
    button = next(b for b in app.stack.top.buttons if b.label == "Network game")
    click(app, button.rect.center)
    step(app)
    assert isinstance(app.stack.top, NetworkMenuScene)
    key(app, pygame.K_h)
    step(app)
    scene = network_table(app)
    game = scene.game
    assert wait_until(app, lambda: game.host is not None, 20)
    assert game.code and game.addresses
    joiner = Client(*game.host.where, game.code, "Bob")
    joiner.start()
    assert next_event(joiner.events, Welcome).side == MIN
    assert wait_until(app, lambda: game.table is not None and game.to_play, 10)
    for _ in range(3):
        key(app, pygame.K_1)
        next_event(joiner.events, Moved)
        joiner.play(1, game.host.board.ply)
        next_event(joiner.events, Moved)
        assert wait_until(app, lambda: game.to_play, 10)
    key(app, pygame.K_1)
    assert next_event(joiner.events, GameOver).result is GameResult.FIRST
    assert wait_until(app, lambda: game.kept, 10)
    (game,) = app.archive.games()
    assert game.moves_string == "1212121" and game.second == "Bob"
    joiner.close()


def test_the_chat_line_and_speech_read_the_opponent(app):
    scene, bob = hosting_with_bob(app)
    bob.chat("hello <b>there</b>\n\x1b[31m")
    assert wait_until(app, lambda: any("Bob:" in line for line in scene.game.log), 10)
    assert scene.status_line() == "Bob: hello <b>there</b> [31m"
    said = []
    app.speech.enabled = True
    app.speech.say = lambda text: said.append(text)  # the voice itself: tests/test_speech.py
    step(app)
    assert said == ["Bob: hello <b>there</b> [31m"]
    key(app, pygame.K_TAB)
    type_text(app, "hi Bob")
    key(app, pygame.K_RETURN)
    assert next_event(bob.events, ChatLine) == ChatLine("Bob", "hello <b>there</b> [31m", MIN)  # its own, back
    assert next_event(bob.events, ChatLine) == ChatLine("Alice", "hi Bob", MAX)
    assert wait_until(app, lambda: "You: hi Bob" in scene.game.log, 10)  # one's own line: "You", not one's name
    key(app, pygame.K_4)
    assert next_event(bob.events, Moved).move == 3
    bob.play(2, 1)
    assert wait_until(app, lambda: said[-1:] == ["Bob played 3."], 10)
    bob.close()


def test_a_wrong_code_is_said_in_the_form(app):
    app.push(OpenNetwork())
    step(app, 2)
    host = GameHost(HostSettings(code=CODE, name="Alice", address="127.0.0.1", port=0))
    where = host.start()
    try:
        key(app, pygame.K_j)
        step(app)
        join_form(app).searching = True  # (the search of the local network runs beside; not this test's business)
        type_text(app, f"{where[0]}:{where[1]}")
        key(app, pygame.K_TAB)
        type_text(app, "reef lamp pine")
        key(app, pygame.K_RETURN)
        assert wait_until(app, lambda: isinstance(app.stack.top, JoinFormScene) and app.stack.top.note, 20)
        form = join_form(app)
        assert "wrong join code" in form.note
        assert form.fields == {"address": f"{where[0]}:{where[1]}", "code": "reef-lamp-pine"}  # kept to fix
        assert isinstance(app.stack.scenes[-2], NetworkMenuScene)  # Esc: back to the menu, not to a dead table
        assert host.board.moves == [] and host.guest is None
    finally:
        host.close()


def test_the_frame_never_waits_for_the_key_or_a_silent_address(app, monkeypatch):
    monkeypatch.setattr("game.net.host.game_key", lambda code, salt: time.sleep(3) or b"k" * 32)
    app.push(OpenNetwork())
    step(app, 2)
    started = time.perf_counter()
    key(app, pygame.K_h)  # the host's key takes 3 s here: the frames go on meanwhile
    step(app, 5)
    scene = network_table(app)
    assert time.perf_counter() - started < 2.5 and scene.game.host is None
    assert wait_until(app, lambda: scene.game.host is not None, 20)
    # A joiner whose host never answers (a listening socket that never accepts nor says hello):
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)
    app.push(JoinGame(JoinSettings(*silent.getsockname(), CODE, "Bob")))
    step(app, 2)
    started = time.perf_counter()
    step(app, 10)
    app.pop()
    step(app, 2)
    assert time.perf_counter() - started < 2.5
    silent.close()


def test_closing_the_window_mid_game_leaves_no_thread_no_socket_and_keeps_the_game(make_app, tmp_path):
    before = net_threads()
    app = make_app((900, 700), home=tmp_path / "alice")
    scene, bob = hosting_with_bob(app)
    where = scene.game.host.where
    assert wait_until(app, lambda: scene.game.to_play, 10)
    key(app, pygame.K_4)
    next_event(bob.events, Moved)
    app.close()
    assert net_threads() <= before | {"net-client"}
    with pytest.raises(OSError):
        socket.create_connection(where, timeout=2)
    bob.close()
    archive = Archive.open(tmp_path / "alice")
    try:
        kept = archive.unfinished_games()
        assert [(g.first, g.second, g.moves) for g in kept] == [("Alice", "Bob", (3,))]
    finally:
        archive.close()


HOST_WINDOW = """
import time
from game.app.navigation import BackToTitle, HostGame
from game.net.host import GameHost, HostSettings
from tests.network_peers import ROOT
from tests.ui import FRAME, press, step, wait_until
import pygame

app = start_app((800, 600))
app.push(HostGame(HostSettings(code="reef-lamp-oak", name="Alice", address="127.0.0.1", port=0)))
step(app, 2)
game = app.stack.top.game
assert wait_until(app, lambda: game.host is not None, 30)
print("PORT", game.host.where[1], flush=True)
moves = iter([pygame.K_1] * 4)
deadline = time.monotonic() + 90
while time.monotonic() < deadline and not game.kept:
    if game.table is not None and game.to_play:
        press(app, next(moves))
    step(app)
    time.sleep(0.005)
print("KEPT", game.kept, flush=True)
app.close()
"""


@pytest.mark.slow  # a second process with its own window
def test_a_whole_game_between_two_headless_windows(app, tmp_path, window_script):
    child = subprocess.Popen(
        [sys.executable, "-c", window_script(HOST_WINDOW), str(tmp_path / "alice")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"},
    )
    try:
        line = child.stdout.readline()
        assert line.startswith("PORT"), line + child.stderr.read()
        port = int(line.split()[1])
        app.push(OpenNetwork())
        step(app, 2)
        key(app, pygame.K_j)
        step(app)
        join_form(app).searching = True
        type_text(app, f"127.0.0.1:{port}")
        key(app, pygame.K_TAB)
        type_text(app, "Reef Lamp Oak")
        key(app, pygame.K_RETURN)
        step(app)
        game = network_table(app).game
        assert wait_until(app, lambda: game.table is not None and len(game.table.names) == 2, 30)
        for _ in range(3):
            assert wait_until(app, lambda: game.to_play, 30)
            press(app, pygame.K_2)
        assert wait_until(app, lambda: game.table.over is not None and game.kept, 30), (
            game.log,
            game.table.board.moves,
        )
        assert child.stdout.readline().strip() == "KEPT True"
        assert child.wait(timeout=30) == 0, child.stderr.read()
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(timeout=10)
    (mine,) = app.archive.games()
    theirs = Archive.open(tmp_path / "alice")
    try:
        (hosted,) = theirs.games()
    finally:
        theirs.close()
    assert mine.moves_string == hosted.moves_string == "1212121"
    assert mine.result is hosted.result is GameResult.FIRST
    assert (mine.first, mine.second) == (hosted.first, hosted.second) == ("Alice", mine.second)
    assert mine.rules == hosted.rules


def test_watch_draw_and_resign_in_the_window(app):
    host = GameHost(HostSettings(code=CODE, name="Alice", address="127.0.0.1", port=0))
    where = host.start()
    bob = Client(*where, CODE, "Bob")
    bob.start()
    next_event(bob.events, Welcome)
    try:
        app.push(OpenNetwork())
        step(app, 2)
        key(app, pygame.K_w)  # Watch: the same form, then a seat among the watchers
        step(app)
        join_form(app).searching = True
        type_text(app, f"{where[0]}:{where[1]}")
        key(app, pygame.K_TAB)
        type_text(app, CODE)
        key(app, pygame.K_RETURN)
        step(app)
        scene = network_table(app)
        game = scene.game
        assert wait_until(app, lambda: game.table is not None and game.table.side == 0, 20)
        assert wait_until(app, lambda: host.watcher_count == 1, 10)
        host.play(3)
        assert wait_until(app, lambda: game.table.board.moves == [3], 10)
        key(app, pygame.K_1)  # a watcher's keys play nothing
        bob.offer_draw()
        assert wait_until(app, lambda: game.table.draw_offer == MIN, 10)
        assert "Bob offers a draw" in scene.status_line()
        host.decline_draw()
        assert wait_until(app, lambda: game.table.draw_offer == 0, 10)
        assert host.board.moves == [3]
        app.pop()
        step(app, 2)
        assert wait_until(app, lambda: host.watcher_count == 0, 10)
        # Now Bob's seat in the window: D offers, N declines, R twice resigns.
        bob.close()
        app.push(JoinGame(JoinSettings(*where, CODE, "Bob")))
        step(app, 2)
        game = network_table(app).game
        assert wait_until(app, lambda: game.to_play, 20)
        key(app, pygame.K_d)
        assert wait_until(app, lambda: host.draw_offer == MIN, 10)
        host.offer_draw()  # Alice accepts: a draw by agreement, in both archives
        assert wait_until(app, lambda: game.table.over is not None and game.kept, 10)
        (game,) = app.archive.games()
        assert game.result is GameResult.DRAW and game.moves_string == "4"
    finally:
        host.close()


def test_resigning_takes_two_presses(app):
    scene, bob = hosting_with_bob(app)
    assert wait_until(app, lambda: scene.game.to_play, 10)
    key(app, pygame.K_r)
    step(app)
    assert scene.game.host.over is None
    key(app, pygame.K_r)
    assert next_event(bob.events, GameOver) == GameOver(GameResult.SECOND, "resigned")
    assert wait_until(app, lambda: scene.game.kept, 10)
    bob.close()


@pytest.mark.slow  # the whole program in a child process
def test_host_without_terminal_opens_the_window_hosting(tmp_path):
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "LANGUAGE": "en"}
    args = ["host", "--port", str(port), "--listen", "127.0.0.1", "--code", CODE, "--name", "Wendy"]
    child = subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), *args, "--home", str(tmp_path)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        welcome = None
        while welcome is None and time.monotonic() < deadline and child.poll() is None:
            joiner = Client("127.0.0.1", port, CODE, "Bob", resume_seconds=0)
            joiner.start()
            try:
                welcome = next_event(joiner.events, Welcome, 3)
            except AssertionError:
                time.sleep(0.5)  # the window is still starting
            joiner.close()
        assert welcome is not None, child.stderr.read() if child.poll() is not None else "no welcome"
        assert welcome.names[MAX] == "Wendy" and welcome.side == MIN
    finally:
        child.terminate()  # SIGTERM: the window closes as when its close button is pressed
        assert child.wait(timeout=30) == 0
        child.stderr.close()


def test_the_windows_host_keeps_the_game_as_it_goes_and_hears_of_wrong_codes_once(app):
    """Issue 47: the window kept a network game only when it dropped or was left, so a
    killed window lost it; now every move is this window's game in progress.  And the
    host's log says once that an address keeps sending wrong codes."""
    scene, bob = hosting_with_bob(app)
    assert wait_until(app, lambda: scene.game.to_play, 10)
    key(app, pygame.K_4)
    next_event(bob.events, Moved)
    bob.play(3, 1)
    next_event(bob.events, Moved)
    assert wait_until(app, lambda: scene.game.to_play, 10)
    kept = app.archive.in_progress()
    assert kept is not None and kept.moves == (3, 3) and (kept.first, kept.second) == ("Alice", "Bob")
    for _ in range(5):
        wrong_join(scene.game.host.where)
    assert wait_until(app, lambda: any("wrong join codes from 127.0.0.1" in line for line in scene.game.log), 10)
    assert sum("wrong join codes" in line for line in scene.game.log) == 1
    bob.close()


def test_the_name_typed_in_options_is_the_name_the_window_hosts_with(app):
    """Issue 52: both sides were "root"; the name is set in Options (typed, cleaned as
    any typed text: control characters never get in, spaces run together), saved, and it
    is the name the window hosts with; emptied, the account's name again."""
    app.stack.push(OptionsScene())
    step(app, 2)
    options = app.stack.top
    assert options.name_field.text == "" and options.name_field.placeholder == default_name()
    click(app, options.name_field.rect.center)
    assert options.name_field.focused
    type_text(app, "  Zo\u00eb\x1b \n Q")
    assert app.settings.name == "Zo\u00eb Q"
    assert json.loads(app.settings_path.read_text())["name"] == "Zo\u00eb Q"
    press(app, pygame.K_ESCAPE)
    app.push(OpenNetwork())
    step(app, 2)
    key(app, pygame.K_h)
    step(app)
    game = network_table(app).game
    assert wait_until(app, lambda: game.host is not None, 20)
    bob = Client(*game.host.where, game.code, "Bob")
    bob.start()
    assert next_event(bob.events, Welcome).names[MAX] == "Zo\u00eb Q"
    bob.close()
    app.pop()
    app.stack.push(OptionsScene())
    step(app, 2)
    options = app.stack.top
    click(app, options.name_field.rect.center)
    for _ in range(len("Zo\u00eb Q") + 2):
        key(app, pygame.K_BACKSPACE)
    assert app.settings.name == "" and player_name(app.settings.name) == default_name()


def test_a_guest_who_leaves_is_said_to_have_left_and_one_who_drops_to_have_dropped(app):
    """Issue 52: a player who left on purpose (Esc Esc, q) was reported as a dropped
    connection."""
    scene, bob = hosting_with_bob(app)
    bob.close()  # says goodbye
    assert wait_until(app, lambda: any(line.startswith("Bob left: waiting") for line in scene.game.log), 10)
    assert not any("dropped" in line for line in scene.game.log)
    assert scene.heading()[1].startswith("Bob left: waiting")
    app.pop()
    scene = network_table_hosting(app)
    carol = RawPeer(scene.game.host.where)
    assert carol.join(CODE, name="Carol")["t"] == "welcome"
    carol.close()  # the connection just ends: no goodbye
    assert wait_until(app, lambda: any("Carol's connection dropped" in line for line in scene.game.log), 10)


def test_after_the_game_the_joining_line_and_the_games_buttons_go(app):
    host = GameHost(HostSettings(code=CODE, name="Alice", address="127.0.0.1", port=0))
    where = host.start()
    try:
        app.push(JoinGame(JoinSettings(*where, CODE, "Bob")))
        step(app, 2)
        scene = network_table(app)
        game = scene.game
        assert wait_until(app, lambda: game.table is not None, 20)
        assert not any(line.startswith("Joining") for line in game.log)
        assert [b.label for b in scene.buttons()] == ["Draw", "Resign", "Chat", "Leave"]
        host.play(3)
        host.resign()
        assert wait_until(app, lambda: game.table.over is not None and game.kept, 10)
        step(app)
        assert [b.label for b in scene.buttons()] == ["Review the game", "Back"]
        assert not any(line.startswith("Joining") for line in game.log)
        assert "Alice resigned; Bob wins" in " ".join(game.log)
    finally:
        host.close()


def network_table_hosting(app) -> NetworkTableScene:
    app.push(HostGame(HostSettings(code=CODE, name="Alice", address="127.0.0.1", port=0)))
    step(app, 2)
    scene = network_table(app)
    assert wait_until(app, lambda: scene.game.host is not None, 20)
    return scene


GUEST_COMEBACK = {
    "role": "guest",
    "code": CODE,
    "address": "127.0.0.1",
    "port": 9,  # nothing listens there
    "name": "Bob",
    "game": "0123456789abcdef",
    "host_first": True,
    "guest_token": "",
}


def resume_from_title(app, starting: str) -> None:
    app.reset(BackToTitle())
    step(app, 2)
    button = next(b for b in app.stack.top.buttons if b.label.startswith(starting))
    click(app, button.rect.center)
    step(app, 2)


def test_a_network_game_whose_host_is_not_there_says_so_and_offers_to_play_it_here(app):
    """Issue 52: resuming a network game opened a local copy without a word.  Its host
    not there, the table says so (no stale "Joining ..." line), shows the game so far and
    offers to try again or, asked, to play it on at this screen, named as it was."""
    settings = {"opponent": "human", "network": GUEST_COMEBACK}
    app.archive.save_in_progress(
        Rules(), [3, 2, 3], first="Alice", second="Bob", settings=settings, kind=Unfinished.NETWORK
    )
    resume_from_title(app, "Resume the network game with Alice (3 discs)")
    scene = network_table(app)
    assert wait_until(app, lambda: scene.unreachable, 20)
    drawn = " ".join(text for text, _rect in drawn_texts(app))
    assert "Alice's game is not open at 127.0.0.1 port 9" in drawn and "Joining" not in drawn
    assert [b.label for b in scene.buttons()] == ["Try again", "Play it here", "Back"]
    key(app, pygame.K_l)
    step(app, 2)
    play = app.stack.top
    assert isinstance(play, PlayScene) and play.match.moves == [3, 2, 3]
    assert (play.side_name(MAX), play.side_name(MIN)) == ("Alice", "Bob") and play.kind is Unfinished.NETWORK


def test_a_network_game_kept_without_a_way_back_asks_before_it_is_played_here(app):
    app.archive.save_in_progress(
        Rules(), [3, 2], first="Alice", second="Bob", settings={"network": True}, kind=Unfinished.NETWORK
    )
    app.archive.save_in_progress(Rules(), [0], first=HUMAN, second="Perfect", settings={"opponent": "computer"})
    resume_from_title(app, "Resume Alice against Bob (2 discs)")
    question = app.stack.top
    assert isinstance(question, ConfirmScene)
    assert "it can only go on here, two players at this screen" in " ".join(question.lines)
    key(app, pygame.K_ESCAPE)  # back: nothing opened, nothing lost
    assert not isinstance(app.stack.top, ConfirmScene | PlayScene)
    resume_from_title(app, "Resume Alice against Bob (2 discs)")
    key(app, pygame.K_RETURN)
    step(app, 2)
    play = app.stack.top
    assert isinstance(play, PlayScene) and play.match.moves == [3, 2] and play.kind is Unfinished.NETWORK
    kinds = {kept.kind: kept.moves for kept in app.archive.unfinished_games()}
    assert kinds == {Unfinished.NETWORK: (3, 2), Unfinished.COMPUTER: (0,)}  # the game against Perfect stays
