"""The ε guessing game in real Chromium: a lecturer's projector (1280×720, presenter mode)
runs a game of 10 rounds at ε = 5 (created in the store, its private link opened); two
phones (390×844) follow the first two rounds without a reload, see the release and both
buttons above the fold and guess (one from the keyboard), the rest is played store-level; "V"
reveals and "→" moves on. At the end the region chart and the verdict share one projector
screen, the phones show their record, and axe finds no serious or critical WCAG violation."""

from __future__ import annotations

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
    lesson_url,
    metric,
    open_page,
    press_from_the_keyboard,
    serious_violations,
)
from conftest import SURVEY_DB_DIR

URL_PATH = lesson_url("class_game/page.py")
ROUNDS = 10
IN_THE_BROWSER = 2  # rounds played on the phones; the rest through the store, as fast


@pytest.mark.budget("a projector and two phones in real Chromium, two rounds played on them")
def test_a_projector_and_two_phones(
    page: Page, another_device: Callable[..., Page], app_server: str
) -> None:
    page.set_viewport_size(PROJECTOR)
    open_page(page, app_server, f"{URL_PATH}?present=true")
    assert_no_exception(page)
    assert serious_violations(page) == []  # the create view
    games = survey.GameStore(survey.SurveyStore(f"sqlite:///{SURVEY_DB_DIR / 'survey.sqlite3'}"))
    made = games.create_game("The ε guessing game", 5.0, ROUNDS)
    code = made.game.code
    open_page(page, app_server, f"{URL_PATH}?manage={code}&key={made.admin_key}&present=true")
    expect(metric(page, "Join code")).to_contain_text(code)
    # Finding: with the pointer on the QR code, its fullscreen button covered the join code's
    # last letter; it now sits beside "Scan to join", over neither the code nor the QR code
    qr = page.get_by_role("img", name="QR code of the join link")
    qr.hover()
    button = page.get_by_test_id("stElementToolbar").locator("button").first
    expect(button).to_be_visible()
    for other in (metric(page, "Join code"), qr):
        a, b = button.bounding_box(), other.bounding_box()
        apart = a["x"] >= b["x"] + b["width"] or b["x"] >= a["x"] + a["width"]
        assert apart or a["y"] >= b["y"] + b["height"] or b["y"] >= a["y"] + a["height"]
    page.mouse.move(0, 0)
    phones = []
    for _ in range(2):
        phone = another_device(viewport=PHONE)
        open_page(phone, app_server, f"{URL_PATH}?join={code}")
        expect(phone.get_by_text("Waiting for your lecturer")).to_be_visible()
        phones.append(phone)
    page.get_by_role("button", name="Start").click()
    for position in range(IN_THE_BROWSER):
        for i, phone in enumerate(phones):
            expect(phone.get_by_text(f"Round {position + 1} of {ROUNDS}")).to_be_visible(
                timeout=LIVE_TIMEOUT_MS
            )
            with_button = phone.get_by_role("button", name="With the record")
            without = phone.get_by_role("button", name="Without it")
            for button in (with_button, without):
                box = button.bounding_box()
                assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
            if position == 0 and i == 0:
                assert serious_violations(phone) == []
                press_from_the_keyboard(phone, with_button, "Enter")
            else:
                (with_button if i == 0 else without).click()
            done = phone.locator(STATUS).filter(has_text="Your guess is in")
            expect(done).to_be_visible(timeout=LIVE_TIMEOUT_MS)
        expect(page.get_by_text("2 guesses")).to_be_visible(timeout=LIVE_TIMEOUT_MS)
        page.keyboard.press("v")
        expect(page.get_by_text("the record:").first).to_be_visible(timeout=LIVE_TIMEOUT_MS)
        expect(phones[1].get_by_text("the volunteer's record.")).to_be_visible(
            timeout=LIVE_TIMEOUT_MS
        )
        page.keyboard.press("ArrowRight")
    expect(page.get_by_text(f"Round {IN_THE_BROWSER + 1} of")).to_be_visible(
        timeout=LIVE_TIMEOUT_MS
    )
    for position in range(IN_THE_BROWSER, ROUNDS):  # the rest of the class, store-level
        for _ in range(5):
            games.submit(made.game.id, position, survey.new_session_token(), True)
        games.reveal(made.game.id, made.admin_key)
        games.next_round(made.game.id, made.admin_key)
    expect(page.get_by_text("The game is over.")).to_be_visible(timeout=LIVE_TIMEOUT_MS)
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    verdict = page.get_by_text("The room guessed").first
    assert_on_one_screen({"chart": chart, "verdict": verdict}, PROJECTOR)
    assert serious_violations(page) == []
    for phone in phones:
        expect(phone.get_by_text("The game is over. You guessed")).to_be_visible(
            timeout=LIVE_TIMEOUT_MS
        )
        assert_no_exception(phone)
    assert_no_exception(page)
