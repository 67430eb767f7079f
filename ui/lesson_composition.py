"""Cached computations and chart builders for the composition lesson (lessons/composition.py).

Every number comes from dp/; the frames here are small (at most 1,000 rows) and every chart
has fixed axes, so moving a slider shows change, not rescaling."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

import dp
from ui import charts
from ui.data import census

MAX_QUERIES = 50
SEQUENTIAL_ERROR_DOMAIN = (0.1, 10_000.0)

AVERAGING_EPSILONS = (0.05, 0.1, 0.2, 0.5, 1.0)
AVERAGING_ANSWERS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
AVERAGING_HALF_RANGE = 80.0

HISTOGRAM_DOMAIN = (-1_000.0, 5_000.0)
MAX_GROUP = 10


# --- data ---------------------------------------------------------------------------------


@st.cache_data(show_spinner=False)
def high_earners() -> int:
    """How many people earn more than 50K (the query the averaging attack repeats)."""
    return int((census()["Income"] == ">50K").sum())


@st.cache_data(show_spinner=False)
def occupation_counts() -> pd.DataFrame:
    """True number of people per occupation (disjoint groups; missing values left out),
    largest first."""
    counts = census()["Occupation"].value_counts(dropna=True)
    counts = counts[counts > 0].sort_values(ascending=False)
    return pd.DataFrame({"occupation": counts.index.astype(str), "true": counts.to_numpy()})


# --- (a) sequential composition -----------------------------------------------------------


@st.cache_data(show_spinner=False)
def sequential_error_frame(total_epsilon: float) -> pd.DataFrame:
    """For m = 1 … 50 queries sharing ε_total: ε per query and the typical error (sd)."""
    m = np.arange(1, MAX_QUERIES + 1)
    per_query = [dp.split_budget(total_epsilon, int(k)) for k in m]
    return pd.DataFrame(
        {"m": m, "epsilon": per_query, "sd": [dp.laplace_std(1, e) for e in per_query]}
    )


def sequential_error_chart(frame: pd.DataFrame, m: int) -> alt.LayerChart:
    """Typical error per answer versus the number of queries (log y, fixed axes), with the
    current m marked by a labelled point."""
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
    line = (
        alt.Chart(frame)
        .mark_line(color=charts.BLUE, strokeWidth=2)
        .encode(
            x=x,
            y=y,
            tooltip=[
                alt.Tooltip("m:Q", title="queries"),
                alt.Tooltip("epsilon:Q", format=".4g", title="ε per query"),
                alt.Tooltip("sd:Q", format=",.2f", title="typical error"),
            ],
        )
    )
    current = frame[frame["m"] == m].assign(label=lambda f: f["sd"].map(lambda v: f"{v:,.1f}"))
    point = (
        alt.Chart(current)
        .mark_point(shape="diamond", size=140, filled=True, color=charts.VERMILLION)
        .encode(x=x, y=y)
    )
    text = (
        alt.Chart(current)
        .mark_text(align="left", dx=8, dy=-10, fontWeight="bold", color=charts.BLACK)
        .encode(x=x, y=y, text="label:N")
    )
    return (line + point + text).properties(
        title="Error per answer grows in proportion to m",
        height=320,
        width=charts.DEFAULT_WIDTH,
    )


# --- (b) the averaging attack ---------------------------------------------------------------


@st.cache_data(show_spinner=False)
def averaging_frame(truth: int, epsilon: float, seed: int) -> pd.DataFrame:
    """1,000 noisy answers to the same count at ε each, the running average of the first k,
    and the band ± 2 sd of that average (the page shows the first m rows)."""
    answers = dp.laplace_mechanism(truth, 1, epsilon, size=AVERAGING_ANSWERS[-1], rng=seed)
    k = np.arange(1, answers.size + 1)
    average = dp.running_average(answers)
    sd = dp.averaged_laplace_std(1, epsilon, k)
    return pd.DataFrame(
        {"k": k, "answer": answers, "average": average, "lo": truth - 2 * sd, "hi": truth + 2 * sd}
    )


def averaging_chart(frame: pd.DataFrame, truth: int) -> alt.LayerChart:
    """Single answers (grey dots), their running average (blue line) and the ± 2 sd band
    around the truth, on fixed axes: answers 1 … 1,000 (log), truth ± 80."""
    lo, hi = truth - AVERAGING_HALF_RANGE, truth + AVERAGING_HALF_RANGE
    x = alt.X(
        "k:Q",
        title="number of answers averaged",
        scale=alt.Scale(type="log", domain=[1, AVERAGING_ANSWERS[-1]], nice=False),
        axis=alt.Axis(values=list(AVERAGING_ANSWERS), format=",d"),
    )
    y_scale = alt.Scale(domain=[lo, hi], nice=False, clamp=True)
    base = alt.Chart(frame)
    band = base.mark_area(color=charts.SKY, opacity=0.3).encode(
        x=x, y=alt.Y("lo:Q", scale=y_scale, title="people earning >50K"), y2="hi:Q"
    )
    dots = base.mark_circle(color=charts.GREY, size=18, opacity=0.6, clip=True).encode(
        x=x, y=alt.Y("answer:Q", scale=y_scale)
    )
    line = base.mark_line(color=charts.BLUE, strokeWidth=2.5).encode(
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
        .mark_rule(color=charts.TRUTH_COLOUR, strokeDash=[6, 3], strokeWidth=2)
        .encode(y=alt.Y("y:Q", scale=y_scale))
    )
    label = (
        alt.Chart(truth_frame)
        .mark_text(align="right", dy=-8, color=charts.TRUTH_COLOUR, fontWeight="bold")
        .encode(x=alt.value("width"), y=alt.Y("y:Q", scale=y_scale), text="label:N")
    )
    return (band + dots + line + rule + label).properties(
        title="Averaging repeated answers finds the truth",
        height=380,
        width=charts.DEFAULT_WIDTH,
    )


def ledger(epsilon: float, m: int, budget: float) -> pd.DataFrame:
    """The privacy ledger after 1, 10, 100, 1,000 and m answers (up to m)."""
    steps = sorted({k for k in (1, 10, 100, 1000) if k <= m} | {m})
    rows = []
    for k in steps:
        spent = dp.sequential_composition([epsilon] * k)
        rows.append(
            {
                "answers": f"{k:,}",
                "ε spent": f"{spent:,.2f}",
                "error of the average": f"± {dp.averaged_laplace_std(1, epsilon, k):,.2f}",
                "in budget?": "yes" if spent <= budget + 1e-9 else "no",
            }
        )
    return pd.DataFrame(rows)


# --- (c) parallel composition ---------------------------------------------------------------


@st.cache_data(show_spinner=False)
def histogram_frames(epsilon: float, seed: int) -> pd.DataFrame:
    """True occupation counts, one noisy histogram at ε per bar (parallel composition: total
    ε) and one at ε/k per bar (what a total ε buys if every bar were a separate query)."""
    frame = occupation_counts()
    true = frame["true"].to_numpy()
    split = dp.split_budget(epsilon, true.size)
    return frame.assign(
        parallel=dp.laplace_mechanism(true, 1, epsilon, rng=seed),
        split=dp.laplace_mechanism(true, 1, split, rng=seed + 1),
    )


def bars_chart(frame: pd.DataFrame, column: str, title: str, colour: str) -> alt.LayerChart:
    """Horizontal noisy bars with the true count as a black tick per bar (fixed x axis)."""
    x_scale = alt.Scale(domain=list(HISTOGRAM_DOMAIN), nice=False, clamp=True)
    y = alt.Y("occupation:N", sort=None, title=None)
    base = alt.Chart(frame)
    bars = base.mark_bar(color=colour, opacity=0.85).encode(
        x=alt.X(f"{column}:Q", title="number of people", scale=x_scale),
        y=y,
        tooltip=[
            alt.Tooltip("occupation:N"),
            alt.Tooltip("true:Q", format=",", title="true"),
            alt.Tooltip(f"{column}:Q", format=",.0f", title="noisy"),
        ],
    )
    ticks = base.mark_tick(color=charts.TRUTH_COLOUR, thickness=3, size=14).encode(
        x=alt.X("true:Q", scale=x_scale), y=y
    )
    return (bars + ticks).properties(title=title, height=440, width=charts.DEFAULT_WIDTH)


# --- (d) group privacy ----------------------------------------------------------------------


def group_frame(epsilon: float, prior: float) -> pd.DataFrame:
    """For groups of g = 1 … 10 people: g·ε and the attacker's worst-case posterior."""
    g = np.arange(1, MAX_GROUP + 1)
    group_eps = [dp.group_privacy(epsilon, int(k)) for k in g]
    return pd.DataFrame(
        {
            "g": g,
            "epsilon": group_eps,
            "posterior": [dp.posterior_bound(prior, e) for e in group_eps],
        }
    )


def group_chart(frame: pd.DataFrame, g: int, prior: float) -> alt.LayerChart:
    """Worst-case posterior versus group size (fixed axes 1 … 10 × 0 … 1), the prior as a
    dashed labelled rule and the chosen g as a labelled point."""
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
        alt.Chart(frame)
        .mark_line(
            color=charts.VERMILLION,
            strokeWidth=2,
            point=alt.OverlayMarkDef(color=charts.VERMILLION, size=40),
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
    current = frame[frame["g"] == g].assign(
        label=lambda f: f["posterior"].map(lambda v: f"{v:.0%}")
    )
    point = (
        alt.Chart(current)
        .mark_point(shape="diamond", size=160, filled=True, color=charts.BLACK)
        .encode(x=x, y=y)
    )
    text = (
        alt.Chart(current)
        .mark_text(align="left", dx=9, dy=10, fontWeight="bold")
        .encode(x=x, y=y, text="label:N")
    )
    prior_frame = pd.DataFrame({"y": [prior], "label": [f"prior {prior:.0%}"]})
    rule = (
        alt.Chart(prior_frame)
        .mark_rule(color=charts.TRUTH_COLOUR, strokeDash=[6, 3], strokeWidth=2)
        .encode(y=alt.Y("y:Q", scale=alt.Scale(domain=[0, 1])))
    )
    rule_label = (
        alt.Chart(prior_frame)
        .mark_text(align="right", dy=-8, fontWeight="bold")
        .encode(
            x=alt.value("width"), y=alt.Y("y:Q", scale=alt.Scale(domain=[0, 1])), text="label:N"
        )
    )
    return (line + point + text + rule + rule_label).properties(
        title="What an attacker can believe",
        height=320,
        width=charts.DEFAULT_WIDTH,
    )


# --- cached specs (one per slider setting) -------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=2_000)
def sequential_spec(total_epsilon: float, m: int) -> dict:
    return charts.vega_template(sequential_error_chart(sequential_error_frame(total_epsilon), m))


@st.cache_data(show_spinner=False, max_entries=500)
def averaging_spec(truth: int, epsilon: float, m: int, seed: int) -> dict:
    return charts.vega_template(
        averaging_chart(averaging_frame(truth, epsilon, seed).head(m), truth)
    )


@st.cache_data(show_spinner=False, max_entries=200)
def bars_spec(epsilon: float, seed: int, column: str, title: str, colour: str) -> dict:
    return charts.vega_template(bars_chart(histogram_frames(epsilon, seed), column, title, colour))


@st.cache_data(show_spinner=False, max_entries=2_000)
def group_spec(epsilon: float, g: int, prior: float) -> dict:
    return charts.vega_template(group_chart(group_frame(epsilon, prior), g, prior))
