"""The shape of the tree, measured from its source: the import graph between the course's own
modules has no cycle, every top-level function and class is used somewhere, and homework
comes one module per lesson in both halves. `python tests/test_architecture.py` prints the
figures a restructure reports (lines per folder, the graph's depth and cycles)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ("app.py", "data", "deploy", "dp", "grading", "homework", "lessons", "survey", "ui")


def tracked(pattern: str = "*.py") -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", pattern],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [Path(name) for name in out.split() if (ROOT / name).exists()]


def modules() -> dict[str, Path]:
    """The course's own modules (not tests, benches or CI), by dotted name."""
    found = {}
    for path in tracked():
        if path.parts[0] not in APP:
            continue
        name = ".".join(path.with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The known modules `name` imports, anywhere in it (inside functions too). `from p import
    m` is an import of p.m when m is a module, else of p."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def resolve(dotted: str) -> str | None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    found = set()
    for node in ast.walk(ast.parse((ROOT / path).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        else:
            continue
        found |= {r for t in targets if (r := resolve(t)) and r != name}
    return found


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports_of(name, path, set(found)) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def depth(edges: dict[str, set[str]]) -> int:
    """The longest import chain that visits no module twice."""
    memo: dict[str, int] = {}
    visiting: set[str] = set()

    def longest(v: str) -> int:
        if v not in memo:
            visiting.add(v)
            memo[v] = 1 + max((longest(w) for w in edges[v] if w not in visiting), default=0)
            visiting.discard(v)
        return memo[v]

    return max(longest(v) for v in edges)


def test_the_course_has_no_import_cycle() -> None:
    assert cycles(graph()) == []


# The imports between folders, as docs/ARCHITECTURE.md's table lists them.
BETWEEN_FOLDERS = {
    "app": {"lessons", "ui"},
    "lessons": {"ui", "dp", "data", "survey"},
    "ui": {"dp", "data", "survey", "homework"},
    "homework": {"dp", "ui", "lessons", "grading"},
    "grading": {"homework", "dp"},
    "survey": {"dp"},
    "deploy": {"lessons", "ui"},
    "dp": set(),
    "data": set(),
}


def test_the_imports_between_folders_are_the_documented_ones() -> None:
    found: dict[str, set[str]] = {folder: set() for folder in BETWEEN_FOLDERS}
    for name, targets in graph().items():
        found[name.split(".")[0]] |= {t.split(".")[0] for t in targets} - {name.split(".")[0]}
    assert found == BETWEEN_FOLDERS
    table = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    for folder, targets in BETWEEN_FOLDERS.items():
        label = "`app.py`" if folder == "app" else f"`{folder}/`"
        rows = [line.split("|") for line in table.splitlines() if line.startswith("| `")]
        (row,) = ["|".join(cells) for cells in rows if label in cells[1]]
        assert all(t in row for t in targets) and (targets or "nothing" in row), row


def test_the_cycle_check_would_catch_one() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(edges) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_imports_inside_functions_and_relative_ones() -> None:
    edges = graph()
    assert "homework.otter" in edges["homework.build"]  # a top-level import
    assert "survey.activity" in edges["survey.game"]  # `from . import activity`
    assert "dp" in edges["lessons.laplace.model"]


def unused_definitions() -> list[str]:
    """Top-level functions and classes of the course's modules whose name appears nowhere
    else in the tracked Python and Markdown (tests count: a helper a test needs is used)."""
    texts = {p: (ROOT / p).read_text(encoding="utf-8") for p in [*tracked(), *tracked("*.md")]}
    words = Counter(w for text in texts.values() for w in re.findall(r"\w+", text))
    unused = []
    for path in modules().values():
        for node in ast.parse(texts[path]).body:
            defines = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            if defines and not node.name.startswith("__") and words[node.name] <= 1:
                unused.append(f"{path}:{node.lineno} {node.name}")
    return unused


def test_no_dead_code() -> None:
    assert unused_definitions() == []


def test_homework_is_one_module_per_lesson_in_both_halves() -> None:
    from homework.lessons import LESSONS, MODULES

    for half in ("homework", "grading"):
        files = {p.stem for p in (ROOT / half / "lessons").glob("*.py") if p.stem != "__init__"}
        assert files == set(LESSONS), half
    assert [m.__name__ for m in MODULES] == [f"homework.lessons.{name}" for name in LESSONS]


def report() -> None:
    edges = graph()
    lines = Counter()
    for path in tracked():
        lines[path.parts[0] if len(path.parts) > 1 else "."] += len(
            (ROOT / path).read_text(encoding="utf-8").splitlines()
        )
    for folder, count in sorted(lines.items()):
        print(f"{folder:12} {count:7,} lines of Python")
    print(f"{len(edges)} modules, {sum(map(len, edges.values()))} imports between them")
    print(f"longest import chain: {depth(edges)} modules; cycles: {cycles(edges) or 'none'}")
    lesson_edges = [
        (a, b)
        for a, targets in edges.items()
        for b in targets
        if a.startswith("lessons.")
        and b.startswith("lessons.")
        and a.split(".")[1] != b.split(".")[1]
        and b != "lessons.catalogue"
        and a.count(".") > 1
        and b.count(".") > 1
    ]
    print(f"imports of one lesson by another: {len(lesson_edges)}")


if __name__ == "__main__":
    report()
