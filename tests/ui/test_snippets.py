"""Every lesson's "code behind the chart" snippet runs as printed and leaves its result."""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from lessons.catalogue import LESSONS
from ui.charts import histogram_frame
from ui.snippets import Snippet

ROOT = Path(__file__).resolve().parents[2]


def _all_snippets() -> dict[str, Snippet]:
    """Every Snippet defined in a lesson's snippets.py, by name (names are unique)."""
    found: dict[str, Snippet] = {}
    for lesson in LESSONS:
        module = importlib.import_module(f"lessons.{lesson.folder}.snippets")
        for value in vars(module).values():
            if isinstance(value, Snippet) and value.name not in found:
                found[value.name] = value
    return found


SNIPPETS = _all_snippets()


def code_for(name: str, **params) -> str:
    return SNIPPETS[name].render(**params)


def test_snippet_names_are_unique_across_lessons() -> None:
    seen: dict[str, str] = {}
    for lesson in LESSONS:
        module = importlib.import_module(f"lessons.{lesson.folder}.snippets")
        for value in vars(module).values():
            if isinstance(value, Snippet) and value.__module__ != module.__name__:
                continue  # re-exported from an earlier lesson
            if isinstance(value, Snippet):
                assert seen.setdefault(value.name, lesson.folder) == lesson.folder, value.name


def run(code: str) -> dict:
    namespace: dict = {}
    exec(compile(code, "<snippet>", "exec"), namespace)  # noqa: S102 — our own templates
    return namespace


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_every_snippet_runs_with_its_example_params(name, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)  # data/ paths in snippets are relative to the repository root
    snippet = SNIPPETS[name]
    namespace = run(code_for(name))
    result = namespace[snippet.result]
    assert isinstance(result, pd.DataFrame)
    assert len(result) > 0
    assert not result.isna().any().any()


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
