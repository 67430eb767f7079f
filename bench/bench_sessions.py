"""Server memory after sessions that uploaded a file have closed.

A live `streamlit run` with the app's own settings (so closed sessions are kept for the
default `server.disconnectedSessionTTL` of 120 s), Debian Chromium through Playwright. Four
sessions in turn upload a census-like CSV and close; the server's resident memory is read
after each, and once more after the 120 s once Streamlit has dropped them. Prints a
Markdown table per file size; asserts nothing (the browser test
tests/ui/test_browser_session_memory.py does, with a 5 s TTL). Takes ~5 minutes.

Target: back within 50 MB of the baseline once the sessions are dropped. What stays is
Streamlit's own copy of each upload's bytes (see README, "Uploads and memory").
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.bench_upload import census_like  # noqa: E402
from conftest import CHROMIUM, CHROMIUM_ARGS, serve_app_process  # noqa: E402
from session_memory import upload_sessions  # noqa: E402

MB = 1024 * 1024
SIZES_MB = (7.6, 20)


def main() -> None:
    if not CHROMIUM.exists():
        sys.exit(f"{CHROMIUM} is missing: sudo apt-get install chromium")
    print("# Server memory after upload sessions close (Chromium)\n")
    print(
        "Four sessions in turn upload a census-like CSV, then close. RSS of the server; "
        "target: within 50 MB of the baseline once Streamlit drops the closed sessions "
        "(after its 120 s reconnect window).\n"
    )
    print("| file | baseline MB | after each close (MB) | after 120 s | held |")
    print("|---:|---:|---|---:|---:|")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        for size in SIZES_MB:
            print(f"{size} MB uploads ...", file=sys.stderr, flush=True)
            with (
                tempfile.TemporaryDirectory() as log_dir,
                serve_app_process(Path(log_dir)) as (base_url, server),
            ):
                steps = upload_sessions(
                    browser, base_url, server.pid, upload=census_like(int(size * MB))
                )
            rss = dict(steps)
            closes = ", ".join(f"{mb:,.0f}" for step, mb in steps if "closed" in step)
            held = rss["sessions expired"] - rss["baseline"]
            print(
                f"| {size} MB | {rss['baseline']:,.0f} | {closes} | "
                f"{rss['sessions expired']:,.0f} | +{held:,.0f} MB |"
            )
        browser.close()


if __name__ == "__main__":
    main()
