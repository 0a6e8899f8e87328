"""numba's internals that the kernel files read are still where ``ai.compiled.kernel_file`` looks.

numba has no public way to hand out a compiled function's object code, so
``kernel_file.machine_code`` reads private attributes (``NUMBA_INTERNALS``), and numba and
llvmlite are pinned to the minor versions tested (requirements.txt, pyproject.toml).  Here
a tiny function goes the kernels' whole road: compiled by numba as a C-callable entry, its
object code read through those attributes, loaded with llvmlite alone and called.  When a
numba release moves them, this fails naming what moved, so a bump of the pin is a
conscious step (the game itself would fall back to its Python searches, with one warning).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from ai.compiled import kernel_file

numba: Any = pytest.importorskip("numba")
ROOT = Path(__file__).resolve().parent.parent


def add_twice(a: int, b: int) -> int:
    return a + 2 * b


def tiny_cfunc() -> Any:
    return numba.cfunc("int64(int64, int64)", nopython=True, error_model="numpy")(add_twice)


def test_a_cfunc_keeps_its_machine_code_where_the_kernel_files_read_it():
    compiled = tiny_cfunc()
    where = f"numba {numba.__version__} moved an internal that ai/compiled/kernel_file.py reads"
    assert hasattr(compiled, "_library"), f"{where}: CFunc._library (the cfunc's code library)"
    library = compiled._library
    assert hasattr(library, "_final_module"), f"{where}: CodeLibrary._final_module (the linked LLVM module)"
    assert hasattr(library, "_codegen"), f"{where}: CodeLibrary._codegen (the code generator)"
    assert hasattr(library._codegen, "_tm"), f"{where}: CPUCodegen._tm (the LLVM target machine)"
    assert hasattr(library._codegen._tm, "emit_object"), f"{where}: CPUCodegen._tm.emit_object"


def test_the_machine_code_read_through_them_loads_and_runs_without_numba():
    code = kernel_file.machine_code(tiny_cfunc())
    assert code.symbol and code.code  # an object file, and the name of its entry
    loaded = kernel_file.LoadedKernel(code, "ii")
    assert loaded(5, 7) == 19


def test_a_missing_internal_is_named_in_the_error():
    class Moved:  # a cfunc from a numba that keeps its library elsewhere
        native_name = "entry"

    with pytest.raises(kernel_file.NumbaInternalsError, match=re.escape("CFunc._library")):
        kernel_file.machine_code(Moved())


def test_the_cpus_popcount_compiles_through_numbas_intrinsic_api():
    """The kernels' road again, never numba's own call path: once a kernel file is loaded,
    the names on numba's error paths point to a stub (``kernel_file._never_called``), so a
    numba function called through its dispatcher in that process would stop it."""
    popcount = kernel_file._native_popcount()

    def count(word: int, unused: int) -> int:
        return popcount(word)

    compiled = numba.cfunc("int64(int64, int64)", nopython=True, error_model="numpy")(count)
    loaded = kernel_file.LoadedKernel(kernel_file.machine_code(compiled), "ii")
    assert loaded(0b1011_0000_0001, 0) == 4
    assert loaded(-1, 0) == 64


def pins(text: str, name: str) -> tuple[str, str]:
    found = re.search(rf"{name}>=([\d.]+),<([\d.]+)", text)
    assert found, f"{name} is not pinned to a minor (>=X.Y,<X.Y+1)"
    return found.group(1), found.group(2)


@pytest.mark.parametrize("name", ["numba", "llvmlite"])
def test_the_installed_version_is_the_pinned_minor(name):
    """The pins in requirements.txt and pyproject.toml agree, and name what runs here."""
    module = pytest.importorskip(name)
    pinned = pins((ROOT / "requirements.txt").read_text(encoding="utf-8"), name)
    assert pins((ROOT / "pyproject.toml").read_text(encoding="utf-8"), name) == pinned
    low, high = (tuple(int(part) for part in version.split(".")[:2]) for version in pinned)
    installed = tuple(int(part) for part in module.__version__.split(".")[:2])
    assert low <= installed < high and high == (low[0], low[1] + 1), (name, module.__version__, pinned)
