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
import shutil
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


# -- issue 47 item 2: only what it wrote is replaced ------------------------------------------------


def fake_builder(calls: list[Path]):
    """PyInstaller's stand-in (a real build takes minutes): it replaces ``out/connect4``
    whole, as PyInstaller's ``--noconfirm`` does, with a program and one data file."""

    def make(out: Path, lite: bool, root: Path, say) -> None:
        calls.append(out)
        folder = out / package.PROGRAM
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "_internal").mkdir(parents=True)
        package.executable(folder).write_bytes(b"program " + (b"lite" if lite else b"full"))
        (folder / "_internal" / "data.txt").write_text("data")

    return make


def run_package(*args: str) -> subprocess.CompletedProcess[str]:
    """``main.py package`` with the real builder: the refusals come before any build."""
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "package", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,  # a build that starts (minutes) fails here
        env={**os.environ, "LANGUAGE": "en"},
    )


def test_a_users_folder_of_the_programs_name_is_refused_before_any_build(tmp_path):
    """``package --out DIR`` deleted ``DIR/connect4`` whatever it held: a user's
    ``notes/thesis.txt`` was gone after "built in 247 s", exit 0."""
    thesis = tmp_path / "dist" / "connect4" / "notes" / "thesis.txt"
    thesis.parent.mkdir(parents=True)
    thesis.write_text("three years of work")
    done = run_package("--lite", "--out", str(tmp_path / "dist"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "is not a build of this program" in done.stderr and "nothing was built" in done.stderr
    assert thesis.read_text() == "three years of work"
    assert sorted(p.name for p in (tmp_path / "dist").iterdir()) == ["connect4"]


def test_an_out_that_is_a_file_or_cannot_be_written_is_refused_in_one_line(tmp_path):
    a_file = tmp_path / "dist"
    a_file.write_text("a file")
    done = run_package("--out", str(a_file))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "is not a folder" in done.stderr, done.stderr
    assert a_file.read_text() == "a file"
    if os.geteuid() == 0:  # root writes into a folder without write bits: a folder no one can write
        read_only = Path("/sys/connect4-out")
    else:
        (tmp_path / "ro").mkdir(mode=0o555)
        read_only = tmp_path / "ro" / "dist"
    done = run_package("--out", str(read_only))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "cannot be written" in done.stderr, done.stderr


def test_an_earlier_build_is_replaced_and_its_archives_kept_track_of(tmp_path):
    out = tmp_path / "dist"
    calls: list[Path] = []
    lite = package.build(out, True, builder=fake_builder(calls))
    full = package.build(out, False, builder=fake_builder(calls))  # over the lite build: its own
    again = package.build(out, True, builder=fake_builder(calls))  # both archives are its own
    assert len(calls) == 3 and lite.archive != full.archive and again.archive == lite.archive
    mark = package.read_mark(out / package.PROGRAM)
    assert mark is not None and set(mark) == {lite.archive.name, full.archive.name}
    assert mark[full.archive.name] == desktop.Fingerprint.of_file(full.archive)
    with tarfile.open(again.archive) as archive:
        names = archive.getnames()
    assert "connect4/_internal/data.txt" in names and not [n for n in names if n.endswith(package.BUILD_MARK)]
    assert sorted(p.name for p in out.iterdir()) == sorted(["connect4", lite.archive.name, full.archive.name])


@pytest.mark.parametrize("how", ["a file added", "a file changed", "a link added"])
def test_an_earlier_build_that_holds_what_it_did_not_write_is_never_replaced(tmp_path, how):
    """A marked build is the program's own only as the build left it: a user's file put in
    it later would go with the folder when PyInstaller replaces it."""
    out = tmp_path / "dist"
    calls: list[Path] = []
    package.build(out, True, builder=fake_builder(calls))
    folder = out / package.PROGRAM
    if how == "a file added":
        kept = folder / "notes" / "thesis.txt"
        kept.parent.mkdir()
        kept.write_text("three years of work")
    elif how == "a file changed":
        kept = folder / "_internal" / "data.txt"
        kept.write_text("edited by hand, and longer than before")
    else:
        kept = folder / "to-my-notes"
        kept.symlink_to(tmp_path)
    before = os.readlink(kept) if kept.is_symlink() else kept.read_text()
    with pytest.raises(package.PackageError, match="the build did not write it"):
        package.build(out, True, builder=fake_builder(calls))
    assert len(calls) == 1  # refused before building
    assert (os.readlink(kept) if kept.is_symlink() else kept.read_text()) == before


@pytest.mark.parametrize("how", ["someone else's", "changed since", "a link"])
def test_a_file_of_the_archives_name_it_did_not_write_is_never_replaced(tmp_path, how):
    out = tmp_path / "dist"
    calls: list[Path] = []
    built = package.build(out, True, builder=fake_builder(calls))
    archive = built.archive
    if how == "someone else's":
        package.remove_build(out)
        (out / package.PROGRAM).mkdir()
        package.write_mark(out / package.PROGRAM, {})  # a build that never packed this archive
        archive.write_bytes(b"someone else's archive")
    elif how == "changed since":
        with archive.open("ab") as file:
            file.write(b"more")
    else:
        elsewhere = tmp_path / "elsewhere.tar.gz"
        elsewhere.write_bytes(b"kept elsewhere")
        archive.unlink()
        archive.symlink_to(elsewhere)
    before = archive.read_bytes()
    with pytest.raises(package.PackageError, match="this program did not write it"):
        package.build(out, True, builder=fake_builder(calls))
    assert len(calls) == 1 and archive.read_bytes() == before  # refused before building
