"""The one chart API: templates check the datasets they are given, and every spec the app
emits — every chart of every page at its defaults — is valid Vega-Lite."""

import functools
import json

import altair as alt
import pandas as pd
import pyarrow as pa
import pytest
from chart_checks import assert_valid_charts
from streamlit.testing.v1 import AppTest

import apptest_helpers as helpers
from colour_vision import delta_e, palette_problems, too_close
from conftest import page_apptest
from lessons.catalogue import all_pages
from ui import charts, datasets
from ui import template as ui_template

PAGES = all_pages()


def _template() -> ui_template.Template:
    base = alt.Chart(alt.NamedData(name="bins")).mark_bar().encode(x="x:Q", y="y:Q")
    rule = alt.Chart(alt.NamedData(name="truth")).mark_rule().encode(x="x:Q")
    return ui_template.Template(base + rule)


def test_a_template_knows_the_datasets_it_reads() -> None:
    assert _template().datasets == {"bins", "truth"}


def test_a_missing_or_unknown_dataset_is_refused_with_its_name() -> None:
    frame = pd.DataFrame({"x": [1.0], "y": [2.0]})
    with pytest.raises(ValueError, match="missing \\['truth'\\]"):
        _template().filled(bins=frame)
    with pytest.raises(ValueError, match="unknown \\['extra'\\]"):
        _template().filled(bins=frame, truth=frame, extra=frame)


def test_data_must_be_a_dataframe() -> None:
    frame = pd.DataFrame({"x": [1.0]})
    with pytest.raises(TypeError, match="'bins' must be a DataFrame, not list"):
        _template().filled(bins=[{"x": 1.0}], truth=frame)


def test_filling_never_changes_the_shared_template() -> None:
    template = _template()
    before = json.dumps(template.spec, sort_keys=True)
    frame = pd.DataFrame({"x": [1.0], "y": [2.0]})
    filled = template.filled(title="a title", bins=frame, truth=frame)
    assert set(filled["datasets"]) == {"bins", "truth", ui_template.TITLE_DATA}
    # 7 characters at 16 px and 0.47 em: 53 px
    assert filled["datasets"][ui_template.TITLE_DATA].to_pylist() == [
        {"text": "a title", "wide": "a title", "wide_px": 53}
    ]
    assert filled["title"]["text"] == ui_template.TITLE_TEXT_BY_WIDTH
    # Vega writes a title's ARIA label once and keeps it while its data changes: none
    assert filled["title"]["aria"] is False
    assert json.dumps(template.spec, sort_keys=True) == before


def test_a_wrapped_title_is_drawn_as_given_where_the_plot_is_wide_enough() -> None:
    """The title is wrapped for the narrowest screen (`wrapped_title`); the row also holds
    the lines as given and the plot width they need at the screen's title font, and the
    spec's expression picks by Vega's `width` signal. A concat (no top-level width) keeps
    the wrapped lines. The spec is the same whichever lines a run draws."""
    given = ["Reconstruction against ε", "◆ this release at ε = 1: 5 of 10 right"]
    narrow = ui_template.wrapped_title(given, presenting=True)
    assert narrow["text"] == [
        "Reconstruction against ε",
        "◆ this release at",
        "ε = 1: 5 of 10 right",
    ]
    frame = pd.DataFrame({"x": [1.0], "y": [2.0]})
    filled = _template().filled(
        title=narrow, given_title=given, title_font_px=24, bins=frame, truth=frame
    )
    (row,) = filled["datasets"][ui_template.TITLE_DATA].to_pylist()
    assert row == {
        "text": "Reconstruction against ε\n◆ this release at\nε = 1: 5 of 10 right",
        "wide": "Reconstruction against ε\n◆ this release at ε = 1: 5 of 10 right",
        "wide_px": round(38 * 24 * ui_template.TITLE_CHAR_EM),  # the longest line, 38
    }
    expr = filled["title"]["text"]["expr"]
    assert "width >= data('chart_title')[0].wide_px" in expr
    other = _template().filled(title="Short", given_title="Short", bins=frame, truth=frame)
    assert json.dumps(other["title"]) == json.dumps(filled["title"])  # in place
    concat = ui_template.Template(
        alt.vconcat(
            alt.Chart(alt.NamedData(name="bins")).mark_bar().encode(x="x:Q", y="y:Q"),
            alt.Chart(alt.NamedData(name="truth")).mark_rule().encode(x="x:Q"),
        )
    )
    stacked = concat.filled(title=narrow, given_title=given, bins=frame, truth=frame)
    assert stacked["title"]["text"] == ui_template.TITLE_TEXT


def test_a_screen_reader_hears_the_titles_current_words_before_the_numbers() -> None:
    at = AppTest.from_string(
        "import pandas as pd\n"
        "import altair as alt\n"
        "from ui import template\n"
        "chart = alt.Chart(alt.NamedData(name='bins')).mark_bar().encode(x='x:Q', y='y:Q')\n"
        "template.Template(chart).show(\n"
        "    title=['ε = 0.5: 95% within', '± 6 <b>'],\n"
        "    alt='Bars from 1 to 2.',\n"
        "    bins=pd.DataFrame({'x': [1.0], 'y': [2.0]}),\n"
        ")\n"
    ).run()
    assert not at.exception, at.exception
    assert [html.body for html in at.get("html")][0] == (
        f'<p class="{ui_template.DESCRIPTION_CLASS}"><span class="{ui_template.TITLE_CLASS}">'
        "ε = 0.5: 95% within ± 6 &lt;b&gt;.</span> Bars from 1 to 2.</p>"
    )
    assert helpers.described_charts(at)[0][1] == "Bars from 1 to 2."


def test_shared_data_is_given_back_to_each_layer() -> None:
    # Altair hoists data shared by all layers to the top; the template moves it down again.
    data = alt.NamedData(name="both")
    chart = alt.Chart(data).mark_bar().encode(x="x:Q") + alt.Chart(data).mark_tick().encode(x="x:Q")
    template = ui_template.Template(chart)
    assert "data" not in template.spec
    assert all(layer["data"] == {"name": "both"} for layer in template.spec["layer"])


@pytest.mark.parametrize("lesson", PAGES, ids=[lesson.folder for lesson in PAGES])
def test_every_chart_the_page_draws_is_valid_vega_lite(lesson) -> None:
    at = page_apptest(lesson.file).run()
    assert not at.exception, at.exception
    assert_valid_charts(at, lesson.folder)


def test_a_chart_table_sends_columns_only_and_text_as_a_dictionary() -> None:
    """What a chart sends: no index, no pandas note, a repeated label stored once, NaN as
    null (as pa.Table.from_pandas does) — and fewer bytes than the plain conversion."""
    frame = pd.DataFrame(
        {"x": [1.0, float("nan"), 3.0] * 100, "world": ["with you", "without you", "x"] * 100},
        index=range(7, 307),
    )
    table = ui_template.arrow_table(frame)
    assert table.column_names == ["x", "world"]
    assert table.schema.metadata is None
    assert table.schema.field("world").type == pa.dictionary(pa.int8(), pa.string())
    assert table.column("x").null_count == 100
    assert table.column("world").to_pylist() == frame["world"].tolist()

    def ipc_bytes(t: pa.Table) -> int:
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, t.schema) as writer:
            writer.write_table(t)
        return len(sink.getvalue())

    assert ipc_bytes(table) < 0.6 * ipc_bytes(pa.Table.from_pandas(frame))


def test_band_histogram_data_is_shared_for_one_array_and_dropped_with_it():
    """Every session that charts the same cached array at the same settings gets
    the same frames (so their Arrow form is made once too); another array, even an equal
    one, or other settings get their own; an entry goes with its array."""
    import gc

    import numpy as np

    values = np.random.default_rng(0).normal(size=1_000)
    first = charts.band_histogram_data(values, truth=0.0, sd=1.0, domain=(-4, 4), bins=40)
    again = charts.band_histogram_data(values, truth=0.0, sd=1.0, domain=(-4, 4), bins=40)
    assert again is first
    assert (
        charts.band_histogram_data(values, truth=0.5, sd=1.0, domain=(-4, 4), bins=40) is not first
    )
    assert (
        charts.band_histogram_data(values, truth=0.0, sd=1.0, domain=(-4, 4), bins=20) is not first
    )
    copy = values.copy()
    other = charts.band_histogram_data(copy, truth=0.0, sd=1.0, domain=(-4, 4), bins=40)
    assert other is not first and other["bins"].equals(first["bins"])
    text = charts.describe_histogram(values, 0.0)
    assert charts.describe_histogram(values, 0.0) is text
    assert charts.describe_histogram(values.copy(), 0.0) == text
    assert "Histogram of 1,000 noisy answers" in text
    counts = first["bins"]["count"].to_numpy()
    assert counts.sum() == 1_000 and first["truth"]["x"].tolist() == [0.0]
    mine = [key for key in datasets._DERIVED if key[0] in (id(values), id(copy))]
    assert len(mine) == 5  # 3 histograms and 1 text of values, 1 histogram of copy
    del values, first, again, copy, other
    gc.collect()
    assert not any(key in datasets._DERIVED for key in mine)


def test_a_long_title_is_written_on_lines_that_fit_and_keeps_its_values_whole() -> None:
    """Vega cuts a one-line title that is wider than its chart with "…"
    (e.g. "Where AboveThreshold stops at ε = 0.01, T = …" on a phone)."""
    title = "Where AboveThreshold stops at ε = 0.01, T = 1,000"
    assert ui_template.title_lines("Short title", 44) == "Short title"
    # As even as the fewest lines allow (filled to the width, "T = 1,000" sat alone)
    even = ["Where AboveThreshold stops", "at ε = 0.01, T = 1,000"]
    assert ui_template.title_lines(title, 44) == even
    assert ui_template.title_lines(title, 34) == even
    # on the projector, "their" and "set" were a second line of their own
    assert ui_template.title_lines("Published people by the incomes in their", 34) == [
        "Published people by",
        "the incomes in their",
    ]
    assert ui_template.title_lines("The analyst checks on the training set", 34) == [
        "The analyst checks",
        "on the training set",
    ]
    for width in range(12, 60):
        shown = ui_template.title_lines(title, width)
        lines = [shown] if isinstance(shown, str) else shown
        assert " ".join(lines) == title  # nothing lost, nothing added
        assert all(len(line) <= width for line in lines if " " in line.strip())
        assert not any(line.endswith(("=", "ε")) for line in lines)  # "ε = 0.01" kept whole
    wrapped = ui_template.wrapped_title({"text": title, "subtitle": "s"}, presenting=True)
    lines = ui_template.title_lines(title, ui_template.PRESENTER_TITLE_LINE_CHARS)
    # lines start at the chart's left edge (centred over a narrow plot they ran past it)
    assert wrapped == {"text": lines, "subtitle": "s", "anchor": "start", "frame": "bounds"}
    assert ui_template.wrapped_title("Short", presenting=False) == "Short"  # as it was given
    assert ui_template.wrapped_title({"text": "Short", "subtitle": "s"}, presenting=False) == {
        "text": "Short",
        "subtitle": "s",
    }
    assert ui_template.wrapped_title(None, presenting=False) is None
    # a title given as lines: each wrapped (clamping's first line is 48 characters)
    first = "Bias against noise as U moves (L = 0, ε = 0.01)"
    assert ui_template.wrapped_title([first, "◆ the lowest total: U = 500"], presenting=False) == {
        "text": [
            "Bias against noise as U",
            "moves (L = 0, ε = 0.01)",
            "◆ the lowest total: U = 500",
        ],
        "anchor": "start",
        "frame": "bounds",
    }


@pytest.mark.parametrize(
    ("title", "width", "error"),
    [(3, 44, TypeError), ("t", 9, ValueError), ("t", 44.0, TypeError), ("t", True, TypeError)],
)
def test_title_lines_refuses_bad_input(title, width, error) -> None:
    with pytest.raises(error):
        ui_template.title_lines(title, width)


# --- The curve chart (charts.curves): one way to draw a quantity against a parameter ----------
EPSILON = charts.Axis("epsilon", "ε (log scale)", (0.1, 10.0), log=True, values=(0.1, 1, 10))
SHARE = charts.Axis("share", "share", (0.0, 1.0), format="%", tip="right", tip_format=".1%")


def _layers(spec: dict) -> list[dict]:
    return spec.get("layer", [spec])


def test_a_curve_chart_tells_its_lines_apart_by_colour_and_dash() -> None:
    series = charts.Series("method", ("exact", "bound", "tail"))
    spec = charts.curves(EPSILON, SHARE, series, data="errors").spec
    lines = _layers(spec)[0]
    assert lines["mark"]["type"] == "line"
    assert lines["data"] == {"name": "errors"}
    encoding = lines["encoding"]
    assert encoding["color"]["scale"]["range"] == list(charts.CURVE_COLOURS[:3])
    assert encoding["strokeDash"]["scale"]["range"] == [list(d) for d in charts.CURVE_DASHES[:3]]
    assert len({tuple(d) for d in encoding["strokeDash"]["scale"]["range"]}) == 3
    assert encoding["x"]["scale"] == {
        "type": "log",
        "domain": [0.1, 10.0],
        "nice": False,
        "clamp": True,
    }
    assert encoding["x"]["axis"]["values"] == [0.1, 1, 10]
    assert encoding["y"]["axis"]["format"] == "%"
    tips = {t["field"]: t for t in encoding["tooltip"]}
    assert tips["share"] == {
        "field": "share",
        "type": "quantitative",
        "format": ".1%",
        "title": "right",
    }
    assert charts.curves(EPSILON, SHARE, series, data="errors").datasets == {"errors"}


def test_a_curve_chart_adds_bars_levels_rule_and_mark_only_when_asked() -> None:
    plain = charts.curves(EPSILON, SHARE)
    assert plain.datasets == {"curves"}
    assert _layers(plain.spec)[0]["mark"]["color"] == charts.BLUE  # one line: blue, no legend
    full = charts.curves(
        EPSILON,
        SHARE,
        error_bars=("low", "high"),
        levels=("levels", "share"),
        rule=True,
        mark="mark",
        points=True,
    )
    assert full.datasets == {"curves", "levels", "truth", "mark"}
    layers = _layers(full.spec)
    bars = layers[0]  # under the line
    assert bars["mark"]["type"] == "rule"
    assert (bars["encoding"]["y"]["field"], bars["encoding"]["y2"]["field"]) == ("low", "high")
    assert layers[1]["mark"]["point"]["filled"] is True


@pytest.mark.parametrize(
    "series, error",
    [
        (lambda: charts.Series("method"), "names: a series field needs its names"),
        (lambda: charts.Series("m", tuple("abcdefg")), "names: 7 lines, but fewer colours"),
        (lambda: charts.Series("m", ("a", "b"), dashes=((1, 0),)), "names: 2 lines"),
    ],
)
def test_a_series_refuses_what_it_cannot_draw(series, error) -> None:
    with pytest.raises(ValueError, match=error):
        series()


def test_the_palette_check_sees_what_a_colour_blind_reader_cannot_tell_apart() -> None:
    """Vega's default red and green (#D62728, #2CA02C) are 7.3 apart with deuteranopia (120
    with typical vision); a colour scale left to Vega's scheme is flagged too."""
    assert delta_e("#D62728", "#2CA02C", "typical vision") > 100
    assert too_close(["#D62728", "#2CA02C"]) == ["#D62728 and #2CA02C: ΔE 7.3 with deuteranopia"]
    spec = {"layer": [{"encoding": {"color": {"field": "s", "type": "nominal"}}}]}
    assert palette_problems(spec) == ["s: no palette of its own"]
    assert too_close(list(charts.CURVE_COLOURS)) == []  # the course's curves


def test_the_numbers_table_speaks_the_charts_words() -> None:
    """ "Show the numbers": each column under the chart's own name for it (a tooltip's title
    before an axis's), a percentage axis written as %, a series column kept under its own
    name, an order-only column and a label-position dataset left out."""
    curves = (
        alt.Chart(alt.NamedData(name="curves"))
        .mark_line()
        .encode(
            x=alt.X("epsilon:Q", title="ε (← more private)"),
            y=alt.Y("share:Q", title="share", axis=alt.Axis(format="%")),
            color=alt.Color("mechanism_name:N", legend=None),
            order="step:Q",
            tooltip=[alt.Tooltip("epsilon:Q", title="ε"), alt.Tooltip("share:Q", format=".1%")],
        )
    )
    labels = alt.Chart(alt.NamedData(name="labels")).mark_text().encode(x="x:Q", text="label:N")
    truth = (
        alt.Chart(alt.NamedData(name="truth"))
        .mark_rule()
        .encode(x=alt.X("epsilon:Q", title="ε (← more private)"))
    )
    template = ui_template.Template(curves + labels + truth)
    frames = {
        "curves": pd.DataFrame(
            {
                "epsilon": [0.5, 1.0],
                "share": [0.125, 0.5],
                "mechanism_name": ["a", "b"],
                "step": [1, 2],
            }
        ),
        "labels": pd.DataFrame({"x": [1.0], "label": ["here"]}),
        "truth": pd.DataFrame({"epsilon": [1.0]}),
        "empty_set": pd.DataFrame({"epsilon": []}),
    }
    shown = dict(ui_template.numbers(template, frames))
    assert list(shown) == ["curves", "truth"]
    assert shown["curves"].to_dict("list") == {
        "ε": [0.5, 1.0],
        "share": ["12.5%", "50%"],
        "mechanism name": ["a", "b"],
    }
    assert shown["truth"].to_dict("list") == {"ε": [1.0]}


def test_a_chart_that_titles_nothing_shows_every_column_it_draws() -> None:
    template = ui_template.Template(
        alt.Chart(alt.NamedData(name="points")).mark_point().encode(x="x:Q", y="y:Q")
    )
    frame = pd.DataFrame({"x": [1, 2], "y": [3, 4], "unused": [0, 0]})
    ((name, table),) = ui_template.numbers(template, {"points": frame})
    assert name == "points" and table.to_dict("list") == {"x": [1, 2], "y": [3, 4]}


def test_binned_bars_span_each_row_and_touch() -> None:
    """The pre-binned histograms' bars (ui.charts.binned_bars): each row drawn from its start
    to its end with no gap between bars, the lesson's mark and encodings kept."""
    chart = charts.binned_bars(
        "bins",
        x_title="noisy answer",
        x_scale=alt.Scale(domain=[0, 10]),
        y=alt.Y("share:Q"),
        tooltip=[alt.Tooltip("count:Q")],
        x_axis=alt.Axis(format=",~r"),
        mark={"opacity": 0.5},
        color=alt.value("#000000"),
    ).to_dict()
    assert chart["mark"] == {"type": "bar", "opacity": 0.5, "binSpacing": 0}
    assert chart["data"] == {"name": "bins"}
    x = chart["encoding"]["x"]
    assert (x["field"], x["bin"], x["title"], x["axis"]) == (
        "start",
        "binned",
        "noisy answer",
        {"format": ",~r"},
    )
    assert chart["encoding"]["x2"] == {"field": "end"}
    assert chart["encoding"]["color"] == {"value": "#000000"}
    assert chart["encoding"]["tooltip"] == [{"field": "count", "type": "quantitative"}]


# The attack's curve of reconstruction's Dinur–Nissim chart at n = 200, m = 1,000 (seed 2026):
# from 100% it falls through the majority guess (75.5%) between E = 1.5·√n and 2·√n.
DN_RATIOS = [0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0]
DN_SHARES = [1.0, 1.0, 1.0, 0.975, 0.915, 0.84, 0.765, 0.735, 0.705, 0.67]
MAJORITY = (0.755, "guess '<=50K' for all: 75.5%")


def test_a_reference_lines_label_goes_where_the_curve_does_not_cross_it() -> None:
    """A level's label at the first of left-above, right-above, left-under, right-under
    that the curve (and its error bars) does not cross over the label's width on a phone's
    plot, else on a laptop's; a projector's in presenter mode. Found: the majority guess's
    label crossed by the attack's curve falling through it, "made-up people" by a curve
    climbing through it and by an error bar."""
    places = functools.partial(charts.level_label_places, x_domain=(0.0, 4.0), y_domain=(0.0, 1.0))
    left_above, right_above, left_under, right_under = (
        (False, False),
        (True, False),
        (False, True),
        (True, True),
    )
    # far from the curve: where a label goes first
    assert places([(0.3, "a level")], DN_RATIOS, DN_SHARES, text_scale=1.0) == [left_above]
    # the falling curve crosses the line at E ≈ 1.6: on the left its fall crosses the label
    # above the line (on a phone and a laptop), on the right the curve is under it
    assert places([MAJORITY], DN_RATIOS, DN_SHARES, text_scale=1.0) == [right_above]
    assert places([MAJORITY], DN_RATIOS, DN_SHARES, text_scale=17 / 11) == [right_above]
    # the same line, its label short: left of the crossing on a phone's plot too
    assert places([(0.755, "76%")], DN_RATIOS, DN_SHARES, text_scale=1.0) == [left_above]
    # a curve rising through the line near E = 0.75, then 4 points above it: it crosses the
    # left end's labels and the right end's above the line; not the right end's under it
    ratios = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0]
    rising = [0.6, 0.7, 0.79, 0.79, 0.79, 0.79, 0.79, 0.79]
    long_label = (0.75, "a long level's label")
    assert places([long_label], ratios, rising, text_scale=1.0) == [right_under]
    # 4 points above the line, then falling through it from E = 2.5: under it on the left
    falling = [0.79] * 6 + [0.7, 0.6]
    assert places([long_label], ratios, falling, text_scale=1.0) == [left_under]
    # a curve far under the line, but an error bar through it at E = 1: the right end
    flat = [0.5] * len(ratios)
    low, high = flat, [0.5, 0.5, 0.85, 0.5, 0.5, 0.5, 0.5, 0.5]
    assert places([long_label], ratios, flat, text_scale=1.0) == [left_above]
    assert places([long_label], ratios, flat, low=low, high=high, text_scale=1.0) == [right_above]
    # a curve on the line all the way: the text above it is clear of it
    on_line = [0.75] * len(ratios)
    assert places([(0.75, "a level")], ratios, on_line, text_scale=1.0) == [left_above]
    # a curve zigzagging through the line's labels on both sides: no place is clear, left above
    dense = [i / 10 for i in range(41)]
    zigzag = [0.65, 0.85] * 20 + [0.65]
    assert places([(0.75, "a level")], dense, zigzag, text_scale=1.0) == [left_above]
    # a label stays inside the plot, where the x axis's line would cross it: a level 1% up
    # has no room under it (3 px of a 300-px plot), one 10% up has
    just_above = {"height": 300, "text_scale": 1.0}
    low_curve = [0.03] * len(ratios)  # 6 px above a line at 1%: crosses the text above it
    assert places([(0.01, "prior 1%")], ratios, low_curve, **just_above) == [left_above]
    high_curve = [0.12] * len(ratios)
    assert places([(0.1, "prior 10%")], ratios, high_curve, **just_above) == [left_under]
    # nor past its top (into the title): a level at 99% goes under its line, where a curve
    # 6 px under the line runs above the text's middle
    top_curve = [0.97] * len(ratios)
    assert places([(0.99, "a level")], ratios, top_curve, **just_above) == [left_under]
    # each level of several has its own place; a log x axis is read as the chart draws it:
    # the curve climbs through 30% at ε = 3, right of a phone's label from ε = 0.1 (on a
    # linear axis, left of it); 100% at the plot's top is labelled under its line
    log_axis = {"x_domain": (0.1, 16.0), "y_domain": (0.0, 1.0), "text_scale": 1.0}
    levels = [(1.0, "exact tables: 100%"), (0.3, "made-up people: 30%")]
    curve = ([0.1, 1.0, 3.0, 16.0], [0.1, 0.2, 0.3, 0.95])
    assert charts.level_label_places(levels, *curve, x_log=True, **log_axis) == [
        left_under,
        left_above,
    ]
    assert charts.level_label_places(levels, *curve, **log_axis) == [left_under, right_above]


def test_a_levels_shorter_words_are_used_only_where_its_longest_are_crossed_everywhere() -> None:
    """Reconstruction at 12 people on a phone: the curve crosses 31.9% three times and its
    bars span it, so "made-up people: 31.9%" was crossed on every side; its shorter words
    fit right above the line. Where the long words fit (a curve far from the line) they
    stay; where neither fits, the longest go left above."""
    log_axis = {"x_domain": (0.1, 16.0), "y_domain": (0.0, 1.0), "x_log": True, "text_scale": 1.0}
    epsilons = [0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0]
    shares = [0.05, 0.18, 0.37, 0.18, 0.25, 0.6, 0.6, 0.97]
    words = ("made-up people: 31.9%", "made-up: 31.9%")
    placed = charts.placed_level_labels([(0.319, words)], epsilons, shares, **log_axis)
    assert placed == [("made-up: 31.9%", True, False)]
    far = [0.9] * len(epsilons)
    assert charts.placed_level_labels([(0.319, words)], epsilons, far, **log_axis) == [
        (words[0], False, False)
    ]
    on_line = [0.319] * len(epsilons)
    assert charts.placed_level_labels([(0.319, words)], epsilons, on_line, **log_axis) == [
        (words[0], False, False)
    ]
    # one string is one choice of words
    assert charts.placed_level_labels([(0.319, "made-up: 31.9%")], epsilons, shares, **log_axis)[
        0
    ] == ("made-up: 31.9%", True, False)


def test_a_rules_label_goes_to_the_bottom_only_where_a_curve_runs_along_the_top() -> None:
    """Uncertainty's ratio bias at ε = 0.01 ran along the plot's top (its values past the
    axis, drawn at its edge) through "your group: 20": the label goes to the bottom when the
    top is crossed over its width and the bottom is not."""
    at_bottom = functools.partial(
        charts.rule_label_at_bottom,
        x_domain=(4.0, 1_500.0),
        y_domain=(-5.0, 30.0),
        x_log=True,
        height=220,
        text_scale=1.0,
    )
    people = [5, 10, 20, 50, 200, 1_000]
    saturated = [13.0, 196.0, 421.0, 1_089.0, 2_656.0, 290.0]  # clamped to 30 as drawn
    assert at_bottom(20, "your group: 20", people, saturated)
    assert not at_bottom(20, "your group: 20", people, [1.0, 0.5, 0.2, 0.1, 0.0, 0.0])
    # left of a rule at 1,000: the points there are at the top too
    assert at_bottom(1_000, "your group: 1,000", people, saturated, right_of=False)
    # a whisker through the whole height under the label on every plot (at 22.5, past the
    # 4 px the label starts from its rule): both ends crossed, the top stays
    dense = [5, 10, 20, 22.5, 50, 200, 1_000]
    dense_saturated = [13.0, 196.0, 421.0, 500.0, 1_089.0, 2_656.0, 290.0]
    full = [-500.0] * 7, [900.0] * 7
    assert not at_bottom(20, "your group: 20", dense, dense_saturated, low=full[0], high=full[1])
    # the whisker at 50 is under the label on a phone's and a laptop's plot (both ends
    # crossed there); across a 1,000-px plot the label ends at 36, clear of it: the bottom
    full = [-500.0] * 6, [900.0] * 6
    assert at_bottom(20, "your group: 20", people, saturated, low=full[0], high=full[1])
    # the whisker at the rule's own size is not under the label (it starts 4 px on)
    low = [-500.0, -500.0, -500.0, 30.0, 30.0, 30.0]
    high = [900.0, 900.0, 900.0, 30.0, 30.0, 30.0]
    assert at_bottom(20, "your group: 20", people, saturated, low=low, high=high)


def test_a_rule_label_is_placed_for_a_wider_plot_where_the_narrowest_does_not_decide() -> None:
    """A label spans less of the x axis on a wider plot, and starts nearer its rule: on a
    1080p projector PTR's "b = 0.5" was crossed by the curve leaving the plot's top corner,
    which a phone's plot (the one it was placed for) puts wholly left of the label. Where
    the narrowest plot finds neither place crossed, a wider one decides; where it finds one
    crossed and the other not, it decides alone."""
    at_bottom = functools.partial(
        charts.rule_label_at_bottom, x_domain=(0.0, 100.0), y_domain=(0.0, 30.0), height=220
    )
    # flat along the top to x = 1, down to mid-height by x = 2: on a 270-px plot the label
    # starts at x = 1.5, clear of it; on 440 px at x = 0.9, where it falls through the top
    x, y = [0.0, 1.0, 2.0, 100.0], [30.0, 30.0, 15.0, 15.0]
    for scale in (1.0, 17 / 11):
        assert at_bottom(0.0, "b = 0.5", x, y, text_scale=scale)
    # the label stays at the top where no width finds the top crossed
    assert not at_bottom(0.0, "b = 0.5", [0.0, 100.0], [15.0, 15.0], text_scale=1.0)
    # a phone's plot decides first: its label's bottom crossed by a bar at x = 15 (which a
    # 440-px plot's label, ending at x = 12, does not reach), its top clear
    x, y = [*x[:3], 15.0, 100.0], [*y[:3], 15.0, 15.0]
    bar = dict(low=[15.0, 15.0, 15.0, 0.0, 15.0], high=[15.0, 15.0, 15.0, 2.0, 15.0])
    assert not at_bottom(0.0, "b = 0.5", x, y, text_scale=1.0, **bar)
    assert at_bottom(0.0, "b = 0.5", x, y, text_scale=1.0)  # the bar is what decided
    assert charts.RULE_PLOT_PX[0] == min(charts.RULE_PLOT_PX)
    assert charts.PRESENTER_RULE_PLOT_PX[0] == min(charts.PRESENTER_RULE_PLOT_PX)


def test_presenter_mode_scales_a_text_marks_offsets_with_its_font() -> None:
    """A label 6 px above its line at 11 px sat on the line at the projector's 17 px: the
    offsets of a text mark grow with its font; a mark with a font size of its own grows by
    17/11, its offsets with it (it stayed at its own 11 px beside the projector's 19 px axis
    labels: the census's counts, the tree's days, unary's bits); other marks and the rows
    are not touched."""
    from ui import template as ui_template

    rows = [{"dy": 5}]
    spec = {
        "data": {"values": rows},
        "layer": [
            {"mark": {"type": "text", "dx": 4, "dy": -6, "align": "left"}},
            {"mark": {"type": "text", "dy": -8, "fontSize": 14}},
            {"mark": {"type": "point", "dy": 3}},
            {"mark": "text"},
        ],
    }
    merged = ui_template.presenter_spec(spec)
    marks = [layer["mark"] for layer in merged["layer"]]
    assert marks[0] == {"type": "text", "dx": 6.2, "dy": -9.3, "align": "left"}
    assert marks[1] == {"type": "text", "dy": -12.4, "fontSize": 21.6}
    assert marks[2:] == [{"type": "point", "dy": 3}, "text"]
    assert merged["data"]["values"] is rows and rows == [{"dy": 5}]
    assert spec["layer"][0]["mark"]["dy"] == -6  # the template is not changed
    # a spec that writes its text at 12 px: scaled 17/12
    own = ui_template.presenter_spec({**spec, "config": {"text": {"fontSize": 12}}})
    assert own["layer"][0]["mark"]["dy"] == round(-6 * 17 / 12, 1) == -8.5


def test_a_reference_lines_label_goes_under_it_from_a_value_on() -> None:
    """The attacker's prior on the definition's belief chart: its label at the line's right
    end, above the line, and under it from a prior of 50% on (above a line at 99% it was at
    the plot's top, where the curve ends)."""
    data = alt.Data(values=[{"p": 0.1, "label": "prior 10%"}])
    layers = charts.reference_line_layers(
        data, "p", y_scale=alt.Scale(domain=[0, 1]), right=True, below_from=0.5
    ).to_dict()["layer"]
    rule, above, under = layers
    assert rule["mark"]["type"] == "rule"
    assert above["transform"] == [{"filter": "(datum['p'] < 0.5)"}]
    assert under["transform"] == [{"filter": "(datum['p'] >= 0.5)"}]
    assert (above["mark"]["dy"], under["mark"]["dy"], under["mark"]["baseline"]) == (-6, 4, "top")
    assert above["mark"]["align"] == under["mark"]["align"] == "right"
    assert above["encoding"]["x"] == {"value": "width"}
    # without it, one label (above, or under with `below`)
    plain = charts.reference_line_layers(data, "p", y_scale=alt.Scale()).to_dict()["layer"]
    assert len(plain) == 2 and plain[1]["mark"]["dy"] == -6


def test_a_reference_lines_label_goes_to_the_right_end_from_a_value_on() -> None:
    """The audit's claimed ε: at the left the buggy audit climbs through the line at a claim
    of 1; at a claim of 0.1 both audits end within a label of it: left below 0.25, right
    from there on."""
    data = alt.Data(values=[{"y": 1.0, "label": "claimed ε = 1"}])
    layers = charts.reference_line_layers(data, "y", y_scale=alt.Scale(), right=0.25).to_dict()
    _, left, right = layers["layer"]
    assert left["transform"] == [{"filter": "(datum['y'] < 0.25)"}]
    assert right["transform"] == [{"filter": "(datum['y'] >= 0.25)"}]
    assert (left["mark"]["align"], left["encoding"]["x"]) == ("left", {"value": 0})
    assert (right["mark"]["align"], right["encoding"]["x"]) == ("right", {"value": "width"})
    # both: four labels, each under one condition of each
    both = charts.reference_line_layers(
        data, "y", y_scale=alt.Scale(), right=0.25, below_from=0.5
    ).to_dict()["layer"][1:]
    assert [layer["transform"][0]["filter"].count("&&") for layer in both] == [1, 1, 1, 1]


def test_a_label_beside_a_rising_curve_goes_where_the_curve_is_not() -> None:
    """Left of and above its point from `left_from` on (the curve there is lower); before
    that right of and under it (the curve there is higher), above it near the bottom."""
    x, y = alt.X("m:Q"), alt.Y("sd:Q")
    layers = charts.rising_curve_label_layers(
        alt.NamedData(name="current"), x, y, left_from=6, under_from=0.3
    ).to_dict()["layer"]
    places = [
        (layer["mark"]["align"], layer["mark"]["dy"], layer["transform"][0]["filter"])
        for layer in layers
    ]
    assert places == [
        ("right", -10, "(datum['m'] >= 6)"),
        ("left", 12, "((datum['m'] < 6) && (datum['sd'] >= 0.3))"),
        ("left", -10, "((datum['m'] < 6) && (datum['sd'] < 0.3))"),
    ]


def test_a_rules_label_goes_where_nothing_crosses_it_or_says_it_cannot() -> None:
    """ui.charts.rule_label_side on a log k axis from 2 to 1,024 (unary encoding's): right
    of its rule, else left, else ""; the other rule, a curve, a bar or the plot's edge each
    move it. A phone's plot is the narrowest (about 30 px a doubling of k)."""
    side = functools.partial(
        charts.rule_label_side,
        top=2,
        x_domain=(2.0, 1024.0),
        y_domain=(1.0, 100.0),
        x_log=True,
        height=340,
        text_scale=1.0,
    )
    assert side(5.316, "k* = 5.316") == charts.RIGHT
    # the attribute's rule at 14, 1.4 doublings on: inside the label's 2.2 on a phone
    assert side(5.316, "k* = 5.316", rules=(14.0,)) == ""
    assert side(5.316, "k*", rules=(14.0,)) == charts.RIGHT  # shorter words fit
    assert side(10.15, "k* = 10.15", rules=(14.0,)) == charts.LEFT
    assert side(900.0, "k* = 900") == charts.LEFT  # past the right edge otherwise
    # a curve through the label's row (its top 2 px under the plot's top, y = 100) on the
    # right: left; and a bar through it on the left too: no side
    near_top = ([25.0, 100.0], [97.0, 97.0])
    assert side(20.0, "a label", lines=(near_top,)) == charts.LEFT
    assert side(20.0, "a label", lines=(near_top,), bars=((12.0, 1.0, 100.0),)) == ""
    # the same curve far under the row crosses nothing
    assert side(20.0, "a label", lines=(([10.0, 40.0], [50.0, 50.0]),)) == charts.RIGHT
    assert charts.rule_label_choice(
        5.316, ("k* = 5.316", "k*"), rules=(14.0,), **side.keywords
    ) == (
        "k*",
        charts.RIGHT,
    )
    # other rules close on both sides: no words fit, the longest are returned with no side
    assert charts.rule_label_choice(
        5.316, ("k* = 5.316", "k* ="), rules=(5.5, 4.0), **side.keywords
    ) == (
        "k* = 5.316",
        "",
    )


def test_a_step_outline_is_its_treads_and_risers() -> None:
    treads, risers = charts.step_outline([1.0, 2.0, 3.0], [0.1, 0.3, 0.2])
    assert [list(v) for v in treads] == [[1.0, 2.0, 2.0, 3.0, 3.0], [0.1, 0.1, 0.3, 0.3, 0.2]]
    assert risers == ((2.0, 0.1, 0.3), (3.0, 0.3, 0.2))


def test_a_files_long_names_are_cut_in_the_winners_legend_and_the_courses_are_not() -> None:
    """Finding (a file uploaded on Choosing privately, its categories 50 to 80 characters
    long): the legend of "The chance of each winner" ran past the chart's edge on a laptop
    and a phone, and the winners' bars' x title ran past it on a phone (centred under a plot
    the long names left narrow). Names longer than the course's longest here are cut at a
    width, with "…"; the course's are never cut; the title sits at the plot's right end."""

    def legend(series: tuple[str, ...]) -> dict:
        spec = charts.win_curves(series, (0.001, 10.0)).spec
        return spec["layer"][0]["encoding"]["color"]["legend"]

    course = ("stops at a count < T (false positive)", "stops at a count ≥ T (true positive)")
    assert legend(course)["labelLimit"] == 0  # whole
    long = ("Administrative and clerical support occupations in large public institutions", "Armed")
    assert 0 < legend(long)["labelLimit"] <= 200
    x = charts.win_bars(3, "chance of being reported").spec["layer"][0]["encoding"]["x"]
    assert x["axis"]["titleAnchor"] == "end"
