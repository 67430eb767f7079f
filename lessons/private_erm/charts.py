"""Chart templates of the lesson "Private ERM" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from lessons.private_erm.model import (
    ACCURACY_DOMAIN,
    BOUND,
    EPSILONS,
    LAMBDAS,
    LINES,
    MOVE_DOMAIN,
    lambda_label,
)
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

LAMBDA_AXIS = ui_charts.Axis.on_grid(
    "lam", "regularisation λ (log scale)", LAMBDAS, format="~g", tip="λ"
)
MOVE_AXIS = ui_charts.Axis(
    "moved",
    "minimiser's move (log scale)",
    MOVE_DOMAIN,
    log=True,
    format="~g",
    values=(1e-4, 1e-3, 1e-2, 0.1, 1.0),
    tip="moved",
    tip_format=".3~g",
)


LAMBDA_FLIP_AT = 3e-3  # your λ's label left of its rule from here on


def lambda_label_at_bottom(curve: pd.DataFrame, lam: float) -> bool:
    """Whether your λ's label goes at the plot's bottom: at λ = 0.0001 the bound 2/(nλ)
    starts at the plot's top, through the label written there on a projector
    (ui.charts.rule_label_at_bottom; the dots are not lines, and sit above the bottom)."""
    return ui_charts.rule_label_at_bottom(
        lam,
        lambda_label(lam),
        curve["lam"],
        curve["moved"],
        x_domain=(LAMBDAS[0], LAMBDAS[-1]),
        y_domain=MOVE_DOMAIN,
        right_of=lam < LAMBDA_FLIP_AT,
        x_log=True,
        y_log=True,
        label_dy=4,  # as ui.charts.curve_layers draws its rule's label
        height=ui_charts.CURVE_HEIGHT,
    )


@datasets.cached()
def sensitivity() -> Template:
    """Template: how far the minimiser moved for each replaced person (points) and the bound
    2/(nλ) (a line) against λ, both axes log, the chosen λ as a labelled dashed rule.
    Datasets "curves" (lam, moved: the bound), "people" (lam, moved) and "truth" (x,
    label)."""
    bound = ui_charts.curve_layers(
        LAMBDA_AXIS,
        MOVE_AXIS,
        # no legend: the title says what the line and the dots are
        ui_charts.Series("line", (BOUND,), colours=(ui_charts.BLACK,), legend="none"),
        rule=True,
        rule_flip_at=LAMBDA_FLIP_AT,
        rule_bottom="bottom",  # lambda_label_at_bottom
    )
    people = (
        alt.Chart(alt.NamedData(name="people"))
        .mark_point(filled=True, size=45, opacity=0.8)
        .encode(
            x=alt.X("lam:Q", scale=LAMBDA_AXIS.scale()),
            y=alt.Y("moved:Q", scale=MOVE_AXIS.scale()),
            fill=alt.value(ui_charts.BLUE),
            tooltip=[LAMBDA_AXIS.tooltip(".3~g"), MOVE_AXIS.tooltip(".3~g")],
        )
    )
    chart = alt.layer(bound, people).properties(
        height=ui_charts.CURVE_HEIGHT, width=ui_charts.DEFAULT_WIDTH
    )
    return Template(chart)


@datasets.cached()
def accuracy() -> Template:
    """Template: test accuracy against ε (log) for objective and output perturbation and
    DP-SGD (means of seeded runs, with 95% error bars), the model without privacy and
    always answering "≤ 50K", the chosen ε as a labelled dashed rule. Datasets "curves"
    (epsilon, accuracy, low, high, line) and "truth" (x, label)."""
    return ui_charts.curves(
        ui_charts.Axis.on_grid("epsilon", "privacy loss ε (log scale)", EPSILONS, tip="ε"),
        ui_charts.Axis(
            "accuracy",
            "test accuracy",
            ACCURACY_DOMAIN,
            format="~%",
            tip="accuracy",
            tip_format=".1%",
        ),
        ui_charts.Series(
            "line",
            LINES,
            colours=(
                ui_charts.BLACK,
                ui_charts.BLUE,
                ui_charts.VERMILLION,
                ui_charts.GREEN,
                ui_charts.ORANGE,
            ),
            dashes=((1, 0), (1, 0), (6, 3), (2, 2), (8, 2, 2, 2)),
            legend="stacked",
        ),
        points=True,
        error_bars=("low", "high"),
        rule=True,
        rule_flip_at=3.0,
    )
