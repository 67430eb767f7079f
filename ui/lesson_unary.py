"""Cached computations and chart templates for the unary encoding lesson.

The survey of everyone uses the aggregate sampler `dp.sample_ue_counts` (two binomials per
bit), never a 30,718 × 14 bit matrix, so a rerun stays fast. Charts are data-free Vega-Lite
templates built once (see `charts.show_template`). Like the k-ary lesson, it runs on a census
attribute or on a column of the student's file (`lesson_kary.per_dataset` keeps a file's
results in its session only).
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

import dp
from ui import charts, lesson_kary, widgets
from ui.data import census
from ui.lesson_kary import Attribute, per_dataset

MODES = {"custom": "Custom p and q", "sue": "SUE (symmetric)", "oue": "OUE (optimized)"}
COMPARE_EPSILONS: tuple[float, ...] = tuple(e for e in widgets.EPSILON_GRID if 0.1 <= e <= 5)
COMPARE_KS: tuple[int, ...] = tuple(int(k) for k in np.unique(np.round(np.geomspace(2, 1024, 90))))

# Offsets added to the page seed, one per distinct draw.
SEED_JOURNEY = 31
SEED_SURVEY = 37

STEP_ROWS = ("1 · your bits", "2 · P[report 1]", "3 · reported")


def occupations() -> Attribute:
    """The occupation histogram (14 categories; people with none recorded left out)."""
    return lesson_kary.attribute("occupation")


@st.cache_data(show_spinner=False)
def _census_example(key: str, label: str) -> tuple[int, str]:
    """The row number and name of the first person in the census with this value."""
    people = census()
    if key == "age_sex":
        band = np.where(people["Age"] >= 40, "≥40", "<40")
        values = pd.Series(band, index=people.index) + " " + people["Sex"].str.lower()
    else:
        values = people[{"race": "Race", "occupation": "Occupation", "education": "Education"}[key]]
    position = int(np.flatnonzero((values.astype(str) == label) & values.notna())[0])
    return position, str(people["Name"].iloc[position])


def example_row(attr: Attribute, frame: pd.DataFrame, label: str) -> tuple[int, str | None]:
    """The first row of the data holding `label` (0-based position) and, in the census, the
    person's name (a file has no names: None)."""
    if attr.from_census:
        return _census_example(attr.key, label)
    column = frame[attr.title]
    matches = np.flatnonzero(column.notna().to_numpy() & (column.astype(str) == label).to_numpy())
    return int(matches[0]), None


def journey_frames(
    attr: Attribute, value: int, p: float, q: float, reported: np.ndarray
) -> dict[str, pd.DataFrame]:
    """Three rows of k cells: the one-hot bits, each bit's probability of being reported 1
    (p for the set bit, q for the others), and this roll's reported bits."""
    bits = dp.ue_encode([value], attr.k)[0]
    chance = np.where(bits, p, q)
    rows = []
    for i, label in enumerate(attr.labels):
        rows.append({"bit": label, "step": STEP_ROWS[0], "shade": float(bits[i]),
                     "text": str(int(bits[i]))})  # fmt: skip
        rows.append({"bit": label, "step": STEP_ROWS[1], "shade": float(chance[i]),
                     "text": f"{chance[i]:.2f}".removeprefix("0")})  # fmt: skip
        rows.append({"bit": label, "step": STEP_ROWS[2], "shade": float(reported[i]),
                     "text": str(int(reported[i]))})  # fmt: skip
    frame = pd.DataFrame(rows)
    return {"cells": frame, "cell_labels": frame}


@per_dataset
def journey_spec(attr: Attribute) -> dict:
    """Template: a 3 × k grid of cells, shaded by value (white 0 → blue 1) and labelled
    with the value itself, so the meaning never rests on colour."""
    encoding = dict(
        x=alt.X(
            "bit:N",
            sort=list(attr.labels),
            title=None,
            axis=alt.Axis(labelAngle=-55, labelLimit=120, labelOverlap=False),
        ),
        y=alt.Y("step:N", sort=list(STEP_ROWS), title=None, axis=alt.Axis(labelLimit=130)),
    )
    # Two names for the same rows: layers sharing one dataset get it lifted to the top
    # level, which Streamlit draws empty.
    cells = (
        alt.Chart(alt.NamedData(name="cells"))
        .mark_rect(stroke=charts.GREY, strokeWidth=1)
        .encode(
            **encoding,
            fill=alt.Fill(
                "shade:Q",
                scale=alt.Scale(domain=[0, 1], range=["#ffffff", charts.BLUE]),
                legend=None,
            ),
            tooltip=[
                alt.Tooltip("bit:N"),
                alt.Tooltip("step:N"),
                alt.Tooltip("text:N", title="value"),
            ],
        )
    )
    text = (
        alt.Chart(alt.NamedData(name="cell_labels"))
        .mark_text(fontSize=11, fontWeight="bold")
        .encode(
            **encoding,
            text="text:N",
            color=alt.condition("datum.shade > 0.55", alt.value("white"), alt.value("black")),
        )
    )
    return charts.vega_template((cells + text).properties(width=charts.DEFAULT_WIDTH, height=110))


@per_dataset
def ue_survey(attr: Attribute, p: float, q: float, seed: int) -> dict[str, np.ndarray]:
    """One survey of everyone: per-bit report counts, the unbiased estimates and the
    standard deviation of each (from `ue_variance` at the category's true share)."""
    bit_counts = dp.sample_ue_counts(attr.counts, p, q, rng=seed + SEED_SURVEY)
    estimates = dp.ue_estimate_from_counts(bit_counts, attr.n, p, q)
    sd = np.sqrt([dp.ue_variance(attr.n, p, q, frequency=c / attr.n) for c in attr.counts])
    return {"bit_counts": bit_counts, "estimates": estimates, "sd": sd}


def estimate_frames(
    attr: Attribute, estimates: np.ndarray, sd: np.ndarray
) -> dict[str, pd.DataFrame]:
    """Rows for `estimate_spec`: estimate with its ±2 SD interval, all pinned to the fixed
    axis (an end beyond it is marked » or «), and the true counts."""
    lo, hi = lesson_kary.count_domain(attr)
    low, high = estimates - 2 * sd, estimates + 2 * sd
    frame = pd.DataFrame(
        {
            "category": attr.labels,
            "estimate": estimates,
            "low": low,
            "high": high,
            "shown": np.clip(estimates, lo, hi),
            "shown_low": np.clip(low, lo, hi),
            "shown_high": np.clip(high, lo, hi),
            "edge": np.where(high > hi, "»", np.where(low < lo, "«", "")),
        }
    )
    truth = pd.DataFrame({"category": attr.labels, "true count": attr.counts})
    return {"bars": frame, "truth": truth}


@per_dataset
def estimate_spec(attr: Attribute) -> dict:
    """Template: estimated count per category (bars) with ±2 SD error bars (black
    whiskers) and the true count (vermillion tick), on the attribute's fixed axis."""
    lo, hi = lesson_kary.count_domain(attr)
    x_scale = alt.Scale(domain=[lo, hi], nice=False)
    y = alt.Y("category:N", sort=list(attr.labels), title=None, axis=alt.Axis(labelLimit=140))
    bars_data = alt.Chart(alt.NamedData(name="bars"))
    bars = bars_data.mark_bar(color=charts.SKY, height=14).encode(
        y=y,
        x=alt.X("shown:Q", title="people", scale=x_scale, axis=alt.Axis(format=",.0f")),
        tooltip=[
            alt.Tooltip("category:N"),
            alt.Tooltip("estimate:Q", format=",.0f"),
            alt.Tooltip("low:Q", format=",.0f", title="estimate − 2 SD"),
            alt.Tooltip("high:Q", format=",.0f", title="estimate + 2 SD"),
        ],
    )
    whiskers = bars_data.mark_errorbar(ticks=True, color=charts.BLACK, thickness=1.5).encode(
        y=y, x=alt.X("shown_low:Q", scale=x_scale, title="people"), x2="shown_high:Q"
    )
    edges = (
        bars_data.transform_filter("datum.edge != ''")
        .mark_text(align="left", dx=4, fontWeight="bold", fontSize=14)
        .encode(y=y, x=alt.value(0), text="edge:N")
    )
    ticks = charts.truth_ticks(y, x_scale, size=24, colour=charts.VERMILLION)
    zero = (
        alt.Chart(alt.Data(values=[{"x": 0}]))
        .mark_rule(color=charts.GREY)
        .encode(x=alt.X("x:Q", scale=x_scale))
    )
    chart = (zero + bars + whiskers + ticks + edges).properties(
        width=charts.DEFAULT_WIDTH, height=30 * attr.k
    )
    return charts.vega_template(chart)


def comparison_frame(n: int, epsilon: float) -> pd.DataFrame:
    """Variance of one count versus k for GRR and for OUE (at OUE's p, q) at ε."""
    p, q = dp.oue_probabilities(epsilon)
    oue = dp.ue_variance(n, p, q)
    rows = [
        {"k": k, "protocol": "GRR", "variance": dp.grr_variance(n, epsilon, k)} for k in COMPARE_KS
    ]
    rows += [{"k": k, "protocol": "OUE", "variance": oue} for k in COMPARE_KS]
    return pd.DataFrame(rows)


def comparison_domain(n: int) -> tuple[float, float]:
    """Fixed log y axis over every ε the comparison slider offers (powers of ten)."""
    high = dp.grr_variance(n, min(COMPARE_EPSILONS), COMPARE_KS[-1])
    low = dp.grr_variance(n, max(COMPARE_EPSILONS), COMPARE_KS[0])
    return 10 ** np.floor(np.log10(low)), 10 ** np.ceil(np.log10(high))


@st.cache_data(show_spinner=False)
def comparison_spec(domain: tuple[float, float]) -> dict:
    """Template: log-log variance versus k; GRR solid blue, OUE dashed orange, each
    labelled at its right end; the crossover k* as a dashed vertical rule with its value;
    the attribute's k as a grey rule."""
    x_scale = alt.Scale(type="log", domain=[2, 1024], nice=False)
    x = alt.X(
        "k:Q",
        title="number of categories k (log scale)",
        scale=x_scale,
        axis=alt.Axis(values=[2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]),
    )
    y = alt.Y(
        "variance:Q",
        title="variance of one count (log scale)",
        scale=alt.Scale(type="log", domain=list(domain)),
        axis=alt.Axis(format="~s"),
    )
    protocols = ["GRR", "OUE"]
    curves = alt.Chart(alt.NamedData(name="curves"))
    lines = curves.mark_line(strokeWidth=2.5).encode(
        x=x,
        y=y,
        color=alt.Color(
            "protocol:N",
            scale=alt.Scale(domain=protocols, range=[charts.BLUE, charts.ORANGE]),
            legend=None,
        ),
        strokeDash=alt.StrokeDash(
            "protocol:N", scale=alt.Scale(domain=protocols, range=[[1, 0], [7, 4]]), legend=None
        ),
        tooltip=[
            alt.Tooltip("protocol:N"),
            alt.Tooltip("k:Q"),
            alt.Tooltip("variance:Q", format=",.0f"),
        ],
    )
    labels = (
        curves.transform_filter(f"datum.k == {COMPARE_KS[-1]}")
        .mark_text(align="right", dy=-9, fontWeight="bold")
        .encode(
            x=x,
            y=y,
            text="protocol:N",
            color=alt.Color(
                "protocol:N",
                scale=alt.Scale(domain=protocols, range=[charts.BLUE, charts.ORANGE]),
                legend=None,
            ),
        )
    )
    marks = alt.Chart(alt.NamedData(name="marks"))
    rules = marks.mark_rule(strokeDash=[4, 3], strokeWidth=1.5).encode(
        x=alt.X("k:Q", scale=x_scale),
        color=alt.Color("colour:N", scale=None),
    )
    rule_text = [
        marks.transform_filter(f"datum.row == {row}")
        .mark_text(align="left", dx=4, dy=dy, baseline="top", fontWeight="bold")
        .encode(
            x=alt.X("k:Q", scale=x_scale),
            y=alt.value(0),
            text="label:N",
            color=alt.Color("colour:N", scale=None),
        )
        for row, dy in ((0, 2), (1, 16))
    ]
    chart = alt.layer(lines, labels, rules, *rule_text).properties(
        width=charts.DEFAULT_WIDTH, height=340
    )
    return charts.vega_template(chart)


def comparison_marks(attr: Attribute, epsilon: float) -> pd.DataFrame:
    """The crossover rule (k* = 3e^ε + 2, from dp) and the attribute's rule, with labels."""
    crossover = dp.grr_oue_crossover_k(epsilon)
    k = attr.k
    return pd.DataFrame(
        {
            "k": [crossover, k],
            "label": [f"k* = {crossover:,.1f}", f"{attr.title}: k = {k}"],
            "colour": [charts.BLACK, charts.GREY],
            "row": [0, 1],
        }
    )


def estimates_table(attr: Attribute, survey: dict[str, np.ndarray]) -> pd.DataFrame:
    """The data behind the estimate chart, one row per category (the CSV download; the
    "ue_estimates" snippet rebuilds all but the SD)."""
    return pd.DataFrame(
        {
            "value": attr.labels,
            "true": attr.counts,
            "bits_set": survey["bit_counts"],
            "estimate": survey["estimates"],
            "sd": survey["sd"],
        }
    )


def comparison_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The comparison curves as one row per k (k, GRR, OUE): the CSV download."""
    wide = frame.pivot(index="k", columns="protocol", values="variance").reset_index()
    wide.columns.name = None
    return wide
