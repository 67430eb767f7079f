"""Chart templates of the lesson "Large domains and shuffling" (data-free; the page fills
them)."""

from __future__ import annotations

from dataclasses import replace

import altair as alt

from lessons.large_domains.model import EPSILON0S, ORACLES
from ui import charts as ui_charts
from ui import datasets
from ui import text as ui_text
from ui.template import Template

# OUE's and OLH's errors coincide: OUE is drawn wide and solid beneath, OLH dotted on top, so
# both show (and the legend says which is which by more than colour).
BY_ORACLE = ui_charts.Series(
    "oracle",
    ORACLES,
    colours=(ui_charts.BLUE, ui_charts.ORANGE, ui_charts.GREEN),
    dashes=((1, 0), (1, 0), (2, 4)),
    widths=(2.5, 6.0, 2.5),
    legend="stacked",
)
K_AXIS = ui_charts.Axis(
    "k",
    "k, the values a user may hold (log scale)",
    (2, 100_000),
    log=True,
    format=",~r",
    values=(2, 10, 100, 1_000, 10_000, 100_000),
    tip="k",
    tip_format=",",
)


def sd_by_k(height: int = 260) -> Template:
    """Template: the standard deviation of one estimated count against k (log-log, fixed) for
    GRR, OUE and OLH, and the crossover k* as a labelled rule. Datasets "curves" (k, oracle,
    sd, bits) and "truth" (x, label)."""
    return ui_charts.curves(
        K_AXIS,
        ui_charts.Axis(
            "sd",
            "typical error of one count",
            (50, 500_000),
            log=True,
            format=",~r",
            tip="typical error",
            tip_format=",.0f",
        ),
        BY_ORACLE,
        rule=True,
        rule_flip_at=2_000,
        height=height,
    )


def bits_by_k(height: int = 200) -> Template:
    """Template: the bits each user sends against k (log-log, fixed). Dataset "curves"."""
    return ui_charts.curves(
        replace(K_AXIS, title="k (log scale)"),
        ui_charts.Axis("bits", "bits each user sends", (1, 100_000), log=True, format=",~r"),
        replace(BY_ORACLE, dashes=((1, 0), (6, 3), (2, 2)), widths=None),
        height=height,
    )


@datasets.cached(max_entries=4)
def live_estimates(height: int = 420) -> Template:
    """Template: for the 20 most common candidate ZIPs, the OLH estimate with its 95%
    interval and the true count as a black tick (x fixed −4,000..8,000). Dataset "zips"
    (zip, true count, estimate, low, high, heavy hitter)."""
    x_scale = alt.Scale(domain=[-4_000, 8_000], nice=False, clamp=True)
    base = alt.Chart(alt.NamedData(name="zips"))
    # each ZIP's label on its own row: Streamlit's theme pushes an axis's end labels inside
    # it (labelFlush), and at the projector's font the first ZIP was written over the second
    y = alt.Y("zip:N", sort=None, title="candidate ZIP code", axis=alt.Axis(labelFlush=False))
    interval = base.mark_rule(color=ui_charts.BLUE, strokeWidth=2).encode(
        y=y, x=alt.X("low:Q", scale=x_scale, title="people"), x2="high:Q"
    )
    estimate = base.mark_point(filled=True, size=70).encode(
        y=y,
        x=alt.X("estimate:Q", scale=x_scale),
        color=alt.Color(
            "heavy hitter:N",
            scale=alt.Scale(
                domain=["found", "missed", "false alarm", "—"],
                range=[ui_charts.GREEN, ui_charts.VERMILLION, ui_charts.ORANGE, ui_charts.BLUE],
            ),
            legend=alt.Legend(orient="bottom", title="top-10 heavy hitter", direction="horizontal"),
        ),
        tooltip=[
            alt.Tooltip("zip:N"),
            alt.Tooltip("true count:Q", format=","),
            alt.Tooltip("estimate:Q", format=",.0f"),
            alt.Tooltip("low:Q", format=",.0f", title="95% from"),
            alt.Tooltip("high:Q", format=",.0f", title="to"),
        ],
    )
    truth = base.mark_tick(color=ui_charts.BLACK, thickness=3, size=14).encode(
        y=y, x=alt.X("true count:Q", scale=x_scale)
    )
    return Template(
        (interval + estimate + truth).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    )


SERIES = tuple(f"ε₀ = {ui_text.number(e)}" for e in EPSILON0S)


def shuffle_by_n(height: int = 260) -> Template:
    """Template: the central ε of n shuffled ε₀-LDP reports against n (log-log, fixed), one
    line per ε₀ where the theorem applies, the chosen n as a rule. Datasets "curves" (n,
    series, epsilon) and "truth" (x, label)."""
    return ui_charts.curves(
        ui_charts.Axis(
            "n",
            "users n (log scale)",
            (1_000, 10_000_000),
            log=True,
            format=",~r",
            values=(1_000, 10_000, 100_000, 1_000_000, 10_000_000),
            tip="n",
            tip_format=",",
        ),
        ui_charts.Axis(
            "epsilon",
            "central ε after shuffling",
            (0.001, 10),
            log=True,
            format=ui_charts.POWERS,
            values=(0.001, 0.01, 0.1, 1, 10),
            tip="central ε",
            tip_format=".3g",
        ),
        ui_charts.Series("series", SERIES, legend="two columns", tip="each user"),
        rule=True,
        rule_flip_at=1_000_000,
        height=height,
    )
