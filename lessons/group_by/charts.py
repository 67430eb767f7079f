"""Chart templates of the lesson "DP group-by" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt

from lessons.group_by.model import (
    GRID_L0,
    GRID_LINF,
    HALF,
    HALF_LABEL,
    LAPLACE_RULE,
    LOWEST,
    OPTIMAL_RULE,
    SELECTION_USERS,
    VISITS_FLOOR,
    YOUR_CHOICE,
)
from lessons.group_by.model import selection_curves as selection_frame
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

ERROR_DOMAIN = (10.0, 10_000.0)  # the total error per clinic count, every ε on the slider
TEXT_SWITCH = 180.0
RULE_COLOURS = [ui_charts.BLUE, ui_charts.VERMILLION]
RULE_DASHES = [[1, 0], [6, 3]]


@datasets.cached()
def error_heatmap() -> Template:
    """Template: total error per clinic count over (L∞ across, L0 down), log colour on a fixed
    domain, each cell's value written in it, the lowest total outlined in black and the
    student's choice in orange (the page's subtitle says so). Datasets "grid" (l0, linf,
    bias, noise, total) and "marks"
    (l0, linf, mark)."""
    x = alt.X(
        "linf:O",
        title="L∞ (visits per person and clinic)",
        sort=list(GRID_LINF),
        axis=alt.Axis(labelAngle=0),
    )
    y = alt.Y("l0:O", title="L0 (clinics per person)", sort=list(GRID_L0))
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
    values = grid.mark_text().encode(
        x=x,
        y=y,
        text=alt.Text("total:Q", format=",.0f"),
        # white on the dark (low) end of viridis, black on the light end: the switch at
        # 180 (log position 0.42, #2a788e) is where both reach about 4.5:1
        color=alt.condition(
            alt.datum.total > TEXT_SWITCH, alt.value(ui_charts.BLACK), alt.value("#ffffff")
        ),
    )
    marks = (
        alt.Chart(alt.NamedData(name="marks"))
        .mark_rect(fill=None, strokeWidth=3)
        .encode(
            x=x,
            y=y,
            stroke=alt.Stroke(
                "mark:N",
                scale=alt.Scale(
                    domain=[LOWEST, YOUR_CHOICE], range=[ui_charts.BLACK, ui_charts.ORANGE]
                ),
                legend=None,  # the title's subtitle says which outline is which
            ),
        )
    )
    return Template((cells + values + marks).properties(height=216, width=ui_charts.DEFAULT_WIDTH))


@datasets.cached()
def selection_curves() -> Template:
    """Template: the chance that a partition touched by n users is released (0..100%, n on
    a log axis 1..10,000), one line per rule, coloured and dashed; 50% as a labelled rule
    and each rule's smallest group shown half the time as a point. Datasets "curves" (users,
    probability, rule), "half" (y, label) and "points" (users, probability, rule)."""
    x = alt.X(
        "users:Q",
        title="users who touch the partition",
        scale=alt.Scale(type="log", domain=[1, int(SELECTION_USERS[-1])], nice=False),
        axis=alt.Axis(values=[1, 10, 100, 1_000, 10_000], format=",~r"),
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
    # "shown half the time" where neither rule's curve rises through it (half_place)
    half = ui_charts.reference_line_layers(
        alt.NamedData(name="half"),
        "y",
        y_scale=alt.Scale(domain=[0.0, 1.0]),
        right="right",
        below="under",
    )
    return Template(
        (lines + points + half).properties(height=SELECTION_HEIGHT, width=ui_charts.DEFAULT_WIDTH)
    )


SELECTION_HEIGHT = 220


@datasets.cached(max_entries=128, census_only=True)
def half_place(
    epsilon: float, delta: float, max_partitions: int, text_scale: float
) -> tuple[bool, bool]:
    """Where "shown half the time" goes on the 50% line, (right, under), clear of both
    rules' curves (ui.charts.level_label_places) in text `text_scale` times the page's
    (ui.template.current_text_scale): they rise through 50% near 10–20 users at ε = 1, so at
    its right end; near 600 and 1,100 users at ε = 0.01, where the Laplace threshold's curve
    crossed it there, so at its left end. Cached, the scale in the key (at 147 of the 684
    states presenter mode's larger text goes elsewhere; without it the first session to draw
    a state chose for every other): reading two curves of 300 points costs ~3 ms."""
    curves = selection_frame(epsilon, delta, max_partitions)
    first, *others = ui_charts.series_curves(
        curves, "rule", (OPTIMAL_RULE, LAPLACE_RULE), "users", "probability"
    )
    (place,) = ui_charts.level_label_places(
        [(HALF, HALF_LABEL)],
        *first,
        others=tuple(others),
        x_domain=(1.0, float(SELECTION_USERS[-1])),
        y_domain=(0.0, 1.0),
        x_log=True,
        height=SELECTION_HEIGHT,
        text_scale=text_scale,
    )
    return place


USERS_DOMAIN = (5.0, 20_000.0)
# users: the release's rule is labelled left of itself from here on. Its label (two lines,
# ~120 px) fits on either side of any rule from 140 to 700 users in a 290-px plot (the
# narrowest: a phone's, or a laptop's chart column); the rule runs from 6 to 7,459 users
# over the ε and δ sliders
RULE_FLIP_AT = 300.0
VISITS_DOMAIN = (VISITS_FLOOR, 50_000.0)
STATUS = ("released (noisy count)", "not released")


@datasets.cached()
def release() -> Template:
    """Template: every clinic at its number of users (after bounding, log x) against its
    visits (log y): a released clinic's noisy count as a filled blue circle, an unreleased
    one's true visits as a hollow grey square, each clinic's true visits as a black tick,
    and the smallest group the selection shows half the time as a labelled dashed rule.
    Datasets "clinics" (clinic, users, visits, true visits, status) and "truth" (x, label)."""
    x_scale = alt.Scale(type="log", domain=list(USERS_DOMAIN), nice=False)
    y_scale = alt.Scale(type="log", domain=list(VISITS_DOMAIN), nice=False, clamp=True)
    x = alt.X(
        "users:Q",
        title="users who visit the clinic (after bounding)",
        scale=x_scale,
        axis=alt.Axis(values=[10, 100, 1_000, 10_000], format=",~r", grid=False),
    )
    base = alt.Chart(alt.NamedData(name="clinics"))
    truth = base.mark_tick(color=ui_charts.BLACK, thickness=2, size=10).encode(
        x=x, y=alt.Y("true visits:Q", scale=y_scale)
    )
    points = base.mark_point(size=45, strokeWidth=1.5).encode(
        x=x,
        y=alt.Y(
            "visits:Q",
            title="visits (log scale)",
            scale=y_scale,
            axis=alt.Axis(values=[10, 100, 1_000, 10_000], format=",~r"),
        ),
        color=alt.Color(
            "status:N",
            scale=alt.Scale(domain=list(STATUS), range=[ui_charts.BLUE, ui_charts.GREY]),
            legend=ui_charts.STACKED_LEGEND,
        ),
        shape=alt.Shape(
            "status:N", scale=alt.Scale(domain=list(STATUS), range=["circle", "square"])
        ),
        fill=alt.Fill(
            "status:N",
            scale=alt.Scale(domain=list(STATUS), range=[ui_charts.BLUE, "#ffffff"]),
            legend=None,
        ),
        tooltip=[
            alt.Tooltip("clinic:N"),
            alt.Tooltip("users:Q", format=","),
            alt.Tooltip("true visits:Q", format=","),
            alt.Tooltip("visits:Q", format=",.0f", title="shown"),
            alt.Tooltip("status:N"),
        ],
    )
    rule = ui_charts.truth_rule_layers(x_scale, flip_at=RULE_FLIP_AT)
    return Template((truth + points + rule).properties(height=300, width=ui_charts.DEFAULT_WIDTH))
