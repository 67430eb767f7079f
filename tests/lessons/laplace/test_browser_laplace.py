"""The Laplace page in real Chromium, what is its own: the link carries each bound slider's
raw number, section 3's ε is its own, and a download holds the histogram just shown. (Its
main control, ε, with the scale and interval it sets: tests/ui/test_browser_sweeps.py and
tests/keypress_probes.py.)"""

from pathlib import Path

from playwright.sync_api import Page, expect

from browser_helpers import (
    assert_no_exception,
    link_params,
    metric_value,
    move_slider_with_keyboard,
    open_lesson,
)
from lessons.laplace import model
from ui import controls


def test_keyboard_moves_land_in_the_link_and_each_section_keeps_its_own_epsilon(
    page: Page, app_server: str
) -> None:
    """ε and the number of answers, moved with the keyboard, land in the link (the raw
    number, not its label); section 3 has its own ε (each section is a fragment), which the
    first ε does not move and which moves only its own numbers."""
    open_lesson(page, app_server, "laplace/page.py")
    move_slider_with_keyboard(page, "Privacy loss ε", "ArrowLeft", times=1)  # 1 -> 0.7
    move_slider_with_keyboard(page, "Noisy answers to simulate", "ArrowRight")  # 2,000 -> 5,000
    params = link_params(page)
    assert params.get("lap_eps") == ["0.7"], page.url
    assert params.get("lap_n") == ["5000"], page.url  # the raw number, not its label
    expect(metric_value(page, "Scale b = 1/ε")).to_have_text(f"{1 / 0.7:,.4g}")
    expect(metric_value(page, "Best guess right")).to_have_text("69.7%")  # still ε = 1
    move_slider_with_keyboard(page, "Privacy loss of this answer", "ArrowRight", times=2)
    expect(metric_value(page, "Best guess right")).to_have_text("81.6%")
    expect(metric_value(page, "Scale b = 1/ε")).to_have_text(f"{1 / 0.7:,.4g}")
    assert_no_exception(page)


def test_a_download_writes_the_current_histogram_on_click(page: Page, app_server: str) -> None:
    """Downloads are deferred (the CSV is written when clicked, not on every run): the file
    must still arrive, and hold the histogram at the ε chosen just before."""
    open_lesson(page, app_server, "laplace/page.py")
    move_slider_with_keyboard(page, "Privacy loss ε", "ArrowRight", times=2)  # 1 -> 2
    button = page.locator('[data-testid="stDownloadButton"]').first
    button.scroll_into_view_if_needed()
    with page.expect_download(timeout=20_000) as download:
        button.click()
    assert download.value.suggested_filename == "laplace-histogram.csv"
    lines = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    assert lines[0] == "start,end,count,share"
    assert sum(int(line.split(",")[2]) for line in lines[1:]) == 2_000
    # The page's defaults: people aged 40 or older, 2,000 answers, window ± 50; here ε = 2.
    truth, seed = model.people_aged_at_least(40), controls.DEFAULT_SEED + model.SEED_HISTOGRAM
    expected = model.histogram(truth, 2.0, 2_000, 50.0, seed)[0]
    assert [int(line.split(",")[2]) for line in lines[1:]] == expected["count"].tolist()
    assert_no_exception(page)
