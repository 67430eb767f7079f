"""AppTest of the k-ary randomized response lesson: every widget moved, the numbers it then
shows checked against dp/ at the chosen values."""

import numpy as np
import pytest

import dp
from apptest_helpers import specs_and_frames
from conftest import page_apptest
from ui import lesson_kary, widgets

SEED = widgets.DEFAULT_SEED


def metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


@pytest.fixture(scope="module")
def at():
    return page_apptest("kary_rr.py").run()


def test_page_opens_on_occupation_at_epsilon_half(at):
    assert not at.exception
    assert at.radio(key="kary_attribute").value == "occupation"
    assert at.select_slider(key="kary_eps").value == 0.5
    p, q = dp.grr_probabilities(0.5, 14)
    assert metric(at, "Categories k") == "14"
    assert metric(at, "Keep the truth p") == f"{p:.3f}"
    assert metric(at, "Each other value q") == f"{q:.4f}"
    # 32,561 people minus the 1,843 with no occupation recorded
    assert metric(at, "People surveyed n") == "30,718"
    assert any("1,843" in c.value for c in at.caption)


@pytest.mark.parametrize(
    ("key", "k", "n"),
    [
        ("age_sex", 4, 32_561),
        ("race", 5, 32_561),
        ("education", 16, 32_561),
        ("occupation", 14, 30_718),
    ],
)
@pytest.mark.parametrize("epsilon", [0.1, 2.0])
def test_every_attribute_and_epsilon_shows_dp_numbers(key, k, n, epsilon):
    at = page_apptest("kary_rr.py").run()
    at.radio(key="kary_attribute").set_value(key).run()
    at.select_slider(key="kary_eps").set_value(epsilon).run()
    assert not at.exception
    attr = lesson_kary.attribute(key)
    assert attr.k == k and attr.n == n
    p, q = dp.grr_probabilities(epsilon, k)
    assert metric(at, "Categories k") == str(k)
    assert metric(at, "Keep the truth p") == f"{p:.3f}"
    assert metric(at, "People surveyed n") == f"{n:,}"
    # The survey, redrawn independently with the same seed and sampler.
    reported = dp.sample_grr_counts(attr.counts, epsilon, rng=SEED + lesson_kary.SEED_HISTOGRAM)
    raw = dp.grr_estimate_from_counts(reported, epsilon)
    projected = dp.project_counts(raw, n)
    assert metric(at, "L1 error, raw") == f"{dp.l1_error(raw, attr.counts):,.0f}"
    assert metric(at, "L1 error, projected") == f"{dp.l1_error(projected, attr.counts):,.0f}"
    assert (
        metric(at, "L1 error, clipped") == f"{dp.l1_error(dp.clip_counts(raw), attr.counts):,.0f}"
    )
    variance = dp.grr_variance(n, epsilon, k)
    assert metric(at, f"Variance of one count at k = {k}") == f"{variance:,.0f}"
    # Charts: the first shows exactly these reported and estimated counts, on a fixed axis.
    (spec, data), (_, post), (vspec, vdata) = specs_and_frames(at)
    assert f"ε = {epsilon:g}" in spec["title"]["text"]
    bars = data["bars"]
    np.testing.assert_allclose(bars[bars.series == "reported"]["count"], reported)
    np.testing.assert_allclose(bars[bars.series == "estimated"]["count"], raw)
    np.testing.assert_array_equal(data["truth"]["true count"], attr.counts)
    np.testing.assert_allclose(post["bars"][post["bars"].series == "projected"]["count"], projected)
    assert spec["layer"][1]["encoding"]["x"]["scale"]["domain"] == list(
        lesson_kary.count_domain(attr)
    )
    np.testing.assert_allclose(
        vdata["curve"]["variance"], [dp.grr_variance(n, epsilon, kk) for kk in range(2, 65)]
    )
    assert vdata["here"]["k"].tolist() == [k]


def test_axes_do_not_depend_on_epsilon():
    at = page_apptest("kary_rr.py").run()
    before = [s for s, _ in specs_and_frames(at)]
    at.select_slider(key="kary_eps").set_value(5.0).run()
    after = [s for s, _ in specs_and_frames(at)]
    for a, b in zip(before, after, strict=True):
        a.pop("title"), b.pop("title")
        assert a == b


def test_projection_never_raises_the_l2_error_in_the_table(at):
    table = lesson_kary.error_table("occupation", SEED)
    shown = at.dataframe[0].value
    assert shown["ε"].tolist() == ["0.1", "0.3", "0.5", "1", "2", "5"]
    assert shown["L1 raw"].tolist() == [f"{v:,.0f}" for v in table["L1 raw"]]
    assert shown["L2 projected"].tolist() == [f"{v:,.0f}" for v in table["L2 projected"]]
    assert (table["L2 projected"] <= table["L2 raw"]).all()
    # Errors fall as ε grows.
    assert table["L1 raw"].is_monotonic_decreasing


def test_error_table_is_a_mean_over_many_surveys():
    # Mean L2 error over 200 surveys vs the known variance: E[L2²] = Σ_v Var[ĉ_v]; with
    # Jensen, mean L2 <= sqrt(Σ Var); with ~4 effective degrees of freedom the gap is about
    # 10 %, and the mean of 200 draws sits within ~2 % of its expectation (SE ≈ 0.35/√200).
    attr = lesson_kary.attribute("race")
    table = lesson_kary.error_table("race", SEED)
    row = table[table["ε"] == 1.0].iloc[0]
    total_variance = sum(
        dp.grr_variance(attr.n, 1.0, attr.k, frequency=c / attr.n) for c in attr.counts
    )
    assert row["L2 raw"] <= np.sqrt(total_variance) * 1.05
    assert row["L2 raw"] >= np.sqrt(total_variance) * 0.8
