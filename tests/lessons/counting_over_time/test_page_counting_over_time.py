"""AppTest for lessons/counting_over_time/page.py: the three errors against their closed
forms, the prediction marked from the sliders, the release reproducible from its code, the
tree's measured error against its formula, the 16-day tree's blocks by brute force, the
sentences from the numbers, the deployments from the file, the links and the questions."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import apptest_helpers as helpers
import dp
from lessons.counting_over_time import model as lesson
from ui import controls, text

PAGE = "counting_over_time/page.py"
DASHBOARD = "The dashboard at"
ERRORS = "How far off each count is, on average"


def _sd(method: str, t: int, epsilon: float, horizon: int = 1_000) -> float:
    """Each method's error SD from first principles: Lap(b) has variance 2b²."""
    if method == lesson.INCREMENTS:  # t independent Lap(1/ε)
        return math.sqrt(t * 2 / epsilon**2)
    if method == lesson.RECOMPUTE:  # one Lap(T/ε)
        return math.sqrt(2 * (horizon / epsilon) ** 2)
    levels = math.floor(math.log2(horizon)) + 1  # 10 for T = 1,000
    return math.sqrt(bin(t).count("1") * 2 * (levels / epsilon) ** 2)


@pytest.mark.parametrize(("epsilon", "day"), [(1.0, 365), (0.1, 512), (5.0, 511), (2.0, 1)])
def test_the_three_errors_are_their_closed_forms(epsilon, day) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ot_eps").set_value(epsilon)
    at.select_slider(key="ot_day").set_value(day).run()
    assert not at.exception
    shown = helpers.metrics(at)
    for method in lesson.METHODS:
        assert shown[f"Error SD on day {day:,}: {method}"] == text.number(_sd(method, day, epsilon))
    curves = helpers.frames_of(helpers.chart_titled(at, ERRORS))["curves"]
    for method in lesson.METHODS:
        rows = curves[curves["method"] == method]
        want = [_sd(method, int(t), epsilon) for t in rows["day"]]
        np.testing.assert_allclose(rows["sd"], want, rtol=1e-6)  # sent as float32
    tree = curves[curves["method"] == lesson.TREE]
    assert tree["day"].tolist() == list(range(1, 1_001))  # every day: it jumps with the bits


def test_the_prediction_is_marked_from_the_day() -> None:
    at = helpers.run_lesson(PAGE)  # day 365 = 101101101b: 6 blocks of Lap(10): SD 34.6 > 27
    helpers.answer_quiz(at, "counting_over_time_predict", 0, 2)
    assert "noisy increments 27.02" in at.error[-1].value
    helpers.answer_quiz(at, "counting_over_time_predict", 0, 0)
    assert at.success[-1].value.startswith("Right.")
    at = helpers.run_lesson(PAGE, ot_day="512")  # one block: SD 14.1 < 32
    helpers.answer_quiz(at, "counting_over_time_predict", 0, 2)
    assert at.success[-1].value.startswith("Right.")


def test_the_release_is_the_streams_and_its_code_rebuilds_it() -> None:
    at = helpers.run_lesson(PAGE, ot_eps="0.5")
    frames = helpers.frames_of(helpers.chart_titled(at, DASHBOARD, prefix=True))
    frame = frames["releases"]
    assert set(frame["release"]) == {lesson.INCREMENTS, lesson.TREE}
    # the truth in a dataset of its own, the same at every ε and seed (Vega is handed only
    # the datasets whose bytes changed)
    true_count = frames["true_count"]
    assert set(true_count["release"]) == {lesson.TRUTH}
    other = helpers.run_lesson(PAGE, ot_eps="3.0", seed="7")
    again = helpers.frames_of(helpers.chart_titled(other, DASHBOARD, prefix=True))["true_count"]
    pd.testing.assert_frame_equal(again, true_count)
    # the truth: how many of the first t people of the seeded order earn more than $50K
    from ui import datasets

    census = datasets.census()
    order = np.random.default_rng(lesson.STREAM_SEED).permutation(len(census))[:1_000]
    truth = np.cumsum(census["Income"].to_numpy()[order] == ">50K")
    np.testing.assert_array_equal(true_count["count"], truth)
    assert true_count["day"].tolist() == list(range(1, 1_001))
    # the code under the chart, run as printed, gives the same release
    code = helpers.code_texts(at, "binary_tree_counts")[0]
    assert "epsilon, horizon, seed = 0.5, 1_000, 2036" in code
    scope: dict = {}
    exec(code, scope)  # noqa: S102 - the snippet, as a student would paste it
    printed = scope["frame"].set_index("day")
    for name in (lesson.INCREMENTS, lesson.TREE):
        shown = frame[frame["release"] == name]["count"].to_numpy()
        np.testing.assert_allclose(printed[name].to_numpy(), shown, rtol=1e-6, atol=1e-4)
    assert controls.seed() + lesson.SEED_RUN == 2036


@pytest.mark.parametrize("epsilon", [0.5, 2.0])
def test_the_trees_measured_error_is_its_formula(epsilon) -> None:
    at = helpers.run_lesson(PAGE, ot_eps=f"{epsilon:g}")
    measured = helpers.frames_of(helpers.chart_titled(at, ERRORS))["measured"]
    assert measured["day"].tolist() == list(lesson.DAYS)
    for day, sd in zip(measured["day"], measured["sd"], strict=True):
        k = bin(int(day)).count("1")
        variance = k * 2 * (10 / epsilon) ** 2
        # the mean of R squared errors, a sum of k Laplace: Var(e²) = σ⁴(2 + 3/k)
        standard_error = variance * math.sqrt((2 + 3 / k) / lesson.RUNS)
        assert abs(sd**2 - variance) <= 6 * standard_error, (day, sd**2, variance)


def test_the_sentences_come_from_the_numbers() -> None:
    at = helpers.run_lesson(PAGE)
    # the last day on which the tree's variance is not below the increments', by brute force
    losing = [t for t in range(1, 1_001) if bin(t).count("1") * 2 * 10**2 >= 2 * t]
    assert f"from day {losing[-1] + 1} on the tree wins on every day" in helpers.prose(at)
    # an hour a year: L = 14, at most 13 ones (8,191 = 2^13 − 1 ≤ 8,760)
    worst = math.sqrt(13 * 2 * 14**2)
    assert (8_760).bit_length() == 14
    assert f"at most {text.number(worst)} on any hour" in helpers.prose(at)
    assert f"reaches {text.number(math.sqrt(2 * 8_760))} on the last one" in helpers.prose(at)


def _blocks(horizon: int) -> list[tuple[int, int]]:
    """Every dyadic block inside [1, T], by brute force over sizes and starts."""
    found = []
    size = 1
    while size <= horizon:
        found += [(a, a + size - 1) for a in range(1, horizon - size + 2, size)]
        size *= 2
    return found


def test_the_small_tree_by_brute_force() -> None:
    blocks = _blocks(16)
    assert len(blocks) == len(lesson.tree_nodes()) == 31
    for t in range(1, 17):
        counted = [(n.start, n.end) for n in lesson.count_nodes(t)]
        # disjoint blocks that cover [1, t] exactly, one per 1 bit of t
        days = sorted(d for a, b in counted for d in range(a, b + 1))
        assert days == list(range(1, t + 1))
        assert all(block in blocks for block in counted)
        assert len(counted) == bin(t).count("1")
    for s in range(1, 17):
        assert [(n.start, n.end) for n in lesson.event_nodes(s)] == [
            (a, b) for a, b in blocks if a <= s <= b
        ]
        assert len(lesson.event_nodes(s)) == 5  # one per level: L = 5
    # a horizon that is not a power of two: a day can sit in fewer than L blocks
    assert len(lesson.event_nodes(13, horizon=13)) == 1  # [13] only; [13, 14] leaves [1, 13]
    assert [(n.start, n.end) for n in lesson.tree_nodes(13)] == sorted(
        _blocks(13), key=lambda b: (b[1] - b[0], b[0])
    )


def test_the_tree_chart_colours_the_blocks_of_both_days() -> None:
    at = helpers.run_lesson(PAGE, ot_tree_day="11", ot_event_day="6")
    nodes = helpers.frames_of(helpers.chart_titled(at, "Day 11's count", prefix=True))["nodes"]
    by_role = nodes.groupby("role")["node"].apply(list).to_dict()
    assert sorted(by_role[lesson.COUNTED]) == ["11", "9–10"]
    assert by_role[lesson.BOTH] == ["1–8"]  # day 6 is in [1, 8], which day 11's count adds
    assert sorted(by_role[lesson.HOLDS]) == ["1–16", "5–6", "5–8", "6"]
    words = helpers.prose(at)
    assert "11 = 1011 in binary: it adds [1–8] + [9–10] + [11], 3 blocks" in words
    assert "is in [6], [5–6], [5–8], [1–8], [1–16]: 5 blocks" in words


def test_the_daily_budgets_are_the_files() -> None:
    from data.deployments import load_deployments

    table = load_deployments()
    daily = table[(table["unit_of_privacy"] == "user") & (table["period"] == "per day")]
    at = helpers.run_lesson(PAGE)
    shown = at.table[0].value
    assert len(shown) == len(daily)
    assert sorted(shown["ε per day"]) == sorted(text.number(e) for e in daily["epsilon"])
    assert text.number(16 * 365) in shown["ε over a year, by composition"].tolist()


def test_a_link_reproduces_the_view_and_the_csv_is_the_release(monkeypatch) -> None:
    sent = helpers.record_downloads(monkeypatch)
    at = helpers.run_lesson(PAGE, ot_eps="3", ot_day="127", ot_tree_day="7", ot_event_day="16")
    assert float(at.select_slider(key="ot_eps").value) == 3.0
    assert int(at.select_slider(key="ot_day").value) == 127
    code = " ".join(helpers.code_texts(at))
    assert "horizon, t, s = 16, 7, 16" in code
    filename, lines = sent["ot_dl_release"]
    assert filename == "running-count.csv"
    assert lines[0] == 'day,true count,noisy increments,"recompute each day, ε/T",binary tree'
    assert len(lines) == 1 + 1_000
    frame = pd.read_csv(pd.io.common.StringIO("\n".join(lines)))
    recompute = frame["recompute each day, ε/T"] - frame["true count"]
    # Lap(T/ε) = Lap(333): the recompute's errors' SD is √2·333 = 471, within a few SEs
    assert abs(recompute.std() / (math.sqrt(2) * 1_000 / 3) - 1) < 0.15


def test_its_questions_are_marked() -> None:
    at = helpers.run_lesson(PAGE)
    helpers.assert_quiz_marks(
        at, ("counting_over_time", 1, 1), "⌊log₂ 1,024⌋ + 1 = 11", ("counting_over_time", 1, 2)
    )
    assert dp.binary_tree_variance(256, 1_000, 1.0) < dp.binary_tree_variance(255, 1_000, 1.0)


def test_the_trees_error_is_said_as_it_grows() -> None:
    """Finding (imprecise): the tree's error was said to grow "like log T"; its SD is
    √(2·ones(t))·L/ε, L = ⌊log₂ T⌋ + 1: about (log T)^(3/2) (Chan, Shi & Song 2011)."""
    said = " ".join(m.value for m in helpers.run_lesson(PAGE).markdown)
    assert "like log T" not in said and "(log T)·√(log T)" in said
