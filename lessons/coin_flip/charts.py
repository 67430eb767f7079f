"""Chart templates of the randomized-response lessons (coin flip; binary RR with any p and
q reuses them). Data-free: the page fills them with the model's DataFrames."""

from __future__ import annotations

import altair as alt

from lessons.coin_flip.model import SPREAD_KINDS
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template


@datasets.cached(max_entries=64)
def spread() -> Template:
    """Template, log-log: the exact spread ("exact"), simulated points ("simulated"), the
    current n marked ("here")."""
    colour = alt.Color(
        "kind:N",
        title=None,
        scale=alt.Scale(domain=list(SPREAD_KINDS), range=[ui_charts.BLUE, ui_charts.ORANGE]),
        legend=alt.Legend(orient="bottom"),
    )
    x_scale = alt.Scale(type="log", domain=[10, 1_000_000])
    y_scale = alt.Scale(type="log", domain=[0.05, 50])
    x = alt.X(
        "n:Q", title="people asked, n (log scale)", scale=x_scale, axis=alt.Axis(format=",~r")
    )
    y = alt.Y("sd:Q", title="SD (% points)", scale=y_scale)
    tooltip = [
        alt.Tooltip("n:Q", format=","),
        alt.Tooltip("kind:N"),
        alt.Tooltip("sd:Q", format=".3f"),
    ]
    line = (
        alt.Chart(alt.NamedData(name="exact"))
        .mark_line(strokeWidth=2)
        .encode(x=x, y=y, color=colour, tooltip=tooltip)
    )
    points = (
        alt.Chart(alt.NamedData(name="simulated"))
        .mark_point(shape="diamond", size=60, filled=True)
        .encode(x=x, y=y, color=colour, tooltip=tooltip)
    )
    here = alt.Chart(alt.NamedData(name="here"))
    rule = here.mark_rule(color=ui_charts.BLACK, strokeDash=[6, 3]).encode(
        x=alt.X("n:Q", scale=x_scale)
    )
    label = here.mark_text(
        align="left", dx=5, dy=-8, fontWeight="bold", color=ui_charts.BLACK
    ).encode(x=alt.X("n:Q", scale=x_scale), y=alt.Y("sd:Q", scale=y_scale), text="label:N")
    return Template(
        (line + points + rule + label).properties(
            title="The spread shrinks like 1/√n", height=ui_charts.DEFAULT_HEIGHT, width="container"
        )
    )
