"""AppTest for lessons/holdout/page.py: the data has no signal (every agreement recounted from
unpacked bits), the analyst's first round rebuilt by brute force, the reused holdout
overstating the classifier while fresh data does not and the training-only analyst's
holdout staying honest, Thresholdout's budget and ε, the prediction marked from the
numbers, and the code behind the charts giving the charts' numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest

import apptest_helpers as helpers
from lessons.holdout import model as lesson
from lessons.holdout import snippets
from ui import text

PAGE = "holdout/page.py"


@pytest.fixture(scope="module")
def found() -> lesson.Data:
    """The data, drawn again (the page keeps only what the analyses found)."""
    return lesson.data()


def unpacked(found: lesson.Data, which: int, column: int) -> np.ndarray:
    """Candidate `column`'s rows on set `which` as 0/1 (1: the feature equals the label)."""
    return np.unpackbits(found.agrees[which, column])


def far_from_chance(accuracy: float) -> bool:
    """Further than 6 standard errors (½/√N each) from 50%."""
    return abs(accuracy - 0.5) > 6 * 0.5 / math.sqrt(lesson.N)


def test_the_data_is_coin_flips_and_the_agreements_are_counted_right(found) -> None:
    for which in range(len(lesson.SETS)):
        for column in (0, 1, 17, found.agreement.shape[1] - 1):
            assert found.agreement[which, column] == unpacked(found, which, column).mean()
    training = found.agreement[0]
    # strongest first, each beyond the bar on the training set
    assert np.all(np.diff(np.abs(training - 0.5)) <= 0)
    assert np.all(np.abs(training - 0.5) > lesson.BAR)
    # no signal: a third of 10,000 coin flips lie beyond one SD (P(|Z| > 1) = 0.3173) and
    # the holdout's and fresh data's agreements of those features centre on ½ (6 SE)
    share = found.agreement.shape[1] / lesson.FEATURES
    assert abs(share - 0.3173) < 6 * math.sqrt(0.3173 * 0.6827 / lesson.FEATURES)
    for which in (1, 2):
        values = found.agreement[which]
        assert abs(values.mean() - 0.5) < 6 * lesson.BAR / math.sqrt(values.size)


def test_the_first_round_rebuilt_by_brute_force(found) -> None:
    """The analyst who checks on the holdout: its first ten features are the first
    candidates whose holdout agreement is beyond the bar on the training side; their
    majority vote on the holdout, ties half right, is the holdout accuracy it sees."""
    chosen, signs = [], []
    for column in range(found.agreement.shape[1]):
        t, h = found.agreement[0, column], found.agreement[1, column]
        if abs(h - 0.5) > lesson.BAR and (h > 0.5) == (t > 0.5):
            chosen.append(column)
            signs.append(1 if t > 0.5 else -1)
        if len(chosen) == lesson.ROUND:
            break
    run = lesson.standard(lesson.BOTH)
    assert run.checked[0] == chosen[-1] + 1
    for which, accuracy in ((0, run.training[0]), (1, run.seen[0]), (2, run.fresh[0])):
        pairs = zip(chosen, signs, strict=True)
        votes = sum(s * (2 * unpacked(found, which, c).astype(int) - 1) for c, s in pairs)
        expected = (np.sum(votes > 0) + 0.5 * np.sum(votes == 0)) / lesson.N
        assert accuracy == expected
    assert run.seen == run.holdout  # the standard holdout answers exactly


def test_reusing_the_holdout_overfits_it_and_fresh_data_says_so() -> None:
    at = helpers.run_lesson(PAGE)
    run = lesson.standard(lesson.BOTH)
    i = run.at(lesson.DEFAULT_K)
    shown = helpers.metrics(at)
    assert shown["Holdout"] == text.percent(run.seen[i], 3)
    assert shown["Fresh data"] == text.percent(run.fresh[i], 3)
    assert f"after {run.checked[i] + i + 1:,} questions to the holdout" in helpers.prose(at)
    assert lesson.outside_chance(run.seen[i]) and not lesson.outside_chance(run.fresh[i])
    assert "now overstates the classifier" in helpers.prose(at)
    # every fresh accuracy of the run within 6 SE of 50%; the holdout's climbs far past it
    assert not any(far_from_chance(value) for value in run.fresh)
    assert run.seen[-1] > run.seen[0] and far_from_chance(run.seen[-1])
    band = 1.959964 * math.sqrt(2 * 0.25 / lesson.N)  # two honest scores differ by, 95%
    for k in lesson.KS:  # the verdict at every k, from the numbers
        j = run.at(k)
        words = lesson.overfitting_words(run, lesson.BOTH, k)
        assert ("now overstates" in words) == (run.seen[j] - run.fresh[j] > band), k
        # a small gap is no proof of honesty: at k = 10 the holdout is already outside chance
        assert "not yet been overfitted" not in words
        if run.seen[j] - run.fresh[j] <= band:
            assert "no sign yet that the holdout has been overfitted" in words, k
    at.radio(key="ho_check").set_value(lesson.TRAINING_ONLY).run()
    honest = lesson.standard(lesson.TRAINING_ONLY)
    assert not any(far_from_chance(value) for value in honest.seen)
    assert honest.training[-1] > run.training[-1]  # the training set, not the holdout, overfits
    assert "so it tells the truth" in helpers.prose(at)
    assert f"after {i + 1:,} questions to the holdout" in helpers.prose(at)


@pytest.mark.parametrize(
    ("tolerance", "budget"), [(0.01, 200), (0.005, 40), (0.02, 20), (0.00125, 400)]
)
def test_thresholdout_spends_its_budget_and_keeps_the_holdout_honest(tolerance, budget) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ho_sigma").set_value(tolerance)
    at.select_slider(key="ho_budget").set_value(budget).run()
    assert not at.exception
    run = lesson.thresholdout(tolerance, budget)
    shown = helpers.metrics(at)
    assert shown["Holdout answers spent"] == f"{run.answered_by_holdout:,} of {budget:,}"
    epsilon = 2 * budget / (tolerance * lesson.N)
    assert shown["ε for the holdout"] == text.number(epsilon, 3)
    assert run.answered_by_holdout <= budget
    assert (run.stopped == "budget") == (run.answered_by_holdout == budget)
    # an answer is the training value or the holdout's plus Lap(σ) (|ξ| > 20σ: p = e⁻²⁰)
    for seen, training, holdout in zip(run.seen, run.training, run.holdout, strict=True):
        assert math.isnan(seen) or seen == training or abs(seen - holdout) < 20 * tolerance
    # the analyst learned almost nothing about the holdout: its true accuracy stays chance's
    assert not any(far_from_chance(value) for value in run.holdout)
    words = helpers.prose(at)
    assert ("ran out at k" in words) == (run.stopped == "budget")
    assert f"protected at ε = {text.number(epsilon, 3)}" in words


def test_the_prediction_is_marked_from_the_numbers() -> None:
    at = helpers.run_lesson(PAGE)
    run = lesson.standard(lesson.BOTH)
    value = run.seen[run.at(lesson.PREDICT_K)]
    right = lesson.PREDICT_OPTIONS.index(lesson.predicted_option(value))
    low = ([0.0, *(0.53, 0.58, 0.63, 0.68)])[right]
    high = ([0.53, 0.58, 0.63, 0.68, 1.0])[right]
    assert low <= value < high
    helpers.answer_quiz(at, "holdout_predict", 0, (right + 1) % len(lesson.PREDICT_OPTIONS))
    assert at.error, "a wrong answer is marked wrong"
    helpers.answer_quiz(at, "holdout_predict", 0, right)
    assert at.success[-1].value.startswith("Right.")


@pytest.mark.parametrize(
    ("snippet", "through", "run"),
    [
        (snippets.REUSED, "holdout", lambda: lesson.standard(lesson.BOTH)),
        (snippets.REUSED, "training", lambda: lesson.standard(lesson.TRAINING_ONLY)),
        (snippets.THRESHOLDOUT, "thresholdout", lambda: lesson.thresholdout(0.005, 40)),
    ],
)
def test_the_code_behind_the_charts_gives_their_numbers(snippet, through, run) -> None:
    found: dict = {}
    exec(snippet.render(through=through, tolerance=0.005, budget=40), found)  # noqa: S102
    frame, expected = found["frame"], run()
    assert frame["k"].tolist() == list(expected.k)
    np.testing.assert_array_equal(frame["training"], expected.training)
    np.testing.assert_array_equal(frame["seen"], expected.seen)
    np.testing.assert_array_equal(frame["fresh"], expected.fresh)


def test_every_setting_stays_inside_the_charts_axes() -> None:
    runs = [lesson.standard(check) for check in lesson.CHECKS]
    runs += [lesson.thresholdout(s, b) for s in lesson.TOLERANCES for b in lesson.BUDGETS]
    for run in runs:
        values = lesson.curves(run)
        assert values["accuracy"].between(*lesson.ACCURACY_DOMAIN).all()
        assert values["k"].between(0, lesson.MOST).all()
    # the standard analysts reach every k the slider offers
    for check in lesson.CHECKS:
        assert all(lesson.standard(check).at(k) is not None for k in lesson.KS)
