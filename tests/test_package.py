"""The packaged program (``package [--lite] --out DIR``, game/desktop/package.py): what the
build carries and leaves out, its archive, the frozen program's own ways in (``-m`` for
the kernel's proof, ``install-desktop`` pointing at itself), the lite build's word while
Perfect thinks, and (``package`` mark) the lite program built and run bare.

The lite build and its checks (the demo on the pure-Python solver among them) took 56 s
on the project's 2-core machine when it was quiet: it runs with the rest of the tests
(``-m "not package"`` leaves it out while working); ``python -m lab.package_check --out
DIR`` builds and checks both programs, the full one too (README, docs/packaging.md).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pygame
import pytest

from ai.compiled import solver_kernel
from ai.levels import PRESETS
from game.app.scenes import play_text
from game.app.scenes.play import PlayScene
from game.app.worker_protocol import JobPurpose
from game.desktop import install as desktop
from game.desktop import package
from game.rules import Rules
from tests.ui import step, wait_until

ROOT = Path(__file__).resolve().parent.parent


def test_the_build_carries_every_file_the_program_reads():
    shipped = {str(path.relative_to(ROOT)) for path in package.data_files(ROOT)}
    assert {"ai/data/early_exact.txt", "ai/data/connect5_solved.txt"} <= shipped
    assert {"game/locale/de/LC_MESSAGES/connect4.mo", "game/locale/es/LC_MESSAGES/connect4.mo"} <= shipped
    assert "ai/textbook.py" in shipped  # the code walk shows its source
    kernel_sources = {"ai/compiled/solver_kernel.py", "ai/compiled/search_kernel.py", "ai/compiled/bits.py"}
    assert kernel_sources | {"ai/compiled/kernel_file.py"} <= shipped  # the compiled-code key hashes them
    assert not [name for name in shipped if name.endswith((".po", ".pot"))]
    assert all((ROOT / "assets" / name).is_file() for name in package.ASSET_FILES)
    assert {Path(p.source).name for p in desktop.placements(Path("/x"), ROOT / "assets")} == set(package.ASSET_FILES)


def test_the_lite_build_leaves_the_compiler_out_and_both_leave_tests_out():
    assert {"numba", "llvmlite"} <= set(package.excluded_modules(lite=True))
    assert not {"numba", "llvmlite"} & set(package.excluded_modules(lite=False))
    assert "bitbully_databases" in package.hidden_imports(lite=True)  # imported by name only
    assert "numba._devicearray" in package.hidden_imports(lite=False)  # numba's dispatcher imports it from C
    assert package.left_out_file("llvmlite/binding/libllvmlite.so", lite=True)
    assert not package.left_out_file("llvmlite/binding/libllvmlite.so", lite=False)
    assert package.left_out_file("numpy/_core/tests/data/x.csv", lite=False)
    assert package.left_out_file("numpy/_core/include/numpy/ndarraytypes.h", lite=False)
    assert not package.left_out_file("bitbully_databases/assets/book_12ply_distances.dat", lite=True)
    assert not package.left_out_file("pygame/freesansbold.ttf", lite=True)  # the game's font


def test_the_archive_holds_the_program_folder_at_its_top(tmp_path):
    folder = tmp_path / "connect4"
    (folder / "_internal").mkdir(parents=True)
    (folder / "connect4").write_bytes(b"program")
    (folder / "_internal" / "data.txt").write_text("data")
    name = package.archive_name(lite=True)
    assert name.startswith("connect4-lite-") and package.platform_name() in name
    with_tar, with_zip = tmp_path / "a.tar.gz", tmp_path / "a.zip"
    package.pack(folder, with_tar)
    package.pack(folder, with_zip)
    with tarfile.open(with_tar) as archive:
        assert archive.extractfile("connect4/_internal/data.txt").read() == b"data"  # type: ignore[union-attr]
    with zipfile.ZipFile(with_zip) as archive:
        assert archive.read("connect4/connect4") == b"program"


def test_install_desktop_from_the_packaged_program_runs_the_program(tmp_path):
    program = tmp_path / "opt" / "connect4" / "connect4"
    program.parent.mkdir(parents=True)
    program.write_bytes(b"")
    assert desktop.launch_command(str(program), str(program), frozen=True) == [str(program.resolve())]
    assert desktop.launch_command("main.py", "/venv/bin/python", frozen=False)[1].endswith("main.py")


def test_the_frozen_program_runs_the_kernels_proof_as_python_m_would():
    """``kernel_file.prove`` starts ``sys.executable -m ai.kernel_proof``: in the
    packaged program that is the program itself, and main.py runs the module."""
    assert solver_kernel.LOADER.prepare(), "the compiled solver is ready here"
    path = solver_kernel.LOADER.path
    code = (
        "import sys; sys.frozen = True\n"
        "import main\n"
        f"sys.exit(main.main(['-m', 'ai.kernel_proof', 'solver', {str(path)!r}]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "proven"


def test_perfect_says_why_it_thinks_long_without_the_compiled_solver(app, monkeypatch):
    play = PlayScene(Rules(), PRESETS["Perfect"], "computer", "computer")
    app.stack.push(play)
    step(app, 2)
    assert wait_until(app, lambda: play.jobs.purpose is None, 120)
    play.jobs.purpose = JobPurpose.MOVE  # Perfect thinking on its move
    assert play.thinking
    monkeypatch.setattr(play_text, "no_compiler", lambda: False)
    assert "no compiled solver" not in play.detail()
    monkeypatch.setattr(play_text, "no_compiler", lambda: True)
    assert "no compiled solver" in play.detail() and "lite build" in play.detail()
    play.jobs.purpose = None
    assert "no compiled solver" not in play.detail()
    pygame.event.clear()


@pytest.mark.slow
@pytest.mark.package
def test_the_lite_program_builds_and_runs_bare(tmp_path):
    from lab.package_check import ARCHIVE_LIMITS, check_program, make_writable

    built = package.build(tmp_path / "dist", lite=True)
    assert built.archive.name == package.archive_name(lite=True)
    assert built.archive_bytes <= ARCHIVE_LIMITS[True], f"{built.archive_bytes / 1e6:.1f} MB"
    checks = check_program(built.folder, lite=True, work=tmp_path / "work")
    failed = [f"{c.name}: {c.seen}" for c in checks if not c.ok]
    make_writable(built.folder)  # so that pytest can remove it
    assert not failed, failed
    assert os.access(package.executable(built.folder), os.X_OK)
