"""Chart templates of the lesson "Counting over time" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from lessons.counting_over_time.model import (
    COUNT_DOMAIN,
    COUNTED,
    DASHBOARD,
    ERROR_DOMAIN,
    HORIZON,
    LEVEL_NAMES,
    METHODS,
    ROLES,
    SMALL_HORIZON,
    day_label,
)
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

METHOD_COLOURS = (ui_charts.BLUE, ui_charts.VERMILLION, ui_charts.GREEN)
METHOD_DASHES = ((1, 0), (2, 2), (6, 3))
DAY_TICKS = (1, 3, 10, 30, 100, 300, 1_000)


DAY_FLIP_AT = 300.0  # the day's label left of its rule from here on


def day_label_at_bottom(curves: pd.DataFrame, day: int) -> bool:
    """Whether "day t" goes at the bottom of the errors' plot: at ε = 0.1 the increments'
    error climbs to the top through the label written there
    (ui.charts.rule_label_at_bottom)."""
    first, *others = ui_charts.series_curves(curves, "method", METHODS, "day", "sd")
    return ui_charts.rule_label_at_bottom(
        day,
        day_label(day),
        *first,
        others=tuple(others),
        x_domain=(1.0, float(HORIZON)),
        y_domain=ERROR_DOMAIN,
        right_of=day < DAY_FLIP_AT,
        x_log=True,
        y_log=True,
        label_dy=4,  # as ui.charts.curve_layers draws its rule's label
        height=ui_charts.CURVE_HEIGHT,
    )


@datasets.cached()
def errors() -> Template:
    """Template: each method's error SD against the day (both axes log), the tree's as
    measured over the simulated runs as points, the day read as a labelled dashed rule.
    Datasets "curves" (day, sd, method), "measured" (day, sd) and "truth" (x, label)."""
    x = ui_charts.Axis(
        "day", "day t (log scale)", (1.0, float(HORIZON)), log=True, values=DAY_TICKS, tip="day"
    )
    y = ui_charts.Axis(
        "sd",
        "SD of the count's error (people, log scale)",
        ERROR_DOMAIN,
        log=True,
        values=(0.1, 1, 10, 100, 1_000, 10_000),
        format=",~g",
        tip="SD",
        tip_format=",.1f",
    )
    series = ui_charts.Series(
        "method", METHODS, colours=METHOD_COLOURS, dashes=METHOD_DASHES, legend="stacked"
    )
    lines = ui_charts.curve_layers(
        x, y, series, rule=True, rule_flip_at=DAY_FLIP_AT, rule_bottom="bottom"
    )
    dots = (
        alt.Chart(alt.NamedData(name="measured"))
        .mark_point(shape="circle", size=36, filled=False, color=ui_charts.BLACK, strokeWidth=1.5)
        .encode(
            x=alt.X("day:Q", scale=x.scale()),
            y=alt.Y("sd:Q", scale=y.scale()),
            tooltip=[
                alt.Tooltip("day:Q", title="day"),
                alt.Tooltip("sd:Q", format=",.1f", title="tree's SD, measured"),
            ],
        )
    )
    return Template(
        (lines + dots).properties(height=ui_charts.CURVE_HEIGHT, width=ui_charts.DEFAULT_WIDTH)
    )


NOISY = DASHBOARD[1:]
NOISY_COLOURS = (METHOD_COLOURS[0], METHOD_COLOURS[2])
NOISY_DASHES = ((1, 0), (6, 3))


@datasets.cached()
def dashboard() -> Template:
    """Template: the running count day by day as the increments and the tree release it,
    and the true count drawn over them (fixed axes: days 1..T, −60..320 people; a line that
    leaves the plot is cut at its edge), the day read as a dashed rule (the title names it).
    Datasets "releases" (day, count, release: the two noisy releases), "true_count" (the same
    columns, the truth: the same at every ε and seed) and "truth" (x)."""
    x_scale = alt.Scale(domain=[1, HORIZON], nice=False)
    y_scale = alt.Scale(domain=list(COUNT_DOMAIN), nice=False)
    x = alt.X("day:Q", title="day t", scale=x_scale, axis=alt.Axis(format=",d"))
    y = alt.Y("count:Q", title="people so far earning >50K", scale=y_scale)
    tooltip = [
        alt.Tooltip("release:N"),
        alt.Tooltip("day:Q", format=",d"),
        alt.Tooltip("count:Q", format=",.1f"),
    ]
    names = list(DASHBOARD)
    colour = alt.Color(
        "release:N",
        sort=names,
        scale=alt.Scale(domain=names, range=[ui_charts.BLACK, *NOISY_COLOURS]),
        legend=ui_charts.TWO_COLUMN_LEGEND,
    )
    dash = alt.StrokeDash(
        "release:N",
        sort=names,
        scale=alt.Scale(domain=names, range=[[1, 0], *[list(d) for d in NOISY_DASHES]]),
        legend=ui_charts.TWO_COLUMN_LEGEND,
    )
    noisy = (
        alt.Chart(alt.NamedData(name="releases"))
        .mark_line(clip=True, strokeWidth=1.5)
        .encode(x=x, y=y, color=colour, strokeDash=dash, order="day:Q", tooltip=tooltip)
    )
    truth = (
        alt.Chart(alt.NamedData(name="true_count"))
        .mark_line(clip=True, strokeWidth=3)
        .encode(x=x, y=y, color=colour, strokeDash=dash, order="day:Q", tooltip=tooltip)
    )
    # the day read: its words in the title (at ε = 0.1 the noisy lines run through the whole
    # plot, over "day 365" at its top and anywhere else)
    rule = ui_charts.truth_rule_layers(x_scale, labelled=False)
    return Template(
        (noisy + truth + rule).properties(
            height=ui_charts.CURVE_HEIGHT, width=ui_charts.DEFAULT_WIDTH
        )
    )


ROLE_COLOURS = (ui_charts.BLUE, ui_charts.ORANGE, ui_charts.VERMILLION, "#EEEEEE")


@datasets.cached()
def tree() -> Template:
    """Template: the binary tree over T = 16 days, one bar per node (a row per level, the
    root on top), coloured by its role for day t's count and day s's event and labelled
    with its days. Dataset "nodes" (level, start, end, node, role)."""
    x_scale = alt.Scale(domain=[0, SMALL_HORIZON], nice=False)
    y = alt.Y(
        "level:N",
        title="node holds",
        sort=list(LEVEL_NAMES),
        scale=alt.Scale(domain=list(LEVEL_NAMES), paddingInner=0.15),
    )
    base = alt.Chart(alt.NamedData(name="nodes"))
    bars = base.mark_bar(stroke=ui_charts.BLACK, strokeWidth=1, cornerRadius=2).encode(
        # no x axis: every block is labelled with its days
        x=alt.X("start:Q", title=None, scale=x_scale, axis=None),
        x2="end:Q",
        y=y,
        color=alt.Color(
            "role:N",
            sort=list(ROLES),
            scale=alt.Scale(domain=list(ROLES), range=list(ROLE_COLOURS)),
            legend=ui_charts.STACKED_LEGEND,
        ),
        tooltip=[
            alt.Tooltip("node:N", title="days"),
            alt.Tooltip("level:N", title="node holds"),
            alt.Tooltip("role:N"),
        ],
    )
    # white on the dark blue of day t's blocks, black on the others (WCAG contrast)
    labels = (
        base.mark_text(fontSize=11)
        .encode(
            x=alt.X("middle:Q", scale=x_scale),
            y=y,
            text="node:N",
            color=alt.condition(
                alt.datum.role == COUNTED, alt.value("#FFFFFF"), alt.value(ui_charts.BLACK)
            ),
        )
        .transform_calculate(middle="(datum.start + datum.end) / 2")
    )
    return Template((bars + labels).properties(height=220, width=ui_charts.DEFAULT_WIDTH))
