"""Chart templates of the lesson "Uncertainty in DP answers" (data-free; the page fills
them)."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from lessons.uncertainty.model import ADDED_FLOOR, GROUP_SIZES, KINDS, SMALL_COUNTS
from ui import charts as ui_charts
from ui import datasets, text
from ui.template import Template

INTERVAL_DOMAIN = (-0.1, 0.6)  # the share earning >50K; an interval may reach below 0
KIND_COLOURS = [ui_charts.BLACK, ui_charts.VERMILLION, ui_charts.BLUE]


@datasets.cached()
def intervals() -> Template:
    """Template: the three 95% intervals around one release (one row each, a thick rule from
    low to high on a fixed share axis, the release as a white-filled point) and the
    population's share as a labelled dashed rule. Datasets "intervals" (interval, low, high,
    release) and "truth" (x, label)."""
    x_scale = alt.Scale(domain=list(INTERVAL_DOMAIN), nice=False, clamp=True)
    y = alt.Y("interval:N", title=None, sort=list(KINDS), axis=alt.Axis(labelLimit=200))
    colour = alt.Color(
        "interval:N", scale=alt.Scale(domain=list(KINDS), range=KIND_COLOURS), legend=None
    )
    base = alt.Chart(alt.NamedData(name="intervals"))
    tooltip = [
        alt.Tooltip("interval:N"),
        alt.Tooltip("low:Q", format=".2%", title="from"),
        alt.Tooltip("high:Q", format=".2%", title="to"),
        alt.Tooltip("release:Q", format=".2%"),
    ]
    bars = base.mark_rule(strokeWidth=8).encode(
        x=alt.X(
            "low:Q",
            title="share earning >50K",
            scale=x_scale,
            axis=alt.Axis(format="%"),
        ),
        x2="high:Q",
        y=y,
        color=colour,
        tooltip=tooltip,
    )
    point = base.mark_point(filled=True, fill="#ffffff", size=70, strokeWidth=2).encode(
        x=alt.X("release:Q", scale=x_scale), y=y, color=colour, tooltip=tooltip
    )
    rule = ui_charts.truth_rule_layers(x_scale, flip_at=0.4)
    return Template((bars + point + rule).properties(height=150, width=ui_charts.DEFAULT_WIDTH))


@datasets.cached()
def coverage() -> Template:
    """Template: how often each interval held the population's share over the repeats (bars
    0..100%), ±1.96 standard errors as whiskers, and the nominal 95% as a labelled rule.
    Datasets "coverage" (interval, coverage, se) and "truth" (x, label)."""
    x_scale = alt.Scale(domain=[0.0, 1.0], nice=False)
    y = alt.Y("interval:N", title=None, sort=list(KINDS), axis=alt.Axis(labelLimit=200))
    base = alt.Chart(alt.NamedData(name="coverage"))
    bars = base.mark_bar(height=22).encode(
        x=alt.X(
            "coverage:Q",
            title="surveys whose interval held the truth",
            scale=x_scale,
            axis=alt.Axis(format="%"),
        ),
        y=y,
        color=alt.Color(
            "interval:N", scale=alt.Scale(domain=list(KINDS), range=KIND_COLOURS), legend=None
        ),
        tooltip=[
            alt.Tooltip("interval:N"),
            alt.Tooltip("coverage:Q", format=".1%"),
            alt.Tooltip("se:Q", format=".1%", title="standard error"),
        ],
    )
    whiskers = (
        base.transform_calculate(
            low="max(datum.coverage - 1.96 * datum.se, 0)",
            high="min(datum.coverage + 1.96 * datum.se, 1)",
        )
        .mark_rule(color=ui_charts.GREY, strokeWidth=2)
        .encode(x=alt.X("low:Q", scale=x_scale), x2="high:Q", y=y)
    )
    rule = ui_charts.truth_rule_layers(x_scale, flip_at=0.8)
    return Template((bars + whiskers + rule).properties(height=150, width=ui_charts.DEFAULT_WIDTH))


@datasets.cached()
def clipping() -> Template:
    """Template: for true counts 0..30, how much clipping at 0 adds to the average release
    (a log axis 0.001..100 people, fixed for every ε). Dataset "bias" (count, added)."""
    line = (
        alt.Chart(alt.NamedData(name="bias"))
        .mark_line(point=True, color=ui_charts.VERMILLION, strokeWidth=2.5)
        .encode(
            x=alt.X(
                "count:Q",
                title="true count of the cell",
                scale=alt.Scale(domain=[0, int(SMALL_COUNTS[-1])], nice=False),
            ),
            y=alt.Y(
                "added:Q",
                title="people clipping adds (log scale)",
                scale=alt.Scale(type="log", domain=[ADDED_FLOOR, 100], nice=False, clamp=True),
                axis=alt.Axis(values=[0.001, 0.01, 0.1, 1, 10, 100], format="~g"),
            ),
            tooltip=[
                alt.Tooltip("count:Q", title="true count"),
                alt.Tooltip("added:Q", format=".3~g", title="added on average"),
            ],
        )
    )
    return Template(line.properties(height=220, width=ui_charts.DEFAULT_WIDTH))


RATIO_BIAS_DOMAIN = (-5.0, 30.0)  # years
RATIO_BIAS_HEIGHT = 220
GROUP_FLIP_AT = 300  # the group's label left of its rule from here on
GROUP_X_DOMAIN = (4, 1_500)


@datasets.cached()
def ratio_bias() -> Template:
    """Template: the ratio estimate's bias in years for each group size (log x), with ± 2
    standard errors of the simulation as whiskers, 0 as a grey line, and the chosen group
    size as a labelled dashed rule. Datasets "curve" (people, bias, low, high) and "truth"
    (x, label)."""
    x_scale = alt.Scale(type="log", domain=list(GROUP_X_DOMAIN), nice=False)
    y_scale = alt.Scale(domain=list(RATIO_BIAS_DOMAIN), nice=False, clamp=True)
    x = alt.X(
        "people:Q",
        title="people in the group (log scale)",
        scale=x_scale,
        axis=alt.Axis(values=list(GROUP_SIZES), format=",~r"),
    )
    base = alt.Chart(alt.NamedData(name="curve"))
    points = base.mark_line(point=True, color=ui_charts.BLUE, strokeWidth=2).encode(
        x=x,
        y=alt.Y("bias:Q", title="bias of the mean age (years)", scale=y_scale),
        tooltip=[
            alt.Tooltip("people:Q", format=","),
            alt.Tooltip("bias:Q", format="+.2f", title="bias (years)"),
        ],
    )
    whiskers = base.mark_rule(color=ui_charts.BLUE).encode(
        x=x, y=alt.Y("low:Q", scale=y_scale), y2="high:Q"
    )
    zero = (
        alt.Chart(alt.Data(values=[{"y": 0.0}]))
        .mark_rule(color=ui_charts.GREY, strokeDash=[2, 2])
        .encode(y=alt.Y("y:Q", scale=y_scale))
    )
    rule = ui_charts.truth_rule_layers(x_scale, flip_at=GROUP_FLIP_AT, bottom="bottom")
    return Template(
        (zero + whiskers + points + rule).properties(
            height=RATIO_BIAS_HEIGHT, width=ui_charts.DEFAULT_WIDTH
        )
    )


def ratio_bias_title(curve: pd.DataFrame, epsilon: float) -> str | list[str]:
    """The chart's title, and a second line when a bias is past the y axis (drawn at its
    edge: at ε = 0.01 biases of +420 and +2,656 years sat at 30 as if they were 30)."""
    title = f"Bias of the ratio mean, ε = {text.number(epsilon)}"
    low, high = RATIO_BIAS_DOMAIN
    biases = curve["bias"]
    if biases.max() <= high and biases.min() >= low:
        return title
    worst = biases.iloc[int(np.argmax(np.abs(biases.to_numpy())))]
    return [title, f"points on the edge are off the chart (up to {text.signed(worst)} years)"]


def group_label_at_bottom(curve: pd.DataFrame, n: int, label: str) -> bool:
    """Whether "your group: n" goes at the plot's bottom: at ε = 0.01 the bias runs along
    the plot's top (30 years), through the label written there
    (ui.charts.rule_label_at_bottom)."""
    return ui_charts.rule_label_at_bottom(
        n,
        label,
        curve["people"],
        curve["bias"],
        low=curve["low"],
        high=curve["high"],
        x_domain=GROUP_X_DOMAIN,
        y_domain=RATIO_BIAS_DOMAIN,
        right_of=n < GROUP_FLIP_AT,
        x_log=True,
        height=RATIO_BIAS_HEIGHT,
    )
