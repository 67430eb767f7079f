"""The tab handed from test to test (conftest's `page` and `as_a_new_visitor`): it reaches
the next test on about:blank with nothing its pages stored, even when a page writes while it
is being left (ui/progress.py's script writes its record for seconds after a lesson opens),
and it is handed on when the server its last page came from has already stopped."""

from __future__ import annotations

import http.server
import threading

import pytest
from playwright.sync_api import Page

from conftest import as_a_new_visitor

pytestmark = pytest.mark.browser

STORED = "() => [localStorage.length, sessionStorage.length]"


def test_what_a_page_writes_while_it_is_left_is_not_handed_on(page: Page, app_server: str) -> None:
    page.goto(f"{app_server}/_stcore/health")
    page.evaluate(
        """() => {
          localStorage.setItem("pp-left", "before");
          sessionStorage.setItem("pp-left", "before");
          addEventListener("pagehide", () => {
            localStorage.setItem("pp-left", "while leaving");
            sessionStorage.setItem("pp-left", "while leaving");
          });
        }"""
    )
    as_a_new_visitor(page)
    assert page.url == "about:blank"
    page.goto(f"{app_server}/_stcore/health")
    assert page.evaluate(STORED) == [0, 0]


def test_a_tab_whose_server_has_stopped_is_handed_on(page: Page) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    page.goto(f"http://127.0.0.1:{server.server_port}/")
    server.shutdown()
    server.server_close()
    as_a_new_visitor(page)
    assert page.url == "about:blank"
