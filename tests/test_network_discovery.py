"""Discovery on the local network with python-zeroconf: a host announced is found, here on
this machine (multicast works on its loopback and its one interface; where it does not,
these tests fail rather than skip: docs/network-play.md says what they cover).  Without
zeroconf, nothing is announced or found and the game says so; no other command loads it."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import pygame
import pytest
import zeroconf

from game.app.navigation import OpenJoinForm
from game.app.scenes.network_form import JoinFormScene
from game.app.scenes.network_table import NetworkTableScene
from game.net.discovery import SERVICE, Announcement, browse
from game.net.host import GameHost, HostSettings
from game.net.protocol import MAX_NAME_CHARS
from tests.network_peers import ROOT, Terminal
from tests.ui import FRAME, click, step, wait_until

pytestmark = pytest.mark.slow  # seconds of listening for announcements


def test_an_announced_game_is_found_on_the_loopback_and_withdrawn():
    announcement = Announcement("Alice", 4405, ["127.0.0.1"], "6x7, connect 4", interfaces=["127.0.0.1"]).start()
    try:
        assert announcement.ready.wait(15) and announcement.note is None
        found, note = browse(3, interfaces=["127.0.0.1"])
        assert note is None
        ours = [(g.name, g.rules, g.target) for g in found if g.target.endswith(":4405")]  # other tests host too
        assert ours == [("Alice", "6x7, connect 4", "127.0.0.1:4405")]
    finally:
        announcement.close()
    found, note = browse(2, interfaces=["127.0.0.1"])
    assert not [g for g in found if g.target.endswith(":4405")] and note is None


def test_the_announcement_holds_no_code():
    announcement = Announcement("Alice", 4406, ["127.0.0.1"], "6x7, connect 4", interfaces=["127.0.0.1"]).start()
    try:
        assert announcement.ready.wait(15)
        instance = zeroconf.Zeroconf(interfaces=["127.0.0.1"])
        try:
            names = []
            browser = zeroconf.ServiceBrowser(instance, SERVICE, handlers=[lambda name, **_: names.append(name)])
            seen: list = []

            def ours() -> bool:  # other tests host games too: this test's is the one on port 4406
                infos = [instance.get_service_info(SERVICE, name, timeout=1000) for name in dict.fromkeys(names)]
                seen[:] = [i for i in infos if i is not None and i.port == 4406]
                return bool(seen)

            assert wait_for(ours, 10)
            browser.cancel()
            info = seen[0]
            assert set(info.properties) == {b"v", b"rules", b"host"}
        finally:
            instance.close()
    finally:
        announcement.close()


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)
    return bool(condition())


def test_without_zeroconf_nothing_is_announced_or_found_and_the_game_goes_on(monkeypatch):
    monkeypatch.setitem(sys.modules, "zeroconf", None)  # "import zeroconf" now fails
    found, note = browse(0.1)
    assert found == [] and "not installed" in note
    announcement = Announcement("Alice", 4407, ["127.0.0.1"], "6x7").start()
    assert announcement.ready.wait(5) and "not installed" in announcement.note
    announcement.close()


def test_no_other_command_or_the_window_loads_zeroconf():
    code = (
        "import sys\n"
        "import game.launcher, game.cli.main, game.cli.network, game.app.loop, game.app.router\n"
        "print('zeroconf' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-1] == "False"


def test_the_join_form_lists_a_game_announced_on_the_network(app):
    host = GameHost(HostSettings(code="oak-reef", name="Alice", address="127.0.0.1", port=0))
    where = host.start()
    announcement = Announcement("Alice", where[1], ["127.0.0.1"], "6x7, connect 4").start()
    try:
        assert announcement.ready.wait(15) and announcement.note is None
        app.push(OpenJoinForm())
        step(app, 2)
        form = app.stack.top
        assert isinstance(form, JoinFormScene)
        assert wait_until(app, lambda: not form.searching, 30)
        targets = [game.target for game in form.found]  # other tests may host games too
        assert f"127.0.0.1:{where[1]}" in targets
        rect = form.found_rects(pygame.display.get_surface().get_size())[targets.index(f"127.0.0.1:{where[1]}")]
        click(app, rect.center)
        assert form.fields["address"] == f"127.0.0.1:{where[1]}" and form.focus == "code"
        for char in "oak reef":
            app.step([pygame.event.Event(pygame.KEYDOWN, key=0, mod=0, unicode=char, scancode=0)], FRAME)
        app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)], FRAME)
        step(app)
        table = app.stack.top
        assert isinstance(table, NetworkTableScene)
        assert wait_until(app, lambda: table.game.table is not None and len(table.game.table.names) == 2, 20)
    finally:
        announcement.close()
        host.close()


def test_the_terminal_host_announces_its_game(tmp_path):
    host = Terminal("host", "--port", "0", "--code", "oak reef", "--name", "Dora", "--home", str(tmp_path))
    try:
        port = host.address().rsplit(":", 1)[1]
        found: list = []
        assert wait_for(lambda: found.extend(browse(2)[0]) or any(g.name == "Dora" for g in found), 20)
        (dora,) = [g for g in found if g.name == "Dora"][:1]
        assert str(dora.port) == port and dora.rules == "6x7, connect 4"
    finally:
        host.send("q")
        host.wait()
        host.close()


def test_announced_names_and_rules_are_filtered_as_typed_names_are():
    """Issue 47: anyone on the network may announce a game; its name and rules were listed
    as they came (a NUL, terminal escape codes, line breaks)."""
    hostile = zeroconf.ServiceInfo(
        SERVICE,
        f"evil ({socket.gethostname()[:20]}).{SERVICE}",  # zeroconf refuses control characters here
        addresses=[socket.inet_aton("127.0.0.1")],
        port=4408,
        properties={"v": "1", "rules": "6x7\x1b[31m red\nsecond line", "host": "Ev\x00e\x1b]0;owned\x07" + "e" * 60},
    )
    instance = zeroconf.Zeroconf(interfaces=["127.0.0.1"])
    try:
        instance.register_service(hostile, allow_name_change=True)
        found, note = browse(3, interfaces=["127.0.0.1"])
        assert note is None
        ours = [g for g in found if g.target.endswith(":4408")]  # other tests host too
        assert len(ours) == 1
        name, rules = ours[0].name, ours[0].rules
        assert name.isprintable() and rules.isprintable() and len(name) <= MAX_NAME_CHARS
        assert name.startswith("Ev e ]0;owned") and rules == "6x7 [31m red second line"
    finally:
        instance.unregister_all_services()
        instance.close()
