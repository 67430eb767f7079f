"""The class quiz under storage faults: the lecturer's Start, Next, Reveal and Back say in
words what failed and what to do (they raised a StorageError traceback onto the projector);
a read-only database says so on the projector and disables its buttons, and a phone shows
the reason instead of buttons that would fail only when tapped. Every message names the
class quiz, not the survey."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import survey
from apptest_helpers import classroom_page, failing_with, fault_messages
from ui import activity

ROOT = Path(__file__).resolve().parents[3]
PAGE = str(ROOT / "lessons" / "class_quiz" / "page.py")
REASONS = list(survey.STORAGE_FAULTS)


@pytest.fixture
def running(tmp_path, monkeypatch) -> survey.NewQuiz:
    url = f"sqlite:///{tmp_path / 'survey.sqlite3'}"
    monkeypatch.setenv("SURVEY_DB_URL", url)
    store = survey.SurveyStore(url)
    question = survey.QuizQuestion("Which?", ("a", "b", "c"), 1, "b, because.")
    created = survey.QuizStore(store).create_quiz("Faults", [question, question])
    store.dispose()
    return created


def page(**params: str) -> AppTest:
    return classroom_page(PAGE, **params).run()


@pytest.mark.parametrize("reason", REASONS)
def test_every_fault_on_a_lecturer_button_is_explained(running, monkeypatch, reason) -> None:
    lecturer = page(manage=running.quiz.code, key=running.admin_key)
    expected = activity.fault_message(reason, student=False, activity="quiz")
    assert expected.startswith("The class quiz cannot work normally")
    with monkeypatch.context() as patch:
        patch.setattr(survey.QuizStore, "show", failing_with(reason))
        lecturer.button(key="quiz_start").click().run()
        assert not lecturer.exception and expected in fault_messages(lecturer)
    lecturer.button(key="quiz_start").click().run()  # the fault has passed: it starts
    assert not lecturer.exception and expected not in fault_messages(lecturer)
    with monkeypatch.context() as patch:
        patch.setattr(survey.QuizStore, "reveal", failing_with(reason))
        lecturer.button(key="quiz_reveal").click().run()
        assert not lecturer.exception and expected in fault_messages(lecturer)
    with monkeypatch.context() as patch:
        patch.setattr(survey.QuizStore, "show", failing_with(reason))
        lecturer.button(key="quiz_next").click().run()
        assert not lecturer.exception and expected in fault_messages(lecturer)
        assert "Question 1 of 2" in " ".join(m.value for m in lecturer.markdown)


@pytest.mark.parametrize("reason", REASONS)
def test_every_fault_while_answering_names_the_quiz(running, monkeypatch, reason) -> None:
    quizzes = survey.QuizStore(survey.SurveyStore(activity.database_url()))
    quizzes.show(running.quiz.id, running.admin_key, 0)
    phone = page(join=running.quiz.code)
    monkeypatch.setattr(survey.QuizStore, "submit", failing_with(reason))
    phone.button(key="quiz_answer_0_1").click().run()
    expected = activity.fault_message(reason, student=True, activity="quiz")
    assert not phone.exception and expected in fault_messages(phone)
    assert "survey" not in expected


def test_a_read_only_database_says_so_before_anyone_taps(running, monkeypatch) -> None:
    quizzes = survey.QuizStore(survey.SurveyStore(activity.database_url()))
    quizzes.show(running.quiz.id, running.admin_key, 0)
    monkeypatch.setattr(survey.QuizStore, "read_only", property(lambda self: True))
    lecturer = page(manage=running.quiz.code, key=running.admin_key)
    read_only = activity.fault_message("read_only", student=False, activity="quiz")
    assert not lecturer.exception and read_only in fault_messages(lecturer)
    assert lecturer.button(key="quiz_reveal").disabled
    assert lecturer.button(key="quiz_next").disabled
    phone = page(join=running.quiz.code)
    assert not phone.exception
    assert not [b for b in phone.button if b.key.startswith("quiz_answer_")]
    assert activity.fault_message("read_only", student=True, activity="quiz") in fault_messages(
        phone
    )
