"""'Reconstruction attacks' in real Chromium: the default block is reconstructed, one ε step
to the right redraws the defence with the dp/ noise scale and writes ε into the link, and no
traceback appears."""

import re

from playwright.sync_api import Page, expect

from browser_helpers import assert_no_exception, metric, move_slider_with_keyboard, open_lesson
from ui import text
from ui.controls import EPSILON_GRID

WAIT_MS = 20_000  # a busy machine can make the first (uncached) run take seconds


def test_epsilon_step_redraws_the_defence(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "reconstruction/page.py")
    assert_no_exception(page)
    expect(metric(page, "Datasets that fit the tables")).to_contain_text("1", timeout=WAIT_MS)
    expect(metric(page, "People pinned down exactly")).to_contain_text("10 of 10")
    expect(metric(page, "Noise scale per cell, 6/ε")).to_contain_text("6", timeout=WAIT_MS)

    move_slider_with_keyboard(page, "Privacy loss ε", "ArrowRight")

    after = EPSILON_GRID[EPSILON_GRID.index(1.0) + 1]
    expect(metric(page, "Noise scale per cell, 6/ε")).to_contain_text(
        text.number(6 / after), timeout=WAIT_MS
    )
    expect(page.get_by_text("Reconstruction against ε")).to_be_visible()
    assert_no_exception(page)
    expect(page).to_have_url(re.compile(rf"[?&]recon_eps={after:g}(&|$)"), timeout=WAIT_MS)
