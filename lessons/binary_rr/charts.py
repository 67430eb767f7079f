"""Chart templates of the lesson "Binary randomized response with any p and q" (data-free)."""

from __future__ import annotations

import altair as alt

from lessons.binary_rr.model import LN_RATIO_LIMIT, REPORTS
from ui import charts as ui_charts
from ui import datasets
from ui.rr_survey import REPEATS
from ui.template import Template

RATIO_TITLE = "What each report reveals"


@datasets.cached(max_entries=64)
def error_epsilon() -> Template:
    """Template, log-log: SD of the count estimate versus ε ("curve"), the current point
    ("here", possibly empty)."""
    x = alt.X(
        "epsilon:Q",
        title="privacy loss ε (log scale; ← more private)",
        scale=alt.Scale(type="log", domain=[0.01, 10]),
    )
    y = alt.Y(
        "sd:Q",
        title="SD (people)",
        scale=alt.Scale(type="log", domain=[1, 100_000]),
        axis=alt.Axis(format=",~r"),
    )
    line = ui_charts.curve(
        "curve", x, y, [alt.Tooltip("epsilon:Q", format=".3f"), alt.Tooltip("sd:Q", format=",.0f")]
    )
    here = alt.Chart(alt.NamedData(name="here"))
    point = here.mark_point(shape="diamond", size=140, filled=True, color=ui_charts.VERMILLION)
    text = here.mark_text(align="left", dx=9, dy=-9, fontWeight="bold", color=ui_charts.BLACK)
    return Template(
        (line + point.encode(x=x, y=y) + text.encode(x=x, y=y, text="label:N")).properties(
            title="",
            height=ui_charts.DEFAULT_HEIGHT,
            width="container",
        )
    )


@datasets.cached(max_entries=64)
def ratio() -> Template:
    """Template, horizontal bars: |ln| of each report's likelihood ratio ("reports": report,
    size, text, label_at: where its label starts), the band [0, ε] shaded ("band")."""
    x_scale = alt.Scale(domain=[0, LN_RATIO_LIMIT], nice=False, clamp=True)
    band = alt.Chart(alt.NamedData(name="band"))
    shade = band.mark_rect(color=ui_charts.GREY, opacity=0.25).encode(
        x=alt.X("lo:Q", scale=x_scale), x2="hi:Q"
    )
    edge = band.mark_rule(color=ui_charts.BLACK, strokeDash=[6, 3], strokeWidth=2).encode(
        x=alt.X("hi:Q", scale=x_scale)
    )
    y = alt.Y(
        "report:N",
        title=None,
        sort=list(REPORTS),
        scale=alt.Scale(domain=list(REPORTS), type="band", paddingInner=0.2),
    )
    reports = alt.Chart(alt.NamedData(name="reports"))
    bars = reports.mark_bar(height=22).encode(
        y=y,
        x=alt.X("size:Q", title="|ln likelihood ratio|", scale=x_scale),
        color=alt.Color(
            "report:N",
            scale=alt.Scale(domain=list(REPORTS), range=[ui_charts.ORANGE, ui_charts.SKY]),
            legend=None,
        ),
        tooltip=["report:N", "text:N"],
    )
    labels = reports.mark_text(align="left", dx=4, fontWeight="bold").encode(
        y=y, x=alt.X("label_at:Q", scale=x_scale), text="text:N"
    )
    return Template(
        (shade + edge + bars + labels).properties(
            title=alt.Title(RATIO_TITLE, subtitle="grey band: up to ε · dashed line: ε"),
            # Two rows of 40 px. A step height made Vega-Lite warn ('Dropping "fit-y"') under
            # Streamlit's autosize; a pixel height with an explicit band scale keeps both rows.
            height=2 * 40,
            width="container",
        )
    )


ERROR_TITLE = "Error of the count versus ε"


SAMPLING_TITLE = "Sampling distribution"


def sampling_title(n: int) -> dict:
    """The sampling-distribution chart's title, short enough for a phone."""
    return {"text": SAMPLING_TITLE, "subtitle": f"{REPEATS:,} surveys of n = {n:,}"}


def error_epsilon_title(question: str, n: int) -> dict:
    """The error chart's title, short enough for a phone (the details in the subtitle)."""
    return {"text": ERROR_TITLE, "subtitle": f"{question} (n = {n:,})"}
