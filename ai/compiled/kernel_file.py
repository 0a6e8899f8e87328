"""The compiled kernels kept as machine code in files of the game's own, and their one loader.

numba compiles a kernel once (``ai.compiled.solver_kernel.negamax``, the exact solver's;
``ai.compiled.search_kernel.search_pass``, the play search's: a ``KernelSpec`` each, with
the helpers of ``ai.compiled.bits`` compiled into both), behind a C-callable entry that
takes plain pointers (the kernels allocate nothing, so they need no numba runtime).  The
machine code is saved in the user's cache folder (``cache_folder``), one file per
kernel, with a header that names what it was built from (the kernel's source, the bit
helpers' and this file's, the CPU, llvmlite's version) and a checksum.  Later processes
load that file with llvmlite alone and call the kernel through ctypes (which lets other
threads run meanwhile): about 0.05 s, where importing numba and loading numba's own
cache took about 0.6 s before any work.

File layout: ``MAGIC``, one line of JSON (``key``, ``symbol``, ``size``, ``sha256``,
``external``, ``proven``), then ``size`` bytes of object code.  Anything else (truncated,
garbage, built for another source or CPU, not a regular file: a FIFO, a symbolic link, a
device) is a ``KernelFileError``, and the caller builds anew.  Every kernel file, the
secret and the markers go through ``game.regular_file``: read through one descriptor
opened without following links and without blocking, checked to be a regular file whose
size is the header's, and never read past that size; written whole; a FIFO, a device or a
link in a file's place is named and left as it is (that kernel is then compiled in each
process that needs it, said once), never replaced.

A whole header over wrong code (another kernel's, or bytes made to fit) would crash every
process that maps it, so no process maps a file until it is proven: ``save_proven`` writes
a new file, runs it once in a child process (``ai.kernel_proof``: one small known
position, compared with the pure-Python twin), and only then writes it with ``proven`` in
its header: ``HMAC-SHA256`` of the key, the entry's symbol, the code's sha256 and its
external names, keyed with this installation's secret (``SECRET_FILE``: 32 random bytes
beside the kernel files, made once through ``game.regular_file.create_new``, mode 0600,
readable by the user alone; one readable by others, or damaged, is set aside and a new one
made, so every file it marked is built again).  A writer that recomputes the checksum cannot
recompute the mark without the secret, so a file without a mark this installation made
is set aside (kept beside, ``NAME.refused-<time>``) and built again.  Cost: the first
start pays the child (about 1 s beside a build of 5-20 s); later starts check the mark
(microseconds, no child).

A crash while a file is being loaded or first run (code that passed every check yet
crashes: a damaged library, a bit flip) must not crash every later start: while it loads
the file, and again during the kernel's first call, the process keeps a marker beside the
file (``.NAME.loading-<pid>``, naming itself through ``game.processes``) with
``faulthandler`` pointed at it, and removes it after.  A start that finds a marker of a
process no longer running that holds a crash report knows that process died in there:
it sets the file aside (``NAME.crashed-<time>``) and builds again.  A marker without a
report (a process killed or ended meanwhile) only goes.

Loading rules (``KernelLoader``, one per kernel, for the window's worker and every other
caller):

- ``CONNECT4_PURE_PYTHON=1`` forces the Python path (nothing here loads llvmlite or numba).
- The cache folder is the game's own under the user's cache folder
  (``$XDG_CACHE_HOME/connect4/solver`` or ``~/.cache/connect4/solver`` on Linux,
  ``~/Library/Caches/connect4/solver`` on macOS, ``%LOCALAPPDATA%\\connect4\\cache\\solver``
  on Windows), never beside the code.
- A kernel file that is damaged or was built for another source, CPU or llvmlite is
  built again; one that cannot be saved (a read-only folder, a file where the folder
  should be) is compiled again by the next process.  Either is one warning.  A valid
  file in a read-only folder is simply used.
- No llvmlite, no numba where a build is needed, or any failure while building or
  loading, means the Python path and one warning (``logging``, once per process: one
  line on stderr where logging is not configured).  Never a traceback.

Only ``build`` imports numba; ``LoadedKernel`` and ``key`` import llvmlite (which numba
brings): both lazily, so a process that never runs a kernel loads neither (the window
never does: tests/test_one_road.py).  ``build`` reaches numba's private attributes
(tests/test_kernel_internals.py says so when a numba release moves them; numba and
llvmlite are pinned to the minor versions tested).
"""

from __future__ import annotations

import ctypes
import faulthandler
import hashlib
import hmac
import json
import logging
import os
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any, Generic, TypeVar

import numpy as np

from ai.compiled import bits
from game.processes import owner_is_running, this_process
from game.regular_file import (
    NotRegularFile,
    create_new,
    open_regular,
    read_regular,
    remove_own,
    set_aside,
    writable_target,
    write_atomically,
)

LOG = logging.getLogger(__name__)
MAGIC = b"connect4 solver kernel 1\n"
PURE_PYTHON_ENV = "CONNECT4_PURE_PYTHON"
HEADER_LIMIT = 64 * 1024
"""The longest header line read (a real one is a few hundred bytes)."""
CODE_LIMIT = 256 * 1024 * 1024
"""The largest object code a header may announce (a real kernel's is well under 1 MB)."""
PROOF_TIMEOUT = 120.0
"""Seconds a proof may take (it takes about one; wrong code may loop for ever)."""
ROOT = Path(__file__).resolve().parent.parent.parent
"""The folder holding the ``ai`` package, for the proving child's import path."""


def cache_folder() -> Path:
    """The game's folder for the compiled kernels, under the user's cache folder."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "connect4" / "cache" / "solver"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "connect4" / "solver"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "connect4" / "solver"


def pure_python_forced() -> bool:
    """True when ``CONNECT4_PURE_PYTHON`` asks for the Python path."""
    return os.environ.get(PURE_PYTHON_ENV, "").strip() not in ("", "0")


class KernelFileError(Exception):
    """The kernel file is missing, damaged, or was built for something else."""


class KernelProofError(KernelFileError):
    """A kernel file did not answer its known position as the Python twin does."""


@dataclass(frozen=True)
class KernelCode:
    """Machine code of the search: the object file's bytes, the entry's symbol, and the
    external names the code mentions (only on paths the search never takes)."""

    symbol: str
    code: bytes
    external: tuple[str, ...]


def _llvm() -> Any:
    """llvmlite's binding layer, with the native target ready (raises ImportError)."""
    import llvmlite.binding as llvm  # lazy: llvmlite only in a process that runs a kernel

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    return llvm


def key(source: bytes) -> str:
    """What a kernel file must have been built from: the source, this CPU, this llvmlite.

    Raises:
        ImportError: no llvmlite.
    """
    llvm = _llvm()
    parts = [
        hashlib.sha256(source).hexdigest(),
        getattr(sys.modules.get("llvmlite"), "__version__", "?"),
        llvm.get_process_triple(),
        llvm.get_host_cpu_name(),
        llvm.get_host_cpu_features().flatten(),
        os.environ.get("NUMBA_CPU_NAME", ""),
        os.environ.get("NUMBA_CPU_FEATURES", ""),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def file_name(kernel_key: str, name: str) -> str:
    return f"{name}-{kernel_key[:24]}.kernel"


def _native_popcount() -> Any:
    """numba's view of the CPU's popcount instruction (LLVM's ``ctpop``)."""
    from numba.core.extending import intrinsic  # lazy: numba only in a process that compiles

    @intrinsic
    def ctpop(typingctx: Any, word: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return word(word), codegen

    return ctpop


def build(spec: KernelSpec[Any]) -> KernelCode:
    """Compile ``spec``'s kernel (its entry, its own helpers and ``ai.compiled.bits``'s)
    with numba into object code, behind the C-callable entry of ``spec.wrapper``.

    Raises:
        ImportError: no numba.
        NumbaInternalsError: this numba keeps its compiled code elsewhere.
        Exception: whatever numba raises when it cannot compile.
    """
    import numba  # lazy: numba (a second to import) only in a process that compiles

    nb: Any = numba  # numba's decorators and types are untyped
    jit = nb.njit(nogil=True, error_model="numpy")
    # The bit helpers, the kernel's helpers and its entry compiled in a namespace of their
    # own, where each finds the others compiled (the modules themselves are left alone).
    names = {**vars(bits), **vars(spec.core)}
    functions = [getattr(bits, name) for name in bits.HELPERS]
    functions += [getattr(spec.core, name) for name in (*spec.helpers, spec.entry)]
    for function in functions:
        name = function.__name__
        names[name] = jit(FunctionType(function.__code__, names, name, function.__defaults__))
    names["popcount"] = _native_popcount()
    i64 = nb.types.int64
    kinds = {"p": nb.types.CPointer(i64), "b": nb.types.CPointer(nb.types.uint8), "i": i64}
    signature = i64(*(kinds[kind] for kind in spec.args))
    entry = spec.wrapper(names[spec.entry], nb.carray)
    return machine_code(nb.cfunc(signature, nopython=True, error_model="numpy")(entry))


NUMBA_INTERNALS = ("CFunc._library", "CodeLibrary._final_module", "CodeLibrary._codegen", "CPUCodegen._tm")
"""The private attributes of numba that ``machine_code`` reads: numba has no public way
to hand out a cfunc's object code.  tests/test_kernel_internals.py exercises them."""


class NumbaInternalsError(Exception):
    """This numba keeps a compiled function's machine code where ``machine_code`` does not look."""


def machine_code(compiled: Any) -> KernelCode:
    """The object code of a numba ``cfunc``, its entry's symbol and the external names it
    mentions, read through numba's private attributes (``NUMBA_INTERNALS``).

    Raises:
        NumbaInternalsError: one of them is gone (a numba release moved it).
    """
    try:
        library = compiled._library
        module = library._final_module
        machine = library._codegen._tm
        symbol = str(compiled.native_name)
    except AttributeError as error:
        version = getattr(sys.modules.get("numba"), "__version__", "?")
        raise NumbaInternalsError(
            f"numba {version} moved what the kernel files read ({', '.join(NUMBA_INTERNALS)}): {error}; "
            "ai/compiled/kernel_file.machine_code must follow before numba's pin changes"
        ) from None
    external = sorted(
        {f.name for f in module.functions if f.is_declaration and not f.name.startswith("llvm.")}
        | {g.name for g in module.global_variables if g.is_declaration}
    )
    return KernelCode(symbol, bytes(machine.emit_object(module)), tuple(external))


SECRET_FILE = "kernel-secret"
"""This installation's key for the proof marks, beside the kernel files (module docstring)."""
SECRET_BYTES = 32


def install_secret(folder: Path, *, create: bool) -> bytes | None:
    """This installation's secret in ``folder``: read, or (``create``) made when missing;
    None when there is none and none is to be made.

    Raises:
        KernelFileError: it is not a regular file (a FIFO, a device, a link: left as it is),
            or cannot be read or made.
    """
    path = folder / SECRET_FILE
    try:
        try:
            descriptor, found = open_regular(path, follow_links=False)
        except FileNotFoundError:
            found = None
        else:
            os.close(descriptor)
        if found is not None and stat.S_IMODE(found.st_mode) & 0o077:  # others may have read it
            set_aside(path, "exposed")
            found = None
        elif found is not None and _secret_of(read_regular(path, 4 * SECRET_BYTES, follow_links=False)) is None:
            set_aside(path, "damaged")  # every mark it made is lost with it: those files are built again
            found = None
        if found is None:
            if not create:
                return None
            folder.mkdir(parents=True, exist_ok=True)
            try:
                create_new(path, os.urandom(SECRET_BYTES).hex().encode("ascii"), mode=0o600)
            except FileExistsError:  # another process made it meanwhile
                pass
        secret = _secret_of(read_regular(path, 4 * SECRET_BYTES, follow_links=False))
    except OSError as error:
        raise KernelFileError(f"the compiled code's secret {path} cannot be used: {error.strerror or error}") from None
    if secret is None:
        raise KernelFileError(f"the compiled code's secret {path} is damaged")
    return secret


def _secret_of(text: bytes) -> bytes | None:
    """The secret a secret file holds (hex), or None when it is damaged."""
    try:
        secret = bytes.fromhex(text.decode("ascii"))
    except ValueError:
        return None
    return secret if len(secret) == SECRET_BYTES else None


def proof_mark(secret: bytes, kernel_key: str, kernel: KernelCode) -> str:
    """The mark of a proven file: what only a holder of this installation's secret can make."""
    digest = hashlib.sha256(kernel.code).hexdigest()
    what = json.dumps([kernel_key, kernel.symbol, digest, list(kernel.external)]).encode()
    return hmac.new(secret, b"connect4 kernel proven|" + what, hashlib.sha256).hexdigest()


def write(path: Path, kernel_key: str, kernel: KernelCode, *, proven: bool = False) -> None:
    """Save ``kernel`` at ``path`` whole or not at all (``game.regular_file``); ``proven``
    marks it as having passed its proof with this installation's mark (``save_proven``
    alone says so).

    Raises:
        OSError: the folder cannot be made or written, or something else than a regular
            file is in ``path``'s place (``NotRegularFile``: left as it is).
        KernelFileError: no mark can be made (the secret cannot be used).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    secret = install_secret(path.parent, create=True) if proven else None
    header = {
        "key": kernel_key,
        "symbol": kernel.symbol,
        "size": len(kernel.code),
        "sha256": hashlib.sha256(kernel.code).hexdigest(),
        "external": list(kernel.external),
        "proven": proof_mark(secret, kernel_key, kernel) if secret is not None else "",
    }
    write_atomically(path, MAGIC + json.dumps(header).encode() + b"\n" + kernel.code, follow_links=False)


def read(path: Path, kernel_key: str, *, proven: bool = True) -> KernelCode:
    """The kernel saved at ``path`` if it is a whole regular file built for ``kernel_key``
    and (unless ``proven`` is False: the proving child) marked by this installation as
    having passed its proof.

    Raises:
        KernelFileError: missing, not a regular file, unreadable, damaged, built for
            something else, or never proven here.
    """
    try:
        handle, found = open_regular(path, follow_links=False)  # a link fails; a FIFO opens without waiting
    except OSError as error:
        raise KernelFileError(f"cannot read {path}: {error.strerror or error}") from None
    with os.fdopen(handle, "rb", buffering=0) as file:
        try:
            head = file.read(len(MAGIC) + HEADER_LIMIT)
            if not head.startswith(MAGIC):
                raise KernelFileError(f"{path} is not a kernel file")
            line_end = head.find(b"\n", len(MAGIC))
            if line_end < 0:
                raise KernelFileError(f"{path} has a damaged header (no end of line)")
            header, size = _header(path, head[len(MAGIC) : line_end])
            if found.st_size != line_end + 1 + size:
                raise KernelFileError(f"{path} is damaged ({found.st_size - line_end - 1} bytes of code, not {size})")
            code = head[line_end + 1 :] + _read_exactly(file, size - (len(head) - line_end - 1))
        except OSError as error:
            raise KernelFileError(f"cannot read {path}: {error.strerror or error}") from None
    symbol, digest, external, built_for, mark = header
    if built_for != kernel_key:
        raise KernelFileError(f"{path} was built for another solver, CPU or llvmlite")
    if len(code) != size or hashlib.sha256(code).hexdigest() != digest:
        raise KernelFileError(f"{path} is damaged ({len(code)} of {size} bytes, or a wrong checksum)")
    kernel = KernelCode(symbol, code, external)
    if proven:
        secret = install_secret(path.parent, create=False)
        expected = proof_mark(secret, kernel_key, kernel).encode() if secret is not None else b""
        if not expected or not hmac.compare_digest(mark.encode("utf-8", "replace"), expected):
            raise KernelFileError(f"{path} was never proven to be this kernel on this installation")
    return kernel


def _header(path: Path, line: bytes) -> tuple[tuple[str, str, tuple[str, ...], str, str], int]:
    """The header's (symbol, sha256, external names, key, proof mark) and the code's size."""
    try:
        header = json.loads(line)
        symbol, size, digest = str(header["symbol"]), int(header["size"]), str(header["sha256"])
        external = tuple(str(name) for name in header["external"])
        built_for, mark = str(header["key"]), str(header.get("proven", ""))
    except (ValueError, KeyError, TypeError, RecursionError) as error:
        raise KernelFileError(f"{path} has a damaged header ({error})") from None
    if not 0 <= size <= CODE_LIMIT:
        raise KernelFileError(f"{path} has a damaged header (a size of {size} bytes)")
    return (symbol, digest, external, built_for, mark), size


def _read_exactly(file: Any, count: int) -> bytes:
    """``count`` bytes from ``file`` (fewer where it ends early: the size check finds it)."""
    parts, left = [], count
    while left > 0:
        part = file.read(left)
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def prove(name: str, path: Path) -> None:
    """Run the kernel file at ``path`` (kernel ``name``) once in a child process against its
    Python twin (``ai.kernel_proof``); return when it answered as the twin does.

    Raises:
        KernelProofError: the child crashed, answered otherwise, or took too long.
        OSError: no child could be started.
    """
    import subprocess  # only a new kernel is proven: a start that loads one never pays these imports

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    env.pop(PURE_PYTHON_ENV, None)
    command = [sys.executable, "-m", "ai.kernel_proof", name, str(path)]
    try:
        done = subprocess.run(
            command, env=env, capture_output=True, text=True, errors="replace", timeout=PROOF_TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        raise KernelProofError(f"the new {name} kernel did not finish its proof in {PROOF_TIMEOUT:.0f} s") from None
    if done.returncode != 0 or done.stdout.strip().splitlines()[-1:] != ["proven"]:
        how = f"died of signal {-done.returncode}" if done.returncode < 0 else f"exited with {done.returncode}"
        last = (done.stdout.strip() or done.stderr.strip()).splitlines()[-1:] or [""]
        raise KernelProofError(f"the new {name} kernel failed its proof ({how}: {last[0][:200]})")


def save_proven(spec: KernelSpec[Any], path: Path, kernel_key: str, kernel: KernelCode) -> None:
    """Save ``kernel`` at ``path`` marked proven, once a child process ran it from a file
    (an unmarked temporary one beside ``path``) and it answered as its Python twin.

    Raises:
        OSError: the folder cannot be made or written, or ``path`` is not a regular file.
        KernelProofError: the kernel failed its proof (nothing is saved).
        KernelFileError: no mark can be made (the secret cannot be used).
    """
    import tempfile  # only when a kernel is saved

    path.parent.mkdir(parents=True, exist_ok=True)
    writable_target(path, follow_links=False)  # a FIFO or a link in its place: no build is proven for it
    install_secret(path.parent, create=True)  # before the child's second of work
    handle, trial = tempfile.mkstemp(dir=path.parent, prefix=".kernel-", suffix=".trial")
    os.close(handle)
    try:
        write(Path(trial), kernel_key, kernel)
        prove(spec.name, Path(trial))
        write(path, kernel_key, kernel, proven=True)
    finally:
        remove_own(trial)


def _never_called() -> None:
    """What every external name of the code points to: they sit on the error paths of
    numba's entry wrapper, which a search that cannot raise never takes."""
    sys.stderr.write("connect4: a compiled search took a path it never takes; stopping\n")
    os.abort()


_STUB = ctypes.CFUNCTYPE(None)(_never_called)
_STUB_DATA = (ctypes.c_void_p * 8)()


class LoadedKernel:
    """The machine code made callable: ``entry(...)`` takes the C entry's arguments
    (``KernelSpec.args``: array addresses and int64s).  Keeps its execution engine alive."""

    def __init__(self, kernel: KernelCode, args: str):
        llvm = _llvm()
        for name in kernel.external:
            address = ctypes.addressof(_STUB_DATA) if name.startswith("PyExc_") else ctypes.cast(_STUB, ctypes.c_void_p)
            llvm.add_symbol(name, address if isinstance(address, int) else address.value)
        machine = llvm.Target.from_default_triple().create_target_machine()
        self._engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), machine)
        self._engine.add_object_file(llvm.ObjectFileRef.from_data(kernel.code))
        self._engine.finalize_object()
        address = self._engine.get_function_address(kernel.symbol)
        if not address:
            raise KernelFileError(f"the kernel has no entry {kernel.symbol}")
        kinds = [ctypes.c_int64 if kind == "i" else ctypes.c_void_p for kind in args]
        self.entry: Callable[..., int] = ctypes.CFUNCTYPE(ctypes.c_int64, *kinds)(address)

    def watch_first_call(self, watch: Callable[[], AbstractContextManager[object]]) -> None:
        """Run the entry's first call inside ``watch()`` (the crash marker beside its file)."""
        real = self.entry

        def first(*args: Any) -> int:
            self.entry = real
            with watch():
                return real(*args)

        self.entry = first

    def __call__(self, *args: Any) -> int:
        """The entry with its raw arguments (addresses and int64s, in ``KernelSpec.args``'s order)."""
        result: int = self.entry(*args)
        return result


def addresses(*arrays: np.ndarray) -> list[int]:
    """The data addresses of arrays a compiled search reads and writes.

    Raises:
        TypeError: an array is not C-contiguous int64 (the search would read garbage).
    """
    for array in arrays:
        if array.dtype != np.int64 or not array.flags.c_contiguous:
            raise TypeError("the compiled search takes C-contiguous int64 arrays")
    return [int(array.ctypes.data) for array in arrays]


def forget_loader_pages() -> int:
    """Give back the pages of llvmlite's library that loading the kernels read: its code and
    read-only data, clean pages of the file (46 MB of the AI worker's memory once both
    kernels are loaded; the loaded kernels are machine code of their own and need none of
    it).  The system's page cache keeps them, and should llvmlite run again they are read
    back from there.  A page the process changed (relocated or written data) is never
    touched.  Linux only (elsewhere nothing); returns the bytes given back."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        advise = libc.madvise
        advise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        maps = Path("/proc/self/smaps").read_text().splitlines()
    except (OSError, AttributeError):
        return 0
    clean: list[tuple[int, int]] = []  # (start, end) of the library's read-only, unchanged mappings
    current: tuple[int, int] | None = None  # the mapping being read, where it is one of the library's
    for line in maps + ["0-0 ---p"]:  # a last header closes the last mapping
        fields = line.split()
        if len(fields) >= 2 and "-" in fields[0] and ":" not in fields[0]:  # a mapping's first line
            if current is not None:
                clean.append(current)
            start, end = (int(part, 16) for part in fields[0].split("-"))
            current = (start, end) if "libllvmlite" in line and "w" not in fields[1] else None
        elif current is not None and fields[:1] in (["Private_Dirty:"], ["Anonymous:"]) and fields[1] != "0":
            current = None  # the process changed it (relocated data): left alone
    given = 0
    for start, end in clean:
        if advise(start, end - start, 4) == 0:  # MADV_DONTNEED
            given += end - start
    return given


def byte_address(array: np.ndarray) -> int:
    """The data address of a byte array a compiled search only reads (a ``b`` argument).

    Raises:
        TypeError: it is not C-contiguous uint8.
    """
    if array.dtype != np.uint8 or not array.flags.c_contiguous:
        raise TypeError("the compiled search takes C-contiguous uint8 arrays for bytes")
    return int(array.ctypes.data)


K = TypeVar("K", bound=LoadedKernel)


@dataclass(frozen=True)
class KernelSpec(Generic[K]):
    """What to compile from a kernel module and how to call it.

    ``entry`` is the kernel's search, ``helpers`` the module's functions it calls (compiled
    with it, beside ``ai.compiled.bits``'s); ``wrapper(search, carray)`` makes the C entry
    from the compiled search; ``args`` are the entry's arguments, ``p`` a pointer to int64s,
    ``b`` a pointer to bytes, ``i`` an int64; ``loaded`` is how callers get the machine
    code (a ``LoadedKernel``)."""

    name: str
    core: ModuleType
    entry: str
    helpers: tuple[str, ...]
    wrapper: Callable[[Any, Any], Any]
    args: str
    loaded: type[K]

    def source(self) -> bytes:
        """Everything the machine code is built from: the kernel's module, the bit helpers,
        this file, and the ints the kernel's module holds (numba compiles them in as
        constants, ``CHECK_EVERY`` or ``WIN`` from other modules among them): a change to
        any means a new kernel file."""
        files = (Path(str(self.core.__file__)), Path(str(bits.__file__)), Path(__file__))
        constants = sorted((name, value) for name, value in vars(self.core).items() if type(value) is int)
        return b"".join(path.read_bytes() for path in files) + repr(constants).encode()


_built: dict[str, KernelCode] = {}
"""Kernels built in this process, by key: a second rebuild (tests) compiles nothing."""


@dataclass
class Prepared(Generic[K]):
    """What ``load_or_build`` made ready: the kernel, its file, and what to warn about once
    (None when nothing went wrong; a missing file is no problem: it is the first start)."""

    kernel: K
    path: Path
    problem: str | None


def load_or_build(spec: KernelSpec[K], folder: Path) -> Prepared[K]:
    """``spec``'s kernel as machine code: from ``folder`` when a whole file built for this
    source, CPU and llvmlite, and proven here, is there; else built with numba (seconds)
    and saved there for the next start (a regular file that failed is set aside first; a
    FIFO, a device or a link is left and named, and the build used as it is).

    Raises:
        ImportError: no llvmlite or (to build) no numba.
        KernelProofError: the kernel built here failed its proof (it is not used).
        Exception: numba could not compile the kernel, or llvmlite not load it.
    """
    kernel_key = key(spec.source())
    path = folder / file_name(kernel_key, spec.name)
    try:
        writable_target(path, follow_links=False)
    except NotRegularFile as error:  # never read, followed or replaced
        left = f"{path} is {error.strerror}: it is left as it is, and the {spec.name} is compiled in each process"
        return Prepared(spec.loaded(_build(spec, kernel_key), spec.args), path, left)
    except OSError:  # no folder to hold it (a file in the way): found out below
        pass
    problem = _after_a_crash(path)
    if problem is None and os.path.lexists(path):
        try:
            return Prepared(_load_watched(spec, read(path, kernel_key), path), path, None)
        except Exception as error:  # damaged, foreign or unloadable: build it again
            problem = f"{error}; {_set_aside(path, 'refused')}compiled it again"
    code = _build(spec, kernel_key)
    try:
        save_proven(spec, path, kernel_key, code)
    except (OSError, KernelFileError) as error:  # not saved, so never proven: this process's own build is used
        reason = error.strerror or error if isinstance(error, OSError) else error
        saving = f"cannot save the compiled {spec.name} as {path} ({reason}): it is compiled again next start"
        problem = f"{problem}, but {saving}" if problem else saving
        return Prepared(spec.loaded(code, spec.args), path, problem)
    return Prepared(_load_watched(spec, code, path), path, problem)


def _build(spec: KernelSpec[Any], kernel_key: str) -> KernelCode:
    """``spec``'s kernel built with numba, once per process."""
    code = _built.get(kernel_key)
    if code is None:
        # Said (logging's INFO) where a command asks: the wait is the first start's, once.
        LOG.info("compiling the fast %s: once for this install (5-20 s); later starts load it at once", spec.name)
        started = time.monotonic()
        code = _built[kernel_key] = build(spec)
        LOG.info("the fast %s is compiled (%.0f s)", spec.name, time.monotonic() - started)
    return code


def _set_aside(path: Path, word: str) -> str:
    """Keep a kernel file that failed beside itself (a regular file only); the words said."""
    try:
        moved = set_aside(path, word)
    except OSError:
        return ""
    return f"kept aside as {moved.name}; "


def _markers(path: Path) -> list[Path]:
    """The loading markers of ``path`` left beside it (``.NAME.loading-<pid>``)."""
    try:
        return sorted(path.parent.glob(f".{path.name}.loading-*"))
    except OSError:
        return []


def _after_a_crash(path: Path) -> str | None:
    """Set ``path`` aside when a process died of a crash while it loaded or first ran it (its
    marker left, holding the crash report); the words said, or None when none did.  The
    marker of a process that was killed or exited (no report) only goes."""
    crashed = False
    mine = this_process()
    for marker in _markers(path):
        try:
            found = read_regular(marker, MARKER_LIMIT, follow_links=False)
        except OSError:
            continue  # not a marker this game wrote: left as it is
        owner = found.split(b"\n", 1)[0].decode("ascii", "replace").strip()
        if owner == mine or owner_is_running(owner):
            continue  # loading now, in this process or another
        crashed = crashed or b"Fatal Python error" in found
        try:
            remove_own(marker)
        except OSError:
            pass
    if not crashed:
        return None
    return f"the last process that loaded {path} crashed in it; {_set_aside(path, 'crashed')}compiled it again"


MARKER_LIMIT = 256 * 1024
"""The most of a marker read (an owner line and a crash report of a few kilobytes)."""


@contextmanager
def _watched(path: Path) -> Iterator[None]:
    """A marker beside ``path`` while its code loads or first runs: this process's name, and
    (``faulthandler`` pointed at it) the report of a crash in there.  No marker where none
    can be made (a read-only folder): the code runs all the same."""
    marker = path.with_name(f".{path.name}.loading-{os.getpid()}")
    try:
        create_new(marker, this_process().encode("ascii") + b"\n", durable=False)  # no sync: a hot path
        report = os.open(marker, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        yield
        return
    was_on = faulthandler.is_enabled()
    faulthandler.enable(file=report, all_threads=False)
    try:
        yield
    finally:
        faulthandler.disable()
        if was_on and sys.__stderr__ is not None:
            try:
                faulthandler.enable(file=sys.__stderr__)
            except (ValueError, OSError):  # no file descriptor to report to
                pass
        os.close(report)
        try:
            remove_own(marker)
        except OSError:
            pass


def _load_watched(spec: KernelSpec[K], code: KernelCode, path: Path) -> K:
    """``code`` (the file at ``path``'s) loaded and, later, first run with a marker beside
    the file (``_watched``), so that a crash in either sets the file aside at the next start."""
    with _watched(path):
        kernel = spec.loaded(code, spec.args)
    kernel.watch_first_call(lambda: _watched(path))
    return kernel


class KernelLoader(Generic[K]):
    """One kernel, loaded once per process and lazily, by the rules at the top of this
    module: ``prepare`` blocks (a file load, or a build on the first start);
    ``prepare_in_background`` does it in a daemon thread; ``kernel`` is the loaded kernel
    or None for the Python path (forced by ``CONNECT4_PURE_PYTHON``, or no llvmlite or
    numba, or any failure: warned once, never raised); ``status`` says which in words.

    ``noun`` names the kernel for the person ("solver", "search").  ``folder`` and
    ``forced`` are the cache folder and the pure-Python switch (tests may give others).
    """

    def __init__(
        self,
        spec: KernelSpec[K],
        noun: str,
        *,
        folder: Callable[[], Path] = cache_folder,
        forced: Callable[[], bool] = pure_python_forced,
    ):
        self.spec, self.noun, self.folder, self.forced = spec, noun, folder, forced
        self.state = "new"  # new, preparing, ready, failed
        self._path: Path | None = None
        self._loaded: K | None = None
        self._lock = threading.Lock()
        self._background: threading.Thread | None = None
        self._warned = False

    @property
    def path(self) -> Path | None:
        """The kernel file in use, or the one tried last (None before ``prepare``)."""
        return self._path

    def _warn(self, reason: str) -> None:
        """Say once per process that the Python path is used, and why."""
        if not self._warned:
            self._warned = True
            LOG.warning(
                "the fast (compiled) %s is not available (%s): using the slower pure-Python %s",
                self.noun,
                reason,
                self.noun,
            )

    def prepare(self) -> bool:
        """Load the kernel, or compile and save it; True when the compiled path is ready.

        Blocks (the first start of an install: several seconds); safe to call from any
        thread, and again (later calls return at once).  False means the Python path:
        forced by ``CONNECT4_PURE_PYTHON``, or no llvmlite or numba, or a failure (warned once).
        """
        if self.forced():
            return False
        with self._lock:
            if self.state in ("ready", "failed"):
                return self.state == "ready"
            self.state = "preparing"
            try:
                prepared = load_or_build(self.spec, self.folder())
            except ImportError as error:
                self.state = "failed"
                self._warn(f"numba or llvmlite is not installed: {error}")
                return False
            except Exception as error:  # numba, llvmlite or the file system: never a traceback
                self.state = "failed"
                self._warn(f"{type(error).__name__}: {error}")
                return False
            self._path, self._loaded = prepared.path, prepared.kernel
            if prepared.problem:
                LOG.warning("the compiled %s's cache: %s", self.noun, prepared.problem)
            self.state = "ready"
            return True

    def adopt(self, kernel: K, path: Path) -> None:
        """Use ``kernel`` (loaded from ``path``) from now on: the proving child's way in."""
        with self._lock:
            self._path, self._loaded, self.state = path, kernel, "ready"

    def prepare_in_background(self) -> threading.Thread:
        """Start ``prepare`` in a daemon thread (once); until it ends, ``kernel`` is None."""
        with self._lock:
            if self._background is None:
                self._background = threading.Thread(target=self.prepare, name=f"prepare-{self.spec.name}", daemon=True)
                self._background.start()
            return self._background

    def is_ready(self) -> bool:
        """True when the compiled path is in use (never blocks)."""
        return self.state == "ready" and not self.forced()

    def status(self) -> str:
        """One line for the person: "preparing the fast solver (first start only)"."""
        noun = self.noun
        if self.forced():
            return f"pure-Python {noun} ({PURE_PYTHON_ENV} is set)"
        return {
            "new": f"fast {noun} not loaded yet",
            "preparing": f"preparing the fast {noun} (first start only)",
            "ready": f"fast {noun} ready",
            "failed": f"fast {noun} unavailable: using the slower pure-Python {noun}",
        }[self.state]

    def kernel(self) -> K | None:
        """The loaded kernel, or None for the Python path.

        Prepares it first (blocking) unless a background preparation is under way, in
        which case the caller uses Python until it is done.
        """
        if self.forced():
            return None
        if self.state == "ready":
            return self._loaded
        background = self._background
        if background is not None and background.is_alive():
            return None
        return self._loaded if self.prepare() else None
