"""What other rooms see of the play screen: the jobs it runs (``scenes.play_jobs``), its
view and the archive's link (``archive_link``) each read the same scene through this
Protocol, so none of them imports the play scene, and the archive link (below the scenes)
imports nothing of ``scenes/``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from ai.levels import Level
from game.app.animation import DiscDrop
from game.app.scene import SceneHost
from game.app.search_records import SearchRecords
from game.app.settings import Opponent
from game.app.worker_protocol import WorkerEvent
from game.board import Outcome
from game.match import Match
from game.rules import Rules


class JobsGame(Protocol):
    """What the jobs read of the play screen they work for, and do to it (play the move)."""

    @property
    def app(self) -> SceneHost: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def match(self) -> Match: ...

    @property
    def levels(self) -> Mapping[int, Level]: ...

    @property
    def opponent(self) -> Opponent: ...

    @property
    def outcome(self) -> Outcome | None: ...

    @property
    def drop(self) -> DiscDrop | None: ...

    @property
    def records(self) -> SearchRecords: ...

    def is_computer(self, side: int) -> bool: ...

    def play_move(self, move: int) -> None: ...

    def on_worker_event(self, event: WorkerEvent) -> None: ...
