"""Chart templates of the lesson "Choosing privately" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt
import numpy as np

from lessons.choosing.model import CURVE_EPSILONS
from ui import charts as ui_charts
from ui import datasets

LEGEND = alt.Legend(orient="bottom", title=None, direction="horizontal", labelLimit=0, columns=2)
SERIES_COLOURS = [
    ui_charts.BLUE,
    ui_charts.VERMILLION,
    ui_charts.GREEN,
    ui_charts.ORANGE,
    ui_charts.GREY,
]
ROW_HEIGHT = 22
# the middle of the log ε axis: a rule right of it has its label on its left
MIDDLE_EPSILON = float(np.sqrt(CURVE_EPSILONS[0] * CURVE_EPSILONS[-1]))


@datasets.cached(max_entries=64)
def win_bars(labels: tuple[str, ...], x_title: str) -> ui_charts.Template:
    """Template: one row per candidate (in the given order), a bar for its exact chance of
    being chosen (x fixed 0..100%) and a black tick for the share of simulated runs it won.
    Dataset "wins" (label, exact probability, share of runs)."""
    x_scale = alt.Scale(domain=[0.0, 1.0], nice=False)
    y = alt.Y("label:N", sort=list(labels), title=None, axis=alt.Axis(labelLimit=220))
    base = alt.Chart(alt.NamedData(name="wins"))
    tooltip = [
        alt.Tooltip("label:N", title="candidate"),
        alt.Tooltip("exact probability:Q", format=".2%", title="exact"),
        alt.Tooltip("share of runs:Q", format=".1%", title="share of runs"),
    ]
    bars = base.mark_bar(color=ui_charts.NOISY_COLOUR, opacity=0.8).encode(
        y=y,
        x=alt.X(
            "exact probability:Q",
            title=x_title,
            scale=x_scale,
            axis=alt.Axis(format="~%", values=[0, 0.25, 0.5, 0.75, 1]),
        ),
        tooltip=tooltip,
    )
    ticks = base.mark_tick(color=ui_charts.BLACK, thickness=3, size=ROW_HEIGHT - 6).encode(
        y=y, x=alt.X("share of runs:Q", scale=x_scale), tooltip=tooltip
    )
    height = ROW_HEIGHT * max(len(labels), 2)
    return ui_charts.Template(
        (bars + ticks).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    )


@datasets.cached(max_entries=64)
def win_curves(
    series: tuple[str, ...], height: int = 260, y_title: str = "chance of being reported"
) -> ui_charts.Template:
    """Template: P[win] against ε (log x over the fixed ε range, y 0..100%), one line per
    series, the current ε as a labelled rule. Datasets "curves" (epsilon, category,
    probability) and "truth" (x, label)."""
    x_scale = alt.Scale(
        type="log", domain=[float(CURVE_EPSILONS[0]), float(CURVE_EPSILONS[-1])], nice=False
    )
    lines = (
        alt.Chart(alt.NamedData(name="curves"))
        .mark_line(strokeWidth=2.5)
        .encode(
            x=alt.X(
                "epsilon:Q",
                title="ε (log scale; ← more private)",
                scale=x_scale,
                axis=alt.Axis(format="~g", values=[0.001, 0.01, 0.1, 1, 10]),
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
                scale=alt.Scale(domain=list(series), range=SERIES_COLOURS[: len(series)]),
                # two columns of short names; long ones (the sparse vector's outcomes) one a
                # line, or the second column runs past the chart's right edge
                legend=LEGEND if max(map(len, series)) <= 24 else ui_charts.STACKED_LEGEND,
            ),
            tooltip=[
                alt.Tooltip("category:N"),
                alt.Tooltip("epsilon:Q", format="~g", title="ε"),
                alt.Tooltip("probability:Q", format=".2%", title="chance"),
            ],
        )
    )
    rule = ui_charts.truth_rule_layers(x_scale, label_dy=4, flip_at=MIDDLE_EPSILON)
    return ui_charts.Template(
        (lines + rule).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    )


@datasets.cached(max_entries=64)
def quantile_bars(low: float, high: float, x_title: str, height: int = 260) -> ui_charts.Template:
    """Template: the exponential mechanism's probability for every candidate (bars over the
    column's fixed range, sqrt y 0..100%) and the true quantile as a labelled rule. Datasets
    "candidates" (start, end, candidate, score, probability) and "truth" (x, label)."""
    x_scale = alt.Scale(domain=[low, high], nice=False, zero=False)
    bars = (
        alt.Chart(alt.NamedData(name="candidates"))
        .mark_bar(color=ui_charts.NOISY_COLOUR, opacity=0.85, binSpacing=0)
        .encode(
            x=alt.X(
                "start:Q",
                bin="binned",
                title=x_title,
                scale=x_scale,
                axis=alt.Axis(format=",~r"),
            ),
            x2="end:Q",
            y=alt.Y(
                "probability:Q",
                title="chance of being released",
                scale=alt.Scale(type="sqrt", domain=[0.0, 1.0]),
                axis=alt.Axis(format="~%", values=[0.01, 0.05, 0.1, 0.25, 0.5, 1.0]),
            ),
            tooltip=[
                alt.Tooltip("candidate:Q", format=",~r", title="candidate"),
                alt.Tooltip("score:Q", format=",.1f", title="score u"),
                alt.Tooltip("probability:Q", format=".3%", title="chance"),
            ],
        )
    )
    rule = ui_charts.truth_rule_layers(x_scale, label_dy=4, flip_at=(low + high) / 2)
    return ui_charts.Template(
        (bars + rule).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    )
