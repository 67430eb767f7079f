"""Cached computations and chart templates for the lesson "The Laplace mechanism".

Charts are Vega-Lite templates built once with Altair (data-free, cached) and filled each
run with pre-binned data as cached Arrow bytes, because building an Altair chart costs tens
of milliseconds per rerun (see `ui.charts.show_template`)."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st
from streamlit import dataframe_util

import dp
from ui import charts
from ui.data import census

QUERY_AGE = "People aged at least …"
QUERY_CONDITION = "Rows matching a condition"
QUERIES = (QUERY_AGE, QUERY_CONDITION)  # on your own file: only the condition (no Age)
DEFAULT_CONDITION = "Occupation = Sales"

ANSWER_COUNTS = (100, 200, 500, 1_000, 2_000, 5_000, 10_000)
ZOOMS = {"true count ± 500": 500.0, "true count ± 50": 50.0, "true count ± 5": 5.0}
BINS = 100
SMALL_MULTIPLE_EPSILONS = (0.1, 1.0, 5.0)
SMALL_MULTIPLE_HALF_WIDTH = 40.0
SHARE_TICKS = [0.01, 0.05, 0.1, 0.25, 0.5, 1.0]

MALICIOUS_X = (-4.0, 5.0)
MALICIOUS_STEP = 0.02
DENSITY_DOMAIN = (1e-3, 10.0)
ACCURACY_EPSILONS = np.geomspace(0.01, 10.0, 121)
NAMES_PER_GROUP = 5

# Offsets added to widgets.seed(): one per distinct random draw on the page.
SEED_HISTOGRAM = 100
SEED_SMALL_MULTIPLES = 200
SEED_MALICIOUS = 300


@st.cache_data(show_spinner=False)
def people_aged_at_least(age: int) -> int:
    """How many people in the census are `age` or older."""
    return int((census()["Age"] >= age).sum())


@st.cache_data(show_spinner=False)
def named_people() -> dict[str, str]:
    """A few names from the data -> their income band (alternating), for the malicious query."""
    people = census()[["Name", "Income"]]
    groups = [people[people["Income"] == band].iloc[100:] for band in ("<=50K", ">50K")]
    return {
        str(group["Name"].iloc[i]): str(group["Income"].iloc[i])
        for i in range(NAMES_PER_GROUP)
        for group in groups
    }


def _to_arrow(frame: pd.DataFrame) -> bytes:
    return dataframe_util.convert_anything_to_arrow_bytes(frame)


@st.cache_data(show_spinner=False, max_entries=512)
def histogram(
    truth: int, epsilon: float, answers: int, half_width: float, seed: int
) -> tuple[bytes, pd.DataFrame, int, float, float]:
    """Draw `answers` noisy answers truth + Lap(1/ε) and bin them over truth ± half_width.

    Returns (Arrow bytes of the bins, the bins as a frame — for the download —, number of
    answers outside the window — counted in the edge bins —, 2.5th and 97.5th percentile
    of the answers, for the alt text)."""
    values = dp.laplace_mechanism(truth, 1, epsilon, size=answers, rng=seed)
    domain = (truth - half_width, truth + half_width)
    frame = charts.histogram_frame(values, domain=domain, bins=BINS)
    outside = int(np.count_nonzero((values < domain[0]) | (values > domain[1])))
    lo, hi = np.percentile(values, [2.5, 97.5])
    return _to_arrow(frame), frame, outside, float(lo), float(hi)


@st.cache_data(show_spinner=False)
def histogram_spec(truth: int, half_width: float, height: int = 300) -> dict:
    """Template: bars of the share of answers per bin (dataset "bins": start, end, share,
    count) over the fixed window truth ± half_width, y on a fixed square-root axis 0..100%,
    the truth as a dashed labelled rule."""
    x_scale = alt.Scale(domain=[truth - half_width, truth + half_width], nice=False, zero=False)
    y_scale = alt.Scale(type="sqrt", domain=[0.0, 1.0])
    bars = (
        alt.Chart(alt.NamedData(name="bins"))
        # binSpacing=0: at phone width 100 bins with the default 1 px gap become hairlines.
        .mark_bar(color=charts.NOISY_COLOUR, opacity=0.85, binSpacing=0)
        .encode(
            x=alt.X(
                "start:Q",
                bin="binned",  # pre-binned: vertical bars from start to end, not ranged rows
                title="noisy answer",
                scale=x_scale,
                axis=alt.Axis(format=",~r"),
            ),
            x2="end:Q",
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
        )
    )
    truth_data = alt.Data(values=[{"x": float(truth), "label": f"true count {truth:,}"}])
    truth_layers = charts.truth_rule_layers(x_scale, data=truth_data, label_dy=4)
    chart = (bars + truth_layers).properties(height=height, width=charts.DEFAULT_WIDTH)
    return charts.vega_template(chart)


# --- the malicious query --------------------------------------------------------------------

LABEL_ZERO = "true answer 0 (earns >50K)"
LABEL_ONE = "true answer 1 (earns ≤50K)"


@st.cache_data(show_spinner=False)
def worlds_bytes(epsilon: float) -> bytes:
    """pdf of 0 + Lap(1/ε) and 1 + Lap(1/ε) on a fixed grid (long format)."""
    steps = int(round((MALICIOUS_X[1] - MALICIOUS_X[0]) / MALICIOUS_STEP))
    y = MALICIOUS_X[0] + MALICIOUS_STEP * np.arange(steps + 1)
    scale = dp.laplace_scale(1, epsilon)
    frame = pd.concat(
        [
            pd.DataFrame(
                {"y": y, "density": dp.laplace_pdf(y, loc=loc, scale=scale), "world": label}
            )
            for loc, label in ((0.0, LABEL_ZERO), (1.0, LABEL_ONE))
        ],
        ignore_index=True,
    )
    return _to_arrow(frame)


@st.cache_data(show_spinner=False)
def worlds_spec() -> dict:
    """Template: the two worlds' densities (log y, fixed), the guessing threshold ½ as a
    dashed labelled rule. Dataset "worlds": y, density, world."""
    x_scale = alt.Scale(domain=list(MALICIOUS_X), nice=False, zero=False)
    domain = [LABEL_ZERO, LABEL_ONE]
    lines = (
        alt.Chart(alt.NamedData(name="worlds"))
        .mark_line(strokeWidth=2.5, clip=True)
        .encode(
            x=alt.X("y:Q", title="noisy answer", scale=x_scale),
            y=alt.Y(
                "density:Q",
                title="density",
                scale=alt.Scale(type="log", domain=list(DENSITY_DOMAIN), clamp=True),
                axis=alt.Axis(format="~g"),
            ),
            color=alt.Color(
                "world:N",
                scale=alt.Scale(domain=domain, range=[charts.ORANGE, charts.BLUE]),
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
        .mark_rule(color=charts.BLACK, strokeDash=[2, 2])
        .encode(x=alt.X("x:Q", scale=x_scale))
    )
    text = (
        alt.Chart(threshold)
        .mark_text(align="left", dx=4, dy=4, baseline="top", fontWeight="bold")
        .encode(x=alt.X("x:Q", scale=x_scale), y=alt.value(0), text="label:N")
    )
    return charts.vega_template(
        (lines + rule + text).properties(height=340, width=charts.DEFAULT_WIDTH)
    )


@st.cache_data(show_spinner=False)
def accuracy_frame() -> pd.DataFrame:
    """P[best guess right] = 1 - ½ e^(-ε/2) over a log grid of ε."""
    return pd.DataFrame(
        {"epsilon": ACCURACY_EPSILONS, "accuracy": dp.best_guess_accuracy(ACCURACY_EPSILONS)}
    )


@st.cache_data(show_spinner=False)
def accuracy_bytes() -> bytes:
    """`accuracy_frame` as Arrow bytes, for the chart."""
    return _to_arrow(accuracy_frame())


@st.cache_data(show_spinner=False)
def accuracy_spec() -> dict:
    """Template: accuracy of the best guess versus ε (log x, y fixed ½..1), a coin flip as a
    dashed labelled rule, the current ε as a labelled diamond (dataset "point")."""
    x_scale = alt.Scale(type="log", domain=[0.01, 10.0], nice=False)
    y_scale = alt.Scale(domain=[0.5, 1.0])
    curve = (
        alt.Chart(alt.NamedData(name="curve"))
        .mark_line(color=charts.VERMILLION, strokeWidth=2.5)
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
    coin = charts.reference_line_layers(
        alt.Data(values=[{"y": 0.5, "label": "coin flip: 50%"}]), "y", y_scale=y_scale
    )
    point = charts.marked_point_layers(
        alt.NamedData(name="point"), "epsilon", "accuracy", x_scale=x_scale, y_scale=y_scale
    )
    chart = (coin + curve + point).properties(height=300, width=charts.DEFAULT_WIDTH)
    return charts.vega_template(chart)


@st.cache_data(show_spinner=False)
def point_bytes(epsilon: float) -> bytes:
    accuracy = dp.best_guess_accuracy(epsilon)
    return _to_arrow(
        pd.DataFrame(
            {
                "epsilon": [epsilon],
                "accuracy": [accuracy],
                "label": [f"ε = {epsilon:g}: {accuracy:.1%}"],
            }
        )
    )
