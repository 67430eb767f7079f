"""Chart templates of the lesson "k-ary randomized response" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt

from lessons.kary_rr.model import VARIANCE_HEIGHT, Attribute, count_domain
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

SERIES_STYLE = {
    # name: (colour, fill opacity, dash) — hollow dashed vs solid: a cue beyond colour.
    "reported": (ui_charts.ORANGE, 0.15, [4, 2]),
    "estimated": (ui_charts.BLUE, 0.9, [1, 0]),
    "raw estimate": (ui_charts.VERMILLION, 0.15, [4, 2]),
    "projected": (ui_charts.GREEN, 0.9, [1, 0]),
}


def histogram_title(title: str, subtitle: str | list[str]) -> dict:
    return {"text": title, "subtitle": subtitle, "anchor": "start"}


EDGE_MARK_PX = 14  # the » and « that mark a bar cut at the axis's edge
EDGE_STEP_PX = 10


@datasets.cached(max_entries=64)
def histogram(attr: Attribute, names: tuple[str, ...]) -> Template:
    """Template: horizontal grouped bars per category (one bar per series, hollow-dashed or
    solid), the true count as a black tick across each group, on the attribute's
    fixed axis. Data: datasets "bars" and "truth" (see `histogram_frames`)."""
    lo, hi = count_domain(attr)
    names = list(names)
    colours = [SERIES_STYLE[n][0] for n in names]
    y = alt.Y("category:N", sort=list(attr.labels), title=None, axis=alt.Axis(labelLimit=140))
    y_offset = alt.YOffset("series:N", sort=names)
    x_scale = alt.Scale(domain=[lo, hi], nice=False)
    # at most 336 px of bars (fits beside its slider); a row of 21 px or more holds one
    # label at the projector's 19-px font (occupation's 14 rows were 19 px: labels touched)
    band = max(16, min(24, 336 // attr.k))
    bars_data = alt.NamedData(name="bars")
    bars = (
        alt.Chart(bars_data)
        .mark_bar(strokeWidth=1.5)
        .encode(
            y=y,
            yOffset=y_offset,
            x=alt.X("shown:Q", title="people", scale=x_scale, axis=alt.Axis(format=",.0f")),
            fill=alt.Fill(
                "series:N",
                scale=alt.Scale(domain=names, range=colours),
                legend=alt.Legend(title=None, orient="bottom"),
            ),
            stroke=alt.Stroke("series:N", scale=alt.Scale(domain=names, range=colours)),
            fillOpacity=alt.FillOpacity(
                "series:O",  # ordinal, in the series' order (a nominal field made Vega warn)
                sort=names,
                scale=alt.Scale(domain=names, range=[SERIES_STYLE[n][1] for n in names]),
                legend=None,
            ),
            strokeDash=alt.StrokeDash(
                "series:N",
                scale=alt.Scale(domain=names, range=[SERIES_STYLE[n][2] for n in names]),
                legend=None,
            ),
            tooltip=[
                alt.Tooltip("category:N"),
                alt.Tooltip("series:N"),
                alt.Tooltip("count:Q", format=",.0f"),
            ],
        )
    )
    # a bar cut at the axis's edge, marked there; a category's second series' mark EDGE_STEP_PX
    # further in: its two marks, raw and projected, sit 9 px apart in height (at ε = 0.01
    # each was written over the other)
    edges = alt.layer(
        *(
            alt.Chart(bars_data)
            .transform_filter((alt.datum.edge == mark) & (alt.datum.series == name))
            .mark_text(fontWeight="bold", fontSize=EDGE_MARK_PX, dx=inward * EDGE_STEP_PX * i)
            .encode(y=y, yOffset=y_offset, x=alt.X("shown:Q", scale=x_scale), text="edge:N")
            for i, name in enumerate(names)
            for mark, inward in (("»", -1), ("«", 1))
        )
    )
    zero = (
        alt.Chart(alt.Data(values=[{"x": 0}]))
        .mark_rule(color=ui_charts.GREY)
        .encode(x=alt.X("x:Q", scale=x_scale))
    )
    ticks = ui_charts.truth_ticks(y, x_scale, size=band * 0.9)
    chart = (zero + bars + edges + ticks).properties(
        width=ui_charts.DEFAULT_WIDTH, height=band * attr.k
    )
    return Template(chart)


@datasets.cached(max_entries=64)
def variance(domain: tuple[float, float]) -> Template:
    """Template: variance versus k (log y, fixed `domain`), the current attribute's k
    marked with a diamond (the page's subtitle names it). Data: datasets "curve" (k,
    variance, sd), "here" (one row of curve), "references" (k, variance, reference) and
    "reference_labels" (k, variance, reference, under)."""
    y = alt.Y(
        "variance:Q",
        title="variance of one estimated count",
        scale=alt.Scale(type="log", domain=list(domain), clamp=True),
        axis=alt.Axis(format=",~r"),
    )
    x = alt.X("k:Q", title="number of categories k", scale=alt.Scale(domain=[2, 64], nice=False))
    line = ui_charts.curve(
        "curve",
        x,
        y,
        [
            alt.Tooltip("k:Q"),
            alt.Tooltip("variance:Q", format=",.0f"),
            alt.Tooltip("sd:Q", format=",.0f", title="standard deviation"),
        ],
    )
    references = alt.Chart(alt.NamedData(name="references"))
    grey = references.mark_line(color=ui_charts.GREY, strokeWidth=1, strokeDash=[2, 2]).encode(
        x=x, y=y, detail="reference:N"
    )
    # each label above its curve's end, or under it where this ε's curve runs just above
    # (model.reference_labels)
    labels = alt.Chart(alt.NamedData(name="reference_labels"))
    grey_labels = alt.layer(
        *(
            labels.transform_filter(alt.datum.under if under else ~alt.datum.under)
            .mark_text(
                align="right",
                color=ui_charts.GREY,
                **({"dy": 7, "baseline": "top"} if under else {"dy": -7}),
            )
            .encode(x=x, y=y, text="reference:N")
            for under in (False, True)
        )
    )
    here = alt.Chart(alt.NamedData(name="here"))
    point = here.mark_point(
        shape="diamond", size=120, filled=True, color=ui_charts.VERMILLION
    ).encode(x=x, y=y)
    # the diamond's attribute and k are in the subtitle: a label beside it was crossed by this
    # ε's curve, or by a reference curve, whichever side it took
    chart = (grey + grey_labels + line + point).properties(
        width=ui_charts.DEFAULT_WIDTH, height=VARIANCE_HEIGHT
    )
    return Template(chart)
