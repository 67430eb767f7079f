"""Chart templates of the lesson "DP group-by" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt

from lessons.groupby.model import GRID_L0, GRID_LINF, LAPLACE_RULE, OPTIMAL_RULE, SELECTION_USERS
from ui import charts as ui_charts
from ui import datasets

ERROR_DOMAIN = (10.0, 10_000.0)  # the total error per clinic count, every ε on the slider
RULE_COLOURS = [ui_charts.BLUE, ui_charts.VERMILLION]
RULE_DASHES = [[1, 0], [6, 3]]


@datasets.cached()
def error_heatmap() -> ui_charts.Template:
    """Template: total error per clinic count over (L∞ across, L0 down), log colour on a fixed
    domain, each cell's value written in it, the lowest total outlined in black and the
    student's choice in white. Datasets "grid" (l0, linf, bias, noise, total) and "marks"
    (l0, linf, label)."""
    x = alt.X(
        "linf:O",
        title="L∞: visits counted per person and clinic",
        sort=list(GRID_LINF),
        axis=alt.Axis(labelAngle=0),
    )
    y = alt.Y("l0:O", title="L0: clinics counted per person", sort=list(GRID_L0))
    grid = alt.Chart(alt.NamedData(name="grid"))
    cells = grid.mark_rect().encode(
        x=x,
        y=y,
        color=alt.Color(
            "total:Q",
            title="total error (log)",
            scale=alt.Scale(type="log", domain=list(ERROR_DOMAIN), scheme="viridis", clamp=True),
            legend=alt.Legend(orient="bottom", format=",~r"),
        ),
        tooltip=[
            alt.Tooltip("l0:O", title="L0"),
            alt.Tooltip("linf:O", title="L∞"),
            alt.Tooltip("bias:Q", format=",.0f", title="rows dropped (RMS)"),
            alt.Tooltip("noise:Q", format=",.0f", title="noise SD"),
            alt.Tooltip("total:Q", format=",.0f", title="total error"),
        ],
    )
    values = grid.mark_text(fontSize=11).encode(
        x=x,
        y=y,
        text=alt.Text("total:Q", format=",.0f"),
        color=alt.condition(
            alt.datum.total > 300, alt.value(ui_charts.BLACK), alt.value("#ffffff")
        ),
    )
    marks = (
        alt.Chart(alt.NamedData(name="marks"))
        .mark_rect(fill=None, strokeWidth=3)
        .encode(
            x=x,
            y=y,
            stroke=alt.Stroke(
                "label:N",
                scale=alt.Scale(range=[ui_charts.BLACK, ui_charts.ORANGE]),
                legend=ui_charts.STACKED_LEGEND,
            ),
        )
    )
    return ui_charts.Template(
        (cells + values + marks).properties(height=260, width=ui_charts.DEFAULT_WIDTH)
    )


@datasets.cached()
def selection_curves() -> ui_charts.Template:
    """Template: the chance that a partition touched by n users is released (0..100%, n on
    0..100), one line per rule, coloured and dashed; 50% as a labelled rule and each rule's
    smallest group shown half the time as a point. Datasets "curves" (users, probability,
    rule), "half" (y, label) and "points" (users, probability, rule)."""
    x = alt.X(
        "users:Q",
        title="users who touch the partition",
        scale=alt.Scale(domain=[0, int(SELECTION_USERS[-1])], nice=False),
    )
    y = alt.Y(
        "probability:Q",
        title="chance it is released",
        scale=alt.Scale(domain=[0.0, 1.0]),
        axis=alt.Axis(format="%"),
    )
    rules = [OPTIMAL_RULE, LAPLACE_RULE]
    colour = alt.Color(
        "rule:N",
        scale=alt.Scale(domain=rules, range=RULE_COLOURS),
        legend=ui_charts.STACKED_LEGEND,
    )
    dash = alt.StrokeDash("rule:N", scale=alt.Scale(domain=rules, range=RULE_DASHES), legend=None)
    lines = (
        alt.Chart(alt.NamedData(name="curves"))
        .mark_line(strokeWidth=2.5, interpolate="step-after")
        .encode(
            x=x,
            y=y,
            color=colour,
            strokeDash=dash,
            tooltip=[
                alt.Tooltip("rule:N"),
                alt.Tooltip("users:Q", title="users"),
                alt.Tooltip("probability:Q", format=".3~%", title="chance released"),
            ],
        )
    )
    points = (
        alt.Chart(alt.NamedData(name="points"))
        .mark_point(size=90, filled=True)
        .encode(x=x, y=y, color=colour, shape=alt.Shape("rule:N", legend=None))
    )
    half = ui_charts.reference_line_layers(
        alt.NamedData(name="half"), "y", y_scale=alt.Scale(domain=[0.0, 1.0])
    )
    return ui_charts.Template(
        (lines + points + half).properties(height=260, width=ui_charts.DEFAULT_WIDTH)
    )
