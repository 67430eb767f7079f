"""AppTest for lessons/class_checkin/page.py: a lecturer chooses lessons and ε and creates a
check-in; phones send randomized reports through the private component; the projector's
bars are dp's estimates from the stored bits with the course's intervals; a stale tab's
Close changes nothing; a late phone, a second report and forged frames are refused."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import dp
import survey
from apptest_helpers import classroom_page, component_data, frames_of, send_component_event
from apptest_helpers import page_words as words
from lessons.class_checkin import model
from ui import activity, text

ROOT = Path(__file__).resolve().parents[3]
PAGE = str(ROOT / "lessons" / "class_checkin" / "page.py")
LESSONS = ["anonymisation", "laplace", "binary_rr"]


def page(**params: str) -> AppTest:
    at = classroom_page(PAGE, **params).run()
    assert not at.exception, at.exception
    return at


def create(lessons=LESSONS, epsilon: float = 4.0) -> AppTest:
    at = page()
    at.multiselect(key="checkin_lessons").set_value(list(lessons)).run()
    at.segmented_control(key="checkin_eps").set_value(epsilon).run()
    caption = model.plan_caption(epsilon, len(lessons))
    assert caption in words(at)
    at.button(key="checkin_create").click().run()
    assert not at.exception, at.exception
    return at


def test_a_whole_check_in(store) -> None:
    checkins = survey.CheckinStore(store)
    assert activity.ACTIVITIES["checkin"] == "progress check-in"
    lecturer = create()
    code = lecturer.query_params["manage"]
    checkin = checkins.find(code)
    assert checkin.lessons == tuple(LESSONS) and checkin.epsilon == 4.0 and checkin.is_open
    assert activity.recent_open_activities(store) == 1  # it counts toward the storage bound
    phone = page(join=code)
    key = f"checkin_private_{checkin.id}"
    asked = component_data(phone, key)
    bits = model.bit_probabilities(4.0, 3)
    assert (asked["p"], asked["q"]) == (bits.p, bits.q) and asked["sent"] is None
    assert [lesson["folder"] for lesson in asked["lessons"]] == LESSONS
    assert asked["record"] == "pp-progress-v1" and asked["memory"] == f"pp-checkin-{code}"
    send_component_event(phone, key, "sent", "101")
    assert "Your report is in." in words(phone), words(phone)
    assert component_data(phone, key)["sent"] == "101"  # the receipt, from the phone's memory
    token = phone.session_state["survey_session_token"]
    assert checkins.sent(checkin.id, token) == "101"
    # the session keeps what was sent and the store's outcome, nothing about the truth
    kept = {k for k in phone.session_state if str(k).startswith("checkin_")}
    assert kept == {key, f"checkin_stored_{checkin.id}", f"checkin_outcome_{checkin.id}"}
    # 199 simulated phones, each randomizing its truth with the same bits
    rng = np.random.default_rng(5)
    truth = rng.random((199, 3)) < np.array([0.9, 0.5, 0.1])
    for row in dp.ue_perturb(truth, bits.p, bits.q, rng=rng):
        report = "".join("1" if b else "0" for b in row)
        assert checkins.submit(checkin.id, survey.new_session_token(), report).value == "accepted"
    lecturer.run()
    assert not lecturer.exception
    results = frames_of(lecturer.get("vega_lite_chart")[0])["results"]
    reports = checkins.reports(checkin.id, 3)
    assert reports.n == 200
    np.testing.assert_array_equal(results["sent"], reports.ones)
    expected = dp.ue_estimate_from_counts(np.array(reports.ones), 200, bits.p, bits.q)
    np.testing.assert_allclose(results["estimate"], expected)
    for i, ones in enumerate(reports.ones):
        _, low, high = dp.rr_confidence_interval(ones, 200, bits.p, 1 - bits.q)
        assert results["low_share"].iloc[i] == pytest.approx(low)
        assert results["high_share"].iloc[i] == pytest.approx(high)
    true_counts = truth.sum(axis=0) + np.array([1, 0, 1])
    for i, share in enumerate((0.9, 0.5, 0.1)):
        se = math.sqrt(dp.ue_variance(200, bits.p, bits.q, share))
        assert abs(expected[i] - true_counts[i]) < 6 * se
    assert [m.value for m in lecturer.metric][-2:] == ["200", "4"]  # reports, ε each spent
    assert model.reveal_caption(4.0, 3).replace("\\", "") in words(lecturer)
    # a stale tab's Close changes nothing; a late phone is told so
    admin_key = lecturer.session_state["checkin_admin_keys"][code]
    other_tab = page(manage=code, key=admin_key)
    lecturer.button(key="checkin_close").click().run()
    other_tab.button(key="checkin_close").click().run()
    assert any("so this press changed nothing" in i.value for i in other_tab.info)
    assert "Closed: no more reports are taken" in words(lecturer)
    late = page(join=code)
    assert "Too late: the lecturer has closed this check-in." in words(late)
    assert checkins.reports(checkin.id, 3).n == 200


@pytest.mark.parametrize("forged", ["10", "1011", "102", "abc", 5, True, None, ["1", "0", "1"]])
def test_a_forged_report_is_ignored(store, forged) -> None:
    """A frame whose bits are not three 0s and 1s stores nothing, shows no traceback, and the
    phone still offers its Send button."""
    lecturer = create()
    checkins = survey.CheckinStore(store)
    checkin = checkins.find(lecturer.query_params["manage"])
    phone = page(join=checkin.code)
    key = f"checkin_private_{checkin.id}"
    send_component_event(phone, key, "sent", forged)
    assert not phone.exception
    assert checkins.reports(checkin.id, 3).n == 0
    assert component_data(phone, key)["sent"] is None


def test_the_create_page_refuses_no_lessons_and_says_what_the_budget_buys(store) -> None:
    at = page()
    at.multiselect(key="checkin_lessons").set_value([]).run()
    assert at.button(key="checkin_create").disabled
    assert "Choose at least one lesson." in words(at)
    at.multiselect(key="checkin_lessons").set_value(["laplace"]).run()
    one = model.expected_half_width(30, 4.0, 1)
    at.multiselect(key="checkin_lessons").set_value(LESSONS).run()
    three = model.expected_half_width(30, 4.0, 3)
    assert three > one  # the budget is shared: more lessons, wider intervals
    assert f"about ±\u00a0{text.number(three, 2)} of 30 students" not in words(at)  # "30 and"
    assert f"about ±\u00a0{text.number(three, 2)} of 30 and" in words(at)
    assert "as wide as the room" not in words(at)  # ± 7.5 of 30: it says something


@pytest.mark.parametrize(
    ("epsilon", "k", "said"),
    [
        (0.5, 40, "± 859 of 30 and ± 2,217 of 200 students (95%): in either room that"),
        (1.0, 4, "± 43 of 30 and ± 111 of 200 students (95%): in either room that"),
        (2.0, 4, "± 21 of 30 and ± 55 of 200 students (95%): in a room of 30 that"),
        (4.0, 3, "± 7.5 of 30 and ± 19 of 200 students (95%)."),
    ],
)
def test_an_interval_as_wide_as_the_room_is_said_to_say_next_to_nothing(epsilon, k, said):
    """The create page's promise at ε and k lessons: z√Var with Var = dp.ue_variance for each
    room (30, 200), with thousands separators; where 2 × half-width ≥ n the interval spans
    every count the room can have, and the page says the estimate would say next to nothing
    (it said "± 859 of 30" and no more)."""
    caption = model.plan_caption(epsilon, k).replace("\u00a0", " ")
    assert said in caption
    assert ("as wide as the room, so the estimate would say next to nothing" in caption) == (
        not said.endswith(".")
    )


@pytest.mark.parametrize(
    ("epsilon", "k", "truth", "said"),
    [
        (4.0, 4, "73.1%", "weak evidence about any one lesson"),
        (2.0, 1, "88.1%", "evidence about each lesson, not proof"),
        (8.0, 2, "98.2%", "all but gives away which lessons"),
        (16.0, 1, "over 99.9999%", "all but gives away which lessons"),
    ],
)
def test_what_one_report_says_is_read_off_its_bits(epsilon, k, truth, said) -> None:
    """One report is not "mostly noise" at every ε the create page offers: at ε = 16 and one
    lesson each bit is the truth with chance 1 − 1/(1 + e^16). The words follow p = e^(ε/k)
    / (1 + e^(ε/k)), here checked against that formula, not the code's."""
    p = math.exp(epsilon / k) / (1 + math.exp(epsilon / k))
    assert text.chance(p) == truth
    caption = model.reveal_caption(epsilon, k)
    assert f"Each bit of one report is the truth {truth} of the time: " in caption
    assert said in caption and "mostly noise" not in caption


def test_the_charts_words_keep_each_estimate_within_the_room() -> None:
    """The unbiased estimate may leave 0..n (it said "about 2312 of 2,000"): the alt text
    says it within the room, with thousands separators, beside its interval."""
    frame = pd.DataFrame(
        {
            "lesson": ["A", "B"],
            "estimate": [2312.4, -40.2],
            "low": [1890.0, 0.0],
            "high": [2000.0, 110.6],
        }
    )
    said = model.describe(frame, 2000)
    assert "A: about 2,000 of 2,000 (1,890 to 2,000)" in said
    assert "B: about 0 of 2,000 (0 to 111)" in said
