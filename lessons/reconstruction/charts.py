"""Chart templates of the lesson "Reconstruction attacks" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from lessons.reconstruction.model import EPSILON_CURVE
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

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


# the layers both curves share: the labelled reference lines ("levels": share, label) and
# the chosen setting's diamond ("mark": x, share), whose words are the title's second line:
# beside it, a label was crossed by the curve or its error bars in some state ("this release:
# 1 of 10" at ε = 0.05 by the bar at 0.25; "your E: 72%" at n = 500, m = 100), on every side
COMMON = {
    "levels": ("levels", "share"),
    "levels_right": "right",  # each level's label where level_places found room for it
    "levels_below": "under",
    "mark": "mark",
    "mark_label": False,
}
DN_DOMAIN = (0.0, 4.0)  # the attack's x axis: E in units of √n


def level_places(
    curve: pd.DataFrame,
    x: str,
    levels: tuple[tuple[str | tuple[str, ...], float], ...],
    *,
    with_bars: bool,
) -> tuple[tuple[str, bool, bool], ...]:
    """Each level's words and where they go, (label, right, under), clear of the curve (`x`
    against "share", with its "low"–"high" bars `with_bars`) (ui.charts.placed_level_labels;
    a level's words may be (longest, shorter)): a small block's curve climbs through
    "made-up people" near ε = 1, a small n's falls through the majority guess near
    E = 2.5·√n."""
    bars = {"low": curve["low"], "high": curve["high"]} if with_bars else {}
    domain = (EPSILON_CURVE[0], EPSILON_CURVE[-1]) if x == "epsilon" else DN_DOMAIN
    return tuple(
        ui_charts.placed_level_labels(
            [(share, label) for label, share in levels],
            curve[x],
            curve["share"],
            x_domain=domain,
            y_domain=(0.0, 1.0),
            x_log=x == "epsilon",
            **bars,
        )
    )


def defence_curve() -> Template:
    """Template: share of the block reconstructed exactly against ε (log x, fixed 0.1–16;
    y fixed 0–100%): mean of the noisy releases with ± 1 SE bars ("curve": epsilon, share,
    low, high), reference lines for the exact tables and made-up people ("levels"), this
    release at your ε as a diamond ("mark": epsilon, share)."""
    return ui_charts.curves(
        ui_charts.Axis.on_grid(
            "epsilon", "privacy loss ε (log scale; left = more private)", EPSILON_CURVE, tip="ε"
        ),
        _share("people reconstructed exactly", "reconstructed", ".0%"),
        data="curve",
        points=True,
        error_bars=("low", "high"),
        height=ui_charts.DEFAULT_HEIGHT,
        **COMMON,
    )


@datasets.cached(max_entries=8)
def dinur_nissim_curve() -> Template:
    """Template: share of secret bits the least-squares attack gets right against the noise
    bound in units of √n (x fixed 0–4, y fixed 0–100%) ("curve": ratio, share), the rule
    E = √n, the majority guess ("levels"), your E as a diamond ("mark": ratio, share)."""
    x = ui_charts.Axis(
        "ratio",
        "noise bound E in units of √n (right = more noise)",
        DN_DOMAIN,
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
        **COMMON,
    )
    # E = √n rises from the axis to ROOT_RULE_TOP only, labelled at its top: where its label
    # is (E from √n to 1.7·√n) the attack gets 60% or more right (every n and m, seeds 0-11),
    # so the chosen E's diamond, above it, meets neither
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
