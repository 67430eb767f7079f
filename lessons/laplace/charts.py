"""Chart templates of the lesson "The Laplace mechanism" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt

from lessons.laplace.model import DENSITY_DOMAIN, LABEL_ONE, LABEL_ZERO, MALICIOUS_X
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

SHARE_TICKS = [0.01, 0.05, 0.1, 0.25, 0.5, 1.0]


LABEL_FLUSH_PX = 20  # half the width of a label such as "32,600"


@datasets.cached(max_entries=64)
def histogram(truth: int, half_width: float, height: int = 300) -> Template:
    """Template: bars of the share of answers per bin (dataset "bins": start, end, share,
    count) over the fixed window truth ± half_width, y on a fixed square-root axis 0..100%,
    the truth as a dashed labelled rule."""
    x_scale = alt.Scale(domain=[truth - half_width, truth + half_width], nice=False, zero=False)
    y_scale = alt.Scale(type="sqrt", domain=[0.0, 1.0])
    bars = ui_charts.binned_bars(
        "bins",
        x_title="noisy answer",
        x_scale=x_scale,
        # a tick can fall next to the window's end (32,600 at minimum age 17, the window's
        # end 32,601): a label within LABEL_FLUSH_PX of an end is written inside the plot,
        # not half over its edge (cut on a phone)
        x_axis=alt.Axis(format=",~r", labelFlush=LABEL_FLUSH_PX),
        y=alt.Y(
            "share:Q",
            title="share of answers" if height >= 260 else None,
            scale=y_scale,
            axis=alt.Axis(format="~%", values=SHARE_TICKS),
        ),
        tooltip=[
            alt.Tooltip("start:Q", format=",.1f", title="from"),
            alt.Tooltip("end:Q", format=",.1f", title="to"),
            alt.Tooltip("count:Q", format=",", title="answers"),
        ],
        mark={"color": ui_charts.NOISY_COLOUR, "opacity": 0.85},
    )
    truth_data = alt.Data(values=[{"x": float(truth), "label": f"true count {truth:,}"}])
    truth_layers = ui_charts.truth_rule_layers(x_scale, data=truth_data, label_dy=4)
    chart = (bars + truth_layers).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    return Template(chart)


@datasets.cached(max_entries=64)
def worlds() -> Template:
    """Template: the two worlds' densities (log y, fixed), the guessing threshold ½ as a
    dashed labelled rule. Dataset "worlds": y, density, world."""
    x_scale = alt.Scale(domain=list(MALICIOUS_X), nice=False, zero=False)
    domain = [LABEL_ZERO, LABEL_ONE]
    lines = (
        alt.Chart(alt.NamedData(name="worlds"))
        .mark_line(strokeWidth=2.5, clip=True)
        .encode(
            x=alt.X("y:Q", title="noisy answer", scale=x_scale),
            y=ui_charts.log_density_y(DENSITY_DOMAIN),
            color=alt.Color(
                "world:N",
                scale=alt.Scale(domain=domain, range=[ui_charts.ORANGE, ui_charts.BLUE]),
                legend=alt.Legend(orient="bottom", title=None, direction="vertical"),
            ),
            strokeDash=alt.StrokeDash(
                "world:N", scale=alt.Scale(domain=domain, range=[[6, 4], [1, 0]]), legend=None
            ),
        )
    )
    threshold = alt.Data(values=[{"x": 0.5, "label": "threshold ½"}])
    rule = (
        alt.Chart(threshold)
        .mark_rule(color=ui_charts.BLACK, strokeDash=[2, 2])
        .encode(x=alt.X("x:Q", scale=x_scale))
    )
    text = (
        alt.Chart(threshold)
        .mark_text(align="left", dx=4, dy=4, baseline="top", fontWeight="bold")
        .encode(x=alt.X("x:Q", scale=x_scale), y=alt.value(0), text="label:N")
    )
    return Template((lines + rule + text).properties(height=340, width=ui_charts.DEFAULT_WIDTH))


@datasets.cached(max_entries=64)
def accuracy() -> Template:
    """Template: accuracy of the best guess versus ε (log x, y fixed ½..1), a coin flip as a
    dashed labelled rule, the current ε as a diamond (dataset "point"; its words in the
    title: beside it, on a phone, the curve rose through "ε = 0.01: 50.2%")."""
    x_scale = alt.Scale(type="log", domain=[0.01, 10.0], nice=False)
    y_scale = alt.Scale(domain=[0.5, 1.0])
    curve = (
        alt.Chart(alt.NamedData(name="curve"))
        .mark_line(color=ui_charts.VERMILLION, strokeWidth=2.5)
        .encode(
            x=alt.X(
                "epsilon:Q",
                title="ε (log scale)",
                scale=x_scale,
                axis=alt.Axis(format="~g", values=[0.01, 0.1, 1, 10]),
            ),
            y=alt.Y("accuracy:Q", title="guess right", scale=y_scale, axis=alt.Axis(format="%")),
            tooltip=[
                alt.Tooltip("epsilon:Q", title="ε", format=".3g"),
                alt.Tooltip("accuracy:Q", title="right", format=".1%"),
            ],
        )
    )
    # at a small ε the diamond sits on the coin's line at its left end: the line's label is
    # written at the right end
    coin = ui_charts.reference_line_layers(
        alt.Data(values=[{"y": 0.5, "label": "coin flip: 50%"}]), "y", y_scale=y_scale, right=True
    )
    point = ui_charts.marked_point_layers(
        alt.NamedData(name="point"),
        "epsilon",
        "accuracy",
        x_scale=x_scale,
        y_scale=y_scale,
        labelled=False,
    )
    chart = (coin + curve + point).properties(height=300, width=ui_charts.DEFAULT_WIDTH)
    return Template(chart)
