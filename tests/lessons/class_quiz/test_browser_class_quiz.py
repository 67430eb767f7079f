"""The class quiz in real Chromium: a lecturer builds a quiz from a lesson and starts it;
three phones (separate browser contexts, 390×844) follow without a reload, see the question
and its buttons above the fold, answer; the projector counts 3, "V" reveals the answer and
"→" moves every phone to the next question."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from browser_helpers import assert_no_exception, expect_rerun, lesson_url, metric, open_page
from lessons.class_quiz import model

URL_PATH = lesson_url("class_quiz/page.py")
PHONE = {"width": 390, "height": 844}
LIVE_TIMEOUT_MS = 15_000  # phones and projector poll every 2 s


def test_a_lecturer_and_three_phones(page: Page, browser: Browser, app_server: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_page(page, app_server, URL_PATH)
    assert_no_exception(page)
    picker = page.get_by_role("combobox", name="Questions from these lessons")
    picker.click()
    picker.fill("Laplace")
    with expect_rerun(page):
        picker.press("Enter")
    page.keyboard.press("Escape")
    expect(page.get_by_text("3 questions in this quiz.")).to_be_visible()
    with expect_rerun(page):
        page.get_by_role("button", name="Create quiz").click()
    page.wait_for_url(f"**/{URL_PATH}?manage=*")
    code = page.url.split("manage=")[1][:6]
    expect(metric(page, "Join code")).to_contain_text(code)

    phones = []
    for _ in range(3):
        phone = browser.new_context(viewport=PHONE).new_page()
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
        phone.get_by_role("button", name=f"{model.LETTERS[i % 2]}.").click()
        expect(phone.get_by_text("Your answer is in")).to_be_visible(timeout=LIVE_TIMEOUT_MS)
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
