"""Chart templates of the lesson "Why anonymisation fails" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from lessons.anonymisation.model import CLASS_SIZE_LABELS, success_curve
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template


@datasets.cached(max_entries=64)
def class_sizes(people: int) -> Template:
    """Template: how many people share their combination ("classes": bucket, people, share,
    unique): fixed categories, a fixed 0–100% axis, the unique bar vermillion, every bar
    labelled with its count."""
    base = alt.Chart(alt.NamedData(name="classes")).encode(
        x=alt.X(
            "bucket:N",
            sort=list(CLASS_SIZE_LABELS),
            scale=alt.Scale(domain=list(CLASS_SIZE_LABELS)),
            title="people sharing your combination (class size)",
            axis=alt.Axis(labelAngle=0),
        ),
        y=alt.Y(
            "share:Q",
            scale=alt.Scale(domain=[0, 1]),
            axis=alt.Axis(format="%"),
            title=f"share of the {people:,} people",
        ),
    )
    bars = base.mark_bar().encode(
        color=alt.condition(
            alt.datum.unique, alt.value(ui_charts.VERMILLION), alt.value(ui_charts.BLUE)
        ),
        tooltip=[
            alt.Tooltip("bucket:N", title="class size"),
            alt.Tooltip("people:Q", format=",", title="people"),
            alt.Tooltip("share:Q", format=".1%", title="share"),
        ],
    )
    labels = base.mark_text(dy=-8, fontWeight="bold").encode(text=alt.Text("people:Q", format=","))
    chart = (bars + labels).properties(
        height=ui_charts.DEFAULT_HEIGHT, width=ui_charts.DEFAULT_WIDTH
    )
    return Template(chart)


@datasets.cached(max_entries=64)
def success(right_half: bool, tries: int) -> Template:
    """Template: exact success rate versus ε (log x axis, fixed 0.01–10 and 40–100%), a
    dashed coin-toss line at 50%, the chosen ε as a dashed rule labelled with the exact rate
    and the simulated share as an orange diamond beside the black exact circle ("marker":
    epsilon, success, kind, label)."""
    x = alt.X(
        "epsilon:Q",
        scale=alt.Scale(type="log", domain=[0.01, 10], nice=False),
        axis=alt.Axis(values=[0.01, 0.1, 1, 10], format="~g"),
        title="privacy loss ε per query (log scale)",
    )
    y_scale = alt.Scale(domain=[0.4, 1.0], nice=False)
    y = alt.Y("success:Q", scale=y_scale, axis=alt.Axis(format="%"), title="attacker guesses right")
    curve = (
        alt.Chart(success_curve())
        .mark_line(color=ui_charts.BLUE, strokeWidth=3)
        .encode(
            x=x,
            y=y,
            tooltip=[
                alt.Tooltip("epsilon:Q", format="~g", title="ε"),
                alt.Tooltip("success:Q", format=".1%", title="exact"),
            ],
        )
    )
    coin = pd.DataFrame({"success": [0.5], "label": ["coin toss: 50%"]})
    coin_rule = (
        alt.Chart(coin)
        .mark_rule(color=ui_charts.GREY, strokeDash=[2, 2])
        .encode(y=alt.Y("success:Q", scale=y_scale))
    )
    coin_text = (
        alt.Chart(coin)
        .mark_text(align="left", baseline="top", dx=4, dy=4, color="#555555")
        .encode(y=alt.Y("success:Q", scale=y_scale), x=alt.value(0), text="label:N")
    )
    marker = alt.NamedData(name="marker")
    rule = (
        alt.Chart(marker)
        .transform_filter(alt.datum.kind == "exact")
        .mark_rule(color=ui_charts.BLACK, strokeDash=[6, 3], strokeWidth=2)
        .encode(x=x)
    )
    points = (
        alt.Chart(marker)
        .mark_point(size=110, filled=True)
        .encode(
            x=x,
            y=y,
            shape=alt.Shape(
                "kind:N",
                scale=alt.Scale(
                    domain=["exact", f"simulated ({tries:,} tries)"], range=["circle", "diamond"]
                ),
                legend=alt.Legend(title=None, orient="top-left"),
            ),
            color=alt.Color(
                "kind:N",
                scale=alt.Scale(
                    domain=["exact", f"simulated ({tries:,} tries)"],
                    range=[ui_charts.BLACK, ui_charts.ORANGE],
                ),
                legend=alt.Legend(title=None, orient="top-left"),
            ),
            tooltip=["kind:N", alt.Tooltip("success:Q", format=".1%")],
        )
    )
    label = (
        alt.Chart(marker)
        .transform_filter(alt.datum.kind == "exact")
        .mark_text(
            align="right" if right_half else "left",
            dx=-8 if right_half else 8,
            dy=-12,
            fontWeight="bold",
        )
        .encode(x=x, y=y, text="label:N")
    )
    chart = (curve + coin_rule + coin_text + rule + points + label).properties(
        title="Attacker's success versus ε",
        height=ui_charts.DEFAULT_HEIGHT,
        width=ui_charts.DEFAULT_WIDTH,
    )
    return Template(chart)
