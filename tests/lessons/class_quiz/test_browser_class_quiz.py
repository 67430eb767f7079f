"""The class quiz in real Chromium: a lecturer builds a quiz from a lesson and starts it;
three phones (separate browser contexts, 390×844) follow without a reload, see the question
and its buttons above the fold, answer; the projector counts 3, "V" reveals the answer and
"→" moves every phone to the next question."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from browser_helpers import (
    LIVE_TIMEOUT_MS,
    PHONE,
    PROJECTOR,
    STATUS,
    assert_no_exception,
    assert_on_one_screen,
    create_from_the_bottom,
    expect_rerun,
    lesson_url,
    lines_of_text,
    main_scroll,
    metric,
    open_page,
    press_from_the_keyboard,
)
from lessons.class_quiz import model

URL_PATH = lesson_url("class_quiz/page.py")


def pick_laplace(page: Page) -> None:
    """The builder: the Laplace lesson's questions, picked in the multiselect."""
    picker = page.get_by_role("combobox", name="Questions from these lessons")
    picker.click()
    picker.fill("Laplace")
    with expect_rerun(page):
        picker.press("Enter")
    page.keyboard.press("Escape")


def test_a_lecturer_and_three_phones(
    page: Page, another_device: Callable[..., Page], app_server: str
) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_page(page, app_server, URL_PATH)
    assert_no_exception(page)
    pick_laplace(page)
    expect(page.get_by_text("3 questions in this quiz.")).to_be_visible()
    with expect_rerun(page):
        page.get_by_role("button", name="Create quiz").click()
    page.wait_for_url(f"**/{URL_PATH}?manage=*")
    code = page.url.split("manage=")[1][:6]
    expect(metric(page, "Join code")).to_contain_text(code)

    phones = []
    for _ in range(3):
        phone = another_device(viewport=PHONE)
        open_page(phone, app_server, f"{URL_PATH}?join={code}")
        expect(phone.get_by_text("Waiting for your lecturer")).to_be_visible()
        phones.append(phone)
    page.get_by_role("button", name="Start").click()
    question = model.lesson_questions("laplace")[0]
    for i, phone in enumerate(phones):
        first = phone.get_by_role("button", name=f"A.  {question.options[0]}")
        expect(first).to_be_visible(timeout=LIVE_TIMEOUT_MS)  # followed without a reload
        last = phone.get_by_role("button", name=f"{model.LETTERS[len(question.options) - 1]}.")
        box = last.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
        expect(phone.get_by_test_id("stSidebar")).to_have_count(0)  # no course menu
        answer = phone.get_by_role("button", name=f"{model.LETTERS[i % 2]}.")
        if i < 2:  # from the keyboard alone: Tab to the answer, then Enter (or Space)
            press_from_the_keyboard(phone, answer, ("Enter", " ")[i])
        else:
            answer.click()
        confirmation = phone.locator(STATUS).filter(has_text="Your answer is in")  # announced
        expect(confirmation).to_be_visible(timeout=LIVE_TIMEOUT_MS)
        assert_no_exception(phone)
    expect(page.get_by_text("3 answers")).to_be_visible(timeout=LIVE_TIMEOUT_MS)
    page.keyboard.press("v")
    right = f"{model.LETTERS[question.correct]}. {question.options[question.correct]}"
    expect(page.get_by_text(right).last).to_be_visible(timeout=LIVE_TIMEOUT_MS)
    expect(phones[0].get_by_text("The answer:")).to_be_visible(timeout=LIVE_TIMEOUT_MS)
    page.keyboard.press("ArrowRight")
    expect(page.get_by_text("Question 2 of 3")).to_be_visible(timeout=LIVE_TIMEOUT_MS)
    for phone in phones:
        expect(phone.get_by_text("Question 2 of 3")).to_be_visible(timeout=LIVE_TIMEOUT_MS)
    assert_no_exception(page)


@pytest.mark.parametrize("private", [False, True], ids=["normal", "private"])
def test_the_quiz_projector_opens_at_its_top_after_create(
    page: Page, app_server: str, private: bool
) -> None:
    """Finding: in presenter mode at 1280×720, "Create quiz" left the projector scrolled
    to 754 of 1,474 px, the join code, QR code and Start out of view. Now it opens at the
    top with all three, and the join link on one line (it wrapped mid-port), on one screen."""
    page.set_viewport_size(PROJECTOR)
    open_page(page, app_server, f"{URL_PATH}?present=true")
    pick_laplace(page)
    if private:
        with expect_rerun(page):
            page.get_by_text("Private mode: phones randomize each answer").click()
    code = create_from_the_bottom(page, "Create quiz", URL_PATH)
    expect(page.get_by_role("button", name="Start")).to_be_visible()
    page.wait_for_timeout(500)
    assert main_scroll(page) == 0
    link = page.locator("p.pp-join-link")
    parts = {
        "join code": metric(page, "Join code"),
        "QR code": page.locator('[data-testid="stImage"] img').first,
        "join link": link,
        "Start": page.get_by_role("button", name="Start"),
    }
    assert_on_one_screen(parts, PROJECTOR)
    # the link reads (and copies) exactly, and breaks only after a "/" or before the "?"
    url = link.inner_text()
    assert url.startswith("http") and url.endswith(f"/class-quiz?join={code}"), url
    lines = lines_of_text(link)
    assert "".join(lines) == url and len(lines) > 1  # (the narrow join column wraps it)
    for line, after in zip(lines, lines[1:], strict=False):
        assert line.endswith("/") or after.startswith("?"), lines
    assert_no_exception(page)


def test_the_summary_shows_its_numbers_on_the_projector(page: Page, app_server: str) -> None:
    """Finding: at 1280×720 the summary's correct, share correct and (private) 95% interval
    columns were pushed off the right edge by the prompt column. The numbers come first, the
    prompt last; every number's header is on screen."""
    import survey
    from conftest import SURVEY_DB_DIR

    quizzes = survey.QuizStore(survey.SurveyStore(f"sqlite:///{SURVEY_DB_DIR / 'survey.sqlite3'}"))
    long_prompt = "A question whose prompt is long enough to fill a projector's width " * 3
    question = survey.QuizQuestion(long_prompt.strip()[:300], ("a", "b", "c"), 1, "")
    created = quizzes.create_quiz("Summary", [question, question], epsilon=1.0)
    quizzes.show(created.quiz.id, created.admin_key, 0)
    quizzes.submit(created.quiz.id, 0, survey.new_session_token(), 1)
    quizzes.show(created.quiz.id, created.admin_key, 2)  # the summary
    page.set_viewport_size(PROJECTOR)
    open_page(
        page,
        app_server,
        f"{URL_PATH}?manage={created.quiz.code}&key={created.admin_key}&present=true",
    )
    expect(page.get_by_text("The quiz is over.")).to_be_visible()
    for header in ("answers", "correct", "share correct", "95% interval"):
        cell = page.locator("th").filter(has_text=header).first
        box = cell.bounding_box()
        assert box is not None and box["x"] + box["width"] <= PROJECTOR["width"], (header, box)
    assert_no_exception(page)
