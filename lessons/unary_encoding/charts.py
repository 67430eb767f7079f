"""Chart templates of the lesson "Unary encoding" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt

from lessons.unary_encoding.model import (
    COMPARE_HEIGHT,
    COMPARE_K_DOMAIN,
    COMPARE_KS,
    COMPARE_LABEL_TOPS,
    STEP_ROWS,
)
from ui import charts as ui_charts
from ui import datasets
from ui.categories import Attribute, count_domain
from ui.template import Template


@datasets.cached(max_entries=64)
def journey(attr: Attribute) -> Template:
    """Template: a 3 × k grid of cells, shaded by value (white 0 → blue 1) and labelled
    with the value itself, so the meaning never rests on colour."""
    encoding = dict(
        x=alt.X(
            "bit:N",
            sort=list(attr.labels),
            title=None,
            axis=alt.Axis(labelAngle=-55, labelLimit=120, labelOverlap=False),
        ),
        y=alt.Y("step:N", sort=list(STEP_ROWS), title=None, axis=alt.Axis(labelLimit=130)),
    )
    # Two names for the same rows: layers sharing one dataset get it lifted to the top
    # level, which Streamlit draws empty.
    cells = (
        alt.Chart(alt.NamedData(name="cells"))
        .mark_rect(stroke=ui_charts.GREY, strokeWidth=1)
        .encode(
            **encoding,
            fill=alt.Fill(
                "shade:Q",
                scale=alt.Scale(domain=[0, 1], range=["#ffffff", ui_charts.BLUE]),
                legend=None,
            ),
            tooltip=[
                alt.Tooltip("bit:N"),
                alt.Tooltip("step:N"),
                alt.Tooltip("text:N", title="value"),
            ],
        )
    )
    text = (
        alt.Chart(alt.NamedData(name="cell_labels"))
        .mark_text(fontSize=11, fontWeight="bold")
        .encode(
            **encoding,
            text="short:N",
            color=alt.condition("datum.shade > 0.55", alt.value("white"), alt.value("black")),
        )
    )
    return Template((cells + text).properties(width=ui_charts.DEFAULT_WIDTH, height=110))


@datasets.cached(max_entries=64)
def estimate(attr: Attribute) -> Template:
    """Template: estimated count per category (bars) with ±2 SD error bars (black
    whiskers, ending in an arrowhead where cut at the axis's edge) and the true count
    (vermillion tick), on the attribute's fixed axis."""
    lo, hi = count_domain(attr)
    x_scale = alt.Scale(domain=[lo, hi], nice=False)
    y = alt.Y("category:N", sort=list(attr.labels), title=None, axis=alt.Axis(labelLimit=140))
    bars_data = alt.Chart(alt.NamedData(name="bars"))
    bars = bars_data.mark_bar(color=ui_charts.SKY, height=14).encode(
        y=y,
        x=alt.X("shown:Q", title="people", scale=x_scale, axis=alt.Axis(format=",.0f")),
        tooltip=[
            alt.Tooltip("category:N"),
            alt.Tooltip("estimate:Q", format=",.0f"),
            alt.Tooltip("low:Q", format=",.0f", title="estimate − 2 SD"),
            alt.Tooltip("high:Q", format=",.0f", title="estimate + 2 SD"),
        ],
    )
    whiskers = bars_data.mark_errorbar(ticks=True, color=ui_charts.BLACK, thickness=1.5).encode(
        y=y, x=alt.X("shown_low:Q", scale=x_scale, title="people"), x2="shown_high:Q"
    )
    # a whisker cut at the axis's edge ends in an arrowhead pointing on (a "«" or "»" at the
    # plot's left edge was crossed by the cut whisker itself, and "»" pointed the wrong way)
    edges = alt.layer(
        *(
            bars_data.transform_filter(alt.datum[beyond])
            .mark_point(
                shape=shape,
                filled=True,
                size=90,
                color=ui_charts.BLACK,
                opacity=1,
                xOffset=offset,
                aria=False,  # the caption says it; an empty symbol group has no name (axe)
            )
            .encode(y=y, x=alt.X(f"{end}:Q", scale=x_scale))
            for beyond, end, shape, offset in (
                ("beyond_low", "shown_low", "triangle-left", 5),
                ("beyond_high", "shown_high", "triangle-right", -5),
            )
        )
    )
    ticks = ui_charts.truth_ticks(y, x_scale, size=24, colour=ui_charts.VERMILLION)
    zero = (
        alt.Chart(alt.Data(values=[{"x": 0}]))
        .mark_rule(color=ui_charts.GREY)
        .encode(x=alt.X("x:Q", scale=x_scale))
    )
    chart = (zero + bars + whiskers + ticks + edges).properties(
        width=ui_charts.DEFAULT_WIDTH, height=30 * attr.k
    )
    return Template(chart)


@datasets.cached(max_entries=64)
def comparison(domain: tuple[float, float]) -> Template:
    """Template: log-log variance versus k; GRR solid blue, OUE dashed orange, each
    labelled at its right end; the crossover k* as a dashed vertical rule with its value;
    the attribute's k as a grey rule."""
    x_scale = alt.Scale(type="log", domain=list(COMPARE_K_DOMAIN), nice=False)
    x = alt.X(
        "k:Q",
        title="number of categories k (log scale)",
        scale=x_scale,
        axis=alt.Axis(values=[2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]),
    )
    y = alt.Y(
        "variance:Q",
        title="variance of one count (log scale)",
        scale=alt.Scale(type="log", domain=list(domain)),
        axis=alt.Axis(format=",~r"),
    )
    protocols = ["GRR", "OUE"]
    curves = alt.Chart(alt.NamedData(name="curves"))
    lines = curves.mark_line(strokeWidth=2.5).encode(
        x=x,
        y=y,
        color=alt.Color(
            "protocol:N",
            scale=alt.Scale(domain=protocols, range=[ui_charts.BLUE, ui_charts.ORANGE]),
            legend=None,
        ),
        strokeDash=alt.StrokeDash(
            "protocol:N", scale=alt.Scale(domain=protocols, range=[[1, 0], [7, 4]]), legend=None
        ),
        tooltip=[
            alt.Tooltip("protocol:N"),
            alt.Tooltip("k:Q"),
            alt.Tooltip("variance:Q", format=",.0f"),
        ],
    )
    # each line's name at its right end: above the upper line, under the lower one (above
    # both, "GRR" was written over "OUE" where the lines end close, ε = 5: k* = 447)
    ends = curves.transform_filter(f"datum.k == {COMPARE_KS[-1]}").transform_joinaggregate(
        top="max(variance)"
    )
    labels = [
        ends.transform_filter(upper)
        .mark_text(align="right", dy=dy, fontWeight="bold")
        .encode(
            x=x,
            y=y,
            text="protocol:N",
            color=alt.Color(
                "protocol:N",
                scale=alt.Scale(domain=protocols, range=[ui_charts.BLUE, ui_charts.ORANGE]),
                legend=None,
            ),
        )
        for upper, dy in (
            (alt.datum.variance == alt.datum.top, -9),
            (alt.datum.variance < alt.datum.top, 11),
        )
    ]
    marks = alt.Chart(alt.NamedData(name="marks"))
    rules = marks.mark_rule(strokeDash=[4, 3], strokeWidth=1.5).encode(
        x=alt.X("k:Q", scale=x_scale),
        color=alt.Color("colour:N", scale=None),
    )
    rule_text = [
        marks.transform_filter(
            f"datum.shown && datum.row == {row} && datum.left == {str(left).lower()}"
        )
        .mark_text(
            align="right" if left else "left",
            dx=-4 if left else 4,
            dy=dy,
            baseline="top",
            fontWeight="bold",
        )
        .encode(
            x=alt.X("k:Q", scale=x_scale),
            y=alt.value(0),
            text="label:N",
            color=alt.Color("colour:N", scale=None),
        )
        for row, dy in enumerate(COMPARE_LABEL_TOPS)  # a line apart on a projector too
        for left in (False, True)
    ]
    chart = alt.layer(lines, *labels, rules, *rule_text).properties(
        width=ui_charts.DEFAULT_WIDTH, height=COMPARE_HEIGHT
    )
    return Template(chart)
