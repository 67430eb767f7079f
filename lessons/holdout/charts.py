"""Chart templates of the lesson "The reusable holdout" (data-free; the page fills them)."""

from __future__ import annotations

from lessons.holdout.model import ACCURACY_DOMAIN, LINES, MOST
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template


@datasets.cached(max_entries=2)
def accuracy(with_rule: bool) -> Template:
    """Template: the classifier's accuracy on the training set, on the holdout as the analyst
    sees it and on fresh data, against the number of features k (0 to MOST), the truth (50%)
    as a black line in the legend (a label on it would sit on the lines that hug it) and,
    `with_rule`, the chosen k as a labelled dashed rule. Datasets "curves" (k, accuracy,
    line) and, with the rule, "truth" (x, label)."""
    return ui_charts.curves(
        ui_charts.Axis(
            "k",
            "features in the classifier, k",
            (0.0, float(MOST)),
            format="d",
            values=tuple(float(v) for v in range(0, MOST + 1, 50)),
            tip="k",
        ),
        ui_charts.Axis(
            "accuracy",
            "accuracy",
            ACCURACY_DOMAIN,
            format="~%",
            tip="accuracy",
            tip_format=".1%",
        ),
        ui_charts.Series(
            "line",
            LINES,
            colours=(ui_charts.BLUE, ui_charts.VERMILLION, ui_charts.GREEN, ui_charts.BLACK),
            dashes=((1, 0), (6, 3), (2, 2), (8, 2, 2, 2)),
            widths=(2.5, 2.5, 2.5, 1.5),
            legend="stacked",
        ),
        rule=with_rule,
        rule_flip_at=300.0,
    )
