"""Chart templates of the lesson "The 2020 Census in miniature" (data-free; the page fills
them)."""

from __future__ import annotations

import altair as alt

from lessons.census_topdown.model import ACCURATE, ERROR_FLOOR, FINAL, LEVELS, NOISY, bin_labels
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

LEVEL_KINDS = ("noise SD", "median cell count")


LEVELS_PX, LEVELS_PRESENTER_PX = 130, 200


@datasets.cached()
def levels(presenting: bool = False) -> Template:
    """Template: per level, the noise's SD against the median true count of its cells, on
    one log axis of people (0.1..10,000), taller in presenter mode (`presenting`). Dataset
    "levels" (level, kind, people)."""
    x_scale = alt.Scale(type="log", domain=[0.1, 10_000], nice=False, clamp=True)
    y = alt.Y("level:N", title=None, sort=list(LEVELS))
    colour = alt.Color(
        "kind:N",
        sort=list(LEVEL_KINDS),
        scale=alt.Scale(domain=list(LEVEL_KINDS), range=[ui_charts.VERMILLION, ui_charts.BLACK]),
        legend=ui_charts.ROW_LEGEND,
    )
    shape = alt.Shape(
        "kind:N",
        sort=list(LEVEL_KINDS),
        scale=alt.Scale(domain=list(LEVEL_KINDS), range=["circle", "square"]),
        legend=ui_charts.ROW_LEGEND,
    )
    base = alt.Chart(alt.NamedData(name="levels"))
    points = base.mark_point(filled=True, size=110).encode(
        x=alt.X(
            "people:Q",
            title="people (log scale)",
            scale=x_scale,
            axis=alt.Axis(values=[0.1, 1, 10, 100, 1_000, 10_000], format=",~r"),
        ),
        y=y,
        color=colour,
        shape=shape,
        tooltip=[
            alt.Tooltip("level:N"),
            alt.Tooltip("kind:N", title="what"),
            alt.Tooltip("people:Q", format=".3~g"),
        ],
    )
    label_encoding = {
        "x": alt.X("people:Q", scale=x_scale),
        "y": y,
        "text": alt.Text("people:Q", format=",.3~r"),
        "color": alt.Color(
            "kind:N",
            scale=alt.Scale(
                domain=list(LEVEL_KINDS), range=[ui_charts.VERMILLION, ui_charts.BLACK]
            ),
            legend=None,
        ),
    }
    # the noise's number below its point, the count's above: at a small ρ a level's noise
    # and its count are close (ZIP5 at ρ = 0.05: 4.47 and 6) and would be written over
    # each other
    kind = alt.datum.kind
    labels = base.mark_text(align="left", dx=9, dy=9, fontSize=11).encode(
        **label_encoding
    ).transform_filter(kind == LEVEL_KINDS[0]) + base.mark_text(
        align="left", dx=9, dy=-9, fontSize=11
    ).encode(**label_encoding).transform_filter(kind == LEVEL_KINDS[1])
    # 50 px a row in presenter mode: its 17-px labels sit 14 px off the row, so one level's
    # noise label and the next level's count label met at 32 px a row (ZIP3's "4.77" over
    # ZIP5's "6", ρ = 0.2). Elsewhere 32 px a row: on a phone the nation's weight slider and
    # this chart fit one screen only so.
    height = LEVELS_PRESENTER_PX if presenting else LEVELS_PX
    return Template((points + labels).properties(height=height, width=ui_charts.DEFAULT_WIDTH))


COUNT_KINDS = ("true", "noisy", "released")
COUNT_DOMAIN = (-10, 1_000)


@datasets.cached()
def children() -> Template:
    """Template: one ZIP3's ZIP5 counts of one histogram cell (a row per ZIP5): the true
    count, the noisy measurement and the released count as three marks on a fixed symlog
    axis (−10..1,000), 0 as a grey rule. Dataset "counts" (zip, kind, count)."""
    x_scale = alt.Scale(type="symlog", domain=list(COUNT_DOMAIN), nice=False, clamp=True)
    x = alt.X(
        "count:Q",
        title="people in the cell (symlog scale)",
        scale=x_scale,
        axis=alt.Axis(values=[-10, -3, 0, 3, 10, 30, 100, 300, 1_000], format=",d"),
    )
    y = alt.Y("zip:N", title="ZIP5", sort=None)
    points = (
        alt.Chart(alt.NamedData(name="counts"))
        .mark_point(size=90, strokeWidth=2.5, filled=False)
        .encode(
            x=x,
            y=y,
            yOffset=alt.YOffset("kind:N", sort=list(COUNT_KINDS)),
            color=alt.Color(
                "kind:N",
                sort=list(COUNT_KINDS),
                scale=alt.Scale(
                    domain=list(COUNT_KINDS),
                    range=[ui_charts.BLACK, ui_charts.ORANGE, ui_charts.BLUE],
                ),
                legend=ui_charts.ROW_LEGEND,
            ),
            shape=alt.Shape(
                "kind:N",
                sort=list(COUNT_KINDS),
                scale=alt.Scale(domain=list(COUNT_KINDS), range=["M0,-1L0,1", "diamond", "circle"]),
                legend=ui_charts.ROW_LEGEND,
            ),
            tooltip=[
                alt.Tooltip("zip:N", title="ZIP5"),
                alt.Tooltip("kind:N", title="what"),
                alt.Tooltip("count:Q", format=","),
            ],
        )
    )
    zero = (
        alt.Chart(alt.Data(values=[{"x": 0}]))
        .mark_rule(color=ui_charts.GREY, strokeDash=[2, 2])
        .encode(x=alt.X("x:Q", scale=x_scale))
    )
    return Template((zero + points).properties(height=220, width=ui_charts.DEFAULT_WIDTH))


@datasets.cached()
def who_pays() -> Template:
    """Template: every unit below the nation, its population (log x) against the mean
    relative error of its released population (log y), by level; 5% as a grey line and the
    population from which every unit is within 5% as a labelled dashed rule. Datasets
    "units" (level, people, error) and "truth" (x, label)."""
    x_scale = alt.Scale(type="log", domain=[5, 20_000], nice=False, clamp=True)
    y_scale = alt.Scale(type="log", domain=[ERROR_FLOOR, 1.0], nice=False, clamp=True)
    levels = list(LEVELS[1:])
    points = (
        alt.Chart(alt.NamedData(name="units"))
        .mark_point(filled=True, size=45, opacity=0.8)
        .encode(
            x=alt.X(
                "people:Q",
                title="people in the unit (log scale)",
                scale=x_scale,
                axis=alt.Axis(values=[10, 100, 1_000, 10_000], format=","),
            ),
            y=alt.Y(
                "error:Q",
                title="relative error of its population (log)",
                scale=y_scale,
                axis=alt.Axis(values=[0.0001, 0.001, 0.01, 0.1, 1], format="~%"),
            ),
            color=alt.Color(
                "level:N",
                sort=levels,
                scale=alt.Scale(
                    domain=levels, range=[ui_charts.BLACK, ui_charts.ORANGE, ui_charts.BLUE]
                ),
                legend=ui_charts.STACKED_LEGEND,
            ),
            shape=alt.Shape(
                "level:N",
                sort=levels,
                scale=alt.Scale(domain=levels, range=["square", "triangle-up", "circle"]),
                legend=ui_charts.STACKED_LEGEND,
            ),
            tooltip=[
                alt.Tooltip("level:N"),
                alt.Tooltip("people:Q", format=","),
                alt.Tooltip("error:Q", format=".2%", title="mean relative error"),
            ],
        )
    )
    five = (
        alt.Chart(alt.Data(values=[{"y": ACCURATE}]))
        .mark_rule(color=ui_charts.GREY, strokeDash=[2, 2])
        .encode(y=alt.Y("y:Q", scale=y_scale))
    )
    rule = ui_charts.truth_rule_layers(x_scale, flip_at=2_000)
    return Template((five + points + rule).properties(height=300, width=ui_charts.DEFAULT_WIDTH))


BIAS_DOMAIN = (-1.5, 1.5)  # people


@datasets.cached()
def bias() -> Template:
    """Template: ZIP5 cells grouped by true count (ordered bins), the mean signed error of
    the noisy measurement and of the released count, ± 2 standard errors, 0 as a grey line;
    a fixed axis of −1.5..1.5 people. Dataset "bias" (true count, kind, bias, low, high)."""
    y_scale = alt.Scale(domain=list(BIAS_DOMAIN), nice=False, clamp=True)
    kinds = [NOISY, FINAL]
    x = alt.X(
        "true count:N",
        title="true count of the ZIP5 cell",
        sort=list(bin_labels()),
        axis=alt.Axis(labelAngle=0),
    )
    offset = alt.XOffset("kind:N", sort=kinds)
    colour = alt.Color(
        "kind:N",
        sort=kinds,
        scale=alt.Scale(domain=kinds, range=[ui_charts.ORANGE, ui_charts.BLUE]),
        legend=ui_charts.STACKED_LEGEND,
    )
    base = alt.Chart(alt.NamedData(name="bias"))
    bars = base.mark_rule(strokeWidth=2).encode(
        x=x, xOffset=offset, y=alt.Y("low:Q", scale=y_scale), y2="high:Q", color=colour
    )
    points = base.mark_point(filled=True, size=60).encode(
        x=x,
        xOffset=offset,
        y=alt.Y("bias:Q", title="mean error (people)", scale=y_scale),
        color=colour,
        shape=alt.Shape(
            "kind:N",
            sort=kinds,
            scale=alt.Scale(domain=kinds, range=["diamond", "circle"]),
            legend=ui_charts.STACKED_LEGEND,
        ),
        tooltip=[
            alt.Tooltip("true count:N"),
            alt.Tooltip("kind:N", title="what"),
            alt.Tooltip("bias:Q", format="+.2f", title="mean error"),
            alt.Tooltip("cells:Q", format=",", title="cells × runs"),
        ],
    )
    zero = (
        alt.Chart(alt.Data(values=[{"y": 0.0}]))
        .mark_rule(color=ui_charts.GREY, strokeDash=[2, 2])
        .encode(y=alt.Y("y:Q", scale=y_scale))
    )
    return Template((zero + bars + points).properties(height=260, width=ui_charts.DEFAULT_WIDTH))
