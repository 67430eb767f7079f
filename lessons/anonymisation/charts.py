"""Chart templates of the lesson "Why anonymisation fails" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt

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


@datasets.cached(max_entries=4)
def success(tries: int) -> Template:
    """Template: exact success rate versus ε (log x axis, fixed 0.01–10 and 40–100%), a
    dotted coin-toss line at 50% ("coin": success, label, right: its label at the line's
    right end, model.coin_line), the chosen ε as a dashed rule through the exact rate (a
    black circle) and the simulated share (an orange diamond) ("marker": epsilon, success,
    kind), their legend under the plot and their numbers in the title (model.success_title).
    Inside the plot at its top left the legend was crossed by the rule at ε up to 0.3, and
    the exact rate's words beside the circle by the curve rising through them (a phone at
    ε = 0.07 and 0.2)."""
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
    coin = alt.NamedData(name="coin")
    coin_rule = (
        alt.Chart(coin)
        .mark_rule(color=ui_charts.GREY, strokeDash=[2, 2])
        .encode(y=alt.Y("success:Q", scale=y_scale))
    )
    # under the line at its left end, or its right end where "right" says (the rule of an ε
    # up to 0.07 ran through it on a phone)
    coin_text = [
        alt.Chart(coin)
        .transform_filter(alt.datum.right if right else ~alt.datum.right)
        .mark_text(
            align="right" if right else "left",
            baseline="top",
            dx=-4 if right else 4,
            dy=4,
            color="#555555",
        )
        .encode(
            y=alt.Y("success:Q", scale=y_scale),
            x=alt.value("width" if right else 0),
            text="label:N",
        )
        for right in (False, True)
    ]
    marker = alt.NamedData(name="marker")
    rule = (
        alt.Chart(marker)
        .transform_filter(alt.datum.kind == "exact")
        .mark_rule(color=ui_charts.BLACK, strokeDash=[6, 3], strokeWidth=2)
        .encode(x=x)
    )
    kinds = ["exact", f"simulated ({tries:,} tries)"]
    points = (
        alt.Chart(marker)
        .mark_point(size=110, filled=True)
        .encode(
            x=x,
            y=y,
            shape=alt.Shape(
                "kind:N",
                scale=alt.Scale(domain=kinds, range=["circle", "diamond"]),
                legend=ui_charts.ROW_LEGEND,
            ),
            color=alt.Color(
                "kind:N",
                scale=alt.Scale(domain=kinds, range=[ui_charts.BLACK, ui_charts.ORANGE]),
                legend=ui_charts.ROW_LEGEND,
            ),
            tooltip=["kind:N", alt.Tooltip("success:Q", format=".1%")],
        )
    )
    chart = alt.layer(curve, coin_rule, *coin_text, rule, points).properties(
        height=ui_charts.DEFAULT_HEIGHT,
        width=ui_charts.DEFAULT_WIDTH,
    )
    return Template(chart)
