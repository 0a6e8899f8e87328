"""Hosts announced and found on the local network (mDNS / DNS-SD, with python-zeroconf).

The one module that imports ``zeroconf``, and only inside its functions: no other command
pays for it, and where it is missing (or multicast is blocked) ``announce`` and ``browse``
say why in ``note`` and the game goes on: typing an address always works.

A host registers ``<name>._connect4._tcp.local.`` with its port, addresses and a few
plain properties (the protocol version, the rules in words, the host's name); the code is
never announced.  ``browse`` listens for a few seconds and lists what answered.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from game.net.protocol import MAX_NAME_CHARS, PROTOCOL_VERSION, clean_text

log = logging.getLogger(__name__)

SERVICE = "_connect4._tcp.local."
BROWSE_SECONDS = 3.0
MAX_RULES_CHARS = 100


@dataclass(frozen=True)
class FoundGame:
    """A host that answered: its name, the rules in words, where to join it."""

    name: str
    rules: str
    address: str
    port: int

    @property
    def target(self) -> str:
        return f"{self.address}:{self.port}"


def _service_name(name: str) -> str:
    clean = "".join(char if char.isalnum() or char in " -" else "-" for char in name)[:40].strip() or "game"
    return f"{clean} ({socket.gethostname()[:20]}).{SERVICE}"


def found_game(properties: dict[str, str], service: str, address: str, port: int) -> FoundGame:
    """A game as an announcement describes it, its words filtered as a typed name is
    (``clean_text``: one printable line, NUL and escape codes gone, at most 40 and 100
    characters): anyone on the network may announce anything."""
    name = clean_text(properties.get("host") or service.removesuffix("." + SERVICE), MAX_NAME_CHARS)
    return FoundGame(name or "?", clean_text(properties.get("rules", ""), MAX_RULES_CHARS), address, port)


class Announcement:
    """A host's announcement, made in a thread (registering waits about a second while it
    probes the name); ``close`` withdraws it.  ``note`` says why there is none."""

    def __init__(
        self, name: str, port: int, addresses: Sequence[str], rules: str, *, interfaces: Sequence[str] | None = None
    ):
        self.name, self.port, self.addresses, self.rules = name, port, list(addresses), rules
        self.interfaces = list(interfaces) if interfaces is not None else None
        self.note: str | None = None
        self.ready = threading.Event()
        self._zeroconf: Any = None
        self._info: Any = None
        self._lock = threading.Lock()
        self._closed = False
        self.thread = threading.Thread(target=self._register, name="net-announce", daemon=True)

    def start(self) -> Announcement:
        self.thread.start()
        return self

    def _register(self) -> None:
        try:
            import zeroconf  # only here: no other module or command loads it

            info = zeroconf.ServiceInfo(
                SERVICE,
                _service_name(self.name),
                addresses=[socket.inet_aton(address) for address in self.addresses],
                port=self.port,
                properties={
                    "v": str(PROTOCOL_VERSION),
                    "rules": self.rules[:MAX_RULES_CHARS],
                    "host": self.name[:MAX_NAME_CHARS],
                },
            )
            chosen = self.interfaces if self.interfaces is not None else zeroconf.InterfaceChoice.All
            instance = zeroconf.Zeroconf(interfaces=chosen)
            with self._lock:
                if self._closed:
                    instance.close()
                    return
                self._zeroconf, self._info = instance, info
            instance.register_service(info, allow_name_change=True)
        except ImportError:
            self.note = "python-zeroconf is not installed: joiners type the address"
        except Exception as error:  # noqa: BLE001 - any failure of multicast leaves typing the address
            self.note = f"the game could not be announced on the local network ({error})"
            log.info("%s", self.note)
        finally:
            self.ready.set()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            instance, info = self._zeroconf, self._info
            self._zeroconf = None
        if self.thread.is_alive():
            self.thread.join(timeout=5)
        if instance is not None:
            try:
                if info is not None:
                    instance.unregister_service(info)
            except Exception:  # noqa: BLE001 - withdrawing is best effort
                pass
            instance.close()


def browse(
    seconds: float = BROWSE_SECONDS, *, interfaces: Sequence[str] | None = None, stop: threading.Event | None = None
) -> tuple[list[FoundGame], str | None]:
    """The games announced on the local network within ``seconds``, and a note when none
    can be looked for (no zeroconf, no multicast)."""
    try:
        import zeroconf  # only here: no other module or command loads it
    except ImportError:
        return [], "python-zeroconf is not installed: type the host's address"
    names: list[str] = []

    def on_change(zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        if name not in names:
            names.append(name)

    try:
        chosen = list(interfaces) if interfaces is not None else zeroconf.InterfaceChoice.All
        instance = zeroconf.Zeroconf(interfaces=chosen)
    except Exception as error:  # noqa: BLE001 - no multicast: typing the address still works
        return [], f"the local network cannot be searched ({error})"
    found: list[FoundGame] = []
    try:
        browser = zeroconf.ServiceBrowser(instance, SERVICE, handlers=[on_change])
        end = time.monotonic() + seconds
        while time.monotonic() < end and not (stop is not None and stop.is_set()):
            time.sleep(0.1)
        browser.cancel()
        for name in list(names):
            if stop is not None and stop.is_set():
                break
            info = instance.get_service_info(SERVICE, name, timeout=1500)
            if info is None or info.port is None:
                continue
            properties = {
                (key or b"").decode("utf-8", "replace"): (value or b"").decode("utf-8", "replace")
                for key, value in info.properties.items()
            }
            if properties.get("v") != str(PROTOCOL_VERSION):
                continue
            for address in info.parsed_addresses():
                if ":" not in address:
                    found.append(found_game(properties, name, address, int(info.port)))
                    break
    except Exception as error:  # noqa: BLE001 - a failed search is said, never a crash
        return found, f"the search of the local network failed ({error})"
    finally:
        instance.close()
    return found, None
