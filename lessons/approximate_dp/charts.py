"""Chart templates of the lesson "Approximate DP: the Gaussian mechanism" (data-free; the
page fills them with model.py's frames)."""

from __future__ import annotations

import math

import altair as alt
import pandas as pd

from lessons.approximate_dp import model
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

ROW_LEGEND = ui_charts.ROW_LEGEND
POWERS = ui_charts.POWERS
HEIGHT = ui_charts.CURVE_HEIGHT
Axis, Series, curves = ui_charts.Axis, ui_charts.Series, ui_charts.curves


def exposure() -> Template:
    """The chance that at least one record is published, against δ; your δ as a diamond on
    the curve, its words in the title (model.exposure_title): beside it, on a phone, they
    ran through the curve's rise and the 1/n rule at δ = 10⁻⁸ and 10⁻⁷ (and their tail at
    10⁻¹⁰), and with an upload the rise moves with n."""
    return curves(
        Axis(
            "delta",
            "δ (log scale; ← more private)",
            model.EXPOSURE_DELTA_DOMAIN,
            log=True,
            format=POWERS,
        ),
        Axis("chance", "chance someone is published", (0.0, 1.0), format="~%"),
        Series("curve", ("publish each record with probability δ",)),
        rule=True,
        mark="mark",
        mark_label=False,
    )


@datasets.cached(max_entries=8)
def densities(colour: str) -> Template:
    """Template: the output densities of M(D) (solid) and M(D') (dashed) on a fixed log
    density axis, over output − true count. Dataset "densities" (output, world, density)."""
    x_scale = alt.Scale(domain=list(model.OUTPUT_DOMAIN), nice=False)
    worlds = [model.WORLD_D, model.WORLD_D_PRIME]
    chart = (
        alt.Chart(alt.NamedData(name="densities"))
        .mark_line(strokeWidth=2.5, clip=True)
        .encode(
            x=alt.X("output:Q", title="noisy count − true count of D", scale=x_scale),
            y=ui_charts.log_density_y(model.DENSITY_DOMAIN),
            color=alt.Color(
                "world:N",
                sort=worlds,
                scale=alt.Scale(domain=worlds, range=[colour, ui_charts.BLACK]),
                legend=ROW_LEGEND,
            ),
            strokeDash=alt.StrokeDash(
                "world:N",
                sort=worlds,
                scale=alt.Scale(domain=worlds, range=[[1, 0], [6, 3]]),
                legend=ROW_LEGEND,
            ),
            tooltip=[
                alt.Tooltip("world:N", title=" "),
                alt.Tooltip("output:Q", format=".2f", title="output − count"),
                alt.Tooltip("density:Q", format=".3~g"),
            ],
        )
    )
    return Template(chart.properties(height=200, width=ui_charts.DEFAULT_WIDTH))


@datasets.cached(max_entries=8)
def loss_bars() -> Template:
    """Template: the privacy loss's distribution in units of ε (bars of probability mass on
    a fixed log axis; beyond ε in vermillion) and ε as a labelled rule. Datasets "bins"
    (start, end, mass, side) and "truth" (x, label)."""
    x_scale = alt.Scale(domain=list(model.LOSS_DOMAIN), nice=False)
    sides = [model.WITHIN, model.BEYOND]
    bars = ui_charts.binned_bars(
        "bins",
        x_title="privacy loss ÷ ε",
        x_scale=x_scale,
        y=alt.Y(
            "mass:Q",
            title="probability",
            scale=alt.Scale(type="log", domain=list(model.LOSS_MASS_DOMAIN), clamp=True),
            axis=ui_charts.power_of_ten_axis(values=[1e-9, 1e-6, 1e-3, 1]),
        ),
        tooltip=[
            alt.Tooltip("start:Q", format=".1f", title="loss/ε from"),
            alt.Tooltip("end:Q", format=".1f", title="to"),
            alt.Tooltip("mass:Q", format=".3~g", title="probability"),
        ],
        mark={"clip": True},
        y2=alt.datum(model.LOSS_MASS_DOMAIN[0]),
        color=alt.Color(
            "side:N",
            sort=sides,
            scale=alt.Scale(domain=sides, range=[ui_charts.BLUE, ui_charts.VERMILLION]),
            legend=alt.Legend(orient="bottom", title=None, direction="horizontal"),
        ),
    )
    rule = ui_charts.truth_rule_layers(x_scale, label_dy=4)
    return Template((bars + rule).properties(height=200, width=ui_charts.DEFAULT_WIDTH))


def delta_curve() -> Template:
    return curves(
        Axis("epsilon", "ε′ (log scale)", (0.01, 10.0), log=True),
        Axis("delta", "δ (log scale)", model.DELTA_CURVE_DOMAIN, log=True, format=POWERS),
        Series("curve", (model.EXACT, model.TAIL)),
        mark="mark",
        mark_label=False,  # model.calibration_words, in the title
    )


def sigma() -> Template:
    return curves(
        Axis(
            "epsilon",
            "ε (log scale; ← more private)",
            (float(model.SIGMA_EPSILONS[0]), float(model.SIGMA_EPSILONS[-1])),
            log=True,
        ),
        Axis("sigma", "noise SD for one count (log)", model.SIGMA_DOMAIN, log=True),
        Series("method", model.SIGMA_SERIES),
        rule=True,
    )


QUERIES_DOMAIN = (1.0, 1_000.0)


def composition() -> Template:
    return curves(
        Axis("queries", "k queries answered (log scale)", QUERIES_DOMAIN, log=True),
        Axis("total epsilon", "total ε (log scale; ↓ more private)", model.TOTAL_DOMAIN, log=True),
        Series("method", model.COMPOSITION_SERIES),
        rule=True,
        rule_bottom="bottom",  # crossover_label_at_bottom
    )


def crossover_label_at_bottom(frame: pd.DataFrame, result: model.Budget) -> bool:
    """Whether the crossover rule's label goes at the plot's bottom: on a phone the advanced
    composition's curve climbs through it at the top (ui.charts.rule_label_at_bottom)."""
    if result.crossover is None:
        return False
    first, *others = ui_charts.series_curves(
        frame, "method", model.COMPOSITION_SERIES, "queries", "total epsilon"
    )
    return ui_charts.rule_label_at_bottom(
        result.crossover,
        model.crossover_label(result),
        *first,
        others=tuple(others),
        x_domain=QUERIES_DOMAIN,
        y_domain=model.TOTAL_DOMAIN,
        right_of=result.crossover < math.sqrt(QUERIES_DOMAIN[0] * QUERIES_DOMAIN[1]),
        x_log=True,
        y_log=True,
        label_dy=4,  # as ui.charts.curve_layers draws its rule's label
        height=ui_charts.CURVE_HEIGHT,
    )


def conversion() -> Template:
    return curves(
        Axis(
            "delta",
            "δ (log scale; ← more private)",
            (float(model.CONVERT_DELTAS[0]), float(model.CONVERT_DELTAS[-1])),
            log=True,
            format=POWERS,
        ),
        Axis("epsilon", "ε implied by ρ (log scale)", model.CONVERT_DOMAIN, log=True),
        Series("conversion", (model.TIGHT, model.SIMPLE)),
        mark="mark",
    )
