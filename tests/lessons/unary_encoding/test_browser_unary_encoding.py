"""Unary encoding in real Chromium: it loads, the p slider moves with the keyboard, ε
follows, and no traceback appears."""

import re

from playwright.sync_api import Page, expect

import dp
from browser_helpers import assert_no_exception, metric, move_slider_with_keyboard, open_lesson
from ui import text


def test_p_slider_moves_and_epsilon_follows(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "unary_encoding/page.py")
    assert_no_exception(page)
    epsilon = metric(page, "Privacy loss ε")
    expect(epsilon).to_contain_text(f"{text.number(dp.ue_epsilon(0.75, 0.25))}")  # ln 9 = 2.197
    move_slider_with_keyboard(page, "p: report a 1-bit", "ArrowRight")  # 0.75 -> 0.76
    expect(epsilon).to_contain_text(f"{text.number(dp.ue_epsilon(0.76, 0.25))}")
    expect(page.get_by_text("(p = 0.76, q = 0.25)").first).to_be_attached()
    assert_no_exception(page)


def test_the_url_carries_p_after_a_keyboard_move(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "unary_encoding/page.py")
    move_slider_with_keyboard(page, "p: report a 1-bit", "ArrowRight")
    expect(page).to_have_url(re.compile(r"[?&]ue_p=0\.76(&|$)"))
    assert_no_exception(page)
