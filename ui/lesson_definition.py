"""Cached computations and chart builders for the lesson "The definition"."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st
from streamlit import dataframe_util

import dp
from ui import charts
from ui.data import census

HALF_WINDOW = 8.0  # outputs y shown: f(D) ± 8 (fixed: it does not move with ε or Y)
GRID_STEP = 0.05
DENSITY_DOMAIN = (1e-3, 10.0)  # log axis: fits Lap(100) (0.005) and Lap(0.1) (peak 5)
LOSS_DOMAIN = (-12.0, 12.0)
POSTERIOR_EPSILONS = np.geomspace(0.01, 20.0, 121)
PEOPLE_PER_GROUP = 6


@st.cache_data(show_spinner=False)
def rich_count() -> int:
    """f(D): how many people in the census earn >50K."""
    return int((census()["Income"] == ">50K").sum())


@st.cache_data(show_spinner=False)
def people_to_remove() -> dict[str, str]:
    """A few named people, name -> income band, alternating >50K and <=50K in a fixed
    order: the person the student removes from D."""
    people = census()[["Name", "Income"]]
    rich = people[people["Income"] == ">50K"].head(PEOPLE_PER_GROUP)
    poor = people[people["Income"] == "<=50K"].head(PEOPLE_PER_GROUP)
    return {
        str(frame["Name"].iloc[i]): str(frame["Income"].iloc[i])
        for i in range(PEOPLE_PER_GROUP)
        for frame in (rich, poor)
    }


def output_grid(truth: int) -> np.ndarray:
    """The fixed grid of outputs y on which the densities are drawn."""
    steps = int(round(2 * HALF_WINDOW / GRID_STEP))
    return truth - HALF_WINDOW + GRID_STEP * np.arange(steps + 1)


@st.cache_data(show_spinner=False)
def density_frame(truth: int, truth_neighbour: int, epsilon: float) -> pd.DataFrame:
    """pdf of F(D) = f(D) + Lap(1/ε) and of F(D') on the fixed grid (long format)."""
    y = output_grid(truth)
    scale = dp.laplace_scale(1, epsilon)
    frames = []
    for name, loc in ((LABEL_D, truth), (LABEL_D_PRIME, truth_neighbour)):
        frames.append(
            pd.DataFrame(
                {"y": y, "density": dp.laplace_pdf(y, loc=loc, scale=scale), "dataset": name}
            )
        )
    return pd.concat(frames, ignore_index=True)


@st.cache_data(show_spinner=False)
def loss_frame(truth: int, truth_neighbour: int, epsilon: float) -> pd.DataFrame:
    """Privacy loss ln(pdf_D(y) / pdf_D'(y)) on the fixed grid."""
    y = output_grid(truth)
    loss = dp.laplace_privacy_loss(
        y, loc=truth, loc_neighbour=truth_neighbour, scale=dp.laplace_scale(1, epsilon)
    )
    return pd.DataFrame({"y": y, "loss": loss})


@st.cache_data(show_spinner=False)
def posterior_frame(prior: float) -> pd.DataFrame:
    """Worst-case posterior e^ε p / (e^ε p + 1 - p) over a log grid of ε."""
    return pd.DataFrame(
        {
            "epsilon": POSTERIOR_EPSILONS,
            "posterior": [dp.posterior_bound(prior, float(e)) for e in POSTERIOR_EPSILONS],
        }
    )


LABEL_D = "F(D): with the person"
LABEL_D_PRIME = "F(D'): without the person"
DATASET_SCALE = alt.Scale(domain=[LABEL_D, LABEL_D_PRIME], range=[charts.BLUE, charts.ORANGE])
DASH_SCALE = alt.Scale(domain=[LABEL_D, LABEL_D_PRIME], range=[[1, 0], [6, 4]])


@st.cache_data(show_spinner=False, max_entries=256)
def arrow_bytes(kind: str, *params) -> bytes:
    """One of the cached curves, serialised once to the Arrow bytes a chart carries."""
    frames = {"density": density_frame, "loss": loss_frame, "curve": posterior_frame}
    return dataframe_util.convert_anything_to_arrow_bytes(frames[kind](*params))


def _x_scale(truth: int) -> alt.Scale:
    """The fixed output axis f(D) ± 8; every layer uses it, or Vega-Lite would union the
    domains (and a rect layer would pull in 0)."""
    return alt.Scale(domain=[truth - HALF_WINDOW, truth + HALF_WINDOW], nice=False, zero=False)


def _x_output(truth: int, title: str) -> alt.X:
    return alt.X(
        "y:Q", title=title, scale=_x_scale(truth), axis=alt.Axis(format=",.0f", tickMinStep=1)
    )


@st.cache_data(show_spinner=False)
def density_spec(truth: int) -> dict:
    """Template: the two output densities (D solid, D' dashed) on a fixed log axis, with the
    event Y shaded. Datasets: "density" (y, density, dataset), "event" (lo, hi, label)."""
    event = alt.NamedData(name="event")
    band = (
        alt.Chart(event)
        .mark_rect(color=charts.GREEN, opacity=0.18)
        .encode(x=alt.X("lo:Q", scale=_x_scale(truth)), x2="hi:Q")
    )
    band_text = (
        alt.Chart(event)
        .mark_text(align="left", dx=3, dy=4, baseline="top", color=charts.GREEN, fontWeight="bold")
        .encode(x=alt.X("lo:Q", scale=_x_scale(truth)), y=alt.value(0), text="label:N")
    )
    lines = (
        alt.Chart(alt.NamedData(name="density"))
        .mark_line(strokeWidth=2.5, clip=True)
        .encode(
            x=_x_output(truth, "output y (noisy count of people earning >50K)"),
            y=alt.Y(
                "density:Q",
                title="density",
                scale=alt.Scale(type="log", domain=list(DENSITY_DOMAIN), clamp=True),
                axis=alt.Axis(format="~g"),
            ),
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
    chart = (band + band_text + lines).properties(height=360, width=charts.DEFAULT_WIDTH)
    return charts.vega_template(chart)


def event_rows(lo: float, hi: float) -> list[dict]:
    return [{"lo": lo, "hi": hi, "label": "event Y"}]


@st.cache_data(show_spinner=False)
def loss_spec(truth: int) -> dict:
    """Template: the privacy loss across y inside the shaded band ±ε (fixed symlog axis).
    Datasets: "loss" (y, loss), "band" (x, x2, lo, hi), "edges" (value, label)."""
    y_scale = alt.Scale(type="symlog", constant=0.05, domain=list(LOSS_DOMAIN))
    band = (
        alt.Chart(alt.NamedData(name="band"))
        .mark_rect(color=charts.GREY, opacity=0.25)
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
        .mark_rule(color=charts.BLACK, strokeDash=[2, 2])
        .encode(y=alt.Y("value:Q", scale=y_scale))
    )
    edge_text = (
        alt.Chart(edges)
        .mark_text(align="left", dx=4, dy=-6, color=charts.BLACK, fontWeight="bold")
        .encode(x=alt.value(0), y=alt.Y("value:Q", scale=y_scale), text="label:N")
    )
    line = (
        alt.Chart(alt.NamedData(name="loss"))
        .mark_line(color=charts.VERMILLION, strokeWidth=2.5)
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
        height=320, width=charts.DEFAULT_WIDTH
    )
    return charts.vega_template(chart)


def band_rows(truth: int, epsilon: float) -> dict[str, list[dict]]:
    return {
        "band": [
            {
                "x": truth - HALF_WINDOW,
                "x2": truth + HALF_WINDOW,
                "lo": -epsilon,
                "hi": epsilon,
            }
        ],
        "edges": [{"value": -epsilon, "label": "−ε"}, {"value": epsilon, "label": "+ε"}],
    }


@st.cache_data(show_spinner=False)
def posterior_spec() -> dict:
    """Template: worst-case posterior versus ε (log x, y fixed 0..1), the prior as a dashed
    labelled rule and the current ε as a labelled diamond.
    Datasets: "curve" (epsilon, posterior), "prior" (p, label), "point" (epsilon, posterior,
    label)."""
    x_scale = alt.Scale(type="log", domain=[0.01, 20.0], nice=False)
    y_scale = alt.Scale(domain=[0.0, 1.0])
    curve = (
        alt.Chart(alt.NamedData(name="curve"))
        .mark_line(color=charts.VERMILLION, strokeWidth=2.5)
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
    prior = charts.reference_line_layers(alt.NamedData(name="prior"), "p", y_scale=y_scale)
    point = charts.marked_point_layers(
        alt.NamedData(name="point"), "epsilon", "posterior", x_scale=x_scale, y_scale=y_scale
    )
    chart = (prior + curve + point).properties(height=320, width=charts.DEFAULT_WIDTH)
    return charts.vega_template(chart)


def posterior_rows(prior: float, epsilon: float, posterior: float) -> dict[str, list[dict]]:
    return {
        "prior": [{"p": prior, "label": f"prior {prior:.0%}"}],
        "point": [
            {
                "epsilon": epsilon,
                "posterior": posterior,
                "label": f"ε = {epsilon:g}: {posterior:.1%}",
            }
        ],
    }


@st.cache_data(show_spinner=False)
def download_frame(truth: int, truth_neighbour: int, epsilon: float) -> pd.DataFrame:
    """The density and privacy-loss charts' data as one table (the columns of the
    "definition_densities" snippet): output, both densities, the privacy loss."""
    y = output_grid(truth)
    scale = dp.laplace_scale(1, epsilon)
    return pd.DataFrame(
        {
            "output": y,
            "density_D": dp.laplace_pdf(y, loc=truth, scale=scale),
            "density_D_neighbour": dp.laplace_pdf(y, loc=truth_neighbour, scale=scale),
            "privacy_loss": dp.laplace_privacy_loss(
                y, loc=truth, loc_neighbour=truth_neighbour, scale=scale
            ),
        }
    )
