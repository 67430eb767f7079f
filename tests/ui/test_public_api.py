"""App code uses Streamlit's documented `st.*` API only (docs/ARCHITECTURE.md §1 rule 7): no
imports of its internals, no private attribute of a Streamlit object. Internals are for tests
only."""

import ast
from pathlib import Path

import pytest

from conftest import ROOT

APP_CODE = sorted(
    [ROOT / "app.py"]
    + [
        path
        for folder in ("lessons", "ui", "data", "survey", "dp")
        for path in (ROOT / folder).rglob("*.py")
    ]
)
INTERNAL_MODULES = ("streamlit.runtime", "streamlit.dataframe_util", "streamlit.proto")


def findings(source: str) -> list[str]:
    """What in `source` reaches into Streamlit's internals."""
    tree = ast.parse(source)
    streamlit_names = {"streamlit"}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(INTERNAL_MODULES):
                    found.append(f"import {alias.name}")
                if alias.name.split(".")[0] == "streamlit":
                    streamlit_names.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module:
            full = [f"{node.module}.{alias.name}" for alias in node.names]
            if node.module.startswith(INTERNAL_MODULES) or any(
                name.startswith(INTERNAL_MODULES) for name in full
            ):
                found.append(f"from {node.module} import …")
            if node.module.split(".")[0] == "streamlit":
                streamlit_names.update(alias.asname or alias.name for alias in node.names)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            if node.attr.startswith("__") and node.attr.endswith("__"):
                continue
            root = node.value
            while isinstance(root, (ast.Attribute, ast.Call, ast.Subscript)):
                root = root.func if isinstance(root, ast.Call) else root.value
            if isinstance(root, ast.Name) and root.id in streamlit_names:
                found.append(ast.unparse(node))
    return found


@pytest.mark.parametrize("path", APP_CODE, ids=[p.relative_to(ROOT).as_posix() for p in APP_CODE])
def test_app_code_uses_only_the_documented_streamlit_api(path: Path) -> None:
    assert findings(path.read_text()) == [], path.relative_to(ROOT)


@pytest.mark.parametrize(
    "source",
    [
        "from streamlit import dataframe_util\n",
        "from streamlit.runtime.scriptrunner import get_script_run_ctx\n",
        "import streamlit.proto.Delta_pb2\n",
        "import streamlit as st\nst.session_state._state\n",
        "import streamlit as st\nx = st.query_params._get_data()\n",
    ],
)
def test_each_kind_of_internal_use_is_caught(source: str) -> None:
    assert findings(source), source


def test_public_use_is_not_flagged() -> None:
    source = "import streamlit as st\nst.session_state['x'] = 1\nst.query_params.get_all('a')\n"
    assert findings(source) == []
