"""The class heist in real Chromium: a lecturer (projector, 1280×720, presenter mode) sets up
a heist; two phones (390×844) send made-up answers from the keyboard and the touch screen,
eight more answers are in the store; the projector picks the volunteer, the exact pair
reveals its secret and the volunteer's phone says "They found you"; ten noisy pairs draw
the attacker's interval, which the target's phone sees beside its secret. Everything the
lecturer needs is on one projector screen, the phones' form above the fold, and axe finds no
serious or critical WCAG violation on either."""

from __future__ import annotations

import re
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
    metric,
    open_page,
    serious_violations,
)
from conftest import SURVEY_DB_DIR

URL_PATH = lesson_url("class_heist/page.py")


def choose(phone: Page, label: str, option: str) -> None:
    box = phone.get_by_role("combobox", name=label)
    box.click()
    phone.get_by_role("option", name=option, exact=True).click()


@pytest.mark.budget("a projector and two phones in real Chromium, a heist played through")
def test_a_projector_and_two_phones(
    page: Page, another_device: Callable[..., Page], app_server: str
) -> None:
    page.set_viewport_size(PROJECTOR)
    open_page(page, app_server, f"{URL_PATH}?present=true")
    assert_no_exception(page)
    assert serious_violations(page) == []
    code = create_from_the_bottom(page, "Create heist", URL_PATH)
    expect(metric(page, "Join code")).to_contain_text(code)

    phones = []
    for i, (secret, row) in enumerate((("7", "20"), ("3", "19"))):
        phone = another_device(viewport=PHONE)
        open_page(phone, app_server, f"{URL_PATH}?join={code}")
        expect(phone.get_by_text("Make everything up.")).to_be_visible()
        send = phone.get_by_role("button", name="Send my made-up answer")
        box = send.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
        if i == 0:
            assert serious_violations(phone) == []
        choose(phone, "Your secret: a made-up number from 1 to 10", secret)
        choose(phone, "Seat row", row)
        choose(phone, "Birthday month (made up)", "12")
        if i == 0:
            phone.get_by_text("I volunteer to be the target").click()
        with expect_rerun(phone):
            send.click()
        done = phone.locator(STATUS).filter(has_text="Your made-up answer is in")
        expect(done).to_be_visible(timeout=LIVE_TIMEOUT_MS)
        assert_no_exception(phone)
        phones.append(phone)
    heists = survey.HeistStore(survey.SurveyStore(f"sqlite:///{SURVEY_DB_DIR / 'survey.sqlite3'}"))
    heist = heists.find(code)
    for secret in range(1, 9):  # eight more students, in rows 1 to 8
        heists.submit(heist.id, survey.new_session_token(), secret, secret, 1 + secret % 12)
    expect(metric(page, "Made-up answers")).to_contain_text("10", timeout=LIVE_TIMEOUT_MS)

    with expect_rerun(page):
        page.get_by_role("button", name="Close answers and pick the target").click()
    known = page.get_by_text("The target: Seat row 20 and Birthday month (made up) 12")
    expect(known).to_be_visible(timeout=LIVE_TIMEOUT_MS)
    exact = page.get_by_role("button", name="Ask both, exactly")
    once = page.get_by_role("button", name="× 10", exact=True)
    assert_on_one_screen({"exact": exact, "× 10": once}, PROJECTOR)
    with expect_rerun(page):
        exact.click()
    expect(metric(page, "Their difference")).to_contain_text("7")
    target, bystander = phones
    expect(target.get_by_text("They found you.")).to_be_visible(timeout=LIVE_TIMEOUT_MS)
    expect(bystander.get_by_text("it is not you")).to_be_visible(timeout=LIVE_TIMEOUT_MS)

    # the budget of 2 at ε = 0.5 a query allows two pairs: × 10 is refused, once is not
    with expect_rerun(page):
        once.click()
    expect(page.get_by_text("Not done").or_(page.get_by_text("refused")).first).to_be_visible()
    with expect_rerun(page):
        page.get_by_role("button", name="Ask once").click()
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    assert_on_one_screen({"chart": chart, "exact": exact}, PROJECTOR)
    # what the attacker can say: an interval, or (about 4% of first pairs) one that missed
    claim = re.compile(r"the attacker can say|the attacker's 95% interval", re.IGNORECASE)
    expect(page.get_by_text(claim)).to_be_visible()
    interval = target.get_by_text(re.compile(r"^With noise, after 1 pair, the attacker"))
    expect(interval).to_be_visible(timeout=LIVE_TIMEOUT_MS)
    expect(interval).to_contain_text("Your secret is 7")  # only the target's phone says it
    expect(bystander.get_by_text(claim)).to_have_count(0)
    assert serious_violations(page) == [] and serious_violations(target) == []
    assert_no_exception(page)
    assert_no_exception(target)
