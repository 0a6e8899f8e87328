"""The compiled solver's cache cannot hurt (``ai.compiled.kernel_file``, ``KernelLoader.prepare``).

A kernel file that is truncated, garbage, built for something else, or that cannot be
saved (a file where the cache folder should be) still gives the right answers, with at
most one warning and never a traceback: the kernel is built again (and saved where it
can be).  A valid file in a read-only folder is used as it is, without numba.

The processes here point ``XDG_CACHE_HOME`` at temporary folders.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import random
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ai.compiled import kernel_file, solver_kernel
from ai.compiled.kernel_file import MAGIC, KernelCode, KernelFileError, KernelProofError
from game.cli.main import KERNEL_LOG, say_kernel_builds
from game.processes import _start_time

ROOT = Path(__file__).resolve().parent.parent
KEY = "k" * 64
FAKE = KernelCode("entry", bytes(range(256)) * 40, ("NRT_Free", "PyExc_RuntimeError"))

SOLVE = """
import json, logging, sys
from ai.compiled import solver_kernel
from ai.solver import Solver
from game.notation import parse_moves
from game.rules import Rules
solver = Solver(Rules())
score = solver.solve_moves(parse_moves("4453444335343", Rules())).score
print(json.dumps({"score": score, "compiled": solver.compiled, "numba": sys.modules.get("numba") is not None,
                  "file": str(solver_kernel.LOADER.path or "")}))
"""


def saved_whole(path: Path, like: Path) -> bool:
    """``path`` is a whole kernel file built for the same solver, CPU and llvmlite as
    ``like``.  Not byte for byte: a rebuild's entry symbol may carry another number (numba
    numbers what it compiles in a process)."""
    header = json.loads(like.read_bytes()[len(MAGIC) :].split(b"\n", 1)[0])
    try:
        kernel_file.read(path, header["key"])
    except KernelFileError:
        return False
    return True


def solve(cache: Path, *, prefix: str = "", timeout: float = 300) -> tuple[dict[str, object], list[str], str]:
    """Solve a position past the book in a new process: (what it said, warnings, stderr)."""
    env = {key: value for key, value in os.environ.items() if key not in ("CONNECT4_PURE_PYTHON",)}
    env["XDG_CACHE_HOME"] = str(cache)
    proc = subprocess.run(
        [sys.executable, "-c", prefix + SOLVE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    warnings = [line for line in proc.stderr.splitlines() if line.strip()]
    return json.loads(proc.stdout.strip().splitlines()[-1]), warnings, proc.stderr


def test_a_kernel_file_reads_back_whole(tmp_path):
    path = tmp_path / "solver.kernel"
    kernel_file.write(path, KEY, FAKE, proven=True)
    assert kernel_file.read(path, KEY) == FAKE
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kernel-secret", "solver.kernel"]  # no temporary left
    assert stat.S_IMODE((tmp_path / "kernel-secret").stat().st_mode) == 0o600


def damaged(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) - 100])
    elif how == "garbage":
        path.write_bytes(os.urandom(64))
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "flipped byte":
        path.write_bytes(data[:-10] + bytes([data[-10] ^ 1]) + data[-9:])
    elif how == "bad header":
        path.write_bytes(MAGIC + b"{not json\n" + FAKE.code)
    elif how == "header without a field":
        path.write_bytes(MAGIC + json.dumps({"key": KEY}).encode() + b"\n" + FAKE.code)
    elif how == "a folder":
        path.unlink()
        path.mkdir()


@pytest.mark.parametrize(
    "how", ["truncated", "garbage", "empty", "flipped byte", "bad header", "header without a field", "a folder"]
)
def test_a_damaged_kernel_file_is_refused(tmp_path, how):
    path = tmp_path / "solver.kernel"
    kernel_file.write(path, KEY, FAKE, proven=True)
    damaged(path, how)
    with pytest.raises(KernelFileError):
        kernel_file.read(path, KEY)


def test_a_kernel_file_built_for_another_source_or_cpu_is_refused(tmp_path):
    path = tmp_path / "solver.kernel"
    kernel_file.write(path, KEY, FAKE, proven=True)
    with pytest.raises(KernelFileError, match="built for another"):
        kernel_file.read(path, "x" * 64)


FIRST_START = """
import json, sys
from ai.compiled import solver_kernel
from game.app import worker_jobs
notes = []
worker_jobs._prepare_fast_solver(lambda note: notes.append(note.message))
print(json.dumps({"notes": notes, "file": str(solver_kernel.LOADER.path or "")}))
"""


@pytest.fixture(scope="module")
def first_start(tmp_path_factory) -> dict[str, object]:
    """The worker's start in an empty cache folder, as on the first start: it compiles the
    search (seconds) and saves its kernel file; what it said, and the file."""
    cache = tmp_path_factory.mktemp("cache")
    env = {key: value for key, value in os.environ.items() if key not in ("CONNECT4_PURE_PYTHON",)}
    env["XDG_CACHE_HOME"] = str(cache)
    proc = subprocess.run(
        [sys.executable, "-c", FIRST_START], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0 and not proc.stderr.strip(), proc.stderr[-3000:]
    said: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return said


@pytest.fixture(scope="module")
def built(first_start) -> Path:
    """A kernel file the real prepare() built."""
    path = Path(str(first_start["file"]))
    assert path.is_file(), first_start
    return path


def copied_into(cache: Path, built: Path) -> Path:
    """A copy of the kernel file ``built`` at its place in the cache folder ``cache``, with
    the installation's secret that marked it (the same installation, moved)."""
    path = cache / built.relative_to(built.parents[2])
    path.parent.mkdir(parents=True)
    path.write_bytes(built.read_bytes())
    secret = path.with_name(kernel_file.SECRET_FILE)
    secret.write_bytes(built.with_name(kernel_file.SECRET_FILE).read_bytes())
    secret.chmod(0o600)
    return path


@pytest.mark.slow
def test_the_first_start_says_the_fast_solver_is_prepared_and_then_ready(first_start):
    notes = first_start["notes"]
    assert isinstance(notes, list) and len(notes) == 2, notes
    assert notes[0].startswith("Preparing the fast solver (first start only)"), notes
    assert notes[1].startswith("The fast solver is ready ("), notes


@pytest.mark.slow
def test_a_valid_kernel_file_loads_without_numba_and_without_a_word(built):
    said, warnings, stderr = solve(built.parents[2])
    assert said == {"score": 5, "compiled": True, "numba": False, "file": str(built)}, said
    assert warnings == [], stderr


@pytest.mark.slow
def test_a_truncated_kernel_file_is_rebuilt_with_one_warning(built, tmp_path):
    cache = tmp_path / "cache"
    path = copied_into(cache, built)
    damaged(path, "truncated")
    said, warnings, stderr = solve(cache)
    assert said["score"] == 5 and said["compiled"], said
    assert len(warnings) == 1 and "compiled it again" in warnings[0], stderr
    assert saved_whole(path, built)  # saved again


EVERY_DAMAGE = """
import json, sys
from pathlib import Path
from ai.compiled import kernel_file, solver_kernel
from ai.solver import Solver
from game.notation import parse_moves
from game.rules import Rules
from tests.test_kernel_cache import damaged, saved_whole

built = Path(sys.argv[1])
said = {}
for how in ["garbage", "empty", "flipped byte", "bad header", "a folder", "no folder"]:
    folder = Path(sys.argv[2]) / how.replace(" ", "-") / "solver"
    if how == "no folder":  # a file where the cache folder should be: nothing can be saved
        folder.parent.mkdir(parents=True)
        folder.write_text("a file")
    else:
        folder.mkdir(parents=True)
        (folder / built.name).write_bytes(built.read_bytes())
        damaged(folder / built.name, how)
    prepared = kernel_file.load_or_build(solver_kernel.SPEC, folder)
    solver_kernel.LOADER._loaded, solver_kernel.LOADER.state = prepared.kernel, "ready"  # this process's search
    solver = Solver(Rules())
    score = solver.solve_moves(parse_moves("4453444335343", Rules())).score
    path = folder / built.name
    whole = path.is_file() and saved_whole(path, built)
    said[how] = [score, solver.compiled, prepared.problem, whole]
print(json.dumps(said))
"""


@pytest.mark.slow
def test_every_damage_means_a_rebuild_and_one_problem_to_say(built, tmp_path):
    """One process, one compile: each damaged file is found out, the search answers with
    the kernel built again, and the file is saved whole where it can be."""
    env = {key: value for key, value in os.environ.items() if key not in ("CONNECT4_PURE_PYTHON",)}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run(
        [sys.executable, "-c", EVERY_DAMAGE, str(built), str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0 and not proc.stderr.strip(), proc.stderr[-3000:]
    said = json.loads(proc.stdout.strip().splitlines()[-1])
    for how, (score, compiled, problem, whole) in said.items():
        assert score == 5 and compiled, how
        if how == "no folder":
            assert problem.startswith("cannot save the compiled solver") and not whole, (how, problem)
        elif how == "a folder":  # a folder where the file should be: it is never replaced
            assert "is a folder: it is left as it is" in problem and not whole, (how, problem)
        else:
            assert problem.endswith("compiled it again") and whole, (how, problem)


@pytest.mark.slow
def test_a_file_where_the_cache_folder_should_be_means_one_warning(built, tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "connect4").write_text("not a folder")
    said, warnings, stderr = solve(cache)
    assert said["score"] == 5 and said["compiled"], said
    assert len(warnings) == 1 and "cannot save the compiled solver" in warnings[0], stderr


@pytest.mark.slow
def test_a_read_only_cache_with_a_valid_file_is_used_without_numba(built, tmp_path):
    cache = tmp_path / "cache"
    path = copied_into(cache, built)
    written = path.stat().st_mtime_ns
    for folder in (path.parent, path.parent.parent, cache):
        folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        said, warnings, stderr = solve(cache)
    finally:
        for folder in (cache, path.parent.parent, path.parent):
            folder.chmod(stat.S_IRWXU)
    assert said == {"score": 5, "compiled": True, "numba": False, "file": str(path)}, said
    assert warnings == [], stderr
    assert path.stat().st_mtime_ns == written


@pytest.mark.slow
def test_without_numba_a_valid_kernel_file_is_enough(built):
    said, warnings, stderr = solve(built.parents[2], prefix="import sys; sys.modules['numba'] = None\n")
    assert said["score"] == 5 and said["compiled"] and not said["numba"], said
    assert warnings == [], stderr


@pytest.mark.slow
def test_without_numba_and_no_kernel_file_the_python_solver_answers_with_one_warning(tmp_path):
    said, warnings, stderr = solve(tmp_path, prefix="import sys; sys.modules['numba'] = None\n")
    assert said["score"] == 5 and not said["compiled"], said
    assert len(warnings) == 1 and "numba or llvmlite is not installed" in warnings[0], stderr


@pytest.mark.slow
def test_without_llvmlite_the_python_solver_answers_with_one_warning(tmp_path):
    prefix = "import sys; sys.modules['llvmlite'] = None; sys.modules['numba'] = None\n"
    said, warnings, stderr = solve(tmp_path, prefix=prefix)
    assert said["score"] == 5 and not said["compiled"], said
    assert len(warnings) == 1 and "pure-Python" in warnings[0], stderr


# --- files that are not provably the right code (issue 38 item 6) --------------------------


def test_a_kernel_file_never_proven_is_refused_but_the_proving_child_may_read_it(tmp_path):
    path = tmp_path / "solver.kernel"
    kernel_file.write(path, KEY, FAKE)
    with pytest.raises(KernelFileError, match="never proven"):
        kernel_file.read(path, KEY)
    assert kernel_file.read(path, KEY, proven=False) == FAKE


def test_a_proof_mark_of_other_code_is_refused(tmp_path):
    path = tmp_path / "solver.kernel"
    kernel_file.write(path, KEY, FAKE, proven=True)
    data = path.read_bytes()
    header = json.loads(data[len(MAGIC) :].split(b"\n", 1)[0])
    header["proven"] = "0" * 64
    path.write_bytes(MAGIC + json.dumps(header).encode() + b"\n" + FAKE.code)
    with pytest.raises(KernelFileError, match="never proven"):
        kernel_file.read(path, KEY)


def fifo(path: Path) -> None:
    os.mkfifo(path)


def link_to_dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def link_to_a_proven_file(path: Path) -> None:
    target = path.with_name("elsewhere.kernel")
    kernel_file.write(target, KEY, FAKE, proven=True)
    path.symlink_to(target)


def whole_header_over_a_longer_file(path: Path) -> None:
    kernel_file.write(path, KEY, FAKE, proven=True)
    with path.open("ab") as out:
        out.write(b"\0" * 4096)


def header_announcing_a_huge_size(path: Path) -> None:
    header = {"key": KEY, "symbol": "entry", "size": 1 << 50, "sha256": "0" * 64, "external": [], "proven": "0" * 64}
    path.write_bytes(MAGIC + json.dumps(header).encode() + b"\n" + FAKE.code)


@pytest.mark.parametrize(
    "make",
    [fifo, link_to_dev_zero, link_to_a_proven_file, whole_header_over_a_longer_file, header_announcing_a_huge_size],
)
def test_anything_but_a_regular_file_of_the_headers_size_is_refused_at_once(tmp_path, make):
    path = tmp_path / "solver.kernel"
    make(path)
    with pytest.raises(KernelFileError):
        kernel_file.read(path, KEY)  # a FIFO neither blocks nor is read; /dev/zero is not read to the end


def wrong_code_under_a_valid_header(path: Path) -> None:
    """The file's header kept (its key), the code replaced by bytes of the same length,
    size and sha256 recomputed: a whole file of the wrong code, as a careless copy or
    another program could leave."""
    data = path.read_bytes()
    header = json.loads(data[len(MAGIC) :].split(b"\n", 1)[0])
    code = bytes(random.Random(38).randrange(256) for _ in range(header["size"]))
    header = {key: header[key] for key in ("key", "symbol", "external")}
    header.update(size=len(code), sha256=hashlib.sha256(code).hexdigest())
    path.write_bytes(MAGIC + json.dumps(header).encode() + b"\n" + code)


@pytest.mark.slow
def test_the_proof_fails_for_wrong_code_under_a_valid_header_without_hurting_the_caller(built, tmp_path):
    path = tmp_path / built.name
    path.write_bytes(built.read_bytes())
    kernel_file.prove("solver", path)  # the real kernel passes
    wrong_code_under_a_valid_header(path)
    with pytest.raises(KernelProofError, match="failed its proof"):
        kernel_file.prove("solver", path)  # the child dies (SIGSEGV, SIGABRT) or answers wrong; not this process


@pytest.mark.slow
def test_a_kernel_file_that_is_not_provably_right_is_set_aside_rebuilt_and_the_solve_is_right(built, tmp_path):
    cache = tmp_path / "cache"
    path = copied_into(cache, built)
    wrong_code_under_a_valid_header(path)
    forged = path.read_bytes()
    said, warnings, stderr = solve(cache, timeout=150)  # a hang or a crash fails here
    assert said == {"score": 5, "compiled": True, "numba": True, "file": str(path)}, said
    assert len(warnings) == 1 and "compiled it again" in warnings[0], stderr
    assert path.is_file() and not path.is_symlink() and saved_whole(path, built)  # rebuilt, proven
    assert [p.read_bytes() for p in path.parent.glob(path.name + ".refused-*")] == [forged]  # kept aside
    again, warnings, stderr = solve(cache, timeout=150)  # the next start loads it: no numba, no word
    assert again == {"score": 5, "compiled": True, "numba": False, "file": str(path)} and warnings == [], stderr


@pytest.mark.slow
@pytest.mark.parametrize("attack", ["a FIFO", "a symbolic link to /dev/zero"])
def test_a_fifo_or_a_link_in_a_kernel_files_place_is_named_and_left_and_the_solve_is_right(built, tmp_path, attack):
    """Issue 47: never followed, read or replaced; the kernel is compiled in the process
    that needs it, said once."""
    cache = tmp_path / "cache"
    path = copied_into(cache, built)
    path.unlink()
    fifo(path) if attack == "a FIFO" else link_to_dev_zero(path)
    said, warnings, stderr = solve(cache, timeout=150)  # a hang or a crash fails here
    assert said == {"score": 5, "compiled": True, "numba": True, "file": str(path)}, said
    assert len(warnings) == 1 and "it is left as it is" in warnings[0], stderr
    assert ("is a FIFO" if attack == "a FIFO" else "is a symbolic link (to /dev/zero)") in warnings[0], stderr
    assert stat.S_ISFIFO(path.lstat().st_mode) if attack == "a FIFO" else os.readlink(path) == "/dev/zero"


# --- a mark only this installation can make, and a crash that is remembered (issue 47 item 5) ---


def forged_with_checksums(path: Path) -> None:
    """Other code under the file's header, its size, its checksum and an old-style proof
    mark (the code's checksum written a second time) all recomputed: what a writer who
    recomputes one checksum can do."""
    data = path.read_bytes()
    header = json.loads(data[len(MAGIC) :].split(b"\n", 1)[0])
    code = bytes(random.Random(47).randrange(256) for _ in range(header["size"]))
    digest = hashlib.sha256(code).hexdigest()
    header.update(size=len(code), sha256=digest, proven=digest)
    path.write_bytes(MAGIC + json.dumps(header).encode() + b"\n" + code)


def test_a_proof_mark_recomputed_without_the_secret_is_refused(tmp_path):
    path = tmp_path / "solver.kernel"
    kernel_file.write(path, KEY, FAKE, proven=True)
    assert kernel_file.read(path, KEY) == FAKE
    forged_with_checksums(path)
    with pytest.raises(KernelFileError, match="never proven"):
        kernel_file.read(path, KEY)
    secret = tmp_path / kernel_file.SECRET_FILE
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600 and len(bytes.fromhex(secret.read_text())) == 32


def test_a_proven_file_of_another_installation_is_refused(tmp_path):
    """The same file under another secret (another machine's cache copied here) proves nothing."""
    path = tmp_path / "solver.kernel"
    kernel_file.write(path, KEY, FAKE, proven=True)
    secret = tmp_path / kernel_file.SECRET_FILE
    secret.write_text(os.urandom(32).hex())
    with pytest.raises(KernelFileError, match="never proven"):
        kernel_file.read(path, KEY)


def test_a_secret_others_can_read_is_set_aside_and_its_marks_no_longer_hold(tmp_path):
    path = tmp_path / "solver.kernel"
    kernel_file.write(path, KEY, FAKE, proven=True)
    secret = tmp_path / kernel_file.SECRET_FILE
    secret.chmod(0o644)
    with pytest.raises(KernelFileError, match="never proven"):
        kernel_file.read(path, KEY)
    assert len(list(tmp_path.glob("kernel-secret.exposed-*"))) == 1 and not secret.exists()
    kernel_file.write(path, KEY, FAKE, proven=True)  # a new secret, a new mark
    assert kernel_file.read(path, KEY) == FAKE and stat.S_IMODE(secret.stat().st_mode) == 0o600


@pytest.mark.parametrize("make", [fifo, link_to_dev_zero])
def test_a_secret_that_is_not_a_regular_file_is_named_and_left(tmp_path, make):
    secret = tmp_path / kernel_file.SECRET_FILE
    make(secret)
    with pytest.raises(KernelFileError, match="secret .* cannot be used"):
        kernel_file.write(tmp_path / "solver.kernel", KEY, FAKE, proven=True)
    assert secret.is_symlink() or stat.S_ISFIFO(secret.lstat().st_mode)


def marked_here(path: Path) -> None:
    """Rewrite the file's mark with this installation's secret: a file that passes every
    check (as if the secret had leaked), so only running it finds it out."""
    data = path.read_bytes()
    header = json.loads(data[len(MAGIC) :].split(b"\n", 1)[0])
    code = data[len(MAGIC) :].split(b"\n", 1)[1]
    secret = kernel_file.install_secret(path.parent, create=False)
    assert secret is not None
    kernel = KernelCode(header["symbol"], code, tuple(header["external"]))
    header["proven"] = kernel_file.proof_mark(secret, header["key"], kernel)
    path.write_bytes(MAGIC + json.dumps(header).encode() + b"\n" + code)


@pytest.mark.slow
def test_code_that_crashes_every_solve_is_set_aside_at_the_next_start_and_rebuilt(built, tmp_path):
    """Forged code with every checksum and even the mark recomputed crashed every 'solve'
    and was never rebuilt: the first solve still dies in it, the next start finds the
    loading marker that process left, sets the file aside and builds it again."""
    cache = tmp_path / "cache"
    path = copied_into(cache, built)
    forged_with_checksums(path)
    marked_here(path)
    forged = path.read_bytes()
    env = {key: value for key, value in os.environ.items() if key not in ("CONNECT4_PURE_PYTHON",)}
    env["XDG_CACHE_HOME"] = str(cache)
    died = subprocess.run([sys.executable, "-c", SOLVE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=150)
    assert died.returncode != 0, died.stdout  # killed by a signal in the forged code
    assert len(list(path.parent.glob(f".{path.name}.loading-*"))) == 1  # the marker it left
    said, warnings, stderr = solve(cache, timeout=150)
    assert said == {"score": 5, "compiled": True, "numba": True, "file": str(path)}, said
    assert len(warnings) == 1 and "crashed" in warnings[0] and "compiled it again" in warnings[0], stderr
    assert [p.read_bytes() for p in path.parent.glob(path.name + ".crashed-*")] == [forged]
    assert not list(path.parent.glob(f".{path.name}.loading-*")) and saved_whole(path, built)
    again, warnings, stderr = solve(cache, timeout=150)
    assert again == {"score": 5, "compiled": True, "numba": False, "file": str(path)} and warnings == [], stderr


@pytest.mark.slow
def test_a_good_file_leaves_no_marker_and_a_living_loaders_marker_is_not_a_crash(built, tmp_path):
    cache = tmp_path / "cache"
    path = copied_into(cache, built)
    marker = path.with_name(f".{path.name}.loading-1")  # pid 1 runs: another process loading it now
    started = _start_time(1)
    marker.write_text(f"1@{started}" if started else "1")
    said, warnings, stderr = solve(cache)
    assert said == {"score": 5, "compiled": True, "numba": False, "file": str(path)} and warnings == [], stderr
    assert sorted(p.name for p in path.parent.iterdir() if p.name.startswith(".")) == [marker.name]


def test_a_damaged_secret_is_set_aside_and_a_new_one_made(tmp_path):
    path = tmp_path / "solver.kernel"
    kernel_file.write(path, KEY, FAKE, proven=True)
    secret = tmp_path / kernel_file.SECRET_FILE
    secret.write_text("not hex at all")
    with pytest.raises(KernelFileError, match="never proven"):
        kernel_file.read(path, KEY)
    kernel_file.write(path, KEY, FAKE, proven=True)
    assert kernel_file.read(path, KEY) == FAKE
    assert [p.read_text() for p in tmp_path.glob("kernel-secret.damaged-*")] == ["not hex at all"]


@pytest.mark.slow
def test_a_loader_killed_without_a_crash_leaves_its_file_in_use(built, tmp_path):
    """A process killed (or ended by os._exit, as a worker process is) while it loads or
    first runs a kernel is no crash: its marker goes, the file stays and is used."""
    cache = tmp_path / "cache"
    path = copied_into(cache, built)
    marker = path.with_name(f".{path.name}.loading-999999")
    marker.write_text("999999@1\n")  # a process long gone, no crash report
    said, warnings, stderr = solve(cache)
    assert said == {"score": 5, "compiled": True, "numba": False, "file": str(path)} and warnings == [], stderr
    assert not marker.exists() and not list(path.parent.glob("*.crashed-*"))


def test_a_command_says_once_that_it_compiles_a_kernel(tmp_path, monkeypatch, capsys):
    """Where no kernel file is there yet (an install that skipped main.py's set-up, or a
    cleared cache), the first command that needs the fast solver compiles it: 5-20 s, said
    on stderr before the wait and when it is done, once.  (The build itself is this
    machine's kernel, handed over: building it is the first_start fixture's.)"""
    assert solver_kernel.LOADER.prepare() and solver_kernel.LOADER.path is not None
    code = kernel_file.read(solver_kernel.LOADER.path, kernel_file.key(solver_kernel.SPEC.source()))
    monkeypatch.setattr(kernel_file, "_built", {})
    monkeypatch.setattr(kernel_file, "build", lambda spec: code)
    logger = logging.getLogger(KERNEL_LOG)
    monkeypatch.setattr(logger, "handlers", [])
    monkeypatch.setattr(logger, "level", logger.level)
    say_kernel_builds()
    say_kernel_builds()  # every command's main asks: still said once
    loader = kernel_file.KernelLoader(solver_kernel.SPEC, "solver", folder=lambda: tmp_path)
    assert loader.prepare() and loader.path is not None and loader.path.parent == tmp_path
    said = capsys.readouterr().err.splitlines()
    assert len(said) == 2, said
    assert said[0] == "compiling the fast solver: once for this install (5-20 s); later starts load it at once"
    assert said[1].startswith("the fast solver is compiled (")
    again = kernel_file.KernelLoader(solver_kernel.SPEC, "solver", folder=lambda: tmp_path)
    assert again.prepare() and capsys.readouterr().err == ""  # the next start loads the file: not a word
