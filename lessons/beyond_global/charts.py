"""Chart templates of the lesson "Beyond global sensitivity" (data-free; the page fills
them)."""

from __future__ import annotations

import altair as alt
import pandas as pd

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
from ui.template import Template

AGE_SCALE = alt.Scale(domain=[LOW, HIGH], nice=False)


@datasets.cached(max_entries=4)
def around_median(height: int = 240) -> Template:
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
                    domain=["the median xₘ", "other people"],
                    range=[ui_charts.VERMILLION, ui_charts.BLUE],
                ),
                legend=ui_charts.ROW_LEGEND,
            ),
            tooltip=[alt.Tooltip("offset:Q", title="rank − m"), alt.Tooltip("age:Q")],
        )
    )
    line = ui_charts.reference_line_layers(alt.NamedData(name="median"), "y", y_scale=AGE_SCALE)
    return Template((points + line).properties(height=height, width=ui_charts.DEFAULT_WIDTH))


@datasets.cached(max_entries=4)
def leak(height: int = 220) -> Template:
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
    return Template((line + spike).properties(height=height, width=ui_charts.DEFAULT_WIDTH))


def smooth_curves(height: int = 260) -> Template:
    """Template: A^(k)(x) and e^(−kβ)·A^(k)(x) against k = 0..60 (y fixed 0..100), the
    maximum of the second marked by a diamond (its value in the title: at ε = 10, "S =
    1.506" beside it was crossed by A⁽ᵏ⁾ rising from the same corner). Datasets "curves" (k,
    curve, value) and "peak" (k, value)."""
    return ui_charts.curves(
        ui_charts.Axis("k", "k, people replaced", (0, MAX_K_DRAWN), format="d"),
        ui_charts.Axis("value", "years", (0.0, 100.0), tip_format=".3f"),
        ui_charts.Series(
            "curve", CURVES, colours=(ui_charts.GREY, ui_charts.BLUE), legend="stacked"
        ),
        mark="peak",
        mark_label=False,
        height=height,
    )


ERRORS_HEIGHT = 260


def errors_by_n(height: int = ERRORS_HEIGHT) -> Template:
    """Template: typical error of each private median against n (log-log, fixed), the
    current n as a rule. Datasets "errors" (n, method, error) and "truth" (x, label)."""
    return ui_charts.curves(
        ui_charts.Axis(
            "n",
            "people in the group (log scale)",
            N_DOMAIN,
            log=True,
            format=",~r",
            values=(10, 100, 1_000, 10_000),
            tip="n",
            tip_format=",",
        ),
        ui_charts.Axis(
            "error",
            "typical error, years",
            ERROR_DOMAIN,
            log=True,
            format=ui_charts.POWERS,
            values=(0.001, 0.01, 0.1, 1, 10, 100, 1000),
            tip="typical error",
            tip_format=".3g",
        ),
        ui_charts.Series(
            "method",
            METHODS,
            colours=(ui_charts.GREY, ui_charts.GREEN, ui_charts.BLUE),
            legend="stacked",
        ),
        data="errors",
        points=True,
        rule=True,
        rule_flip_at=N_FLIP_AT,
        rule_bottom="bottom",  # n_label_at_bottom
        height=height,
    )


N_FLIP_AT = 3_000  # the group's label left of its rule from here on
N_DOMAIN, ERROR_DOMAIN = (10, 40_000), (1e-3, 1e3)


def n_label_at_bottom(frame: pd.DataFrame, n: int, label: str) -> bool:
    """Whether "n = …" goes at the plot's bottom: at ε = 0.1 global Laplace's error runs
    flat near the top, through the label written there (ui.charts.rule_label_at_bottom)."""
    first, *others = ui_charts.series_curves(frame, "method", METHODS, "n", "error")
    return ui_charts.rule_label_at_bottom(
        n,
        label,
        *first,
        others=tuple(others),
        x_domain=N_DOMAIN,
        y_domain=ERROR_DOMAIN,
        right_of=n < N_FLIP_AT,
        x_log=True,
        y_log=True,
        label_dy=4,  # as ui.charts.curve_layers draws its rule's label
        height=ERRORS_HEIGHT,
    )


REFUSAL_HEIGHT = 240
BOUND_FLIP_AT = 10.0  # b's label left of its rule from here on


def refusal(height: int = REFUSAL_HEIGHT) -> Template:
    """Template: the exact chance that propose-test-release refuses, against the proposed
    bound b (log x, y 0..100%), the current b as a rule. Datasets "curve" (bound, refusal)
    and "truth" (x, label, bottom: bound_label_at_bottom)."""
    return ui_charts.curves(
        ui_charts.Axis.on_grid("bound", "proposed bound b in years (log scale)", BOUNDS, tip="b"),
        ui_charts.Axis(
            "refusal",
            "chance of refusing",
            (0.0, 1.0),
            format="~%",
            tip="refuses",
            tip_format=".2%",
        ),
        data="curve",
        points=True,
        rule=True,
        rule_flip_at=BOUND_FLIP_AT,
        rule_bottom="bottom",  # bound_label_at_bottom
        height=height,
    )


def bound_label_at_bottom(curve: pd.DataFrame, bound: float, label: str) -> bool:
    """Whether "b = …" goes at the plot's bottom: where the refusal curve falls from 100%
    just right of the rule (ε = 2, b = 2 in presenter mode), it ran through the label
    written at the top (ui.charts.rule_label_at_bottom)."""
    return ui_charts.rule_label_at_bottom(
        bound,
        label,
        curve["bound"].to_numpy(dtype=float),
        curve["refusal"].to_numpy(dtype=float),
        x_domain=(BOUNDS[0], BOUNDS[-1]),
        y_domain=(0.0, 1.0),
        right_of=bound < BOUND_FLIP_AT,
        x_log=True,
        label_dy=4,  # as ui.charts.curve_layers draws its rule's label
        height=REFUSAL_HEIGHT,
    )


PARTS = ("noise", "the blocks' own error", "total")


def errors_by_k(height: int = 260) -> Template:
    """Template: the typical error of sample-and-aggregate against k (log-log, fixed), split
    into noise and the blocks' own error, the current k as a rule. Datasets "errors" (k,
    part, error) and "truth" (x, label)."""
    return ui_charts.curves(
        ui_charts.Axis.on_grid(
            "k", "blocks k (log scale)", BLOCKS, format=",~r", tip="k", tip_format=","
        ),
        ui_charts.Axis(
            "error",
            "typical error of the slope",
            (1e-4, 1.0),
            log=True,
            format=ui_charts.POWERS,
            values=(1e-4, 1e-3, 0.01, 0.1, 1),
            tip="typical error",
            tip_format=".3g",
        ),
        ui_charts.Series(
            "part", PARTS, colours=(ui_charts.ORANGE, ui_charts.GREEN, ui_charts.BLACK)
        ),
        data="errors",
        points=True,
        rule=True,
        rule_flip_at=200,
        # at few blocks the noise runs near the plot's top and the blocks' own error near
        # its bottom: "k = 5" (ε = 1) and "k = 20" (ε = 0.2) were crossed at the top of
        # their rule on a 1080p projector, where the bottom is crossed too
        rule_above=True,
        height=height,
    )
