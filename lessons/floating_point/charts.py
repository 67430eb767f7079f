"""Chart templates of the lesson "When code breaks the proof" (data-free; the
page fills them)."""

from __future__ import annotations

import altair as alt

from lessons.floating_point.model import (
    CELLS,
    DRAWN,
    MECHANISMS,
    NOT_REACHED,
    REACHED,
    ROWS,
    VERDICTS,
)
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

VERDICT_COLOURS = (ui_charts.GREY, ui_charts.BLUE, ui_charts.VERMILLION)


@datasets.cached()
def verdicts() -> Template:
    """Template: for the outputs drawn from each count, the share that both counts can
    produce and the shares only one of them can (stacked bars, 0..100%). Dataset "verdicts"
    (drawn, verdict, share)."""
    chart = (
        alt.Chart(alt.NamedData(name="verdicts"))
        .mark_bar(stroke=ui_charts.BLACK, strokeWidth=0.5)
        .encode(
            x=alt.X(
                "share:Q",
                title="share of the outputs",
                scale=alt.Scale(domain=[0.0, 1.0], nice=False),
                axis=alt.Axis(format="%"),
                stack="zero",
            ),
            y=alt.Y("drawn:N", title=None, sort=list(DRAWN), axis=alt.Axis(labelLimit=200)),
            color=alt.Color(
                "verdict:N",
                sort=list(VERDICTS),
                scale=alt.Scale(domain=list(VERDICTS), range=list(VERDICT_COLOURS)),
                legend=ui_charts.STACKED_LEGEND,
            ),
            order=alt.Order("order:Q"),
            tooltip=[
                alt.Tooltip("drawn:N", title="outputs"),
                alt.Tooltip("verdict:N"),
                alt.Tooltip("share:Q", format=".1%"),
            ],
        )
        .transform_calculate(order=f"indexof({list(VERDICTS)!r}, datum.verdict)".replace("'", '"'))
        .properties(height=110, width=ui_charts.DEFAULT_WIDTH)
    )
    return Template(chart)


REACHED_COLOURS = (ui_charts.BLUE, "#FFFFFF")


@datasets.cached()
def microscope() -> Template:
    """Template: CELLS consecutive doubles (columns) and, per count (rows), whether the
    textbook sampler ever outputs each: a filled square if it does, an empty one if not.
    Dataset "doubles" (double, drawn, reached, value)."""
    chart = (
        alt.Chart(alt.NamedData(name="doubles"))
        .mark_square(size=50, stroke=ui_charts.BLACK, strokeWidth=1)
        .encode(
            x=alt.X(
                "double:O",
                title=f"{CELLS} consecutive doubles, left to right",
                axis=alt.Axis(labels=False, ticks=False),
            ),
            y=alt.Y("drawn:N", title=None, sort=list(ROWS), axis=alt.Axis(labelLimit=200)),
            fill=alt.Fill(
                "reached:N",
                sort=[REACHED, NOT_REACHED],
                scale=alt.Scale(domain=[REACHED, NOT_REACHED], range=list(REACHED_COLOURS)),
                legend=ui_charts.ROW_LEGEND,
            ),
            tooltip=[
                alt.Tooltip("value:N", title="the double"),
                alt.Tooltip("drawn:N", title="from"),
                alt.Tooltip("reached:N", title="is it"),
            ],
        )
        .properties(height=90, width=ui_charts.DEFAULT_WIDTH)
    )
    return Template(chart)


FIX_COLOURS = (ui_charts.VERMILLION, ui_charts.BLUE, ui_charts.GREEN)
# the rows leave a strip above the first bar for the rule's label (28 px in 160): written
# over the first bar, it ran into that bar's value on a phone ("tanh(ε/2) = 46.2%" over 79.9%)
FIX_ROWS = alt.Scale(paddingOuter=0.8)


@datasets.cached()
def fixes() -> Template:
    """Template: per mechanism, the share of its outputs that name the count they came from
    (bars, 0..100%), and the most any test may tell the counts apart under ε-DP as a labelled
    dashed rule. Datasets "fixes" (mechanism, named, at, left: where its value is written)
    and "truth" (x, label)."""
    x_scale = alt.Scale(domain=[0.0, 1.0], nice=False)
    bars = (
        alt.Chart(alt.NamedData(name="fixes"))
        .mark_bar()
        .encode(
            x=alt.X(
                "named:Q",
                title="outputs that name their count",
                scale=x_scale,
                axis=alt.Axis(format="%"),
            ),
            y=alt.Y(
                "mechanism:N",
                title=None,
                sort=list(MECHANISMS),
                axis=alt.Axis(labelLimit=200),
                scale=FIX_ROWS,
            ),
            color=alt.Color(
                "mechanism:N",
                sort=list(MECHANISMS),
                scale=alt.Scale(domain=list(MECHANISMS), range=list(FIX_COLOURS)),
                legend=None,
            ),
            tooltip=[alt.Tooltip("mechanism:N"), alt.Tooltip("named:Q", format=".2%")],
        )
    )
    # the value at each bar's end (a bar of 0% is otherwise nothing to see), or past the
    # ceiling's rule where the rule would cross it (model.value_place: "at", "left")
    encoding = {
        "x": alt.X("at:Q", scale=x_scale),
        "y": alt.Y("mechanism:N", sort=list(MECHANISMS), scale=FIX_ROWS),
        "text": alt.Text("named:Q", format=".1%"),
    }
    base = alt.Chart(alt.NamedData(name="fixes"))
    values = base.mark_text(align="left", dx=4, color=ui_charts.BLACK).encode(
        **encoding
    ).transform_filter(~alt.datum.left) + base.mark_text(
        align="right", dx=-4, color=ui_charts.BLACK
    ).encode(**encoding).transform_filter(alt.datum.left)
    rule = ui_charts.truth_rule_layers(x_scale, label_dy=4, flip_at=0.6)
    return Template((bars + values + rule).properties(height=160, width=ui_charts.DEFAULT_WIDTH))
