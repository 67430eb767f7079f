"""Cached computations and chart builders for the two binary randomized-response lessons
(lessons/coin_flip.py and lessons/generalized_rr.py). The math is dp/'s; this module draws,
caches and aggregates (bins and summary rows, never raw samples to the browser)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

import dp
from ui import charts
from ui.data import census

SALES = "Sales"
REPEATS = 1_000

# Population sizes for the 1/√n lesson: a log-scale select_slider from 10 to 1,000,000.
N_GRID: tuple[int, ...] = (
    10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000,
    100_000, 200_000, 500_000, 1_000_000,
)  # fmt: skip

# ε values for the "error versus ε" curve (log-spaced, 0.01 to 10).
EPSILON_CURVE: tuple[float, ...] = tuple(float(x) for x in np.geomspace(0.01, 10.0, 61))


# --- data ---------------------------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=64)
def _census_truth(column: str, value: str) -> np.ndarray:
    """One bool per person of the census: is `column` equal to `value`? (missing → no)."""
    return (census()[column].astype(object) == value).to_numpy(dtype=bool, na_value=False)


def sales_truth() -> np.ndarray:
    """One bool per person of the census: does this person work in Sales? (NaN → no)."""
    return _census_truth("Occupation", SALES)


@dataclass(frozen=True)
class Survey:
    """The yes/no question a lesson asks and everybody's true answer to it, from the active
    dataset (the bundled census or this session's upload; an upload's truth is never put
    in a cross-session cache). `column` and `value` come from a file: plain text only."""

    column: str
    value: str
    truth: np.ndarray = field(repr=False, compare=False)
    on_census: bool

    @property
    def n(self) -> int:
        return int(self.truth.size)

    @property
    def true_yes(self) -> int:
        return int(self.truth.sum())

    @property
    def is_sales(self) -> bool:
        """The census's own question, "Do you work in Sales?"."""
        return self.on_census and (self.column, self.value) == ("Occupation", SALES)

    @property
    def question(self) -> str:
        """The question as plain text (escape it before any markdown)."""
        if self.column == "Occupation":
            return f"Do you work in {self.value}?"
        return f"Is your {self.column} “{self.value}”?"

    @property
    def x_title(self) -> str:
        """The axis title of a chart of count estimates."""
        return (
            "estimated number of salespeople" if self.is_sales else "estimated number of true yes"
        )

    @property
    def who(self) -> str:
        """Who answers yes truly, as a plural noun for labels (never file text)."""
        return "salespeople" if self.is_sales else "true yes"


def active_survey(condition) -> Survey:
    """The Survey for a `ui.userdata` Condition over the active dataset."""
    from ui import userdata

    name, frame = userdata.active_dataset()
    on_census = name.startswith(userdata.CENSUS_LABEL)
    if on_census:
        truth = _census_truth(condition.column, condition.value)
    else:
        truth = condition.mask(frame).to_numpy(dtype=bool)
    return Survey(condition.column, condition.value, truth, on_census)


def survey_question_picker(key: str) -> Survey | None:
    """The two RR lessons' opening: say which dataset is in use, let the learner pick the
    survey's yes/no question (a selectbox under `key`, bound to the link) and return its
    Survey — None when the dataset has no yes/no question (`pick_condition` warns)."""
    from ui import userdata

    userdata.show_dataset_in_use()
    condition = userdata.pick_condition(
        key,
        default="Occupation = Sales",
        label="The survey's yes/no question: does the person have…",
        bind="query-params",
    )
    return None if condition is None else active_survey(condition)


# --- draws (deterministic given the seed) -------------------------------------------------


def flip_two_coins(seed: int) -> tuple[bool, bool]:
    """Two fair coins (True = heads) from a seeded generator: one respondent's secret."""
    heads = np.random.default_rng(seed).random(2) < 0.5
    return bool(heads[0]), bool(heads[1])


@st.cache_data(show_spinner=False, max_entries=64)
def _census_responses(column: str, value: str, p: float, q: float, seed: int) -> np.ndarray:
    return dp.randomized_response(_census_truth(column, value), p, q, rng=seed)


def survey_responses(survey: Survey, p: float, q: float, seed: int) -> np.ndarray:
    """Every respondent's randomized answer to the survey's question (cached for the
    census only: an upload's answers stay in this session)."""
    if survey.on_census:
        return _census_responses(survey.column, survey.value, p, q, seed)
    return dp.randomized_response(survey.truth, p, q, rng=seed)


@st.cache_data(show_spinner=False, max_entries=256)
def repeated_yes_counts(true_yes: int, n: int, p: float, q: float, reps: int, seed: int):
    """Reported-"yes" counts of `reps` independent surveys (exact aggregate sampler)."""
    return dp.sample_rr_counts(true_yes, n, p, q, size=reps, rng=seed)


def repeated_count_estimates(true_yes: int, n: int, p: float, q: float, reps: int, seed: int):
    """De-biased count estimates n·r̂ of `reps` independent surveys."""
    counts = repeated_yes_counts(true_yes, n, p, q, reps, seed)
    return n * dp.estimate_proportion_from_counts(counts, n, p, q)


def surveys_frame(counts: np.ndarray, n: int, p: float, q: float, true_yes: int) -> pd.DataFrame:
    """The data behind a "repeat the survey" chart, one row per survey (the columns of the
    rr_repeated_surveys snippet): reported yes, the de-biased count, its error."""
    frame = pd.DataFrame(
        {
            "reported_yes": counts,
            "estimated_count": n * dp.estimate_proportion_from_counts(counts, n, p, q),
        }
    )
    frame["error"] = frame["estimated_count"] - true_yes
    return frame


def relative_error_percent(estimate: float, truth: float) -> float:
    """(estimate − truth) / truth in percent."""
    return 100.0 * (estimate - truth) / truth


def latex_number(x: float) -> str:
    """A number rounded to a whole, with thousands separators that LaTeX keeps tight."""
    return f"{x:,.0f}".replace(",", "{,}")


def percent(share) -> np.ndarray | float:
    """A share (0..1) as percentage points."""
    return 100.0 * share


@st.cache_data(show_spinner=False, max_entries=128)
def spread_versus_n(rate: float, p: float, q: float, seed: int) -> pd.DataFrame:
    """SD of the share estimate (percentage points) at every n of N_GRID: exact from
    dp.rr_variance and simulated from REPEATS surveys (dp.sample_rr_counts)."""
    rows = []
    for i, n in enumerate(N_GRID):
        true_yes = round(rate * n)
        exact = percent(dp.rr_count_std(true_yes / n, n, p, q) / n)
        counts = dp.sample_rr_counts(true_yes, n, p, q, size=REPEATS, rng=seed + i)
        simulated = percent(np.std(dp.estimate_proportion_from_counts(counts, n, p, q)))
        rows.append({"n": n, "kind": "exact", "sd": exact})
        rows.append({"n": n, "kind": "simulated", "sd": simulated})
    return pd.DataFrame(rows)


@st.cache_data(show_spinner=False, max_entries=32)
def error_versus_epsilon(true_yes: int, n: int) -> pd.DataFrame:
    """Exact SD of the count estimate for symmetric RR (p = q = e^ε/(1+e^ε)) over
    EPSILON_CURVE."""
    rows = []
    for eps in EPSILON_CURVE:
        keep = dp.rr_keep_probability(eps)
        rows.append({"epsilon": eps, "sd": dp.rr_count_std(true_yes / n, n, keep, keep)})
    return pd.DataFrame(rows)


# --- charts -------------------------------------------------------------------------------
# Each chart is an Altair template built once per set of plain parameters (cached as a
# Vega-Lite dict whose layers read *named* datasets), and every rerun only fills in the
# data rows (`charts.fill_template`): building an Altair chart costs 25-50 ms, copying a
# cached dict well under 1 ms.


@st.cache_data(show_spinner=False, max_entries=64)
def _histogram_template(
    domain: tuple[float, float], x_title: str, y_max: float, colour: str, with_band: bool
) -> dict:
    x_scale = alt.Scale(domain=list(domain), nice=False)
    bars = (
        alt.Chart(alt.Data(name="bins"))
        .mark_bar(color=colour, opacity=0.85)
        .encode(
            x=alt.X("start:Q", title=x_title, scale=x_scale),
            x2="end:Q",
            y2=alt.datum(0),
            y=alt.Y(
                "share:Q",
                title="share of surveys",
                axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, y_max], clamp=True),
            ),
            tooltip=[
                alt.Tooltip("start:Q", format=",.0f", title="from"),
                alt.Tooltip("end:Q", format=",.0f", title="to"),
                alt.Tooltip("count:Q", format=",", title="surveys"),
            ],
        )
    )
    layers = bars + charts.truth_rule_layers(x_scale)
    if with_band:
        layers += (
            alt.Chart(alt.Data(name="band"))
            .mark_rule(color=charts.VERMILLION, strokeDash=[2, 2], strokeWidth=2)
            .encode(x=alt.X("x:Q", scale=x_scale))
        )
    return charts.vega_template(
        layers.properties(title="", height=charts.DEFAULT_HEIGHT, width="container")
    )


def histogram_with_band(
    values: np.ndarray,
    *,
    truth: float,
    sd: float | None = None,
    domain: tuple[float, float],
    bins: int,
    title: str,
    x_title: str,
    y_max: float,
    colour: str = charts.NOISY_COLOUR,
) -> dict:
    """Vega-Lite spec: histogram (share per bin, fixed axes) with the truth as a dashed
    rule and, if `sd` is given, dotted rules at truth ± 2 SD (clamped to the axis)."""
    spec = _histogram_template(tuple(domain), x_title, y_max, colour, sd is not None)
    data = {
        "bins": charts.histogram_frame(values, domain=domain, bins=bins),
        "truth": [{"x": float(truth), "label": "true value"}],
    }
    if sd is not None:
        lo, hi = domain
        data["band"] = [
            {"x": min(max(truth - 2 * sd, lo), hi), "label": "−2 SD"},
            {"x": min(max(truth + 2 * sd, lo), hi), "label": "+2 SD"},
        ]
    return charts.fill_template(spec, title=title, datasets=data)


SPREAD_KINDS = ("exact", "simulated")


@st.cache_data(show_spinner=False)
def _spread_template() -> dict:
    colour = alt.Color(
        "kind:N",
        title=None,
        scale=alt.Scale(domain=list(SPREAD_KINDS), range=[charts.BLUE, charts.ORANGE]),
        legend=alt.Legend(orient="bottom"),
    )
    x_scale = alt.Scale(type="log", domain=[10, 1_000_000])
    y_scale = alt.Scale(type="log", domain=[0.05, 50])
    x = alt.X("n:Q", title="people asked, n (log scale)", scale=x_scale, axis=alt.Axis(format="~s"))
    y = alt.Y("sd:Q", title="SD (% points)", scale=y_scale)
    tooltip = [
        alt.Tooltip("n:Q", format=","),
        alt.Tooltip("kind:N"),
        alt.Tooltip("sd:Q", format=".3f"),
    ]
    line = (
        alt.Chart(alt.Data(name="exact"))
        .mark_line(strokeWidth=2)
        .encode(x=x, y=y, color=colour, tooltip=tooltip)
    )
    points = (
        alt.Chart(alt.Data(name="simulated"))
        .mark_point(shape="diamond", size=60, filled=True)
        .encode(x=x, y=y, color=colour, tooltip=tooltip)
    )
    here = alt.Chart(alt.Data(name="here"))
    rule = here.mark_rule(color=charts.BLACK, strokeDash=[6, 3]).encode(
        x=alt.X("n:Q", scale=x_scale)
    )
    label = here.mark_text(align="left", dx=5, dy=-8, fontWeight="bold", color=charts.BLACK).encode(
        x=alt.X("n:Q", scale=x_scale), y=alt.Y("sd:Q", scale=y_scale), text="label:N"
    )
    return charts.vega_template(
        (line + points + rule + label).properties(
            title="The spread shrinks like 1/√n", height=charts.DEFAULT_HEIGHT, width="container"
        )
    )


def spread_chart(frame: pd.DataFrame, current_n: int, current_sd: float) -> dict:
    """Vega-Lite spec, log-log: exact spread line, simulated points, current n marked."""
    return charts.fill_template(
        _spread_template(),
        datasets={
            "exact": frame[frame["kind"] == SPREAD_KINDS[0]].reset_index(drop=True),
            "simulated": frame[frame["kind"] == SPREAD_KINDS[1]].reset_index(drop=True),
            "here": [{"n": current_n, "sd": current_sd, "label": f"your n = {current_n:,}"}],
        },
    )


@st.cache_data(show_spinner=False)
def _error_epsilon_template() -> dict:
    x = alt.X(
        "epsilon:Q",
        title="privacy loss ε (log scale; ← more private)",
        scale=alt.Scale(type="log", domain=[0.01, 10]),
    )
    y = alt.Y(
        "sd:Q",
        title="SD (people)",
        scale=alt.Scale(type="log", domain=[1, 100_000]),
        axis=alt.Axis(format="~s"),
    )
    line = (
        alt.Chart(alt.Data(name="curve"))
        .mark_line(color=charts.BLUE, strokeWidth=2)
        .encode(
            x=x,
            y=y,
            tooltip=[alt.Tooltip("epsilon:Q", format=".3f"), alt.Tooltip("sd:Q", format=",.0f")],
        )
    )
    here = alt.Chart(alt.Data(name="here"))
    point = here.mark_point(shape="diamond", size=140, filled=True, color=charts.VERMILLION)
    text = here.mark_text(align="left", dx=9, dy=-9, fontWeight="bold", color=charts.BLACK)
    return charts.vega_template(
        (line + point.encode(x=x, y=y) + text.encode(x=x, y=y, text="label:N")).properties(
            title="",
            height=charts.DEFAULT_HEIGHT,
            width="container",
        )
    )


ERROR_TITLE = "Error of the count versus ε"
SAMPLING_TITLE = "Sampling distribution"


def sampling_title(n: int) -> dict:
    """The sampling-distribution chart's title, short enough for a phone."""
    return {"text": SAMPLING_TITLE, "subtitle": f"{REPEATS:,} surveys of n = {n:,}"}


def error_epsilon_title(question: str, n: int) -> dict:
    """The error chart's title, short enough for a phone (the details in the subtitle)."""
    return {"text": ERROR_TITLE, "subtitle": f"{question} (n = {n:,})"}


def error_epsilon_chart(
    frame: pd.DataFrame,
    current_eps: float | None,
    current_sd: float | None,
    label: str,
    title: str | dict = "",
) -> dict:
    """Vega-Lite spec, log-log: SD of the count estimate versus ε, the current point marked
    (clamped to the axes) when there is one."""
    here = []
    if current_eps is not None and current_sd is not None:
        here = [
            {
                "epsilon": min(max(current_eps, 0.01), 10.0),
                "sd": min(max(current_sd, 1.0), 100_000.0),
                "label": label,
            }
        ]
    return charts.fill_template(
        _error_epsilon_template(), title=title, datasets={"curve": frame, "here": here}
    )


LN_RATIO_LIMIT = 5.0
REPORTS = ("reported yes", "reported no")
RATIO_TITLE = "What each report reveals"


def ratio_frame(p: float, q: float) -> pd.DataFrame:
    """One row per report (yes / no): its ln likelihood ratio, clipped to ±LN_RATIO_LIMIT
    for drawing, its size |ln ratio| (clipped) and a text label (±∞ where unbounded)."""
    rows = []
    for report, value in zip(REPORTS, dp.rr_likelihood_ratios(p, q), strict=True):
        shown = max(min(value, LN_RATIO_LIMIT), -LN_RATIO_LIMIT)
        text = ("∞" if value > 0 else "−∞") if math.isinf(value) else f"{value:.2f}"
        rows.append({"report": report, "ln_ratio": shown, "size": abs(shown), "text": text})
    return pd.DataFrame(rows)


@st.cache_data(show_spinner=False)
def _ratio_template() -> dict:
    x_scale = alt.Scale(domain=[0, LN_RATIO_LIMIT], nice=False, clamp=True)
    band = alt.Chart(alt.Data(name="band"))
    shade = band.mark_rect(color=charts.GREY, opacity=0.25).encode(
        x=alt.X("lo:Q", scale=x_scale), x2="hi:Q"
    )
    edge = band.mark_rule(color=charts.BLACK, strokeDash=[6, 3], strokeWidth=2).encode(
        x=alt.X("hi:Q", scale=x_scale)
    )
    y = alt.Y("report:N", title=None, sort=list(REPORTS), scale=alt.Scale(domain=list(REPORTS)))
    reports = alt.Chart(alt.Data(name="reports"))
    bars = reports.mark_bar(height=22).encode(
        y=y,
        x=alt.X("size:Q", title="|ln likelihood ratio|", scale=x_scale),
        color=alt.Color(
            "report:N",
            scale=alt.Scale(domain=list(REPORTS), range=[charts.ORANGE, charts.SKY]),
            legend=None,
        ),
        tooltip=["report:N", "text:N"],
    )
    labels = reports.mark_text(align="left", dx=4, fontWeight="bold").encode(
        y=y, x=alt.X("size:Q", scale=x_scale), text="text:N"
    )
    return charts.vega_template(
        (shade + edge + bars + labels).properties(
            title=alt.Title(RATIO_TITLE, subtitle="grey band: up to ε · dashed line: ε"),
            # A step height: with a fixed pixel height the two bands collapsed onto one row.
            height=alt.Step(40),
            width="container",
        )
    )


def ratio_chart(p: float, q: float, epsilon: float) -> dict:
    """Vega-Lite spec, horizontal bars: |ln| of each report's likelihood ratio, with the
    band [0, ε] shaded."""
    return charts.fill_template(
        _ratio_template(),
        datasets={
            "band": [{"lo": 0.0, "hi": min(epsilon, LN_RATIO_LIMIT), "label": "ε"}],
            "reports": ratio_frame(p, q),
        },
    )
