"""The host against hostile peers, on real sockets on 127.0.0.1: each one is closed (that
connection only), the game is unchanged, and the real opponent still plays.

Also the protocol's own pieces: the seal refuses replays, forgeries and other codes; the
line buffer refuses a line over the limit; the rate limit counts."""

from __future__ import annotations

import json
import queue
import socket
import time

import pytest

from game.net.client import Client, split_address
from game.net.events import GameOver, JoinFailed, Moved, PlayerLeft, Refused, SeatExpired, WatchersChanged, Welcome
from game.net.host import GameHost, HostSettings, local_addresses
from game.net.protocol import (
    BURST,
    MAX_LINE_BYTES,
    LineBuffer,
    ProtocolError,
    RateLimit,
    Seal,
    connection_key,
    game_key,
)
from game.net.words import WORDS, CodeError, new_code, normal_code
from game.records import GameResult
from game.rules import MAX, MIN
from tests.network_peers import RawPeer, forged

CODE = "lamp-reef-oak"


def wait_for(events: queue.Queue, kind: type, timeout: float = 10.0):
    """The next event of ``kind`` (skipping others)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            event = events.get(timeout=0.1)
        except queue.Empty:
            continue
        if isinstance(event, kind):
            return event
    raise AssertionError(f"no {kind.__name__} within {timeout} s")


@pytest.fixture
def game():
    """A host on 127.0.0.1 (Alice, first) with Bob seated as a real client; one move each."""
    host = GameHost(HostSettings(code=CODE, name="Alice", address="127.0.0.1", port=0))
    where = host.start()
    bob = Client(*where, CODE, "Bob")
    bob.start()
    assert wait_for(bob.events, Welcome).side == MIN
    host.play(3)
    wait_for(bob.events, Moved)
    bob.play(3, 1)
    assert wait_for(bob.events, Moved).ply == 1
    wait_for(host.events, Moved)
    wait_for(host.events, Moved)
    yield host, bob, where
    bob.close()
    host.close()


def still_plays(host: GameHost, bob: Client, moves: list[int]) -> None:
    """The game is what it was, and Bob, the real opponent, still plays."""
    assert host.board.moves == moves
    host.play(0)
    assert wait_for(bob.events, Moved).move == 0
    bob.play(0, len(moves) + 1)
    deadline = time.monotonic() + 10
    while host.board.moves != [*moves, 0, 0] and time.monotonic() < deadline:
        time.sleep(0.02)
    assert host.board.moves == [*moves, 0, 0]


def test_connect_and_close(game):
    host, bob, where = game
    for _ in range(20):
        socket.create_connection(where, timeout=5).close()
    still_plays(host, bob, [3, 3])


def test_a_megabyte_of_garbage(game):
    host, bob, where = game
    sock = socket.create_connection(where, timeout=5)
    try:
        sock.sendall(bytes(range(256)) * 4096)
    except (BrokenPipeError, ConnectionResetError):
        pass  # closed before the whole megabyte went
    sock.close()
    still_plays(host, bob, [3, 3])
    assert host.refused_lines >= 1


def test_a_megabyte_line_without_an_end_is_cut_off(game):
    host, bob, where = game
    peer = RawPeer(where)
    try:
        peer.send_raw(b"{" * (1 << 20))
    except (BrokenPipeError, ConnectionResetError):
        pass
    assert peer.is_closed_by_host()
    still_plays(host, bob, [3, 3])


@pytest.mark.parametrize("line", [b'{"t": "move", "move": 0, "ply": 2}\n', b"[1, 2, 3]\n", b'"hello"\n', b"{}\n"])
def test_a_bare_json_line_is_not_a_join(game, line):
    host, bob, where = game
    peer = RawPeer(where)
    peer.send_raw(line)
    assert peer.is_closed_by_host()
    still_plays(host, bob, [3, 3])


def test_a_wrong_code_is_refused_in_the_clear_and_closed(game):
    host, bob, where = game
    peer = RawPeer(where)
    key = game_key("lamp-reef-pine", bytes.fromhex(peer.hello["salt"]))
    seal = Seal(connection_key(key, bytes.fromhex(peer.hello["nonce"]), peer.nonce), host=False)
    peer.send_raw(seal.seal({"t": "join", "v": 1, "name": "Eve", "watch": False, "seat": ""}, nonce=peer.nonce.hex()))
    assert peer.read() == {"t": "refused", "why": "code"}
    assert peer.is_closed_by_host()
    wrong = Client(*where, "lamp reef pine", "Eve")
    wrong.start()
    failed = wait_for(wrong.events, JoinFailed)
    assert failed.wrong_code
    still_plays(host, bob, [3, 3])


def test_a_replayed_join_from_another_connection_is_refused(game):
    host, bob, where = game
    watcher = RawPeer(where)
    key = game_key(CODE, bytes.fromhex(watcher.hello["salt"]))
    watcher.seal = Seal(connection_key(key, bytes.fromhex(watcher.hello["nonce"]), watcher.nonce), host=False)
    recorded = watcher.seal.seal(
        {"t": "join", "v": 1, "name": "Carol", "watch": True, "seat": ""}, nonce=watcher.nonce.hex()
    )
    watcher.send_raw(recorded)
    assert watcher.receive()["t"] == "welcome"
    replay = RawPeer(where)  # another connection: another challenge, so the recorded join fails
    replay.send_raw(recorded)
    assert replay.read() == {"t": "refused", "why": "code"}
    assert replay.is_closed_by_host()
    still_plays(host, bob, [3, 3])


def test_a_replayed_or_forged_message_inside_a_connection_closes_it(game):
    host, bob, where = game
    for attack in ("replay", "forge", "unsealed"):
        peer = RawPeer(where)
        assert peer.join(CODE, name="Carol", watch=True)["t"] == "welcome"
        line = peer.send({"t": "chat", "text": "hello"})
        if attack == "replay":
            peer.send_raw(line)
        elif attack == "forge":
            message = json.loads(line)
            message["s"] = 1
            message["m"]["text"] = "forged"
            peer.send_raw(json.dumps(message).encode() + b"\n")
        else:
            peer.send_raw(b'{"t": "chat", "text": "no seal"}\n')
        assert peer.is_closed_by_host(), attack
    still_plays(host, bob, [3, 3])


def test_moves_out_of_turn_or_illegal_are_refused_and_change_nothing(game):
    host, bob, where = game
    bob.play(4, 2)  # Alice is to move
    assert wait_for(bob.events, Refused).why == "turn"
    host.play(4)
    assert wait_for(bob.events, Moved).move == 4
    wait_for(host.events, Moved)
    bob.play(4, 2)  # an old ply: the move it was chosen at is gone
    assert wait_for(bob.events, Refused).why == "turn"
    bob.play(99, 3)
    assert wait_for(bob.events, Refused).why == "illegal"
    assert host.board.moves == [3, 3, 4]
    host.play(5)  # not Alice's turn: refused to the host's own front end
    assert wait_for(host.events, Refused).why == "turn"
    bob.play(4, 3)
    assert wait_for(bob.events, Moved).ply == 3
    still_plays(host, bob, [3, 3, 4, 4])


def test_a_watcher_cannot_move_and_a_forged_move_from_bob_is_closed(game):
    host, bob, where = game
    carol = RawPeer(where)
    assert carol.join(CODE, name="Carol", watch=True)["t"] == "welcome"
    carol.send({"t": "move", "move": 0, "ply": 2})
    body = carol.receive()
    while body["t"] != "refused":
        body = carol.receive()
    assert body == {"t": "refused", "why": "watcher"}
    line = carol.send({"t": "move", "move": 0, "ply": 2})
    carol.send_raw(forged(line))
    assert carol.is_closed_by_host()
    still_plays(host, bob, [3, 3])


def test_a_flood_closes_the_flooder_only(game):
    host, bob, where = game
    carol = RawPeer(where)
    assert carol.join(CODE, name="Carol", watch=True)["t"] == "welcome"
    try:
        for _ in range(BURST * 20):
            carol.send({"t": "ping"})
    except (BrokenPipeError, ConnectionResetError):
        pass
    assert carol.is_closed_by_host()
    assert wait_for(host.events, WatchersChanged).count in (0, 1)
    still_plays(host, bob, [3, 3])


def test_a_third_player_is_refused_while_the_seat_is_held(game):
    host, bob, where = game
    eve = Client(*where, CODE, "Eve")
    eve.start()
    assert "two players" in wait_for(eve.events, JoinFailed).reason
    still_plays(host, bob, [3, 3])


def test_a_silent_connection_is_closed_after_the_handshake_time(game, monkeypatch):
    host, bob, where = game
    monkeypatch.setattr("game.net.host.HANDSHAKE_SECONDS", 0.5)
    sock = socket.create_connection(where, timeout=5)
    sock.settimeout(5)
    assert sock.recv(4096).startswith(b'{"t":"hello"')
    assert sock.recv(4096) == b""
    sock.close()
    still_plays(host, bob, [3, 3])


def test_a_dropped_player_gets_the_same_seat_back_and_the_game_so_far(game):
    host, bob, where = game
    bob.close()
    left = wait_for(host.events, PlayerLeft)
    assert left.side == MIN and left.seconds == 300
    again = Client(*where, CODE, "Bob")
    again.start()
    welcome = wait_for(again.events, Welcome)
    assert welcome.side == MIN and welcome.moves == (3, 3) and welcome.names == {MAX: "Alice", MIN: "Bob"}
    again.resign()
    over = wait_for(host.events, GameOver)
    assert over == GameOver(GameResult.FIRST, "resigned")
    again.close()


def test_a_dropped_seat_expires_after_its_wait():
    host = GameHost(HostSettings(code=CODE, name="Alice", address="127.0.0.1", port=0, resume_seconds=1))
    where = host.start()
    bob = Client(*where, CODE, "Bob")
    bob.start()
    wait_for(bob.events, Welcome)
    bob.close()
    wait_for(host.events, PlayerLeft)
    wait_for(host.events, SeatExpired, 5)
    late = Client(*where, CODE, "Bob")
    late.start()
    assert wait_for(late.events, JoinFailed)
    host.close()


def test_closing_the_host_leaves_no_thread_and_no_socket():
    import threading

    before = {thread.name for thread in threading.enumerate()}
    host = GameHost(HostSettings(code=CODE, name="Alice", address="127.0.0.1", port=0))
    where = host.start()
    bob = Client(*where, CODE, "Bob")
    bob.start()
    wait_for(bob.events, Welcome)
    bob.close()
    host.close()
    deadline = time.monotonic() + 5
    while {t.name for t in threading.enumerate()} - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not {t.name for t in threading.enumerate() if t.name.startswith("net-")} - before
    with pytest.raises(OSError):
        socket.create_connection(where, timeout=2)


# -- the pieces ---------------------------------------------------------------------------------
def test_the_seal_refuses_replay_forgery_and_another_key():
    key = connection_key(game_key(CODE, b"salt"), b"h" * 16, b"p" * 16)
    sender, receiver = Seal(key, host=False), Seal(key, host=True)
    first = json.loads(sender.seal({"t": "chat", "text": "hi"}))
    assert receiver.open(first) == {"t": "chat", "text": "hi"}
    with pytest.raises(ProtocolError, match="replayed"):
        receiver.open(first)
    second = json.loads(sender.seal({"t": "move", "move": 1, "ply": 0}))
    second["m"]["move"] = 2
    with pytest.raises(ProtocolError, match="forged"):
        receiver.open(second)
    other = Seal(connection_key(game_key("lamp-reef-pine", b"salt"), b"h" * 16, b"p" * 16), host=False)
    with pytest.raises(ProtocolError, match="forged"):
        receiver.open(json.loads(other.seal({"t": "ping"})))
    mirrored = json.loads(receiver.seal({"t": "ping"}))  # a host's own line sent back to it
    with pytest.raises(ProtocolError):
        Seal(key, host=True).open(mirrored)


def test_the_line_buffer_and_the_rate_limit():
    buffer = LineBuffer()
    assert buffer.feed(b'{"a":1}\n{"b"') == [b'{"a":1}']
    assert buffer.feed(b":2}\r\n") == [b'{"b":2}']
    with pytest.raises(ProtocolError):
        buffer.feed(b"x" * (MAX_LINE_BYTES + 1))
    limit = RateLimit(rate=1, burst=5)
    assert all(limit.take() for _ in range(5))
    assert not limit.take()


def test_join_codes_are_words_read_loosely():
    code = new_code()
    assert len(code.split("-")) == 4 and all(word in WORDS for word in code.split("-"))
    assert normal_code("  Moon SAND_fork ") == "moon-sand-fork"
    with pytest.raises(CodeError):
        normal_code(" -- ")
    with pytest.raises(CodeError):
        normal_code("x" * 101)
    assert split_address("192.168.1.5:4410", 4404) == ("192.168.1.5", 4410)
    assert split_address("myhost", 4404) == ("myhost", 4404)
    assert split_address("[::1]:99", 4404) == ("::1", 99)
    with pytest.raises(ValueError):
        split_address("host:70000", 4404)


def test_the_host_listens_only_where_it_says():
    host = GameHost(HostSettings(code=CODE, name="Alice", address="127.0.0.1", port=0))
    where = host.start()
    try:
        assert where[0] == "127.0.0.1"
        elsewhere = [address for address in local_addresses() if not address.startswith("127.")]
        assert elsewhere, "this test needs an address besides the loopback"
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection((elsewhere[0], where[1]), timeout=5)
    finally:
        host.close()
