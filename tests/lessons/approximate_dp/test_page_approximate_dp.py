"""AppTest for lessons/approximate_dp/page.py: every widget moved, the numbers and chart data
it then shows checked against dp/ at the chosen values; links, code, downloads, quiz, your
own file."""

import math

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import apptest_helpers as helpers
import dp
from data.deployments import load_deployments
from lessons.approximate_dp import model as lesson
from ui import text

PAGE = "approximate_dp/page.py"
EXPOSURE = "(0, δ)-DP that publishes records"
DELTA_CURVE = "Gaussian with σ = "
SIGMA = "Noise for one count at δ = "
TOTAL = "Total ε of k answers"
CONVERT = "ρ = "
CENSUS_PEOPLE = 32_561


def hosted(*, upload: tuple[str, bytes] | None = None, **params: str) -> AppTest:
    return helpers.hosted_page(PAGE, upload=upload, timeout_s=60, **params)


def prose(at: AppTest) -> str:
    return " ".join(block.value for block in at.markdown)


def test_defaults_show_the_exact_numbers_of_dp() -> None:
    at = helpers.run_lesson(PAGE)
    shown = helpers.metrics(at)
    expected, chance = dp.delta_exposure(1e-5, CENSUS_PEOPLE)
    assert shown["People published in full, on average (n·δ)"] == text.number(expected) == "0.3256"
    assert shown["Chance at least one is"] == text.percent(chance) == "27.8%"
    sigma = dp.analytic_gaussian_sigma(1, 1.0, 1e-5)
    assert shown["Gaussian σ"] == text.number(sigma) == "3.731"
    assert shown["Laplace noise SD"] == text.number(math.sqrt(2)) == "1.414"
    assert shown["P[loss > ε]"] == text.power_of_ten(dp.gaussian_loss_tail(sigma, 1, 1.0))
    assert shown["Exact δ(ε)"] == "10⁻⁵"
    assert shown["Classic σ at ε = 0.5"] == text.number(dp.gaussian_sigma_classic(1, 0.5, 1e-5))
    assert shown["Classic σ at ε = 0.5"] == "9.69"
    assert shown["Analytic σ at ε = 0.5"] == text.number(dp.analytic_gaussian_sigma(1, 0.5, 1e-5))
    assert shown["100 queries, Laplace basic"] == f"ε = {text.number(100 * math.sqrt(2) / 10)}"
    zcdp = dp.zcdp_to_approx_dp(100 * dp.gaussian_zcdp_rho(1, 10), 1e-5)
    assert shown["100 queries, Gaussian zCDP"] == f"ε = {text.number(zcdp)}"
    # the census persons file: ρ = 2.56 at δ = 10⁻¹⁰ is ε ≈ 17.16 (the published 17.158)
    assert shown["ε at δ = 10⁻¹⁰ (tight)"] == "17.16"
    assert shown["ε by the simple formula"] == text.number(dp.zcdp_to_approx_dp_simple(2.56, 1e-10))


def test_every_chart_has_fixed_axes_alt_text_and_exact_data() -> None:
    at = helpers.run_lesson(PAGE)
    curve = helpers.frames_of(helpers.chart_titled(at, DELTA_CURVE, prefix=True))
    sigma = dp.analytic_gaussian_sigma(1, 1.0, 1e-5)
    # your (ε, δ), the diamond's words, in the title (beside it the curves crossed them)
    title = helpers.title_of(helpers.spec_of(helpers.chart_titled(at, DELTA_CURVE, prefix=True)))
    assert (
        title == f"Gaussian with σ = {text.number(sigma)}: δ at every ε′ ◆ your (ε, δ) = (1, 10⁻⁵)"
    )
    exact = curve["curves"][curve["curves"]["curve"] == lesson.EXACT]
    expected = np.maximum(dp.gaussian_delta(sigma, 1, exact["epsilon"].to_numpy()), 1e-15)
    np.testing.assert_allclose(exact["delta"], expected, rtol=1e-12)
    assert curve["mark"][["epsilon", "delta"]].iloc[0].tolist() == [1.0, 1e-5]
    laplace = helpers.frames_of(helpers.chart_titled(at, "Laplace: privacy loss ÷ ε"))["bins"]
    assert laplace["mass"].sum() == pytest.approx(1.0, abs=1e-9)
    assert laplace[laplace["side"] == lesson.BEYOND]["mass"].isna().all()  # never beyond ε
    # every bin is a row at every ε (an empty one has no mass), so the chart redraws in place
    assert len(laplace) == len(
        helpers.frames_of(helpers.chart_titled(at, "Gaussian: privacy loss ÷ ε"))["bins"]
    )
    at_epsilon = laplace[np.isclose(laplace["end"], 1.0)]["mass"].iloc[0]
    assert at_epsilon > 0.5  # the atom: half of all outputs have loss exactly ε
    gaussian = helpers.frames_of(helpers.chart_titled(at, "Gaussian: privacy loss ÷ ε"))["bins"]
    beyond = gaussian[gaussian["side"] == lesson.BEYOND]["mass"].sum()
    assert beyond == pytest.approx(dp.gaussian_loss_tail(sigma, 1, 1.0), rel=1e-3)
    for element in at.get("vega_lite_chart"):
        assert helpers.description_of(at, element), "every chart has alt text"
    assert "27.8%" in helpers.description_of(at, helpers.chart_titled(at, EXPOSURE, prefix=True))


def test_delta_slider_of_section_1_moves_the_exposure() -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ad_n_delta").set_value(1e-3).run()
    expected, chance = dp.delta_exposure(1e-3, CENSUS_PEOPLE)
    assert helpers.metrics(at)["People published in full, on average (n·δ)"] == text.number(
        expected
    )
    # 1 − 7·10⁻¹⁵: all but certain, not certain
    assert helpers.metrics(at)["Chance at least one is"] == text.percent(chance) == "over 99.9999%"
    chart = helpers.chart_titled(at, EXPOSURE, prefix=True)
    mark = helpers.frames_of(chart)["mark"]
    assert mark["delta"].iloc[0] == 1e-3
    assert mark["chance"].iloc[0] == chance
    # the diamond's words are the title's (beside it they ran through the curve's rise)
    assert helpers.title_of(helpers.spec_of(chart)).endswith(
        f"n = {CENSUS_PEOPLE:,} ◆ your δ = 10⁻³: over 99.9999%"
    )
    assert "label" not in mark.columns
    rule = helpers.frames_of(helpers.chart_titled(at, EXPOSURE, prefix=True))["truth"]
    assert rule["x"].iloc[0] == pytest.approx(1 / CENSUS_PEOPLE)


def test_epsilon_and_delta_recalibrate_sigma_and_every_chart_of_section_2() -> None:
    at = helpers.run_lesson(PAGE)
    axes_before = helpers.chart_titled(at, "Gaussian, σ = ", prefix=True).proto.spec
    at.select_slider(key="ad_eps").set_value(0.2).run()
    at.select_slider(key="ad_delta").set_value(1e-10).run()
    sigma = dp.analytic_gaussian_sigma(1, 0.2, 1e-10)
    shown = helpers.metrics(at)
    assert shown["Gaussian σ"] == text.number(sigma)
    assert shown["Laplace noise SD"] == text.number(dp.laplace_std(1, 0.2))
    assert shown["Exact δ(ε)"] == "10⁻¹⁰"
    # The densities and losses below have their own ε and δ (a fragment each): not moved yet.
    helpers.chart_titled(at, "Laplace, b = 1")
    at.select_slider(key="ad_loss_eps").set_value(0.2)
    at.select_slider(key="ad_loss_delta").set_value(1e-10).run()
    densities = helpers.frames_of(helpers.chart_titled(at, f"Gaussian, σ = {text.number(sigma)}"))[
        "densities"
    ]
    peak = densities[densities["world"] == lesson.WORLD_D]["density"].max()
    assert peak == pytest.approx(1 / (sigma * math.sqrt(2 * math.pi)), rel=1e-9)
    # the axes are fixed: only the title and the data changed
    spec = helpers.chart_titled(at, "Gaussian, σ = ", prefix=True).proto.spec
    assert (
        axes_before.split('"datasets"')[0].split('"title"')[0]
        == spec.split('"datasets"')[0].split('"title"')[0]
    )
    laplace = helpers.frames_of(helpers.chart_titled(at, "Laplace, b = 5"))["densities"]
    assert laplace["density"].max() == pytest.approx(0.1)  # 1/(2b), b = 1/0.2


def test_sigma_section_compares_classic_and_analytic_at_its_own_delta() -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ad_sigma_delta").set_value(1e-8).run()
    shown = helpers.metrics(at)
    classic, analytic = (
        dp.gaussian_sigma_classic(1, 0.5, 1e-8),
        dp.analytic_gaussian_sigma(1, 0.5, 1e-8),
    )
    assert shown["Classic σ at ε = 0.5"] == text.number(classic)
    assert shown["Analytic σ at ε = 0.5"] == text.number(analytic)
    frame = helpers.frames_of(helpers.chart_titled(at, f"{SIGMA}10⁻⁸"))["curves"]
    classic_rows = frame[frame["method"] == lesson.CLASSIC]
    assert classic_rows["epsilon"].max() < 1.0  # the classic line stops where its proof does
    assert (
        frame[frame["method"] == lesson.ANALYTIC]["sigma"].to_numpy()[: len(classic_rows)]
        < classic_rows["sigma"].to_numpy()
    ).all()
    assert f"{text.percent(1 - analytic / classic)} smaller" in " ".join(
        c.value for c in at.caption
    )


def _noise_sentence(at: AppTest) -> str:
    (sentence,) = [b.value for b in at.markdown if b.value.startswith("At ε = ")]
    return sentence


@pytest.mark.parametrize("delta", lesson.DELTAS)
def test_which_mechanism_needs_less_noise_follows_epsilon_and_delta(delta) -> None:
    """ "Laplace needs less noise than Gaussian" was written once; at δ = 10⁻²
    and ε below about 0.34 the page's own analytic σ is the smaller. The sentence now follows
    section 3's ε and δ: checked against the two SDs over the whole ε grid, for every δ."""
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ad_sigma_delta").set_value(delta).run()
    crossover = dp.laplace_gaussian_crossover(delta)
    for epsilon in lesson.SIGMA_CHOICES:
        at.select_slider(key="ad_sigma_eps").set_value(epsilon).run()
        assert not at.exception, at.exception
        sigma = dp.analytic_gaussian_sigma(1, epsilon, delta)
        laplace = math.sqrt(2) / epsilon
        sentence = _noise_sentence(at)
        if laplace < sigma:
            assert "**Laplace needs less noise**" in sentence, (epsilon, sentence)
            less = 1 - laplace / sigma
        else:
            assert "**the Gaussian needs less noise**" in sentence, (epsilon, sentence)
            less = 1 - sigma / laplace
        assert f"({text.percent(less)} less)" in sentence
        assert f"cross at ε ≈ {text.number(crossover)}" in sentence
        shown = helpers.metrics(at)
        assert shown[f"Analytic σ at ε = {text.number(epsilon)}"] == text.number(sigma)
        assert shown[f"Laplace SD at ε = {text.number(epsilon)}"] == text.number(laplace)
        if epsilon >= 1:
            assert shown[f"Classic σ at ε = {text.number(epsilon)}"] == "no proof"


def test_the_issue_state_says_the_gaussian_needs_less_noise() -> None:
    """δ = 10⁻², ε = 0.05: σ = 14.29 against Laplace's 28.28 (the issue's numbers)."""
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ad_sigma_delta").set_value(1e-2).run()
    at.select_slider(key="ad_sigma_eps").set_value(0.05).run()
    sentence = _noise_sentence(at)
    assert "**the Gaussian needs less noise** than Laplace: σ = 14.29 against SD 28.28" in sentence
    assert "cross at ε ≈ 0.3378" in sentence
    assert "Laplace needs less noise than Gaussian** at the same ε" not in prose(at)


@pytest.mark.parametrize("noise_sd", lesson.NOISE_SDS)
def test_growth_with_k_is_qualified_by_the_current_epsilon_and_delta(noise_sd) -> None:
    """ "The other two grow like √k" holds only while the √k term leads. The
    sentence names, from the current SD and δ, the k where each linear term takes over, and
    the chart's own totals agree with the regime it states."""
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ad_sd").set_value(noise_sd).run()
    for delta in (1e-2, 1e-5, 1e-12):
        at.select_slider(key="ad_k_delta").set_value(delta).run()
        words = prose(at)
        eps = math.sqrt(2) / noise_sd
        rho = 1 / (2 * noise_sd**2)
        k_adv = 2 * math.log(1 / delta) / math.expm1(eps) ** 2
        k_z = 4 * math.log(1 / delta) / rho
        assert f"2 ln(1/δ)/($e^ε$ − 1)² = {text.number(k_adv)} here" in words
        assert f"4 ln(1/δ)/ρ = {text.number(k_z)} here" in words
        for k, name in ((k_adv, "it"), (k_z, "zCDP")):
            if k > 1_000:
                assert f"on this chart (k ≤ 1,000) {name} stays in its √k regime" in words
            else:
                assert f"{name} grows like k from k ≈ {math.ceil(k):,} on" in words
        # The regime is real: past k_adv the linear term is the larger one, before it not.
        k = 1_000
        sqrt_term = eps * math.sqrt(2 * k * math.log(1 / delta))
        linear_term = k * eps * math.expm1(eps)
        assert (linear_term > sqrt_term) == (k > k_adv)
    assert "the other two like √k" not in words


def test_many_queries_marks_where_gaussian_with_zcdp_wins() -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ad_sd").set_value(1.0).run()
    at.select_slider(key="ad_k_delta").set_value(1e-12).run()
    element = helpers.chart_titled(at, "Total ε of k answers, each with noise SD = 1")
    data = helpers.frames_of(element)
    k = int(data["truth"]["x"].iloc[0])

    def totals(queries: int) -> tuple[float, float]:
        basic = queries * math.sqrt(2)
        zcdp = dp.zcdp_to_approx_dp(queries * dp.gaussian_zcdp_rho(1, 1.0), 1e-12)
        return basic, zcdp

    assert totals(k)[1] < totals(k)[0] and totals(k - 1)[1] >= totals(k - 1)[0]
    assert data["truth"]["label"].iloc[0] == f"Gaussian cheaper from k = {k}"
    at_1000 = data["curves"][data["curves"]["queries"] == 1000].set_index("method")
    assert at_1000.loc[lesson.ZCDP, "total epsilon"] == pytest.approx(totals(1000)[1])
    advanced = dp.advanced_composition(math.sqrt(2), 0.0, 1000, 1e-12)[0]
    assert at_1000.loc[lesson.ADVANCED, "total epsilon"] == pytest.approx(advanced)
    assert f"from k = {k} queries on" in helpers.description_of(at, element)


def test_the_converter_and_the_table_use_the_students_delta() -> None:
    at = helpers.run_lesson(PAGE)
    at.number_input(key="ad_rho").set_value(0.015).run()
    at.select_slider(key="ad_rho_delta").set_value(1e-7).run()
    shown = helpers.metrics(at)
    # Wikimedia's README calls ρ = 0.015 "roughly ε = 1, δ = 10⁻⁷": the simple formula
    # gives 0.998; the tight conversion 0.855
    assert shown["ε at δ = 10⁻⁷ (tight)"] == text.number(dp.zcdp_to_approx_dp(0.015, 1e-7))
    assert shown["ε at δ = 10⁻⁷ (tight)"] == "0.8546"
    assert shown["ε by the simple formula"] == "0.9984"
    assert "the simple formula (0.998); the tight one gives 0.855" in " ".join(
        c.value for c in at.caption
    )
    table = at.table[0].value.map(lambda cell: cell.replace("\\", ""))  # plain's escapes
    assert len(table) == len(load_deployments()) >= 15  # data/deployments.csv, every row
    census = table[table["deployment"].str.startswith("US Census")]["ε"].iloc[0]
    assert census == f"{text.number(dp.zcdp_to_approx_dp(2.56, 1e-7))} at δ = 10⁻⁷ (converted here)"
    linkedin = table[table["deployment"].str.startswith("LinkedIn")].iloc[0]
    assert linkedin["ε"] == "34.9 at δ = 7·10⁻⁹" and linkedin["period"] == "per month"
    assert set(table["unit of privacy"]) and "source" not in table  # in the download


def test_a_link_reproduces_the_view_and_a_bad_one_falls_back() -> None:
    at = hosted(ad_eps="5", ad_delta="10⁻⁸", ad_sd="100", ad_rho="0.07")
    assert not at.toast
    shown = helpers.metrics(at)
    assert shown["Gaussian σ"] == text.number(dp.analytic_gaussian_sigma(1, 5.0, 1e-8))
    assert shown["ε at δ = 10⁻¹⁰ (tight)"] == text.number(dp.zcdp_to_approx_dp(0.07, 1e-10))
    # a link from before, with the label 10⁻⁸, is rewritten as the raw number
    assert at.query_params["ad_delta"] in ("0.00000001", ["0.00000001"])
    assert shown == helpers.metrics(hosted(ad_eps="5", ad_delta="1e-8", ad_sd="100", ad_rho="0.07"))
    at = hosted(ad_eps="4.5")
    assert helpers.toasts(at) == [helpers.ignored_link_notice("ad_eps", "4.5")]
    assert helpers.metrics(at)["Gaussian σ"] == "3.731"


def test_code_downloads_and_the_snippets_rebuild_the_charts(monkeypatch) -> None:
    sent = helpers.record_downloads(monkeypatch)
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ad_eps").set_value(0.5).run()
    namespace: dict = {}
    (loss_code,) = helpers.code_texts(at, "analytic_gaussian_sigma(1, epsilon, delta)")
    assert "epsilon, delta = 0.5, 1e-05" in loss_code
    exec(compile(loss_code, "<snippet>", "exec"), namespace)  # noqa: S102 — our own snippet
    curve = helpers.frames_of(helpers.chart_titled(at, DELTA_CURVE, prefix=True))["curves"]
    exact = curve[curve["curve"] == lesson.EXACT]["delta"].to_numpy()
    np.testing.assert_allclose(
        np.maximum(namespace["frame"]["exact delta"], 1e-15), exact, rtol=1e-12
    )
    (composition_code,) = helpers.code_texts(at, "zcdp_compose")
    exec(compile(composition_code, "<snippet>", "exec"), namespace)  # noqa: S102
    row = namespace["frame"].set_index("k").loc[100]
    assert f"ε = {text.number(row['zcdp'])}" == helpers.metrics(at)["100 queries, Gaussian zCDP"]
    assert set(sent) == {
        "ad_dl_delta",
        "ad_dl_sigma",
        "ad_dl_composition",
        "ad_dl_conversion",
        "ad_dl_deployments",
    }
    assert sent["ad_dl_deployments"][1][0].startswith("deployment,published,ε")
    assert sent["ad_dl_composition"][1][0] == "queries,method,total epsilon"


@pytest.mark.parametrize("question", range(5))
def test_quiz_feedback(question: int) -> None:
    at = helpers.run_lesson(PAGE)
    correct = [0, 1, 0, 0, 1][question]
    helpers.answer_quiz(at, "approximate_dp", question, 1 - correct if correct < 2 else 0)
    assert at.error, "a wrong answer is marked wrong"
    helpers.answer_quiz(at, "approximate_dp", question, correct)
    assert at.success[0].value.startswith("Right.")


def test_every_slider_label_says_which_way_is_more_private() -> None:
    at = helpers.run_lesson(PAGE)
    for slider in at.select_slider:
        assert "more private" in slider.label, slider.label
    assert "more private" in at.number_input(key="ad_rho").label


def test_your_own_file_sets_n_for_the_record_publishing_mechanism() -> None:
    at = hosted(upload=("tiny.csv", b"Age,Job\n30,Clerk\n40,Cook\n50,Sales\n"))
    expected, chance = dp.delta_exposure(1e-5, 3)
    assert helpers.metrics(at)["People published in full, on average (n·δ)"] == text.number(
        expected
    )
    assert helpers.metrics(at)["Chance at least one is"] == text.percent(chance)
    assert helpers.chart_titled(at, f"{EXPOSURE}: n = 3 ◆ your δ = 10⁻⁵: {text.percent(chance)}")
    assert "1/n = 0.333" in prose(at) + " ".join(c.value for c in at.caption)


def test_where_zcdp_wins_from_the_first_query_the_words_say_so() -> None:
    # δ = 0.01, SD = 10: Gaussian with zCDP is cheaper from k = 1 ("from k = 1 queries on")
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ad_k_delta").set_value(1e-2).run()
    assert lesson.budget(lesson.DEFAULT_NOISE_SD, 1e-2).crossover == 1
    assert "Gaussian with zCDP costs less from the first query on." in prose(at)
    assert "k = 1 queries" not in prose(at)
    at.select_slider(key="ad_sd").set_value(1.0).run()  # from k = 25
    crossover = lesson.budget(1.0, 1e-2).crossover
    assert crossover > 1
    assert f"Gaussian with zCDP costs less from k = {crossover:,} queries on." in prose(at)
