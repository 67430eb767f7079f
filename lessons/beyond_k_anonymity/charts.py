"""Chart templates of the lesson "Beyond k-anonymity" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt

from lessons.beyond_k_anonymity.model import KINDS
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

KIND_COLOURS = (ui_charts.VERMILLION, ui_charts.BLUE)


@datasets.cached()
def diversity() -> Template:
    """Template: the published people (share, 0..100%) by how many distinct sensitive values
    their class holds, the bar of one value (the class reveals it) in its own colour.
    Dataset "diversity" (values, share, kind)."""
    chart = (
        alt.Chart(alt.NamedData(name="diversity"))
        .mark_bar()
        .encode(
            x=alt.X(
                "values:O",
                title="distinct values in the person's class",
                axis=alt.Axis(labelAngle=0),
            ),
            y=alt.Y(
                "share:Q",
                title="published people",
                scale=alt.Scale(domain=[0.0, 1.0], nice=False),
                axis=alt.Axis(format="%"),
            ),
            color=alt.Color(
                "kind:N",
                sort=list(KINDS),
                scale=alt.Scale(domain=list(KINDS), range=list(KIND_COLOURS)),
                legend=ui_charts.STACKED_LEGEND,
            ),
            tooltip=[
                alt.Tooltip("values:O", title="distinct values"),
                alt.Tooltip("share:Q", format=".2%", title="published people"),
            ],
        )
        .properties(height=190, width=ui_charts.DEFAULT_WIDTH)
    )
    return Template(chart)


@datasets.cached()
def closeness() -> Template:
    """Template: a histogram of the published people by their class's distance from the
    table's distribution (0..1, bins of 0.05), the release's t (the largest) as a labelled
    dashed rule. Datasets "closeness" (start, end, share) and "truth" (x, label)."""
    x_scale = alt.Scale(domain=[0.0, 1.0], nice=False)
    bars = (
        alt.Chart(alt.NamedData(name="closeness"))
        .mark_bar(color=ui_charts.BLUE, stroke="#FFFFFF", strokeWidth=0.5)
        .encode(
            x=alt.X(
                "start:Q", title="distance from the table, ½Σᵥ|p(v | class) − p(v)|", scale=x_scale
            ),
            x2="end:Q",
            y=alt.Y(
                "share:Q",
                title="published people",
                scale=alt.Scale(domain=[0.0, 1.0], nice=False),
                axis=alt.Axis(format="%"),
            ),
            y2=alt.datum(0),
            tooltip=[
                alt.Tooltip("start:Q", format=".2f", title="from"),
                alt.Tooltip("end:Q", format=".2f", title="to"),
                alt.Tooltip("share:Q", format=".2%", title="published people"),
            ],
        )
    )
    rule = ui_charts.truth_rule_layers(x_scale, label_dy=4, flip_at=0.6)
    return Template((bars + rule).properties(height=200, width=ui_charts.DEFAULT_WIDTH))
