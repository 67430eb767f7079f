"""AppTest for lessons/floating_point/page.py: the attack's rate pinned at fixed seeds and
above tanh(ε/2); the same attack finds nothing on
snapping and on the discrete Laplace over the same number of outputs; the microscope by
brute force; the sentences, links, code and questions."""

from __future__ import annotations

import math

import numpy as np
import pytest

import apptest_helpers as helpers
import dp
from dp import floating
from lessons.floating_point import model as lesson
from ui import text

PAGE = "floating_point/page.py"


def test_the_attack_rate_is_pinned_at_fixed_seeds() -> None:
    attack = lesson.textbook_attack(1.0, 2036)
    # counts of (both, only 0, only 1) among 20,000 outputs from 0 and from 1 (seed 2036)
    assert attack.verdicts == ((3965, 16035, 0), (4064, 0, 15936))
    assert attack.named == pytest.approx(0.799275)
    assert attack.advantage > math.tanh(0.5)  # beats the ceiling of every 1-DP test
    # an output of a count can never be impossible from that same count
    assert attack.verdicts[0][2] == attack.verdicts[1][1] == 0


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 5.0])
def test_the_fixes_name_nothing_over_the_same_outputs(epsilon) -> None:
    snapped = lesson.snapping_attack(epsilon, 20.0, 2046)
    discrete = lesson.discrete_attack(epsilon, 2056)
    textbook = lesson.textbook_attack(epsilon, 2036)
    assert snapped.samples == discrete.samples == textbook.samples == 20_000
    assert snapped.named == 0.0 and discrete.named == 0.0
    assert textbook.named > 0.5
    # snapping's outputs lie on the Λ grid inside [−B, B], or on ±B (the last clamp)
    b = 1 / epsilon
    lam = floating.snapping_grid(b)
    assert lam >= b and lam / 2 < b and math.log2(lam) == round(math.log2(lam))
    out = dp.float_laplace(1.0, b, mechanism="snapping", bound=20.0, size=2_000, rng=3)
    assert np.all(np.abs(out) <= 20.0)
    assert np.all((out / lam == np.round(out / lam)) | (np.abs(out) == 20.0))


def test_the_page_shows_the_attack_against_the_ceiling() -> None:
    at = helpers.run_lesson(PAGE)
    assert not at.exception
    shown = helpers.metrics(at)
    attack = lesson.textbook_attack(1.0, 2036)
    assert shown["Outputs that name their count"] == text.percent(attack.named)
    assert shown["Any test's ceiling under ε-DP, tanh(ε/2)"] == text.percent(math.tanh(0.5))
    frame = helpers.frames_of(helpers.chart_titled(at, "20,000 outputs from each", prefix=True))[
        "verdicts"
    ]
    from_0 = frame[frame["drawn"] == lesson.DRAWN[0]].set_index("verdict")["share"]
    assert from_0[lesson.ONLY_0] == pytest.approx(16035 / 20_000)
    assert "The sampler is not ε-DP for any ε." in helpers.prose(at)
    fixes = helpers.frames_of(helpers.chart_titled(at, "The same attack on three", prefix=True))
    assert fixes["fixes"]["named"].tolist() == [pytest.approx(attack.named), 0.0, 0.0]
    assert fixes["truth"]["x"].iloc[0] == pytest.approx(math.tanh(0.5))
    table = at.table[0].value
    assert table["outputs examined"].tolist() == ["40,000"] * 3
    assert "1 + 3.55·10⁻¹⁴" in " ".join(table["what it promises"])  # 2⁻⁴⁹·20/1
    # not pure: δ, computed from the sampler's draws, is said (4.83·10⁻¹⁶ at the defaults)
    delta = dp.snapping_delta(0.0, 1.0, 1.0, 20.0, 1.0 + 2.0**-49 * 20)
    assert delta > 0 and f"δ = {text.power_of_ten(delta)}" in " ".join(table["what it promises"])


@pytest.mark.parametrize(("epsilon", "bound"), [(5.0, 20.0), (2.0, 50.0), (0.5, 100.0)])
def test_snapping_is_never_said_pure_where_it_is_not(epsilon, bound) -> None:
    """Finding: snapping "promised" pure ε + 2⁻⁴⁹·B/b (Mironov's Theorem 1) at every setting,
    while on the course's 2⁻⁵³ grid some outputs come from one count only (ε = 5, B = 20:
    (7.25, 8.25] only from count 1). The page states (ε, δ) with δ computed."""
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="fp_fix_eps").set_value(epsilon)
    at.select_slider(key="fp_bound").set_value(bound).run()
    promise = " ".join(at.table[0].value["what it promises"])
    total, delta = lesson.snapping_guarantee(epsilon, bound)
    assert delta >= 1e-16 and f"δ = {text.power_of_ten(delta)}" in promise
    assert "Theorem 1" not in promise


def test_the_prediction_is_marked_from_the_measured_rate() -> None:
    at = helpers.run_lesson(PAGE)
    helpers.answer_quiz(at, "floating_point_predict", 0, 0)
    assert "79.9%" in at.error[-1].value
    helpers.answer_quiz(at, "floating_point_predict", 0, 3)
    assert at.success[-1].value.startswith("Right.")


def test_the_microscope_by_brute_force() -> None:
    at = helpers.run_lesson(PAGE, fp_near="1")
    frame = helpers.frames_of(helpers.chart_titled(at, "32 doubles from 1", prefix=True))["doubles"]
    # consecutive doubles: each the next after the last
    values = [float(v) for v in frame[frame["drawn"] == lesson.ROWS[0]]["value"]]
    assert values[0] == 1.0
    assert all(np.nextafter(a, math.inf) == b for a, b in zip(values, values[1:], strict=False))
    # near 1 every double is an output of 1 + (a tiny noise); from 0 the noise ≈ 1 is a
    # logarithm's value, spread e ≈ 2.7 times wider than the doubles there: about 1 in 2.7
    reached = frame[frame["reached"] == lesson.REACHED].groupby("drawn").size()
    assert reached[lesson.ROWS[1]] == 32
    assert 32 / 4 <= reached[lesson.ROWS[0]] <= 32 / 2
    assert f"count of 0 can output {reached[lesson.ROWS[0]]}" in helpers.prose(at)


def test_a_reused_seed_gives_the_person_away() -> None:
    first, second = lesson.reused_seed()
    assert second - first == pytest.approx(1.0, abs=1e-9)
    at = helpers.run_lesson(PAGE)
    assert f"the difference, {text.number(second - first, 10)}, is the person" in (
        helpers.prose(at)
    )


def test_a_link_reproduces_the_view_and_the_code_has_its_values(monkeypatch) -> None:
    sent = helpers.record_downloads(monkeypatch)
    at = helpers.run_lesson(PAGE, fp_eps="2", fp_near="0.3", fp_bound="50")
    assert float(at.select_slider(key="fp_eps").value) == 2.0
    assert float(at.select_slider(key="fp_bound").value) == 50.0
    code = " ".join(helpers.code_texts(at))
    assert "epsilon, seed, samples = 2.0, 2036, 20_000" in code
    assert sent["fp_dl_textbook"][1][0] == "drawn,verdict,share"


def test_its_questions_are_marked() -> None:
    at = helpers.run_lesson(PAGE)
    helpers.assert_quiz_marks(
        at, ("floating_point", 0, 0), "no finite ε makes that true", ("floating_point", 0, 1)
    )


def test_a_bars_value_is_written_where_the_ceilings_rule_does_not_cross_it() -> None:
    """Found at ε = 0.1: "0.0%" right of a bar of 0 was crossed by tanh(ε/2) = 5%'s rule; at
    ε = 5, "96.3%" right of its bar by the rule at 98.7%. A value goes right of its bar's
    end, unless the rule is within the value's width from it: then right of the rule, or, with
    no room there, left of the bar's end (or of the rule)."""
    reach = lesson.VALUE_REACH
    assert lesson.value_place(0.813, 0.05) == (0.813, False)  # the rule far to its left
    assert lesson.value_place(0.0, 0.05) == (0.05, False)  # past the rule
    assert lesson.value_place(0.0, reach - 0.01) == (reach - 0.01, False)
    assert lesson.value_place(0.0, reach + 0.01) == (0.0, False)  # the rule beyond its width
    assert lesson.value_place(0.963, 0.987) == (0.963, True)  # no room past it: inside
    assert lesson.value_place(0.99, 0.987) == (0.987, True)  # the rule comes first
    frame = lesson.fixes_frame(0.1, lesson.DEFAULT_BOUND, 2026)
    assert frame["named"].iloc[0] > 0.5 and frame["at"].iloc[0] == frame["named"].iloc[0]
    assert frame["at"].iloc[1:].tolist() == [pytest.approx(math.tanh(0.05))] * 2
    assert not frame["left"].any()
