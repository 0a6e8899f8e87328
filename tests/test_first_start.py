"""The first start (main.py on a machine without the game's packages): it says what it
installs and how big it is, passes pip's progress on with a line whenever pip is quiet,
makes the fast solver and search ready, then runs the command in the new ``.venv``; the
next start goes straight in."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from ai.compiled.kernel_file import cache_folder

ROOT = Path(__file__).resolve().parent.parent


def main_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("connect4_main_under_test", ROOT / "main.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_plan_names_every_requirement_with_its_size():
    main = main_module()
    names = main._requirement_names()
    assert names == ["pygame-ce", "numpy", "bitbully-databases", "numba", "llvmlite", "zeroconf"]
    assert set(names) <= set(main.PACKAGES), "give a new requirement its purpose and sizes in main.PACKAGES"
    plan = main.install_plan(names)
    for name in ("pygame-ce", "numpy", "bitbully-databases", "numba, llvmlite", "zeroconf"):
        assert name in plan
    assert plan.count("llvmlite") == 1  # issue 52: it had a line of its own too, under numba's
    download = sum(main.PACKAGES[name][1] for name in names)
    disk = sum(main.PACKAGES[name][2] for name in names)
    assert f"about {download} MB to download and {disk} MB on disk" in plan


@pytest.mark.slow  # a process or seconds of solving: out of the quick lane, in the full run
def test_a_quiet_command_gets_a_line_every_few_seconds(capfd):
    main = main_module()
    child = "import sys, time; print('collecting', flush=True); time.sleep(1.6); print('installed'); sys.exit(3)"
    code = main.run_showing_progress([sys.executable, "-c", child], started=0.0, heartbeat=0.5)
    said = capfd.readouterr()
    assert code == 3
    assert said.out == "", "set-up talks on stderr: a command's own output stays clean"
    lines = said.err.splitlines()
    assert lines[0] == "collecting" and lines[-1] == "installed"
    assert any("still working" in line for line in lines[1:-1]), said.err


@pytest.mark.slow
def test_a_fresh_copy_sets_itself_up_and_then_goes_straight_in(tmp_path):
    """A copy of the tracked files, started by a Python that has none of the game's
    packages: it makes .venv, installs requirements.txt (pip's cache makes it quick) and
    answers; the second start installs nothing."""
    copy = tmp_path / "clone"
    tracked = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    for name in tracked:
        source = ROOT / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            (copy / name).write_bytes(source.read_bytes())
    outer = tmp_path / "python"
    subprocess.run([sys.executable, "-m", "venv", str(outer)], check=True, capture_output=True)
    python = outer / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "CONNECT4_NO_SETUP")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    kernels = tmp_path / "cache" / "connect4" / "solver"  # this machine's kernels: the set-up loads, not builds them
    kernels.mkdir(parents=True)
    for built in cache_folder().glob("*.kernel"):
        shutil.copyfile(built, kernels / built.name)

    def start() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(python), "main.py", "analyze", "4453", "--level", "perfect"],
            cwd=copy,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )

    first = start()
    assert first.returncode == 0, first.stderr[-3000:]
    assert "First start: setting the game up" in first.stderr
    assert "numba, llvmlite" in first.stderr and "MB on disk" in first.stderr
    assert "Successfully installed" in first.stderr or "Requirement already satisfied" in first.stderr
    assert "Installed in" in first.stderr
    # The set-up makes the fast solver and search ready before the first command, which
    # then loads them (the build itself: tests/test_kernel_cache.py).
    assert "Compiling the fast solver, search and playouts" in first.stderr and "Compiled in" in first.stderr
    assert all(f"fast {noun} ready" in first.stderr for noun in ("solver", "search", "playouts"))
    assert "Level perfect plays: 3" in first.stdout and "First start" not in first.stdout
    assert (copy / ".venv" / ".connect4-requirements").is_file()
    second = start()
    assert second.returncode == 0, second.stderr[-3000:]
    assert "First start" not in second.stderr and "pip" not in second.stderr
    untimed = [line for line in first.stdout.splitlines() if "nodes/s" not in line]
    assert [line for line in second.stdout.splitlines() if "nodes/s" not in line] == untimed
