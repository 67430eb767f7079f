"""'Privatized data for machine learning' in real Chromium: the three models' accuracies
appear, one ε step to the right gives each column the new ε and writes it into the link,
and no traceback appears."""

import re

from playwright.sync_api import Page, expect

from browser_helpers import assert_no_exception, metric, move_slider_with_keyboard, open_lesson
from lessons.private_ml import model as lesson
from ui import text
from ui.controls import EPSILON_GRID

WAIT_MS = 30_000  # the first run trains 26 models


def test_epsilon_step_retrains_and_writes_the_link(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "private_ml/page.py")
    reference = lesson.reference_models((), 2026)
    expect(metric(page, "(a) true table")).to_contain_text(
        text.percent(reference["true"]["accuracy"]), timeout=WAIT_MS
    )
    expect(metric(page, "ε′ per privatized column")).to_contain_text("1")
    assert_no_exception(page)

    move_slider_with_keyboard(page, "Privacy loss ε", "ArrowRight")

    after = EPSILON_GRID[EPSILON_GRID.index(1.0) + 1]
    here = lesson.privatized_model((), lesson.GRR, after, 2026, 2026 + lesson.SEED_PRIVATIZE)
    expect(metric(page, "ε′ per privatized column")).to_contain_text(
        text.number(after), timeout=WAIT_MS
    )
    expect(metric(page, "(b) privatized table")).to_contain_text(
        text.percent(here["accuracy"]), timeout=WAIT_MS
    )
    expect(page.get_by_text("Accuracy gap, women − men")).to_be_visible()
    assert_no_exception(page)
    expect(page).to_have_url(re.compile(rf"[?&]pml_eps={after:g}(&|$)"), timeout=WAIT_MS)
