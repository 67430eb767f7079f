"""Altair chart builders shared by the lessons. They take plain arrays, pre-aggregate
(bins, not samples), fix their axes and draw the true value as a rule."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

# Okabe–Ito, a colour-blind-safe palette. Meaning never rests on colour alone: the
# true value is also dashed and labelled.
BLUE = "#0072B2"
ORANGE = "#E69F00"
GREEN = "#009E73"
VERMILLION = "#D55E00"
SKY = "#56B4E9"
PURPLE = "#CC79A7"
YELLOW = "#F0E442"
BLACK = "#000000"
GREY = "#999999"

TRUTH_COLOUR = BLACK
NOISY_COLOUR = BLUE

DEFAULT_WIDTH = "container"
DEFAULT_HEIGHT = 260


def histogram_frame(
    values: np.ndarray, *, domain: tuple[float, float], bins: int = 60
) -> pd.DataFrame:
    """Counts of `values` in `bins` equal bins over `domain`; values beyond the domain
    are counted in the edge bins (the axis never rescales)."""
    lo, hi = float(domain[0]), float(domain[1])
    values = np.clip(np.asarray(values, dtype=float), lo, hi)
    counts, edges = np.histogram(values, bins=bins, range=(lo, hi))
    return pd.DataFrame(
        {
            "start": edges[:-1],
            "end": edges[1:],
            "count": counts,
            "share": counts / max(len(values), 1),
        }
    )


def truth_rule(truth: float, *, label: str = "true value") -> alt.Chart:
    """A dashed, labelled vertical rule at the true value."""
    frame = pd.DataFrame({"x": [float(truth)], "label": [label]})
    base = alt.Chart(frame)
    rule = base.mark_rule(color=TRUTH_COLOUR, strokeDash=[6, 3], strokeWidth=2).encode(x="x:Q")
    text = base.mark_text(
        align="left", dx=4, dy=-4, baseline="top", color=TRUTH_COLOUR, fontWeight="bold"
    ).encode(x="x:Q", y=alt.value(0), text="label:N")
    return rule + text


def noisy_histogram(
    values: np.ndarray,
    *,
    truth: float,
    domain: tuple[float, float],
    bins: int = 60,
    title: str = "",
    x_title: str = "noisy answer",
    y_max: float | None = None,
    colour: str = NOISY_COLOUR,
    height: int = DEFAULT_HEIGHT,
) -> alt.LayerChart:
    """Histogram of noisy answers (share of answers per bin) with the truth as a rule.

    The x axis is fixed to `domain`; pass `y_max` to fix the y axis too."""
    frame = histogram_frame(values, domain=domain, bins=bins)
    y_scale = alt.Scale(domain=[0, y_max]) if y_max is not None else alt.Undefined
    bars = (
        alt.Chart(frame)
        .mark_bar(color=colour, opacity=0.85)
        .encode(
            x=alt.X(
                "start:Q",
                title=x_title,
                scale=alt.Scale(domain=list(domain), nice=False),
            ),
            x2="end:Q",
            y=alt.Y(
                "share:Q",
                title="share of answers",
                axis=alt.Axis(format="%"),
                scale=y_scale,
            ),
            y2=alt.datum(0),
            tooltip=[
                alt.Tooltip("start:Q", format=",.1f", title="from"),
                alt.Tooltip("end:Q", format=",.1f", title="to"),
                alt.Tooltip("count:Q", format=",", title="answers"),
            ],
        )
    )
    return (bars + truth_rule(truth)).properties(title=title, height=height, width=DEFAULT_WIDTH)


def describe_histogram(values: np.ndarray, truth: float, *, what: str = "noisy answers") -> str:
    """Alt text for a histogram: how many values, where they centre, how far they spread."""
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return f"An empty histogram of {what}."
    lo, hi = np.percentile(values, [2.5, 97.5])
    return (
        f"Histogram of {values.size:,} {what}. The true value {truth:,.0f} is drawn as a "
        f"dashed line. Answers centre on {np.median(values):,.1f}; 95% of them lie between "
        f"{lo:,.1f} and {hi:,.1f}."
    )
