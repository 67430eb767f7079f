"""Chart templates of the lesson "Large domains and shuffling" (data-free; the page fills
them)."""

from __future__ import annotations

import altair as alt

from lessons.large_domains.model import EPSILON0S, ORACLES
from ui import charts as ui_charts
from ui import datasets
from ui import text as ui_text

STACKED = alt.Legend(orient="bottom", title=None, direction="vertical", labelLimit=0)
ORACLE_COLOURS = [ui_charts.BLUE, ui_charts.ORANGE, ui_charts.GREEN]
# OUE's and OLH's errors coincide: OUE is drawn wide and solid beneath, OLH dotted on top, so
# both show (and the legend says which is which by more than colour).
ORACLE_DASHES = [[1, 0], [1, 0], [2, 4]]
ORACLE_WIDTHS = [2.5, 6.0, 2.5]
K_SCALE = alt.Scale(type="log", domain=[2, 100_000], nice=False)
K_AXIS = alt.Axis(values=[2, 10, 100, 1_000, 10_000, 100_000], format=",~r")


def _by_oracle(channel, values: list):
    """One encoding channel (colour, dash, width) by oracle, in ORACLES' order, with the
    one stacked legend the three channels share."""
    return channel(
        "oracle:N",
        sort=list(ORACLES),
        scale=alt.Scale(domain=list(ORACLES), range=values),
        legend=STACKED,
    )


def _oracle_colour() -> alt.Color:
    return _by_oracle(alt.Color, ORACLE_COLOURS)


@datasets.cached(max_entries=4)
def sd_by_k(height: int = 260) -> ui_charts.Template:
    """Template: the standard deviation of one estimated count against k (log-log, fixed) for
    GRR, OUE and OLH, and the crossover k* as a labelled rule. Datasets "curves" (k, oracle,
    sd, bits) and "truth" (x, label)."""
    lines = (
        alt.Chart(alt.NamedData(name="curves"))
        .mark_line()
        .encode(
            x=alt.X(
                "k:Q", title="k, the values a user may hold (log scale)", scale=K_SCALE, axis=K_AXIS
            ),
            strokeDash=_by_oracle(alt.StrokeDash, ORACLE_DASHES),
            strokeWidth=_by_oracle(alt.StrokeWidth, ORACLE_WIDTHS),
            y=alt.Y(
                "sd:Q",
                title="typical error of one count",
                scale=alt.Scale(type="log", domain=[50, 500_000], nice=False, clamp=True),
                axis=alt.Axis(format=",~r"),
            ),
            color=_oracle_colour(),
            tooltip=[
                alt.Tooltip("oracle:N"),
                alt.Tooltip("k:Q", format=","),
                alt.Tooltip("sd:Q", format=",.0f", title="typical error"),
            ],
        )
    )
    rule = ui_charts.truth_rule_layers(K_SCALE, label_dy=4, flip_at=2_000)
    return ui_charts.Template(
        (lines + rule).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    )


@datasets.cached(max_entries=4)
def bits_by_k(height: int = 200) -> ui_charts.Template:
    """Template: the bits each user sends against k (log-log, fixed). Dataset "curves"."""
    lines = (
        alt.Chart(alt.NamedData(name="curves"))
        .mark_line(strokeWidth=2.5)
        .encode(
            x=alt.X("k:Q", title="k (log scale)", scale=K_SCALE, axis=K_AXIS),
            y=alt.Y(
                "bits:Q",
                title="bits each user sends",
                scale=alt.Scale(type="log", domain=[1, 100_000], nice=False),
                axis=alt.Axis(format=",~r"),
            ),
            color=_oracle_colour(),
            tooltip=[
                alt.Tooltip("oracle:N"),
                alt.Tooltip("k:Q", format=","),
                alt.Tooltip("bits:Q", format=","),
            ],
        )
    )
    return ui_charts.Template(lines.properties(height=height, width=ui_charts.DEFAULT_WIDTH))


@datasets.cached(max_entries=4)
def live_estimates(height: int = 420) -> ui_charts.Template:
    """Template: for the 20 most common candidate ZIPs, the OLH estimate with its 95%
    interval and the true count as a black tick (x fixed −4,000..8,000). Dataset "zips"
    (zip, true count, estimate, low, high, heavy hitter)."""
    x_scale = alt.Scale(domain=[-4_000, 8_000], nice=False, clamp=True)
    base = alt.Chart(alt.NamedData(name="zips"))
    y = alt.Y("zip:N", sort=None, title="candidate ZIP code")
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
    return ui_charts.Template(
        (interval + estimate + truth).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    )


SERIES = tuple(f"ε₀ = {ui_text.number(e)}" for e in EPSILON0S)


@datasets.cached(max_entries=4)
def shuffle_by_n(height: int = 260) -> ui_charts.Template:
    """Template: the central ε of n shuffled ε₀-LDP reports against n (log-log, fixed), one
    line per ε₀ where the theorem applies, the chosen n as a rule. Datasets "curves" (n,
    series, epsilon) and "truth" (x, label)."""
    x_scale = alt.Scale(type="log", domain=[1_000, 10_000_000], nice=False)
    lines = (
        alt.Chart(alt.NamedData(name="curves"))
        .mark_line(strokeWidth=2.5)
        .encode(
            x=alt.X(
                "n:Q",
                title="users n (log scale)",
                scale=x_scale,
                axis=alt.Axis(values=[1_000, 10_000, 100_000, 1_000_000, 10_000_000], format=",~r"),
            ),
            y=alt.Y(
                "epsilon:Q",
                title="central ε after shuffling",
                scale=alt.Scale(type="log", domain=[0.001, 10], nice=False, clamp=True),
                axis=ui_charts.power_of_ten_axis(values=[0.001, 0.01, 0.1, 1, 10]),
            ),
            color=alt.Color(
                "series:N",
                sort=list(SERIES),
                scale=alt.Scale(domain=list(SERIES)),
                legend=alt.Legend(orient="bottom", title=None, columns=3),
            ),
            tooltip=[
                alt.Tooltip("series:N", title="each user"),
                alt.Tooltip("n:Q", format=","),
                alt.Tooltip("epsilon:Q", format=".3g", title="central ε"),
            ],
        )
    )
    rule = ui_charts.truth_rule_layers(x_scale, label_dy=4, flip_at=1_000_000)
    return ui_charts.Template(
        (lines + rule).properties(height=height, width=ui_charts.DEFAULT_WIDTH)
    )
