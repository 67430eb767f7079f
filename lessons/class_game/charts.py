"""Chart template of the guessing game's projector (data-free; the page fills it)."""

from __future__ import annotations

import altair as alt

from lessons.class_game.model import POINT_NAMES
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

HEIGHT = 260
PRESENTER_HEIGHT = 210  # with projector fonts, the chart and the verdict fit 1280×720
# Which line is which, as the chart's subtitle: words placed inside the plot were crossed by
# the promised edge at ε = 0.5 and 1, and by the diagonal on a phone (the edge moves with ε)
LINE_KEY = ("dashed: the promised ε's edge", "red dots: the proven ε's edge")
INSIDE_LEGEND = alt.Legend(orient="bottom-right", title=None, direction="vertical", labelLimit=0)


def title(headline: str) -> dict:
    """The region chart's title: the room's headline over the key to its two edges."""
    return {"text": headline, "subtitle": list(LINE_KEY)}


@datasets.cached(max_entries=2)
def region(presenting: bool = False) -> Template:
    """Template: true- against false-positive rate (both 0..1), the diagonal of a coin, the
    edge of the privacy region at the promised ε (black, dashed) and at the ε the room has
    proven (vermillion, dotted), the room's point (blue circle) and the best possible
    guesser's (green square); which edge is which is said by `title`'s subtitle. Datasets
    "region", "proven" (fpr, tpr) and "points" (what, fpr, tpr)."""
    unit = alt.Scale(domain=[0.0, 1.0], nice=False)
    x = alt.X(
        "fpr:Q",
        title="false positives (rounds without, guessed with)",
        scale=unit,
        axis=alt.Axis(format="~%"),
    )
    y = alt.Y(
        "tpr:Q",
        title="true positives (rounds with, found)",
        scale=unit,
        axis=alt.Axis(format="~%"),
    )
    tooltip = [
        alt.Tooltip("fpr:Q", format=".0%", title="false positives"),
        alt.Tooltip("tpr:Q", format=".0%", title="true positives"),
    ]
    diagonal = (
        alt.Chart(alt.Data(values=[{"fpr": 0.0, "tpr": 0.0}, {"fpr": 1.0, "tpr": 1.0}]))
        .mark_line(color=ui_charts.GREY, strokeDash=[2, 2])
        .encode(x=x, y=y)
    )
    promised = (
        alt.Chart(alt.NamedData(name="region"))
        .mark_line(color=ui_charts.BLACK, strokeDash=[6, 3], strokeWidth=2)
        .encode(x=x, y=y, tooltip=tooltip)
    )
    proven = (
        alt.Chart(alt.NamedData(name="proven"))
        .mark_line(color=ui_charts.VERMILLION, strokeDash=[1, 3], strokeWidth=3)
        .encode(x=x, y=y, tooltip=tooltip)
    )
    points = (
        alt.Chart(alt.NamedData(name="points"))
        .mark_point(size=220, filled=True, opacity=1)
        .encode(
            x=x,
            y=y,
            color=alt.Color(
                "what:N",
                sort=list(POINT_NAMES),
                scale=alt.Scale(domain=list(POINT_NAMES), range=[ui_charts.BLUE, ui_charts.GREEN]),
                legend=INSIDE_LEGEND,
            ),
            shape=alt.Shape(
                "what:N",
                sort=list(POINT_NAMES),
                scale=alt.Scale(domain=list(POINT_NAMES), range=["circle", "square"]),
                legend=INSIDE_LEGEND,
            ),
            tooltip=[alt.Tooltip("what:N", title="who"), *tooltip],
        )
    )
    labels = (
        alt.Chart(alt.Data(values=[{"fpr": 0.62, "tpr": 0.55, "label": "a coin"}]))
        .mark_text(align="left", color=ui_charts.BLACK)  # no fontSize: projector-sized there
        .encode(x=x, y=y, text="label:N")
    )
    return Template(
        alt.layer(diagonal, promised, proven, points, labels).properties(
            height=PRESENTER_HEIGHT if presenting else HEIGHT, width=ui_charts.DEFAULT_WIDTH
        )
    )
