"""Chart templates of the lesson "Central versus local" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt

from lessons.central_vs_local.model import (
    CENTRAL,
    ERROR_DOMAIN,
    LOCAL,
    N_DOMAIN,
    SD_DOMAIN,
    SHARE_MAX,
)
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

MODEL_COLOURS = alt.Scale(domain=[CENTRAL, LOCAL], range=[ui_charts.BLUE, ui_charts.ORANGE])


MODEL_DASHES = alt.Scale(domain=[CENTRAL, LOCAL], range=[[1, 0], [7, 4]])


def model_style(*, legend: bool) -> dict:
    """Colour and dash per model (never colour alone), with the legend under the chart."""
    return {
        "color": alt.Color(
            "model:N",
            scale=MODEL_COLOURS,
            legend=alt.Legend(orient="bottom", title=None, direction="vertical", labelLimit=0)
            if legend
            else None,
        ),
        "strokeDash": alt.StrokeDash("model:N", scale=MODEL_DASHES, legend=None),
    }


# people: a typical error's label sits left of its rule from here (a two-line label is
# ~1.5 decades of a phone's plot; the central sd is √2/ε, the local one far larger)
CENTRAL_LEFT_FROM = 0.5
LOCAL_LEFT_FROM = 300.0


def _error_distribution_layers(bins_data, typical_data) -> alt.LayerChart:
    """The |error| chart over `bins_data` (model, start, end, share) and `typical_data`
    (model, x, label): DataFrames, or alt.NamedData for a template."""
    x_scale = alt.Scale(type="log", domain=list(ERROR_DOMAIN), nice=False)
    x_axis = alt.Axis(values=[0.01, 0.1, 1, 10, 100, 1_000, 10_000, 100_000], format=",~g")
    y = alt.Y(
        "share:Q",
        title="share of answers",
        axis=alt.Axis(format="%"),
        scale=alt.Scale(domain=[0, SHARE_MAX], clamp=True),
    )
    base = alt.Chart(bins_data)
    area = base.mark_area(interpolate="step-after", opacity=0.3).encode(
        x=alt.X("start:Q", scale=x_scale, axis=x_axis, title="|error| in people (log scale)"),
        y=y,
        color=alt.Color("model:N", scale=MODEL_COLOURS, legend=None),
    )
    outline = base.mark_line(interpolate="step-after", strokeWidth=2).encode(
        x=alt.X("start:Q", scale=x_scale),
        y=y,
        **model_style(legend=True),
        tooltip=[
            alt.Tooltip("model:N"),
            alt.Tooltip("start:Q", format=",.3g", title="|error| from"),
            alt.Tooltip("end:Q", format=",.3g", title="to"),
            alt.Tooltip("share:Q", format=".1%", title="share"),
        ],
    )
    rules = (
        alt.Chart(typical_data)
        .mark_rule(strokeWidth=1.5)
        .encode(
            x=alt.X("x:Q", scale=x_scale),
            **model_style(legend=False),
        )
    )
    # each rule's label (two lines) in rows of its own at the top, on the side away from the
    # other rule: the central one left of its rule from CENTRAL_LEFT_FROM on (right of it,
    # "central sd ± 1.414" was crossed by the local rule at 173 on a phone), the local one
    # right of its rule until LOCAL_LEFT_FROM ("local sd ± 18,045", ε = 0.01, ran past the
    # chart's right edge)
    labels = [
        alt.Chart(typical_data)
        .transform_filter((alt.datum.model == model) & when)
        .mark_text(
            align="left" if right else "right",
            dx=4 if right else -4,
            dy=dy,
            baseline="top",
            fontWeight="bold",
            lineBreak="\n",
        )
        .encode(x=alt.X("x:Q", scale=x_scale), y=alt.value(0), text="label:N")
        for model, dy, left_from in ((CENTRAL, 4, CENTRAL_LEFT_FROM), (LOCAL, 34, LOCAL_LEFT_FROM))
        for right, when in ((True, alt.datum.x < left_from), (False, alt.datum.x >= left_from))
    ]
    return alt.layer(area, outline, rules, *labels).properties(
        title="How far off is one answer? Central versus local",
        height=340,
        width=ui_charts.DEFAULT_WIDTH,
    )


@datasets.cached(max_entries=64)
def error_distribution() -> Template:
    """Template: both |error| distributions on one log axis (0.01 … 100,000 people), central
    solid blue, local dashed orange ("bins": model, start, end, share), each model's typical
    error as a labelled rule ("typical": model, x, label)."""
    return Template(
        _error_distribution_layers(alt.NamedData(name="bins"), alt.NamedData(name="typical"))
    )


def _error_versus_n_layers(lines_data, ends_data, size_data) -> alt.LayerChart:
    """Log-log lines of sd versus n (`lines_data`: model, n, sd), a label at each line's
    end (`ends_data`: model, n, sd, label) and the dataset's size as a dashed labelled rule
    (`size_data`: n, label)."""
    x = alt.X(
        "n:Q",
        title="number of people n (log scale)",
        scale=alt.Scale(type="log", domain=list(N_DOMAIN), nice=False),
        axis=alt.Axis(values=[100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000], format=",~s"),
    )
    y = alt.Y(
        "sd:Q",
        title="typical error (people, log scale)",
        scale=alt.Scale(type="log", domain=list(SD_DOMAIN), nice=False, clamp=True),
        axis=alt.Axis(values=[0.01, 1, 100, 10_000, 1_000_000], format=",~g"),
    )
    lines = (
        alt.Chart(lines_data)
        .mark_line(strokeWidth=2.5)
        .encode(
            x=x,
            y=y,
            **model_style(legend=True),
            tooltip=[
                alt.Tooltip("model:N"),
                alt.Tooltip("n:Q", format=",.0f", title="people"),
                alt.Tooltip("sd:Q", format=",.2f", title="typical error"),
            ],
        )
    )
    end_labels = (
        alt.Chart(ends_data)
        .mark_text(align="right", dx=-4, dy=-10, fontWeight="bold")
        .encode(x=x, y=y, text="label:N")
    )
    rule = (
        alt.Chart(size_data)
        .mark_rule(color=ui_charts.TRUTH_COLOUR, strokeDash=[6, 3], strokeWidth=1.5)
        .encode(x=x)
    )
    # written at the foot of the rule: at its top, the local line's label (at a small ε,
    # where that line leaves the plot's top) ran over it on a phone. No line comes within
    # 30 px of the foot on the right of any size (the lowest, local at ε = 10 and n = 100,
    # is 0.06 people)
    rule_label = (
        alt.Chart(size_data)
        .mark_text(align="left", dx=4, dy=-4, baseline="bottom", fontWeight="bold")
        .encode(x=x, y=alt.value("height"), text="label:N")
    )
    return alt.layer(lines, end_labels, rule, rule_label).properties(
        title="Typical error versus the number of people",
        height=340,
        width=ui_charts.DEFAULT_WIDTH,
    )


@datasets.cached(max_entries=64)
def error_versus_n() -> Template:
    """Template: log-log lines of sd versus n, fixed axes ("lines", "ends" labelling each
    line's end); the dataset's size as a dashed labelled rule ("size")."""
    return Template(
        _error_versus_n_layers(
            alt.NamedData(name="lines"), alt.NamedData(name="ends"), alt.NamedData(name="size")
        )
    )
