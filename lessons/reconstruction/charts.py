"""Chart templates of the lesson "Reconstruction attacks" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt

from lessons.reconstruction.model import EPSILON_CURVE
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

FLIP_AT = 2.0  # the chosen point's label sits right of it below this x, left of it above
# ... on the curve against ε, from ε = 1 (a decade of room on a phone): the curve rises with
# ε, so on the left it is lower; on the right it climbed through "this release: 5 of 10"
DEFENCE_FLIP_AT = 1.0
ROOT_RULE_TOP = 0.45  # share: the E = √n rule's top


def _share(title: str, tip: str, tip_format: str) -> ui_charts.Axis:
    return ui_charts.Axis(
        "share",
        title,
        (0.0, 1.0),
        format="%",
        values=(0, 0.25, 0.5, 0.75, 1),
        tip=tip,
        tip_format=tip_format,
    )


def label_place(share: float, levels, *, curve: float | None = None) -> str:
    """Where the chosen setting's label goes by its point (`share`): not over the label of a
    reference line at one of `levels`, nor across the `curve` at the point (one release off
    the mean of many) (ui.charts.mark_label_place). Found in presenter mode: "this release:
    3 of 12" over "made-up people: 31.9%", "your E: 72%" over "guess '<=50K' for all:
    78.2%"; "this release: 1 of 10" across the curve at ε = 0.1."""
    return ui_charts.mark_label_place(
        share,
        levels,
        (0.0, 1.0),
        ui_charts.DEFAULT_HEIGHT,
        lines=() if curve is None else (curve,),
    )


# the layers both curves share: the labelled reference lines ("levels": share, label) and
# the chosen setting ("mark": x, share, label)
COMMON = {"levels": ("levels", "share"), "mark": "mark", "mark_flip_at": FLIP_AT}


def defence_curve() -> Template:
    """Template: share of the block reconstructed exactly against ε (log x, fixed 0.1–16;
    y fixed 0–100%): mean of the noisy releases with ± 1 SE bars ("curve": epsilon, share,
    low, high), reference lines for the exact tables and made-up people ("levels"), your ε
    ("mark": epsilon, share, label)."""
    return ui_charts.curves(
        ui_charts.Axis.on_grid(
            "epsilon", "privacy loss ε (log scale; left = more private)", EPSILON_CURVE, tip="ε"
        ),
        _share("people reconstructed exactly", "reconstructed", ".0%"),
        data="curve",
        points=True,
        error_bars=("low", "high"),
        height=ui_charts.DEFAULT_HEIGHT,
        **{**COMMON, "mark_flip_at": DEFENCE_FLIP_AT},
    )


@datasets.cached(max_entries=8)
def dinur_nissim_curve() -> Template:
    """Template: share of secret bits the least-squares attack gets right against the noise
    bound in units of √n (x fixed 0–4, y fixed 0–100%) ("curve": ratio, share), the rule
    E = √n, the majority guess ("levels"), your E ("mark": ratio, share, label)."""
    x = ui_charts.Axis(
        "ratio",
        "noise bound E in units of √n (right = more noise)",
        (0.0, 4.0),
        values=(0, 0.5, 1, 1.5, 2, 3, 4),
        tip="E / √n",
    )
    share = _share("secret bits the attack gets right", "right", ".1%")
    line = ui_charts.curve_layers(
        x,
        share,
        data="curve",
        points=True,
        tips=(("bound", "E", ".1f"),),
        # the majority's label at the right end: at the left the curve falls from 100%
        # through it at every setting; at E = 4·√n the attack is under the line for n ≥ 300 at
        # every m (seeds 0-11), and for most seeds at smaller n
        levels_right=True,
        **COMMON,
    )
    # E = √n rises from the axis to ROOT_RULE_TOP only, labelled at its top: where its label
    # is (E from √n to 1.7·√n) the attack gets 60% or more right (every n and m, seeds 0-11),
    # so the chosen E's diamond and label, above it, meet neither
    encode_x = alt.X("ratio:Q", scale=x.scale())
    root = alt.Chart(
        alt.Data(values=[{"ratio": 1.0, "low": 0.0, "high": ROOT_RULE_TOP, "label": "E = √n"}])
    )
    root_rule = root.mark_rule(color=ui_charts.VERMILLION, strokeWidth=2).encode(
        x=encode_x, y=alt.Y("low:Q", scale=share.scale()), y2="high:Q"
    )
    root_text = root.mark_text(
        align="left", baseline="top", dx=4, color=ui_charts.VERMILLION, fontWeight="bold"
    ).encode(x=encode_x, y=alt.Y("high:Q", scale=share.scale()), text="label:N")
    chart = (line + root_rule + root_text).properties(
        height=ui_charts.DEFAULT_HEIGHT, width=ui_charts.DEFAULT_WIDTH
    )
    return Template(chart)
