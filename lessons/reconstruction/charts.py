"""Chart templates of the lesson "Reconstruction attacks" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt

from lessons.reconstruction.model import EPSILON_CURVE
from ui import charts as ui_charts
from ui import datasets

SHARE_AXIS = alt.Axis(format="%", values=[0, 0.25, 0.5, 0.75, 1])


def _levels(y: alt.Y, x_field: str, x: alt.X) -> alt.LayerChart:
    """Horizontal reference lines ("levels": share, label) labelled at the left edge."""
    levels = alt.NamedData(name="levels")
    rules = alt.Chart(levels).mark_rule(color=ui_charts.GREY, strokeDash=[4, 3]).encode(y=y)
    labels = (
        alt.Chart(levels)
        .mark_text(align="left", baseline="bottom", dx=4, dy=-3, color="#444444")
        .encode(y=y, x=alt.value(0), text="label:N")
    )
    return rules + labels


def _your_point(x: alt.X, y: alt.Y, right_half_field: str = "right") -> alt.LayerChart:
    """The chosen setting ("mark": x, share, label, right): a dashed vertical rule, a black
    point and its label on the side with room."""
    mark = alt.NamedData(name="mark")
    rule = alt.Chart(mark).mark_rule(color=ui_charts.BLACK, strokeDash=[6, 3]).encode(x=x)
    point = (
        alt.Chart(mark).mark_point(size=120, filled=True, color=ui_charts.BLACK).encode(x=x, y=y)
    )
    left = (
        alt.Chart(mark)
        .transform_filter(f"datum.{right_half_field}")
        .mark_text(align="right", dx=-8, dy=-12, fontWeight="bold")
        .encode(x=x, y=y, text="label:N")
    )
    right = (
        alt.Chart(mark)
        .transform_filter(f"!datum.{right_half_field}")
        .mark_text(align="left", dx=8, dy=-12, fontWeight="bold")
        .encode(x=x, y=y, text="label:N")
    )
    return rule + point + left + right


@datasets.cached(max_entries=8)
def defence_curve() -> ui_charts.Template:
    """Template: share of the block reconstructed exactly against ε (log x, fixed 0.1–16;
    y fixed 0–100%): mean of the noisy releases with ± 1 SE bars ("curve": epsilon, share,
    low, high), reference lines for the exact tables and made-up people ("levels"), your ε
    ("mark": epsilon, share, label, right)."""
    x = alt.X(
        "epsilon:Q",
        scale=alt.Scale(type="log", domain=[EPSILON_CURVE[0], EPSILON_CURVE[-1]], nice=False),
        axis=alt.Axis(values=list(EPSILON_CURVE), format="~g"),
        title="privacy loss ε (log scale; left = more private)",
    )
    y = alt.Y(
        "share:Q",
        scale=alt.Scale(domain=[0, 1], nice=False),
        axis=SHARE_AXIS,
        title="people reconstructed exactly",
    )
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
    chart = (bars + line + dots + _levels(y, "epsilon", x) + _your_point(x, y)).properties(
        height=ui_charts.DEFAULT_HEIGHT, width=ui_charts.DEFAULT_WIDTH
    )
    return ui_charts.Template(chart)


@datasets.cached(max_entries=8)
def dinur_nissim_curve() -> ui_charts.Template:
    """Template: share of secret bits the least-squares attack gets right against the noise
    bound in units of √n (x fixed 0–4, y fixed 0–100%) ("curve": ratio, share), the rule
    E = √n, the majority guess ("levels"), your E ("mark": ratio, share, label, right)."""
    x = alt.X(
        "ratio:Q",
        scale=alt.Scale(domain=[0, 4], nice=False),
        axis=alt.Axis(values=[0, 0.5, 1, 1.5, 2, 3, 4], format="~g"),
        title="noise bound E in units of √n (right = more noise)",
    )
    y = alt.Y(
        "share:Q",
        scale=alt.Scale(domain=[0, 1], nice=False),
        axis=SHARE_AXIS,
        title="secret bits the attack gets right",
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
    chart = (line + root_rule + root_text + _levels(y, "ratio", x) + _your_point(x, y)).properties(
        height=ui_charts.DEFAULT_HEIGHT, width=ui_charts.DEFAULT_WIDTH
    )
    return ui_charts.Template(chart)
