"""Chart templates of the lesson "Privatized data for machine learning" (data-free; the page
fills them)."""

from __future__ import annotations

import altair as alt

from lessons.private_ml.model import AGE_SEX_CATEGORIES, EPSILON_CURVE
from ui import charts as ui_charts
from ui import datasets

ACCURACY_DOMAIN = (0.74, 0.86)
GAP_DOMAIN = (5.0, 20.0)  # percentage points: accuracy for women minus for men
COEFFICIENT_DOMAIN = (-3.5, 2.5)

EPSILON_SCALE = alt.Scale(type="log", domain=[EPSILON_CURVE[0], EPSILON_CURVE[-1]], nice=False)
EPSILON_X = alt.X(
    "epsilon:Q",
    scale=EPSILON_SCALE,
    axis=alt.Axis(values=list(EPSILON_CURVE), format="~g"),
    title="ε per person (log scale; left = more private)",
)


def _curve_against_epsilon(
    domain: tuple[float, float],
    title: str,
    low: str,
    high: str,
    *,
    value_format: str,
    labels_below: bool,
):
    """A mean curve against ε with ± 1 SE bars ("curve": epsilon, value, `low`, `high`),
    labelled reference lines ("levels": value, label) and your ε ("mark": epsilon, value,
    label). Fixed axes; values outside the y domain are clamped to its edge."""
    scale = alt.Scale(domain=list(domain), nice=False, clamp=True)
    y = alt.Y("value:Q", scale=scale, axis=alt.Axis(format=value_format, tickCount=6), title=title)
    curve = alt.NamedData(name="curve")
    line = alt.Chart(curve).mark_line(color=ui_charts.BLUE, strokeWidth=3).encode(x=EPSILON_X, y=y)
    dots = (
        alt.Chart(curve)
        .mark_point(filled=True, size=50, color=ui_charts.BLUE)
        .encode(
            x=EPSILON_X,
            y=y,
            tooltip=[
                alt.Tooltip("epsilon:Q", title="ε", format="~g"),
                alt.Tooltip("value:Q", title=title, format=value_format.replace("0", "1")),
            ],
        )
    )
    bars = (
        alt.Chart(curve)
        .mark_rule(color=ui_charts.BLUE)
        .encode(x=EPSILON_X, y=alt.Y(f"{low}:Q", scale=scale), y2=f"{high}:Q")
    )
    levels = ui_charts.reference_line_layers(
        alt.NamedData(name="levels"), "value", y_scale=scale, below=labels_below
    )
    point = ui_charts.marked_point_layers(
        alt.NamedData(name="mark"),
        "epsilon",
        "value",
        x_scale=EPSILON_SCALE,
        y_scale=scale,
        flip_at=2.0,
    )
    chart = bars + line + dots + levels + point
    return chart.properties(height=ui_charts.DEFAULT_HEIGHT, width=ui_charts.DEFAULT_WIDTH)


@datasets.cached(max_entries=8)
def accuracy_curve() -> ui_charts.Template:
    """Template: test accuracy of the model trained on the privatized table against ε (log
    x fixed 0.01–10, y fixed 74–86%), with the true-table, no-privatized-columns and
    majority-guess levels, and your ε."""
    return ui_charts.Template(
        _curve_against_epsilon(
            ACCURACY_DOMAIN,
            "test accuracy",
            "low",
            "high",
            value_format=".0%",
            labels_below=True,  # the curve runs just above the baseline, below the truth
        )
    )


@datasets.cached(max_entries=8)
def gap_curve() -> ui_charts.Template:
    """Template: accuracy for women minus accuracy for men against ε (y fixed 5–20
    percentage points), with the true-table and no-privatized-columns levels, and your ε."""
    return ui_charts.Template(
        _curve_against_epsilon(
            GAP_DOMAIN,
            "women − men, percentage points",
            "gap_low",
            "gap_high",
            value_format=".0f",
            labels_below=False,  # the gap curve runs below the baseline's line
        )
    )


@datasets.cached(max_entries=8)
def coefficients() -> ui_charts.Template:
    """Template: the centred coefficient of each age band × sex category, true table (black
    circle) against privatized table (blue diamond), x fixed −3.5 … 2.5 and clamped; a rule at 0
    ("coefficients": category, model, value)."""
    data = alt.NamedData(name="coefficients")
    x = alt.X(
        "value:Q",
        scale=alt.Scale(domain=list(COEFFICIENT_DOMAIN), nice=False, clamp=True),
        axis=alt.Axis(values=[-3, -2, -1, 0, 1, 2]),
        title="coefficient (centred log-odds of >50K)",
    )
    y = alt.Y("category:N", sort=list(AGE_SEX_CATEGORIES), title=None)
    colour = alt.Color(
        "model:N",
        scale=alt.Scale(
            domain=["true table", "privatized table"], range=[ui_charts.BLACK, ui_charts.BLUE]
        ),
        legend=alt.Legend(orient="top", title=None),
    )
    shape = alt.Shape(
        "model:N",
        scale=alt.Scale(domain=["true table", "privatized table"], range=["circle", "diamond"]),
        legend=None,
    )
    zero = alt.Chart(alt.Data(values=[{"value": 0.0}])).mark_rule(color=ui_charts.GREY).encode(x=x)
    dots = (
        alt.Chart(data)
        .mark_point(size=90, filled=True, opacity=0.9)
        .encode(
            x=x,
            y=y,
            color=colour,
            shape=shape,
            tooltip=[
                alt.Tooltip("category:N", title="category"),
                alt.Tooltip("model:N", title="model"),
                alt.Tooltip("value:Q", title="coefficient", format=".2f"),
            ],
        )
    )
    chart = (zero + dots).properties(height=300, width=ui_charts.DEFAULT_WIDTH)
    return ui_charts.Template(chart)
