"""Chart template of the progress check-in's projector (data-free; the page fills it)."""

from __future__ import annotations

import altair as alt

from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

ROW_HEIGHT = 34
PRESENTER_ROW_HEIGHT = 40


@datasets.cached(max_entries=16)
def estimates(lessons: tuple[str, ...], presenting: bool = False) -> Template:
    """Template: one row per lesson (in the check-in's order, y fixed), x the share of the
    class fixed to 0..100%: a bar to the debiased estimate of the share who have worked
    through it, its 95% interval, and as black ticks the share of phones that sent a 1.
    Dataset "results" (lesson, sent, sent_share, estimate, estimate_share, low_share,
    high_share)."""
    y = alt.Y(
        "lesson:N",
        title=None,
        sort=list(lessons),
        scale=alt.Scale(domain=list(lessons)),
        axis=alt.Axis(labelLimit=320),
    )
    x_scale = alt.Scale(domain=[0, 1], nice=False, clamp=True)
    # short: on a phone the lessons' names leave the plot ~100 px, and the axis title is
    # centred under it (the longer "… who worked through it (estimate, 95% interval)" ran
    # past the chart's edge); the caption under the chart says what each mark is
    title = "share of the class"
    base = alt.Chart(alt.NamedData(name="results"))
    tooltip = [
        alt.Tooltip("lesson:N", title="lesson"),
        alt.Tooltip("sent:Q", title="phones that sent 1"),
        alt.Tooltip("estimate:Q", format=".1f", title="estimated students"),
        alt.Tooltip("low_share:Q", format=".0%", title="interval from"),
        alt.Tooltip("high_share:Q", format=".0%", title="interval to"),
    ]
    x = alt.X("estimate_share:Q", scale=x_scale, title=title, axis=alt.Axis(format="%"))
    bars = base.mark_bar(color=ui_charts.BLUE, height={"band": 0.6}).encode(
        y=y, x=x, tooltip=tooltip
    )
    interval = base.mark_errorbar(color=ui_charts.BLACK, thickness=2, ticks=True).encode(
        y=y, x=alt.X("low_share:Q", scale=x_scale, title=title), x2="high_share:Q"
    )
    sent = base.mark_tick(color=ui_charts.VERMILLION, thickness=3).encode(
        y=y,
        x=alt.X("sent_share:Q", scale=x_scale, title=title),
        tooltip=[alt.Tooltip("sent_share:Q", format=".0%", title="share that sent 1")],
    )
    rows = PRESENTER_ROW_HEIGHT if presenting else ROW_HEIGHT
    return Template(
        alt.layer(bars, interval, sent).properties(
            height=max(len(lessons), 2) * rows, width=ui_charts.DEFAULT_WIDTH
        )
    )
