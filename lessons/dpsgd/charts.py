"""Chart templates of the lesson "Private training with DP-SGD" (data-free; the page fills
them). The attack's ROC is the one of "Membership inference" (ui/charts.py)."""

from __future__ import annotations

import altair as alt

from lessons.dpsgd.model import (
    EPSILONS,
    MODELS,
    NORM_DOMAIN,
    STEP_GRID,
    STEP_LIMIT,
    UPLOAD_MODELS,
)
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

roc = ui_charts.roc  # the membership lesson's ROC

ARROWS = ("gradient", "clipped", "sum of clipped", "sum + noise")
ARROW_COLOURS = [ui_charts.GREY, ui_charts.BLUE, ui_charts.BLACK, ui_charts.VERMILLION]
STEP_DOMAIN = (-STEP_LIMIT, STEP_LIMIT)
ATTACK_COLOURS = (ui_charts.GREY, ui_charts.BLUE, ui_charts.GREEN)  # non-private, ε = 1, 10


# The plane of two weights is drawn square, the same number of pixels per unit both ways, so
# that the clip "circle" of radius C is round (as wide as the page, it was an ellipse 1.3 times
# wider than tall): a plot of STEP_PX by STEP_PX ("pad": the axes and the two-column legend
# go around it), which fits a 390 px phone, and larger on a projector.
STEP_PX, STEP_PRESENTER_PX = 290, 370
STEP_LEGEND = alt.Legend(orient="bottom", title=None, columns=2, labelLimit=0)


@datasets.cached(max_entries=4)
def one_step(size: int = STEP_PX) -> Template:
    """Template: arrows from the origin in the plane of two weights (fixed ±STEP_LIMIT both ways,
    a square of `size` pixels): each person's gradient, clipped to the circle of radius C,
    their sum, and the sum with noise. Datasets "arrows" (arrow, person, x0, y0, x, y) and
    "circle" (x, y, order)."""
    scale = alt.Scale(domain=list(STEP_DOMAIN), nice=False, clamp=True)
    arrows = (
        alt.Chart(alt.NamedData(name="arrows"))
        .mark_rule(strokeWidth=2.5)
        .encode(
            x=alt.X("x0:Q", scale=scale),
            y=alt.Y("y0:Q", scale=scale),
            x2="x:Q",
            y2="y:Q",
            color=alt.Color(
                "arrow:N",
                sort=list(ARROWS),
                scale=alt.Scale(domain=list(ARROWS), range=ARROW_COLOURS),
                legend=STEP_LEGEND,
            ),
            tooltip=[
                alt.Tooltip("arrow:N"),
                alt.Tooltip("person:Q"),
                alt.Tooltip("x:Q", format=".3f", title="education weight"),
                alt.Tooltip("y:Q", format=".3f", title="hours weight"),
            ],
        )
    )
    tips = (
        alt.Chart(alt.NamedData(name="arrows"))
        .mark_point(filled=True, size=45)
        .encode(
            x=alt.X("x:Q", scale=scale, title="gradient for the education weight"),
            y=alt.Y("y:Q", scale=scale, title="gradient for the hours weight"),
            color=alt.Color(
                "arrow:N",
                sort=list(ARROWS),
                scale=alt.Scale(domain=list(ARROWS), range=ARROW_COLOURS),
                legend=None,
            ),
        )
    )
    circle = (
        alt.Chart(alt.NamedData(name="circle"))
        .mark_line(color=ui_charts.BLUE, strokeDash=[4, 3], opacity=0.7)
        .encode(x=alt.X("x:Q", scale=scale), y=alt.Y("y:Q", scale=scale), order="order:Q")
    )
    return Template(
        (circle + arrows + tips).properties(
            height=size, width=size, autosize=alt.AutoSizeParams(type="pad")
        )
    )


@datasets.cached(max_entries=4)
def norms(height: int = 240) -> Template:
    """Template: the share of training examples per gradient-norm bin (x fixed 0..4), C as a
    labelled rule. Datasets "norms" (start, end, share) and "truth" (x, label)."""
    x_scale = alt.Scale(domain=list(NORM_DOMAIN), nice=False)
    bars = ui_charts.binned_bars(
        "norms",
        x_title="a training example's gradient norm ‖g‖ at the start",
        x_scale=x_scale,
        y=alt.Y(
            "share:Q",
            title="share of examples",
            axis=alt.Axis(format="~%"),
            scale=alt.Scale(domain=[0, 0.25], nice=False, clamp=True),
        ),
        tooltip=[
            alt.Tooltip("start:Q", format=".2f", title="from"),
            alt.Tooltip("end:Q", format=".2f", title="to"),
            alt.Tooltip("share:Q", format=".1%"),
        ],
        mark={"color": ui_charts.GREY},
    )
    rule = ui_charts.truth_rule_layers(x_scale, label_dy=4, flip_at=3.0)
    return Template((bars + rule).properties(height=height, width=ui_charts.DEFAULT_WIDTH))


def accuracy_by_epsilon(
    height: int = 260, models: tuple[str, ...] = MODELS, y_domain: tuple[float, float] = (0.7, 0.9)
) -> Template:
    """Template: test accuracy against ε (log x over the fixed ε grid, y fixed at `y_domain`):
    DP-SGD with ± 1 standard error, the non-private model and a third line (the previous
    lesson's model on the census; on a file, always the more common answer).
    Dataset "accuracy" (epsilon, model, accuracy, low, high)."""
    return ui_charts.curves(
        ui_charts.Axis.on_grid(
            "epsilon", "ε of the training (log scale; ← more private)", EPSILONS, tip="ε"
        ),
        ui_charts.Axis("accuracy", "test accuracy", y_domain, format="~%", tip_format=".2%"),
        ui_charts.Series(
            "model",
            models,
            colours=(ui_charts.BLUE, ui_charts.BLACK, ui_charts.ORANGE),
            legend="stacked",
        ),
        data="accuracy",
        points=True,
        error_bars=("low", "high"),
        height=height,
    )


def accountant(height: int = 240) -> Template:
    """Template: ε against the number of steps (log x) from the PLD and the RDP accountant.
    Dataset "curves" (steps, accountant, epsilon)."""
    return ui_charts.curves(
        ui_charts.Axis.on_grid(
            "steps", "training steps (log scale)", STEP_GRID, format=",~r", tip_format=","
        ),
        ui_charts.Axis("epsilon", "ε at δ = 10⁻⁵", (0, 12), tip="ε", tip_format=".3f"),
        ui_charts.Series("accountant", ("PLD", "RDP"), colours=(ui_charts.BLUE, ui_charts.ORANGE)),
        points=True,
        height=height,
    )


def upload_accuracy() -> Template:
    """Section 7: `accuracy_by_epsilon` for a file, y fixed at 50..100% (a yes/no question's
    more common answer is right at least half the time)."""
    return accuracy_by_epsilon(models=UPLOAD_MODELS, y_domain=(0.5, 1.0))
