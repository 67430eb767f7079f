"""The progress check-in in real Chromium: a projector (1280×720, presenter mode) with a
check-in about three lessons at ε = 4; a phone (390×844) whose browser's own progress record
says it worked through one of them shows that list, sends its randomized report from the
keyboard and shows what it randomized; a student's laptop (1280×800) does the same; the
projector counts both reports without a reload and, with 28 more from the store, draws the
estimates with their intervals beside the join block. axe finds no serious or critical WCAG
violation on any of the four views, and the phone's page never holds the admin key."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import numpy as np
import pytest
from playwright.sync_api import Page, expect

import dp
import survey
from browser_helpers import (
    LIVE_TIMEOUT_MS,
    PHONE,
    PROJECTOR,
    assert_no_exception,
    lesson_url,
    metric,
    open_page,
    press_from_the_keyboard,
    serious_violations,
)
from conftest import SURVEY_DB_DIR
from lessons.catalogue import by_folder
from lessons.class_checkin import model
from ui import progress

URL_PATH = lesson_url("class_checkin/page.py")
LESSONS = ["anonymisation", "laplace", "binary_rr"]
# what the phone lists: only the first is worked through (the second's questions are unchecked)
SHOWN = [("✓ " if i == 0 else "– ") + by_folder(f).title for i, f in enumerate(LESSONS)]
LAPTOP = {"width": 1280, "height": 800}
# This browser's own record (ui/progress.py): the first lesson worked through (its main
# control moved, no question seen), the second only opened.
RECORD = {
    "version": 1,
    "lessons": {
        "anonymisation": {"opened": True, "moved": True, "homework": False, "asked": 0},
        "laplace": {"opened": True, "moved": False, "homework": False, "asked": 2},
    },
}


def _with_record(tab: Page, app_server: str, url: str) -> None:
    open_page(tab, app_server, url)
    tab.evaluate(
        "([key, record]) => localStorage.setItem(key, record)",
        [progress.STORAGE_KEY, json.dumps(RECORD)],
    )
    open_page(tab, app_server, url)  # the page drawn again, reading the record


def _send(tab: Page) -> None:
    send = tab.get_by_role("button", name="Send my progress, randomized")
    expect(tab.get_by_text("worked through 1 of 3 lessons")).to_be_visible()
    items = tab.locator(".pp-checkin li")
    expect(items).to_have_count(3)
    assert [t.strip() for t in items.all_inner_texts()] == SHOWN
    box = send.bounding_box()
    assert box is not None and box["y"] + box["height"] <= tab.viewport_size["height"], box
    assert serious_violations(tab) == []
    press_from_the_keyboard(tab, send, "Enter")
    expect(tab.get_by_text("Your report is in.")).to_be_visible(timeout=LIVE_TIMEOUT_MS)
    expect(tab.get_by_text("Only this phone knows")).to_be_visible()
    receipt = [t.strip() for t in tab.locator(".pp-checkin li").all_inner_texts()]
    assert [r.split(" (sent")[0] for r in receipt] == SHOWN
    assert all(r.endswith(("(sent 0)", "(sent 1)")) for r in receipt), receipt
    assert serious_violations(tab) == []


@pytest.mark.budget("a projector, a phone and a laptop in real Chromium, axe on four views")
def test_a_projector_a_phone_and_a_laptop(
    page: Page, another_device: Callable[..., Page], app_server: str
) -> None:
    page.set_viewport_size(PROJECTOR)
    open_page(page, app_server, f"{URL_PATH}?present=true")
    expect(page.get_by_text("Each lesson's count will be known to")).to_be_visible()
    assert serious_violations(page) == []  # the create view
    checkins = survey.CheckinStore(
        survey.SurveyStore(f"sqlite:///{SURVEY_DB_DIR / 'survey.sqlite3'}")
    )
    made = checkins.create(LESSONS, 4.0)
    code = made.checkin.code
    open_page(page, app_server, f"{URL_PATH}?manage={code}&key={made.admin_key}&present=true")
    expect(metric(page, "Join code")).to_contain_text(code)
    expect(metric(page, "Reports")).to_contain_text("0")

    phone = another_device(viewport=PHONE)
    _with_record(phone, app_server, f"{URL_PATH}?join={code}")
    _send(phone)
    assert made.admin_key not in phone.content() and "manage=" not in phone.content()
    laptop = another_device(viewport=LAPTOP)
    _with_record(laptop, app_server, f"{URL_PATH}?join={code}")
    _send(laptop)
    expect(metric(page, "Reports")).to_contain_text("2", timeout=LIVE_TIMEOUT_MS)

    bits = model.bit_probabilities(4.0, 3)
    rng = np.random.default_rng(1)
    for row in dp.ue_perturb(rng.random((28, 3)) < 0.5, bits.p, bits.q, rng=rng):
        report = "".join("1" if b else "0" for b in row)
        checkins.submit(made.checkin.id, survey.new_session_token(), report)
    expect(metric(page, "Reports")).to_contain_text("30", timeout=LIVE_TIMEOUT_MS)
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PROJECTOR["height"], box
    assert serious_violations(page) == []  # the projector with its estimates
    assert_no_exception(page)
    assert_no_exception(phone)
    assert_no_exception(laptop)


def test_a_stale_tabs_close_is_told_where_its_press_reruns(
    page: Page, another_device: Callable[..., Page], app_server: str
) -> None:
    """Finding: a second projector tab's Close, made stale by the first tab's, reruns only
    the fragment that holds the button, and its "this press changed nothing" was written
    above that fragment, by the whole page's run: a browser never showed it (AppTest, which
    runs the whole page, did). The second tab's own redraws are held (its clock paused) so
    that its press is made from "open"."""
    store = survey.SurveyStore(f"sqlite:///{SURVEY_DB_DIR / 'survey.sqlite3'}")
    try:
        made = survey.CheckinStore(store).create(LESSONS, 4.0)
    finally:
        store.dispose()
    url = f"{URL_PATH}?manage={made.checkin.code}&key={made.admin_key}"
    second = another_device(viewport=LAPTOP)
    second.clock.install()
    open_page(page, app_server, url)
    open_page(second, app_server, url)

    def close(tab: Page):
        return tab.get_by_role("button", name="Close the check-in")

    expect(close(second)).to_be_visible()
    second.clock.pause_at(time.time() + 3600)  # no redraw of its own from here
    close(page).click()
    expect(page.get_by_text("Closed: no more reports")).to_be_visible(timeout=LIVE_TIMEOUT_MS)
    close(second).click()
    second.clock.resume()
    expect(second.get_by_text("so this press changed nothing")).to_be_visible(
        timeout=LIVE_TIMEOUT_MS
    )
    expect(second.get_by_text("Closed: no more reports")).to_be_visible()
    assert_no_exception(second)
