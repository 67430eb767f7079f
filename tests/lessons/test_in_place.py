"""A slider move redraws every chart in place (bench/README.md, "When Streamlit 1.67 keeps a
chart's Vega view"): the browser embeds a chart again, a full Vega parse, compile and render of
~50 ms, whenever its spec's text, its alt text or a dataset's row count changes, and otherwise
swaps only the datasets whose bytes changed. So after a move every chart must have the same
spec, the same alt text and the same row counts as before; what changed travels in its data
(the title's words included: ui/ui_template.TITLE_DATA).

Checked for each lesson's main control (the one a lecturer moves first) and every numeric
slider, one step each, in one session per lesson."""

from __future__ import annotations

import json

import altair as alt
import pandas as pd
import pyarrow as pa
import pytest

from conftest import page_apptest
from lessons.catalogue import LESSONS
from ui import template as ui_template
from ui.controls import EPSILON_GRID

# A slider whose move changes what a chart is, not only its numbers, and why.
REDRAWN: dict[tuple[str, str], str] = {
    ("laplace", "Minimum age"): "the axes are placed around the true count, which it moves",
    ("composition", "Number of answers m"): "the chart draws the first m answers, one row each",
}


def _charts(at) -> list[tuple[str, str, dict[str, int]]]:
    return [
        (
            element.proto.spec,
            element.proto.alt,
            {
                d.name: pa.ipc.open_stream(d.data.data).read_all().num_rows
                for d in element.proto.datasets
            },
        )
        for element in at.get("vega_lite_chart")
    ]


def _datasets(at) -> list[dict[str, bytes]]:
    return [{d.name: d.data.data for d in e.proto.datasets} for e in at.get("vega_lite_chart")]


def _step(widget) -> bool:
    """Move `widget` one step (right, or left at its end); False if it cannot be stepped here."""
    if type(widget).__name__ == "Slider":
        value, step = widget.value, widget.step or 1
        if isinstance(value, tuple):
            upper = value[1] + step if value[1] + step <= widget.max else value[1] - step
            widget.set_value((value[0], upper))
        else:
            widget.set_value(value + step if value + step <= widget.max else value - step)
        return True
    labels = list(widget.options)
    here = labels.index(widget.format_func(widget.value))
    there = labels[here + 1] if here + 1 < len(labels) else labels[here - 1]
    for value in EPSILON_GRID:
        if widget.format_func(value) == there:
            widget.set_value(value)
            return True
    try:  # a number the one formatter wrote plainly (0.5, 2.56, 1,000)
        widget.set_value(float(there.replace(",", "")))
    except ValueError:
        return False
    return True


def _moves(lesson, at) -> list[tuple[str, str]]:
    """(kind, label) of the sliders this test moves on the page."""
    moves = []
    for widget in [*at.slider, *at.select_slider]:
        main = bool(lesson.main_control) and lesson.main_control in widget.label
        if main or type(widget).__name__ == "Slider":
            moves.append((type(widget).__name__, widget.label))
    return moves


def redrawn_by(folder: str, label: str) -> str | None:
    return next((why for (f, part), why in REDRAWN.items() if f == folder and part in label), None)


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.folder for lesson in LESSONS])
def test_a_slider_move_changes_only_the_charts_data(lesson) -> None:
    at = page_apptest(lesson.file).run()
    assert not at.exception, at.exception
    moves = _moves(lesson, at)
    if lesson.main_control:
        assert any(lesson.main_control in label for _, label in moves), "main control not found"
    for kind, label in moves:
        before, data_before = _charts(at), _datasets(at)
        widgets = at.slider if kind == "Slider" else at.select_slider
        widget = next(w for w in widgets if w.label == label)
        assert _step(widget), f"{label!r}: cannot step it"
        at.run()
        assert not at.exception, at.exception
        after = _charts(at)
        assert len(after) == len(before), f"{label!r}: charts {len(before)} -> {len(after)}"
        if redrawn_by(lesson.folder, label):
            continue
        for index, ((spec, words, rows), (spec2, words2, rows2)) in enumerate(
            zip(before, after, strict=True)
        ):
            where = f"{lesson.folder}, {label!r}, chart {index}"
            assert spec == spec2, f"{where}: its spec changed: {_first_difference(spec, spec2)}"
            assert words == words2, f"{where}: its alt text changed"
            assert rows == rows2, f"{where}: its row counts changed: {rows} -> {rows2}"
        # the move did something: some chart's data changed
        assert _datasets(at) != data_before, f"{lesson.folder}, {label!r}: no chart changed"


def _first_difference(a: str, b: str) -> str:
    left, right = (
        json.dumps(json.loads(a), ensure_ascii=False),
        json.dumps(json.loads(b), ensure_ascii=False),
    )
    at = next(
        (i for i, (x, y) in enumerate(zip(left, right, strict=False)) if x != y),
        min(len(left), len(right)),
    )
    return f"…{left[max(0, at - 60) : at + 40]}… became …{right[max(0, at - 60) : at + 40]}…"


def test_a_title_change_would_be_caught() -> None:
    # The check above can fail: a title written into the spec (as before this rule) changes
    # the spec's text when a number in it does.
    template = ui_template.Template(
        alt.Chart(alt.NamedData(name="bins")).mark_bar().encode(x="x:Q", y="y:Q")
    )
    frame = pd.DataFrame({"x": [1.0], "y": [2.0]})
    old_way = [dict(template.spec, title=f"ε = {e}") for e in (1, 2)]
    assert json.dumps(old_way[0]) != json.dumps(old_way[1])
    one, two = (template.filled(title=f"ε = {e}", bins=frame) for e in (1, 2))
    assert {k: v for k, v in one.items() if k != "datasets"} == {
        k: v for k, v in two.items() if k != "datasets"
    }
    assert one["datasets"][ui_template.TITLE_DATA] != two["datasets"][ui_template.TITLE_DATA]
