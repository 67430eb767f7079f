"""AppTest of lessons/central_vs_local.py: the ε slider moved, and the metrics and both charts'
data checked against the dp/ formulas at the chosen values."""

import numpy as np
import pandas as pd
import pytest

import dp
from apptest_helpers import chart_titled, frames_of, metric_starting, spec_of
from conftest import page_apptest
from ui import lesson_central_vs_local as lesson

PAGE = "central_vs_local.py"
TRUTH, N = 3_650, 32_561
CENTRAL, LOCAL = lesson.CENTRAL, lesson.LOCAL


def run_page(epsilon: float | None = None):
    at = page_apptest(PAGE).run()
    assert not at.exception, at.exception
    if epsilon is not None:
        at.select_slider(key="cvl_eps").set_value(epsilon)
        at.run()
        assert not at.exception, at.exception
    return at


def chart_data(at, title_start: str) -> tuple[dict, pd.DataFrame]:
    """The spec and the largest data frame of the chart whose title starts so."""
    element = chart_titled(at, title_start, prefix=True)
    return spec_of(element), max(frames_of(element).values(), key=len)


def test_default_shows_truth_and_typical_errors():
    at = run_page()
    assert metric_starting(at, "True count") == "3,650"
    assert metric_starting(at, "Typical error, central") == f"± {dp.laplace_std(1, 1.0):,.2f}"
    assert metric_starting(at, "Typical error, local") == f"± {dp.local_count_std(N, 1.0):,.1f}"
    # sqrt(32,561) e^0.5 / (e - 1) / (sqrt 2 / 1) = 122.4
    assert metric_starting(at, "Local is worse here by") == "about 122×"
    assert all(element.proto.alt for element in at.get("vega_lite_chart"))


@pytest.mark.parametrize("epsilon", [0.1, 2.0, 10.0, 0.01])
def test_epsilon_slider_updates_metrics_and_both_charts(epsilon):
    at = run_page(epsilon)
    ratio = dp.local_to_central_error_ratio(N, epsilon)
    assert metric_starting(at, "Local is worse here by") == f"about {ratio:,.0f}×"
    assert metric_starting(at, "Keep-probability") == f"{dp.rr_keep_probability(epsilon):.3f}"
    assert metric_starting(at, "Typical error, central") == f"± {dp.laplace_std(1, epsilon):,.2f}"

    spec, bins = chart_data(at, "How far off is one answer")
    assert set(bins["model"]) == {CENTRAL, LOCAL}
    assert len(bins) == 2 * (len(lesson.ERROR_EDGES) - 1)
    # each model's bins hold all the probability; the central one is exact
    for model in (CENTRAL, LOCAL):
        assert bins.loc[bins["model"] == model, "share"].sum() == pytest.approx(1.0)
    central = bins[bins["model"] == CENTRAL]
    lo, hi = central["start"].to_numpy()[1:-1], central["end"].to_numpy()[1:-1]
    assert central["share"].to_numpy()[1:-1] == pytest.approx(
        dp.laplace_abs_error_probability(lo, hi, sensitivity=1, epsilon=epsilon)
    )
    # the local errors centre on the local sd: median bin within a factor 3 of it
    local = bins[bins["model"] == LOCAL]
    cumulative = np.cumsum(local["share"].to_numpy())
    median_bin = local["start"].to_numpy()[np.searchsorted(cumulative, 0.5)]
    sd = dp.local_count_std(N, epsilon)
    assert sd / 3 < median_bin < sd * 3
    x_scale = spec["layer"][0]["encoding"]["x"]["scale"]
    assert x_scale["type"] == "log" and x_scale["domain"] == [0.01, 100_000.0]

    _, lines = chart_data(at, "Typical error versus the number of people")
    central_line = lines[lines["model"] == CENTRAL]
    local_line = lines[lines["model"] == LOCAL]
    assert central_line["sd"].to_numpy() == pytest.approx(dp.laplace_std(1, epsilon))
    assert local_line["sd"].to_numpy() == pytest.approx(
        dp.local_count_std(local_line["n"].to_numpy(), epsilon)
    )
    assert local_line["n"].min() == pytest.approx(100)
    assert local_line["n"].max() == pytest.approx(10_000_000)


def test_ratio_grows_like_root_n():
    at = run_page(0.5)
    small = metric_starting(at, "n = 1,000: local / central")
    large = metric_starting(at, "n = 1,000,000: local / central")
    assert small == f"{dp.local_to_central_error_ratio(1_000, 0.5):,.0f}×"
    assert large == f"{dp.local_to_central_error_ratio(1_000_000, 0.5):,.0f}×"
    # 1,000x the people: sqrt(1,000) = 31.6x the ratio
    assert dp.local_to_central_error_ratio(1_000_000, 0.5) / dp.local_to_central_error_ratio(
        1_000, 0.5
    ) == pytest.approx(1000**0.5)


def test_chart_builders_pass_vega_lite_validation():
    # the page sends specs built with validate=False (speed); validate them here once
    frame = lesson.error_distributions(TRUTH, N, 0.5, 1)
    lesson.error_distribution_chart(frame, 2.0, 300.0).to_dict()
    lesson.error_versus_n_chart(lesson.error_versus_n(0.5), N).to_dict()
