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
    number of responses 0..n_max. y is fixed to 0..100 %. Taller on a projector."""
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
    return Template(
        (band + lines).properties(
            title="Estimate and 95% interval",
            height=PRESENTER_CHART_HEIGHT if presenting else CHART_HEIGHT,
            width=ui_charts.DEFAULT_WIDTH,
        )
    )
