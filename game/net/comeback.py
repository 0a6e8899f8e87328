"""How to go on with an unfinished network game: kept beside the game in the archive.

A network game left unfinished (a drop, a player who left, a host that stopped) is kept
in the player's archive as the window's unfinished network game (``game.net.keeping``);
with it goes a ``Comeback``: who this player was in it and how to reach it again.  A host
hosts the same game again (the same game id, code and port, the moves so far, the guest's
name and seat token) and waits for the guest; a joiner joins the host again with the
same code, and the seat token kept under the game's id (``game.net.client.SeatBook``)
gives back the same chair.  A game kept without one (an older version's, one with
damaged settings) can only go on as a game at one screen, and the window asks first.

The join code is kept in the archive in the player's preference folder, as the seat
tokens are kept beside it: whoever can read that folder can join the game.  No pygame.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any

from game.net.client import Client, JoinSettings, clean_name
from game.net.host import GameHost, HostedBefore, HostSettings
from game.net.protocol import clean_text
from game.net.words import CodeError, normal_code
from game.records import InProgress
from game.rules import MAX, MIN

MAX_ADDRESS_CHARS = 100
GAME_ID = re.compile(r"[0-9a-f]{16}")
TOKEN = re.compile(r"[0-9a-f]{0,64}")


class Role(str, enum.Enum):
    """This player's part in the game: its host, or the guest who joined it."""

    HOST = "host"
    GUEST = "guest"


@dataclass(frozen=True)
class Comeback:
    """Who this player was in a network game and how to reach it again.

    ``address`` and ``port``: where the host listened (a host) or where it was joined
    (a guest); ``guest_token``: the host's record of the guest's seat token."""

    role: Role
    code: str
    address: str
    port: int
    name: str
    game_id: str
    host_first: bool = True
    guest_token: str = ""

    def to_settings(self) -> dict[str, Any]:
        """The comeback as the archive keeps it (under ``"network"`` in the row's settings)."""
        return {
            "role": self.role.value,
            "code": self.code,
            "address": self.address,
            "port": self.port,
            "name": self.name,
            "game": self.game_id,
            "host_first": self.host_first,
            "guest_token": self.guest_token,
        }

    @classmethod
    def of_unfinished(cls, kept: InProgress) -> Comeback | None:
        """The comeback kept with ``kept`` (None: there is none, or it does not read)."""
        value = kept.settings.get("network")
        if not isinstance(value, dict):
            return None
        try:
            role = Role(value.get("role"))
            code = normal_code(str(value.get("code", "")))
            address = clean_text(str(value.get("address", "")), MAX_ADDRESS_CHARS)
            port = value.get("port")
            name = clean_name(str(value.get("name", "")))
            game_id = str(value.get("game", ""))
            host_first = value.get("host_first", True)
            token = str(value.get("guest_token", ""))
        except (ValueError, CodeError):
            return None
        if (
            type(port) is not int
            or not 0 < port <= 65535
            or not address
            or not name
            or not GAME_ID.fullmatch(game_id)
            or not TOKEN.fullmatch(token)
            or not isinstance(host_first, bool)
        ):
            return None
        return cls(role, code, address, port, name, game_id, host_first, token)

    @classmethod
    def of_host(cls, host: GameHost) -> Comeback:
        """How ``host``'s player hosts its game again: the same code, port and game id,
        and the guest's seat token."""
        settings = host.settings
        return cls(
            Role.HOST,
            settings.code,
            settings.address,
            host.where[1],
            settings.name,
            host.game_id,
            settings.host_first,
            host.guest_token,
        )

    @classmethod
    def of_guest(cls, joining: JoinSettings, client: Client, side: int) -> Comeback | None:
        """How a guest seated on ``side`` joins its host again (None: a watcher, or no
        game id heard yet)."""
        if not side or not client.game_id or joining.watch:
            return None
        return cls(
            Role.GUEST,
            joining.code,
            joining.address,
            joining.port,
            joining.name,
            client.game_id,
            host_first=side == MIN,
        )

    def host_settings(self, kept: InProgress) -> HostSettings:
        """The host's settings to host ``kept`` again, waiting for its guest."""
        guest = kept.second if self.host_first else kept.first
        return HostSettings(
            code=self.code,
            name=self.name,
            rules=kept.rules,
            host_first=self.host_first,
            address=self.address,
            port=self.port,
            again=HostedBefore(self.game_id, kept.moves, guest, self.guest_token),
        )

    def join_settings(self) -> JoinSettings:
        """The guest's settings to join the host again."""
        return JoinSettings(self.address, self.port, self.code, self.name)

    def other_name(self, kept: InProgress) -> str:
        """The other player's name, as the game kept it."""
        mine = MAX if (self.role is Role.HOST) == self.host_first else MIN
        return kept.second if mine == MAX else kept.first
