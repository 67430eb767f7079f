"""Chart template of the class heist's projector (data-free; the page fills it)."""

from __future__ import annotations

import altair as alt

from lessons.class_heist import model
from survey import heist as store
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

HEIGHT = 240
PRESENTER_HEIGHT = 170  # with projector fonts, the whole attack fits 1280×720
BEYOND_INSET_PX = 3  # an estimate beyond the axis: its triangle this far inside the edge
PAIRS_DOMAIN = (0.7, 10_000)  # noisy pairs asked (log axis; from below 1, so the first
# pair and its interval stand clear of the y axis)


def closing_in(presenting: bool = False, group: int = 1) -> Template:
    """Template: the attacker's estimate of the target's secret (blue points and line)
    against the number of noisy pairs asked (log x, fixed), its exact 95% interval as a
    band and as a bar at each point (the first pair's, alone, has no band), and the range a
    secret can take (1 to 10) as a grey band, which `title`'s subtitle names; for a target
    whose two values `group` people share, the pair reads their total, and the range and the
    axis say so (g to 10g). Dataset "running" (pairs, estimate, low, high).
    (Checked here, before the cache.)"""
    if isinstance(group, bool) or not isinstance(group, int) or group < 1:
        raise ValueError(f"group must be an int of at least 1, got {group!r}")
    return _closing_in(bool(presenting), group)


@datasets.cached(max_entries=8)
def _closing_in(presenting: bool, group: int) -> Template:
    least, most = store.SECRET_MIN * group, store.SECRET_MAX * group
    x = alt.X(
        "pairs:Q",
        title="noisy pairs (log)",
        scale=alt.Scale(type="log", domain=list(PAIRS_DOMAIN), nice=False),
        axis=alt.Axis(format="~s", values=[1, 10, 100, 1000, 10_000]),
    )
    y_scale = alt.Scale(domain=list(model.ESTIMATE_DOMAIN), nice=False, clamp=True)
    y_title = "estimate of the secret" if group == 1 else "estimate of their total"
    secret_range = (
        alt.Chart(alt.Data(values=[{"low": least, "high": most}]))
        .mark_rect(color=ui_charts.GREY, opacity=0.25)
        .encode(y=alt.Y("low:Q", scale=y_scale, title=y_title), y2="high:Q")
    )
    base = alt.Chart(alt.NamedData(name="running"))
    tooltip = [
        alt.Tooltip("pairs:Q", title="pairs asked", format=","),
        alt.Tooltip("estimate:Q", title="estimate", format=".2f"),
        alt.Tooltip("low:Q", title="95% interval from", format=".2f"),
        alt.Tooltip("high:Q", title="95% interval to", format=".2f"),
    ]
    band = base.mark_area(color=ui_charts.SKY, opacity=0.35).encode(
        x=x, y=alt.Y("low:Q", scale=y_scale, title=y_title), y2="high:Q", tooltip=tooltip
    )
    # each pair's interval also as a bar at its point: an area needs two points, so the
    # first pair's interval (the one the room reads first) would otherwise draw nothing
    bars = base.mark_rule(color=ui_charts.BLUE, strokeWidth=2, opacity=0.6).encode(
        x=x, y=alt.Y("low:Q", scale=y_scale, title=y_title), y2="high:Q", tooltip=tooltip
    )
    line = base.mark_line(color=ui_charts.BLUE, strokeWidth=2, point=True).encode(
        x=x, y=alt.Y("estimate:Q", scale=y_scale, title=y_title), tooltip=tooltip
    )
    # an estimate beyond the axis: a triangle at the edge pointing its way, and its value,
    # both inside the plot (a triangle on the top edge reached above it, and the projector's
    # chart grew 4 px, past the bottom of a 1280×720 screen)
    # (aria=False: the numbers are in the chart's description; an empty mark container would
    # be an unnamed image to a screen reader)
    beyond = []
    for side, shape, inward, baseline in (
        ("above", "triangle-up", BEYOND_INSET_PX, "top"),
        ("below", "triangle-down", -BEYOND_INSET_PX, "bottom"),
    ):
        off_axis = base.transform_filter(f"datum.beyond == '{side}'")
        beyond += [
            off_axis.mark_point(
                filled=True,
                size=110,
                color=ui_charts.VERMILLION,
                shape=shape,
                yOffset=inward,
                aria=False,
            ).encode(x=x, y=alt.Y("edge:Q", scale=y_scale), tooltip=tooltip),
            off_axis.mark_text(
                align="left",
                baseline=baseline,
                dx=8,
                color=ui_charts.BLACK,
                aria=False,  # no fontSize: grows on a projector
            ).encode(x=x, y=alt.Y("edge:Q", scale=y_scale), text="label:N"),
        ]
    return Template(
        alt.layer(secret_range, band, bars, line, *beyond).properties(
            height=PRESENTER_HEIGHT if presenting else HEIGHT, width=ui_charts.DEFAULT_WIDTH
        )
    )


def title(headline: str, group: int = 1) -> dict:
    """The chart's title: the ledger's headline over what the grey band is. (The band's words
    stood inside the plot, at its right edge: the estimate and its bars ran through them
    once a room had asked a thousand pairs, on a phone.)"""
    return {"text": headline, "subtitle": f"grey band: {range_words(group)}"}


def range_words(group: int) -> str:
    """The grey band's label: what the pair's difference can be."""
    if group == 1:
        return f"a secret is {store.SECRET_MIN} to {store.SECRET_MAX}"
    least, most = store.SECRET_MIN * group, store.SECRET_MAX * group
    return f"{group:,} people's total is {least:,} to {most:,}"
