"""Cached computations and chart builders for the central-versus-local lesson
(lessons/central_vs_local.py). Every number comes from dp/; charts are pre-binned (at most a
few hundred rows) and have fixed axes."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

import dp
from ui import charts
from ui.data import census

# |error| bins: 10 per decade from 0.01 to 100,000 people (errors outside fall in the edge bins)
ERROR_EDGES = np.logspace(-2, 5, 71)
ERROR_DOMAIN = (0.01, 100_000.0)
SHARE_MAX = 0.35
REPETITIONS = 20_000

POPULATION_SIZES = np.logspace(2, 7, 51)
N_DOMAIN = (100.0, 10_000_000.0)
SD_DOMAIN = (0.01, 1_000_000.0)

CENTRAL = "central (Laplace)"
LOCAL = "local (randomized response)"
MODEL_COLOURS = alt.Scale(domain=[CENTRAL, LOCAL], range=[charts.BLUE, charts.ORANGE])
MODEL_DASHES = alt.Scale(domain=[CENTRAL, LOCAL], range=[[1, 0], [7, 4]])


@st.cache_data(show_spinner=False)
def sales_question() -> tuple[int, int]:
    """(people who work in Sales, people in the census)."""
    people = census()
    return int((people["Occupation"] == "Sales").sum()), len(people)


@st.cache_data(show_spinner=False)
def error_distributions(truth: int, n: int, epsilon: float, seed: int) -> pd.DataFrame:
    """Share of answers whose |error| falls in each log bin, for both models.

    Central: exact, P[lo <= |Lap(1/ε)| < hi]. Local: 20,000 surveys of all n people drawn
    with `dp.sample_rr_counts` (p = q = e^ε/(1+e^ε)) and de-biased with
    `dp.estimate_proportion_from_counts`."""
    lo, hi = ERROR_EDGES[:-1].copy(), ERROR_EDGES[1:].copy()
    lo[0], hi[-1] = 0.0, np.inf  # the edge bins take everything beyond the axis
    central = dp.laplace_abs_error_probability(lo, hi, sensitivity=1, epsilon=epsilon)
    p = dp.rr_keep_probability(epsilon)
    counts = dp.sample_rr_counts(truth, n, p, p, size=REPETITIONS, rng=seed)
    estimates = n * dp.estimate_proportion_from_counts(counts, n, p, p)
    errors = np.clip(np.abs(estimates - truth), ERROR_EDGES[0], ERROR_EDGES[-1] * 0.999)
    local = np.histogram(errors, bins=ERROR_EDGES)[0] / REPETITIONS
    start, end = ERROR_EDGES[:-1], ERROR_EDGES[1:]
    return pd.concat(
        [
            pd.DataFrame({"model": CENTRAL, "start": start, "end": end, "share": central}),
            pd.DataFrame({"model": LOCAL, "start": start, "end": end, "share": local}),
        ],
        ignore_index=True,
    )


def error_distribution_chart(
    frame: pd.DataFrame, central_sd: float, local_sd: float
) -> alt.LayerChart:
    """Both |error| distributions on one log axis (0.01 … 100,000 people), central solid
    blue, local dashed orange, each model's typical error as a labelled rule."""
    x_scale = alt.Scale(type="log", domain=list(ERROR_DOMAIN), nice=False)
    x_axis = alt.Axis(values=[0.01, 0.1, 1, 10, 100, 1_000, 10_000, 100_000], format=",~g")
    y = alt.Y(
        "share:Q",
        title="share of answers",
        axis=alt.Axis(format="%"),
        scale=alt.Scale(domain=[0, SHARE_MAX], clamp=True),
    )
    base = alt.Chart(frame)
    area = base.mark_area(interpolate="step-after", opacity=0.3).encode(
        x=alt.X("start:Q", scale=x_scale, axis=x_axis, title="|error| in people (log scale)"),
        y=y,
        color=alt.Color("model:N", scale=MODEL_COLOURS, legend=None),
    )
    outline = base.mark_line(interpolate="step-after", strokeWidth=2).encode(
        x=alt.X("start:Q", scale=x_scale),
        y=y,
        color=alt.Color(
            "model:N",
            scale=MODEL_COLOURS,
            legend=alt.Legend(orient="bottom", title=None, direction="vertical", labelLimit=0),
        ),
        strokeDash=alt.StrokeDash("model:N", scale=MODEL_DASHES, legend=None),
        tooltip=[
            alt.Tooltip("model:N"),
            alt.Tooltip("start:Q", format=",.3g", title="|error| from"),
            alt.Tooltip("end:Q", format=",.3g", title="to"),
            alt.Tooltip("share:Q", format=".1%", title="share"),
        ],
    )
    typical = pd.DataFrame(
        {
            "model": [CENTRAL, LOCAL],
            "x": [central_sd, local_sd],
            "label": [f"central sd ± {central_sd:,.1f}", f"local sd ± {local_sd:,.0f}"],
            "dy": [4, 22],
        }
    )
    rules = (
        alt.Chart(typical)
        .mark_rule(strokeWidth=1.5)
        .encode(
            x=alt.X("x:Q", scale=x_scale),
            color=alt.Color("model:N", scale=MODEL_COLOURS, legend=None),
            strokeDash=alt.StrokeDash("model:N", scale=MODEL_DASHES, legend=None),
        )
    )
    labels = [
        alt.Chart(typical.iloc[[i]])
        .mark_text(align="left", dx=4, dy=dy, baseline="top", fontWeight="bold")
        .encode(x=alt.X("x:Q", scale=x_scale), y=alt.value(0), text="label:N")
        for i, dy in enumerate(typical["dy"])
    ]
    return alt.layer(area, outline, rules, *labels).properties(
        title="How far off is one answer? Central versus local",
        height=340,
        width=charts.DEFAULT_WIDTH,
    )


@st.cache_data(show_spinner=False)
def error_versus_n(epsilon: float) -> pd.DataFrame:
    """Typical count error (sd) of both models for n = 100 … 10,000,000 (51 sizes)."""
    central = dp.laplace_std(1, epsilon)
    local = dp.local_count_std(POPULATION_SIZES, epsilon)
    return pd.concat(
        [
            pd.DataFrame({"model": CENTRAL, "n": POPULATION_SIZES, "sd": central}),
            pd.DataFrame({"model": LOCAL, "n": POPULATION_SIZES, "sd": local}),
        ],
        ignore_index=True,
    )


def error_versus_n_chart(frame: pd.DataFrame, census_n: int) -> alt.LayerChart:
    """Log-log lines of sd versus n, fixed axes; the census size as a dashed labelled rule."""
    x = alt.X(
        "n:Q",
        title="number of people n (log scale)",
        scale=alt.Scale(type="log", domain=list(N_DOMAIN), nice=False),
        axis=alt.Axis(values=[100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000], format=",~s"),
    )
    y = alt.Y(
        "sd:Q",
        title="typical error (people, log scale)",
        scale=alt.Scale(type="log", domain=list(SD_DOMAIN), nice=False, clamp=True),
        axis=alt.Axis(values=[0.01, 1, 100, 10_000, 1_000_000], format=",~g"),
    )
    lines = (
        alt.Chart(frame)
        .mark_line(strokeWidth=2.5)
        .encode(
            x=x,
            y=y,
            color=alt.Color(
                "model:N",
                scale=MODEL_COLOURS,
                legend=alt.Legend(orient="bottom", title=None, direction="vertical", labelLimit=0),
            ),
            strokeDash=alt.StrokeDash("model:N", scale=MODEL_DASHES, legend=None),
            tooltip=[
                alt.Tooltip("model:N"),
                alt.Tooltip("n:Q", format=",.0f", title="people"),
                alt.Tooltip("sd:Q", format=",.2f", title="typical error"),
            ],
        )
    )
    ends = frame[frame["n"] == frame["n"].max()].assign(
        label=lambda f: f["model"].map({CENTRAL: "central: flat", LOCAL: "local: ∝ √n"})
    )
    end_labels = (
        alt.Chart(ends)
        .mark_text(align="right", dx=-4, dy=-10, fontWeight="bold")
        .encode(x=x, y=y, text="label:N")
    )
    census_frame = pd.DataFrame({"n": [float(census_n)], "label": [f"this census: {census_n:,}"]})
    rule = (
        alt.Chart(census_frame)
        .mark_rule(color=charts.TRUTH_COLOUR, strokeDash=[6, 3], strokeWidth=1.5)
        .encode(x=x)
    )
    rule_label = (
        alt.Chart(census_frame)
        .mark_text(align="left", dx=4, baseline="top", fontWeight="bold")
        .encode(x=x, y=alt.value(0), text="label:N")
    )
    return alt.layer(lines, end_labels, rule, rule_label).properties(
        title="Typical error versus the number of people",
        height=340,
        width=charts.DEFAULT_WIDTH,
    )


@st.cache_data(show_spinner=False)
def one_answer_each(truth: int, n: int, epsilon: float, seed: int) -> tuple[float, float]:
    """One central answer (truth + Lap(1/ε)) and one local estimate (a whole survey)."""
    central = dp.laplace_mechanism(truth, 1, epsilon, rng=seed)
    p = dp.rr_keep_probability(epsilon)
    reported = dp.sample_rr_counts(truth, n, p, p, rng=seed + 1)
    return central, n * dp.estimate_proportion_from_counts(reported, n, p, p)


@st.cache_data(show_spinner=False, max_entries=200)
def error_distribution_spec(truth: int, n: int, epsilon: float, seed: int) -> dict:
    """The |error| chart for these parameters (typical errors from dp/)."""
    frame = error_distributions(truth, n, epsilon, seed)
    chart = error_distribution_chart(
        frame, dp.laplace_std(1, epsilon), dp.local_count_std(n, epsilon)
    )
    return charts.vega_template(chart)


@st.cache_data(show_spinner=False, max_entries=200)
def error_versus_n_spec(epsilon: float, census_n: int) -> dict:
    return charts.vega_template(error_versus_n_chart(error_versus_n(epsilon), census_n))
