"""Build the packaged program and try it as a person without Python would:
``python -m lab.package_check --out DIR [--lite] [--full] [--no-build]``.

Each build (``game.desktop.package``) is made read-only and run with a bare environment
(``env -i PATH=/usr/bin:/bin HOME=...``: no venv, no PYTHONPATH): ``--version``, ``solve``
of a known position (-1), ``solve`` past the opening book with the solver's status (the
full build must say the compiled solver answered, the lite build the pure-Python one),
``analyze 4453 --level perfect``, a short ``match`` between two levels in worker
processes, the ``engine`` protocol, ``games``, ``install-desktop`` (its entry must run this
program) and the headless ``demo --depth 2``, which must write every screenshot of the
tour.  Then the program's folder must be as it was: not a file added or changed.  The build
must carry its mark, and ``build`` must refuse (before building) a user's folder named
``connect4`` and an archive of its name it did not write.  Prints
a table of the checks and the sizes against the limits (archive: full 150 MB, lite
70 MB); exits 1 when anything failed.  ``tests/test_package.py`` runs the lite build's
checks; this script runs both (docs/packaging.md quotes its run).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from game.desktop.install import Fingerprint
from game.desktop.package import (
    BUILD_MARK,
    PROGRAM,
    Built,
    PackageError,
    archive_name,
    build,
    executable,
    folder_size,
    read_mark,
    write_mark,
)
from game.version import __version__

ROOT = Path(__file__).resolve().parents[1]
MB = 1_000_000
ARCHIVE_LIMITS = {False: 150 * MB, True: 70 * MB}
"""The most each build's archive may weigh (full, lite)."""
KNOWN = ("1233722555341451114725221333", "-1")
"""A position and its exact score (issue 39's check)."""
IN_BOOK = ("44534443", "-3")
"""A position the opening books answer (no note on stderr that a book is missing)."""
PAST_BOOK = "4453444335343"
"""A position past the opening book: the solver must search it (ai.kernel_proof's)."""
TIMEOUT = 600.0
DEMO_SHOTS = tuple(sorted(set(re.findall(r'self\.shot\("([^"]+\.png)"\)', (ROOT / "game/app/demo.py").read_text()))))
"""Every screenshot the demo's tour saves (read from its source)."""
OPTIONAL_SHOTS = {"05-thinking.png"}
"""Taken only when the search is slow enough to be seen thinking (not at depth 2)."""


Judge = Callable[[subprocess.CompletedProcess[str]], tuple[bool, str]]
"""Whether a run held, and what was seen."""


@dataclass(frozen=True)
class Check:
    """One thing tried: its name, whether it held, what was seen, and its wall time."""

    name: str
    ok: bool
    seen: str
    seconds: float


def bare_env(home: Path, **more: str) -> dict[str, str]:
    """What ``env -i PATH=/usr/bin:/bin HOME=home`` leaves: nothing of Python's."""
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), **more}


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every path under ``folder`` with its size and modification time."""
    return {str(p.relative_to(folder)): (p.lstat().st_size, p.lstat().st_mtime_ns) for p in folder.rglob("*")}


def make_read_only(folder: Path) -> None:
    """Take every write bit off ``folder`` and what it holds (root ignores them: the
    snapshot comparison is the proof that nothing was written)."""
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            mode = path.lstat().st_mode
            path.chmod(stat.S_IMODE(mode) & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def make_writable(folder: Path) -> None:
    """Give the owner write bits back (to remove or rebuild the folder)."""
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            path.chmod(stat.S_IMODE(path.lstat().st_mode) | stat.S_IWUSR)


def check_program(folder: Path, lite: bool, work: Path) -> list[Check]:
    """Run the built program in ``folder`` as issue 39 asks; ``work`` holds its home."""
    program = str(executable(folder))
    home = work / "home"
    home.mkdir(parents=True, exist_ok=True)
    make_read_only(folder)
    before = snapshot(folder)
    checks: list[Check] = []

    def run(name: str, args: Sequence[str], judge: Judge | None, stdin: str = "", **env: str) -> None:
        started = time.perf_counter()
        try:
            done = subprocess.run(
                [program, *args],
                input=stdin,
                env=bare_env(home, **env),
                cwd=work,
                capture_output=True,
                text=True,
                errors="replace",
                timeout=TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            checks.append(Check(name, False, f"no answer in {TIMEOUT:.0f} s", time.perf_counter() - started))
            return
        seconds = time.perf_counter() - started
        ok, seen = judge(done) if judge is not None else (done.returncode == 0, "")
        if done.returncode != 0 and not seen:
            seen = f"exit {done.returncode}: {(done.stderr.strip().splitlines() or [''])[-1][:160]}"
        checks.append(Check(name, bool(ok), seen, seconds))

    def said(expected: str) -> Judge:
        def judge(done: subprocess.CompletedProcess[str]) -> tuple[bool, str]:
            return done.returncode == 0 and done.stdout.strip() == expected, done.stdout.strip()[:80]

        return judge

    run("--version", ["--version"], said(f"connect4 {__version__}"))
    run(f"solve {KNOWN[0]}", ["solve", KNOWN[0]], said(" ".join(KNOWN)))
    expected_status = "solver: fast solver unavailable" if lite else "solver: fast solver ready"

    def status(done: subprocess.CompletedProcess[str]) -> tuple[bool, str]:
        last = (done.stderr.strip().splitlines() or [""])[-1]
        return done.returncode == 0 and last.startswith(expected_status), last[:80]

    run(f"solve {PAST_BOOK} (first: kernel built)", ["solve", PAST_BOOK, "--solver-status"], status)
    run(f"solve {PAST_BOOK} (again)", ["solve", PAST_BOOK, "--solver-status"], status)

    def from_the_book(done: subprocess.CompletedProcess[str]) -> tuple[bool, str]:
        notes = [line for line in done.stderr.splitlines() if line.startswith("note:")]
        return done.returncode == 0 and done.stdout.strip() == f"{IN_BOOK[0]} {IN_BOOK[1]}" and not notes, (
            notes[0][:100] if notes else done.stdout.strip()
        )

    run(f"solve {IN_BOOK[0]} (the opening book)", ["solve", IN_BOOK[0]], from_the_book)
    run("analyze 4453 --level perfect", ["analyze", "4453", "--level", "perfect"], None)
    run("match easy medium --games 2 --jobs 2", ["match", "easy", "medium", "--games", "2", "--jobs", "2"], None)

    def engine(done: subprocess.CompletedProcess[str]) -> tuple[bool, str]:
        moves = [line for line in done.stdout.splitlines() if line.startswith("bestmove")]
        return done.returncode == 0 and bool(moves), " / ".join(moves)

    run("engine: position 3 3 2, go", ["engine"], engine, stdin="position 3 3 2\ngo\nquit\n")
    run("games", ["games"], None)
    data = work / "share"

    def entry(done: subprocess.CompletedProcess[str]) -> tuple[bool, str]:
        desktop = next(data.rglob("*.desktop"), None)
        line = next((x for x in desktop.read_text().splitlines() if x.startswith("Exec=")), "") if desktop else ""
        return done.returncode == 0 and line == f"Exec={Path(program).resolve()}", line[:100]

    run("install-desktop", ["install-desktop"], entry, XDG_DATA_HOME=str(data))
    shots = work / "shots"

    def demo(done: subprocess.CompletedProcess[str]) -> tuple[bool, str]:
        made = {p.name for p in shots.glob("*.png")}
        missing = set(DEMO_SHOTS) - made - OPTIONAL_SHOTS
        seen = f"{len(made)} of {len(DEMO_SHOTS)} screenshots" + (f", missing {sorted(missing)}" if missing else "")
        return done.returncode == 0 and not missing, seen

    run("demo --depth 2", ["demo", "--depth", "2", "--out", str(shots), "--home", str(work / "demo-home")], demo)
    after = snapshot(folder)
    changed = sorted(name for name in set(before) | set(after) if before.get(name) != after.get(name))
    checks.append(Check("its own folder unchanged", not changed, ", ".join(changed[:5]) or "nothing written", 0.0))
    return checks


def own_build_checks(out: Path, lite: bool) -> list[Check]:
    """Issue 47: the build in ``out`` carries its mark (naming the archive packed beside it),
    and the real ``build`` refuses, before building, a user's folder of the program's name
    and a file of the archive's name it did not write, changing neither."""
    checks: list[Check] = []
    archive = out / archive_name(lite)
    mark = read_mark(out / PROGRAM)
    ok = mark is not None and archive.exists() and mark.get(archive.name) == Fingerprint.of_file(archive)
    checks.append(Check("marked as this program's build", ok, f"{BUILD_MARK}: {sorted(mark or {})}", 0.0))
    with tempfile.TemporaryDirectory(prefix="connect4-refusals-") as scratch:
        thesis = Path(scratch) / "users" / PROGRAM / "notes" / "thesis.txt"
        thesis.parent.mkdir(parents=True)
        thesis.write_text("three years of work")
        theirs = Path(scratch) / "theirs"
        (theirs / PROGRAM).mkdir(parents=True)
        write_mark(theirs / PROGRAM, {})
        (theirs / archive_name(lite)).write_bytes(b"someone else's archive")
        for name, where, kept in (
            ("a user's folder connect4/: refused", thesis.parents[2], thesis),
            ("an archive it did not write: refused", theirs, theirs / archive_name(lite)),
        ):
            before = kept.read_bytes()
            started = time.perf_counter()
            try:
                build(where, lite)
            except PackageError as error:
                seen, refused = str(error)[:100], True
            else:
                seen, refused = "built over it", False
            checks.append(Check(name, refused and kept.read_bytes() == before, seen, time.perf_counter() - started))
    return checks


def size_checks(built: Built, lite: bool) -> list[Check]:
    """The archive against its limit (and the unpacked size, said)."""
    limit = ARCHIVE_LIMITS[lite]
    seen = f"{built.archive_bytes / MB:.1f} MB (limit {limit / MB:.0f}); unpacked {built.folder_bytes / MB:.1f} MB"
    return [Check(f"archive {built.archive.name}", built.archive_bytes <= limit, seen, built.seconds)]


def table(title: str, checks: list[Check]) -> str:
    """The checks as a text table."""
    width = max(len(c.name) for c in checks)
    lines = [title, f"{'check':<{width}}  ok    wall s  seen", "-" * (width + 40)]
    lines += [f"{c.name:<{width}}  {'yes' if c.ok else 'NO ':<4} {c.seconds:7.1f}  {c.seen}" for c in checks]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.package_check", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="where the builds go (OUT/full, OUT/lite)")
    parser.add_argument("--lite", action="store_true", help="the lite build only")
    parser.add_argument("--full", action="store_true", help="the full build only")
    parser.add_argument("--no-build", action="store_true", help="check the builds already in OUT")
    args = parser.parse_args(argv)
    kinds = [False, True] if args.lite == args.full else [args.lite]
    cpu = platform.processor() or platform.machine()
    print(f"# lab.package_check on {os.cpu_count()} cores ({cpu}), load average {os.getloadavg()[0]:.1f}")
    failed = False
    for lite in kinds:
        out = Path(args.out) / ("lite" if lite else "full")
        name = "lite" if lite else "full"
        checks: list[Check] = []
        if not args.no_build:
            if (out / "connect4").exists():
                make_writable(out / "connect4")
            built = build(out, lite, say=lambda line: print(f"  {line}", file=sys.stderr, flush=True))
            checks += size_checks(built, lite)
        else:
            size = folder_size(out / "connect4")
            checks.append(Check("unpacked", True, f"{size / MB:.1f} MB", 0.0))
        checks += own_build_checks(out, lite)
        with tempfile.TemporaryDirectory(prefix=f"connect4-{name}-check-") as work:
            checks += check_program(out / "connect4", lite, Path(work))
        print(table(f"\n## the {name} build ({out / 'connect4'})", checks), flush=True)
        failed = failed or not all(c.ok for c in checks)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
