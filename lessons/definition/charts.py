"""Chart templates of the lesson "The definition" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt

from lessons.definition.model import (
    DENSITY_DOMAIN,
    HALF_WINDOW,
    LABEL_D,
    LABEL_D_PRIME,
    LOSS_DOMAIN,
)
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

DATASET_SCALE = alt.Scale(domain=[LABEL_D, LABEL_D_PRIME], range=[ui_charts.BLUE, ui_charts.ORANGE])


DASH_SCALE = alt.Scale(domain=[LABEL_D, LABEL_D_PRIME], range=[[1, 0], [6, 4]])


def _x_scale(truth: int) -> alt.Scale:
    """The fixed output axis f(D) ± 8; every layer uses it, or Vega-Lite would union the
    domains (and a rect layer would pull in 0)."""
    return alt.Scale(domain=[truth - HALF_WINDOW, truth + HALF_WINDOW], nice=False, zero=False)


def _x_output(truth: int, title: str) -> alt.X:
    return alt.X(
        "y:Q", title=title, scale=_x_scale(truth), axis=alt.Axis(format=",.0f", tickMinStep=1)
    )


@datasets.cached(max_entries=64)
def densities(truth: int) -> Template:
    """Template: the two output densities (D solid, D' dashed) on a fixed log axis, with the
    event Y shaded. Datasets: "density" (y, density, dataset), "event" (lo, hi, label)."""
    event = alt.NamedData(name="event")
    band = (
        alt.Chart(event)
        .mark_rect(color=ui_charts.GREEN, opacity=0.18)
        .encode(x=alt.X("lo:Q", scale=_x_scale(truth)), x2="hi:Q")
    )
    band_text = (
        alt.Chart(event)
        .mark_text(
            align="left", dx=3, dy=4, baseline="top", color=ui_charts.GREEN, fontWeight="bold"
        )
        .encode(x=alt.X("lo:Q", scale=_x_scale(truth)), y=alt.value(0), text="label:N")
    )
    lines = (
        alt.Chart(alt.NamedData(name="density"))
        .mark_line(strokeWidth=2.5, clip=True)
        .encode(
            x=_x_output(truth, "output y (noisy count of people earning >50K)"),
            y=ui_charts.log_density_y(DENSITY_DOMAIN),
            color=alt.Color(
                "dataset:N",
                scale=DATASET_SCALE,
                legend=alt.Legend(orient="bottom", title=None, direction="vertical"),
            ),
            strokeDash=alt.StrokeDash("dataset:N", scale=DASH_SCALE, legend=None),
            tooltip=[
                alt.Tooltip("dataset:N"),
                alt.Tooltip("y:Q", format=",.2f"),
                alt.Tooltip("density:Q", format=".3g"),
            ],
        )
    )
    chart = (band + band_text + lines).properties(height=260, width=ui_charts.DEFAULT_WIDTH)
    return Template(chart)


@datasets.cached(max_entries=64)
def loss(truth: int) -> Template:
    """Template: the privacy loss across y inside the shaded band ±ε (fixed symlog axis).
    Datasets: "loss" (y, loss), "band" (x, x2, lo, hi), "edges" (value, label)."""
    y_scale = alt.Scale(type="symlog", constant=0.05, domain=list(LOSS_DOMAIN))
    band = (
        alt.Chart(alt.NamedData(name="band"))
        .mark_rect(color=ui_charts.GREY, opacity=0.25)
        .encode(
            x=alt.X("x:Q", scale=_x_scale(truth)),
            x2="x2:Q",
            y=alt.Y("lo:Q", scale=y_scale),
            y2="hi:Q",
        )
    )
    edges = alt.NamedData(name="edges")
    edge_rules = (
        alt.Chart(edges)
        .mark_rule(color=ui_charts.BLACK, strokeDash=[2, 2])
        .encode(y=alt.Y("value:Q", scale=y_scale))
    )
    # +ε written above its line, −ε below its own: at a small ε the two lines almost meet
    edge_style = {"align": "left", "dx": 4, "color": ui_charts.BLACK, "fontWeight": "bold"}
    edge_encoding = {"x": alt.value(0), "y": alt.Y("value:Q", scale=y_scale), "text": "label:N"}
    edge_text = (
        alt.Chart(edges)
        .mark_text(dy=-6, **edge_style)
        .encode(**edge_encoding)
        .transform_filter(alt.datum.value >= 0)
    ) + (
        alt.Chart(edges)
        .mark_text(baseline="top", dy=4, **edge_style)
        .encode(**edge_encoding)
        .transform_filter(alt.datum.value < 0)
    )
    line = (
        alt.Chart(alt.NamedData(name="loss"))
        .mark_line(color=ui_charts.VERMILLION, strokeWidth=2.5)
        .encode(
            x=_x_output(truth, "output y"),
            y=alt.Y(
                "loss:Q",
                title="privacy loss",
                scale=y_scale,
                axis=alt.Axis(values=[-10, -1, -0.1, 0, 0.1, 1, 10], format="~r"),
            ),
            tooltip=[alt.Tooltip("y:Q", format=",.2f"), alt.Tooltip("loss:Q", format=".3f")],
        )
    )
    chart = (band + edge_rules + edge_text + line).properties(
        height=240, width=ui_charts.DEFAULT_WIDTH
    )
    return Template(chart)


PRIOR_BELOW_FROM = 0.5  # the prior's label under its line from this prior up


@datasets.cached(max_entries=64)
def posterior() -> Template:
    """Template: worst-case posterior versus ε (log x, y fixed 0..1), the prior as a dashed
    labelled rule and the current ε as a diamond, its words in the title
    (model.posterior_title: beside it, on a phone, the curve rising from ε = 0.1 ran through
    "ε = 0.07: 10.6%"). Datasets: "curve" (epsilon, posterior), "prior" (p, label), "point"
    (epsilon, posterior)."""
    x_scale = alt.Scale(type="log", domain=[0.01, 20.0], nice=False)
    y_scale = alt.Scale(domain=[0.0, 1.0])
    curve = (
        alt.Chart(alt.NamedData(name="curve"))
        .mark_line(color=ui_charts.VERMILLION, strokeWidth=2.5)
        .encode(
            x=alt.X("epsilon:Q", title="ε (log scale)", scale=x_scale, axis=alt.Axis(format="~g")),
            y=alt.Y(
                "posterior:Q",
                title="belief",
                scale=y_scale,
                axis=alt.Axis(format="%"),
            ),
            tooltip=[
                alt.Tooltip("epsilon:Q", title="ε", format=".3g"),
                alt.Tooltip("posterior:Q", title="posterior", format=".1%"),
            ],
        )
    )
    # The prior's label at the line's right end, where the curve has long left the line
    # (it is at least 99.99% at ε = 20), under the line near the top
    prior = ui_charts.reference_line_layers(
        alt.NamedData(name="prior"), "p", y_scale=y_scale, right=True, below_from=PRIOR_BELOW_FROM
    )
    mark = alt.NamedData(name="point")
    point = ui_charts.marked_point_layers(
        mark, "epsilon", "posterior", x_scale=x_scale, y_scale=y_scale, labelled=False
    )
    chart = (prior + curve + point).properties(height=240, width=ui_charts.DEFAULT_WIDTH)
    return Template(chart)
