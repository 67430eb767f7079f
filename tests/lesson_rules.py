"""The rules a lesson's files keep, as functions that return what breaks them (so that a
test can show they fail, and the recipe in CONTRIBUTING.md can be held to them): which
modules a lesson may import (docs/ARCHITECTURE.md §1, rule 5: its own, and the catalogue)
and what a page may not do (rule 2)."""

from __future__ import annotations

import ast

from lessons.catalogue import HOME, LESSONS

ORDER = {lesson.folder: i for i, lesson in enumerate((HOME, *LESSONS))}
SHARED = {"lessons.catalogue"}


def _lesson_imports(tree: ast.Module) -> list[tuple[str, bool]]:
    """(module, at the top of the file) for every import of a module under lessons/; `from
    lessons.x import a, b` imports the modules lessons.x.a and lessons.x.b."""
    top = {id(node) for node in tree.body}
    found: list[tuple[str, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            parts = node.module.split(".")
            if len(parts) == 2 and parts[0] == "lessons" and parts[1] in ORDER:
                names = [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                names = [node.module]
        else:
            continue
        found += [(name, id(node) in top) for name in names if name.split(".")[0] == "lessons"]
    return found


def problems(folder: str, filename: str, source: str) -> list[str]:
    """What `lessons/<folder>/<filename>` imports against the rule, in words."""
    out = []
    for module, at_top in _lesson_imports(ast.parse(source)):
        parts = module.split(".")
        where = f"{folder}/{filename} imports {module}"
        if not at_top:
            out.append(f"{where} inside a function or block (imports go at the top)")
        if module in SHARED or parts[1] == folder:
            continue
        if parts[1] not in ORDER:
            out.append(f"{where}, which is not a lesson or the catalogue")
        else:  # what two lessons share lives in dp/, data/ or ui/
            out.append(f"{where}: a lesson imports no other lesson (dp/, data/ or ui/ instead)")
    return out


TABLE_CALLS = {"st.table", "st.dataframe", "st.data_editor"}


def page_problems(source: str) -> list[str]:
    """What a page.py does against rule 2: no numpy, pandas or altair import, no
    `@st.cache_*`, and no table drawn but through ui.tables (st.table, st.dataframe)."""
    tree = ast.parse(source)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        else:
            names = []
        out += [f"imports {n}" for n in names if n.split(".")[0] in {"numpy", "pandas", "altair"}]
        if isinstance(node, ast.Attribute) and ast.unparse(node).startswith("st.cache_"):
            out.append(f"caches with {ast.unparse(node)}")
        if isinstance(node, ast.Attribute) and ast.unparse(node) in TABLE_CALLS:
            out.append(f"draws a table with {ast.unparse(node)}")
    return out
