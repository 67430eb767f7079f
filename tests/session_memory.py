"""What the server holds after browser sessions that uploaded a file have closed.

Shared by the browser test (tests/ui/test_browser_session_memory.py, which asserts) and
`make bench` (bench/bench_sessions.py, which prints). One session after another opens the
app in a fresh Chromium context, uploads a file (the caller's bytes, e.g.
bench_upload.census_like) through the real st.file_uploader, waits for the app to use it,
and closes. Resident memory (VmRSS) of the server process is read from /proc after each
step.

Streamlit keeps a closed tab's session for `server.disconnectedSessionTTL` seconds (120 by
default) so that a reconnecting tab finds it again; expired sessions are dropped the next
time its session storage is written, i.e. when another session connects or disconnects.
So "after" is read once that TTL has passed and one more (upload-free) session came and went.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from playwright.sync_api import Browser

UPLOAD_NAME = "sessions.csv"
APP_READY_MS = 60_000


def rss_mb(pid: int) -> float:
    """Resident memory of process `pid`, in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def _visit(browser: Browser, base_url: str, upload: Path | None) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(base_url)
    uploader = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
    uploader.wait_for(state="attached", timeout=APP_READY_MS)
    if upload is not None:
        uploader.set_input_files(upload)  # a path: Chromium reads the file itself
        page.get_by_text(f"Your file: {UPLOAD_NAME}").wait_for(timeout=APP_READY_MS)
    page.wait_for_timeout(1_000)  # let the run finish sending
    context.close()


def upload_sessions(
    browser: Browser,
    base_url: str,
    pid: int,
    *,
    upload: bytes,
    sessions: int = 4,
    settle_s: float = 5.0,
    session_ttl_s: float = 120.0,
    between_s: float | None = None,
) -> list[tuple[str, float]]:
    """[(step, server RSS in MB)]: the baseline after one upload-free visit, then after each
    upload session has closed, and at the end once Streamlit has dropped the closed sessions.
    The baseline and the end wait `settle_s`; the readings between sessions (shown, not
    compared) wait `between_s`, by default as long."""
    _visit(browser, base_url, None)
    time.sleep(settle_s)
    steps = [("baseline", rss_mb(pid))]
    with tempfile.TemporaryDirectory() as folder:
        # Handed to Chromium as a file, not as bytes through Playwright's driver (which
        # encodes them, ~4 s of CPU per 7.6 MB); the server receives the same upload.
        path = Path(folder) / UPLOAD_NAME
        path.write_bytes(upload)
        for number in range(1, sessions + 1):
            _visit(browser, base_url, path)
            time.sleep(settle_s if between_s is None else between_s)
            steps.append((f"session {number} closed", rss_mb(pid)))
    time.sleep(session_ttl_s + 1)
    _visit(browser, base_url, None)  # a write to Streamlit's session storage drops the expired
    time.sleep(settle_s)
    steps.append(("sessions expired", rss_mb(pid)))
    return steps
