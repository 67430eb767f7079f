"""Chart templates of the lesson "Choosing privately" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt

from lessons.choosing.model import CURVE_EPSILONS
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

EPSILON_DOMAIN = (float(CURVE_EPSILONS[0]), float(CURVE_EPSILONS[-1]))
win_bars = ui_charts.win_bars


def win_curves(
    series: tuple[str, ...], height: int = 260, y_title: str = "chance of being reported"
) -> Template:
    """ui.charts.win_curves over this lesson's ε range (model.CURVE_EPSILONS)."""
    return ui_charts.win_curves(series, EPSILON_DOMAIN, height, y_title)


@datasets.cached(max_entries=64)
def quantile_bars(low: float, high: float, x_title: str, height: int = 260) -> Template:
    """Template: the exponential mechanism's probability for every candidate (bars over the
    column's fixed range, sqrt y 0..100%) and the true quantile as a labelled rule. Datasets
    "candidates" (start, end, candidate, score, probability) and "truth" (x, label)."""
    x_scale = alt.Scale(domain=[low, high], nice=False, zero=False)
    bars = ui_charts.binned_bars(
        "candidates",
        x_title=x_title,
        x_scale=x_scale,
        x_axis=alt.Axis(format=",~r"),
        y=alt.Y(
            "probability:Q",
            title="chance of being released",
            scale=alt.Scale(type="sqrt", domain=[0.0, 1.0]),
            axis=alt.Axis(format="~%", values=[0.01, 0.05, 0.1, 0.25, 0.5, 1.0]),
        ),
        tooltip=[
            alt.Tooltip("candidate:Q", format=",~r", title="candidate"),
            alt.Tooltip("score:Q", format=",.1f", title="score u"),
            alt.Tooltip("probability:Q", format=".3%", title="chance"),
        ],
        mark={"color": ui_charts.NOISY_COLOUR, "opacity": 0.85},
    )
    rule = ui_charts.truth_rule_layers(x_scale, label_dy=4, flip_at=(low + high) / 2)
    return Template((bars + rule).properties(height=height, width=ui_charts.DEFAULT_WIDTH))
