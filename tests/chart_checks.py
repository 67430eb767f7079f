"""What every chart the app draws must be, checked on an AppTest's charts: valid Vega-Lite
with its data, a palette every reader can tell apart (colour_vision.py), and its numbers
under it ("Show the numbers"). tests/ui/test_charts.py checks every page at its defaults;
the classroom's projector tests check the charts a lecturer's actions draw."""

import json

import pyarrow as pa
from altair.utils.schemapi import validate_jsonschema
from altair.vegalite.v6.schema.core import load_schema

import apptest_helpers as helpers
from apptest_helpers import title_of
from colour_vision import palette_problems
from ui import template as ui_template
from ui import text

SCHEMA = load_schema()


def dataset_rows(dataset) -> list[dict]:
    return pa.ipc.open_stream(dataset.data.data).read_all().to_pylist()


def assert_valid_charts(at, folder: str) -> None:
    """Every chart `at` drew is valid Vega-Lite with its data, has a palette every reader
    can tell apart, and shows its numbers (the classroom's projector tests call this on
    the charts a lecturer's actions draw)."""
    for element in at.get("vega_lite_chart"):
        spec = json.loads(element.proto.spec)
        # Streamlit sends the data beside the spec; put it back where Vega-Lite reads it.
        datasets = {d.name: dataset_rows(d) for d in element.proto.datasets}
        if datasets:
            spec["datasets"] = {**spec.get("datasets", {}), **datasets}
        if element.proto.data.data:
            spec["data"] = {"values": dataset_rows(element.proto.data)}
        errors = validate_jsonschema(json.loads(json.dumps(spec, default=str)), SCHEMA)
        assert errors is None, f"{folder}: {errors}"
        # a palette of its own, every two series apart for every reader (colour_vision.py)
        assert palette_problems(spec) == [], f"{folder}: {title_of(helpers.spec_of(element))}"
        assert lone_rows_undrawn(spec) == [], f"{folder}: {title_of(helpers.spec_of(element))}"
    assert_every_chart_shows_its_numbers(at, folder)


# Marks that need two rows to draw anything (a line, an area), and marks that draw one row.
NEEDS_TWO_ROWS = {"line", "area", "trail"}
DRAWS_ONE_ROW = {"point", "circle", "square", "rule", "tick", "bar", "rect", "errorbar", "text"}


def _layers(node: dict) -> list[dict]:
    """Every unit spec in a (layered or concatenated) spec."""
    parts = [
        part
        for key in ("layer", "hconcat", "vconcat", "concat")
        for child in node.get(key, [])
        for part in _layers(child)
    ]
    return parts if parts else [node]


def lone_rows_undrawn(spec: dict) -> list[str]:
    """The datasets of a chart that hold one row and that only lines or areas draw: that
    chart shows nothing of them (a first answer, a first query). A line drawn with its
    points draws one row."""
    datasets = spec.get("datasets", {})
    marks: dict[str, set[str]] = {}
    for layer in _layers(spec):
        name = layer.get("data", {}).get("name")
        mark = layer.get("mark")
        if name is None or mark is None:
            continue
        kind = mark if isinstance(mark, str) else mark["type"]
        if kind in NEEDS_TWO_ROWS and isinstance(mark, dict) and mark.get("point"):
            kind = "point"
        marks.setdefault(name, set()).add(kind)
    return sorted(
        name
        for name, kinds in marks.items()
        if len(datasets.get(name, [])) == 1 and kinds <= NEEDS_TWO_ROWS
    )


def assert_every_chart_shows_its_numbers(at, folder: str) -> None:
    """Under each chart, "Show the numbers" (WCAG 1.1.1: its data reachable as a table):
    closed, it sends no table; open, tables of that chart's own rows, headed in the chart's
    own words (a title its axes, legends or tooltips give)."""
    drawn = at.get("vega_lite_chart")
    boxes = [box for box in at.expander if box.label == ui_template.NUMBERS_LABEL]
    assert len(boxes) == len(drawn), folder
    assert not [box for box in boxes if box.get("table")], folder  # closed: nothing sent
    helpers.open_numbers(at)
    assert not at.exception, at.exception
    boxes = [box for box in at.expander if box.label == ui_template.NUMBERS_LABEL]
    for element, box in zip(at.get("vega_lite_chart"), boxes, strict=True):
        spec = helpers.spec_of(element)
        rows = {
            len(dataset_rows(d)) for d in element.proto.datasets if d.name != ui_template.TITLE_DATA
        }
        words = titles(spec)
        tables = [table.value for table in box.get("table")]
        assert tables, (folder, title_of(spec))
        for table in tables:
            assert len(table) in rows, (folder, title_of(spec), len(table), rows)
        headers = {text.plain(title) for title in words}
        assert headers & set(tables[0].columns), (folder, title_of(spec), list(tables[0].columns))


def titles(node) -> set[str]:
    """Every axis, legend, encoding and tooltip title in a spec."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "title" and isinstance(value, str):
                found.add(value)
            found |= titles(value)
    elif isinstance(node, list):
        for value in node:
            found |= titles(value)
    return found
