"""The rules a lesson's files keep, as functions that return what breaks them (so that a
test can show they fail, and the recipe in CONTRIBUTING.md can be held to them): which
modules a lesson may import (docs/ARCHITECTURE.md §1, rule 5: its own, and the catalogue),
what a page may not do (rule 2), and which controls may rerun a whole page (rule 4)."""

from __future__ import annotations

import ast

from lessons.catalogue import HOME, LESSONS

ORDER = {lesson.folder: i for i, lesson in enumerate((HOME, *LESSONS))}
SHARED = {"lessons.catalogue"}

# The only widgets a lesson may create outside every fragment (a press on one reruns and
# re-sends the whole page), each with what it drives beyond one section. Every other control,
# every "Show the numbers" and "The code behind this chart" sits in the fragment of its
# section, so moving or opening it re-sends that section only
# (tests/lessons/test_every_lesson.py; the browser sweep moves these first).
PAGE_WIDE = {
    "beyond_global": {"bg_n": "the group whose median sections 1, 3 and 4 release"},
    "binary_rr": {"brr_ask": "the question every section surveys"},
    "census_topdown": {
        f"ct_weight_{level}": "each level's share of ρ, in sections 1, 2 and 3"
        for level in ("nation", "region", "zip3", "zip5")
    },
    "central_vs_local": {"cvl_q": "the question both models answer, in every section"},
    "choosing": {"choose_column": "the column sections 1 to 4 choose from"},
    "clamping": {
        "clamp_col": "the column every section sums",
        "clamp_n": "the people every section sums over",
    },
    "coin_flip": {"cf_ask": "the question every section asks"},
    "definition": {"def_person": "the person removed from D, in every section"},
    "kary_rr": {"kary_attribute": "the attribute every section reports"},
    "laplace": {
        "lap_q": "the count sections 1 and 2 release",
        "lap_age": "the count sections 1 and 2 release",
    },
    "private_ml": {
        "pml_cols": "the columns every section privatizes",
        "pml_mech": "the mechanism every section uses",
    },
    "reconstruction": {
        "recon_zip": "the block every section attacks",
        "recon_size": "the block every section attacks",
    },
    "sparse_vector": {"svt_threshold": "the threshold of sections 1, 2 and 3"},
    "synthetic": {"syn_columns": "the table every section builds"},
    "unary_encoding": {
        "ue_attribute": "the attribute every section encodes",
        "ue_value": "the value every section's reports are about",
    },
}


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
