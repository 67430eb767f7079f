"""Where the |error| chart writes each typical error (lessons/central_vs_local/charts.py
`typical_sides`): beside its rule where no line crosses it and it stays inside the plot,
else in the title. Shares and widths as the chart draws them (0 to 35%, 0.01 to 100,000
people on a log axis; a phone's plot 270 px wide, a laptop's 440, a projector's 600 with
17/11 larger text)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from lessons.central_vs_local import charts
from lessons.central_vs_local import model as lesson

EDGES = lesson.ERROR_EDGES
LAPTOP, PRESENTER = 1.0, 17 / 11


def bins(central_peak: float, local_peak: float, *, local_height: float = 0.08) -> pd.DataFrame:
    """Two low outlines, each a single bin of `local_height` (the local) or 8% (the central)
    starting at the edge nearest its peak."""
    frames = []
    for model, peak, height in (
        (lesson.CENTRAL, central_peak, 0.08),
        (lesson.LOCAL, local_peak, local_height),
    ):
        share = np.zeros(EDGES.size - 1)
        share[np.searchsorted(EDGES, peak) - 1] = height
        frames.append(pd.DataFrame({"model": model, "start": EDGES[:-1], "share": share}))
    return pd.concat(frames, ignore_index=True)


def typical(central: float, local: float) -> pd.DataFrame:
    return lesson.typical_frame(central, local)


def test_labels_go_right_of_their_rules_when_nothing_is_there() -> None:
    assert charts.typical_sides(bins(1.0, 100.0), typical(1.414, 173.0), text_scale=LAPTOP) == [
        charts.RIGHT,
        charts.RIGHT,
    ]


def test_a_label_that_would_pass_the_plots_right_edge_goes_left() -> None:
    """ε = 0.01: "local sd ± 18,045" right of its rule ran past the chart's edge."""
    sides = charts.typical_sides(bins(100.0, 18_000.0), typical(141.4, 18_045.0), text_scale=1.0)
    assert sides == [charts.RIGHT, charts.LEFT]


def test_the_other_rule_or_a_tall_bin_beside_a_label_moves_it() -> None:
    # the local rule 1.7 decades right of the central one: inside the central label's width
    # on a phone, so left of its rule (room enough from 1.414 down to 0.01)
    assert charts.typical_sides(bins(1.0, 40.0), typical(1.414, 40.0), text_scale=1.0)[0] == (
        charts.LEFT
    )
    # the local outline's bin at 0.13-0.16 people as tall as the label's row (33%): crossed
    # right of the central rule at 0.1414 (a projector at ε = 10), no room on its left
    tall = bins(0.03, 0.14, local_height=0.33)
    assert charts.typical_sides(tall, typical(0.1414, 50.0), text_scale=PRESENTER)[0] == (
        charts.IN_TITLE
    )
    # the same outline low: right of the rule again
    low = bins(0.03, 0.14, local_height=0.1)
    assert charts.typical_sides(low, typical(0.1414, 50.0), text_scale=PRESENTER)[0] == (
        charts.RIGHT
    )


def test_what_has_no_room_beside_its_rule_is_said_in_the_title() -> None:
    rows = typical(0.1414, 1.216)
    assert charts.error_distribution_title(rows, [charts.RIGHT, charts.LEFT]) == charts.TITLE
    assert charts.error_distribution_title(rows, [charts.IN_TITLE, charts.RIGHT]) == [
        charts.TITLE,
        "central sd ±\u00a00.1414 (solid rule)",
    ]
    assert charts.error_distribution_title(rows, [charts.IN_TITLE, charts.IN_TITLE]) == [
        charts.TITLE,
        "central sd ±\u00a00.1414 (solid rule); local sd ±\u00a01.216 (dashed rule)",
    ]
