#!/usr/bin/env python3
"""Connect Four: a minimax explorer you can play.

``python main.py`` opens the game window; ``python main.py --help`` lists the commands
(one-move, interactive, analyze, solve, demo, install-desktop, ...).  ``game.launcher``
routes them; ``--version`` is answered here, before anything else.

On a machine without the game's packages this file sets the game up first: it says what
it will install (every package, with its size), makes a virtual environment ``.venv``
beside itself, installs ``requirements.txt`` into it with pip's own progress (and a line
every few seconds while pip is quiet), says how long that took, and runs itself again
there.  Later starts use ``.venv`` directly and run pip again only when
``requirements.txt`` has changed.

Why it is quick: ``.venv`` is made without a pip of its own when this Python's pip can
install into it (``pip --python``, pip 22.3 and later), and pip does not byte-compile
the 300 MB it unpacks (``--no-compile``: Python compiles the few modules it imports, once,
when they are first imported).  Where the first start is a command, it then compiles the
fast solver, search and playouts (``python -m ai.compiled``, 10-40 s, once), so the
command's first answer past the opening book is quick too; the window opens at once and
its worker compiles them in the background, saying when they are ready.
"""

# ruff: noqa: E402
from __future__ import annotations

import _signal  # the signal module's C core: loaded at once (``signal`` first imports enum)
import os
import sys


def _quiet_exit(signum: int, frame: object) -> None:
    """Ctrl+C while the program is still starting (its imports take a second on a busy
    machine): end it at once with the status a shell gives Ctrl+C, not a traceback.

    Not by an exception: one raised in the middle of an import can be swallowed by C code
    (numpy's import of ``datetime`` turned it into an ImportError; elsewhere it was lost
    and a match went on playing).  Nothing is open yet that would need closing.
    ``game.launcher`` gives Ctrl+C back to Python (KeyboardInterrupt) once the command's
    modules are imported; each command then says it."""
    os._exit(130)


_quiet_exit.during_start = True  # type: ignore[attr-defined]  # what game.launcher looks for

if __name__ == "__main__":
    # (So the imports below come after this: ruff's E402 is off for this file.)
    _signal.signal(_signal.SIGINT, _quiet_exit)

import importlib.util
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv"
REQUIREMENTS = HERE / "requirements.txt"
STAMP = VENV / ".connect4-requirements"
"""Holds the hash of the requirements.txt that was last installed into .venv."""
RUNTIME_MODULES = (("numpy", "numpy"), ("bitbully_databases", "bitbully-databases"), ("pygame", "pygame-ce"))
WINDOW_ONLY = {"pygame-ce"}
WINDOW_COMMANDS = {"demo", "open", "course"}
"""Subcommands that drive the pygame window; game.launcher routes them (it cannot be
imported before set-up, since the game package needs numpy)."""
PACKAGES = {
    # name in requirements.txt: (what it is for, MB to download, MB on disk), as measured
    # for CPython 3.11 on x86-64 Linux (other systems: about the same).
    "pygame-ce": ("the window and its sound", 12, 35),
    "numpy": ("boards as arrays", 17, 73),
    "bitbully-databases": ("the opening books", 18, 27),
    "numba": ("the compiled exact solver and its compiler", 64, 208),
    "llvmlite": ("numba's compiler (its size counted with numba)", 0, 0),
    "zeroconf": ("finding network games on the local network", 2, 6),
}
HEARTBEAT = 4.0
"""Seconds of silence from pip after which a "still working" line is printed."""
PIP_PYTHON_OPTION = (22, 3)
"""The pip version from which ``pip --python`` installs into another environment."""


def _missing_packages(window: bool) -> list[str]:
    """The run-time packages this Python lacks (pygame-ce counts only for the window)."""
    missing = []
    for module, package in RUNTIME_MODULES:
        if package in WINDOW_ONLY and not window:
            continue
        if importlib.util.find_spec(module) is None:  # found, not imported: no side effects
            missing.append(package)
    return missing


def _venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _requirements_hash() -> str:
    import hashlib  # set-up only: a start with the packages in place never pays this import

    return hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()


def _requirement_names() -> list[str]:
    """The package names of requirements.txt, in its order."""
    names = []
    for line in REQUIREMENTS.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            for stop in "<>=!~;[ ":
                line = line.split(stop, 1)[0]
            names.append(line.strip())
    return names


def install_plan(names: list[str]) -> str:
    """What the first start installs: a line per package with its size, and the total."""
    lines = ["It installs, from PyPI (or pip's cache):"]
    download = disk = 0
    width = max(len(PACKAGES.get(name, ("",))[0]) for name in names)
    for name in names:
        if name == "llvmlite" and "numba" in names:
            continue  # on numba's line: "numba, llvmlite", its size counted there
        purpose, down, size = PACKAGES.get(name, ("", 0, 0))
        download, disk = download + down, disk + size
        sizes = f"{down:3d} MB download, {size:3d} MB on disk" if down else ""
        label = "numba, llvmlite" if name == "numba" else name
        lines.append(f"  {label:<19} {purpose:<{width}}  {sizes}".rstrip())
    lines.append(f"  in all about {download} MB to download and {disk} MB on disk (once; later starts go straight in).")
    return "\n".join(lines)


def _outer_pip() -> bool:
    """True when this Python has a pip that can install into .venv (``--python``)."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        found = version("pip")
    except (ImportError, PackageNotFoundError):
        return False
    try:
        numbers = tuple(int(part) for part in found.split(".")[:2])
    except ValueError:
        return False
    return numbers >= PIP_PYTHON_OPTION


def _pip_command(python: Path) -> list[str]:
    """How to run pip for .venv: its own pip, else this Python's pointed at it."""
    import subprocess  # set-up only: a start with the packages in place never pays this import

    inside = subprocess.run([str(python), "-c", "import pip"], capture_output=True).returncode == 0
    if inside or not _outer_pip():
        if not inside:
            subprocess.run([str(python), "-m", "ensurepip", "--default-pip"], check=True)
        return [str(python), "-m", "pip"]
    return [sys.executable, "-m", "pip", "--python", str(python)]


def run_showing_progress(command: list[str], started: float, heartbeat: float = HEARTBEAT) -> int:
    """Run ``command``, pass its output on to stderr as it comes, and print a line with
    the time so far whenever it has been quiet for ``heartbeat`` seconds; return its exit code.

    In a terminal (POSIX) the command gets a pseudo-terminal of its own, so pip draws its
    progress bars; elsewhere its lines are passed on as they are written.  All of it goes
    to stderr: a command's own output (``main.py analyze ... > file``) stays clean.
    """
    import queue  # set-up only: a start with the packages in place never pays this import
    import subprocess
    import threading

    terminal = os.name == "posix" and sys.stderr.isatty()
    if terminal:
        import pty

        source, child = pty.openpty()
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=child, stderr=child)
        os.close(child)
    else:
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        assert proc.stdout is not None
        source = proc.stdout.fileno()
    chunks: queue.Queue[bytes] = queue.Queue()

    def read() -> None:
        while True:
            try:
                chunk = os.read(source, 4096)
            except OSError:  # a pseudo-terminal whose child has gone: EIO
                chunk = b""
            chunks.put(chunk)
            if not chunk:
                return

    threading.Thread(target=read, daemon=True).start()
    quiet_since = time.monotonic()
    line_open = False
    while True:
        try:
            chunk = chunks.get(timeout=0.25)
        except queue.Empty:
            if time.monotonic() - quiet_since >= heartbeat:
                newline = "\n" if line_open else ""
                _say(f"{newline}  ... still working ({time.monotonic() - started:.0f} s so far)\n".encode())
                quiet_since, line_open = time.monotonic(), False
            continue
        if not chunk:
            break
        _say(chunk)
        quiet_since, line_open = time.monotonic(), not chunk.endswith((b"\n", b"\r"))
    if terminal:
        os.close(source)
    return proc.wait()


def _say(data: bytes) -> None:
    """Write bytes to stderr at once."""
    binary = getattr(sys.stderr, "buffer", None)
    if binary is not None:
        binary.write(data)
        binary.flush()
    else:
        sys.stderr.write(data.decode(errors="replace"))
        sys.stderr.flush()


def _set_up_and_rerun(missing: list[str], argv: list[str]) -> int:
    """Install the run-time requirements into .venv (once) and run main.py there."""
    import subprocess  # set-up only: a start with the packages in place never pays this import

    python = _venv_python()
    manual = (
        f"{'py' if os.name == 'nt' else 'python3'} -m venv .venv && "
        f"{python.relative_to(HERE)} -m pip install -r requirements.txt"
    )
    if Path(sys.prefix).resolve() == VENV.resolve() or os.environ.get("CONNECT4_NO_SETUP"):
        print(f"Missing {', '.join(missing)}. Run, in {HERE}:\n  {manual}", file=sys.stderr)
        return 1
    started = time.monotonic()
    try:
        up_to_date = python.exists() and STAMP.exists() and STAMP.read_text().strip() == _requirements_hash()
        if not up_to_date:
            if not python.exists():
                print(f"First start: setting the game up in {VENV}.", file=sys.stderr)
                print(install_plan(_requirement_names()), file=sys.stderr)
                with_pip = not _outer_pip()
                note = " (with a pip of its own: 10-20 s)" if with_pip else ""
                print(f"Making {VENV.name}{note} ...", file=sys.stderr, flush=True)
                subprocess.run(
                    [sys.executable, "-m", "venv", *([] if with_pip else ["--without-pip"]), str(VENV)], check=True
                )
            else:
                print("requirements.txt changed: updating .venv ...", file=sys.stderr, flush=True)
            pip = _pip_command(python)
            command = [*pip, "install", "--no-compile", "--disable-pip-version-check", "-r", str(REQUIREMENTS)]
            code = run_showing_progress(command, started)
            if code != 0:
                raise subprocess.CalledProcessError(code, command)
            STAMP.write_text(_requirements_hash() + "\n")
            print(f"Installed in {time.monotonic() - started:.0f} s.", file=sys.stderr, flush=True)
            if argv and not argv[0].startswith("-") and argv[0] not in WINDOW_COMMANDS:
                _compile_kernels(python)  # a command's first answer past the book waits for no build
            else:  # the window opens at once; its worker compiles them in the background and says so
                print("Starting the game.", file=sys.stderr, flush=True)
    except (subprocess.CalledProcessError, OSError) as error:
        hint = "\n(On Debian/Ubuntu first: sudo apt install python3-venv)" if sys.platform.startswith("linux") else ""
        print(f"Setting up failed ({error}). Run, in {HERE}:\n  {manual}{hint}", file=sys.stderr)
        return 1
    # Ctrl+C reaches the game itself (the terminal sends it to both): it stops and says so;
    # this process waits for it and passes its exit status on.
    _signal.signal(_signal.SIGINT, lambda signum, frame: None)
    return subprocess.call([str(python), str(HERE / "main.py"), *argv])


def _compile_kernels(python: Path) -> None:
    """Compile the fast solver, search and playouts now, once for the install (``python -m
    ai.compiled``), so that a command's first answer past the opening book does not wait for
    them (the window's worker compiles them in the background instead, and says so).
    A failure is said and is no failure of the set-up: the game compiles them when first
    needed, and the slower Python solver answers meanwhile."""
    started = time.monotonic()
    print(
        "Compiling the fast solver, search and playouts (once for this install, 10-40 s) ...",
        file=sys.stderr,
        flush=True,
    )
    code = run_showing_progress([str(python), "-m", "ai.compiled"], started)
    if code == 0:
        print(f"Compiled in {time.monotonic() - started:.0f} s. Starting the game.", file=sys.stderr, flush=True)
    else:
        print(
            "The fast solver could not be compiled now: the game tries again when it first needs it "
            "(the slower Python solver answers meanwhile). Starting the game.",
            file=sys.stderr,
            flush=True,
        )


def _load_by_path(name: str, relative: str) -> object | None:
    """A module of the game loaded from its file, without importing the ``game`` package
    (which needs numpy): for what main.py answers before set-up."""
    spec = importlib.util.spec_from_file_location(name, HERE / relative)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _display_problem() -> str | None:
    """game.display_check's ``display_problem``, read before set-up (it needs only the standard library)."""
    module = _load_by_path("_connect4_display_check", "game/display_check.py")
    problem: str | None = getattr(module, "display_problem", lambda: None)()
    return problem


FROZEN_MODULES = ("ai.kernel_proof",)
"""The modules the packaged program runs as ``connect4 -m MODULE ARGS`` (what
``python -m MODULE`` does from source): the kernel file's proof in a child process."""


def _frozen_start(argv: list[str]) -> int | None:
    """The packaged program (PyInstaller): no set-up, the game's modules are inside it.

    ``multiprocessing.freeze_support`` first: the window's worker (the spawn start method)
    and multiprocessing's resource tracker start this same program with their own
    arguments, and it runs them here and exits.  ``-m MODULE`` runs one of
    ``FROZEN_MODULES`` as ``python -m`` would (``sys.executable`` is this program) and
    returns its exit code; None means: a command of the game, routed as from source."""
    import multiprocessing

    multiprocessing.freeze_support()
    if argv[:1] == ["-m"] and argv[1:2] and argv[1] in FROZEN_MODULES:
        import runpy

        sys.argv = [argv[1], *argv[2:]]
        try:
            runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        except SystemExit as done:  # the module's sys.exit(code)
            return done.code if isinstance(done.code, int) else int(done.code is not None)
        return 0
    return None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    frozen = getattr(sys, "frozen", False)
    code = _frozen_start(argv) if frozen else None
    if code is not None:
        return code
    if argv[:1] == ["--version"] and not frozen:  # before set-up too: a fresh clone can say what it is
        print(f"main.py {getattr(_load_by_path('_connect4_version', 'game/version.py'), '__version__', '?')}")
        return 0
    sys.path.insert(0, str(HERE))
    missing = [] if frozen else _missing_packages(window=not argv or argv[0] in WINDOW_COMMANDS)
    if missing and not argv:
        problem = _display_problem()  # say it now, not after installing a window nobody sees
        if problem:
            print(f"main.py: {problem}", file=sys.stderr)
            return 1
    if missing:
        return _set_up_and_rerun(missing, argv)
    from game.launcher import main as route  # the game needs the packages set up above

    return route(argv)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # before a command could say it (each command catches its own)
        sys.exit(130)
