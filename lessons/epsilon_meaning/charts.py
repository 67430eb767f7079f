"""Chart templates of the lesson "What ε means in practice" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from lessons.epsilon_meaning.model import (
    CURVES,
    EPSILON_DOMAIN,
    SHARE_KINDS,
    SPLITS,
    STATISTICS,
)
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

EPSILON_TICKS = (0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20)


@datasets.cached()
def odds() -> Template:
    """Template: the posterior bound and the advantage bound against ε (log axis 0.05..20),
    both 0..100%, with the current ε as a labelled dashed rule. Datasets "curves" (epsilon,
    bound, curve) and "truth" (x, label, bottom)."""
    return ui_charts.curves(
        ui_charts.Axis(
            "epsilon", "ε (log scale)", EPSILON_DOMAIN, log=True, values=EPSILON_TICKS, tip="ε"
        ),
        ui_charts.Axis("bound", "at most", (0.0, 1.0), format="~%", tip_format=".1%"),
        ui_charts.Series("curve", CURVES, legend="stacked"),
        rule=True,
        rule_flip_at=RULE_FLIP_AT,
        rule_bottom="bottom",  # rule_label_at_bottom
    )


RULE_FLIP_AT = 5.0  # your ε's label left of its rule from here on


def rule_label_at_bottom(curves: pd.DataFrame, epsilon: float, label: str) -> bool:
    """Whether your ε's label goes at the plot's bottom: at ε = 10 both bounds are at 100%,
    through the label written at the top on a phone (ui.charts.rule_label_at_bottom)."""
    first, *others = ui_charts.series_curves(curves, "curve", CURVES, "epsilon", "bound")
    return ui_charts.rule_label_at_bottom(
        epsilon,
        label,
        *first,
        others=tuple(others),
        x_domain=EPSILON_DOMAIN,
        y_domain=(0.0, 1.0),
        right_of=epsilon < RULE_FLIP_AT,
        x_log=True,
        label_dy=4,  # as ui.charts.curve_layers draws its rule's label
        height=ui_charts.CURVE_HEIGHT,
    )


DEPLOYED_DOMAIN = (0.5, 50.0)  # ε: every deployment in the table lies inside


@datasets.cached()
def deployed() -> Template:
    """Template: one row per deployment of one unit of privacy, its ε as a point on a log
    axis (0.5..50) with a thin bar from the axis' start, labelled with the value. Dataset
    "deployments" (deployment, epsilon, how, year)."""
    x_scale = alt.Scale(type="log", domain=list(DEPLOYED_DOMAIN), nice=False, clamp=True)
    # the names are written above their rows, inside the plot: on a phone an axis of
    # names would leave the ε axis no room
    y = alt.Y("deployment:N", title=None, sort=None, axis=None)
    base = alt.Chart(alt.NamedData(name="deployments"))
    tooltip = [
        alt.Tooltip("deployment:N"),
        alt.Tooltip("epsilon:Q", format=".3~g", title="ε"),
        alt.Tooltip("how:N", title="ε is"),
        alt.Tooltip("year:Q", format="d"),
    ]
    x = alt.X(
        "epsilon:Q",
        title="ε (log scale)",
        scale=x_scale,
        axis=alt.Axis(values=[0.5, 1, 2, 5, 10, 20, 50], format="~g"),
    )
    stems = (
        base.mark_bar(height=3, color=ui_charts.GREY)
        .encode(x=alt.X("start:Q", scale=x_scale), x2="epsilon:Q", y=y)
        .transform_calculate(start=str(DEPLOYED_DOMAIN[0]))
    )
    points = base.mark_point(filled=True, size=90, color=ui_charts.BLUE).encode(
        x=x, y=y, tooltip=tooltip
    )
    values = base.mark_text(align="left", dx=8, color=ui_charts.BLACK).encode(
        x=x, y=y, text=alt.Text("epsilon:Q", format=".3~g")
    )
    names = (
        # clear of the value written right of the point (a long name runs over the point)
        base.mark_text(align="left", baseline="bottom", dy=-9, color=ui_charts.BLACK)
        .encode(x=alt.X("start:Q", scale=x_scale), y=y, text="deployment:N")
        .transform_calculate(start=str(DEPLOYED_DOMAIN[0]))
    )
    return Template(
        (stems + points + values + names).properties(height=340, width=ui_charts.DEFAULT_WIDTH)
    )


SPLIT_COLOURS = [ui_charts.BLUE, ui_charts.BLACK, ui_charts.ORANGE]
SD_DOMAIN = (0.0, 40.0)  # the error's SD in people: ε_i from 0.05 (SD 28) to 1 (SD 1.4)


@datasets.cached()
def split() -> Template:
    """Template: per statistic, the SD of its error under your split, the best Laplace split
    and the best Gaussian split (grouped bars, fixed axis 0..40 people). Dataset "split"
    (statistic, split, sd)."""
    x_scale = alt.Scale(domain=list(SD_DOMAIN), nice=False, clamp=True)
    chart = (
        alt.Chart(alt.NamedData(name="split"))
        .mark_bar()
        .encode(
            x=alt.X("sd:Q", title="SD of the answer's error (people)", scale=x_scale),
            y=alt.Y(
                "statistic:N", title=None, sort=list(STATISTICS), axis=alt.Axis(labelLimit=220)
            ),
            yOffset=alt.YOffset("split:N", sort=list(SPLITS)),
            color=alt.Color(
                "split:N",
                sort=list(SPLITS),
                scale=alt.Scale(domain=list(SPLITS), range=SPLIT_COLOURS),
                legend=ui_charts.TWO_COLUMN_LEGEND,
            ),
            tooltip=[
                alt.Tooltip("statistic:N"),
                alt.Tooltip("split:N"),
                alt.Tooltip("sd:Q", format=".2f", title="SD (people)"),
            ],
        )
        .properties(height=170, width=ui_charts.DEFAULT_WIDTH)
    )
    return Template(chart)


@datasets.cached()
def shares() -> Template:
    """Template: per count, its share of the budget in the best split under Laplace and under
    Gaussian noise (grouped bars, 0..100%), the equal split as a labelled dashed rule.
    Datasets "shares" (statistic, kind, share) and "truth" (x, label)."""
    x_scale = alt.Scale(domain=[0.0, 1.0], nice=False)
    bars = (
        alt.Chart(alt.NamedData(name="shares"))
        .mark_bar()
        .encode(
            x=alt.X(
                "share:Q", title="share of the budget", scale=x_scale, axis=alt.Axis(format="%")
            ),
            y=alt.Y(
                "statistic:N", title=None, sort=list(STATISTICS), axis=alt.Axis(labelLimit=220)
            ),
            yOffset=alt.YOffset("kind:N", sort=list(SHARE_KINDS)),
            color=alt.Color(
                "kind:N",
                sort=list(SHARE_KINDS),
                scale=alt.Scale(
                    domain=list(SHARE_KINDS), range=[ui_charts.BLACK, ui_charts.ORANGE]
                ),
                legend=ui_charts.ROW_LEGEND,
            ),
            tooltip=[
                alt.Tooltip("statistic:N"),
                alt.Tooltip("kind:N", title="split"),
                alt.Tooltip("share:Q", format=".1%"),
            ],
        )
    )
    rule = ui_charts.truth_rule_layers(x_scale, flip_at=0.6)
    return Template((bars + rule).properties(height=100, width=ui_charts.DEFAULT_WIDTH))
