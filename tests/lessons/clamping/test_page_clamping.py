"""AppTest for lessons/clamping/page.py: every widget moved, the numbers it then shows checked
against dp/ at the chosen values; links, code, downloads, quiz, your own file."""

import math
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import apptest_helpers as helpers
import dp
from data.census import load_census
from lessons.clamping import model as lesson
from ui import columns, controls, text

PAGE = "clamping/page.py"
GAIN_WINDOW = "clamp_window_0"  # Capital gain, the first census column
AGE_WINDOW = "clamp_window_1"


def sample(people, column: str, size: int) -> np.ndarray:
    values = people[column].dropna().to_numpy(dtype=float)
    if 0 < size < values.size:
        values = np.random.default_rng(columns.SAMPLE_SEED).choice(values, size=size, replace=False)
    return values


def run_page() -> AppTest:
    return helpers.run_lesson(PAGE)


def hosted(*, upload: tuple[str, bytes] | None = None, **params: str) -> AppTest:
    return helpers.hosted_page(PAGE, upload=upload, timeout_s=60, **params)


def prose(at: AppTest) -> str:
    return " ".join(block.value for block in at.markdown)


def test_defaults_sum_capital_gain_of_100_people_clamped_to_5000(people) -> None:
    at = run_page()
    values = sample(people, "CapitalGain", 100)
    shown = helpers.metrics(at)
    assert shown["True sum"] == text.number(values.sum())
    assert shown["Clamped sum"] == text.number(dp.clamp(values, 0, 5_000).sum())
    assert shown["Bias (clamped − true)"] == text.number(dp.clamping_bias(values, 0, 5_000))
    assert shown["Noise scale b = Δ/ε"] == "5,000"
    seed = controls.DEFAULT_SEED + lesson.SEED_SUM
    assert shown["One noisy sum"] == text.number(dp.noisy_sum(values, 0, 5_000, 1.0, rng=seed))
    # the unbounded-sensitivity argument names the largest value of these people
    assert f"the largest is **{text.number(values.max())}**" in prose(at)


def test_the_window_moves_bias_noise_and_the_marker_not_the_axes(people) -> None:
    at = run_page()
    before = helpers.spec_of(helpers.chart_titled(at, "Bias against noise", prefix=True))
    at.slider(key=GAIN_WINDOW).set_value((0.0, 20_000.0)).run()
    values = sample(people, "CapitalGain", 100)
    shown = helpers.metrics(at)
    assert shown["Bias (clamped − true)"] == text.number(dp.clamping_bias(values, 0, 20_000))
    assert shown["Noise scale b = Δ/ε"] == "20,000"
    curve = helpers.chart_titled(at, "Bias against noise", prefix=True)
    frames = helpers.frames_of(curve)
    assert frames["truth"]["x"].tolist() == [20_000.0]
    uppers = lesson.curve_uppers(columns.CENSUS_COLUMNS[0], 0.0)
    best = dp.best_clamp_upper(values, 0.0, 1.0, uppers)
    assert frames["best"]["upper"].tolist() == [best]
    assert frames["best"]["error"][0] == pytest.approx(
        math.sqrt(dp.clamped_sum_squared_error(values, 0.0, best, 1.0))
    )
    # the total curve is √(bias² + 2b²) at every U
    total = frames["curves"][frames["curves"]["part"] == lesson.PART_TOTAL]
    expected = np.sqrt(dp.clamped_sum_squared_error(values, 0.0, total["upper"], 1.0))
    np.testing.assert_allclose(total["error"], expected, rtol=1e-9)
    # axes are fixed: the same domains before and after the move
    after = helpers.spec_of(curve)
    assert json_scales(after) == json_scales(before)
    histogram = helpers.frames_of(
        helpers.chart_titled(at, "Capital gain ($) and the clamp window", prefix=True)
    )
    assert histogram["window"][["lower", "upper"]].values.tolist() == [[0.0, 20_000.0]]
    assert histogram["bins"]["count"].sum() == 100


def json_scales(spec: dict) -> list:
    return [
        (layer["encoding"].get("x", {}).get("scale"), layer["encoding"].get("y", {}).get("scale"))
        for layer in spec["layer"]
        if "encoding" in layer
    ]


def test_epsilon_scales_the_noise_and_moves_the_best_bound_down(people) -> None:
    at = run_page()
    at.select_slider(key="clamp_eps").set_value(0.1).run()
    values = sample(people, "CapitalGain", 100)
    assert helpers.metrics(at)["Noise scale b = Δ/ε"] == "50,000"
    curve = helpers.frames_of(helpers.chart_titled(at, "Bias against noise", prefix=True))
    uppers = lesson.curve_uppers(columns.CENSUS_COLUMNS[0], 0.0)
    small_eps_best = curve["best"]["upper"][0]
    assert small_eps_best == dp.best_clamp_upper(values, 0.0, 0.1, uppers)
    assert small_eps_best < dp.best_clamp_upper(values, 0.0, 1.0, uppers)


def test_everyone_and_another_column(people) -> None:
    at = run_page()
    at.selectbox(key="clamp_col").set_value("Age").run()
    at.select_slider(key="clamp_n").set_value(0).run()
    ages = people["Age"].to_numpy(dtype=float)
    shown = helpers.metrics(at)
    assert shown["True sum"] == text.number(ages.sum())
    assert shown["Clamped sum"] == text.number(dp.clamp(ages, 0, 60).sum())
    assert shown["Noise scale b = Δ/ε"] == "60"
    at.slider(key=AGE_WINDOW).set_value((18.0, 90.0)).run()
    assert helpers.metrics(at)["Bias (clamped − true)"] == text.number(
        dp.clamping_bias(ages, 18, 90)
    )
    assert helpers.metrics(at)["Noise scale b = Δ/ε"] == "90"
    # everyone: the best bound sits higher than for 100 people
    best = helpers.frames_of(helpers.chart_titled(at, "Bias against noise", prefix=True))["best"][
        "upper"
    ][0]
    uppers = lesson.curve_uppers(columns.CENSUS_COLUMNS[1], 18.0)
    assert best == dp.best_clamp_upper(ages, 18.0, 1.0, uppers)
    few = sample(people, "Age", 100)
    assert best > dp.best_clamp_upper(few, 18.0, 1.0, uppers)


def test_the_mean_spends_half_of_epsilon_on_each_part(people) -> None:
    at = run_page()
    at.select_slider(key="clamp_eps").set_value(2.0).run()
    values = sample(people, "CapitalGain", 100)
    parts = dp.noisy_mean_parts(values, 0, 5_000, 2.0, rng=controls.DEFAULT_SEED + lesson.SEED_MEAN)
    shown = helpers.metrics(at)
    assert shown["Noisy sum (ε/2 = 1)"] == text.number(parts.noisy_sum)
    assert shown["Noisy count (ε/2 = 1)"] == text.number(parts.noisy_count)
    assert shown["Noisy mean"] == text.number(parts.mean)
    assert shown["True mean"] == text.number(values.mean())
    caption = " ".join(c.value for c in at.caption)
    assert "Noise scales: 5,000 on the sum (2Δ/ε), 1 on the count (2/ε)" in caption
    assert "Why not divide by the true n = 100?" in prose(at)


def test_a_newcomer_above_the_maximum_moves_a_data_derived_bound(people) -> None:
    at = run_page()
    largest = sample(people, "CapitalGain", 100).max()
    at.number_input(key="clamp_newcomer").set_value(150_000.0).run()
    shown = helpers.metrics(at)
    assert shown["U = max without them"] == text.number(largest)
    assert shown["U = max with them"] == "150,000"
    assert shown["Noise scale with"] == "150,000"
    assert "ε = ∞" in at.error[0].value
    at.number_input(key="clamp_newcomer").set_value(10.0).run()
    assert helpers.metrics(at)["U = max with them"] == text.number(largest)
    assert not at.error
    assert "must hold for every possible newcomer" in at.info[0].value


def test_bounding_contributions_trades_dropped_rows_for_noise() -> None:
    at = run_page()
    rows = columns.visits_per_person()
    for m in (1, 10, 40):
        at.select_slider(key="clamp_m").set_value(m).run()
        shown = helpers.metrics(at)
        assert shown["True number of visits"] == f"{int(rows.sum()):,}"
        kept = int(np.minimum(rows, m).sum())
        assert shown[f"Rows kept (at most {m} each)"] == f"{kept:,}"
        assert shown["Noise SD √2·m/ε"] == f"±\u00a0{text.number(math.sqrt(2) * m)}"
        frames = helpers.frames_of(helpers.chart_titled(at, "Bounding contributions", prefix=True))
        assert frames["truth"]["x"].tolist() == [float(m)]
    m = np.arange(1, 101)
    totals = np.sqrt(dp.contribution_bias(rows, m) ** 2 + 2 * m**2)  # ε = 1: noise var 2m²
    assert frames["best"]["m"].tolist() == [int(np.argmin(totals)) + 1]
    # event level: the person with the most rows gets rows·ε
    levels = helpers.frames_of(helpers.chart_titled(at, "The ε one person really gets"))["levels"]
    event = levels[levels["level"] == lesson.LEVEL_EVENT]
    assert event["epsilon"].tolist() == [float(r) for r in range(1, lesson.VISITS_CAP + 1)]


def test_a_link_reproduces_the_view_and_a_bad_one_falls_back() -> None:
    at = hosted(clamp_col="Age (years)", clamp_eps="0.5", clamp_window_1=["10", "70"], clamp_m="5")
    assert not at.toast
    shown = helpers.metrics(at)
    assert shown["Noise scale b = Δ/ε"] == "140"
    assert shown["Rows kept (at most 5 each)"]
    at = hosted(clamp_eps="0.123")
    assert helpers.toasts(at) == [helpers.ignored_link_notice("clamp_eps", "0.123")]
    assert helpers.metrics(at)["Noise scale b = Δ/ε"] == "5,000"


def link_values(at: AppTest, key: str) -> list[str]:
    """The link's values of `key` after the run (AppTest keeps one value as a string)."""
    value = at.query_params.get(key, [])
    return [value] if isinstance(value, str) else list(value)


def test_a_clamp_window_is_one_link_parameter() -> None:
    """The window travels as `clamp_window_k=L..U` (not the parameter twice, Streamlit's own
    binding of a range); a link from before that still opens, rewritten; a range the slider
    cannot hold is reported and dropped."""
    at = hosted(clamp_col="Age (years)", clamp_window_1="10..70")
    assert not at.toast
    assert at.slider(key=AGE_WINDOW).value == (10.0, 70.0)
    assert helpers.metrics(at)["Noise scale b = Δ/ε"] == "70"
    assert link_values(at, AGE_WINDOW) == ["10..70"]
    at.slider(key=AGE_WINDOW).set_value((18.0, 65.0)).run()
    assert link_values(at, AGE_WINDOW) == ["18..65"]
    # a value between two of the slider's steps (none a student can send) stands for the
    # nearest step, in the numbers and in the link
    at.slider(key=AGE_WINDOW).set_value((18.0, 64.75)).run()
    assert link_values(at, AGE_WINDOW) == ["18..65"]
    assert helpers.metrics(at)["Noise scale b = Δ/ε"] == "65"
    at.slider(key=AGE_WINDOW).set_value(columns.CENSUS_COLUMNS[1].default).run()
    assert AGE_WINDOW not in at.query_params  # the default leaves the link
    # the legacy form: the parameter twice
    at = hosted(clamp_window_0=["0", "5500"])
    assert not at.toast
    assert helpers.metrics(at)["Noise scale b = Δ/ε"] == "5,500"
    assert link_values(at, GAIN_WINDOW) == ["0..5500"]
    # "10..70.5": not a window the slider (steps of a year) can be moved to
    for bad in ("70..10", "0..1e400", "x..5", "0..5..6", "-5..10", "0", "10..70.5"):
        at = hosted(clamp_col="Age (years)", clamp_window_1=bad)
        assert helpers.toasts(at) == [helpers.ignored_link_notice(AGE_WINDOW, bad)], bad
        assert AGE_WINDOW not in at.query_params, bad


def test_code_downloads_and_the_snippet_rebuild_the_curve(monkeypatch, people) -> None:
    sent = helpers.record_downloads(monkeypatch)
    at = run_page()
    at.selectbox(key="clamp_col").set_value("Age").run()
    at.select_slider(key="clamp_n").set_value(0).run()
    codes = helpers.code_texts(at, "clamping_bias_curve")
    assert len(codes) == 1 and "lower, epsilon = 0.0, 1.0" in codes[0]
    namespace: dict = {}
    exec(compile(codes[0], "<snippet>", "exec"), namespace)  # noqa: S102 — our own snippet
    frame = namespace["frame"]
    ages = people["Age"].to_numpy(dtype=float)
    assert frame["bias"].iloc[0] == dp.clamping_bias(ages, 0.0, frame["upper"].iloc[0])
    assert sent["clamp_dl_curve"][1][0] == "upper,error,part"


def test_quiz_feedback() -> None:
    at = run_page()
    helpers.assert_quiz_marks(at, ("clamping", 1, 1), "U − L = 150", ("clamping", 1, 2))
    assert dp.sum_sensitivity(-50, 100, neighbours="replace") == 150
    assert dp.sum_sensitivity(0, 100) == 100


SALES = (
    b"Job,Income,Children\nSales,52000,2\nClerk,31000,0\nSales,250000,1\n"
    b"Cook,28000,\nClerk,39000,3\n"
)


def test_your_own_file_sums_its_numeric_columns() -> None:
    at = hosted(upload=("pay.csv", SALES))
    assert at.selectbox(key="clamp_col").options == ["Income", "Children"]
    incomes = np.array([52_000, 31_000, 250_000, 28_000, 39_000], dtype=float)
    shown = helpers.metrics(at)
    assert shown["True sum"] == text.number(incomes.sum())
    census_gain = f"{load_census()['CapitalGain'].sum():,}"
    assert census_gain not in prose(at) and census_gain not in str(helpers.metrics(at))
    assert "simulated for the census" in at.info[-1].value  # section 5 says it is not the file
    at.selectbox(key="clamp_col").set_value("Children").run()
    assert not at.exception
    assert helpers.metrics(at)["True sum"] == "6"
    assert "1 missing values add nothing" in " ".join(c.value for c in at.caption)


# Values a float cannot sum exactly (past 2⁵³), or infinite: such a column is not offered, and
# the page says why. A column up to 10³⁰⁰ made the error curve raise (no bound was best).
BEYOND = (
    b"Job,Income,Big,Endless,Edge\nSales,52000,1e300,1,9007199254740992\n"
    b"Clerk,31000,5,inf,3\nCook,28000,1e16,2,4\n"
)


def test_a_column_of_numbers_past_what_a_float_sums_exactly_is_left_out_and_said() -> None:
    at = hosted(upload=("beyond.csv", BEYOND))
    assert at.selectbox(key="clamp_col").options == ["Income", "Edge"]  # 2⁵³ itself is exact
    said = " ".join(c.value for c in at.caption)
    assert "Numbers left out: Big (a value beyond ±9,007,199,254,740,992, past which" in said
    assert "; Endless (an infinite value)." in said
    at = hosted(upload=("big.csv", b"Job,Big\nSales,1e300\nClerk,5\nCook,1e299\n"))
    assert "your file has none" in at.warning[0].value
    assert "Numbers left out: Big (a value beyond ±9,007,199,254,740,992" in at.warning[0].value
    assert not at.metric


def test_a_file_without_numbers_is_told_which_columns_it_has() -> None:
    at = hosted(upload=("words.csv", b"Job,Town\nSales,Leeds\nClerk,York\n*x*,Hull\n"))
    assert "your file has none. Its columns are: Job, Town" in at.warning[0].value
    assert not at.metric


def test_markdown_in_a_column_name_is_shown_literally() -> None:
    at = hosted(upload=("evil.csv", b"Job,**Pay**\nSales,1\nClerk,2\nCook,3\n"))
    assert "**Pay**" not in prose(at)
    assert text.plain("**Pay**") in prose(at)


def test_sections_four_and_five_have_their_own_epsilon() -> None:
    """Each section is a fragment: section 2's ε moves sections 2-3 only."""
    at = run_page()
    at.select_slider(key="clamp_eps").set_value(0.1).run()
    helpers.chart_titled(at, "Bounding contributions at ε = 1 ◆ the lowest total: m =", prefix=True)
    leak_before = helpers.metrics(at)["Noise scale without"]
    at.select_slider(key="clamp_leak_eps").set_value(0.5)
    at.select_slider(key="clamp_rows_eps").set_value(2.0).run()
    helpers.chart_titled(at, "Bounding contributions at ε = 2 ◆ the lowest total: m =", prefix=True)
    # the leak's noise scale is (U − L)/ε: halving ε doubles it
    assert float(helpers.metrics(at)["Noise scale without"].replace(",", "")) == pytest.approx(
        2 * float(leak_before.replace(",", "")), rel=1e-3
    )


@pytest.mark.parametrize("value", [0.0, 20_000.0, 100_000.0])
def test_both_ends_of_the_window_on_one_value_is_explained_not_a_traceback(people, value):
    """L = U (reachable with the mouse at either end, here the top)
    raised "every upper bound must be > lower = 100000" from dp.clamping_bias_curve. It is
    a legitimate state: everything is clamped to one point; the page says so in numbers."""
    at = run_page()
    at.slider(key=GAIN_WINDOW).set_value((value, value)).run()
    assert not at.exception, at.exception
    gains = sample(people, "CapitalGain", 100)
    (note,) = [i.value for i in at.info if "every value is clamped" in i.value]
    assert f"L = U = {text.number(value)}" in note
    assert f"100 × {text.number(value)} = {text.number(100 * value)}" in note
    bias = text.number(100 * value - gains.sum())
    assert f"the bias is the whole spread of the data, {bias}" in note
    assert f"Δ = |L| = {text.number(value)}" in note and "Δ = U − L = 0" in note
    lower, upper = (value, value + 500.0) if value < 100_000 else (value - 500.0, value)
    assert f"[{text.number(lower)}, {text.number(upper)}]" in note
    shown = helpers.metrics(at)
    assert shown["Clamped sum"] == text.number(dp.clamp(gains, lower, upper).sum())
    assert shown["Bias (clamped − true)"] == text.number(dp.clamping_bias(gains, lower, upper))


def test_safe_bounds_for_a_file_are_not_said_to_be_the_sliders_ranges() -> None:
    """For the census the sliders' ranges are public (ages 0–100, gains up to $99,999); a
    file's sliders span its own values, and the page said they were the safe, outside bounds."""
    assert "the ranges of the sliders above" in prose(helpers.run_lesson(PAGE))
    words = prose(hosted(upload=("pay.csv", SALES)))
    assert "the ranges of the sliders above" not in words
    assert "your file's sliders instead span the values it holds, read off the file" in words


def test_who_loses_rows_is_said_in_words_that_agree_with_the_count() -> None:
    # "1 people have more than 99 rows" and "more than 1 rows" were shown; each m's caption
    # now counts the people over m itself and agrees in number.
    for m in (1, 10, 99, 100):
        at = helpers.run_lesson(PAGE)
        at.select_slider(key="clamp_m").set_value(m).run()
        said = " ".join(c.value for c in at.caption)
        assert not re.search(r"(?<![\d,])1 (people|rows)", said), said
        assert f"m = {m} under add/remove-one-*person*" in said
        if m == 1:
            assert "more than 1 row;" in said
    assert lesson.dropped_words(1, 99).startswith("1 person has more than 99 rows;")
    assert lesson.dropped_words(0, 100).startswith("No one has more than 100 rows")
    assert lesson.dropped_words(19_724, 1).startswith("19,724 people have more than 1 row;")
