"""Chart templates of the lesson "Privatized data for machine learning" (data-free; the page
fills them)."""

from __future__ import annotations

import altair as alt

from lessons.private_ml.model import AGE_SEX_CATEGORIES, EPSILON_CURVE
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

ACCURACY_DOMAIN = (0.74, 0.86)
GAP_DOMAIN = (5.0, 20.0)  # percentage points: accuracy for women minus for men
COEFFICIENT_DOMAIN = (-3.5, 2.5)

EPSILON_AXIS = ui_charts.Axis.on_grid(
    "epsilon", "ε per person (log scale; left = more private)", EPSILON_CURVE, tip="ε"
)


def _curve_against_epsilon(
    y: ui_charts.Axis, low: str, high: str, *, labels_below: bool
) -> Template:
    """A mean curve against ε with ± 1 SE bars ("curve": epsilon, value, `low`, `high`),
    labelled reference lines ("levels": value, label) and your ε as a diamond ("mark":
    epsilon, value), its words in the title (beside it, on a phone at ε = 0.07 and 0.2, the
    curve or its error bar ran through them). Fixed axes; values outside the y domain are
    clamped to its edge."""
    return ui_charts.curves(
        EPSILON_AXIS,
        y,
        data="curve",
        points=True,
        error_bars=(low, high),
        levels=("levels", "value"),
        levels_below=labels_below,
        mark="mark",
        mark_label=False,
        height=ui_charts.DEFAULT_HEIGHT,
    )


def accuracy_curve() -> Template:
    """Template: test accuracy of the model trained on the privatized table against ε (log
    x fixed 0.01–10, y fixed 74–86%), with the true-table, no-privatized-columns and
    majority-guess levels, and your ε."""
    return _curve_against_epsilon(
        ui_charts.Axis("value", "test accuracy", ACCURACY_DOMAIN, format=".0%", tip_format=".1%"),
        "low",
        "high",
        labels_below=True,  # the curve runs just above the baseline, below the truth
    )


def gap_curve() -> Template:
    """Template: accuracy for women minus accuracy for men against ε (y fixed 5–20
    percentage points), with the true-table and no-privatized-columns levels, and your ε."""
    return _curve_against_epsilon(
        ui_charts.Axis(
            "value", "women − men, percentage points", GAP_DOMAIN, format=".0f", tip_format=".1f"
        ),
        "gap_low",
        "gap_high",
        labels_below=False,  # the gap curve runs below the baseline's line
    )


@datasets.cached(max_entries=8)
def coefficients() -> Template:
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
    return Template(chart)
