"""In real Chromium: a lesson's "Download this lesson as a notebook" gives a notebook file
(built when pressed) with the lesson's title and the code its page shows."""

import json
from pathlib import Path

from playwright.sync_api import Page

from browser_helpers import assert_no_exception, open_lesson


def test_the_button_downloads_the_lessons_notebook(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "laplace/page.py")
    button = page.get_by_role("button", name="Download this lesson as a notebook")
    button.scroll_into_view_if_needed()
    with page.expect_download(timeout=30_000) as download:
        button.click()
    got = download.value
    assert got.suggested_filename == "the-laplace-mechanism.ipynb"
    notebook = json.loads(Path(got.path()).read_text(encoding="utf-8"))
    assert notebook["nbformat"] == 4
    sources = ["".join(cell["source"]) for cell in notebook["cells"]]
    assert sources[0].startswith("# The Laplace mechanism")
    assert any("dp.laplace_mechanism(truth, 1, epsilon" in source for source in sources)
    assert_no_exception(page)
