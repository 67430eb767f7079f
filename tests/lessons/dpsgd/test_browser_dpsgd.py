"""DP-SGD lesson in real Chromium, what is its own: an uploaded file trains on demand with a
progress bar. (Its main control, σ, moved with the keyboard: tests/ui/test_browser_sweeps.py
and tests/keypress_probes.py.)"""

import re

from playwright.sync_api import Page, expect

from browser_helpers import (
    assert_no_exception,
    expect_rerun,
    open_lesson,
)
from lessons.dpsgd import model


def test_an_upload_trains_on_demand_with_a_progress_bar(page: Page, app_server: str) -> None:
    """Upload a file whose first question is learnable, press the button: a progress bar
    with the training's count appears while it runs, then the chart and its words."""
    rows = "".join(
        f"{'yes' if i % 3 == 0 else 'no'},{'Manager' if i % 3 == 0 else 'Clerk'},{20 + i % 50}\n"
        for i in range(600)
    )
    open_lesson(page, app_server, "dpsgd/page.py")
    uploader = page.locator('[data-testid="stSidebar"] [data-testid="stFileUploaderDropzoneInput"]')
    with expect_rerun(page):
        uploader.set_input_files(
            {"name": "jobs.csv", "mimeType": "text/csv", "buffer": f"Rich,Job,Age\n{rows}".encode()}
        )
    button = page.get_by_role("button", name=f"Train {model.UPLOAD_TRAININGS} models on your file")
    button.scroll_into_view_if_needed()
    page.evaluate(SEE_PROGRESS)
    with expect_rerun(page, timeout_ms=120_000):
        button.click()
    seen = page.evaluate("window.__ppProgressSeen || []")
    assert any(f"of {model.UPLOAD_TRAININGS})" in label for label in seen), seen
    expect(page.get_by_text(re.compile(r"^Trained on \d+ rows, tested on"))).to_be_visible()
    expect(button).to_have_count(0)
    assert_no_exception(page)


# Records every text that a progress bar shows (the bar is gone when the run ends).
SEE_PROGRESS = """() => {
  window.__ppProgressSeen = [];
  new MutationObserver(() => {
    const bar = document.querySelector('[data-testid="stProgress"]');
    if (bar) window.__ppProgressSeen.push(bar.innerText);
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
}"""
