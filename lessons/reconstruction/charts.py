"""Chart templates of the lesson "Reconstruction attacks" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt

from lessons.reconstruction.model import EPSILON_CURVE
from ui import charts as ui_charts
from ui import datasets

SHARE_AXIS = alt.Axis(format="%", values=[0, 0.25, 0.5, 0.75, 1])
SHARE_SCALE = alt.Scale(domain=[0, 1], nice=False)
FLIP_AT = 2.0  # the chosen point's label sits right of it below this x, left of it above


def _levels() -> alt.LayerChart:
    """The labelled reference lines ("levels": share, label)."""
    return ui_charts.reference_line_layers(
        alt.NamedData(name="levels"), "share", y_scale=SHARE_SCALE
    )


def _your_point(x_field: str, x_scale: alt.Scale) -> alt.LayerChart:
    """The chosen setting ("mark": x_field, share, label)."""
    return ui_charts.marked_point_layers(
        alt.NamedData(name="mark"),
        x_field,
        "share",
        x_scale=x_scale,
        y_scale=SHARE_SCALE,
        flip_at=FLIP_AT,
    )


@datasets.cached(max_entries=8)
def defence_curve() -> ui_charts.Template:
    """Template: share of the block reconstructed exactly against ε (log x, fixed 0.1–16;
    y fixed 0–100%): mean of the noisy releases with ± 1 SE bars ("curve": epsilon, share,
    low, high), reference lines for the exact tables and made-up people ("levels"), your ε
    ("mark": epsilon, share, label)."""
    x_scale = alt.Scale(type="log", domain=[EPSILON_CURVE[0], EPSILON_CURVE[-1]], nice=False)
    x = alt.X(
        "epsilon:Q",
        scale=x_scale,
        axis=alt.Axis(values=list(EPSILON_CURVE), format="~g"),
        title="privacy loss ε (log scale; left = more private)",
    )
    y = alt.Y("share:Q", scale=SHARE_SCALE, axis=SHARE_AXIS, title="people reconstructed exactly")
    curve = alt.NamedData(name="curve")
    line = alt.Chart(curve).mark_line(color=ui_charts.BLUE, strokeWidth=3).encode(x=x, y=y)
    dots = (
        alt.Chart(curve)
        .mark_point(filled=True, size=50, color=ui_charts.BLUE)
        .encode(
            x=x,
            y=y,
            tooltip=[
                alt.Tooltip("epsilon:Q", title="ε", format="~g"),
                alt.Tooltip("share:Q", title="reconstructed", format=".0%"),
            ],
        )
    )
    bars = (
        alt.Chart(curve)
        .mark_rule(color=ui_charts.BLUE)
        .encode(x=x, y=alt.Y("low:Q", scale=alt.Scale(domain=[0, 1])), y2="high:Q")
    )
    chart = (bars + line + dots + _levels() + _your_point("epsilon", x_scale)).properties(
        height=ui_charts.DEFAULT_HEIGHT, width=ui_charts.DEFAULT_WIDTH
    )
    return ui_charts.Template(chart)


@datasets.cached(max_entries=8)
def dinur_nissim_curve() -> ui_charts.Template:
    """Template: share of secret bits the least-squares attack gets right against the noise
    bound in units of √n (x fixed 0–4, y fixed 0–100%) ("curve": ratio, share), the rule
    E = √n, the majority guess ("levels"), your E ("mark": ratio, share, label)."""
    x_scale = alt.Scale(domain=[0, 4], nice=False)
    x = alt.X(
        "ratio:Q",
        scale=x_scale,
        axis=alt.Axis(values=[0, 0.5, 1, 1.5, 2, 3, 4], format="~g"),
        title="noise bound E in units of √n (right = more noise)",
    )
    y = alt.Y(
        "share:Q", scale=SHARE_SCALE, axis=SHARE_AXIS, title="secret bits the attack gets right"
    )
    curve = alt.NamedData(name="curve")
    line = (
        alt.Chart(curve)
        .mark_line(color=ui_charts.BLUE, strokeWidth=3, point=True)
        .encode(
            x=x,
            y=y,
            tooltip=[
                alt.Tooltip("ratio:Q", title="E / √n", format="~g"),
                alt.Tooltip("bound:Q", title="E", format=".1f"),
                alt.Tooltip("share:Q", title="right", format=".1%"),
            ],
        )
    )
    root = alt.Chart(alt.Data(values=[{"ratio": 1.0, "label": "E = √n"}]))
    root_rule = root.mark_rule(color=ui_charts.VERMILLION, strokeWidth=2).encode(x=x)
    root_text = root.mark_text(
        align="left", baseline="bottom", dx=4, color=ui_charts.VERMILLION, fontWeight="bold"
    ).encode(x=x, y=alt.value(14), text="label:N")
    chart = (line + root_rule + root_text + _levels() + _your_point("ratio", x_scale)).properties(
        height=ui_charts.DEFAULT_HEIGHT, width=ui_charts.DEFAULT_WIDTH
    )
    return ui_charts.Template(chart)
