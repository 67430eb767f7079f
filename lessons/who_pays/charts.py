"""Chart templates of the lesson "Who pays for privacy" (data-free; the page fills them)."""

from __future__ import annotations

import math

import altair as alt
import numpy as np

from lessons.who_pays import model
from lessons.who_pays.model import (
    COUNT_DOMAIN,
    DROP_DOMAIN,
    MODEL_EPSILONS,
    RELATIVE_DOMAIN,
    USELESS,
)
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

COUNT_AXIS = ui_charts.Axis(
    "count",
    "people in the group with income > 50K (log scale)",
    COUNT_DOMAIN,
    log=True,
    format=",~g",
    values=(1.0, 10.0, 100.0, 1_000.0, 10_000.0),
    tip="count",
    tip_format=",",
)
RELATIVE_AXIS = ui_charts.Axis(
    "relative",
    "typical error ÷ count (log scale)",
    RELATIVE_DOMAIN,
    log=True,
    format="~g",
    values=(0.0001, 0.001, 0.01, 0.1, 1.0, 10.0, 100.0),
    tip="typical error ÷ count",
    tip_format=".3~%",
)


@datasets.cached()
def relative_errors() -> Template:
    """Template: each group's relative typical error against its count (dots, both axes
    log), the curve √2/(ε·count) they lie on, and half the count as a labelled dashed line.
    Datasets "curves" (count, relative, line), "groups" (group, count, relative) and
    "useless" (y, label)."""
    line = ui_charts.curve_layers(
        COUNT_AXIS,
        RELATIVE_AXIS,
        # no legend: the title says what the dots and the line are
        ui_charts.Series("line", ("√2/(ε·count)",), colours=(ui_charts.BLACK,), legend="none"),
        levels=("useless", "y"),
        levels_right="right",
        levels_below="under",
    )
    dots = (
        alt.Chart(alt.NamedData(name="groups"))
        .mark_point(filled=True, size=70, opacity=0.9)
        .encode(
            x=alt.X("count:Q", scale=COUNT_AXIS.scale()),
            y=alt.Y("relative:Q", scale=RELATIVE_AXIS.scale()),
            fill=alt.value(ui_charts.BLUE),
            tooltip=[
                alt.Tooltip("group:N", title="group"),
                COUNT_AXIS.tooltip(","),
                RELATIVE_AXIS.tooltip(".3~%"),
            ],
        )
    )
    chart = alt.layer(line, dots).properties(
        height=ui_charts.CURVE_HEIGHT, width=ui_charts.DEFAULT_WIDTH
    )
    return Template(chart)


def note_place(epsilon: float) -> tuple[bool, bool]:
    """Where "half the count" goes on its line, (right, under), clear of the line
    √2/(ε·count) (ui.charts.level_label_places, on both axes' logarithms): from ε = 0.3 on the
    line falls through half the count within the label's width at the plot's left end, and
    on a phone it was written across the label. Not cached: 21 points, and the place depends
    on presenter mode's text size."""
    line = model.error_line(epsilon)
    (place,) = ui_charts.level_label_places(
        [(math.log10(USELESS), model.NOTE_LABEL)],
        line["count"].to_numpy(),
        np.log10(line["relative"].to_numpy()),
        x_domain=COUNT_DOMAIN,
        y_domain=(math.log10(RELATIVE_DOMAIN[0]), math.log10(RELATIVE_DOMAIN[1])),
        x_log=True,
        height=ui_charts.CURVE_HEIGHT,
    )
    return place


@datasets.cached(max_entries=1)
def drops(groups: tuple[str, ...]) -> Template:
    """Template: each group's accuracy drop from the non-private model (points) against ε
    (log), means of seeded runs with 95% error bars, the chosen ε as a labelled dashed rule.
    Datasets "curves" (epsilon, drop, low, high, group) and "truth" (x, label)."""
    return ui_charts.curves(
        ui_charts.Axis.on_grid("epsilon", "privacy loss ε (log scale)", MODEL_EPSILONS, tip="ε"),
        ui_charts.Axis(
            "drop",
            "accuracy lost (percentage points)",
            DROP_DOMAIN,
            tip="lost",
            tip_format=".2f",
        ),
        ui_charts.Series("group", groups, legend="stacked"),
        points=True,
        error_bars=("low", "high"),
        rule=True,
        rule_flip_at=1.0,
    )


@datasets.cached(max_entries=1)
def clipped(groups: tuple[str, ...]) -> Template:
    """Template: each group's share of clipped gradients as a bar (0–100%). Dataset
    "shares" (group, share)."""
    chart = (
        alt.Chart(alt.NamedData(name="shares"))
        .mark_bar(color=ui_charts.BLUE)
        .encode(
            y=alt.Y("group:N", sort=list(groups), title=None, axis=alt.Axis(labelLimit=0)),
            x=alt.X(
                "share:Q",
                title="gradients clipping shortens",
                scale=alt.Scale(domain=[0, 1], nice=False),
                axis=alt.Axis(format="~%"),
            ),
            tooltip=[
                alt.Tooltip("group:N", title="group"),
                alt.Tooltip("share:Q", title="shortened", format=".1%"),
            ],
        )
        .properties(height=180, width=ui_charts.DEFAULT_WIDTH)
    )
    return Template(chart)
