"""Chart templates of the lesson "Subsampling and DP as a test" (data-free; the page fills
them)."""

from __future__ import annotations

from lessons.subsampling.model import (
    ACCOUNTANTS,
    AMPLIFICATION_CURVES,
    AMPLIFIED_DOMAIN,
    COMPOSED_DOMAIN,
    RATE_DOMAIN,
    STEPS,
    TRADEOFF_CURVES,
)
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

RATE_TICKS = (0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0)


@datasets.cached()
def amplification() -> Template:
    """Template: ε' of the sampled mechanism against q (both axes log), beside q·ε and ε,
    with the current q's ε' as a diamond. Datasets "curves" (q, epsilon, curve) and "mark"
    (q, epsilon)."""
    return ui_charts.curves(
        ui_charts.Axis(
            "q", "sampling rate q (log scale)", RATE_DOMAIN, log=True, values=RATE_TICKS, tip="q"
        ),
        ui_charts.Axis(
            "epsilon",
            "ε (log scale)",
            AMPLIFIED_DOMAIN,
            log=True,
            format=ui_charts.POWERS,
            values=(1e-4, 1e-3, 0.01, 0.1, 1.0, 10.0),
            tip="ε",
            tip_format=".3~g",
        ),
        ui_charts.Series("curve", AMPLIFICATION_CURVES, legend="stacked"),
        mark="mark",
        mark_label=False,  # model.amplification_mark
    )


TRADEOFF_COLOURS = (ui_charts.BLUE, ui_charts.BLACK, ui_charts.GREY, ui_charts.ORANGE)
TRADEOFF_DASHES = ((1, 0), (6, 3), (2, 2), (1, 0))
TRADEOFF_WIDTHS = (3.0, 2.5, 1.5, 2.0)


@datasets.cached()
def tradeoff() -> Template:
    """Template: the trade-off curves β(α) of μ-GDP and of the (ε, δ(ε))-DP line that touches
    it, the coin's diagonal, and the tracing attack's own (α, β) over its thresholds, with
    its point at 1% false positives as a diamond, its words in the page's title (both axes
    0..100%). Datasets "curves" (alpha, beta, curve) and "mark" (alpha, beta)."""
    x = ui_charts.Axis(
        "alpha",
        "α: false positives (non-members flagged)",
        (0.0, 1.0),
        format="~%",
        tip="α",
        tip_format=".1%",
    )
    y = ui_charts.Axis(
        "beta",
        "β: misses (members not found)",
        (0.0, 1.0),
        format="~%",
        tip="β",
        tip_format=".1%",
    )
    series = ui_charts.Series(
        "curve",
        TRADEOFF_CURVES,
        colours=TRADEOFF_COLOURS,
        dashes=TRADEOFF_DASHES,
        widths=TRADEOFF_WIDTHS,
        legend="stacked",
    )
    # the diamond's words are the title's second line: beside it, "misses 72%" (μ = 4, a
    # phone) was crossed by the coin's diagonal, and the attack's curve runs by it
    layers = ui_charts.curve_layers(x, y, series, mark="mark", mark_label=False)
    return Template(layers.properties(height=320, width=ui_charts.DEFAULT_WIDTH))


@datasets.cached()
def composition() -> Template:
    """Template: DP-SGD's ε at δ = 10⁻⁵ against the number of steps T (both axes log) by the
    GDP central limit theorem and by dp-accounting's PLD and RDP accountants, points at the
    computed T, the T read as a labelled dashed rule. Datasets "curves" (steps, epsilon,
    accountant) and "truth" (x, label)."""
    return ui_charts.curves(
        ui_charts.Axis.on_grid("steps", "steps T (log scale)", STEPS, format=",d", tip="T"),
        ui_charts.Axis(
            "epsilon",
            "ε at δ = 10⁻⁵ (log scale)",
            COMPOSED_DOMAIN,
            log=True,
            format=",~r",
            values=(0.01, 0.1, 1.0, 10.0, 100.0, 1_000.0),
            tip="ε",
            tip_format=".3~g",
        ),
        ui_charts.Series("accountant", ACCOUNTANTS, legend="stacked"),
        points=True,
        rule=True,
        rule_flip_at=1_000.0,
    )
