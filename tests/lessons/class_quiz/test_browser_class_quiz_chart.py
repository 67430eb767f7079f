"""The class quiz's results chart in private mode on the projector (1280×720, presenter
mode) and a phone-sized window (390×844), after one answer and after forty: no text of the
chart is written over another or crossed by one of its lines. Finding: each bar's number
stood at the bar's top, where its 95% interval and the tick of what the phones sent ran
through it on every screen; it now stands above both."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from playwright.sync_api import Page

import survey
from browser_helpers import (
    PHONE,
    PROJECTOR,
    assert_no_exception,
    chart_text_problems,
    lesson_url,
    open_page,
)
from conftest import SURVEY_DB_DIR

URL_PATH = lesson_url("class_quiz/page.py")
DRAWN = """() => [...document.querySelectorAll('[data-testid=stVegaLiteChart] svg')]
  .some((svg) => svg.textContent.includes("estimated share of the class"))"""
QUESTION = survey.QuizQuestion(
    "Which of these is ε-DP?",
    ("Laplace noise of scale 1/ε on a count", "Rounding to 10", "Removing names", "Top-coding"),
    0,
)


def revealed_private_question(answers: int) -> str:
    """A private quiz (ε = 2) whose one question `answers` phones answered, revealed."""
    quizzes = survey.QuizStore(survey.SurveyStore(f"sqlite:///{SURVEY_DB_DIR / 'survey.sqlite3'}"))
    made = quizzes.create_quiz("Quiz", [QUESTION], epsilon=2.0)
    quiz_id, key = made.quiz.id, made.admin_key
    quizzes.show(quiz_id, key, 0)
    rng = np.random.default_rng(answers)
    for _ in range(answers):
        quizzes.submit(quiz_id, 0, survey.new_session_token(), int(rng.integers(0, 4)))
    quizzes.reveal(quiz_id, key)
    return f"{URL_PATH}?manage={made.quiz.code}&key={key}"


@pytest.mark.parametrize("screen", ["presenter", "phone"])
def test_no_text_of_the_private_results_is_crossed(
    another_device: Callable[..., Page], app_server: str, screen: str
) -> None:
    page = another_device(viewport=PROJECTOR if screen == "presenter" else PHONE)
    found = []
    for answers in (1, 40):
        link = revealed_private_question(answers)
        open_page(page, app_server, link + ("&present=true" if screen == "presenter" else ""))
        page.wait_for_function(DRAWN)
        found += [f"{answers} answers: {problem}" for problem in chart_text_problems(page)]
        assert_no_exception(page)
    assert not found, "\n".join(found)
