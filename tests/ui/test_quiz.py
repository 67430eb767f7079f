"""Check yourself: wrong -> error with the answer, right -> success; a slider rerun keeps
the chosen option and the verdict."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from apptest_helpers import run_lesson
from lessons.catalogue import LESSONS
from ui.quiz import Question, bank

SCRIPT = """
import streamlit as st
from ui.quiz import Question, check_yourself

st.slider("ε", 0.1, 10.0, 1.0, key="eps")
check_yourself("demo", [
    Question("ε doubles. The noise scale b = 1/ε…", ("doubles", "halves", "stays"), 1,
             "b = Δ/ε: twice the ε, half the scale."),
    ("Which p = q gives ε = ln 3?", ["0.5", "0.75", "0.9"], 1, "p/(1−p) = 3."),
])
"""


def app() -> AppTest:
    at = AppTest.from_string(SCRIPT, default_timeout=30)
    at.run()
    return at


def test_nothing_is_preselected_and_check_waits_for_a_choice():
    at = app()
    assert [radio.value for radio in at.radio] == [None, None]
    assert all(button.disabled for button in at.button)
    assert not at.success and not at.error


def test_wrong_answer_shows_the_error_with_the_right_answer_and_explanation():
    at = app()
    at.radio(key="quiz_demo_0_choice").set_value(0).run()
    assert not at.error  # nothing revealed before "Check"
    at.button(key="quiz_demo_0_check").click().run()
    assert len(at.error) == 1 and not at.success
    assert "halves" in at.error[0].value and "twice the ε" in at.error[0].value


def test_right_answer_shows_success():
    at = app()
    at.radio(key="quiz_demo_1_choice").set_value(1).run()
    at.button(key="quiz_demo_1_check").click().run()
    assert len(at.success) == 1 and not at.error
    assert "p/(1−p) = 3" in at.success[0].value


def test_moving_a_slider_keeps_answers_and_verdicts():
    at = app()
    at.radio(key="quiz_demo_0_choice").set_value(1).run()
    at.button(key="quiz_demo_0_check").click().run()
    at.radio(key="quiz_demo_1_choice").set_value(2).run()
    for value in (3.0, 7.5):
        at.slider(key="eps").set_value(value).run()
        assert at.radio(key="quiz_demo_0_choice").value == 1
        assert at.radio(key="quiz_demo_1_choice").value == 2
        assert len(at.success) == 1  # question 1 stays revealed, question 2 is unchecked
        assert not at.error
    assert not at.exception


def test_changing_the_choice_hides_the_old_verdict():
    at = app()
    at.radio(key="quiz_demo_0_choice").set_value(1).run()
    at.button(key="quiz_demo_0_check").click().run()
    assert len(at.success) == 1
    at.radio(key="quiz_demo_0_choice").set_value(2).run()
    assert not at.success and not at.error


def test_question_validates_its_data():
    with pytest.raises(ValueError, match="correct"):
        Question("?", ("a", "b"), 2, "")
    with pytest.raises(ValueError, match="options"):
        Question("?", ("a",), 0, "")


# --- A lesson's fixed questions: its quiz.toml (quiz.bank) ---------------------------------
def write_bank(tmp_path, body: str) -> str:
    (tmp_path / "quiz.toml").write_text(body)
    return str(tmp_path / "page.py")


GOOD = """
[[demo]]
prompt = "ε doubles. The noise scale b = 1/ε…"
options = ["doubles", "halves", "stays"]
answer = "halves"
explanation = "b = Δ/ε."
"""


def test_a_bank_gives_its_questions_with_the_index_of_the_answer(tmp_path) -> None:
    (question,) = bank(write_bank(tmp_path, GOOD), "demo")
    assert question == Question(
        "ε doubles. The noise scale b = 1/ε…", ("doubles", "halves", "stays"), 1, "b = Δ/ε."
    )


@pytest.mark.parametrize(
    "body, key, error, match",
    [
        (GOOD, "other", ValueError, r"key: .*quiz.toml has no questions \[\[other\]\]"),
        (
            GOOD.replace('answer = "halves"', 'answer = "halved"'),
            "demo",
            ValueError,
            "the answer must be exactly one of the options",
        ),
        (GOOD.replace('"stays"]', '"halves"]'), "demo", ValueError, "exactly one of"),
        (
            GOOD.replace('answer = "halves"', "correct = 1"),
            "demo",
            ValueError,
            "needs exactly the fields",
        ),
        (
            GOOD.replace('["doubles", "halves", "stays"]', '"halves"'),
            "demo",
            TypeError,
            "options must be a list of strings",
        ),
    ],
)
def test_a_bank_refuses_a_question_it_cannot_mark(tmp_path, body, key, error, match) -> None:
    with pytest.raises(error, match=match):
        bank(write_bank(tmp_path, body), key)


def test_every_lesson_bank_is_read_and_every_table_is_asked() -> None:
    """Each quiz.toml parses into questions, and each of its [[key]] tables is asked by its
    page (a table no page asks would be prose no one sees)."""
    import tomllib

    from lessons.catalogue import LESSONS_DIR

    banks = sorted(LESSONS_DIR.glob("*/quiz.toml"))
    assert len(banks) >= 20
    for path in banks:
        page = path.with_name("page.py")
        for key in tomllib.loads(path.read_text()):
            assert bank(str(page), key), key
            assert f'quiz.bank(__file__, "{key}")' in page.read_text(), (path, key)


@pytest.mark.parametrize(
    "lesson", [lesson for lesson in LESSONS if not lesson.activity], ids=lambda x: x.url_path
)
def test_a_lessons_outline_names_each_section_once(lesson) -> None:
    """A screen reader lists a page's headings to find its way. Who pays asked its section 2
    question under a second "Check yourself" header, and every lesson's mid-section question
    stood under a header of its own ("Predict first", twice in DP group-by) that took the
    section's controls and chart out of the section. The page's headers are each said once,
    "Check yourself" is the last, and a prediction is a subheading of its section."""
    at = run_lesson(lesson.file)
    headers = [h.value for h in at.header]
    assert len(headers) == len(set(headers)), (lesson.folder, headers)
    assert headers[-1] == "Check yourself", (lesson.folder, headers)
    assert "Predict first" not in headers, (lesson.folder, headers)
