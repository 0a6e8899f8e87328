"""House rules a reader relies on: no god classes, one definition of the moves-to-end
arithmetic, and no guessing in the play screen of who decided a move."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LONGEST_CLASS = 450


def sources() -> list[Path]:
    return sorted(p for package in ("ai", "game") for p in (ROOT / package).rglob("*.py"))


def test_no_class_is_over_450_lines():
    long = []
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                lines = node.end_lineno - node.lineno + 1
                if lines > LONGEST_CLASS:
                    long.append(f"{path.relative_to(ROOT)}:{node.name} ({lines} lines)")
    assert not long, long


def test_the_moves_to_end_arithmetic_is_written_once():
    """``cells // 2 + 1 - abs(score)`` (the winner's discs at the end) lives in ai/exact.py."""
    pattern = re.compile(r"//\s*2\s*\+\s*1\s*-\s*abs\(")
    places = [str(p.relative_to(ROOT)) for p in sources() if pattern.search(p.read_text(encoding="utf-8"))]
    assert places == ["ai/exact.py"], places


def test_the_play_screen_reads_who_decided_never_guesses_it():
    for name in ("play.py", "play_text.py", "play_view.py", "play_jobs.py"):
        text = (ROOT / "game" / "app" / "scenes" / name).read_text(encoding="utf-8")
        assert "depth == 0" not in text and "import re" not in text, name


def test_no_test_starts_the_app_but_through_the_window_fixtures():
    """``app``, ``make_app`` and ``window_script`` (tests/conftest.py) mark each test that
    uses them ``window``; a test that built the App itself would escape the mark."""
    builds = re.compile(r"\bApp\(|^\s*from game\.app\.loop import[^\n]*\bApp\b|\bloop\.App\b", re.MULTILINE)
    tests = sorted(p for p in (ROOT / "tests").rglob("*.py") if p.name != "conftest.py")
    offenders = [str(p.relative_to(ROOT)) for p in tests if builds.search(p.read_text(encoding="utf-8"))]
    assert not offenders, f"build the App through make_app or window_script: {offenders}"
    conftest = (ROOT / "tests" / "conftest.py").read_text(encoding="utf-8")
    from tests.conftest import WINDOW_FIXTURES

    for node in ast.parse(conftest).body:
        if isinstance(node, ast.FunctionDef) and any("fixture" in ast.unparse(d) for d in node.decorator_list):
            source = ast.get_source_segment(conftest, node) or ""
            if re.search(r"\bApp\b|WINDOW_PRELUDE", source):
                assert node.name in WINDOW_FIXTURES, f"{node.name} starts the App: add it to WINDOW_FIXTURES"


def test_a_window_fixture_marks_its_test(request, make_app):
    assert request.node.get_closest_marker("window") is not None


def markdown_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for the page's headings (lower case, punctuation dropped, - for spaces)."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
    headings = re.findall(r"^#{1,6} (.+)$", text, flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


def test_the_readme_is_a_front_door_of_at_most_300_lines():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines: move the manual's parts to docs/"
    assert "docs/user-guide.md" in "\n".join(lines)


def test_every_relative_link_of_the_readme_and_docs_resolves():
    broken = []
    for page in markdown_pages():
        text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto: ...
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, broken


LONGEST_FUNCTION = 80
LONG_FOR_SPEED = {
    "ai/compiled/solver_kernel.py:negamax": "the compiled kernel (numba): one function, its recursion an explicit stack",
    "ai/solver.py:PythonNegamax._negamax": "the kernel's Python twin, node for node, which the search down to "
    "the opening book runs: split into calls, it ran 18-28% slower",
    "ai/compiled/search_kernel.py:search_pass": "the play search's compiled pass (numba): its recursion an explicit stack",
}
"""The hot loops allowed to be long: their contract is written at their top."""


def own_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """A function's lines without those of the functions and classes defined inside it
    (each of those is measured on its own)."""
    inner: list[ast.stmt] = []

    def visit(parent: ast.AST) -> None:
        for child in ast.iter_child_nodes(parent):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner.append(child)
            else:
                visit(child)

    visit(node)
    return _span(node) - sum(_span(child) for child in inner)


def _span(node: ast.stmt) -> int:
    return (node.end_lineno or node.lineno) - node.lineno + 1


def function_lengths(path: Path) -> dict[str, int]:
    """``Class.method`` (or ``function``, ``outer.inner``) of a file: its own lines."""
    found: dict[str, int] = {}

    def walk(parent: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(parent):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                if not isinstance(child, ast.ClassDef):
                    found[name] = own_lines(child)
                walk(child, name + ".")
            else:
                walk(child, prefix)

    walk(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def test_the_length_leaves_out_what_is_defined_inside(tmp_path):
    source = tmp_path / "sample.py"
    source.write_text("class A:\n    def f(self):\n        def g():\n            return 1\n\n        return g()\n")
    assert function_lengths(source) == {"A.f": 3, "A.f.g": 2}


def test_no_function_is_over_80_lines():
    """Outside the window (game/app has none over 80 either) and the hot loops allowed above."""
    long = []
    for path in sources():
        for name, lines in function_lengths(path).items():
            key = f"{path.relative_to(ROOT)}:{name}"
            if lines > LONGEST_FUNCTION and key not in LONG_FOR_SPEED:
                long.append(f"{key} ({lines} lines)")
    assert not long, long
    for key in LONG_FOR_SPEED:  # still there, still long: else it leaves the list
        file, name = key.split(":")
        assert function_lengths(ROOT / file).get(name, 0) > LONGEST_FUNCTION, key
