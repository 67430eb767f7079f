"""The class survey in real Chromium: a lecturer creates a survey, two students answer
from their own browser contexts, the projector counts 2; a third student's tap after the
lecturer closed the survey gets the "closed" message; a reload cannot answer twice. No admin
key on student pages."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

import survey
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
    main_scroll,
    metric,
    open_page,
    press_from_the_keyboard,
    wait_for_run,
)
from conftest import SURVEY_DB_DIR

URL_PATH = lesson_url("class_survey/page.py")


def open_student(another_device: Callable[..., Page], base_url: str, code: str) -> Page:
    student = another_device(viewport=PHONE)
    open_page(student, base_url, f"{URL_PATH}?join={code}")
    assert_no_exception(student)
    expect(student.get_by_text("never asks for your true answer")).to_be_visible()
    return student


def open_lecturer(page: Page, base_url: str) -> None:
    """Open the create view."""
    open_page(page, base_url, URL_PATH)
    expect(page.get_by_text("Page not found")).to_have_count(0)


def test_two_students_answer_and_the_projector_counts_them(
    page: Page, another_device: Callable[..., Page], app_server: str
) -> None:
    open_lecturer(page, app_server)
    question = page.get_by_label("Your yes/no question")
    question.fill("Have you ever <script>alert(1)</script> skipped a lecture?")
    question.press("Control+Enter")  # commits the text (a rerun, if it was not yet sent)
    page.wait_for_timeout(500)
    wait_for_run(page)
    with expect_rerun(page):
        page.get_by_role("button", name="Create survey").click()
    page.wait_for_url(f"**/{URL_PATH}?manage=*")
    wait_for_run(page)
    assert_no_exception(page)
    code = page.url.split("manage=")[1][:6]
    expect(metric(page, "Join code")).to_contain_text(code)
    expect(metric(page, "Answers / devices joined")).to_contain_text("0 / 0")
    private_link = page.locator('[data-testid="stCode"]').filter(has_text="key=")
    admin_key = private_link.text_content().strip().split("key=")[1]
    assert len(admin_key) >= 32

    students = []
    for answer in ("Yes", "No"):
        student = open_student(another_device, app_server, code)
        button = student.get_by_role("button", name=answer, exact=True)
        with expect_rerun(student):
            if answer == "Yes":  # from the keyboard alone: Tab to it, then Space
                press_from_the_keyboard(student, button, " ")
            else:
                button.click()
        # announced: the confirmation is a status region
        expect(
            student.locator(STATUS).filter(has_text="Your reported answer is in")
        ).to_be_visible()
        expect(student.get_by_role("button", name="Yes", exact=True)).to_have_count(0)
        students.append(student)

    # A reload (a new session, as after a server restart) brings the browser's cookie: the
    # student is recognised and cannot answer again; the address never
    # carries the identity.
    first = students[0]
    assert "me=" not in first.url
    first.reload()
    wait_for_run(first)
    expect(first.get_by_text("This browser has already answered this survey")).to_be_visible()
    expect(first.get_by_role("button", name="Yes", exact=True)).to_have_count(0)

    expect(metric(page, "Answers / devices joined")).to_contain_text(
        "2 / ", timeout=LIVE_TIMEOUT_MS
    )
    expect(metric(page, "Reported yes")).to_contain_text("50%", timeout=LIVE_TIMEOUT_MS)

    # A third student opens the join page while the survey is open …
    late = open_student(another_device, app_server, code)
    # … the lecturer closes it …
    page.get_by_role("button", name="Close survey").click()
    expect(page.get_by_role("button", name="Reopen survey")).to_be_visible(timeout=LIVE_TIMEOUT_MS)
    # … and the late tap is refused with a clear message.
    with expect_rerun(late):
        late.get_by_role("button", name="Yes", exact=True).click()
    expect(late.get_by_text("This survey is closed")).to_be_visible()
    expect(metric(page, "Answers / devices joined")).to_contain_text(
        "2 / ", timeout=LIVE_TIMEOUT_MS
    )

    for student in (*students, late):
        assert_no_exception(student)
        html = student.content()
        assert admin_key not in html
        assert "manage=" not in html
        # The question's <script> is shown as text, not run as HTML.
        expect(student.get_by_text("<script>alert(1)</script>", exact=False)).to_be_visible()
    assert_no_exception(page)


@pytest.mark.budget(
    "a lecturer's survey through another lesson, a reload and a new tab, then two browsers "
    "answering: six page loads, 15-20 s"
)
def test_the_lecturer_gets_the_survey_back_and_a_browser_answers_once(
    page: Page, another_device: Callable[..., Page], app_server: str
) -> None:
    """With real cookies: the lecturer's survey survives another
    lesson, a reload and a new tab of the same browser; a student's new tab cannot answer
    again, another browser (context) can; the projector counts answers and devices."""
    open_lecturer(page, app_server)
    with expect_rerun(page):
        page.get_by_role("button", name="Create survey").click()
    page.wait_for_url(f"**/{URL_PATH}?manage=*")
    wait_for_run(page)
    code = page.url.split("manage=")[1][:6]
    expect(metric(page, "Join code")).to_contain_text(code)

    # Another lesson, then the class survey again from the menu: the survey, not the form.
    page.get_by_test_id("stSidebar").get_by_text("Home", exact=True).click()
    expect(page.get_by_role("heading", name="Class survey")).to_have_count(0, timeout=15_000)
    page.get_by_test_id("stSidebar").get_by_text("Class survey", exact=True).click()
    expect(metric(page, "Join code")).to_contain_text(code, timeout=15_000)
    expect(page.get_by_role("button", name="Close survey")).to_be_visible()
    # A reload, and a new tab at the bare address: the browser's cookie brings it back.
    page.reload()
    wait_for_run(page)
    expect(metric(page, "Join code")).to_contain_text(code, timeout=15_000)
    tab = page.context.new_page()
    open_page(tab, app_server, URL_PATH)
    expect(metric(tab, "Join code")).to_contain_text(code, timeout=15_000)
    expect(tab.get_by_role("button", name="Close survey")).to_be_visible()
    assert "key=" not in tab.url
    tab.close()

    # A student answers, then opens the join link again in a new tab of the same browser.
    student = open_student(another_device, app_server, code)
    with expect_rerun(student):
        student.get_by_role("button", name="Yes", exact=True).click()
    expect(student.get_by_text("Your reported answer is in")).to_be_visible()
    again = student.context.new_page()
    again.set_viewport_size(PHONE)
    open_page(again, app_server, f"{URL_PATH}?join={code}")
    expect(again.get_by_text("already answered")).to_be_visible()
    expect(again.get_by_role("button", name="Yes", exact=True)).to_have_count(0)
    # Another browser (a private window, another phone) may answer.
    other = open_student(another_device, app_server, code)
    with expect_rerun(other):
        other.get_by_role("button", name="No", exact=True).click()
    expect(other.get_by_text("Your reported answer is in")).to_be_visible()
    expect(metric(page, "Answers / devices joined")).to_contain_text(
        "2 / 2", timeout=LIVE_TIMEOUT_MS
    )

    # "Start a new survey" leaves it: the bare address then shows the create form.
    with expect_rerun(page):
        page.get_by_role("button", name="Start a new survey").click()
    expect(page.get_by_role("button", name="Create survey")).to_be_visible()
    fresh = page.context.new_page()
    open_page(fresh, app_server, URL_PATH)
    expect(fresh.get_by_role("button", name="Create survey")).to_be_visible()
    for shown in (page, fresh, student, again, other):
        assert_no_exception(shown)


def _create_survey(page: Page, base_url: str) -> str:
    open_lecturer(page, base_url)
    with expect_rerun(page):
        page.get_by_role("button", name="Create survey").click()
    page.wait_for_url(f"**/{URL_PATH}?manage=*")
    wait_for_run(page)
    return page.url.split("manage=")[1][:6]


ROTATE_ME = """(code) => {
    const me = crypto.randomUUID().replaceAll("-", "").slice(0, 22);
    history.pushState({}, "", `/class-survey?join=${code}&me=${me}`);
    dispatchEvent(new PopStateEvent("popstate"));
}"""


def test_rotating_the_address_in_one_tab_answers_once(
    page: Page, another_device: Callable[..., Page], app_server: str
) -> None:
    """As it was found: in one tab, pushState a new `me=` and tap Yes,
    ten times. It gave 10 extra answers while "devices joined" stayed at 3. Now: one."""
    code = _create_survey(page, app_server)
    student = open_student(another_device, app_server, code)
    with expect_rerun(student):
        student.get_by_role("button", name="Yes", exact=True).click()
    expect(student.get_by_text("Your reported answer is in")).to_be_visible()
    for _ in range(10):
        with expect_rerun(student):
            student.evaluate(ROTATE_ME, code)
        yes = student.get_by_role("button", name="Yes", exact=True)
        if yes.count():  # (there is none: the session has answered)
            with expect_rerun(student):
                yes.click()
        expect(student.get_by_text("Your reported answer is in")).to_be_visible()
        expect(yes).to_have_count(0)
        assert "me=" not in student.url
    assert_no_exception(student)
    expect(metric(page, "Answers / devices joined")).to_contain_text(
        "1 / 1", timeout=LIVE_TIMEOUT_MS
    )


def test_a_forwarded_address_lets_a_friend_answer_and_the_sender_stays_answered(
    page: Page, another_device: Callable[..., Page], app_server: str
) -> None:
    """Finding 2: the student's address, opened in a fresh browser, said "already in" and
    gave that browser the first student's cookie. Now the friend answers in their own right
    and a reload of the sender's page still says it has answered."""
    code = _create_survey(page, app_server)
    sender = open_student(another_device, app_server, code)
    with expect_rerun(sender):
        sender.get_by_role("button", name="Yes", exact=True).click()
    expect(sender.get_by_text("Your reported answer is in")).to_be_visible()
    forwarded = sender.url
    sender_cookie = {c["name"]: c["value"] for c in sender.context.cookies()}["pp_survey_me"]
    friend = another_device(viewport=PHONE)
    friend.goto(forwarded)
    wait_for_run(friend)
    with expect_rerun(friend):
        friend.get_by_role("button", name="No", exact=True).click()
    expect(friend.get_by_text("Your reported answer is in")).to_be_visible()
    friend_cookie = {c["name"]: c["value"] for c in friend.context.cookies()}["pp_survey_me"]
    assert friend_cookie != sender_cookie
    sender.reload()
    wait_for_run(sender)
    expect(sender.get_by_text("This browser has already answered this survey")).to_be_visible()
    expect(sender.get_by_role("button", name="Yes", exact=True)).to_have_count(0)
    expect(metric(page, "Answers / devices joined")).to_contain_text(
        "2 / 2", timeout=LIVE_TIMEOUT_MS
    )
    for shown in (sender, friend, page):
        assert_no_exception(shown)


def test_the_projector_fits_one_screen_right_after_create(page: Page, app_server: str):
    """After "Create survey" the page stayed scrolled to the bottom, and at
    1280×720 in presenter mode the QR code was cut and the results chart below the fold. Now
    the projector opens at its top, and the join code, the QR code, the join link, the four
    numbers and the chart all lie within one 1280×720 screen."""
    import survey
    from survey import security
    from ui import activity

    page.set_viewport_size(PROJECTOR)
    open_page(page, app_server, f"{URL_PATH}?present=true")
    code = create_from_the_bottom(page, "Create survey", URL_PATH)
    store = survey.SurveyStore(activity.database_url())
    found = store.get_by_code(code)
    for bit in (1, 0, 1, 1, 0, 1, 0, 1, 1, 0, 1, 1):
        store.submit(found.id, security.new_session_token(), bit)
    store.dispose()
    expect(metric(page, "Answers / devices joined")).to_contain_text(
        "12 /", timeout=LIVE_TIMEOUT_MS
    )
    page.wait_for_timeout(500)
    assert main_scroll(page) == 0
    parts = {
        "join code": metric(page, "Join code"),
        "QR code": page.locator('[data-testid="stImage"] img').first,
        "join link": page.locator("p.pp-join-link").filter(has_text=f"join={code}"),
        "answers": metric(page, "Answers / devices joined"),
        "reported": metric(page, "Reported yes"),
        "estimate": metric(page, "Estimated true yes"),
        "interval": metric(page, "95% interval"),
        "chart": page.locator('[data-testid="stVegaLiteChart"]').first,
    }
    assert_on_one_screen(parts, PROJECTOR)
    assert_no_exception(page)


def _within_screen(locator, height: int) -> None:
    box = locator.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box


def test_a_phone_shows_only_the_question_its_buttons_and_the_confirmation(
    page: Page, another_device: Callable[..., Page], app_server: str
):
    """At 390×844 the Yes/No buttons sat at y = 960, "your answer is in"
    mid-page, and the page showed the course menu and a "Previous:" link. A student arriving
    by QR code now sees the question, the buttons and then the confirmation above the fold,
    and nothing of the course around them."""
    lecturer = page
    lecturer.set_viewport_size(PROJECTOR)
    code = _create_survey(lecturer, app_server)
    student = another_device(viewport=PHONE, is_mobile=True, has_touch=True)
    open_page(student, app_server, f"{URL_PATH}?join={code}")
    assert_no_exception(student)
    expect(student.get_by_test_id("stSidebar")).to_have_count(0)
    expect(student.get_by_test_id("stSidebarCollapsedControl")).to_have_count(0)
    expect(student.get_by_text("Previous:")).to_have_count(0)
    expect(student.get_by_text("Why anonymisation fails")).to_have_count(0)
    yes = student.get_by_role("button", name="Yes", exact=True)
    no = student.get_by_role("button", name="No", exact=True)
    for part in (student.get_by_role("heading", level=2).first, yes, no):
        _within_screen(part, PHONE["height"])
    with expect_rerun(student):
        no.tap()
    confirmation = student.get_by_text("Your reported answer is in")
    expect(confirmation).to_be_visible()
    assert student.evaluate("document.querySelector('[data-testid=stMain]').scrollTop") == 0
    _within_screen(confirmation, PHONE["height"])
    student.reload()
    wait_for_run(student)
    again = student.get_by_text("This browser has already answered this survey")
    expect(again).to_be_visible()
    _within_screen(again, PHONE["height"])


def test_a_late_reset_in_a_second_projector_tab_keeps_the_new_answers(
    page: Page, another_device: Callable[..., Page], app_server: str
) -> None:
    """Two projector tabs in real Chromium. Tab A resets; the room answers again; tab B,
    whose own redraws are held (its clock paused) so that it still shows the survey from
    before A's reset, presses Reset: the three new answers stay, and B says that its press
    changed nothing, where the press reran and in view (it was said at the fragment's top,
    scrolled away above the buttons)."""
    store = survey.SurveyStore(f"sqlite:///{SURVEY_DB_DIR / 'survey.sqlite3'}")
    try:
        made = store.create_survey("Did you?", survey.two_coins())
        sid = made.survey.id
        for _ in range(2):
            store.submit(sid, survey.new_session_token(), 1)
        url = f"{URL_PATH}?manage={made.survey.code}&key={made.admin_key}"
        second = another_device(viewport={"width": 1280, "height": 800})
        second.clock.install()
        open_page(page, app_server, url)
        open_page(second, app_server, url)
        expect(metric(second, "Answers / devices joined")).to_contain_text("2 / ")
        second.clock.pause_at(time.time() + 3600)  # no redraw of its own from here

        def reset(tab: Page) -> None:
            tab.get_by_role("button", name="Reset…").click()
            tab.get_by_role("button", name="Yes, delete all answers").click()

        reset(page)
        expect(metric(page, "Answers / devices joined")).to_contain_text(
            "0 / ", timeout=LIVE_TIMEOUT_MS
        )
        for _ in range(3):
            store.submit(sid, survey.new_session_token(), 0)
        reset(second)
        second.clock.resume()
        said = second.get_by_text("so this press changed nothing")
        expect(said).to_be_visible(timeout=LIVE_TIMEOUT_MS)
        expect(said).to_be_in_viewport()  # beside the buttons pressed, not scrolled away
        expect(metric(second, "Answers / devices joined")).to_contain_text("3 / ")
        assert store.counts(sid).responses == 3
        assert_no_exception(second)
    finally:
        store.dispose()
