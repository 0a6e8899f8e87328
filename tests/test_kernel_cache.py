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
import os
import random
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ai.compiled import kernel_file
from ai.compiled.kernel_file import MAGIC, KernelCode, KernelFileError, KernelProofError

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
    assert [p.name for p in tmp_path.iterdir()] == ["solver.kernel"]  # no temporary file left


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
    """A copy of the kernel file ``built`` at its place in the cache folder ``cache``."""
    path = cache / built.relative_to(built.parents[2])
    path.parent.mkdir(parents=True)
    path.write_bytes(built.read_bytes())
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
        elif how == "a folder":  # a folder where the file should be: it cannot be replaced
            assert "compiled it again, but cannot save" in problem and not whole, (how, problem)
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
@pytest.mark.parametrize("attack", ["wrong code under a valid header", "a FIFO", "a symbolic link to /dev/zero"])
def test_a_kernel_file_that_is_not_provably_right_is_rebuilt_and_the_solve_is_right(built, tmp_path, attack):
    cache = tmp_path / "cache"
    path = copied_into(cache, built)
    if attack == "wrong code under a valid header":
        wrong_code_under_a_valid_header(path)
    else:
        path.unlink()
        fifo(path) if attack == "a FIFO" else link_to_dev_zero(path)
    said, warnings, stderr = solve(cache, timeout=150)  # a hang or a crash fails here
    assert said == {"score": 5, "compiled": True, "numba": True, "file": str(path)}, said
    assert len(warnings) == 1 and "compiled it again" in warnings[0], stderr
    assert path.is_file() and not path.is_symlink() and saved_whole(path, built)  # rebuilt, proven
    again, warnings, stderr = solve(cache, timeout=150)  # the next start loads it: no numba, no word
    assert again == {"score": 5, "compiled": True, "numba": False, "file": str(path)} and warnings == [], stderr
