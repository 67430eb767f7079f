"""AppTest for lessons/census_topdown/page.py: the geography's true counts against the census,
each level's noise against σ² = 1/(2ρ_ℓ), a release that is whole, non-negative and adds up
to the exact total, the snippet that rebuilds it, the error and bias of the releases, the
prediction marked from them, the links and the questions."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import apptest_helpers as helpers
import dp
from lessons.census_topdown import model as lesson
from ui import controls, datasets, text

PAGE = "census_topdown/page.py"
SEED = controls.DEFAULT_SEED + lesson.SEED_RUNS


def test_the_default_split_is_the_census_persons_file() -> None:
    # the Bureau's persons_geolevel_props (US, State, County, Tract, Block group, Block)
    props = [104 / 4099, 1440 / 4099, 447 / 4099, 687 / 4099, 1256 / 4099, 165 / 4099]
    levels = [props[0], props[1], props[2], sum(props[3:])]
    assert lesson.CENSUS_WEIGHTS == (3, 35, 11, 51)
    np.testing.assert_allclose(np.array(lesson.CENSUS_WEIGHTS) / 100, levels, atol=0.005)


def test_the_geography_counts_are_the_census() -> None:
    census = datasets.census()
    band = np.digitize(census["Age"], [30, 50])
    cell = (census["Sex"] == "Female").astype(int).to_numpy() * 3 + band
    zip5 = pd.crosstab(census["Zip"].astype(str), cell).reindex(columns=range(6), fill_value=0)
    geo = lesson.geography()
    assert geo.true[3].tolist() == zip5.to_numpy().ravel().tolist()
    assert geo.units[3] == tuple(zip5.index)
    assert [t.size for t in geo.true] == [6, 60, 240, 1_800]
    assert [int(t.sum()) for t in geo.true] == [32_561] * 4
    # each level's counts are its children's, added up
    for level in range(1, 4):
        added = np.bincount(
            geo.parents[level], weights=geo.true[level], minlength=geo.true[level - 1].size
        )
        assert added.astype(int).tolist() == geo.true[level - 1].tolist()


@pytest.mark.parametrize(("rho", "weights"), [(0.5, (3, 35, 11, 51)), (1.28, (25, 25, 25, 25))])
def test_each_level_gets_its_share_of_rho(rho, weights) -> None:
    at = helpers.run_lesson(PAGE)
    for level, weight in zip(lesson.LEVELS, weights, strict=True):
        at.slider(key=f"ct_weight_{level.lower()}").set_value(weight)
    at.select_slider(key="ct_rho").set_value(rho).run()
    assert not at.exception
    # with the exact total the guarantee is between records changed: 2ρ-zCDP
    assert helpers.metrics(at)[lesson.EPSILON_LABEL] == text.number(
        dp.zcdp_to_approx_dp(2 * rho, 1e-10)
    )
    frame = helpers.frames_of(helpers.chart_titled(at, "Noise against the counts", prefix=True))[
        "levels"
    ]
    sd = frame[frame["kind"] == "noise SD"]["people"].to_numpy()
    shares = np.array(weights) / sum(weights)
    expected = [dp.discrete_gaussian_std(1 / (2 * rho * share)) for share in shares]
    np.testing.assert_allclose(sd, expected, rtol=1e-12)
    assert (sd <= np.sqrt(1 / (2 * rho * shares))).all()
    assert math.isclose(dp.zcdp_compose(list(rho * shares)), rho)


def test_the_noise_sd_shown_is_the_discrete_gaussians_not_its_parameter() -> None:
    """Finding: "Noise SD at ZIP5" showed σ = √(1/(2ρ_ℓ)) = 0.3131 at ρ = 10, while the
    discrete Gaussian's SD there is 0.1098; the nation with weights (100, 1, 1, 1) was 20×
    overstated (0.2269 against 0.0110)."""
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ct_rho").set_value(10.0).run()
    assert helpers.metrics(at)["Noise SD at ZIP5"] == "0.1098"
    table = lesson.levels_table(10.0, (100, 1, 1, 1))
    assert table["SD"].iloc[0] == "0.01102" and table["its σ"].iloc[0] == "0.2269"


def test_a_release_is_whole_nonnegative_consistent_and_keeps_the_total() -> None:
    geo = lesson.geography()
    runs = lesson.runs(0.1, lesson.CENSUS_WEIGHTS, SEED)
    assert any((noisy < 0).any() for noisy in runs.noisy)  # there was something to fix
    for run in range(lesson.RUNS):
        above = np.array([geo.total])
        for level in range(4):
            final = runs.final[level][run]
            assert final.dtype.kind == "i" and (final >= 0).all()
            added = np.bincount(geo.parents[level], weights=final, minlength=above.size)
            assert added.astype(int).tolist() == above.tolist()
            above = final


def test_the_noise_is_the_discrete_gaussian_at_each_level() -> None:
    """The measurements minus the truth, pooled over runs, against the discrete Gaussian's
    variance (within 6 standard errors) at each level's σ²."""
    geo = lesson.geography()
    runs = lesson.runs(0.5, lesson.CENSUS_WEIGHTS, SEED)
    variances = lesson.level_variances(0.5, lesson.CENSUS_WEIGHTS)
    for level in range(1, 4):  # the nation's 6 cells × 10 runs are too few to test
        noise = (runs.noisy[level] - geo.true[level][None, :]).ravel()
        assert np.all(noise == np.round(noise))
        support = np.arange(-200, 201)
        pmf = dp.discrete_gaussian_pmf(support, float(variances[level]))
        variance = float(np.sum(support**2 * pmf))
        assert abs(noise.var() - variance) <= 6 * variance * math.sqrt(2 / noise.size)
        assert abs(noise.mean()) <= 6 * math.sqrt(variance / noise.size)


def test_the_table_section_shows_the_first_run_and_the_snippet_rebuilds_it() -> None:
    at = helpers.run_lesson(PAGE, ct_table_rho="0.1")
    runs = lesson.runs(0.1, lesson.CENSUS_WEIGHTS, SEED)
    geo = lesson.geography()
    zip3 = at.selectbox(key="ct_zip3").value
    cell = lesson.CELLS.index(at.selectbox(key="ct_cell").value)
    z3 = geo.units[2].index(zip3)
    frame = helpers.frames_of(helpers.chart_titled(at, f"ZIP3 {zip3}", prefix=True))["counts"]
    released = frame[frame["kind"] == lesson.FINAL_KIND]["count"]
    parent = int(runs.final[2][0, z3 * 6 + cell])
    assert int(released.sum()) == parent
    assert helpers.metrics(at)[f"ZIP3 {zip3}, released"] == f"{parent:,}"
    # the snippet, run as a student would, gives the same release
    helpers.open_snippets(at)
    code = next(c for c in helpers.code_texts(at) if "dp.topdown" in c)
    scope: dict = {}
    exec(code, scope)
    assert scope["frame"]["ZIP5 released"].tolist() == runs.final[3][0].tolist()
    assert scope["frame"]["ZIP5 noisy"].tolist() == runs.noisy[3][0].tolist()


def test_who_pays_is_computed_from_the_releases() -> None:
    at = helpers.run_lesson(PAGE)
    runs = lesson.runs(lesson.DEFAULT_RHO, lesson.CENSUS_WEIGHTS, SEED)
    geo = lesson.geography()
    true5 = geo.true[3].reshape(-1, 6).sum(axis=1)
    final5 = runs.final[3].reshape(lesson.RUNS, -1, 6).sum(axis=2)
    error5 = np.mean(np.abs(final5 - true5), axis=0) / true5
    frame = helpers.frames_of(helpers.chart_titled(at, "Relative error of each place", prefix=True))
    units = frame["units"]
    np.testing.assert_allclose(
        units[units["level"] == "ZIP5"]["error"],
        np.maximum(error5, 1e-4),
        rtol=1e-12,
    )
    # the rule: the smallest population from which every unit is within 5%
    every = pd.concat(
        [pd.DataFrame({"people": true5, "error": error5})]
        + [
            pd.DataFrame(
                {
                    "people": geo.true[level].reshape(-1, 6).sum(axis=1),
                    "error": np.mean(
                        np.abs(
                            runs.final[level].reshape(lesson.RUNS, -1, 6).sum(axis=2)
                            - geo.true[level].reshape(-1, 6).sum(axis=1)
                        ),
                        axis=0,
                    )
                    / geo.true[level].reshape(-1, 6).sum(axis=1),
                }
            )
            for level in (1, 2)
        ]
    )
    frm = min(p for p in every["people"] if (every[every["people"] >= p]["error"] < 0.05).all())
    assert helpers.metrics(at)["Every place within 5% from"] == f"{frm:,} people"
    assert frame["truth"]["x"].tolist() == [float(frm)]


def test_post_processing_biases_small_counts_up_and_the_measurements_not() -> None:
    at = helpers.run_lesson(PAGE, ct_pay_rho="0.1")
    bias = helpers.frames_of(helpers.chart_titled(at, "Mean error of a ZIP5 cell", prefix=True))[
        "bias"
    ]
    measured = bias[bias["kind"] == lesson.NOISY]
    se = (measured["high"] - measured["bias"]) / 2
    assert (measured["bias"].abs() <= 6 * se).all()  # unbiased, within 6 standard errors
    released = bias[bias["kind"] == lesson.FINAL].set_index("true count")
    zero = released.loc["0"]
    assert zero["bias"] > 6 * (zero["high"] - zero["bias"]) / 2  # true zeros come out above 0
    assert f"released with {text.number(zero['bias'], 3)} people" in helpers.prose(at)
    # the words name exactly the groups whose whiskers lie above or below 0
    up = released[released["low"] > 0].index.tolist()
    assert up and up[0] == "0"
    words = helpers.prose(at)
    for label, row in released.iterrows():
        named = f"{label} ({text.signed(row['bias'], 2)})" in words
        assert named == (row["low"] > 0 or row["high"] < 0), label


def test_the_prediction_is_marked_from_the_releases() -> None:
    for rho in ("0.05", "10"):
        at = helpers.run_lesson(PAGE, ct_pay_rho=rho)
        runs = lesson.runs(float(rho), lesson.CENSUS_WEIGHTS, SEED)
        geo = lesson.geography()
        true5 = geo.true[3].reshape(-1, 6).sum(axis=1)
        error5 = (
            np.mean(np.abs(runs.final[3].reshape(lesson.RUNS, -1, 6).sum(axis=2) - true5), axis=0)
            / true5
        )
        small = float(error5[(true5 >= 20) & (true5 <= 40)].mean())
        right = int(np.searchsorted([0.01, 0.05, 0.2], small, side="right"))
        helpers.answer_quiz(at, "census_topdown_predict", 0, right)
        assert at.success[-1].value.startswith("Right.")
        helpers.answer_quiz(at, "census_topdown_predict", 0, (right + 1) % 4)
        assert text.percent(small) in at.error[-1].value


def test_a_link_reproduces_the_view() -> None:
    params = {"ct_rho": "1.28", "ct_weight_zip5": "80", "ct_cell": "men 17–29"}
    at = helpers.run_lesson(PAGE, **params)
    assert float(at.select_slider(key="ct_rho").value) == 1.28
    assert at.slider(key="ct_weight_zip5").value == 80
    assert at.selectbox(key="ct_cell").value == "men 17–29"
    helpers.open_snippets(at)
    assert "rho, weights = 1.28, np.array([3, 35, 11, 80], dtype=float)" in " ".join(
        helpers.code_texts(at)
    )


def test_its_questions_are_marked() -> None:
    at = helpers.run_lesson(PAGE)
    helpers.assert_quiz_marks(
        at, ("census_topdown", 2, 0), "halves it, so σₗ falls by √2", ("census_topdown", 2, 1)
    )


def test_within_5_percent_from_counts_a_tie_with_a_unit_that_misses() -> None:
    """Finding: at ρ = 10 the page said "every place within 5% from 45 people" while its own
    chart had a 45-person ZIP5 at 5.33%: the search started after the last bad unit in sort
    order, which could be a tied unit of the same size."""
    errors = pd.DataFrame(
        {"people": [30, 45, 45, 46, 80], "error": [0.2, 0.0533, 0.01, 0.02, 0.001]}
    )
    assert lesson.accurate_from(errors) == 46
    assert lesson.accurate_from(errors.iloc[::-1]) == 46  # whatever the order
    assert lesson.accurate_from(errors.assign(error=0.0)) == 30
    assert lesson.accurate_from(errors.assign(error=[0, 0, 0, 0, 0.06])) is None
    # and on the page's own releases at ρ = 10: no unit at or above the stated size misses
    units = lesson.unit_errors(lesson.runs(10.0, lesson.CENSUS_WEIGHTS, SEED))
    found = lesson.accurate_from(units)
    assert found is not None
    assert (units[units["people"] >= found]["error"] < lesson.ACCURATE).all()
    assert (units[units["people"] < found]["error"] >= lesson.ACCURATE).any()


def test_the_bias_sentences_are_computed_from_what_is_drawn() -> None:
    """Finding: the page said "larger counts tend to come out lower" while its chart showed
    cells of 200+ at +0.2, and "the measurements themselves are unbiased:" above a
    measurement group at +0.25. Every direction said is now read off the chart's numbers."""
    at = helpers.run_lesson(PAGE)
    said = " ".join(m.value for m in at.markdown)
    assert "tend to come out" not in said
    bias = lesson.bias_frame(lesson.runs(lesson.DEFAULT_RHO, lesson.CENSUS_WEIGHTS, SEED))
    assert lesson.bias_words(bias) in said and lesson.measurement_words(bias) in said
    measured = bias[bias["kind"] == lesson.NOISY]
    off = measured[(measured["low"] > 0) | (measured["high"] < 0)]
    for label in off["true count"]:
        assert f"{label} (" in lesson.measurement_words(bias)
    if off.empty:
        assert "Every one of the" in lesson.measurement_words(bias)
    # one group off (ρ = 0.1): "1 of the 10 groups … sits", not "sit"
    bias = lesson.bias_frame(lesson.runs(0.1, lesson.CENSUS_WEIGHTS, SEED))
    assert lesson.measurement_words(bias).startswith("1 of the 10 groups of measurements sits ")


def test_the_invariant_is_said_to_change_the_neighbours() -> None:
    """Finding: "An invariant is outside the privacy accounting: the guarantee covers
    everything else", right after add/remove neighbours; with an exact total, adding or
    removing a person is detected with certainty."""
    said = " ".join(m.value for m in helpers.run_lesson(PAGE).markdown)
    assert "the guarantee covers everything else" not in said
    assert "detected with certainty" in said and "2ρ-zCDP" in said


def test_the_sd_and_its_parameter_are_compared_as_they_are() -> None:
    """Seen on the screenshot: at ρ = 0.5 the caption called σ_ℓ = 1.4 "larger" than an SD
    of 1.4. The comparison is made from the two numbers."""
    at = helpers.run_lesson(PAGE)
    said = " ".join(c.value for c in at.caption)
    assert r"equals its parameter $\sigma_\ell = \sqrt{1/(2\rho_\ell)}$ = 1.4" in said
    at.select_slider(key="ct_rho").set_value(10.0).run()
    said = " ".join(c.value for c in at.caption)
    zip5 = lesson.levels_frame(10.0, lesson.CENSUS_WEIGHTS).iloc[3]
    assert f"is {text.number(zip5['sigma'] / zip5['sd'], 3)} times larger" in said
    # ρ = 2: σ = 0.7001 against an SD of 0.6993, apart in the 4th digit ("1 times larger")
    at.select_slider(key="ct_rho").set_value(2.0).run()
    said = " ".join(c.value for c in at.caption)
    zip5 = lesson.levels_frame(2.0, lesson.CENSUS_WEIGHTS).iloc[3]
    assert text.number(zip5["sd"]) != text.number(zip5["sigma"])
    assert f"is {text.percent(zip5['sigma'] / zip5['sd'] - 1, 2)} larger" in said
    assert "1 times larger" not in said


def test_the_censuss_own_setting_gives_the_bureaus_epsilon() -> None:
    """With the nation's total exact, the guarantee holds between datasets that differ in
    one record (2ρ-zCDP), the neighbours the Bureau counts its ρ = 2.56 for (its DAS code's
    `bounded=True`): the slider's 1.28 is that noise, and shows the Bureau's ε ≈ 17.16
    (the page once converted ρ itself, the add/remove ε that the invariant voids, and
    called 2.56 on its slider the Census's ρ, twice the Bureau's noise budget)."""
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ct_rho").set_value(1.28).run()
    assert not at.exception
    assert helpers.metrics(at)[lesson.EPSILON_LABEL] == text.number(17.158) == "17.16"
    assert "2.56" not in [text.number(r) for r in lesson.RHOS]
    words = helpers.prose(at)
    assert "gives 2ρ-zCDP: the ε shown below is that guarantee's" in words
    assert "ρ = 2.56 is this slider's ρ = 1.28" in words


def test_the_size_every_place_is_accurate_from_is_read_off_these_releases() -> None:
    # a threshold on 10 noisy releases' mean errors (72 to 95 people over six seeds at the
    # defaults): the words say which releases it comes from, and that it is not a constant
    at = helpers.run_lesson(PAGE)
    result = lesson.runs(lesson.DEFAULT_RHO, lesson.CENSUS_WEIGHTS, SEED)
    accurate = lesson.who_pays(result).accurate
    said = " ".join(m.value for m in at.markdown)
    assert (
        f"every place of at least **{accurate:,} people** is within 5% on average over these "
        f"{lesson.RUNS} releases"
    ) in said
    assert f"another {lesson.RUNS} would put it somewhat elsewhere" in said


def test_with_no_negative_here_the_words_name_where_there_is_one_or_why_not() -> None:
    """Finding: with no ZIP5 measured below zero the paragraph said "try a smaller ρ, or a
    ZIP3 with small ZIP5s" at every such state: at the slider's smallest ρ too, and where no
    ZIP3 had one in that cell. Every ρ and cell at the default seed, for the default ZIP3:
    the ZIP3s it names are exactly those with a ZIP5 below zero in that cell; "a smaller ρ"
    only where none has one and a smaller ρ is on the slider."""
    choices = lesson.zip3_choices()
    seen = set()
    for rho in lesson.RHOS:
        result = lesson.runs(rho, lesson.CENSUS_WEIGHTS, controls.DEFAULT_SEED + lesson.SEED_RUNS)
        for cell in range(len(lesson.CELLS)):
            frames = [lesson.children_frame(result, i, cell) for i in range(len(choices))]
            having = [z for z, f in zip(choices, frames, strict=True) if (f["noisy"] < 0).any()]
            here = frames[lesson.DEFAULT_ZIP3_INDEX]
            words = lesson.negatives_words(here, result, cell, rho)
            if (here["noisy"] < 0).any():
                assert f"{int((here['noisy'] < 0).sum())} measured below zero (" in words
                seen.add("here")
            elif having:
                named = ", ".join(having[:3]) + (", …" if len(having) > 3 else "")
                assert words == (
                    f"None measured below zero here; in this run {len(having)} of the "
                    f"{len(choices)} ZIP3s have one in this cell ({named})."
                )
                seen.add("elsewhere")
            else:
                assert "smaller ρ" in words and rho > min(lesson.RHOS)
                seen.add("nowhere")
    assert seen == {"here", "elsewhere", "nowhere"}
