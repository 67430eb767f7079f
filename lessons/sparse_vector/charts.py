"""Chart templates of the lesson "The sparse vector technique" (data-free; the page fills
them). The chance-of-each-outcome bars and the curves against ε are the ones of "Choosing
privately" (report noisy max draws the same kind of picture), from ui/charts.py."""

from __future__ import annotations

import altair as alt

from lessons.sparse_vector.model import AGE_STARTS, HOURS_OVER, MAX_POSITIVES, MEASURES
from ui import charts as ui_charts
from ui import datasets
from ui.controls import LOW_EPSILON_CURVE as CURVE_EPSILONS
from ui.template import Template

EPSILON_DOMAIN = (float(CURVE_EPSILONS[0]), float(CURVE_EPSILONS[-1]))  # as "Choosing"'s
win_bars = ui_charts.win_bars


def win_curves(series: tuple[str, ...], y_title: str) -> Template:
    """ui.charts.win_curves over the ε range of "Choosing privately"."""
    # ε's label left of its rule from 0.01 on (a decade of room): on the right, "ε = 0.01"
    # was crossed by the true positive's climb to 100% on a projector; on the left, at the
    # top where the label is, the curves are lower (all under 75% at the default T)
    return ui_charts.win_curves(series, EPSILON_DOMAIN, y_title=y_title, rule_flip_at=0.01)


COUNT_DOMAIN = (0.0, 1_800.0)  # the largest census answer is 1,591
SIDE_COLOURS = {"at or above T": ui_charts.BLUE, "below T": ui_charts.GREY}
MEASURE_COLOURS = [ui_charts.VERMILLION, ui_charts.ORANGE]
PER_RUN_DOMAIN = (0.0, 10.0)  # at most 9 true positives at the lowest threshold
AUDIT_DOMAIN = (0.0, 12.0)  # the audit's ceiling with 1,000,000 runs is 11.0


@datasets.cached(max_entries=4)
def answers_bars(height: int = 260) -> Template:
    """Template: one bar per query (age band) for its true count (fixed y 0..1,800), coloured
    by its side of T, and T as a labelled dashed line. Datasets "answers" (query, true
    count, side) and "threshold" (y, label)."""
    y_scale = alt.Scale(domain=list(COUNT_DOMAIN), nice=False)
    order = [f"aged {a}–{a + 4}" for a in AGE_STARTS]
    bars = (
        alt.Chart(alt.NamedData(name="answers"))
        .mark_bar()
        .encode(
            x=alt.X(
                "query:N",
                sort=order,
                title=f"people working over {HOURS_OVER} hours a week, by age",
                axis=alt.Axis(labelAngle=-45, labelLimit=120),
            ),
            y=alt.Y("true count:Q", title="true count", scale=y_scale, axis=alt.Axis(format=",~r")),
            color=alt.Color(
                "side:N",
                scale=alt.Scale(domain=list(SIDE_COLOURS), range=list(SIDE_COLOURS.values())),
                legend=alt.Legend(orient="top", title=None, direction="horizontal"),
            ),
            tooltip=[
                alt.Tooltip("query:N"),
                alt.Tooltip("true count:Q", format=","),
                alt.Tooltip("side:N", title="side of T"),
            ],
        )
    )
    # T as a dashed line labelled above it, on the bars' axis (thousands with a comma)
    base = alt.Chart(alt.NamedData(name="threshold"))
    y = alt.Y("y:Q", scale=y_scale, axis=alt.Axis(format=",~r"), title="true count")
    line = base.mark_rule(color=ui_charts.BLACK, strokeDash=[6, 3], strokeWidth=2).encode(y=y)
    line += base.mark_text(
        align="left", dx=4, dy=-6, color=ui_charts.BLACK, fontWeight="bold"
    ).encode(x=alt.value(0), y=y, text="label:N")
    return Template((bars + line).properties(height=height, width=ui_charts.DEFAULT_WIDTH))


def misses_by_c(height: int = 240) -> Template:
    """Template: true positives missed and false positives reported per run (fixed y 0..10)
    against c = 1..8, the current c as a labelled rule. Datasets "curves" (c, measure, value)
    and "truth" (x, label)."""
    return ui_charts.curves(
        ui_charts.Axis.on_grid(
            "c",
            "c, the positives allowed (each costs ε/c)",
            MAX_POSITIVES,
            log=False,
            format="d",
            tip="c",
        ),
        ui_charts.Axis(
            "value", "per run, on average", PER_RUN_DOMAIN, tip="per run", tip_format=".2f"
        ),
        ui_charts.Series("measure", MEASURES, colours=tuple(MEASURE_COLOURS), legend="stacked"),
        points=True,
        rule=True,
        rule_flip_at=6.5,
        height=height,
    )


@datasets.cached(max_entries=4)
def audit_bars(labels: tuple[str, ...], height: int = 200) -> Template:
    """Template: one bar per variant for the ε its audit measured (a lower bound; x fixed
    0..12), coloured by the verdict, and the claimed ε as a labelled rule. Datasets "audit"
    (label, measured, verdict) and "truth" (x, label)."""
    x_scale = alt.Scale(domain=list(AUDIT_DOMAIN), nice=False, clamp=True)
    bars = (
        alt.Chart(alt.NamedData(name="audit"))
        .mark_bar()
        .encode(
            y=alt.Y("label:N", sort=list(labels), title=None, axis=alt.Axis(labelLimit=200)),
            x=alt.X(
                "measured:Q",
                title="ε measured by the audit (a lower bound)",
                scale=x_scale,
                axis=alt.Axis(values=list(range(0, 13, 2)), format="d"),
            ),
            color=alt.Color(
                "verdict:N",
                scale=alt.Scale(
                    domain=["caught", "not caught"], range=[ui_charts.VERMILLION, ui_charts.BLUE]
                ),
                legend=ui_charts.STACKED_LEGEND,
            ),
            tooltip=[
                alt.Tooltip("label:N", title="variant"),
                alt.Tooltip("measured:Q", format=".2f", title="measured ε ≥"),
                alt.Tooltip("verdict:N"),
            ],
        )
    )
    rule = ui_charts.truth_rule_layers(x_scale, label_dy=4, flip_at=9.0)
    return Template(
        (bars + rule).properties(
            height=max(height, 32 * len(labels)), width=ui_charts.DEFAULT_WIDTH
        )
    )
