"""Chart templates of the lesson "Composition and the budget" (data-free; the page fills
them with the model's DataFrames)."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from lessons.composition import model
from lessons.composition.model import (
    AVERAGING_ANSWERS,
    AVERAGING_HALF_RANGE,
    HISTOGRAM_DOMAIN,
    MAX_GROUP,
    MAX_QUERIES,
    SEQUENTIAL_ERROR_DOMAIN,
)
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template


@datasets.cached(max_entries=64)
def sequential() -> Template:
    """Template: typical error per answer versus the number of queries (log y, fixed axes;
    dataset "curve": m, epsilon, sd), the current m as a labelled point ("current")."""
    x = alt.X(
        "m:Q",
        title="number of queries m sharing the budget",
        scale=alt.Scale(domain=[1, MAX_QUERIES], nice=False),
    )
    y = alt.Y(
        "sd:Q",
        title="typical error per answer (people)",
        scale=alt.Scale(type="log", domain=list(SEQUENTIAL_ERROR_DOMAIN), clamp=True),
        axis=alt.Axis(values=[0.1, 1, 10, 100, 1_000, 10_000], format=",~g"),
    )
    line = ui_charts.curve(
        "curve",
        x,
        y,
        [
            alt.Tooltip("m:Q", title="queries"),
            alt.Tooltip("epsilon:Q", format=".4g", title="ε per query"),
            alt.Tooltip("sd:Q", format=",.2f", title="typical error"),
        ],
    )
    current = alt.NamedData(name="current")
    point = (
        alt.Chart(current)
        .mark_point(shape="diamond", size=140, filled=True, color=ui_charts.VERMILLION)
        .encode(x=x, y=y)
    )
    # 6 queries: left of the point from there on (a phone's plot has ~6 px a query, the
    # label ~30 px); 0.3: under the point only half a decade above the axis's 0.1
    text = ui_charts.rising_curve_label_layers(current, x, y, left_from=6, under_from=0.3)
    return Template(
        (line + point + text).properties(
            title="Error per answer grows in proportion to m",
            height=320,
            width=ui_charts.DEFAULT_WIDTH,
        )
    )


@datasets.cached(max_entries=64)
def averaging(truth: int) -> Template:
    """Template: single answers (grey dots), their running average (blue line) and the
    ± 2 sd band around the truth (dataset "answers": k, answer, average, lo, hi), on fixed
    axes: answers 1 … 1,000 (log), truth ± 80; the truth as a dashed labelled rule."""
    lo, hi = truth - AVERAGING_HALF_RANGE, truth + AVERAGING_HALF_RANGE
    x = alt.X(
        "k:Q",
        title="number of answers averaged",
        scale=alt.Scale(type="log", domain=[1, AVERAGING_ANSWERS[-1]], nice=False),
        axis=alt.Axis(values=list(AVERAGING_ANSWERS), format=",d"),
    )
    y_scale = alt.Scale(domain=[lo, hi], nice=False, clamp=True)
    base = alt.Chart(alt.NamedData(name="answers"))
    band = base.mark_area(color=ui_charts.SKY, opacity=0.3).encode(
        x=x, y=alt.Y("lo:Q", scale=y_scale, title="people earning >50K"), y2="hi:Q"
    )
    dots = base.mark_circle(color=ui_charts.GREY, size=18, opacity=0.6, clip=True).encode(
        x=x, y=alt.Y("answer:Q", scale=y_scale)
    )
    line = base.mark_line(color=ui_charts.BLUE, strokeWidth=2.5).encode(
        x=x,
        y=alt.Y("average:Q", scale=y_scale),
        tooltip=[
            alt.Tooltip("k:Q", title="answers"),
            alt.Tooltip("answer:Q", format=",.1f", title="this answer"),
            alt.Tooltip("average:Q", format=",.2f", title="average so far"),
        ],
    )
    truth_frame = pd.DataFrame({"y": [float(truth)], "label": [f"true count {truth:,}"]})
    rule = (
        alt.Chart(truth_frame)
        .mark_rule(color=ui_charts.TRUTH_COLOUR, strokeDash=[6, 3], strokeWidth=2)
        .encode(y=alt.Y("y:Q", scale=y_scale))
    )
    label = (
        alt.Chart(truth_frame)
        .mark_text(align="right", dy=-8, color=ui_charts.TRUTH_COLOUR, fontWeight="bold")
        .encode(x=alt.value("width"), y=alt.Y("y:Q", scale=y_scale), text="label:N")
    )
    return Template(
        (band + dots + line + rule + label).properties(
            title="Averaging repeated answers finds the truth",
            height=380,
            width=ui_charts.DEFAULT_WIDTH,
        )
    )


@datasets.cached(max_entries=64)
def bars(column: str, colour: str) -> Template:
    """Template: horizontal noisy bars (dataset "bars": occupation, true, `column`) with the
    true count as a black tick per bar (fixed x axis)."""
    x_scale = alt.Scale(domain=list(HISTOGRAM_DOMAIN), nice=False, clamp=True)
    y = alt.Y("occupation:N", sort=None, title=None)
    base = alt.Chart(alt.NamedData(name="bars"))
    bars = base.mark_bar(color=colour, opacity=0.85).encode(
        x=alt.X(f"{column}:Q", title="number of people", scale=x_scale),
        y=y,
        tooltip=[
            alt.Tooltip("occupation:N"),
            alt.Tooltip("true:Q", format=",", title="true"),
            alt.Tooltip(f"{column}:Q", format=",.0f", title="noisy"),
        ],
    )
    ticks = base.mark_tick(color=ui_charts.TRUTH_COLOUR, thickness=3, size=14).encode(
        x=alt.X("true:Q", scale=x_scale), y=y
    )
    return Template((bars + ticks).properties(height=440, width=ui_charts.DEFAULT_WIDTH))


@datasets.cached(max_entries=64)
def group() -> Template:
    """Template: worst-case posterior versus group size (fixed axes 1 … 10 × 0 … 1; dataset
    "curve": g, epsilon, posterior), the prior as a dashed labelled rule ("prior": y, label,
    right, under: where prior_place found room for its label) and the chosen g as a diamond
    ("current"), its value in the title (beside it, on a projector, "15%" under it met the
    prior's line just below, and above it a steep curve)."""
    x = alt.X(
        "g:Q",
        title="group size g",
        scale=alt.Scale(domain=[1, MAX_GROUP], nice=False),
        axis=alt.Axis(values=list(range(1, MAX_GROUP + 1)), format="d"),
    )
    y = alt.Y(
        "posterior:Q",
        title="attacker's worst-case belief",
        scale=alt.Scale(domain=[0, 1]),
        axis=alt.Axis(format="%"),
    )
    line = (
        alt.Chart(alt.NamedData(name="curve"))
        .mark_line(
            color=ui_charts.VERMILLION,
            strokeWidth=2,
            point=alt.OverlayMarkDef(color=ui_charts.VERMILLION, size=40),
        )
        .encode(
            x=x,
            y=y,
            tooltip=[
                alt.Tooltip("g:Q", title="group size"),
                alt.Tooltip("epsilon:Q", format=".3g", title="g·ε"),
                alt.Tooltip("posterior:Q", format=".1%", title="worst-case belief"),
            ],
        )
    )
    current = alt.NamedData(name="current")
    point = (
        alt.Chart(current)
        .mark_point(shape="diamond", size=160, filled=True, color=ui_charts.BLACK)
        .encode(x=x, y=y)
    )
    # the prior's line, its label where neither the curve nor the diamond runs (prior_place)
    prior = ui_charts.reference_line_layers(
        alt.NamedData(name="prior"),
        "y",
        y_scale=alt.Scale(domain=[0, 1]),
        right="right",
        below="under",
    )
    return Template(
        (line + point + prior).properties(
            height=GROUP_HEIGHT,
            width=ui_charts.DEFAULT_WIDTH,
        )
    )


GROUP_HEIGHT = 320
DIAMOND_HALF_PX = 8  # the chosen g's diamond (size 160) reaches ~7 px either side of its value


def prior_place(epsilon: float, g: int, prior: float) -> tuple[bool, bool]:
    """Where "prior π" goes on its line, (right, under), clear of the worst-case curve and
    the chosen g's diamond (ui.charts.level_label_places): at a small ε the curve hugs the
    line, 1–3 points above it, and at its right end it ran through the label (prior 5%,
    ε = 0.05, from g = 7 on a phone) with the diamond over it at g = 9; under the line there
    is room from a prior of 5% up. Not cached: 10 points, and the place depends on presenter
    mode's text size."""
    frame = model.group_frame(epsilon, prior)
    posterior = frame["posterior"].to_numpy()
    reach = np.where(frame["g"].to_numpy() == g, DIAMOND_HALF_PX / GROUP_HEIGHT, 0.0)
    (place,) = ui_charts.level_label_places(
        [(prior, model.prior_label(prior))],
        frame["g"].to_numpy(dtype=float),
        posterior,
        low=posterior - reach,
        high=posterior + reach,
        x_domain=(1.0, float(MAX_GROUP)),
        y_domain=(0.0, 1.0),
        height=GROUP_HEIGHT,
    )
    return place
