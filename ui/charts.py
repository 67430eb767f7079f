"""The course's chart library: the palette, and the charts and layers two or more lessons
share, each a `Template` (the one chart API, ui/template.py).

A lesson's charts.py builds each chart once as a `Template` (data-free, cached); its page
calls `template.show(title=…, alt=…, name=frame, …)` with this run's pre-aggregated
DataFrames (bins, not samples). Axes are fixed in the template; the true value is a
labelled rule (`truth_rule_layers`)."""

from __future__ import annotations

import functools
import math
import operator
from dataclasses import dataclass

import altair as alt
import numpy as np
import pandas as pd

from ui import datasets
from ui.template import Template, current_text_scale

# Okabe–Ito, a colour-blind-safe palette. Meaning never rests on colour alone: the
# true value is also dashed and labelled.
BLUE = "#0072B2"
ORANGE = "#E69F00"
GREEN = "#009E73"
VERMILLION = "#D55E00"
SKY = "#56B4E9"
BLACK = "#000000"
GREY = "#999999"

TRUTH_COLOUR = BLACK
NOISY_COLOUR = BLUE

DEFAULT_WIDTH = "container"
DEFAULT_HEIGHT = 260

# A legend below its chart, one entry per line: it never runs past the chart's right edge,
# whatever the width (a one-row legend of long labels did, by up to 267 px). Two columns where
# the labels are short.
STACKED_LEGEND = alt.Legend(orient="bottom", title=None, direction="vertical", labelLimit=0)
TWO_COLUMN_LEGEND = alt.Legend(
    orient="bottom", title=None, direction="horizontal", columns=2, labelLimit=0
)


def histogram_frame(
    values: np.ndarray, *, domain: tuple[float, float], bins: int = 60
) -> pd.DataFrame:
    """Counts of `values` in `bins` equal bins over `domain`; values beyond the domain
    are counted in the edge bins (the axis never rescales)."""
    lo, hi = float(domain[0]), float(domain[1])
    values = np.clip(np.asarray(values, dtype=float), lo, hi)
    counts, edges = np.histogram(values, bins=bins, range=(lo, hi))
    return pd.DataFrame(
        {
            "start": edges[:-1],
            "end": edges[1:],
            "count": counts,
            "share": counts / max(len(values), 1),
        }
    )


def binned_bars(
    data: str,
    *,
    x_title,
    x_scale: alt.Scale,
    y: alt.Y,
    tooltip: list,
    x_axis: alt.Axis | None = None,
    mark: dict | None = None,
    **encodings,
) -> alt.Chart:
    """Bars over pre-binned rows of dataset `data`: each from its `start` to its `end`
    (Vega-Lite's `bin="binned"`: bars, not ranged rows), touching (`binSpacing=0`: at phone
    width 100 bins with the default 1 px gap become hairlines). The lesson gives the height
    `y`, the tooltip, the mark's colour or opacity (`mark`) and any other encoding (`color`,
    `y2`)."""
    axis = {} if x_axis is None else {"axis": x_axis}
    return (
        alt.Chart(alt.NamedData(name=data))
        .mark_bar(**(mark or {}), binSpacing=0)
        .encode(
            x=alt.X("start:Q", bin="binned", title=x_title, scale=x_scale, **axis),
            x2="end:Q",
            y=y,
            **encodings,
            tooltip=tooltip,
        )
    )


def truth_rule_layers(
    x_scale: alt.Scale | None = None,
    *,
    data: alt.Data | pd.DataFrame | None = None,
    label_dy: float = -4,
    flip_at: float | None = None,
    bottom: str | None = None,
    labelled: bool = True,
    above_plot: bool = False,
) -> alt.LayerChart:
    """The true value as a dashed vertical rule labelled at the top: fields "x" and "label"
    of `data` (by default the named dataset "truth", filled in per rerun). The label sits
    right of the rule; with `flip_at`, left of it once x >= flip_at (so a rule near the
    right edge keeps its label inside the chart). A "\n" in a label starts a new line. With
    `bottom`, a boolean field: the label at the plot's bottom where it is true
    (`rule_label_at_bottom`: a curve runs along the top there). Not `labelled`: the rule
    alone, its words in the chart's title (noisy lines fill the plot from top to bottom).
    `above_plot`: the label just above the plot's top edge, under the title, where no line
    of the chart runs (a ROC curve hugs the plot's top-left corner, where "FPR 1%" was)."""
    base = alt.Chart(alt.NamedData(name="truth") if data is None else data)
    x = alt.X("x:Q", scale=x_scale) if x_scale is not None else alt.X("x:Q")
    rule = base.mark_rule(color=TRUTH_COLOUR, strokeDash=[6, 3], strokeWidth=2).encode(x=x)
    if not labelled:
        return rule
    style = {"color": TRUTH_COLOUR, "fontWeight": "bold", "lineBreak": "\n"}
    ends = [({"dy": label_dy, "baseline": "top"}, alt.value(0), None)]
    if above_plot:
        ends = [({"dy": -2, "baseline": "bottom"}, alt.value(0), None)]
    elif bottom is not None:
        at_bottom = alt.datum[bottom]
        ends = [
            ({"dy": label_dy, "baseline": "top"}, alt.value(0), ~at_bottom),
            ({"dy": -label_dy, "baseline": "bottom"}, alt.value("height"), at_bottom),
        ]
    layers = rule
    for place, y, when in ends:
        encoding = {"x": x, "y": y, "text": "label:N"}
        right_of = base.mark_text(align="left", dx=4, **place, **style).encode(**encoding)
        left_of = base.mark_text(align="right", dx=-4, **place, **style).encode(**encoding)
        sides = [(right_of, None)]
        if flip_at is not None:
            sides = [(right_of, alt.datum.x < flip_at), (left_of, alt.datum.x >= flip_at)]
        for layer, side in sides:
            layers += _drawn_where(layer, when, side)
    return layers


def _drawn_where(layer, *conditions):
    """`layer` drawn only where each of `conditions` holds (None or True: everywhere)."""
    kept = [c for c in conditions if c is not None and c is not True]
    return layer.transform_filter(functools.reduce(operator.and_, kept)) if kept else layer


def _plot_place(x_domain, y_domain, *, x_log: bool, y_log: bool, height: float):
    """Where data lands on a plot: (across, down), functions of values giving the share of
    the plot's width from its left edge and the px from its top (values past the y domain
    at its edge, as a clamped scale draws them)."""
    warp = np.log if x_log else np.asarray
    x0, x1 = (float(v) for v in warp(np.asarray(x_domain, dtype=float)))
    y_warp = np.log if y_log else np.asarray
    y0, y1 = (float(v) for v in y_warp(np.asarray(y_domain, dtype=float)))

    def across(values) -> np.ndarray:
        return (warp(np.asarray(values, dtype=float)) - x0) / (x1 - x0)

    def down(values) -> np.ndarray:
        clamped = np.clip(np.asarray(values, dtype=float), *y_domain)
        return (y1 - y_warp(clamped)) * height / (y1 - y0)

    return across, down


RIGHT, LEFT = "right", "left"


def rule_label_side(
    rule_x: float,
    label: str,
    *,
    top: float,
    x_domain: tuple[float, float],
    y_domain: tuple[float, float],
    x_log: bool = False,
    y_log: bool = False,
    lines: tuple = (),
    bars: tuple = (),
    rules: tuple = (),
    height: float = DEFAULT_HEIGHT,
    text_scale: float | None = None,
) -> str:
    """Where a vertical rule's `label` (its lines split at "\n", written 4 px from the rule
    at `rule_x`, its top `top` px under the plot's top at the page's font) goes: RIGHT of
    the rule, else LEFT, the first side where it stays inside the plot and meets no polyline
    of `lines` ((xs, ys) each, in the data's units), bar of `bars` ((x, low, high)) or other
    rule at an x of `rules`, on a phone's plot and on a laptop's (PLOT_PX; a projector's in
    presenter mode), as tests/browser_helpers.CHART_TEXT_CROSSED reads a crossing (the
    middle 40% of the text's height, 3 px to spare); else "": the page says it elsewhere
    (the chart's title). Values past the y domain are drawn at its edge. Found on a phone:
    central vs local's "central sd ± 0.1414" (ε = 10, a projector) crossed by the local
    outline's tallest bin with no room on its left; unary encoding's "k* = 5.316" (ε = 0.1)
    by the attribute's rule at k = 14, 1.4 doublings of k to its right."""
    scale = current_text_scale() if text_scale is None else float(text_scale)
    across, down = _plot_place(x_domain, y_domain, x_log=x_log, y_log=y_log, height=height)

    drawn = [(across(xs), down(ys)) for xs, ys in lines]
    crossing = [
        (float(across([x])[0]), float(down([low])[0]), float(down([high])[0]))
        for x, low, high in bars
    ]
    crossing += [(float(across([x])[0]), 0.0, float(height)) for x in rules]
    words = str(label).split("\n")
    tall = len(words) * TEXT_LINE_PX * scale
    band = (top * scale + 0.3 * tall - 3, top * scale + 0.7 * tall + 3)
    at = float(across([rule_x])[0])
    width = (max(len(line) for line in words) * LABEL_CHAR_PX + 4) * scale
    for side in (RIGHT, LEFT):
        spans = [
            (at, at + width / px) if side == RIGHT else (at - width / px, at)
            for px in (PLOT_PX if scale == 1.0 else PRESENTER_PLOT_PX)
        ]
        if all(
            start >= 0.0 and end <= 1.0 and not crosses(drawn, crossing, (start, end), band)
            for start, end in spans
        ):
            return side
    return ""


def rule_label_choice(rule_x: float, labels: tuple[str, ...], **options) -> tuple[str, str]:
    """The first of `labels` (longest first) that `rule_label_side` finds a side for, and
    that side; (the longest, "") where none fits."""
    for label in labels:
        side = rule_label_side(rule_x, label, **options)
        if side:
            return label, side
    return labels[0], ""


def step_outline(starts, heights) -> tuple[tuple, tuple]:
    """A step-after line through (`starts`, `heights`) (Vega's interpolate "step-after") as
    `rule_label_side` reads it: its treads, one polyline, and its risers, bars."""
    x, y = np.asarray(starts, dtype=float), np.asarray(heights, dtype=float)
    treads = (np.repeat(x, 2)[1:], np.repeat(y, 2)[:-1])
    risers = tuple(zip(x[1:], y[:-1], y[1:], strict=True))
    return treads, risers


def rule_label_at_bottom(
    rule_x: float,
    label: str,
    x,
    y,
    *,
    x_domain: tuple[float, float],
    y_domain: tuple[float, float],
    right_of: bool = True,
    x_log: bool = False,
    y_log: bool = False,
    low=None,
    high=None,
    others: tuple = (),
    label_dy: float = -4,
    height: float = DEFAULT_HEIGHT,
    text_scale: float | None = None,
) -> bool:
    """Whether a vertical rule's `label` (`truth_rule_layers`, `right_of` the rule at
    `rule_x` or left of it) goes at the plot's bottom: the curve through (`x`, `y`) (with
    bars from `low` to `high`; and each (x, y) of `others`) crosses it at the top over its
    width on a phone's plot, and not at the bottom (the label `label_dy` px from the plot's
    edge, as `truth_rule_layers` was given it); where both or neither are crossed there,
    as a wider plot decides (RULE_PLOT_PX; in presenter mode PRESENTER_RULE_PLOT_PX, from
    1280×720's column to 1920×1080's full width). Values past the y domain are drawn at its
    edge (a clamped scale). Found: uncertainty's "your group: 20" at ε = 0.01, crossed by
    the ratio's bias drawn along the plot's top; approximate DP's "Gaussian cheaper from k =
    25" by the advanced composition's curve climbing to the top on a phone; on a 1080p
    projector (a plot 950 px wide, where a label spans less of the x axis and a curve
    stays under it longer) PTR's "b = 0.5" and sample-and-aggregate's "k = 5"."""
    scale = current_text_scale() if text_scale is None else float(text_scale)
    across, down = _plot_place(x_domain, y_domain, x_log=x_log, y_log=y_log, height=height)

    lines = [(across(xs), down(ys)) for xs, ys in ((x, y), *others)]
    bars = [] if low is None else list(zip(across(x), down(high), down(low), strict=True))
    at = float(across([rule_x])[0])
    half = scale * TEXT_LINE_PX * 0.2 + 3
    # the text's middle under the plot's top (its top `label_dy` px under it), or over its
    # bottom (truth_rule_layers)
    middle = scale * (label_dy + TEXT_LINE_PX / 2)
    for plot_px in RULE_PLOT_PX if scale == 1.0 else PRESENTER_RULE_PLOT_PX:
        gap, reach = 4 / plot_px, (len(str(label)) * LABEL_CHAR_PX + 8) * scale / plot_px
        # the label starts 4 px from the rule: a bar at the rule's own x is not under it
        span = (at + gap, at + reach) if right_of else (at - reach, at - gap)
        top = crosses(lines, bars, span, (middle - half, middle + half))
        under = crosses(lines, bars, span, (height - middle - half, height - middle + half))
        if top != under:  # this width decides; where both or neither are, the next one
            return top
    return False


def truth_ticks(
    y: alt.Y, x_scale: alt.Scale, *, size: float, colour: str = TRUTH_COLOUR
) -> alt.Chart:
    """The true count of each category as a tick across its bar(s): fields "category" and
    "true count" of the named dataset "truth"."""
    return (
        alt.Chart(alt.NamedData(name="truth"))
        .mark_tick(color=colour, thickness=3, size=size)
        .encode(
            y=y,
            x=alt.X("true count:Q", scale=x_scale),
            tooltip=[alt.Tooltip("category:N"), alt.Tooltip("true count:Q", format=",")],
        )
    )


def describe_histogram(values: np.ndarray, truth: float, *, what: str = "noisy answers") -> str:
    """Alt text for a histogram: how many values, where they centre, how far they spread
    (shared by array identity, as band_histogram_data: two percentiles of 10,000 values are
    not redone for every student)."""
    if isinstance(values, np.ndarray):
        key = ("describe_histogram", float(truth), what)
        return datasets.derived_from(values, key, lambda: _describe_histogram(values, truth, what))
    return _describe_histogram(values, truth, what)


def _describe_histogram(values, truth: float, what: str) -> str:
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return f"An empty histogram of {what}."
    lo, hi = np.percentile(values, [2.5, 97.5])
    return (
        f"Histogram of {values.size:,} {what}. The true value {truth:,.0f} is drawn as a "
        f"dashed line. Answers centre on {np.median(values):,.1f}; 95% of them lie between "
        f"{lo:,.1f} and {hi:,.1f}."
    )


def curve(data: str, x: alt.X, y: alt.Y, tooltip: list, *, colour: str = BLUE) -> alt.Chart:
    """A 2 px line through the named dataset `data` (a curve over ε, k, m, …)."""
    return (
        alt.Chart(alt.NamedData(name=data))
        .mark_line(color=colour, strokeWidth=2)
        .encode(x=x, y=y, tooltip=tooltip)
    )


def _superscript(expression: str) -> str:
    """A Vega expression: `expression`'s text with digits and minus signs superscripted."""
    for plain_char, raised in zip("-−0123456789", "⁻⁻⁰¹²³⁴⁵⁶⁷⁸⁹", strict=True):
        expression = f"replace({expression}, regexp('{plain_char}', 'g'), '{raised}')"
    return expression


_EXPONENT = "round(log(datum.value) / LN10)"
_EXPONENT_TEXT = _superscript("format(" + _EXPONENT + ", 'd')")
# Axis labels of a log axis that reaches small values: every power of ten below 1 as 10⁻ⁿ
# (10⁻⁵, 10⁻², 10⁻¹), any other value with d3's ",~r" (0.05, 1, 200, 10,000: "~g" wrote
# 1000 and 10000 beside the page's 1,000, and would write a million as 1e+6). One notation
# on one axis: with ui.text.power_of_ten's threshold (0.01) the ticks read "10⁻³, 0.01,
# 0.1". Vega's own "~g" or "~e" gave "1e-14".
POWER_OF_TEN_LABELS = (
    "datum.value > 0 && datum.value < 1 && "
    f"abs(log(datum.value) / LN10 - {_EXPONENT}) < 1e-6 "
    f"? '10' + {_EXPONENT_TEXT} "
    ": format(datum.value, ',~r')"
)


def power_of_ten_axis(**kwargs) -> alt.Axis:
    """An axis for a log scale that reaches small probabilities (δ, a density): 10⁻¹⁴, not
    1e-14 (the labels as ui.text.power_of_ten writes numbers on the page)."""
    return alt.Axis(labelExpr=POWER_OF_TEN_LABELS, **kwargs)


def log_density_y(domain: tuple[float, float]) -> alt.Y:
    """The y axis of a density plotted on a fixed log scale (values beyond it are clamped)."""
    return alt.Y(
        "density:Q",
        title="density",
        scale=alt.Scale(type="log", domain=list(domain), clamp=True),
        axis=power_of_ten_axis(),
    )


def reference_line_layers(
    data: alt.Data | alt.NamedData,
    field: str,
    *,
    y_scale: alt.Scale,
    below: bool | str = False,
    right: bool | float | str = False,
    below_from: float | None = None,
):
    """A dashed horizontal reference line at `field` with its `label` written on the left,
    above the line (or, with `below`, under it: where a curve runs just above the line; with
    `below_from`, under it once the line is at that value or higher: near the plot's top;
    with `right`, at the right end: where the chosen point can sit on the line's left end,
    or, a number, at the right end once the line is at that value or higher: where curves
    that meet the line at the left at one value, and at the right at another)
    (e.g. the prior belief, or a coin toss's 50%). `below` or `right` the name of a boolean
    field of the data: that line's own choice (the page knows where its curve runs)."""
    base = alt.Chart(data)
    rule = base.mark_rule(color=BLACK, strokeDash=[6, 3]).encode(
        y=alt.Y(f"{field}:Q", scale=y_scale)
    )

    def text(under: bool, at_right: bool):
        place = {"baseline": "top", "dy": 4} if under else {"dy": -6}
        side = {"align": "right", "dx": -4} if at_right else {"align": "left", "dx": 4}
        return base.mark_text(color=BLACK, fontWeight="bold", **side, **place).encode(
            x=alt.value("width" if at_right else 0),
            y=alt.Y(f"{field}:Q", scale=y_scale),
            text="label:N",
        )

    value = alt.datum[field]

    def split(flag: bool | float | str, start: float | None = None):
        """(flag, when): `flag` always; or False below `start` and True from it on; or, a
        field's name, as that field says."""
        if isinstance(flag, str):
            return [(False, ~alt.datum[flag]), (True, alt.datum[flag])]
        if start is None:
            return [(flag is True, True)]
        return [(False, value < start), (True, value >= start)]

    right_from = None if isinstance(right, bool | str) else float(right)
    layers = rule
    for under, when_under in split(below, below_from):
        for at_right, when_right in split(right, right_from):
            layers += _drawn_where(text(under, at_right), when_under, when_right)
    return layers


def marked_point_layers(
    data: alt.Data | alt.NamedData,
    x: str,
    y: str,
    *,
    x_scale: alt.Scale,
    y_scale: alt.Scale,
    flip_at: float | None = None,
    labelled: bool = True,
):
    """A blue diamond at the current (x, y) on a curve, with its `label` beside it: to its
    left, or, with `flip_at`, to its right while x < flip_at (so a label near the left edge of
    the plot does not run over the axis). Just above the diamond, or where the data's field
    "place" says (MARK_LABEL_PLACES: a line higher, or under it). Not `labelled`: the
    diamond alone (its words are in the chart's title: beside a curve that climbs steeply
    or has error bars, every place around it was crossed in some state)."""
    base = alt.Chart(data)
    encoding = {"x": alt.X(f"{x}:Q", scale=x_scale), "y": alt.Y(f"{y}:Q", scale=y_scale)}
    point = base.mark_point(shape="diamond", size=160, filled=True, color=BLUE).encode(**encoding)
    layers = point
    if not labelled:
        return layers
    for place, dy in MARK_LABEL_PLACES.items():
        # a mark without the field is placed ABOVE (Vega reads a missing field as null)
        side = alt.expr.if_(alt.datum.place, alt.datum.place, ABOVE) == place
        style = {"dy": dy, "color": BLUE, "fontWeight": "bold"}
        left_of = base.mark_text(align="right", dx=-10, **style).encode(**encoding, text="label:N")
        if flip_at is None:
            layers += left_of.transform_filter(side)
            continue
        right_of = base.mark_text(align="left", dx=10, **style).encode(**encoding, text="label:N")
        field = alt.datum[x]
        layers += left_of.transform_filter(side & (field >= flip_at))
        layers += right_of.transform_filter(side & (field < flip_at))
    return layers


def rising_curve_label_layers(
    data: alt.Data | alt.NamedData,
    x: alt.X,
    y: alt.Y,
    *,
    left_from: float,
    under_from: float,
):
    """The bold black `label` of a point on a rising curve, written where the curve is not:
    left of the point and above it once x >= `left_from` (there is room on the left, and
    the curve there is lower); before that right of it and under it (the curve there is
    higher), or above it while y < `under_from` (the plot's bottom is near). Found:
    "occupation: k = 14" and composition's "14.14" written right of and above their points,
    crossed by the curve as it rose."""
    base = alt.Chart(data)
    x_field, y_field = alt.datum[x.to_dict()["field"]], alt.datum[y.to_dict()["field"]]
    style = {"fontWeight": "bold", "color": BLACK}
    places = (
        ({"align": "right", "dx": -8, "dy": -10}, x_field >= left_from),
        ({"align": "left", "dx": 8, "dy": 12}, (x_field < left_from) & (y_field >= under_from)),
        ({"align": "left", "dx": 8, "dy": -10}, (x_field < left_from) & (y_field < under_from)),
    )
    layers = [
        base.mark_text(**style, **place).encode(x=x, y=y, text="label:N").transform_filter(when)
        for place, when in places
    ]
    return alt.layer(*layers)


# Where `marked_point_layers` and `reference_line_layers` write their labels: the middle of a
# label, in px down from its point or line (a text line is about TEXT_LINE_PX tall)
ABOVE, HIGHER, UNDER, HIGHEST, LOWER = "above", "higher", "under", "highest", "lower"
TEXT_LINE_PX = 14
MARK_LABEL_PLACES = {
    ABOVE: -10,
    HIGHER: -10 - TEXT_LINE_PX,
    UNDER: 12,
    HIGHEST: -10 - 2 * TEXT_LINE_PX,
    LOWER: 12 + TEXT_LINE_PX,
}
LEVEL_LABEL_ABOVE_PX = -6  # reference_line_layers: its middle 6 px above the line
LEVEL_LABEL_BELOW_PX = 11  # its top 4 px under the line


# How wide a reference line's label is drawn: a bold character of the chart's 11-px font is
# about 6.5 px wide; a plot beside its controls is about 270 px wide on a phone (the narrowest
# the course is drawn at) and 440 px on a laptop; in presenter mode (17/11 larger text) 600 px
# on the projector's 1280×720 and more on a larger one
LABEL_CHAR_PX = 6.5
PLOT_PX = (270, 440)
PRESENTER_PLOT_PX = (600,)
# The plots a rule's label is placed for (rule_label_at_bottom), narrowest first: a phone's,
# a laptop's beside its controls and across the page; presenter mode's at 1280×720 beside
# its controls, at 1920×1080 beside them (950 px) and across the page (1,425 px)
RULE_PLOT_PX = (270, 440, 1_000)
PRESENTER_RULE_PLOT_PX = (600, 950, 1_425)


def series_curves(frame: pd.DataFrame, field: str, names, x: str, y: str) -> list[tuple]:
    """Each series' (x values, y values) of a long frame (one row per point, `field` naming
    its series), in the order of `names`: what `level_label_places` and
    `rule_label_at_bottom` read. With numpy (a pandas filter per series cost ~1 ms a press)."""
    which = frame[field].to_numpy(dtype=object)
    xs, ys = frame[x].to_numpy(dtype=float), frame[y].to_numpy(dtype=float)
    return [(xs[which == name], ys[which == name]) for name in names]


def level_label_places(levels, x, y, **options) -> list[tuple[bool, bool]]:
    """Where each reference line's label ((y, label) of `levels`, `reference_line_layers`)
    goes so that the curve through (`x`, `y`) does not cross it, as (right, under): see
    `placed_level_labels`, whose choice of place this is."""
    return [(right, under) for _, right, under in placed_level_labels(levels, x, y, **options)]


def placed_level_labels(
    levels,
    x,
    y,
    *,
    x_domain: tuple[float, float],
    y_domain: tuple[float, float],
    x_log: bool = False,
    low=None,
    high=None,
    others: tuple = (),
    height: float = DEFAULT_HEIGHT,
    text_scale: float | None = None,
) -> list[tuple[str, bool, bool]]:
    """Each reference line's label and where it goes, (label, right, under), so that the
    curve through (`x`, `y`) (ascending x; with error bars from `low` to `high`; and each
    (x, y) of `others`, one curve a series) does not cross it. A level is (y, label), or
    (y, (label, shorter, ...)): words to try longest first. The place: left end above the
    line, else right end above, left end under, right end under; the first whose text (the
    middle 40% of its line, as tests/browser_helpers.CHART_TEXT_CROSSED reads a crossing,
    and 3 px to spare) stays inside the plot (where the axis's line would cross it) and meets
    neither a segment of a curve nor a bar over the label's width on a phone's plot, else on
    a laptop's (PLOT_PX; a projector's in presenter mode), with the longest words first;
    else the same without the 3 px to spare; else the longest words left above. Found on a
    phone:
    reconstruction's "made-up people: 17.6%" crossed by the curve climbing through it (left)
    and by an error bar at ε = 2 (right); "guess '<=50K' for all: 76%" by the attack's curve
    falling through it at E = 2.5·√n; at 12 people "made-up people: 31.9%" on every side
    (its shorter words fit left under the line); Composition's "prior 5%" crossed by the
    curve hugging its line from g = 7 (every side was within 3 px of the curve, the chosen
    point's diamond or the plot's bottom)."""
    scale = current_text_scale() if text_scale is None else float(text_scale)
    warp = np.log if x_log else np.asarray
    x0, x1 = (float(v) for v in warp(np.asarray(x_domain, dtype=float)))

    def across(values) -> np.ndarray:  # 0 at the plot's left edge, 1 at its right
        return (warp(np.asarray(values, dtype=float)) - x0) / (x1 - x0)

    per_unit = height / (float(y_domain[1]) - float(y_domain[0]))

    def down(values) -> np.ndarray:  # px down from the plot's top
        return (float(y_domain[1]) - np.asarray(values, dtype=float)) * per_unit

    lines = [(across(xs), down(ys)) for xs, ys in ((x, y), *others)]
    bars = [] if low is None else list(zip(across(x), down(high), down(low), strict=True))
    sides = ((False, False), (True, False), (False, True), (True, True))
    placed = []
    for level, words in levels:
        line = float(down([level])[0])
        choices = (words,) if isinstance(words, str) else tuple(words)
        found = [
            (label, right, under)
            for spare in (3.0, 0.0)
            for plot_px in (PLOT_PX if scale == 1.0 else PRESENTER_PLOT_PX)
            for label in choices
            for width in [(len(label) * LABEL_CHAR_PX + 4) * scale]
            for right, under in sides
            for band in [
                line
                + scale * (LEVEL_LABEL_BELOW_PX if under else LEVEL_LABEL_ABOVE_PX)
                + np.array([-1.0, 1.0]) * (scale * TEXT_LINE_PX * 0.2 + spare)
            ]
            if band[0] >= 0.0
            and band[1] <= height
            and not crosses(
                lines,
                bars,
                (1 - min(1.0, width / plot_px), 1.0) if right else (0.0, min(1.0, width / plot_px)),
                band,
            )
        ]
        placed.append(found[0] if found else (choices[0], False, False))
    return placed


def crosses(lines, bars, span, band) -> bool:
    """Whether a polyline (across, px down) of `lines` or a bar (across, top, bottom) meets
    the box `span` × `band` (a share of the width, px down). Vectorised: group-by's two
    curves of 300 points each are read at every press."""
    (start, end), (top, bottom) = span, band
    for across, ys in lines:
        a, b = np.asarray(across[:-1], dtype=float), np.asarray(across[1:], dtype=float)
        ya, yb = np.asarray(ys[:-1], dtype=float), np.asarray(ys[1:], dtype=float)
        lo, hi = np.maximum(a, start), np.minimum(b, end)
        inside = (lo <= hi) & (a != b)
        if not inside.any():
            continue
        a, b, ya, yb, lo, hi = (v[inside] for v in (a, b, ya, yb, lo, hi))
        at_lo = ya + (yb - ya) * (lo - a) / (b - a)
        at_hi = ya + (yb - ya) * (hi - a) / (b - a)
        if np.any((np.minimum(at_lo, at_hi) <= bottom) & (np.maximum(at_lo, at_hi) >= top)):
            return True
    return any(start <= a <= end and min(t, u) <= bottom and max(t, u) >= top for a, t, u in bars)


BAND_TOP_PX = 18  # band_histogram's ±2 SD rules start this far under the plot's top


@datasets.cached(max_entries=64)
def band_histogram(
    domain: tuple[float, float], x_title: str, y_max: float, colour: str, with_band: bool
) -> Template:
    """Template (shared by the randomized-response lessons): a histogram (share per bin,
    fixed axes; dataset "bins"), the truth as a dashed labelled rule ("truth"), and with
    `with_band` dotted rules at truth ± 2 SD ("band")."""
    x_scale = alt.Scale(domain=list(domain), nice=False)
    bars = (
        alt.Chart(alt.NamedData(name="bins"))
        .mark_bar(color=colour, opacity=0.85)
        .encode(
            x=alt.X("start:Q", title=x_title, scale=x_scale),
            x2="end:Q",
            y2=alt.datum(0),
            y=alt.Y(
                "share:Q",
                title="share of surveys",
                axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, y_max], clamp=True),
            ),
            tooltip=[
                alt.Tooltip("start:Q", format=",.0f", title="from"),
                alt.Tooltip("end:Q", format=",.0f", title="to"),
                alt.Tooltip("count:Q", format=",", title="surveys"),
            ],
        )
    )
    layers = bars + truth_rule_layers(x_scale)
    if with_band:
        # from under the truth's label down: a rule 2 SD away crossed "true value"
        layers += (
            alt.Chart(alt.NamedData(name="band"))
            .mark_rule(color=VERMILLION, strokeDash=[2, 2], strokeWidth=2)
            .encode(x=alt.X("x:Q", scale=x_scale), y=alt.value(BAND_TOP_PX), y2=alt.value("height"))
        )
    return Template(layers.properties(title="", height=DEFAULT_HEIGHT, width="container"))


# Chart data derived from a cached array is made once per array object (datasets.derived_from):
# a census result is the same array for every session, so every student's first render at
# the defaults reuses one set of frames (and, through _arrow, their Arrow form) instead of
# binning 10,000 values again (~5 ms of a lesson's first render).


def band_histogram_data(
    values: np.ndarray,
    *,
    truth: float,
    sd: float | None = None,
    domain: tuple[float, float],
    bins: int,
) -> dict[str, pd.DataFrame]:
    """The data of `band_histogram`: share per bin over the fixed `domain`, the truth and,
    if `sd` is given, truth ± 2 SD (clamped to the axis). Shared by every caller with the
    same array object and arguments (datasets.derived_from)."""
    key = ("band_histogram", float(truth), sd, tuple(map(float, domain)), int(bins))
    return datasets.derived_from(
        values, key, lambda: _band_histogram_data(values, truth, sd, domain, bins)
    )


def _band_histogram_data(values, truth, sd, domain, bins) -> dict[str, pd.DataFrame]:
    data = {
        "bins": histogram_frame(values, domain=domain, bins=bins),
        "truth": pd.DataFrame({"x": [float(truth)], "label": ["true value"]}),
    }
    if sd is not None:
        lo, hi = domain
        data["band"] = pd.DataFrame(
            {
                "x": [min(max(truth - 2 * sd, lo), hi), min(max(truth + 2 * sd, lo), hi)],
                "label": ["−2 SD", "+2 SD"],
            }
        )
    return data


# --- charts that two or more lessons draw -----------------------------------------------------
# A lesson's charts.py may not import another lesson's charts (tests/lessons/test_imports.py):
# a picture two lessons share lives here, with its lesson-specific parts as arguments.

ROW_LEGEND = alt.Legend(orient="bottom", title=None, direction="horizontal", labelLimit=0)
CURVE_COLOURS = (BLUE, VERMILLION, GREEN, ORANGE, BLACK, SKY)
CURVE_DASHES = ((1, 0), (6, 3), (2, 2), (8, 2, 2, 2), (1, 3), (12, 4))
CURVE_HEIGHT = 240

# A curve chart's legend draws each series as a short line in its colour and dash (not as the
# point a line with points would give it), long enough for the dash to show.
_CURVE_SYMBOL = {"symbolType": "stroke", "symbolSize": 300, "symbolStrokeWidth": 2.5}
CURVE_LEGENDS = {
    "row": alt.Legend(
        orient="bottom", title=None, direction="horizontal", labelLimit=0, **_CURVE_SYMBOL
    ),
    "stacked": alt.Legend(
        orient="bottom", title=None, direction="vertical", labelLimit=0, **_CURVE_SYMBOL
    ),
    "two columns": alt.Legend(
        orient="bottom",
        title=None,
        direction="horizontal",
        columns=2,
        labelLimit=0,
        **_CURVE_SYMBOL,
    ),
}

POWERS = "powers of ten"  # an axis format: 10⁻⁵ for small powers of ten (never "1e-5")


@dataclass(frozen=True)
class Axis:
    """A quantitative axis of a curve chart: the data `field`, its `title`, the fixed
    `domain` (values beyond it are clamped), linear or `log`, the label `format` (d3's, or
    POWERS), the tick `values` (None: Vega's own), and the tooltip's title and format
    (default: the axis title, and the label format).

    The default format is ",~r", never "~g": for ticks it chooses itself, Vega sets the
    format's precision from the step between ticks (d3's tickFormat), and "~g" at one digit
    wrote 20, 40, 100 as "2e+1, 4e+1, 1e+2" (beyond global sensitivity's years, the
    synthetic data's 12,000 as "1.2e+4", the sparse vector's 10 as "1e+1"); "r" rounds the
    same way but never writes an exponent."""

    field: str
    title: str
    domain: tuple[float, float]
    log: bool = False
    format: str = ",~r"
    values: tuple[float, ...] | None = None
    tip: str | None = None
    tip_format: str | None = None

    @classmethod
    def on_grid(cls, field: str, title: str, grid, *, log: bool = True, **options) -> Axis:
        """An axis over the points a curve is computed at (`grid`, ascending): from the
        first to the last, a tick at each; log by default (ε, steps, n)."""
        values = tuple(float(v) for v in grid)
        return cls(field, title, (values[0], values[-1]), log=log, values=values, **options)

    def scale(self) -> alt.Scale:
        kind = {"type": "log"} if self.log else {}
        return alt.Scale(**kind, domain=[float(v) for v in self.domain], nice=False, clamp=True)

    def middle(self) -> float:
        low, high = self.domain
        return math.sqrt(low * high) if self.log else (low + high) / 2

    def axis(self) -> alt.Axis:
        values = {} if self.values is None else {"values": list(self.values)}
        if self.format == POWERS:
            return power_of_ten_axis(**values)
        return alt.Axis(format=self.format, **values)

    def tooltip(self, default_format: str) -> alt.Tooltip:
        tip_format = self.tip_format or (default_format if self.format == POWERS else self.format)
        return alt.Tooltip(f"{self.field}:Q", format=tip_format, title=self.tip or self.title)


@dataclass(frozen=True)
class Series:
    """The lines of a curve chart: one per value of `field`, in the order of `names`, told
    apart by colour *and* dash (print and colour-blind readers), and by width where
    `widths` are given; `legend` "auto" (none for one line, a row for short names, else one
    a line; a row holds names of fewer than 30 characters in all, whose lines fit a phone),
    "row", "stacked" or "two columns". No `field`: one blue line."""

    field: str | None = None
    names: tuple[str, ...] = ()
    colours: tuple[str, ...] = CURVE_COLOURS
    dashes: tuple[tuple[float, ...], ...] = CURVE_DASHES
    widths: tuple[float, ...] | None = None
    legend: str = "auto"
    tip: str = " "

    def __post_init__(self) -> None:
        if self.field is not None and not self.names:
            raise ValueError("names: a series field needs its names, in order")
        if len(self.names) > min(len(self.colours), len(self.dashes)):
            raise ValueError(f"names: {len(self.names)} lines, but fewer colours or dashes")

    def _legend(self) -> alt.Legend | None:
        chosen = self.legend
        if chosen == "auto":
            short = sum(map(len, self.names)) < 30
            chosen = "none" if len(self.names) == 1 else "row" if short else "stacked"
        return None if chosen == "none" else CURVE_LEGENDS[chosen]

    def channel(self, channel, values: tuple) -> object:
        """One encoding channel (alt.Color, alt.StrokeDash, …) by series, `values` in the
        order of the names, with the one legend the channels share."""
        names = list(self.names)
        return channel(
            f"{self.field}:N",
            sort=names,
            scale=alt.Scale(
                domain=names,
                range=[list(v) if isinstance(v, tuple) else v for v in values[: len(names)]],
            ),
            legend=self._legend(),
        )

    def encoding(self) -> dict:
        if self.field is None:
            return {}
        found = {
            "color": self.channel(alt.Color, self.colours),
            "strokeDash": self.channel(alt.StrokeDash, self.dashes),
        }
        if self.widths is not None:
            found["strokeWidth"] = self.channel(alt.StrokeWidth, self.widths)
        return found


ONE_LINE = Series()


def curve_layers(
    x: Axis,
    y: Axis,
    series: Series = ONE_LINE,
    *,
    data: str = "curves",
    points: bool = False,
    error_bars: tuple[str, str] | None = None,
    levels: tuple[str, str] | None = None,
    levels_below: bool | str = False,
    levels_right: bool | float | str = False,
    rule: bool = False,
    rule_flip_at: float | None = None,
    rule_bottom: str | None = None,
    rule_above: bool = False,
    mark: str | None = None,
    mark_flip_at: float | None = None,
    mark_label: bool = True,
    tips: tuple[tuple[str, str, str], ...] = (),
) -> alt.LayerChart:
    """The layers of the course's curve chart (see `curves`), for a chart that adds its own
    (a rule of its own, a band)."""
    x_scale, y_scale = x.scale(), y.scale()
    encode_x = alt.X(f"{x.field}:Q", title=x.title, scale=x_scale, axis=x.axis())
    encode_y = alt.Y(f"{y.field}:Q", title=y.title, scale=y_scale, axis=y.axis())
    base = alt.Chart(alt.NamedData(name=data))
    tooltip = [alt.Tooltip(f"{series.field}:N", title=series.tip)] if series.field else []
    tooltip += [x.tooltip(".3~g"), y.tooltip(".4~g")]
    tooltip += [alt.Tooltip(f"{f}:Q", title=title, format=form) for f, title, form in tips]
    # no clip: the scales clamp, and a point on the plot's edge stays whole
    style: dict = {"strokeWidth": 2.5}
    if series.field is None:
        style["color"] = BLUE
    if points:
        style["point"] = {"filled": True, "size": 50} | (
            {"color": BLUE} if series.field is None else {}
        )
    layers = base.mark_line(**style).encode(
        x=encode_x, y=encode_y, tooltip=tooltip, **series.encoding()
    )
    if error_bars is not None:
        low, high = error_bars
        colour = {"color": series.channel(alt.Color, series.colours)} if series.field else {}
        bars = base.mark_rule(strokeWidth=1.5, **({} if series.field else {"color": BLUE}))
        layers = (
            bars.encode(x=encode_x, y=alt.Y(f"{low}:Q", scale=y_scale), y2=f"{high}:Q", **colour)
            + layers
        )
    if levels is not None:
        name, field = levels
        layers += reference_line_layers(
            alt.NamedData(name=name), field, y_scale=y_scale, below=levels_below, right=levels_right
        )
    if rule:
        flip = x.middle() if rule_flip_at is None else rule_flip_at
        layers += truth_rule_layers(
            x_scale, label_dy=4, flip_at=flip, bottom=rule_bottom, above_plot=rule_above
        )
    if mark is not None:
        layers += marked_point_layers(
            alt.NamedData(name=mark),
            x.field,
            y.field,
            x_scale=x_scale,
            y_scale=y_scale,
            flip_at=x.middle() if mark_flip_at is None else mark_flip_at,
            labelled=mark_label,
        )
    return layers


@datasets.cached(max_entries=64)
def curves(
    x: Axis,
    y: Axis,
    series: Series = ONE_LINE,
    *,
    height: int = CURVE_HEIGHT,
    **layers,
) -> Template:
    """Template: the curve chart of the course, a quantity (`y`) against a parameter (`x`:
    ε, δ, σ, steps, …) over fixed axes, one line per `series`. Dataset `data` ("curves":
    x, y and the series field). Options (`curve_layers`): `points` on the lines; `error_bars`
    (low, high fields) below them; labelled dashed reference lines `levels` (dataset, y
    field; their labels under the lines with `levels_below`, at their right end with
    `levels_right`); with `rule`, the current value as a labelled dashed vertical rule ("truth": x,
    label; at the plot's bottom where its boolean field `rule_bottom` says; above the plot
    with `rule_above`, where curves run along both its top and its bottom); a labelled
    diamond on a curve, dataset `mark` (x, y, label; no label with
    `mark_label=False`, the title says it); `tips`, more tooltip fields (field, title,
    format). A label flips side at the x axis's middle unless `rule_flip_at` /
    `mark_flip_at` say where."""
    chart = curve_layers(x, y, series, **layers)
    return Template(chart.properties(height=height, width=DEFAULT_WIDTH))


ROC_COLOURS = [GREY, BLUE]


@datasets.cached(max_entries=8)
def roc(
    curves: tuple[str, ...],
    with_region: bool,
    height: int = 300,
    colours: tuple[str, ...] | None = None,
) -> Template:
    """Template: ROC curves (true- against false-positive rate, both 0..1), the diagonal of
    guessing, the 1% false-positive rate as a labelled rule and, `with_region`, the edge of
    the (ε, δ) privacy region as a dashed black line; `colours` one per curve (default: grey
    then blue). Datasets "roc" (fpr, tpr, curve),
    "truth" (x, label) and, with the region, "region" (fpr, tpr)."""
    unit = alt.Scale(domain=[0.0, 1.0], nice=False)
    x = alt.X(
        "fpr:Q",
        title="false-positive rate (non-members flagged)",
        scale=unit,
        axis=alt.Axis(format="~%"),
    )
    y = alt.Y(
        "tpr:Q", title="true-positive rate (members found)", scale=unit, axis=alt.Axis(format="~%")
    )
    diagonal = (
        alt.Chart(alt.Data(values=[{"fpr": 0.0, "tpr": 0.0}, {"fpr": 1.0, "tpr": 1.0}]))
        .mark_line(color=GREY, strokeDash=[2, 2])
        .encode(x=x, y=y)
    )
    lines = (
        alt.Chart(alt.NamedData(name="roc"))
        .mark_line(strokeWidth=2.5, interpolate="step-after")
        .encode(
            x=x,
            y=y,
            color=alt.Color(
                "curve:N",
                sort=list(curves),
                scale=alt.Scale(
                    domain=list(curves),
                    range=list(colours) if colours else ROC_COLOURS[-len(curves) :],
                ),
                legend=STACKED_LEGEND,
            ),
            tooltip=[
                alt.Tooltip("curve:N"),
                alt.Tooltip("fpr:Q", format=".1%", title="false positives"),
                alt.Tooltip("tpr:Q", format=".1%", title="true positives"),
            ],
        )
    )
    chart = diagonal + lines
    if with_region:
        chart += (
            alt.Chart(alt.NamedData(name="region"))
            .mark_line(color=BLACK, strokeDash=[6, 3], strokeWidth=2)
            .encode(
                x=x,
                y=y,
                tooltip=[
                    alt.Tooltip("fpr:Q", format=".1%", title="false positives"),
                    alt.Tooltip("tpr:Q", format=".1%", title="the most any attack finds"),
                ],
            )
        )
    chart += truth_rule_layers(unit, flip_at=0.5, above_plot=True)
    return Template(chart.properties(height=height, width=DEFAULT_WIDTH))


WIN_COLOURS = [BLUE, VERMILLION, GREEN, ORANGE, GREY]
WIN_ROW_HEIGHT = 22


WIN_ROW = "row"  # win_bars' position of a row in its data, counted by the chart itself


@datasets.cached(max_entries=64)
def win_bars(rows: int, x_title: str) -> Template:
    """Template: one row per candidate (`rows` of them, in the data's order: the labels are
    data, so the spec does not change when a label does), a bar for its exact chance of
    being chosen (x fixed 0..100%) and a black tick for the share of simulated runs it won.
    Dataset "wins" (label, exact probability, share of runs)."""
    x_scale = alt.Scale(domain=[0.0, 1.0], nice=False)
    # Rows in the data's order, by their position: with `sort=None` the order was Vega's
    # domain, which keeps a label it has drawn where it was and puts a changed one last (the
    # sparse vector's "aged 47–51 (1,119 ≥ T)" went below "never stops" when T moved).
    y = alt.Y(
        "label:N",
        sort=alt.EncodingSortField(field=WIN_ROW, op="min"),
        title=None,
        axis=alt.Axis(labelLimit=220),
    )
    base = alt.Chart(alt.NamedData(name="wins")).transform_window(**{WIN_ROW: "row_number()"})
    tooltip = [
        alt.Tooltip("label:N", title="candidate"),
        alt.Tooltip("exact probability:Q", format=".2%", title="exact"),
        alt.Tooltip("share of runs:Q", format=".1%", title="share of runs"),
    ]
    bars = base.mark_bar(color=NOISY_COLOUR, opacity=0.8).encode(
        y=y,
        x=alt.X(
            "exact probability:Q",
            title=x_title,
            scale=x_scale,
            # the title at the plot's right end: centred under a plot that long names on
            # the left leave narrow, it ran past the chart's edge on a phone
            axis=alt.Axis(format="~%", values=[0, 0.25, 0.5, 0.75, 1], titleAnchor="end"),
        ),
        tooltip=tooltip,
    )
    ticks = base.mark_tick(color=BLACK, thickness=3, size=WIN_ROW_HEIGHT - 6).encode(
        y=y, x=alt.X("share of runs:Q", scale=x_scale), tooltip=tooltip
    )
    height = WIN_ROW_HEIGHT * max(rows, 2)
    return Template((bars + ticks).properties(height=height, width=DEFAULT_WIDTH))


TWO_COLUMN_CHARS = 30  # a two-column legend's row: at most this many characters of names
# Where a name is longer than the course's longest here (the sparse vector's "stops at a
# count < T (false positive)"), as a file's categories can be ("Administrative and clerical
# support occupations in large public institutions"), the legend cuts names at LONG_NAME_PX
# with "…": whole, they ran past the chart's edge on a laptop (choosing's narrow column) and a
# phone. The tooltip and "Show the numbers" hold them whole; the course's names are never cut.
LONG_NAME_CHARS = 37
LONG_NAME_PX = 200


@datasets.cached(max_entries=64)
def win_curves(
    series: tuple[str, ...],
    epsilon_domain: tuple[float, float],
    height: int = 260,
    y_title: str = "chance of being reported",
    rule_flip_at: float | None = None,
) -> Template:
    """Template (report noisy max, the sparse vector): P[win] against ε (log x over the fixed
    `epsilon_domain`, y 0..100%), one line per series, the current ε as a rule labelled
    above the plot (its label left of it from `rule_flip_at`, by default the axis's middle).
    Datasets "curves" (epsilon, category, probability) and "truth" (x, label)."""
    x_scale = alt.Scale(
        type="log", domain=[float(epsilon_domain[0]), float(epsilon_domain[1])], nice=False
    )
    ticks = [
        t for t in (0.001, 0.01, 0.1, 1, 10, 100) if epsilon_domain[0] <= t <= epsilon_domain[1]
    ]
    lines = (
        alt.Chart(alt.NamedData(name="curves"))
        .mark_line(strokeWidth=2.5)
        .encode(
            x=alt.X(
                "epsilon:Q",
                title="ε (log scale; ← more private)",
                scale=x_scale,
                axis=alt.Axis(format="~g", values=ticks),
            ),
            y=alt.Y(
                "probability:Q",
                title=y_title,
                scale=alt.Scale(domain=[0.0, 1.0], nice=False),
                axis=alt.Axis(format="~%"),
            ),
            color=alt.Color(
                "category:N",
                sort=list(series),
                scale=alt.Scale(domain=list(series), range=WIN_COLOURS[: len(series)]),
                # two columns of short names; long ones one a line, or the second column
                # runs past the chart's right edge (the sparse vector's outcomes; choosing's
                # "Amer-Indian-Eskimo" beside "Asian-Pac-Islander", 36 characters a row)
                legend=(
                    TWO_COLUMN_LEGEND
                    if sum(sorted(map(len, series))[-2:]) <= TWO_COLUMN_CHARS
                    else STACKED_LEGEND
                    if max(map(len, series), default=0) <= LONG_NAME_CHARS
                    else alt.Legend(
                        orient="bottom", title=None, direction="vertical", labelLimit=LONG_NAME_PX
                    )
                ),
            ),
            tooltip=[
                alt.Tooltip("category:N"),
                alt.Tooltip("epsilon:Q", format="~g", title="ε"),
                alt.Tooltip("probability:Q", format=".2%", title="chance"),
            ],
        )
    )
    # the middle of the log ε axis: a rule right of it has its label on its left; the label
    # above the plot's top edge, where no curve runs (the winner's curve climbs to 100% and
    # runs along the top: on a phone through "ε = 0.05" right of the rule, "ε = 0.3" left)
    middle = float(np.sqrt(epsilon_domain[0] * epsilon_domain[1]))
    rule = truth_rule_layers(x_scale, flip_at=rule_flip_at or middle, above_plot=True)
    return Template((lines + rule).properties(height=height, width=DEFAULT_WIDTH))
