"""AppTest for lessons/beyond_global/page.py: every widget moved to its extremes and the
numbers it then shows checked against dp/; the leak revealed after a guess, links, code,
downloads, quiz, an uploaded file."""

import math

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import apptest_helpers as helpers
import dp
from data.census import load_census
from lessons.beyond_global import model as lesson
from ui import controls, text

PAGE = "beyond_global/page.py"


@pytest.fixture(scope="module")
def everyone() -> np.ndarray:
    return load_census()["Age"].to_numpy(dtype=float)


def group(everyone: np.ndarray, size: int) -> np.ndarray:
    if size == 0:
        return everyone
    return np.random.default_rng(lesson.SAMPLE_SEED).choice(everyone, size=size, replace=False)


def hosted(*, upload: tuple[str, bytes] | None = None, **params: str) -> AppTest:
    return helpers.hosted_page(PAGE, upload=upload, timeout_s=120, **params)


@pytest.mark.parametrize("size", lesson.SIZES)
def test_every_group_size_shows_its_median_and_both_sensitivities(size, everyone) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="bg_n").set_value(size).run()
    assert not at.exception
    ages = group(everyone, size)
    shown = helpers.metrics(at)
    assert shown["Median age"] == text.number(dp.clamped_median(ages, 0, 100))
    assert shown["Global sensitivity (any dataset)"] == "100 years"
    assert shown["Local sensitivity (this dataset)"] == lesson.years(
        dp.median_local_sensitivity(ages, 0, 100)
    )
    points = helpers.frames_of(helpers.chart_titled(at, "The ages around the median", prefix=True))[
        "ages"
    ]
    sorted_ages = np.sort(np.clip(ages, 0, 100))
    m = (ages.size + 1) // 2
    assert points.loc[points["offset"] == 0, "age"].tolist() == [sorted_ages[m - 1]]
    assert points["which"].tolist().count("the median xₘ") == 1
    # every section follows the group
    epsilon_scale = dp.smooth_median_scale(ages, 0, 100, 1.0, lesson.DELTA)
    assert helpers.metrics(at)["Noise scale 2S/ε"] == lesson.years(epsilon_scale)
    d = dp.median_distance_to_instability(ages, 0, 100, 2.0)
    assert helpers.metrics(at)["Distance to instability d"] == text.number(d)


def test_local_sensitivity_leaks_only_after_the_guess() -> None:
    at = helpers.run_lesson(PAGE)
    assert not [
        c for c in helpers.charts(at) if "Lap(LS/ε)" in helpers.title_of(helpers.spec_of(c))
    ]
    assert at.button(key="bg_leak_show").disabled  # one behaviour: a guess first
    assert "Pick your guess first: the releases appear here once you have." in [
        c.value for c in at.caption
    ]
    at.radio(key="bg_leak_guess").set_value("Often: the noise scale gives it away").run()
    at.button(key="bg_leak_show").click().run()
    assert at.success[0].value.startswith("Right. y's local sensitivity is 0")
    at.radio(key="bg_leak_guess").set_value("Never: both have the same median").run()
    assert at.info[-1].value.startswith("The answer: “Often: the noise scale gives it away”.")
    chart = helpers.chart_titled(at, "Releases of median + Lap(LS/ε): x against y")
    frames = helpers.frames_of(chart)
    assert frames["truth"]["x"].tolist() == [30.0]
    b = 50.0 / lesson.LEAK_EPSILON
    np.testing.assert_allclose(
        frames["density"]["density"], np.exp(-np.abs(frames["density"]["age"] - 30) / b) / (2 * b)
    )
    leak = lesson.leak()
    assert leak.local_x == 50.0 and leak.local_y == 0.0
    assert leak.measured > 8  # as large as 50,000 runs can show: the truth is ∞
    assert f"proves ε ≥ {text.number(leak.measured)}" in helpers.prose(at)


@pytest.mark.parametrize("epsilon", [0.1, 10.0])
def test_epsilon_moves_beta_the_smooth_sensitivity_and_the_errors(epsilon, everyone) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="bg_eps").set_value(epsilon).run()
    ages = group(everyone, 101)
    beta = epsilon / (2 * math.log(2 / lesson.DELTA))
    s = dp.median_smooth_sensitivity(ages, 0, 100, beta)
    shown = helpers.metrics(at)
    assert shown["β = ε / (2 ln(2/δ))"] == text.number(beta)
    assert shown["Smooth sensitivity S"] == lesson.years(s)
    assert shown["Noise scale 2S/ε"] == lesson.years(2 * s / epsilon)
    title = f"Typical error of three private medians at ε = {text.number(epsilon)}"
    errors = helpers.frames_of(helpers.chart_titled(at, title))["errors"]
    laplace = errors[errors["method"] == lesson.METHODS[0]]["error"]
    np.testing.assert_allclose(laplace, math.sqrt(2) * 100 / epsilon)
    smooth = errors[(errors["method"] == lesson.METHODS[2]) & (errors["n"] == 101)]["error"]
    assert smooth.iloc[0] == pytest.approx(math.sqrt(2) * 2 * s / epsilon)
    name, _ = lesson.winner(errors, 101)
    assert f"the **{name}** wins" in helpers.prose(at)


def test_the_exponential_mechanisms_error_is_exact(everyone) -> None:
    ages = group(everyone, 101)
    grid = np.arange(0.0, 101.0)
    p = dp.exponential_mechanism_probabilities(dp.quantile_scores(ages, grid, 0.5), 1.0, 1.0)
    truth = dp.clamped_median(ages, 0, 100)
    errors = lesson.errors(1.0)
    em = errors[(errors["method"] == lesson.METHODS[1]) & (errors["n"] == 101)]["error"]
    assert em.iloc[0] == pytest.approx(math.sqrt(np.sum(p * (grid - truth) ** 2)))


def test_the_smooth_median_beats_the_global_one_only_on_large_groups() -> None:
    errors = lesson.errors(1.0)
    by = errors.pivot(index="n", columns="method", values="error")
    assert by.loc[11, lesson.METHODS[2]] > by.loc[11, lesson.METHODS[0]]  # 11 people: worse
    assert by.loc[1001, lesson.METHODS[2]] < by.loc[1001, lesson.METHODS[0]] / 10


@pytest.mark.parametrize(("bound", "epsilon"), [(0.5, 0.1), (50.0, 10.0), (10.0, 1.0)])
def test_ptr_at_the_extremes_refuses_or_releases_exactly_as_computed(bound, epsilon, everyone):
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="bg_bound").set_value(bound).run()
    at.select_slider(key="bg_ptr_eps").set_value(epsilon).run()
    assert not at.exception
    ages = group(everyone, 101)
    d = dp.median_distance_to_instability(ages, 0, 100, bound)
    refusal = dp.ptr_refusal_probability(d, epsilon, lesson.DELTA)
    shown = helpers.metrics(at)
    assert shown["Distance to instability d"] == text.number(d)
    assert shown["Test threshold ln(1/δ)/ε"] == text.number(math.log(1e6) / epsilon)
    assert shown["Chance of refusing"] == text.percent(refusal)
    seed = controls.DEFAULT_SEED + lesson.SEED_PTR
    release = dp.propose_test_release(
        dp.clamped_median(ages, 0, 100), d, bound, epsilon, lesson.DELTA, rng=seed
    )
    assert shown["This run's output"] == ("⊥ refused" if release is None else text.number(release))
    curve = helpers.frames_of(helpers.chart_titled(at, "How often PTR refuses", prefix=True))
    assert curve["truth"]["x"].tolist() == [bound]
    assert "(2ε, δ)-DP" in helpers.prose(at)


@pytest.mark.parametrize(("k", "epsilon"), [(5, 0.1), (1000, 10.0)])
def test_sample_and_aggregate_at_its_extremes(k, epsilon) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="bg_k").set_value(k).run()
    at.select_slider(key="bg_sa_eps").set_value(epsilon).run()
    assert not at.exception
    frame = lesson.aggregate_errors(epsilon)
    noise = frame[(frame["k"] == k) & (frame["part"] == "noise")]["error"].iloc[0]
    assert noise == pytest.approx(math.sqrt(2) * 2 / (k * epsilon))
    total = frame[(frame["k"] == k) & (frame["part"] == "total")]["error"].iloc[0]
    assert helpers.metrics(at)["Typical error at this k"] == text.number(total)
    totals = frame[frame["part"] == "total"]
    best = int(totals.loc[totals["error"].idxmin(), "k"])
    assert helpers.metrics(at)["The best k at this ε"] == text.number(best)
    seed = controls.DEFAULT_SEED + lesson.SEED_SPLIT
    assert helpers.metrics(at)["One private release of the slope"] == text.number(
        lesson.one_release(k, epsilon, seed)
    )


def test_more_blocks_trade_noise_for_each_blocks_error() -> None:
    blocks = lesson.block_error()
    assert blocks[1000] > blocks[5]  # smaller blocks, worse slopes
    frame = lesson.aggregate_errors(1.0)
    noise = frame[frame["part"] == "noise"]["error"].to_numpy()
    assert np.all(np.diff(noise) < 0)
    data, truth = lesson.hours_on_age()
    slope = np.polyfit(data[:, 0], data[:, 1], 1)[0]
    assert truth == pytest.approx(slope)


def test_a_link_reproduces_the_view_and_a_bad_one_falls_back() -> None:
    at = hosted(bg_n="1,001 people", bg_eps="2", bg_bound="10", bg_k="500")
    assert not at.toast
    assert helpers.chart_titled(at, "The ages around the median, 1,001 people") is not None
    assert helpers.chart_titled(at, "Typical error of three private medians at ε = 2") is not None
    at = hosted(bg_eps="0.0123")
    assert helpers.toasts(at) == [helpers.ignored_link_notice("bg_eps", "0.0123")]


def test_code_downloads_and_the_snippets_rebuild_the_numbers(monkeypatch) -> None:
    sent = helpers.record_downloads(monkeypatch)
    at = helpers.run_lesson(PAGE)
    namespace: dict = {}
    (smooth_code,) = helpers.code_texts(at, "median_smooth_sensitivity")
    exec(compile(smooth_code, "<snippet>", "exec"), namespace)  # noqa: S102 — our own snippet
    assert namespace["smooth"] == pytest.approx(lesson.smooth(101, 1.0).smooth)
    (ptr_code,) = helpers.code_texts(at, "propose_test_release")
    exec(compile(ptr_code, "<snippet>", "exec"), namespace)  # noqa: S102
    np.testing.assert_allclose(
        namespace["frame"]["refusal"], lesson.ptr(101, 2.0, 1.0, 0).curve["refusal"]
    )
    assert sent["bg_dl_smooth"][1][0] == "k,curve,value"
    assert sent["bg_dl_errors"][1][0] == "n,method,error"
    assert sent["bg_dl_ptr"][1][0] == "bound,refusal"
    assert sent["bg_dl_sa"][1][0] == "k,part,error"


def test_an_uploaded_file_is_named_and_the_census_is_used() -> None:
    at = helpers.census_after_upload(PAGE)
    assert helpers.metrics(at)["Median age"] == "36"


@pytest.mark.parametrize("size", [11, 0])
def test_the_smooth_charts_alt_text_names_the_ks_it_draws(size) -> None:
    """At n = 11 the curves stop at k = 11 (the median cannot move further), not at the
    axis' 60: the alt text says what the data holds."""
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="bg_n").set_value(size).run()
    chart = helpers.chart_titled(at, "A⁽ᵏ⁾ and its discounted version", prefix=True)
    drawn = int(helpers.frames_of(chart)["curves"]["k"].max())
    assert drawn == (11 if size == 11 else lesson.MAX_K_DRAWN)
    assert f"Two lines against k from 0 to {drawn}:" in helpers.description_of(at, chart)
    # the smooth sensitivity, the diamond's words, in the title (beside the diamond, A⁽ᵏ⁾
    # rising from the same corner crossed them)
    smooth = lesson.smooth(size, lesson.DEFAULT_EPSILON).smooth
    title = helpers.title_of(helpers.spec_of(chart))
    assert title.endswith(f"◆ smooth sensitivity S = {text.number(smooth)}")


@pytest.mark.parametrize("epsilon", [0.1, 0.2])
def test_who_wins_says_why_the_smooth_median_loses_or_wins_from_s(epsilon, everyone) -> None:
    """Finding: at n = 101 the smooth median lost to the global bound at ε = 0.1 ("on this
    few people") and beat it at ε = 0.2 ("as soon as the group is large enough"), the same
    101 people. It loses exactly when its noise scale 2S/ε passes the global 100/ε."""
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="bg_eps").set_value(epsilon).run()
    beta = epsilon / (2 * math.log(2 / lesson.DELTA))
    s = dp.median_smooth_sensitivity(group(everyone, 101), 0, 100, beta)
    prose = helpers.prose(at)
    assert f"smooth sensitivity S = {text.number(s)} years" in prose
    loses = 2 * s > 100
    assert loses == (epsilon == 0.1), "the two states the finding names"
    assert ("noisier than even the global bound" in prose) == loses
    assert ("Here the smooth median beats the global bound" in prose) == (not loses)
    assert "as soon as the group is large enough" not in prose
