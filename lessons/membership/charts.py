"""Chart templates of the lesson "Membership inference and auditing" (data-free; the page
fills them)."""

from __future__ import annotations

import altair as alt

from lessons.membership.model import BUGGY, HONEST, TRIALS
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template
from ui.tracing import SCORE_DOMAIN

roc = ui_charts.roc

GROUP_COLOURS = {"members": ui_charts.VERMILLION, "non-members": ui_charts.BLUE}
AUDIT_COLOURS = [ui_charts.BLUE, ui_charts.VERMILLION]
BOUND_DOMAIN = (0.0, 4.5)  # twice the largest claimed ε (2) is 4
CLAIM_RIGHT_FROM = 0.25
LEGEND = ui_charts.STACKED_LEGEND


@datasets.cached(max_entries=4)
def score_histograms(height: int = 260) -> Template:
    """Template: the share of members and of non-members per tracing-score bin (x fixed in
    non-member standard deviations, √ y 0..100%), the score that flags 1% of non-members as
    a labelled rule. Datasets "scores" (group, start, end, share) and "truth" (x, label)."""
    x_scale = alt.Scale(domain=list(SCORE_DOMAIN), nice=False)
    bars = ui_charts.binned_bars(
        "scores",
        # two lines: on a phone one ran 17 px past the chart
        x_title=["tracing score", "(standard deviations of the non-members' scores)"],
        x_scale=x_scale,
        y=alt.Y(
            "share:Q",
            stack=None,
            title="share of the group",
            scale=alt.Scale(type="sqrt", domain=[0.0, 1.0]),
            axis=alt.Axis(format="~%", values=[0.01, 0.05, 0.1, 0.25, 0.5, 1.0]),
        ),
        tooltip=[
            alt.Tooltip("group:N"),
            alt.Tooltip("start:Q", format=".1f", title="score from"),
            alt.Tooltip("end:Q", format=".1f", title="to"),
            alt.Tooltip("share:Q", format=".1%"),
        ],
        mark={"opacity": 0.6},
        color=alt.Color(
            "group:N",
            scale=alt.Scale(domain=list(GROUP_COLOURS), range=list(GROUP_COLOURS.values())),
            legend=LEGEND,
        ),
    )
    rule = ui_charts.truth_rule_layers(x_scale, label_dy=4, flip_at=8.0)
    return Template((bars + rule).properties(height=height, width=ui_charts.DEFAULT_WIDTH))


def audit_bounds(height: int = 280) -> Template:
    """Template: "ε ≥ bound" against the number of trials (log x, 100 to 1,000,000; y fixed
    0..4.5) for the honest and the buggy count, the claimed ε as a labelled dashed line and
    the chosen number of trials as a rule. Datasets "bounds" (trials, mechanism, bound),
    "claim" (y, label) and "truth" (x, label)."""
    return ui_charts.curves(
        ui_charts.Axis(
            "trials",
            "trials on each of the two datasets (log scale)",
            (TRIALS[0], TRIALS[-1]),
            log=True,
            format=",~r",
            values=(100, 1_000, 10_000, 100_000, 1_000_000),
            tip="trials",
            tip_format=",",
        ),
        ui_charts.Axis("bound", "the audit proves ε ≥", BOUND_DOMAIN, tip="ε ≥", tip_format=".3f"),
        ui_charts.Series(
            "mechanism", (HONEST, BUGGY), colours=tuple(AUDIT_COLOURS), legend="stacked"
        ),
        data="bounds",
        points=True,
        levels=("claim", "y"),
        # the claim's label at the line's right end from a claim of CLAIM_RIGHT_FROM: at the
        # left the buggy count's audit climbs through it (0.8 at 100 trials, 1.55 at 300 for
        # a claim of 1); at 0.1 both audits end within a label's height of the line, and
        # start under it
        levels_right=CLAIM_RIGHT_FROM,
        rule=True,
        rule_flip_at=30_000,
        height=height,
    )
