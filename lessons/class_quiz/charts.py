"""Chart template of the class quiz's projector (data-free; the page fills it)."""

from __future__ import annotations

import altair as alt

from lessons.class_quiz.model import LETTERS
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

HEIGHT = 260
PRESENTER_HEIGHT = 220  # with projector fonts, the chart and the question fit 1280×720


@datasets.cached(max_entries=16)
def answers(k: int, private: bool, presenting: bool = False) -> Template:
    """Template: one bar per option A.. (x fixed to the question's k letters, y fixed to
    0..100%), the correct one green. Plain mode: the share of answers. Private mode: the
    debiased estimate of the class's share with its 95% interval, and what the phones sent
    as black ticks. Dataset "results" (letter, option, sent, sent_share, estimate, low,
    high, correct)."""
    x = alt.X(
        "letter:N",
        title=None,
        sort=list(LETTERS[:k]),
        scale=alt.Scale(domain=list(LETTERS[:k])),
        axis=alt.Axis(labelAngle=0),
    )
    y_scale = alt.Scale(domain=[0, 1], nice=False, clamp=True)
    title = "estimated share of the class" if private else "share of answers"
    base = alt.Chart(alt.NamedData(name="results"))
    tooltip = [
        alt.Tooltip("letter:N", title="option"),
        alt.Tooltip("option:N", title="text"),
        alt.Tooltip("sent:Q", title="phones that sent it"),
        alt.Tooltip("sent_share:Q", format=".0%", title="share sent"),
        alt.Tooltip("estimate:Q", format=".0%", title="estimate"),
    ]
    bars = base.mark_bar(width={"band": 0.7}).encode(
        x=x,
        y=alt.Y("estimate:Q", scale=y_scale, title=title, axis=alt.Axis(format="%")),
        color=alt.Color(
            "correct:N",
            scale=alt.Scale(domain=[True, False], range=[ui_charts.GREEN, ui_charts.GREY]),
            legend=None,
        ),
        tooltip=tooltip,
    )
    # Each bar's value above everything drawn for it: in private mode above the top of its
    # interval and of the tick of what was sent (at the bar's top, the interval and the
    # tick ran through the number)
    top = "max(datum.high, datum.sent_share)" if private else "datum.estimate"
    labels = (
        base.transform_calculate(label_y=top)
        .mark_text(dy=-8, fontWeight="bold")  # no fontSize: projector-sized there
        .encode(
            x=x,
            y=alt.Y("label_y:Q", scale=y_scale, title=title),
            text=alt.Text("estimate:Q", format=".0%"),
        )
    )
    layers = [bars, labels]
    if private:
        layers.append(
            base.mark_errorbar(color=ui_charts.BLUE, thickness=2).encode(
                x=x, y=alt.Y("low:Q", scale=y_scale, title=title), y2="high:Q"
            )
        )
        layers.append(
            base.mark_tick(color=ui_charts.BLACK, thickness=3, size=40).encode(
                x=x, y=alt.Y("sent_share:Q", scale=y_scale, title=title), tooltip=tooltip
            )
        )
    return Template(
        alt.layer(*layers).properties(
            height=PRESENTER_HEIGHT if presenting else HEIGHT, width=ui_charts.DEFAULT_WIDTH
        )
    )
