"""Chart templates of the lesson "Central versus local" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

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
from ui import template as ui_template
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


# Each typical error's label: two lines in a row of its own at the plot's top (its first
# line this many px under the top, times the text's scale), beside its rule
LABEL_ROWS = {CENTRAL: 4, LOCAL: 34}
PLOT_HEIGHT = 340
RIGHT, LEFT, IN_TITLE = ui_charts.RIGHT, ui_charts.LEFT, ""
TITLE = "How far off is one answer? Central versus local"


def typical_sides(
    bins: pd.DataFrame, typical: pd.DataFrame, *, text_scale: float | None = None
) -> list[str]:
    """Where each typical error's label (a row of `typical`: model, x, label) goes beside its
    rule (ui.charts.rule_label_side: RIGHT, else LEFT, else IN_TITLE, its words the title's
    second line), clear of either model's step outline of `bins` and of the other rule.
    Found: "central sd ± 1.414" right of its rule crossed by the local rule at 173 on a
    phone; "local sd ± 18,045" right of its rule past the chart's right edge (ε = 0.01); on
    a projector at ε = 10 "central sd ± 0.1414" crossed on its right by the local outline's
    tallest bin at 0.13–0.16 people, with no room on its left."""
    treads, risers = [], []
    for _, outline in bins.groupby("model", sort=False):
        tread, riser = ui_charts.step_outline(
            outline["start"], np.minimum(outline["share"], SHARE_MAX)
        )
        treads.append(tread)
        risers += riser
    rules = dict(zip(typical["model"], typical["x"], strict=True))
    return [
        ui_charts.rule_label_side(
            rules[model],
            label,
            top=LABEL_ROWS[model],
            x_domain=ERROR_DOMAIN,
            y_domain=(0.0, SHARE_MAX),
            x_log=True,
            lines=tuple(treads),
            bars=tuple(risers),
            rules=tuple(x for name, x in rules.items() if name != model),
            height=PLOT_HEIGHT,
            text_scale=text_scale,
        )
        for model, label in zip(typical["model"], typical["label"], strict=True)
    ]


def placed_typical(bins: pd.DataFrame, typical: pd.DataFrame) -> tuple[pd.DataFrame, object]:
    """`typical` with each label's side ("side", `typical_sides`) and the chart's title,
    for this run's text (presenter mode's or the page's): made once per cached `bins` (the
    same object for every student; hashing it per press cost as much as placing)."""
    scale = ui_template.current_text_scale()

    def placed() -> tuple[pd.DataFrame, object]:
        sides = typical_sides(bins, typical, text_scale=scale)
        return typical.assign(side=sides), error_distribution_title(typical, sides)

    # `typical` comes from the same cached result as `bins` (model.error_distribution_data)
    return datasets.derived_from(bins, ("typical_sides", id(typical), scale), placed)


def error_distribution_title(typical: pd.DataFrame, sides: list[str]) -> str | list[str]:
    """The chart's title, and the words of each label `typical_sides` found no room for
    beside its rule."""
    untold = [
        label.replace("\n", " ") + (" (solid rule)" if model == CENTRAL else " (dashed rule)")
        for model, label, side in zip(typical["model"], typical["label"], sides, strict=True)
        if side == IN_TITLE
    ]
    return [TITLE, "; ".join(untold)] if untold else TITLE


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
    # each rule's label (two lines) in a row of its own at the top, on the side of its rule
    # that typical_sides found clear ("side"); none where its words are in the title
    labels = [
        alt.Chart(typical_data)
        .transform_filter((alt.datum.model == model) & (alt.datum.side == side))
        .mark_text(
            align="left" if side == RIGHT else "right",
            dx=4 if side == RIGHT else -4,
            dy=dy,
            baseline="top",
            fontWeight="bold",
            lineBreak="\n",
        )
        .encode(x=alt.X("x:Q", scale=x_scale), y=alt.value(0), text="label:N")
        for model, dy in LABEL_ROWS.items()
        for side in (RIGHT, LEFT)
    ]
    return alt.layer(area, outline, rules, *labels).properties(
        title=TITLE,
        height=PLOT_HEIGHT,
        width=ui_charts.DEFAULT_WIDTH,
    )


@datasets.cached(max_entries=64)
def error_distribution() -> Template:
    """Template: both |error| distributions on one log axis (0.01 … 100,000 people), central
    solid blue, local dashed orange ("bins": model, start, end, share), each model's typical
    error as a rule ("typical": model, x, label, side), labelled on its `typical_sides`
    side (the page passes the title `error_distribution_title` writes)."""
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
