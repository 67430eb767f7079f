"""Chart templates of the lesson "Sensitivity and clamping" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt

from lessons.clamping.model import (
    LEVEL_EVENT,
    LEVEL_USER,
    PART_BIAS,
    PART_DROPPED,
    PART_TOTAL,
    VISITS_CAP,
)
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

SHARE_TICKS = [0.01, 0.05, 0.1, 0.25, 0.5, 1.0]
PART_COLOURS = [ui_charts.VERMILLION, ui_charts.BLUE, ui_charts.BLACK]
PART_DASHES = [[6, 3], [2, 2], [1, 0]]
LEGEND = alt.Legend(orient="bottom", title=None, direction="horizontal", labelLimit=0, columns=1)


@datasets.cached(max_entries=64)
def column_histogram(low: float, high: float, title: str, height: int = 240) -> Template:
    """Template: the share of people per bin over the column's fixed domain (sqrt y 0..100%),
    the clamp window shaded between green edges (its numbers are in the title: a label in
    the plot was crossed by the window's own edge when the window is narrow, capital gain's
    0 to 5,000 of 100,000). Datasets "bins" (start, end, share, count) and "window" (lower,
    upper)."""
    x_scale = alt.Scale(domain=[low, high], nice=False, zero=False)
    y_scale = alt.Scale(type="sqrt", domain=[0.0, 1.0])
    window = alt.Chart(alt.NamedData(name="window"))
    shade = window.mark_rect(color=ui_charts.GREEN, opacity=0.18).encode(
        x=alt.X("lower:Q", scale=x_scale), x2="upper:Q"
    )
    edges = window.mark_rule(color=ui_charts.GREEN, strokeWidth=2).encode(
        x=alt.X("lower:Q", scale=x_scale)
    ) + window.mark_rule(color=ui_charts.GREEN, strokeWidth=2).encode(
        x=alt.X("upper:Q", scale=x_scale)
    )
    bars = ui_charts.binned_bars(
        "bins",
        x_title=title,
        x_scale=x_scale,
        x_axis=alt.Axis(format=",~r"),
        y=alt.Y(
            "share:Q",
            title="share of people",
            scale=y_scale,
            axis=alt.Axis(format="~%", values=SHARE_TICKS),
        ),
        tooltip=[
            alt.Tooltip("start:Q", format=",~r", title="from"),
            alt.Tooltip("end:Q", format=",~r", title="to"),
            alt.Tooltip("count:Q", format=",", title="people"),
        ],
        mark={"color": ui_charts.NOISY_COLOUR, "opacity": 0.85},
    )
    chart = (shade + bars + edges).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    return Template(chart)


def _parts_chart(
    data: str,
    x_field: str,
    x_title: str,
    x_scale: alt.Scale,
    y_domain,
    parts: list[str],
    y_title: str,
) -> alt.Chart:
    return (
        alt.Chart(alt.NamedData(name=data))
        .mark_line(strokeWidth=2.5, clip=True)
        .encode(
            x=alt.X(f"{x_field}:Q", title=x_title, scale=x_scale, axis=alt.Axis(format=",~r")),
            y=alt.Y(
                "error:Q",
                title=y_title,
                scale=alt.Scale(type="log", domain=list(y_domain), nice=False),
                axis=alt.Axis(format=",~r"),
            ),
            color=alt.Color(
                "part:N",
                scale=alt.Scale(domain=parts, range=PART_COLOURS),
                legend=LEGEND,
            ),
            strokeDash=alt.StrokeDash(
                "part:N", scale=alt.Scale(domain=parts, range=PART_DASHES), legend=None
            ),
            tooltip=[
                alt.Tooltip(f"{x_field}:Q", format=",~r", title=x_title),
                alt.Tooltip("part:N", title="part"),
                alt.Tooltip("error:Q", format=",.3~r", title="error"),
            ],
        )
    )


@datasets.cached(max_entries=64)
def error_curves(
    low: float, high: float, y_domain: tuple[float, float], noise_part: str, height: int = 300
) -> Template:
    """Template: |bias|, noise SD and the total against the upper bound U (x fixed to the
    column's domain, log y fixed per column), the lowest total as a diamond (the title says
    where: model.best_point), your U as a dashed labelled rule. Datasets "curves" (upper,
    error, part), "best" (upper, error), "truth" (x, label: the current U)."""
    x_scale = alt.Scale(domain=[low, high], nice=False, zero=False)
    y_scale = alt.Scale(type="log", domain=list(y_domain), nice=False)
    parts = [PART_BIAS, noise_part, PART_TOTAL]
    lines = _parts_chart(
        "curves", "upper", "upper bound U", x_scale, y_domain, parts, "error of the sum (log)"
    )
    current = ui_charts.truth_rule_layers(x_scale, label_dy=4)
    best = ui_charts.marked_point_layers(
        alt.NamedData(name="best"),
        "upper",
        "error",
        x_scale=x_scale,
        y_scale=y_scale,
        labelled=False,
    )
    chart = (lines + current + best).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    return Template(chart)


# Right of its rule, "your m = 69" (11 characters) is about 29 m wide on a phone's 270-px
# plot: it ends at m ≈ 99; from 70 on the label is left of the rule
CONTRIBUTION_FLIP_AT = 70


@datasets.cached(max_entries=16)
def contribution_curves(
    y_domain: tuple[float, float], noise_part: str, height: int = 280
) -> Template:
    """Template: the bounded row count's |bias|, noise SD and total against m (1..100), the
    best m as a diamond and your m as a rule. Datasets "curves" (m, error, part), "best",
    "truth".

    Your m's words sit just above the plot: at the top of the rule, m = 1's were crossed by
    the total falling from the plot's top corner across a 1080p projector's wide plot; left
    of the rule from m = 70, so that m = 100's stay inside the chart instead of pushing it
    narrower."""
    x_scale = alt.Scale(domain=[1, 100], nice=False, zero=False)
    y_scale = alt.Scale(type="log", domain=list(y_domain), nice=False)
    parts = [PART_DROPPED, noise_part, PART_TOTAL]
    lines = _parts_chart(
        "curves", "m", "rows kept per person, m", x_scale, y_domain, parts, "count error (log)"
    )
    current = ui_charts.truth_rule_layers(x_scale, flip_at=CONTRIBUTION_FLIP_AT, above_plot=True)
    best = ui_charts.marked_point_layers(
        alt.NamedData(name="best"), "m", "error", x_scale=x_scale, y_scale=y_scale, labelled=False
    )
    chart = (lines + current + best).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    return Template(chart)


@datasets.cached(max_entries=4)
def protection(height: int = 260) -> Template:
    """Template: the ε a person with r rows really gets (log-log, fixed axes): r·ε at event
    level, ε at user level. Dataset "levels" (rows, epsilon, level)."""
    x_scale = alt.Scale(type="log", domain=[1, VISITS_CAP], nice=False)
    y_scale = alt.Scale(type="log", domain=[0.01, 10 * VISITS_CAP], nice=False)
    levels = [LEVEL_EVENT, LEVEL_USER]
    chart = (
        alt.Chart(alt.NamedData(name="levels"))
        .mark_line(strokeWidth=2.5, clip=True)
        .encode(
            x=alt.X(
                "rows:Q",
                title="rows one person has (log)",
                scale=x_scale,
                axis=alt.Axis(format="~g", values=[1, 2, 5, 10, 20, 50, 100, 200, 400]),
            ),
            y=alt.Y(
                "epsilon:Q",
                title="that person's ε (log)",
                scale=y_scale,
                axis=alt.Axis(format=",~r", values=[0.01, 0.1, 1, 10, 100, 1000]),
            ),
            color=alt.Color(
                "level:N",
                scale=alt.Scale(domain=levels, range=[ui_charts.VERMILLION, ui_charts.BLUE]),
                legend=LEGEND,
            ),
            strokeDash=alt.StrokeDash(
                "level:N", scale=alt.Scale(domain=levels, range=[[6, 3], [1, 0]]), legend=None
            ),
            tooltip=[
                alt.Tooltip("rows:Q", title="rows"),
                alt.Tooltip("level:N", title="protection"),
                alt.Tooltip("epsilon:Q", format=",.3~r", title="ε"),
            ],
        )
        .properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    )
    return Template(chart)
