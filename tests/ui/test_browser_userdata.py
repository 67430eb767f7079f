"""Your own data in Chromium: upload through the real st.file_uploader, go back to the
census, and see a binary file refused with a clear message (no exception box).

The picker is served on its own small page (tests/apps/userdata_demo.py) until the lessons
wire it in.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from conftest import serve_app
from tests.browser_helpers import assert_no_exception, expect_rerun, open_page

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "tests" / "apps" / "userdata_demo.py"
CENSUS = "Bundled census (32,561 people)"
SCRIPT = "<script>alert(1)</script>"
IMAGE = "![x](http://example.com/a.png)"
WAIT_MS = 20_000  # the machine may be busy with other test runs


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`streamlit run tests/apps/userdata_demo.py` on a free loopback port."""
    with serve_app(tmp_path_factory.mktemp("userdata"), script=DEMO) as base_url:
        yield base_url


def shown(locator: Locator) -> str:
    """The text a reader sees (escape_markdown's invisible word joiners removed)."""
    return locator.inner_text().replace("\u2060", "")


def sidebar(page: Page):
    return page.locator('[data-testid="stSidebar"]')


def upload(page: Page, name: str, content: bytes) -> None:
    file_input = sidebar(page).locator('[data-testid="stFileUploaderDropzoneInput"]')
    with expect_rerun(page):
        file_input.set_input_files({"name": name, "mimeType": "text/csv", "buffer": content})


def test_upload_a_csv_then_go_back_to_the_census(page: Page, demo_server: str):
    open_page(page, demo_server)
    expect(sidebar(page).get_by_text(CENSUS)).to_be_visible(timeout=WAIT_MS)
    upload(page, "jobs.csv", b"Job,Town\nSales,Leeds\nClerk,York\nSales,\n")
    expect(sidebar(page).get_by_text("Your file: jobs.csv (3 rows)")).to_be_visible(timeout=WAIT_MS)
    expect(page.get_by_text("Dataset: Your file:")).to_be_visible(timeout=WAIT_MS)
    assert_no_exception(page)
    with expect_rerun(page):
        page.get_by_role("button", name="Back to the census").click()
    expect(sidebar(page).get_by_text(CENSUS)).to_be_visible(timeout=WAIT_MS)
    expect(page.get_by_role("button", name="Back to the census")).to_have_count(0)
    expect(sidebar(page).get_by_text("jobs.csv")).to_have_count(0)  # the uploader is empty
    assert_no_exception(page)


def test_binary_file_is_refused_with_a_clear_message(page: Page, demo_server: str):
    open_page(page, demo_server)
    upload(page, "photo.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    alert = sidebar(page).locator('[data-testid="stAlert"]')
    expect(alert).to_have_count(1, timeout=WAIT_MS)
    assert "photo.csv holds binary bytes, not text: it is not a CSV file" in shown(alert)
    assert "Using the bundled census instead" in shown(alert)
    expect(sidebar(page).get_by_text(CENSUS)).to_be_visible(timeout=WAIT_MS)
    assert_no_exception(page)


def test_html_and_markdown_in_a_file_show_literally(page: Page, demo_server: str):
    open_page(page, demo_server)
    raw = f"{SCRIPT},{IMAGE},n\nSales,b,1\nClerk,,2\n".encode()
    upload(page, "www.example.com $x$ **b**.csv", raw)
    main = page.locator('[data-testid="stMain"]')
    caption = main.get_by_text("Dataset: Your file")
    expect(caption).to_have_count(1, timeout=WAIT_MS)
    assert shown(caption) == "Dataset: Your file: www.example.com $x$ **b**.csv (2 rows)"
    missing = sidebar(page).locator('[data-testid="stCaptionContainer"]')
    assert shown(missing).endswith(f"{IMAGE}: 1")
    # No link, image, formula or bold text came out of the file's names.
    for area in (main, sidebar(page)):
        expect(area.locator('[data-testid="stMarkdownContainer"] p a')).to_have_count(0)
        expect(area.locator('[data-testid="stMarkdownContainer"] p img')).to_have_count(0)
        expect(area.locator(".katex")).to_have_count(0)
    expect(main.locator('[data-testid="stCaptionContainer"] strong')).to_have_count(0)
    expect(page.get_by_role("combobox", name="Column to count")).to_have_value(SCRIPT)
    assert_no_exception(page)


def test_file_over_the_limit_is_refused_by_the_uploader(
    page: Page, demo_server: str, tmp_path: Path
) -> None:
    open_page(page, demo_server)
    file_input = sidebar(page).locator('[data-testid="stFileUploaderDropzoneInput"]')
    too_big = tmp_path / "big.csv"  # a file Chromium reads, not 26 MB through Playwright's driver
    too_big.write_bytes(b"Job\n" + b"Sales\n" * (26 * 1024 * 1024 // 6))
    file_input.set_input_files(too_big)
    expect(sidebar(page)).to_contain_text(re.compile(r"must be 25(\.0)? ?MB or smaller"))
    expect(sidebar(page).get_by_text(CENSUS)).to_be_visible(timeout=WAIT_MS)
    expect(sidebar(page).get_by_text("Your file")).to_have_count(0)
    assert_no_exception(page)
