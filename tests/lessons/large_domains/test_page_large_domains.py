"""AppTest for lessons/large_domains/page.py: every widget moved to its extremes and the
numbers it then shows checked against dp/; the prediction, links, code, downloads, quiz, an
uploaded file."""

import math

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import apptest_helpers as helpers
import dp
from data.census import load_census
from data.deployments import load_deployments
from lessons.large_domains import model as lesson
from ui import controls, text

PAGE = "large_domains/page.py"


def hosted(*, upload: tuple[str, bytes] | None = None, **params: str) -> AppTest:
    return helpers.hosted_page(PAGE, upload=upload, timeout_s=120, **params)


@pytest.mark.parametrize("epsilon", [0.25, 6.0, 2.0])
def test_epsilon_moves_the_three_oracles_and_the_crossover(epsilon) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ld_eps").set_value(epsilon).run()
    assert not at.exception
    g, p, q = dp.olh_parameters(epsilon)
    shown = helpers.metrics(at)
    assert shown["OLH: buckets g"] == text.number(g)
    assert shown["GRR beats OUE below k* ="] == text.number(3 * math.exp(epsilon) + 2)
    curves = helpers.frames_of(
        helpers.chart_titled(at, "Typical error of one count against k", prefix=True)
    )
    frame = curves["curves"]
    grr = frame[frame["oracle"] == lesson.ORACLES[0]].set_index("k")["sd"]
    for k in (2, int(grr.index[len(grr) // 2]), 100_000):
        assert grr.loc[k] == pytest.approx(math.sqrt(dp.grr_variance(32_561, epsilon, k)))
    olh = frame[frame["oracle"] == lesson.ORACLES[2]]["sd"].iloc[0]
    assert olh == pytest.approx(math.sqrt(dp.olh_variance(32_561, epsilon)))
    assert curves["truth"]["x"].tolist() == [pytest.approx(3 * math.exp(epsilon) + 2)]
    bits = frame[frame["oracle"] == lesson.ORACLES[1]].set_index("k")["bits"]
    assert bits.loc[100_000] == 100_000


def test_the_prediction_is_marked_against_the_crossover() -> None:
    at = helpers.run_lesson(PAGE)  # ε = 2: k* = 3e² + 2 ≈ 24.2, nearest option 20
    right = lesson.GUESS_OPTIONS.index(20)
    helpers.answer_quiz(at, "large_domains_predict", 0, right)
    assert at.success[-1].value.startswith("Right.")
    assert text.number(3 * math.exp(2) + 2) in at.success[-1].value


@pytest.mark.parametrize("epsilon", [0.25, 6.0])
def test_olh_live_at_the_extremes(epsilon) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ld_live_eps").set_value(epsilon).run()
    assert not at.exception
    result = lesson.live(epsilon, controls.DEFAULT_SEED + lesson.SEED_OLH)
    shown = helpers.metrics(at)
    assert shown["Top-10 heavy hitters found"] == f"{result.found} of 10"
    rows = helpers.frames_of(
        helpers.chart_titled(at, "OLH estimates of the 20 most common ZIPs", prefix=True)
    )
    zips = rows["zips"]
    assert len(zips) == 20
    values = load_census()["Zip"].astype(int).to_numpy()
    codes, counts = np.unique(values, return_counts=True)
    assert zips["true count"].iloc[0] == counts.max()
    seeds, reports = dp.olh_perturb(values, 100_000, epsilon, rng=controls.DEFAULT_SEED + 10)
    top = codes[np.argsort(-counts, kind="stable")[:100]]
    expected = dp.olh_estimate(seeds, reports, 100_000, epsilon, candidates=top)
    np.testing.assert_allclose(zips["estimate"], expected[:20])
    if epsilon == 6.0:
        assert result.found >= 9
    else:
        assert result.found <= 8  # at ε = 0.25 the noise blurs the top ten


@pytest.mark.parametrize(("epsilon0", "n"), [(0.5, 10_000), (6.0, 10_000), (6.0, 10_000_000)])
def test_the_shuffle_model_at_the_extremes(epsilon0, n) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ld_eps0").set_value(epsilon0).run()
    at.select_slider(key="ld_n").set_value(n).run()
    assert not at.exception
    bound = math.log(n / (16 * math.log(2 / 1e-6)))
    if epsilon0 > bound:
        assert helpers.metrics(at)["Central ε"] == "the bound does not apply"
        assert any("ln(n / (16 ln(2/δ)))" in w.value for w in at.warning)
        with pytest.raises(ValueError, match="epsilon0"):
            dp.shuffle_epsilon(epsilon0, n, 1e-6)
    else:
        central = dp.shuffle_epsilon(epsilon0, n, 1e-6)
        assert helpers.metrics(at)["Central ε at δ = 10⁻⁶"] == text.number(central)
        assert central < epsilon0
        sd = math.sqrt(dp.grr_variance(n, epsilon0, 10))
        assert f"typical error of {text.number(sd)} per count" in helpers.prose(at)
        assert text.number(dp.laplace_std(1.0, central)) in helpers.prose(at)


def test_the_shuffle_curves_start_where_the_theorem_applies() -> None:
    curves = lesson.shuffle_curves()
    for eps0 in lesson.EPSILON0S:
        series = curves[curves["series"] == f"ε₀ = {text.number(eps0)}"]
        assert series["n"].min() >= 16 * math.log(2 / 1e-6) * math.exp(eps0)
        assert np.all(np.diff(series["epsilon"].to_numpy()) < 0)  # falls with n


def test_a_link_reproduces_the_view_and_a_bad_one_falls_back() -> None:
    at = hosted(ld_eps="4", ld_live_eps="1", ld_eps0="1", ld_n="100,000")
    assert not at.toast
    assert helpers.chart_titled(at, "Typical error of one count against k, ε = 4") is not None
    assert helpers.chart_titled(at, "OLH estimates of the 20 most common ZIPs, ε = 1") is not None
    at = hosted(ld_eps="0.0123")
    assert helpers.toasts(at) == [helpers.ignored_link_notice("ld_eps", "0.0123")]


def test_code_and_downloads(monkeypatch) -> None:
    sent = helpers.record_downloads(monkeypatch)
    at = helpers.run_lesson(PAGE)
    (code,) = helpers.code_texts(at, "olh_estimate")
    namespace: dict = {}
    exec(compile(code, "<snippet>", "exec"), namespace)  # noqa: S102 — our own snippet
    result = lesson.live(2.0, controls.DEFAULT_SEED + lesson.SEED_OLH)
    np.testing.assert_allclose(namespace["frame"]["estimate"], result.frame["estimate"])
    assert sent["ld_dl_k"][1][0] == "k,oracle,sd,bits"
    assert sent["ld_dl_live"][1][0] == "zip,true count,estimate,low,high,heavy hitter"


def test_an_uploaded_file_is_named_and_the_census_is_used() -> None:
    helpers.census_after_upload(PAGE)


def test_the_prediction_comes_before_what_answers_it() -> None:
    """ "Predict first" was asked right below "GRR beats OUE below k* = 24.17" and the chart
    with k* on it: it now opens the section."""

    at = helpers.run_lesson("large_domains/page.py")
    order = [
        getattr(node, "label", None) or getattr(node, "value", None)
        for node in _walk(at._tree)
        if getattr(node, "type", None) in ("radio", "metric", "vega_lite_chart")
    ]
    labels = [str(x) for x in order]
    question = next(i for i, x in enumerate(labels) if "up to about which k" in x)
    metric = labels.index("GRR beats OUE below k* =")
    assert question < metric


def _walk(node):
    for child in getattr(node, "children", {}).values():
        yield child
        yield from _walk(child)


def test_oue_and_olh_coincide_and_both_are_drawn() -> None:
    """The OUE line lay exactly under the OLH line: three series in the legend, two on
    screen. OLH is dotted over a wide solid OUE, and the page says they coincide."""
    from apptest_helpers import spec_of
    from lessons.large_domains import model as lesson
    from ui import text

    for epsilon in lesson.EPSILONS:
        assert lesson.olh_oue_gap(epsilon) < 0.01, epsilon  # the same error, give or take g
    at = helpers.run_lesson("large_domains/page.py")
    spec = spec_of(helpers.chart_titled(at, "Typical error of one count against k", prefix=True))
    encoding = spec["layer"][0]["encoding"]
    assert encoding["strokeDash"]["scale"]["range"][2] != [1, 0]  # OLH dotted
    widths = encoding["strokeWidth"]["scale"]["range"]
    assert widths[1] > widths[2]  # OUE wider, beneath
    gap = text.percent(lesson.olh_oue_gap(lesson.DEFAULT_EPSILON))
    assert f"OLH's variance equals OUE's (here within {gap})" in helpers.prose(at) or any(
        f"here within {gap}" in c.value for c in at.caption
    )


def test_apples_budgets_are_the_ones_the_course_lists() -> None:
    """Section 3 states the smallest and largest per-day ε Apple published, as listed in
    data/deployments.csv (it once said "2 to 8" while the course's table lists QuickType at
    16)."""
    table = load_deployments()
    apple = table[(table["organisation"] == "Apple") & (table["period"] == "per day")]
    low, high = apple["epsilon"].min(), apple["epsilon"].max()
    assert (low, high) == (2, 16)
    words = helpers.prose(helpers.run_lesson(PAGE))
    assert f"at ε = {text.number(low)} (Health Type Usage) to {text.number(high)} " in words
    assert "(QuickType suggestions) **per day**" in words
