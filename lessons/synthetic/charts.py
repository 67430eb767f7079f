"""Chart templates of the lesson "Synthetic data" (data-free; the page fills them)."""

from __future__ import annotations

import altair as alt

from lessons.synthetic.model import EPSILONS, ROUNDS
from ui import charts as ui_charts
from ui import datasets
from ui.template import Template

# A column header on two lines at most ("never" over "married", "high school" over "or
# less"), so no header is cut to "never marri…" at a projector's font size; a third line ran
# down into the first row's counts.
_WORDS = "split(datum.label, ' ')"
WORD_PER_LINE = (
    f"length({_WORDS}) > 2 ? [join(slice({_WORDS}, 0, 2), ' '), join(slice({_WORDS}, 2), ' ')]"
    f" : {_WORDS}"
)


@datasets.cached(max_entries=16)
def heatmaps(
    rows: tuple[str, ...],
    columns: tuple[str, ...],
    height: int = 160,
    *,
    row_title: str = "row",
    column_title: str = "column",
) -> Template:
    """Template: a two-way marginal as two heatmaps, real above synthetic (colour: people,
    √ scale fixed 0..32,561), the count written in each cell; stacked, so that a phone
    shows both whole. Datasets "real" and "synthetic" (row, column, count); the two
    columns' names (`row_title`, "age band") head a cell's tooltip and its numbers table."""

    def heatmap(name: str, title: str) -> alt.LayerChart:
        base = alt.Chart(alt.NamedData(name=name), title=title).encode(
            x=alt.X(
                "column:N",
                sort=list(columns),
                title=None,
                axis=alt.Axis(labelAngle=0, labelLimit=0, orient="top", labelExpr=WORD_PER_LINE),
            ),
            y=alt.Y("row:N", sort=list(rows), title=None, axis=alt.Axis(labelLimit=140)),
        )
        cells = base.mark_rect().encode(
            color=alt.Color(
                "count:Q",
                scale=alt.Scale(type="sqrt", domain=[0, 32_561], scheme="blues"),
                legend=None,
            ),
            tooltip=[
                alt.Tooltip("row:N", title=row_title),
                alt.Tooltip("column:N", title=column_title),
                alt.Tooltip("count:Q", title="people", format=",.0f"),
            ],
        )
        labels = base.mark_text().encode(
            text=alt.Text("count:Q", format=",.0f"),
            color=alt.condition(alt.datum.count > 8_000, alt.value("white"), alt.value("black")),
        )
        return (cells + labels).properties(height=height, width=300)

    chart = alt.vconcat(heatmap("real", "real"), heatmap("synthetic", "synthetic"), spacing=24)
    # The counts' size is the config's, not the mark's, so that presenter mode enlarges them
    # (a mark's own fontSize is kept: 12 px read as 11 on a projector)
    return Template(chart.configure_text(fontSize=12))


SERIES = ("MWEM, max", "MWEM, mean", "naive, max", "naive, mean")


def errors_by_rounds(height: int = 260) -> Template:
    """Template: the workload error (max and mean over every two-way marginal cell) against
    the rounds T (log x), MWEM against the naive release at the same ε (flat), the chosen T
    as a rule; the real table's error is 0, the x axis. Datasets "errors" (rounds, series,
    error) and "truth" (x, label)."""
    blue, orange = ui_charts.BLUE, ui_charts.ORANGE
    return ui_charts.curves(
        ui_charts.Axis.on_grid(
            "rounds", "rounds T (log scale)", ROUNDS, format=",~r", tip_format=","
        ),
        ui_charts.Axis(
            "error", "error in people (real data: 0)", (0, 12_000), tip="people", tip_format=",.0f"
        ),
        ui_charts.Series(
            "series",
            SERIES,
            colours=(blue, blue, orange, orange),
            dashes=((1, 0), (4, 3), (1, 0), (4, 3)),
            legend="two columns",
        ),
        data="errors",
        points=True,
        rule=True,
        rule_flip_at=300,
        height=height,
    )


@datasets.cached(max_entries=16)
def choices(marginals: tuple[str, ...]) -> Template:
    """Template: how many rounds measured each two-way marginal. Dataset "choices"
    (marginal, rounds)."""
    bars = (
        alt.Chart(alt.NamedData(name="choices"))
        .mark_bar(color=ui_charts.BLUE)
        .encode(
            y=alt.Y("marginal:N", sort=list(marginals), title=None, axis=alt.Axis(labelLimit=260)),
            x=alt.X("rounds:Q", title="rounds that measured it"),
            tooltip=[alt.Tooltip("marginal:N"), alt.Tooltip("rounds:Q", format=",")],
        )
    )
    return Template(
        bars.properties(height=22 * max(len(marginals), 2), width=ui_charts.DEFAULT_WIDTH)
    )


MODELS = (
    "trained on real data",
    "trained on MWEM's synthetic data",
    "trained on the naive synthetic data",
)


def accuracy_by_epsilon(height: int = 240) -> Template:
    """Template: a classifier's accuracy on the real table against ε (log x, y fixed 50..90%).
    Dataset "accuracy" (epsilon, model, accuracy)."""
    return ui_charts.curves(
        ui_charts.Axis.on_grid(
            "epsilon", "ε of the synthetic data (log scale; ← more private)", EPSILONS, tip="ε"
        ),
        ui_charts.Axis(
            "accuracy", "accuracy on the real people", (0.5, 0.9), format="~%", tip_format=".1%"
        ),
        ui_charts.Series(
            "model",
            MODELS,
            colours=(ui_charts.BLACK, ui_charts.BLUE, ui_charts.ORANGE),
            legend="stacked",
        ),
        data="accuracy",
        points=True,
        height=height,
    )
