"""DP-SGD lesson in real Chromium, what is its own: an uploaded file trains on demand with a
progress bar. (Its main control, σ, moved with the keyboard: tests/ui/test_browser_sweeps.py
and tests/keypress_probes.py.)"""

import re

from playwright.sync_api import Page, WebSocket, expect

from browser_helpers import (
    assert_no_exception,
    delta_of,
    expect_rerun,
    open_lesson,
)
from lessons.dpsgd import model


def test_an_upload_trains_on_demand_with_a_progress_bar(page: Page, app_server: str) -> None:
    """Upload a file whose first question is learnable, press the button: a progress bar
    with the training's count is sent while it runs, then the chart and its words, and the
    bar is gone. (The bar's texts are read from the frames the server sends: on a busy
    machine the browser may draw only the last of a quick training's frames, and never show
    the bar it removes.)"""
    rows = "".join(
        f"{'yes' if i % 3 == 0 else 'no'},{'Manager' if i % 3 == 0 else 'Clerk'},{20 + i % 50}\n"
        for i in range(600)
    )
    bars: list[str] = []

    def record_bars(websocket: WebSocket) -> None:
        websocket.on("framereceived", lambda frame: bars.extend(progress_texts(frame)))

    page.on("websocket", record_bars)
    open_lesson(page, app_server, "dpsgd/page.py")
    uploader = page.locator('[data-testid="stSidebar"] [data-testid="stFileUploaderDropzoneInput"]')
    with expect_rerun(page):
        uploader.set_input_files(
            {"name": "jobs.csv", "mimeType": "text/csv", "buffer": f"Rich,Job,Age\n{rows}".encode()}
        )
    button = page.get_by_role("button", name=f"Train {model.UPLOAD_TRAININGS} models on your file")
    button.scroll_into_view_if_needed()
    with expect_rerun(page, timeout_ms=120_000):
        button.click()
    # (Streamlit's server sends only the last of the updates it has not flushed yet)
    assert any(f"of {model.UPLOAD_TRAININGS})" in text for text in bars), bars
    expect(page.get_by_text(re.compile(r"^Trained on \d+ rows, tested on"))).to_be_visible()
    expect(button).to_have_count(0)
    expect(page.locator('[data-testid="stProgress"]')).to_have_count(0)
    assert_no_exception(page)


def progress_texts(frame: bytes | str) -> list[str]:
    """The text of every progress bar one websocket frame from the server draws."""
    delta = delta_of(frame)
    if delta is None or delta.WhichOneof("type") != "new_element":
        return []
    element = delta.new_element
    return [element.progress.text] if element.WhichOneof("type") == "progress" else []
