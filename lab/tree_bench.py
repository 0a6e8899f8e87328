"""Frame times of the tree overlay on a 1,000,000-node tree: open, replay End/Home,
jumps, playing at full speed, zoom and pan; and the process's memory before and after.

Run ``python -m lab.tree_bench`` (about a minute: the search that records the tree
takes most of it).  Every frame should stay under 50 ms, and memory should not grow
with the replay's steps.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from ai.levels import Level  # noqa: E402
from ai.search import search  # noqa: E402
from game.app.loop import App  # noqa: E402
from game.app.scenes.play import PlayScene  # noqa: E402
from game.app.search_records import SearchRecord  # noqa: E402
from game.app.tree.scene import TreeScene  # noqa: E402
from game.app.worker_protocol import JobPurpose  # noqa: E402
from game.rules import MAX, Rules  # noqa: E402

FRAME = 1 / 60
NODES = 1_000_000


def rss_mb() -> float:
    """The process's resident memory now, in MB (Linux; 0 elsewhere)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def key(code: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)


def main(size: tuple[int, int] = (1280, 800)) -> None:
    started = time.perf_counter()
    result = search(
        np.zeros((6, 7), dtype=np.int8), Rules(), 8, pruning=False, record_tree=True, tree_budget=NODES, to_move=MAX
    )
    assert result.tree is not None
    print(
        f"Tree: {len(result.tree):,} nodes stored ({result.tree.counted:,} searched), depth 8 without pruning, "
        f"recorded in {time.perf_counter() - started:.1f} s, {result.tree.nbytes() / 1e6:.0f} MB of records"
    )
    app = App(size, home=Path(tempfile.mkdtemp(prefix="connect4-tree-bench-")), use_process=False)
    play = PlayScene(Rules(), Level(8, pruning=False), "computer")
    play.searches.append(SearchRecord(0, MAX, JobPurpose.MOVE, result))
    app.stack.push(play)
    app.step([], FRAME)
    memory_before = rss_mb()
    rows: list[tuple[str, list[float], list[float]]] = []

    def frames(name: str, actions: list[Callable[[], list[pygame.event.Event]]]) -> None:
        """Wall time per frame, and the process's CPU time (the machine may be shared)."""
        times, cpu = [], []
        for action in actions:
            begun, begun_cpu = time.perf_counter(), time.process_time()
            app.step(action(), FRAME)
            times.append((time.perf_counter() - begun) * 1000)
            cpu.append((time.process_time() - begun_cpu) * 1000)
        rows.append((name, times, cpu))

    def open_overlay() -> list[pygame.event.Event]:
        app.stack.push(TreeScene(play))
        return []

    frames("open the overlay", [open_overlay])
    scene = app.stack.top
    assert isinstance(scene, TreeScene)
    frames("replay: End", [lambda: [key(pygame.K_END)]])
    frames("replay: Home", [lambda: [key(pygame.K_HOME)]])
    frames("replay: End again", [lambda: [key(pygame.K_END)]])
    rng = random.Random(11)
    replay = scene.ensure_replay()

    def jump() -> list[pygame.event.Event]:
        replay.seek(rng.randrange(replay.total_steps + 1))
        scene.follow_replay()
        return []

    frames("replay: 50 jumps to random steps", [jump] * 50)
    frames("the next frame: perfect-play try", [lambda: []] * 2)
    frames("replay: 50 single steps", [lambda: [key(pygame.K_PERIOD)]] * 50)
    frames("the next frame: perfect-play try", [lambda: []] * 2)
    frames("replay: Home, then play", [lambda: [key(pygame.K_HOME), key(pygame.K_SPACE)]])
    scene.speed_index = 7  # 3000 steps a second
    frames("replay: playing at 3000 steps/s", [lambda: []] * 120)

    def zoom_in() -> list[pygame.event.Event]:
        scene.zoom(1.08, (400, 300))
        return []

    frames("zoom in x1.08, 40 times", [zoom_in] * 40)
    frames("leave replay, Fit", [lambda: [key(pygame.K_x), key(pygame.K_f)]])
    memory_after = rss_mb()
    app.close()
    print(f"{'action':36} {'frames':>6} {'median ms':>10} {'max ms':>8} {'max CPU ms':>11}")
    for name, times, cpu in rows:
        print(f"{name:36} {len(times):>6} {statistics.median(times):>10.1f} {max(times):>8.1f} {max(cpu):>11.1f}")
    worst = max(max(times) for _, times, _ in rows)
    print(f"Slowest frame: {worst:.1f} ms (limit 50 ms)")
    print(f"Memory (RSS) with the tree loaded: {memory_before:.0f} MB before the overlay, {memory_after:.0f} MB after")


if __name__ == "__main__":
    main()
