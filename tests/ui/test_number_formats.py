"""Every number on screen goes through the one formatter (ui.text), slider
labels, metric deltas, chart axes and CSV files included; counts are integers."""

from __future__ import annotations

import json
import re

import pytest

from apptest_helpers import record_downloads, run_lesson, spec_of
from lessons.catalogue import LESSONS
from ui import charts, text

E_NOTATION = re.compile(r"\d[eE][-+]?\d")


def test_the_definition_event_slider_is_labelled_by_the_formatter() -> None:
    at = run_lesson("definition/page.py")
    options = at.select_slider(key="def_event").options
    assert all(".0" not in o for o in options), options[:4]  # was "7841.0"
    assert any("," in o for o in options)  # thousands separators: "7,841.5"
    assert options[1] == text.number(float(options[0].replace(",", "")) + 0.5, 6)  # 7,841.5


def test_numeric_select_sliders_default_to_the_formatter() -> None:
    at = run_lesson("reconstruction/page.py")
    assert "1,000" in at.select_slider(key="recon_dn_m").options  # was "1000"
    assert "2,000" in at.select_slider(key="recon_dn_m").options


def test_metric_deltas_carry_a_real_minus_sign_and_the_right_arrow() -> None:
    at = run_lesson("kary_rr/page.py")
    deltas = {m.label: m.proto for m in at.metric if m.proto.delta}
    assert deltas, "the post-processed errors show their change"
    for label, proto in deltas.items():
        assert not proto.delta.startswith("-"), (label, proto.delta)  # a hyphen was used
        assert proto.delta.startswith(("+", "−")) or proto.delta == "0"
    definition = run_lesson("definition/page.py")
    (posterior,) = [m.proto for m in definition.metric if m.label == "Worst-case posterior"]
    assert re.fullmatch(r"\+[\d.]+ percentage points", posterior.delta), posterior.delta


def test_a_count_in_a_csv_is_an_integer(monkeypatch) -> None:
    sent = record_downloads(monkeypatch)
    run_lesson("laplace/page.py")
    _, lines = sent["laplace_dl_histogram"]
    header, *rows = lines
    assert header == "start,end,count,share"
    for row in rows:
        start, end, count, _share = row.split(",")
        assert not start.endswith(".0") and not end.endswith(".0"), row  # was "14187.0"
        assert count.isdigit()


def _axes(node):
    if isinstance(node, dict):
        scale = node.get("scale")
        if isinstance(scale, dict) and scale.get("type") == "log" and "axis" in node:
            yield scale, node.get("axis") or {}
        for value in node.values():
            yield from _axes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _axes(value)


@pytest.mark.slow
@pytest.mark.parametrize("lesson", [lesson.file for lesson in LESSONS], ids=str)
def test_no_axis_writes_small_numbers_in_e_notation(lesson: str) -> None:
    """ "1e-14" on an axis: a log axis that reaches below 10⁻⁶ labels its powers of ten as
    10⁻¹⁴ (ui.charts.power_of_ten_axis); no axis asks d3 for e-notation."""
    at = run_lesson(lesson)
    for element in at.get("vega_lite_chart"):
        spec = spec_of(element)
        assert '"format": "~e"' not in json.dumps(spec), lesson
        for scale, axis in _axes(spec):
            domain = scale.get("domain")
            # d3's "~g" itself switches to e-notation below 10⁻⁶ ("1e-7")
            if isinstance(domain, list) and min(domain) < 1e-6:
                assert axis.get("labelExpr") == charts.POWER_OF_TEN_LABELS, (lesson, axis)


@pytest.mark.parametrize("lesson", [lesson.file for lesson in LESSONS], ids=str)
def test_every_non_linear_axis_says_so(lesson: str) -> None:
    """ "A non-linear y-axis has no label saying so" (e.g. the share of
    answers on a square-root scale). Every titled x or y axis on a log, √, symlog or power
    scale names it."""
    at = run_lesson(lesson)
    for element in at.get("vega_lite_chart"):
        for encoding in _encodings(spec_of(element)):
            scale = encoding.get("scale")
            if not isinstance(scale, dict) or scale.get("type") in (None, "linear", "band"):
                continue
            axis = encoding.get("axis") if isinstance(encoding.get("axis"), dict) else {}
            title = axis.get("title", encoding.get("title"))
            if isinstance(title, str):
                says = ("log", "√", "sqrt", "power")
                assert any(w in title.lower() for w in says), (lesson, scale["type"], title)


def _encodings(node):
    if isinstance(node, dict):
        encoding = node.get("encoding")
        if isinstance(encoding, dict):
            for channel in ("x", "y"):
                if isinstance(encoding.get(channel), dict):
                    yield encoding[channel]
        for value in node.values():
            yield from _encodings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _encodings(value)


def _exponent_prone(spec) -> list[dict]:
    """The linear axes whose ticks Vega chooses and whose format is d3's "g" or "e" without
    a precision of its own: Vega sets the precision from the tick step, and at one digit
    "~g" writes 20 as "2e+1" (clamping's age axis did). "r" rounds alike, with no exponent."""
    found = []
    for encoding in _encodings(spec):
        axis = encoding.get("axis") if isinstance(encoding.get("axis"), dict) else {}
        scale = encoding.get("scale") if isinstance(encoding.get("scale"), dict) else {}
        linear = scale.get("type", "linear") == "linear"
        if linear and "values" not in axis and re.fullmatch(r",?~?[eg]", axis.get("format", "")):
            found.append(axis)
    return found


def test_exponent_prone_finds_a_g_format_on_ticks_vega_chooses() -> None:
    def axis(**options) -> dict:
        return {"encoding": {"x": {"field": "v", "axis": options}}}

    assert _exponent_prone(axis(format="~g"))
    assert _exponent_prone(axis(format=",~g"))
    assert not _exponent_prone(axis(format=",~r"))
    assert not _exponent_prone(axis(format="~g", values=[1, 10]))
    assert not _exponent_prone(axis(format=".2g"))


@pytest.mark.parametrize("lesson", [lesson.file for lesson in LESSONS], ids=str)
def test_no_axis_with_ticks_vega_chooses_can_write_an_exponent(lesson: str) -> None:
    at = run_lesson(lesson)
    for element in at.get("vega_lite_chart"):
        assert not _exponent_prone(spec_of(element)), lesson


def test_clamping_histograms_axis_cannot_write_an_exponent_for_any_column() -> None:
    """Its x axis is the column's range: Age and hours (0 to 100) read 2e+1 … 1e+2 while the
    default column (capital gain, to 100,000) read well, so the page's default run missed it."""
    from lessons.clamping import charts as clamping_charts
    from ui import columns

    for column in columns.numeric_columns():
        template = clamping_charts.column_histogram(column.low, column.high, column.label)
        assert not _exponent_prone(template.spec), column.name


@pytest.mark.parametrize("lesson", ["definition/page.py", "kary_rr/page.py"])
def test_the_definition_and_kary_charts_are_not_screen_high(lesson: str) -> None:
    """The Definition and k-ary charts were ~600 px tall on screen; their plots are now at
    most 336 px (k-ary RR's occupations: 14 rows of 24 px, one projector label each), about
    470 with title, axes and legend: the main control and its chart fit one screen
    (tests/ui/test_browser_sweeps.py)."""
    at = run_lesson(lesson)
    for element in at.get("vega_lite_chart"):
        spec = spec_of(element)
        heights = [h for h in _heights(spec) if isinstance(h, int | float)]
        assert heights and max(heights) <= 336, (lesson, heights)


def _heights(node):
    if isinstance(node, dict):
        if "height" in node:
            yield node["height"]
        for value in node.values():
            yield from _heights(value)
    elif isinstance(node, list):
        for value in node:
            yield from _heights(value)


def test_number_labels_use_as_many_digits_as_the_options_need() -> None:
    from ui import controls

    halves = [7_840.0 + 0.5 * i for i in range(8)]
    label = controls.number_labels(halves)
    assert [label(v) for v in halves[:3]] == ["7,840", "7,840.5", "7,841"]
    assert controls.number_labels([0.5, 1.0, 2.0])(1.0) == "1"  # four digits when enough
    assert controls.number_labels([1.0, 1.0])(1.0) == "1"  # a repeated option is one value


# "± 1.4" and "3.7 ± 1.4" with ordinary spaces: a phone may end a line between the sign and
# its number. The app writes no-break spaces there (U+00A0).
BREAKABLE_PLUS_MINUS = re.compile(r"± (?=[\d−+-])|(?<=[\d%)]) ±")


@pytest.mark.slow
@pytest.mark.parametrize("lesson", [lesson.file for lesson in LESSONS], ids=str)
def test_no_line_break_can_split_a_number_from_its_plus_minus(lesson: str) -> None:
    at = run_lesson(lesson)
    shown = [block.value for kind in ("markdown", "caption") for block in at.get(kind)]
    shown += [
        alert.value for kind in ("success", "info", "warning", "error") for alert in at.get(kind)
    ]
    shown += [m.value for m in at.metric]
    split = [t for t in shown if BREAKABLE_PLUS_MINUS.search(t)]
    assert not split, split
