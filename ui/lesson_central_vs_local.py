"""Cached computations and chart templates for the central-versus-local lesson
(lessons/central_vs_local.py). Every number comes from dp/; charts are pre-binned (at most a
few hundred rows) and have fixed axes.

The charts are Vega-Lite templates built once with Altair (data-free, cached) and filled
each run with this run's rows (`ui.charts.fill_template`): building an Altair chart costs
30-50 ms, filling a template well under 1 ms."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

import dp
from ui import charts

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


def model_style(*, legend: bool) -> dict:
    """Colour and dash per model (never colour alone), with the legend under the chart."""
    return {
        "color": alt.Color(
            "model:N",
            scale=MODEL_COLOURS,
            legend=alt.Legend(orient="bottom", title=None, direction="vertical", labelLimit=0)
            if legend
            else None,
        ),
        "strokeDash": alt.StrokeDash("model:N", scale=MODEL_DASHES, legend=None),
    }


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


def typical_frame(central_sd: float, local_sd: float) -> pd.DataFrame:
    """Each model's typical error (sd) with its label, for the rules on the |error| chart."""
    return pd.DataFrame(
        {
            "model": [CENTRAL, LOCAL],
            "x": [central_sd, local_sd],
            "label": [f"central sd ± {central_sd:,.1f}", f"local sd ± {local_sd:,.0f}"],
        }
    )


def _error_distribution_layers(bins_data, typical_data) -> alt.LayerChart:
    """The |error| chart over `bins_data` (model, start, end, share) and `typical_data`
    (model, x, label): DataFrames, or alt.NamedData for a template."""
    x_scale = alt.Scale(type="log", domain=list(ERROR_DOMAIN), nice=False)
    x_axis = alt.Axis(values=[0.01, 0.1, 1, 10, 100, 1_000, 10_000, 100_000], format=",~g")
    y = alt.Y(
        "share:Q",
        title="share of answers",
        axis=alt.Axis(format="%"),
        scale=alt.Scale(domain=[0, SHARE_MAX], clamp=True),
    )
    base = alt.Chart(bins_data)
    area = base.mark_area(interpolate="step-after", opacity=0.3).encode(
        x=alt.X("start:Q", scale=x_scale, axis=x_axis, title="|error| in people (log scale)"),
        y=y,
        color=alt.Color("model:N", scale=MODEL_COLOURS, legend=None),
    )
    outline = base.mark_line(interpolate="step-after", strokeWidth=2).encode(
        x=alt.X("start:Q", scale=x_scale),
        y=y,
        **model_style(legend=True),
        tooltip=[
            alt.Tooltip("model:N"),
            alt.Tooltip("start:Q", format=",.3g", title="|error| from"),
            alt.Tooltip("end:Q", format=",.3g", title="to"),
            alt.Tooltip("share:Q", format=".1%", title="share"),
        ],
    )
    rules = (
        alt.Chart(typical_data)
        .mark_rule(strokeWidth=1.5)
        .encode(
            x=alt.X("x:Q", scale=x_scale),
            **model_style(legend=False),
        )
    )
    labels = [
        alt.Chart(typical_data)
        .transform_filter(alt.datum.model == model)
        .mark_text(align="left", dx=4, dy=dy, baseline="top", fontWeight="bold")
        .encode(x=alt.X("x:Q", scale=x_scale), y=alt.value(0), text="label:N")
        for model, dy in ((CENTRAL, 4), (LOCAL, 22))
    ]
    return alt.layer(area, outline, rules, *labels).properties(
        title="How far off is one answer? Central versus local",
        height=340,
        width=charts.DEFAULT_WIDTH,
    )


def error_distribution_chart(
    frame: pd.DataFrame, central_sd: float, local_sd: float
) -> alt.LayerChart:
    """Both |error| distributions on one log axis (0.01 … 100,000 people), central solid
    blue, local dashed orange, each model's typical error as a labelled rule."""
    return _error_distribution_layers(frame, typical_frame(central_sd, local_sd))


@st.cache_data(show_spinner=False)
def error_distribution_template() -> dict:
    """The |error| chart without data: fill "bins" and "typical" (see `error_distribution_spec`)."""
    return charts.vega_template(
        _error_distribution_layers(alt.NamedData(name="bins"), alt.NamedData(name="typical"))
    )


def error_distribution_spec(frame: pd.DataFrame, n: int, epsilon: float) -> dict:
    """The |error| chart of `error_distributions(...)` (typical errors from dp/)."""
    typical = typical_frame(dp.laplace_std(1, epsilon), dp.local_count_std(n, epsilon))
    return charts.fill_template(
        error_distribution_template(),
        datasets={"bins": frame},
        inline={"typical": typical.to_dict("records")},
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


def _error_versus_n_layers(lines_data, ends_data, size_data) -> alt.LayerChart:
    """Log-log lines of sd versus n (`lines_data`: model, n, sd), a label at each line's
    end (`ends_data`: model, n, sd, label) and the dataset's size as a dashed labelled rule
    (`size_data`: n, label)."""
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
        alt.Chart(lines_data)
        .mark_line(strokeWidth=2.5)
        .encode(
            x=x,
            y=y,
            **model_style(legend=True),
            tooltip=[
                alt.Tooltip("model:N"),
                alt.Tooltip("n:Q", format=",.0f", title="people"),
                alt.Tooltip("sd:Q", format=",.2f", title="typical error"),
            ],
        )
    )
    end_labels = (
        alt.Chart(ends_data)
        .mark_text(align="right", dx=-4, dy=-10, fontWeight="bold")
        .encode(x=x, y=y, text="label:N")
    )
    rule = (
        alt.Chart(size_data)
        .mark_rule(color=charts.TRUTH_COLOUR, strokeDash=[6, 3], strokeWidth=1.5)
        .encode(x=x)
    )
    rule_label = (
        alt.Chart(size_data)
        .mark_text(align="left", dx=4, baseline="top", fontWeight="bold")
        .encode(x=x, y=alt.value(0), text="label:N")
    )
    return alt.layer(lines, end_labels, rule, rule_label).properties(
        title="Typical error versus the number of people",
        height=340,
        width=charts.DEFAULT_WIDTH,
    )


def _ends_and_size(
    frame: pd.DataFrame, data_n: int, data_label: str
) -> tuple[pd.DataFrame, pd.DataFrame]:
    ends = frame[frame["n"] == frame["n"].max()].assign(
        label=lambda f: f["model"].map({CENTRAL: "central: flat", LOCAL: "local: ∝ √n"})
    )
    size = pd.DataFrame({"n": [float(data_n)], "label": [f"{data_label}: {data_n:,}"]})
    return ends, size


def error_versus_n_chart(
    frame: pd.DataFrame, data_n: int, data_label: str = "this census"
) -> alt.LayerChart:
    """Log-log lines of sd versus n, fixed axes; the dataset's size as a dashed labelled
    rule ("<data_label>: n")."""
    return _error_versus_n_layers(frame, *_ends_and_size(frame, data_n, data_label))


@st.cache_data(show_spinner=False)
def error_versus_n_template() -> dict:
    """The sd-versus-n chart without data: fill "lines", "ends" and "size"."""
    return charts.vega_template(
        _error_versus_n_layers(
            alt.NamedData(name="lines"), alt.NamedData(name="ends"), alt.NamedData(name="size")
        )
    )


def error_versus_n_spec(epsilon: float, data_n: int, data_label: str) -> dict:
    frame = error_versus_n(epsilon)
    ends, size = _ends_and_size(frame, data_n, data_label)
    return charts.fill_template(
        error_versus_n_template(),
        datasets={"lines": frame},
        inline={"ends": ends.to_dict("records"), "size": size.to_dict("records")},
    )


def one_answer_each(truth: int, n: int, epsilon: float, seed: int) -> tuple[float, float]:
    """One central answer (truth + Lap(1/ε)) and one local estimate (a whole survey)."""
    central = dp.laplace_mechanism(truth, 1, epsilon, rng=seed)
    p = dp.rr_keep_probability(epsilon)
    reported = dp.sample_rr_counts(truth, n, p, p, rng=seed + 1)
    return central, n * dp.estimate_proportion_from_counts(reported, n, p, p)


# Cached versions for the bundled census (public data, so a cross-session cache is fine).
# An uploaded file's counts go through the plain functions above and are never cached.
cached_error_distributions = st.cache_data(show_spinner=False, max_entries=200)(error_distributions)
cached_one_answer_each = st.cache_data(show_spinner=False, max_entries=200)(one_answer_each)
