"""Home in real Chromium: it loads, shows no traceback and shows the dataset size."""

from playwright.sync_api import Page, expect

from browser_helpers import assert_no_exception, open_page
from ui.navigation import HOME


def test_home_loads_and_shows_the_number_of_people(page: Page, app_server: str) -> None:
    open_page(page, app_server, HOME.url_path)
    assert_no_exception(page)
    expect(page.get_by_text("32,561", exact=True).first).to_be_visible()
