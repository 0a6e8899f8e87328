"""The host's door and the joiner against hostile peers (issue 47), on real sockets on
127.0.0.1: connections that dribble a byte at a time never join and cannot keep a player
out; a joiner turned away hears why; wrong codes from one address are slowed down and the
host is told once; a line nested a thousand deep is a protocol error on both ends; a FIFO
as the seats file leaves ``join`` working.  docs/network-play.md ("Hostile peers") quotes
what these hold."""

from __future__ import annotations

import json
import logging
import os
import queue
import socket
import stat
import threading
import time
from collections.abc import Iterator

import pytest

from game.net.client import Client
from game.net.events import JoinFailed, Moved, Welcome, WrongCodesFrom
from game.net.host import MAX_CONNECTIONS, GameHost, HostSettings
from game.net.protocol import (
    FREE_WRONG_CODES,
    HANDSHAKE_SECONDS,
    MAX_LINE_BYTES,
    Seal,
    connection_key,
    game_key,
)
from game.rules import MIN
from tests.network_peers import FakeHost, RawPeer
from tests.test_network_host import wait_for

CODE = "lamp-reef-oak"


@pytest.fixture
def host() -> Iterator[GameHost]:
    """A host on 127.0.0.1 waiting for its second player."""
    started = GameHost(HostSettings(code=CODE, name="Alice", address="127.0.0.1", port=0))
    started.start()
    yield started
    started.close()


@pytest.fixture
def thread_errors(monkeypatch) -> list[str]:
    """Exceptions that end a thread (a traceback on the host's terminal)."""
    seen: list[str] = []
    monkeypatch.setattr(
        threading, "excepthook", lambda info: seen.append(f"{info.exc_type.__name__}: {info.exc_value}")
    )
    return seen


class Dribblers:
    """``count`` connections that each send one byte every 0.05 s and never join; with
    ``again``, each opens a new connection as soon as the host closes its last."""

    def __init__(self, where: tuple[str, int], count: int, *, again: bool):
        self.where, self.again = where, again
        self.stop = threading.Event()
        self.lifetimes: list[float] = []
        self.opened = 0
        self.threads = [threading.Thread(target=self._dribble, daemon=True) for _ in range(count)]
        for thread in self.threads:
            thread.start()

    def _dribble(self) -> None:
        first = True
        while not self.stop.is_set() and (first or self.again):
            first = False
            try:
                sock = socket.create_connection(self.where, timeout=5)
            except OSError:
                time.sleep(0.05)
                continue
            self.opened += 1
            opened = time.monotonic()
            try:
                while not self.stop.is_set():
                    sock.sendall(b" ")
                    time.sleep(0.05)
            except OSError:
                if not self.stop.is_set():
                    self.lifetimes.append(time.monotonic() - opened)
            finally:
                sock.close()

    def close(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=5)


@pytest.mark.slow
@pytest.mark.parametrize("again", [False, True], ids=["sixteen held", "sixteen reopened at once"])
def test_sixteen_dribbling_connections_cannot_keep_the_real_joiner_out(host, again):
    """Each of sixteen connections sends a byte every 0.05 s and never joins: before, the
    join deadline was checked only when a read went quiet, so they stayed open and every
    new connection (the real opponent's) was closed at once.  Now the real joiner is seated
    within 15 s of the attack starting (in about a second), and no dribbling connection
    outlives the join deadline."""
    started = time.monotonic()
    attack = Dribblers(host.where, MAX_CONNECTIONS, again=again)
    try:
        time.sleep(1.0)  # the attack holds the door
        bob = Client(*host.where, CODE, "Bob")
        bob.start()
        try:
            seated = wait_for(bob.events, Welcome, timeout=15 - (time.monotonic() - started))
            assert seated.side == MIN and time.monotonic() - started < 15
            time.sleep(max(0.0, HANDSHAKE_SECONDS + 1.5 - (time.monotonic() - started)))
            closed = len(attack.lifetimes)
            host.play(3)  # the game goes on beside the attack
            assert wait_for(bob.events, Moved).move == 3
        finally:
            bob.close()
    finally:
        attack.close()
    if not again:  # every one of the sixteen closed by its deadline
        assert closed == MAX_CONNECTIONS, f"{closed} of {MAX_CONNECTIONS} closed"
    assert attack.lifetimes and max(attack.lifetimes) < HANDSHAKE_SECONDS + 1.0, attack.lifetimes[-5:]


def test_a_joiner_turned_away_because_the_host_is_full_hears_why(host):
    """Sixteen connections that have all joined (Bob and fifteen watchers): a seventeenth
    hears ``busy`` and the joiner says so, where before the host closed it without a word."""
    bob = Client(*host.where, CODE, "Bob")
    bob.start()
    wait_for(bob.events, Welcome)
    watchers = []
    first = RawPeer(host.where)
    key = game_key(CODE, bytes.fromhex(first.hello["salt"]))
    first.close()
    try:
        for number in range(MAX_CONNECTIONS - 1):
            peer = RawPeer(host.where)
            peer.seal = Seal(connection_key(key, bytes.fromhex(peer.hello["nonce"]), peer.nonce), host=False)
            join = {"t": "join", "v": 1, "name": f"w{number}", "watch": True, "seat": ""}
            peer.send_raw(peer.seal.seal(join, nonce=peer.nonce.hex()))
            assert peer.receive()["t"] == "welcome"
            watchers.append(peer)
        sock = socket.create_connection(host.where, timeout=5)
        sock.settimeout(5)
        assert json.loads(sock.recv(4096)) == {"t": "refused", "why": "busy"}
        assert sock.recv(4096) == b""
        sock.close()
        carol = Client(*host.where, CODE, "Carol", watch=True)
        carol.start()
        assert "as many connections as it takes" in wait_for(carol.events, JoinFailed).reason
        host.play(3)
        assert wait_for(bob.events, Moved).move == 3  # the game goes on
    finally:
        for peer in watchers:
            peer.close()
        bob.close()


def wrong_join(where: tuple[str, int]) -> dict:
    """Join with a wrong code; the host's first answer."""
    peer = RawPeer(where)
    if peer.hello.get("t") == "refused":
        return peer.hello
    key = game_key("lamp-reef-pine", bytes.fromhex(peer.hello["salt"]))
    seal = Seal(connection_key(key, bytes.fromhex(peer.hello["nonce"]), peer.nonce), host=False)
    peer.send_raw(seal.seal({"t": "join", "v": 1, "name": "Eve", "watch": False, "seat": ""}, nonce=peer.nonce.hex()))
    answer = peer.read()
    peer.close()
    return answer


def test_wrong_codes_from_one_address_wait_longer_each_time_and_the_host_is_told_once(host):
    for _ in range(FREE_WRONG_CODES):
        assert wrong_join(host.where) == {"t": "refused", "why": "code"}
    assert wrong_join(host.where) == {"t": "refused", "why": "code"}  # one more: from now on it waits
    told = wait_for(host.events, WrongCodesFrom)
    assert told == WrongCodesFrom("127.0.0.1", FREE_WRONG_CODES + 1)
    assert wrong_join(host.where) == {"t": "refused", "why": "wait", "seconds": 1}  # before the code is asked
    eve = Client(*host.where, "lamp reef pine", "Eve")
    eve.start()
    said = wait_for(eve.events, JoinFailed).reason
    assert "too many wrong join codes from this computer" in said and "next try in 1 s" in said
    time.sleep(1.1)
    assert wrong_join(host.where) == {"t": "refused", "why": "code"}  # heard again, then 2 s
    assert wrong_join(host.where) == {"t": "refused", "why": "wait", "seconds": 2}
    time.sleep(2.1)
    bob = Client(*host.where, CODE, "Bob")  # the right code after the wait: seated
    bob.start()
    try:
        assert wait_for(bob.events, Welcome).side == MIN
    finally:
        bob.close()
    assert not [event for event in drain(host.events) if isinstance(event, WrongCodesFrom)]  # told once


def drain(events: queue.Queue) -> list:
    found = []
    while True:
        try:
            found.append(events.get_nowait())
        except queue.Empty:
            return found


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_a_line_nested_a_thousand_deep_closes_that_connection_with_one_log_line(host, thread_errors, caplog):
    """Before, re-encoding such a join for its mac raised RecursionError in the reader
    thread (a traceback on the host's terminal); every depth up to what a line can hold
    is now a protocol error."""
    caplog.set_level(logging.INFO, logger="game.net.host")
    for depth in range(900, MAX_LINE_BYTES // 2 - 40, 3):
        peer = RawPeer(host.where)
        line = f'{{"nonce":"{"0" * 32}","s":0,"h":"00","m":{{"t":"join","x":{nested(depth)}}}}}\n'
        peer.send_raw(line.encode())
        assert peer.is_closed_by_host(), depth
        peer.close()
    time.sleep(0.2)
    assert thread_errors == []
    assert any("nested more than" in record.getMessage() for record in caplog.records)
    bob = Client(*host.where, CODE, "Bob")
    bob.start()
    try:
        assert wait_for(bob.events, Welcome).side == MIN  # the door still works
    finally:
        bob.close()


def test_a_fake_hosts_deeply_nested_first_answer_is_no_proof_of_the_code(thread_errors):
    """Before, the joiner's thread died of RecursionError and ``join`` said "Joining ..."
    for ever; now every depth is refused: the host did not prove it knows the code."""
    depth = 0

    def answer(seal: Seal, join: dict) -> list[bytes]:
        return [f'{{"s":0,"h":"{"0" * 64}","m":{{"t":"welcome","x":{nested(depth)}}}}}\n'.encode()]

    fake = FakeHost(CODE, answer)
    try:
        key = fake.key
        for depth in range(960, 1000):
            joiner = Client(*fake.where, CODE, "Bob")
            joiner._keys[fake.salt] = key  # the key once for all the tries (0.2 s each)
            joiner.start()
            failed = wait_for(joiner.events, JoinFailed, timeout=10)
            assert failed.reason == "the host did not prove it knows the code", (depth, failed)
            joiner.close()
    finally:
        fake.close()
    assert thread_errors == []


def test_a_fifo_as_the_seats_file_leaves_join_working_and_the_fifo_as_it_is(host, tmp_path, caplog):
    """Before, reading ``network-seats.json`` waited for a writer of the FIFO for ever: the
    joiner sat at "Joining ..." without a word."""
    seats = tmp_path / "network-seats.json"
    os.mkfifo(seats)
    bob = Client(*host.where, CODE, "Bob", home=tmp_path)
    bob.start()
    try:
        assert wait_for(bob.events, Welcome, timeout=10).side == MIN
    finally:
        bob.close()
    assert stat.S_ISFIFO(seats.lstat().st_mode)
    said = [record.getMessage() for record in caplog.records if "network-seats.json" in record.getMessage()]
    assert said and all("FIFO" in line for line in said) and len(said) == len(set(said))
