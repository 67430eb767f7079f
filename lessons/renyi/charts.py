"""Chart templates of the lesson "Rényi DP and the accountants" (data-free; the page fills
them)."""

from __future__ import annotations

from lessons.renyi.model import (
    ACCOUNTANTS,
    ACCOUNTED_DOMAIN,
    COMPOSED_DOMAIN,
    COMPOSITIONS,
    DENSITY_DOMAIN,
    DISTRIBUTIONS,
    EXACT,
    MECHANISMS,
    ORDER_DOMAIN,
    OUTPUTS,
    RDP_DOMAIN,
    RELEASES,
    STEPS,
)
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

ORDER_TICKS = (1.01, 1.5, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
EPSILON_TICKS = (0.01, 0.1, 1.0, 10.0, 100.0, 1_000.0)


@datasets.cached()
def divergence() -> Template:
    """Template: each mechanism's Rényi divergence ε(α) against the order α (both axes log),
    the chosen α as a labelled dashed rule and each curve's value there as a diamond.
    Datasets "curves" (alpha, rdp, mechanism), "truth" (x, label), "mark" (alpha, rdp,
    label)."""
    return ui_charts.curves(
        ui_charts.Axis(
            "alpha", "order α (log scale)", ORDER_DOMAIN, log=True, values=ORDER_TICKS, tip="α"
        ),
        ui_charts.Axis(
            "rdp",
            "Rényi divergence ε(α) (log scale)",
            RDP_DOMAIN,
            log=True,
            format=",~r",
            values=(0.01, 0.1, 1.0, 10.0, 100.0),
            tip="ε(α)",
            tip_format=".3~g",
        ),
        ui_charts.Series("mechanism", MECHANISMS, legend="stacked"),
        rule=True,
        rule_flip_at=32.0,
        mark="mark",
    )


COMPOSITION_LINES = (*COMPOSITIONS, EXACT)


@datasets.cached()
def composition() -> Template:
    """Template: the ε at δ = 10⁻⁵ of k Gaussian releases against k (both axes log), by each
    composition and exactly, points at the computed k, the chosen k as a labelled dashed
    rule. Datasets "curves" (releases, epsilon, method) and "truth" (x, label)."""
    return ui_charts.curves(
        ui_charts.Axis.on_grid(
            "releases", "releases k (log scale)", RELEASES, format=",d", tip="k"
        ),
        ui_charts.Axis(
            "epsilon",
            "ε at δ = 10⁻⁵ (log scale)",
            COMPOSED_DOMAIN,
            log=True,
            format=",~r",
            values=(*EPSILON_TICKS, 10_000.0),
            tip="ε",
            tip_format=".3~g",
        ),
        ui_charts.Series("method", COMPOSITION_LINES, legend="stacked"),
        points=True,
        rule=True,
        rule_flip_at=100.0,
    )


@datasets.cached()
def accountants() -> Template:
    """Template: a DP-SGD run's ε at δ = 10⁻⁵ against its steps T (both axes log) by basic
    and advanced composition, RDP and PLD, points at the computed T, the chosen T as a
    labelled dashed rule. Datasets "curves" (steps, epsilon, accountant) and "truth" (x,
    label)."""
    return ui_charts.curves(
        ui_charts.Axis.on_grid("steps", "steps T (log scale)", STEPS, format=",d", tip="T"),
        ui_charts.Axis(
            "epsilon",
            "ε at δ = 10⁻⁵ (log scale)",
            ACCOUNTED_DOMAIN,
            log=True,
            format=",~r",
            values=(*EPSILON_TICKS, 10_000.0, 100_000.0),
            tip="ε",
            tip_format=".3~g",
        ),
        ui_charts.Series("accountant", ACCOUNTANTS, legend="stacked"),
        points=True,
        rule=True,
        rule_flip_at=1_000.0,
    )


@datasets.cached()
def distributions() -> Template:
    """Template: the output densities of the Gaussian and the Laplace on two neighbours (a
    count of 0 and of 1), colour by mechanism, dash by neighbour. Dataset "curves" (output,
    density, curve)."""
    return ui_charts.curves(
        ui_charts.Axis("output", "output", (float(OUTPUTS[0]), float(OUTPUTS[-1])), tip="output"),
        ui_charts.Axis("density", "density", DENSITY_DOMAIN, tip="density", tip_format=".3~g"),
        ui_charts.Series(
            "curve",
            DISTRIBUTIONS,
            colours=(ui_charts.BLUE, ui_charts.BLUE, ui_charts.VERMILLION, ui_charts.VERMILLION),
            dashes=((1, 0), (6, 3), (1, 0), (6, 3)),
            legend="stacked",
        ),
        height=180,
    )
