"""The exact solver's compiled search, kept as machine code in a file of the game's own.

numba compiles ``ai.solver_core.negamax`` once, behind a C-callable entry that takes
plain pointers (the search allocates nothing, so it needs no numba runtime).  The machine
code is saved in the user's cache folder (``ai.solver_core.cache_folder``) with a header
that names what it was built from (the solver's source, the CPU, llvmlite's version) and
a checksum.  Later processes load that file with llvmlite alone and call the search
through ctypes (which lets other threads run meanwhile): about 0.1 s, where importing
numba and loading numba's own cache took about 0.6 s before any work.

File layout: ``MAGIC``, one line of JSON (``key``, ``symbol``, ``size``, ``sha256``,
``external``), then ``size`` bytes of object code.  Anything else (truncated, garbage,
built for another source or CPU) is a ``KernelFileError``, and the caller builds anew.

Only ``build`` imports numba; ``load`` and ``read`` import llvmlite (which numba brings).
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any

import numpy as np

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


def file_name(kernel_key: str) -> str:
    return f"solver-{kernel_key[:24]}.kernel"


def build(core: ModuleType) -> KernelCode:
    """Compile ``core.negamax`` (and the helpers it calls) with numba into object code.

    Raises:
        ImportError: no numba.
        Exception: whatever numba raises when it cannot compile.
    """
    import numba

    nb: Any = numba  # numba's decorators and types are untyped
    carray = nb.carray

    jit = nb.njit(nogil=True, error_model="numpy")
    # negamax with its helpers compiled in its globals (the module itself is left alone).
    names = dict(core.negamax.__globals__)
    for name in ("popcount", "threats", "slot_and_check"):
        names[name] = jit(getattr(core, name))
    search = jit(FunctionType(core.negamax.__code__, names, "negamax"))
    i64, ptr = nb.types.int64, nb.types.CPointer(nb.types.int64)
    signature = i64(ptr, i64, i64, ptr, ptr, i64, ptr, ptr, ptr, i64, i64, i64, i64, i64, i64, i64)

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


_ARGS = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
_ARGS += [ctypes.c_void_p] * 3 + [ctypes.c_int64] * 7
_ENTRY = ctypes.CFUNCTYPE(ctypes.c_int64, *_ARGS)


def _never_called() -> None:
    """What every external name of the code points to: they sit on the error paths of
    numba's entry wrapper, which a search that cannot raise never takes."""
    sys.stderr.write("connect4: the compiled solver took a path it never takes; stopping\n")
    os.abort()


_STUB = ctypes.CFUNCTYPE(None)(_never_called)
_STUB_DATA = (ctypes.c_void_p * 8)()


class LoadedKernel:
    """The machine code made callable: ``kernel(words, slots, params, ...)`` as the solver
    calls it (the scratch rows are allocated here).  Keeps its execution engine alive."""

    def __init__(self, kernel: KernelCode):
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
        self._entry = _ENTRY(address)

    def __call__(
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
        for array in (words, params, columns, state, flag):
            if array.dtype != np.int64 or not array.flags.c_contiguous:
                raise TypeError("the compiled search takes C-contiguous int64 arrays")
        result: int = self._entry(
            words.ctypes.data,
            len(words),
            slots,
            params.ctypes.data,
            columns.ctypes.data,
            len(columns),
            state.ctypes.data,
            flag.ctypes.data,
            scratch.ctypes.data,
            depth,
            current,
            mask,
            played,
            alpha,
            beta,
            wins,
        )
        return result


_built: dict[str, KernelCode] = {}
"""Kernels built in this process, by key: a second rebuild (tests) compiles nothing."""


@dataclass
class Prepared:
    """What ``load_or_build`` made ready: the kernel, its file, and what to warn about once
    (None when nothing went wrong; a missing file is no problem: it is the first start)."""

    kernel: LoadedKernel
    path: Path
    problem: str | None


def load_or_build(core: ModuleType, folder: Path) -> Prepared:
    """The search of ``core`` as machine code: from ``folder`` when a whole file built
    for this source, CPU and llvmlite is there; else built with numba (seconds) and saved
    there for the next start.

    Raises:
        ImportError: no llvmlite or (to build) no numba.
        Exception: numba could not compile the search, or llvmlite not load it.
    """
    source = Path(str(core.__file__)).read_bytes() + Path(__file__).read_bytes()
    kernel_key = key(source)
    path = folder / file_name(kernel_key)
    problem = None
    if path.exists() or path.is_symlink():
        try:
            return Prepared(LoadedKernel(read(path, kernel_key)), path, None)
        except Exception as error:  # damaged, or unloadable: build it again
            problem = f"{error}; compiled it again"
    code = _built.get(kernel_key)
    if code is None:
        code = _built[kernel_key] = build(core)
    loaded = LoadedKernel(code)
    try:
        write(path, kernel_key, code)
    except OSError as error:
        where = error.filename or folder
        saving = (
            f"cannot save the compiled solver in {where} ({error.strerror or error}): it is compiled again next start"
        )
        problem = f"{problem}, but {saving}" if problem else saving
    return Prepared(loaded, path, problem)
