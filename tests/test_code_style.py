"""Migrations that are finished stay finished: one cache for results (ui.datasets.cached,
docs/ARCHITECTURE.md §1 rule 3) and no formatter escapes. Each rule is a function that
returns what breaks it, shown to fail on a sample."""

from __future__ import annotations

import ast
import subprocess

import pytest

from conftest import ROOT

# st.cache_resource is for resources, not results: a connection pool, a registered
# component, the census file itself (the one loader ui.datasets.cached builds on).
RESOURCES = {
    "ui/activity.py": {"class_store", "activity_store"},
    "ui/private_choice.py": {"_component"},
    "ui/private_progress.py": {"_component"},
    "ui/datasets.py": {"census"},
}
RESULT_CACHES = ("functools.cache", "functools.lru_cache", "st.cache_data", "lru_cache", "cache")


def cache_problems(path: str, source: str) -> list[str]:
    """Every cache of `source` but ui.datasets.cached and the resources listed above."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for decorator in node.decorator_list:
            name = ast.unparse(decorator.func if isinstance(decorator, ast.Call) else decorator)
            if name in RESULT_CACHES:
                out.append(f"{path}: {node.name} is cached with {name}, not datasets.cached")
            elif name == "st.cache_resource" and node.name not in RESOURCES.get(path, set()):
                out.append(f"{path}: {node.name} is a st.cache_resource that is not a resource")
    return out


def app_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    return [
        name
        for name in listed.stdout.split()
        if name.endswith(".py") and name.split("/")[0] in {"lessons", "ui"}
    ]


def test_results_are_cached_by_the_one_dataset_aware_cache() -> None:
    found = []
    for name in app_files():
        found += cache_problems(name, (ROOT / name).read_text(encoding="utf-8"))
    assert found == []


def test_the_cache_rule_would_catch_another_cache() -> None:
    sample = (
        "import functools\nimport streamlit as st\n\n"
        "@functools.lru_cache(maxsize=4)\ndef a(): ...\n\n"
        "@st.cache_data(show_spinner=False)\ndef b(): ...\n\n"
        "@st.cache_resource\ndef c(): ...\n\n"
        "@datasets.cached(max_entries=2)\ndef d(): ...\n"
    )
    assert [p.split(": ")[1].split(" ")[0] for p in cache_problems("x.py", sample)] == [
        "a",
        "b",
        "c",
    ]


@pytest.mark.parametrize("marker", ["# fmt: skip", "# fmt: off"])
def test_no_line_escapes_the_formatter(marker: str) -> None:
    listed = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True)
    found = [
        f"{name}:{number + 1}"
        for name in listed.stdout.split()
        if name != "tests/test_code_style.py"
        for number, line in enumerate((ROOT / name).read_text(encoding="utf-8").split("\n"))
        if line.rstrip().endswith(marker)
    ]
    assert found == []
