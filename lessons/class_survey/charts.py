"""Chart template of the class survey's projector view (data-free; the page fills it)."""

from __future__ import annotations

import altair as alt

from lessons.class_survey.model import CHART_HEIGHT, PRESENTER_CHART_HEIGHT
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template


@datasets.cached(max_entries=64)
def estimate(n_max: int, presenting: bool = False) -> Template:
    """Template: the debiased estimate (solid) with its 95% band ("band": n, low, high),
    and the raw share of reported "yes" (dashed; "lines": n, series, share), against the
    number of responses 0..n_max, and the last response's values as points (circle, diamond)
    with its interval as a bar. y is fixed to 0..100 %. Taller on a projector."""
    x = alt.X(
        "n:Q",
        title="responses so far",
        scale=alt.Scale(domain=[0, n_max], nice=False),
        axis=alt.Axis(format="d", tickMinStep=1),  # counts: 1, 2, 3, never 1.0
    )
    y_scale = alt.Scale(domain=[0, 1], clamp=True)
    band = (
        alt.Chart(alt.NamedData(name="band"))
        .mark_area(color=ui_charts.SKY, opacity=0.35)
        .encode(
            x=x,
            y=alt.Y("low:Q", scale=y_scale, title="share of the room", axis=alt.Axis(format="%")),
            y2="high:Q",
            tooltip=[
                alt.Tooltip("n:Q", title="responses"),
                alt.Tooltip("low:Q", format=".0%", title="95% interval from"),
                alt.Tooltip("high:Q", format=".0%", title="to"),
            ],
        )
    )
    names = ["debiased estimate", "share reported yes"]
    lines = (
        alt.Chart(alt.NamedData(name="lines"))
        .mark_line(strokeWidth=3, clip=True)
        .encode(
            x=x,
            y=alt.Y("share:Q", scale=y_scale),
            color=alt.Color(
                "series:N",
                scale=alt.Scale(domain=names, range=[ui_charts.BLUE, ui_charts.ORANGE]),
                legend=alt.Legend(title=None, orient="top"),
            ),
            strokeDash=alt.StrokeDash(
                "series:N", scale=alt.Scale(domain=names, range=[[1, 0], [6, 4]]), legend=None
            ),
            tooltip=[
                alt.Tooltip("series:N", title="line"),
                alt.Tooltip("n:Q", title="responses"),
                alt.Tooltip("share:Q", format=".0%"),
            ],
        )
    )
    # Where the room is now: the last response's two values as points and its interval as a
    # bar. A line and an area need two points, so after the first answer the chart was empty
    # while the metrics beside it gave numbers. (aria=False: the numbers are in the
    # description and the metrics; the lines are described already.)
    last = {"joinaggregate": [{"op": "max", "field": "n", "as": "last_n"}]}
    now_interval = (
        alt.Chart(alt.NamedData(name="band"))
        .transform_joinaggregate(**last)
        .transform_filter("datum.n == datum.last_n")
        .mark_rule(color=ui_charts.BLUE, strokeWidth=3, opacity=0.6, aria=False)
        .encode(x=x, y=alt.Y("low:Q", scale=y_scale), y2="high:Q")
    )
    now_points = [
        alt.Chart(alt.NamedData(name="lines"))
        .transform_joinaggregate(**last)
        .transform_filter(f"datum.n == datum.last_n && datum.series == '{name}'")
        .mark_point(filled=True, size=90, opacity=1, color=colour, shape=shape, aria=False)
        .encode(
            x=x,
            y=alt.Y("share:Q", scale=y_scale),
            tooltip=[
                alt.Tooltip("series:N", title="now"),
                alt.Tooltip("n:Q", title="responses"),
                alt.Tooltip("share:Q", format=".0%"),
            ],
        )
        for name, colour, shape in zip(
            names, (ui_charts.BLUE, ui_charts.ORANGE), ("circle", "diamond"), strict=True
        )
    ]
    return Template(
        alt.layer(band, lines, now_interval, *now_points).properties(
            title="Estimate and 95% interval",
            height=PRESENTER_CHART_HEIGHT if presenting else CHART_HEIGHT,
            width=ui_charts.DEFAULT_WIDTH,
        )
    )
