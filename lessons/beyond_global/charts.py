"""Chart templates of the lesson "Beyond global sensitivity" (data-free; the page fills
them)."""

from __future__ import annotations

import altair as alt

from lessons.beyond_global.model import (
    BLOCKS,
    BOUNDS,
    CURVES,
    HIGH,
    LOW,
    MAX_K_DRAWN,
    METHODS,
    WINDOW,
)
from ui import charts as ui_charts
from ui import datasets

LEGEND = alt.Legend(orient="bottom", title=None, direction="horizontal", labelLimit=0)
# long labels: one per line, so that a phone shows them whole
STACKED = alt.Legend(orient="bottom", title=None, direction="vertical", labelLimit=0)
AGE_SCALE = alt.Scale(domain=[LOW, HIGH], nice=False)


@datasets.cached(max_entries=4)
def around_median(height: int = 240) -> ui_charts.Template:
    """Template: the sorted ages at ranks m − 8 … m + 8 as points (y fixed 0..100), the
    median x_m in its own colour and as a labelled line. Datasets "ages" (offset, age,
    which) and "median" (y, label)."""
    points = (
        alt.Chart(alt.NamedData(name="ages"))
        .mark_point(filled=True, size=90)
        .encode(
            x=alt.X(
                "offset:Q",
                title="rank − m (people in age order, the median at 0)",
                scale=alt.Scale(domain=[-WINDOW - 0.5, WINDOW + 0.5], nice=False),
                axis=alt.Axis(values=list(range(-WINDOW, WINDOW + 1, 2)), format="d"),
            ),
            y=alt.Y("age:Q", title="age (clamped to 0–100)", scale=AGE_SCALE),
            color=alt.Color(
                "which:N",
                scale=alt.Scale(
                    domain=["the median x_m", "other people"],
                    range=[ui_charts.VERMILLION, ui_charts.BLUE],
                ),
                legend=LEGEND,
            ),
            tooltip=[alt.Tooltip("offset:Q", title="rank − m"), alt.Tooltip("age:Q")],
        )
    )
    line = ui_charts.reference_line_layers(alt.NamedData(name="median"), "y", y_scale=AGE_SCALE)
    return ui_charts.Template(
        (points + line).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    )


@datasets.cached(max_entries=4)
def leak(height: int = 220) -> ui_charts.Template:
    """Template: the release density for x (Laplace around the median) over ages 0..100 and,
    for y, the single value it always releases as a labelled rule. Datasets "density" (age,
    density) and "truth" (x, label)."""
    line = (
        alt.Chart(alt.NamedData(name="density"))
        .mark_area(color=ui_charts.BLUE, opacity=0.5, line={"color": ui_charts.BLUE})
        .encode(
            x=alt.X("age:Q", title="the released median", scale=AGE_SCALE),
            y=alt.Y(
                "density:Q",
                title="density of x's release",
                scale=alt.Scale(domain=[0.0, 0.012], nice=False),
            ),
            tooltip=[alt.Tooltip("age:Q"), alt.Tooltip("density:Q", format=".4f")],
        )
    )
    spike = ui_charts.truth_rule_layers(AGE_SCALE, label_dy=4, flip_at=70.0)
    return ui_charts.Template(
        (line + spike).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    )


@datasets.cached(max_entries=4)
def smooth_curves(height: int = 260) -> ui_charts.Template:
    """Template: A^(k)(x) and e^(−kβ)·A^(k)(x) against k = 0..60 (y fixed 0..100), the
    maximum of the second marked. Datasets "curves" (k, curve, value) and "peak" (k, value,
    label)."""
    x_scale = alt.Scale(domain=[0, MAX_K_DRAWN], nice=False)
    y_scale = alt.Scale(domain=[0.0, 100.0], nice=False)
    lines = (
        alt.Chart(alt.NamedData(name="curves"))
        .mark_line(strokeWidth=2.5)
        .encode(
            x=alt.X("k:Q", title="k, people replaced", scale=x_scale),
            y=alt.Y("value:Q", title="years", scale=y_scale),
            color=alt.Color(
                "curve:N",
                sort=list(CURVES),
                scale=alt.Scale(domain=list(CURVES), range=[ui_charts.GREY, ui_charts.BLUE]),
                legend=STACKED,
            ),
            tooltip=[
                alt.Tooltip("curve:N"),
                alt.Tooltip("k:Q"),
                alt.Tooltip("value:Q", format=".3f"),
            ],
        )
    )
    peak = ui_charts.marked_point_layers(
        alt.NamedData(name="peak"), "k", "value", x_scale=x_scale, y_scale=y_scale, flip_at=30
    )
    return ui_charts.Template(
        (lines + peak).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    )


@datasets.cached(max_entries=4)
def errors_by_n(height: int = 260) -> ui_charts.Template:
    """Template: typical error of each private median against n (log-log, fixed), the
    current n as a rule. Datasets "errors" (n, method, error) and "truth" (x, label)."""
    x_scale = alt.Scale(type="log", domain=[10, 40_000], nice=False)
    lines = (
        alt.Chart(alt.NamedData(name="errors"))
        .mark_line(point=True, strokeWidth=2.5)
        .encode(
            x=alt.X(
                "n:Q",
                title="people in the group (log scale)",
                scale=x_scale,
                axis=alt.Axis(values=[10, 100, 1_000, 10_000], format=",~r"),
            ),
            y=alt.Y(
                "error:Q",
                title="typical error, years",
                scale=alt.Scale(type="log", domain=[1e-3, 1e3], nice=False, clamp=True),
                axis=ui_charts.power_of_ten_axis(values=[0.001, 0.01, 0.1, 1, 10, 100, 1000]),
            ),
            color=alt.Color(
                "method:N",
                sort=list(METHODS),
                scale=alt.Scale(
                    domain=list(METHODS),
                    range=[ui_charts.GREY, ui_charts.GREEN, ui_charts.BLUE],
                ),
                legend=STACKED,
            ),
            tooltip=[
                alt.Tooltip("method:N"),
                alt.Tooltip("n:Q", format=","),
                alt.Tooltip("error:Q", format=".3g", title="typical error"),
            ],
        )
    )
    rule = ui_charts.truth_rule_layers(x_scale, label_dy=4, flip_at=3_000)
    return ui_charts.Template(
        (lines + rule).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    )


@datasets.cached(max_entries=4)
def refusal(height: int = 240) -> ui_charts.Template:
    """Template: the exact chance that propose-test-release refuses, against the proposed
    bound b (log x, y 0..100%), the current b as a rule. Datasets "curve" (bound, refusal)
    and "truth" (x, label)."""
    x_scale = alt.Scale(type="log", domain=[BOUNDS[0], BOUNDS[-1]], nice=False)
    line = (
        alt.Chart(alt.NamedData(name="curve"))
        .mark_line(point=True, strokeWidth=2.5, color=ui_charts.BLUE)
        .encode(
            x=alt.X(
                "bound:Q",
                title="proposed bound b in years (log scale)",
                scale=x_scale,
                axis=alt.Axis(values=list(BOUNDS), format="~g"),
            ),
            y=alt.Y(
                "refusal:Q",
                title="chance of refusing",
                scale=alt.Scale(domain=[0.0, 1.0], nice=False),
                axis=alt.Axis(format="~%"),
            ),
            tooltip=[
                alt.Tooltip("bound:Q", format="~g", title="b"),
                alt.Tooltip("refusal:Q", format=".2%", title="refuses"),
            ],
        )
    )
    rule = ui_charts.truth_rule_layers(x_scale, label_dy=4, flip_at=10.0)
    return ui_charts.Template(
        (line + rule).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    )


PARTS = ("noise", "the blocks' own error", "total")


@datasets.cached(max_entries=4)
def errors_by_k(height: int = 260) -> ui_charts.Template:
    """Template: the typical error of sample-and-aggregate against k (log-log, fixed), split
    into noise and the blocks' own error, the current k as a rule. Datasets "errors" (k,
    part, error) and "truth" (x, label)."""
    x_scale = alt.Scale(type="log", domain=[BLOCKS[0], BLOCKS[-1]], nice=False)
    lines = (
        alt.Chart(alt.NamedData(name="errors"))
        .mark_line(point=True, strokeWidth=2.5)
        .encode(
            x=alt.X(
                "k:Q",
                title="blocks k (log scale)",
                scale=x_scale,
                axis=alt.Axis(values=list(BLOCKS), format=",~r"),
            ),
            y=alt.Y(
                "error:Q",
                title="typical error of the slope",
                scale=alt.Scale(type="log", domain=[1e-4, 1.0], nice=False, clamp=True),
                axis=ui_charts.power_of_ten_axis(values=[1e-4, 1e-3, 0.01, 0.1, 1]),
            ),
            color=alt.Color(
                "part:N",
                sort=list(PARTS),
                scale=alt.Scale(
                    domain=list(PARTS),
                    range=[ui_charts.ORANGE, ui_charts.GREEN, ui_charts.BLACK],
                ),
                legend=LEGEND,
            ),
            tooltip=[
                alt.Tooltip("part:N"),
                alt.Tooltip("k:Q", format=","),
                alt.Tooltip("error:Q", format=".3g", title="typical error"),
            ],
        )
    )
    rule = ui_charts.truth_rule_layers(x_scale, label_dy=4, flip_at=200)
    return ui_charts.Template(
        (lines + rule).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    )
