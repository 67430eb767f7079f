"""Every lesson's "code behind the chart" snippet runs as printed and leaves its result."""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from lessons.catalogue import LESSONS
from ui.charts import histogram_frame
from ui.snippets import Snippet

ROOT = Path(__file__).resolve().parents[2]


def _snippet_modules() -> list:
    """Every lesson's snippets.py (a class activity that shows no code has none)."""
    names = [f"lessons.{lesson.folder}.snippets" for lesson in LESSONS]
    return [importlib.import_module(n) for n in names if importlib.util.find_spec(n) is not None]


def _all_snippets() -> dict[str, Snippet]:
    """Every Snippet defined in a lesson's snippets.py, by name (names are unique)."""
    found: dict[str, Snippet] = {}
    for module in _snippet_modules():
        for value in vars(module).values():
            if isinstance(value, Snippet) and value.name not in found:
                found[value.name] = value
    return found


SNIPPETS = _all_snippets()


def code_for(name: str, **params) -> str:
    return SNIPPETS[name].render(**params)


def test_snippet_names_are_unique_across_lessons() -> None:
    seen: dict[str, str] = {}
    for module in _snippet_modules():
        lesson = module.__name__.split(".")[1]
        for value in vars(module).values():
            if isinstance(value, Snippet) and value.__module__ != module.__name__:
                continue  # re-exported from an earlier lesson
            if isinstance(value, Snippet):
                assert seen.setdefault(value.name, lesson) == lesson, value.name


def run(code: str) -> dict:
    namespace: dict = {}
    exec(compile(code, "<snippet>", "exec"), namespace)  # noqa: S102 — our own templates
    return namespace


# Every snippet, filled with its examples, run in one fresh interpreter outside the app: from
# the repository root, where only dp/, data/ and installed packages may be imported (the app's
# own packages and Streamlit are refused), each in a namespace of its own.
OUTSIDE_THE_APP = r"""
import json, sys

REFUSED = {"streamlit", "altair", "ui", "lessons", "survey", "homework", "grading", "deploy"}

class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in REFUSED:
            raise ImportError(f"a snippet may not import {name}")
        return None

sys.meta_path.insert(0, Refuse())
found = {}
try:
    import ui  # noqa: F401
    found["(the refusal)"] = "ui was importable"
except ImportError:
    pass
for name, (code, result) in json.load(sys.stdin).items():
    namespace = {}
    try:
        exec(compile(code, f"<snippet {name}>", "exec"), namespace)
    except Exception as error:
        found[name] = f"raised {type(error).__name__}: {error}"
        continue
    frame = namespace.get(result)
    if type(frame).__name__ != "DataFrame":
        found[name] = f"left {result} as {type(frame).__name__}, not a DataFrame"
    elif len(frame) == 0 or frame.isna().any().any():
        found[name] = f"left {result} empty or with missing values"
    else:
        found[name] = "ok"
print(json.dumps(found))
"""


@pytest.fixture(scope="module")
def outside_the_app() -> dict[str, str]:
    codes = {name: (s.render(), s.result) for name, s in SNIPPETS.items()}
    done = subprocess.run(
        [sys.executable, "-c", OUTSIDE_THE_APP],
        input=json.dumps(codes),
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_every_snippet_runs_outside_the_app_with_its_example_params(name, outside_the_app):
    assert "(the refusal)" not in outside_the_app  # the app's packages were refused
    assert outside_the_app[name] == "ok"


def test_a_snippet_that_imports_the_app_is_refused_outside_it() -> None:
    code = "from ui import datasets\nimport pandas as pd\nframe = pd.DataFrame({'a': [1]})\n"
    done = subprocess.run(
        [sys.executable, "-c", OUTSIDE_THE_APP],
        input=json.dumps({"bad": (code, "frame")}),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "may not import ui" in json.loads(done.stdout.strip().splitlines()[-1])["bad"]


def test_a_snippet_prints_the_function_the_model_calls_not_a_copy() -> None:
    """The anonymisation lesson counts the classes of data.quasi_identifiers' attributes, and
    its snippet prints that function's own source; a function of the app is refused."""
    import inspect

    from data.quasi_identifiers import quasi_identifiers
    from lessons.anonymisation import model
    from ui.snippets import source_of

    code = code_for("anonymisation_uniqueness")
    assert inspect.getsource(quasi_identifiers) in code
    assert "quasi_identifiers(census())" in inspect.getsource(model.quasi_identifier_codes)
    with pytest.raises(ValueError, match="not data/ or dp/"):
        source_of(model.canonical)


def test_values_are_filled_in_as_literals():
    code = code_for("laplace_histogram", epsilon=0.3, seed=np.int64(7), truth=100)
    assert "truth, epsilon, answers, half_width = 100, 0.3, 2000, 50.0" in code
    assert "rng=7)" in code
    assert "$" not in code


def test_unknown_params_and_names_are_refused():
    with pytest.raises(TypeError, match="params"):
        code_for("laplace_histogram", eps=1)


def test_laplace_snippet_reproduces_the_lesson_bins():
    # Same draw and the same binning as ui/charts.histogram_frame on the page.
    import dp

    namespace = run(code_for("laplace_histogram", truth=500, epsilon=0.5, seed=11))
    values = dp.laplace_mechanism(500, 1, 0.5, size=2_000, rng=11)
    page = histogram_frame(values, domain=(450.0, 550.0), bins=100)
    np.testing.assert_array_equal(namespace["bins"]["count"].to_numpy(), page["count"].to_numpy())


def test_parameters_change_the_result():
    a = run(code_for("rr_repeated_surveys", seed=1))["estimates"]
    b = run(code_for("rr_repeated_surveys", seed=2))["estimates"]
    assert not a.equals(b)
    again = run(code_for("rr_repeated_surveys", seed=1))["estimates"]
    pd.testing.assert_frame_equal(a, again)


@pytest.mark.parametrize(
    "folder", [lesson.folder for lesson in LESSONS if lesson.folder not in ("home",)]
)
def test_no_lesson_sends_a_code_block_on_its_first_render(folder):
    """The first code block on a page starts Streamlit's syntax highlighter, about
    180 ms of a browser's first visit (coin-flip 1,250 → 940 ms without its one-line bug,
    now inline code); snippets send their code only once opened."""
    from apptest_helpers import run_lesson

    at = run_lesson(f"{folder}/page.py")
    assert [block.value for block in at.code] == []
