"""Altair chart builders shared by the lessons. They take plain arrays, pre-aggregate
(bins, not samples), fix their axes and draw the true value as a rule.

Building and validating an Altair chart costs tens of milliseconds per rerun, so the lessons
build each chart once (in a cached function) as a Vega-Lite template with `vega_template`,
and every rerun only puts this run's small pre-aggregated data and title into it
(`fill_template`) and draws it (`show_template`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

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

# Altair's default view size, which st.altair_chart leaves out too.
_ALTAIR_DEFAULT_CONFIG = {"view": {"continuousWidth": 300, "continuousHeight": 300}}


def vega_template(chart: alt.TopLevelMixin) -> dict:
    """The chart as a Vega-Lite dict, ready for st.vega_lite_chart: not validated (that is
    the slow part), without Altair's default 300x300 view config, with room above the title
    (without it the title's ascenders are clipped in the app) and autosize fit-x (the width
    follows the container, the height is the plot's own: Streamlit's default "fit" squeezes
    titles and axis labels into it)."""
    spec = chart.to_dict(validate=False)
    if spec.get("config") == _ALTAIR_DEFAULT_CONFIG:
        del spec["config"]
    spec.setdefault("padding", {"left": 5, "top": 12, "right": 5, "bottom": 5})
    spec.setdefault("autosize", {"type": "fit-x", "contains": "padding"})
    return spec


Rows = pd.DataFrame | bytes | Sequence[Mapping]


def fill_template(
    spec: dict,
    *,
    title: str | dict | None = None,
    datasets: Mapping[str, Rows] | None = None,
    inline: Mapping[str, list[dict]] | None = None,
) -> dict:
    """A cached template with this run's data and title (the template is not changed).

    `datasets` fill the layers that read named data (alt.NamedData): DataFrames, records,
    or Arrow bytes already serialised in a cached function (Streamlit sends them as Arrow).
    `inline` writes the rows of a named dataset into the layers that read it, as data
    values inside the spec (cheapest for one- or two-row layers). A layer without data of
    its own gets the top-level data Altair hoists there when layers share it, so `inline`
    reaches those layers too."""
    inline = inline or {}
    top = spec.get("data")
    filled = {key: value for key, value in spec.items() if key != "data"}
    if "layer" in spec:
        layers = []
        for layer in spec["layer"]:
            data = layer.get("data", top)
            if data is not None and data.get("name") in inline:
                layer = {**layer, "data": {"values": inline[data["name"]]}}
            elif data is not None:
                layer = {**layer, "data": data}
            layers.append(layer)
        filled["layer"] = layers
    elif top is not None:
        filled["data"] = top
    if title is not None:
        filled["title"] = title
    filled["datasets"] = {**spec.get("datasets", {}), **(datasets or {})}
    return filled


def show_template(
    spec: dict,
    *,
    alt_text: str,
    title: str | dict | None = None,
    datasets: Mapping[str, Rows] | None = None,
    inline: Mapping[str, list[dict]] | None = None,
) -> None:
    """Draw a cached template (see `vega_template`) with this run's data and title, as wide
    as its container (see `fill_template` for the arguments)."""
    filled = fill_template(spec, title=title, datasets=datasets, inline=inline)
    st.vega_lite_chart(filled, width="stretch", alt=alt_text)


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


def truth_rule_layers(
    x_scale: alt.Scale | None = None,
    *,
    data: alt.Data | pd.DataFrame | None = None,
    label_dy: float = -4,
) -> alt.LayerChart:
    """The true value as a dashed vertical rule labelled at the top: fields "x" and "label"
    of `data` (by default the named dataset "truth", filled in per rerun)."""
    base = alt.Chart(alt.NamedData(name="truth") if data is None else data)
    x = alt.X("x:Q", scale=x_scale) if x_scale is not None else alt.X("x:Q")
    rule = base.mark_rule(color=TRUTH_COLOUR, strokeDash=[6, 3], strokeWidth=2).encode(x=x)
    text = base.mark_text(
        align="left", dx=4, dy=label_dy, baseline="top", color=TRUTH_COLOUR, fontWeight="bold"
    ).encode(x=x, y=alt.value(0), text="label:N")
    return rule + text


def truth_ticks(
    y: alt.Y, x_scale: alt.Scale, *, size: float, colour: str = TRUTH_COLOUR
) -> alt.Chart:
    """The true count of each category as a tick across its bar(s): fields "category" and
    "true count" of the named dataset "truth"."""
    return (
        alt.Chart(alt.NamedData(name="truth"))
        .mark_tick(color=colour, thickness=3, size=size)
        .encode(
            y=y,
            x=alt.X("true count:Q", scale=x_scale),
            tooltip=[alt.Tooltip("category:N"), alt.Tooltip("true count:Q", format=",")],
        )
    )


def truth_rule(truth: float, *, label: str = "true value") -> alt.LayerChart:
    """A dashed, labelled vertical rule at the true value."""
    return truth_rule_layers(data=pd.DataFrame({"x": [float(truth)], "label": [label]}))


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


def reference_line_layers(data: alt.Data | alt.NamedData, field: str, *, y_scale: alt.Scale):
    """A dashed horizontal reference line at `field` with its `label` written on the left
    (e.g. the prior belief, or a coin toss's 50%)."""
    base = alt.Chart(data)
    rule = base.mark_rule(color=BLACK, strokeDash=[6, 3]).encode(
        y=alt.Y(f"{field}:Q", scale=y_scale)
    )
    text = base.mark_text(align="left", dx=4, dy=-6, color=BLACK, fontWeight="bold").encode(
        x=alt.value(0), y=alt.Y(f"{field}:Q", scale=y_scale), text="label:N"
    )
    return rule + text


def marked_point_layers(
    data: alt.Data | alt.NamedData, x: str, y: str, *, x_scale: alt.Scale, y_scale: alt.Scale
):
    """A blue diamond at the current (x, y) on a curve, with its `label` beside it."""
    base = alt.Chart(data)
    encoding = {"x": alt.X(f"{x}:Q", scale=x_scale), "y": alt.Y(f"{y}:Q", scale=y_scale)}
    point = base.mark_point(shape="diamond", size=160, filled=True, color=BLUE).encode(**encoding)
    text = base.mark_text(align="right", dx=-10, dy=-10, color=BLUE, fontWeight="bold").encode(
        **encoding, text="label:N"
    )
    return point + text
