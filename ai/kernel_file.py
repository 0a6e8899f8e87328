"""The compiled searches, kept as machine code in files of the game's own.

numba compiles a core's search once (``ai.solver_core.negamax``, the exact solver's;
``ai.search_core.search_pass``, the play search's: a ``KernelSpec`` each), behind a
C-callable entry that takes plain pointers (the searches allocate nothing, so they need
no numba runtime).  The machine code is saved in the user's cache folder
(``ai.solver_core.cache_folder``), one file per core, with a header that names what it
was built from (the core's source and this file's, the CPU, llvmlite's version) and a
checksum.  Later processes load that file with llvmlite alone and call the search
through ctypes (which lets other threads run meanwhile): about 0.1 s, where importing
numba and loading numba's own cache took about 0.6 s before any work.
``KernelLoader`` is the lazy, warn-once loading the play search uses (the solver keeps
its own copy of the same rules in ``ai.solver_core``).

File layout: ``MAGIC``, one line of JSON (``key``, ``symbol``, ``size``, ``sha256``,
``external``), then ``size`` bytes of object code.  Anything else (truncated, garbage,
built for another source or CPU) is a ``KernelFileError``, and the caller builds anew.

Only ``build`` imports numba; ``load`` and ``read`` import llvmlite (which numba brings).
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import logging
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any

import numpy as np

LOG = logging.getLogger(__name__)
MAGIC = b"connect4 solver kernel 1\n"
FIELDS = 16
"""Columns of the search's scratch rows (``ai.solver_core.FIELDS``; 16 ranks of moves)."""


class KernelFileError(Exception):
    """The kernel file is missing, damaged, or was built for something else."""


@dataclass(frozen=True)
class KernelCode:
    """Machine code of the search: the object file's bytes, the entry's symbol, and the
    external names the code mentions (only on paths the search never takes)."""

    symbol: str
    code: bytes
    external: tuple[str, ...]


def _llvm() -> Any:
    """llvmlite's binding layer, with the native target ready (raises ImportError)."""
    import llvmlite.binding as llvm

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


def file_name(kernel_key: str, name: str = "solver") -> str:
    return f"{name}-{kernel_key[:24]}.kernel"


def _native_popcount() -> Any:
    """numba's view of the CPU's popcount instruction (LLVM's ``ctpop``)."""
    from numba.core.extending import intrinsic

    @intrinsic
    def ctpop(typingctx: Any, bits: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return bits(bits), codegen

    return ctpop


def build(core: ModuleType, spec: KernelSpec | None = None) -> KernelCode:
    """Compile ``core``'s search (``spec.entry``, with the helpers it calls) with numba
    into object code, behind the C-callable entry of ``spec.wrapper``.

    Raises:
        ImportError: no numba.
        Exception: whatever numba raises when it cannot compile.
    """
    import numba

    spec = spec or SOLVER
    nb: Any = numba  # numba's decorators and types are untyped
    jit = nb.njit(nogil=True, error_model="numpy")
    # The entry and its helpers compiled in a namespace of their own, where each finds the
    # others compiled (the module itself is left alone).
    names = dict(vars(core))
    for name in (*spec.helpers, spec.entry):
        function = getattr(core, name)
        names[name] = jit(FunctionType(function.__code__, names, name, function.__defaults__))
    if spec.native_popcount:
        names["popcount"] = _native_popcount()
    i64, ptr = nb.types.int64, nb.types.CPointer(nb.types.int64)
    signature = i64(*(ptr if kind == "p" else i64 for kind in spec.args))
    entry = spec.wrapper(names[spec.entry], nb.carray)
    compiled = nb.cfunc(signature, nopython=True, error_model="numpy")(entry)
    library = compiled._library
    module = library._final_module
    external = sorted(
        {f.name for f in module.functions if f.is_declaration and not f.name.startswith("llvm.")}
        | {g.name for g in module.global_variables if g.is_declaration}
    )
    code = library._codegen._tm.emit_object(module)
    return KernelCode(compiled.native_name, bytes(code), tuple(external))


def write(path: Path, kernel_key: str, kernel: KernelCode) -> None:
    """Save ``kernel`` at ``path`` whole or not at all (a temporary file, then a rename).

    Raises:
        OSError: the folder cannot be made or written.
    """
    header = {
        "key": kernel_key,
        "symbol": kernel.symbol,
        "size": len(kernel.code),
        "sha256": hashlib.sha256(kernel.code).hexdigest(),
        "external": list(kernel.external),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".kernel-", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(MAGIC + json.dumps(header).encode() + b"\n" + kernel.code)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def read(path: Path, kernel_key: str) -> KernelCode:
    """The kernel saved at ``path`` if it is whole and was built for ``kernel_key``.

    Raises:
        KernelFileError: missing, unreadable, damaged or built for something else.
    """
    try:
        data = path.read_bytes()
    except OSError as error:
        raise KernelFileError(f"cannot read {path}: {error.strerror or error}") from None
    if not data.startswith(MAGIC):
        raise KernelFileError(f"{path} is not a kernel file")
    line_end = data.find(b"\n", len(MAGIC))
    try:
        header = json.loads(data[len(MAGIC) : line_end])
        code = data[line_end + 1 :]
        symbol, size, digest = str(header["symbol"]), int(header["size"]), str(header["sha256"])
        external = tuple(str(name) for name in header["external"])
        built_for = str(header["key"])
    except (ValueError, KeyError, TypeError) as error:
        raise KernelFileError(f"{path} has a damaged header ({error})") from None
    if built_for != kernel_key:
        raise KernelFileError(f"{path} was built for another solver, CPU or llvmlite")
    if len(code) != size or hashlib.sha256(code).hexdigest() != digest:
        raise KernelFileError(f"{path} is damaged ({len(code)} of {size} bytes, or a wrong checksum)")
    return KernelCode(symbol, code, external)


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
        kinds = [ctypes.c_void_p if kind == "p" else ctypes.c_int64 for kind in args]
        self.entry = ctypes.CFUNCTYPE(ctypes.c_int64, *kinds)(address)

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


class SolverKernel(LoadedKernel):
    """The solver's machine code as ``ai.solver`` calls it: ``kernel(words, slots, params,
    ...)`` (the scratch rows are allocated here)."""

    def __call__(  # the solver's arrays, not raw addresses
        self,
        words: np.ndarray,
        slots: int,
        params: np.ndarray,
        columns: np.ndarray,
        state: np.ndarray,
        flag: np.ndarray,
        current: int,
        mask: int,
        played: int,
        alpha: int,
        beta: int,
        wins: int,
    ) -> int:
        depth = int(params[0]) - int(played) + 2  # params[P_CELLS]: the most plies still to come, + 2
        scratch = np.zeros((3, depth, FIELDS), np.int64)
        words_p, params_p, columns_p, state_p, flag_p, scratch_p = addresses(
            words, params, columns, state, flag, scratch
        )
        result: int = self.entry(
            words_p, len(words), slots, params_p, columns_p, len(columns), state_p, flag_p, scratch_p, depth,
            current, mask, played, alpha, beta, wins,
        )  # fmt: skip
        return result


def _solver_entry(search: Any, carray: Any) -> Any:
    """The solver's C entry: ``ai.solver_core.negamax`` over plain pointers."""

    def entry(  # type: ignore[no-untyped-def]
        words_p, n_words, slots, params_p, columns_p, n_columns, state_p, flag_p, scratch_p, depth, c, m, p, a, b, w
    ):
        return search(
            carray(words_p, (n_words,)),
            slots,
            carray(params_p, (8,)),
            carray(columns_p, (n_columns,)),
            carray(state_p, (3,)),
            carray(flag_p, (1,)),
            carray(scratch_p, (3, depth, FIELDS)),
            c,
            m,
            p,
            a,
            b,
            w,
        )

    return entry


@dataclass(frozen=True)
class KernelSpec:
    """What to compile from a core module and how to call it.

    ``entry`` is the search, ``helpers`` the core's functions it calls (compiled with it);
    ``wrapper(search, carray)`` makes the C entry from the compiled search; ``args`` are
    the entry's arguments, ``p`` a pointer to int64s, ``i`` an int64; ``native_popcount``
    compiles the core's ``popcount`` as the CPU's instruction."""

    name: str
    entry: str
    helpers: tuple[str, ...]
    wrapper: Callable[[Any, Any], Any]
    args: str
    native_popcount: bool = False
    loaded: type[LoadedKernel] = LoadedKernel


SOLVER = KernelSpec(
    "solver",
    "negamax",
    ("popcount", "threats", "slot_and_check"),
    _solver_entry,
    "piippipppiiiiiii",
    loaded=SolverKernel,
)
"""``ai.solver_core``'s kernel."""

_built: dict[str, KernelCode] = {}
"""Kernels built in this process, by key: a second rebuild (tests) compiles nothing."""


@dataclass
class Prepared:
    """What ``load_or_build`` made ready: the kernel, its file, and what to warn about once
    (None when nothing went wrong; a missing file is no problem: it is the first start)."""

    kernel: LoadedKernel  # ``spec.loaded``: a SolverKernel for the solver
    path: Path
    problem: str | None


def load_or_build(core: ModuleType, folder: Path, spec: KernelSpec | None = None) -> Prepared:
    """The search of ``core`` as machine code: from ``folder`` when a whole file built
    for this source, CPU and llvmlite is there; else built with numba (seconds) and saved
    there for the next start.

    Raises:
        ImportError: no llvmlite or (to build) no numba.
        Exception: numba could not compile the search, or llvmlite not load it.
    """
    spec = spec or SOLVER
    source = Path(str(core.__file__)).read_bytes() + Path(__file__).read_bytes()
    kernel_key = key(source)
    path = folder / file_name(kernel_key, spec.name)
    problem = None
    if path.exists() or path.is_symlink():
        try:
            return Prepared(spec.loaded(read(path, kernel_key), spec.args), path, None)
        except Exception as error:  # damaged, or unloadable: build it again
            problem = f"{error}; compiled it again"
    code = _built.get(kernel_key)
    if code is None:
        code = _built[kernel_key] = build(core, spec)
    loaded = spec.loaded(code, spec.args)
    try:
        write(path, kernel_key, code)
    except OSError as error:
        where = error.filename or folder
        saving = f"cannot save the compiled {spec.name} in {where} ({error.strerror or error}): it is compiled again next start"
        problem = f"{problem}, but {saving}" if problem else saving
    return Prepared(loaded, path, problem)


class KernelLoader:
    """Loads a core's kernel once per process, lazily, as ``ai.solver_core`` describes:
    ``prepare`` blocks (a file load, or a build on the first start), ``kernel`` is the
    loaded kernel or None for the Python path (forced by ``forced()``, or no llvmlite or
    numba, or any failure: warned once, never raised)."""

    def __init__(
        self,
        core: ModuleType,
        spec: KernelSpec,
        folder: Callable[[], Path],
        forced: Callable[[], bool],
        what: str,
        fallback: str,
    ):
        self.core, self.spec, self.folder, self.forced = core, spec, folder, forced
        self.what, self.fallback = what, fallback  # "the fast search", "the Python search"
        self.state = "new"  # new, preparing, ready, failed
        self.path: Path | None = None
        self._loaded: Any = None
        self._lock = threading.Lock()
        self._background: threading.Thread | None = None
        self._warned = False

    def _warn(self, reason: str) -> None:
        if not self._warned:
            self._warned = True
            LOG.warning("%s is not available (%s): using %s", self.what, reason, self.fallback)

    def prepare(self) -> bool:
        """Load the kernel, or compile and save it; True when it is ready (later calls
        return at once; safe from any thread)."""
        if self.forced():
            return False
        with self._lock:
            if self.state in ("ready", "failed"):
                return self.state == "ready"
            self.state = "preparing"
            try:
                prepared = load_or_build(self.core, self.folder(), self.spec)
            except ImportError as error:
                self.state = "failed"
                self._warn(f"numba or llvmlite is not installed: {error}")
                return False
            except Exception as error:  # numba, llvmlite or the file system: never a traceback
                self.state = "failed"
                self._warn(f"{type(error).__name__}: {error}")
                return False
            self.path, self._loaded = prepared.path, prepared.kernel
            if prepared.problem:
                LOG.warning("%s's cache: %s", self.what, prepared.problem)
            self.state = "ready"
            return True

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

    def kernel(self) -> Any:
        """The loaded kernel, or None for the Python path; prepares it first (blocking)
        unless a background preparation is under way."""
        if self.forced():
            return None
        if self.state == "ready":
            return self._loaded
        background = self._background
        if background is not None and background.is_alive():
            return None
        return self._loaded if self.prepare() else None
